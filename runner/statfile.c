/*
 * statfile.c - find, read and parse the cgroup statistics files of
 * statfile.h. One read = open + pread from offset 0 until end of file +
 * close: what a monitoring agent does, and what makes the kernel generate
 * (and, for memory.stat, flush) the statistics once per read.
 *
 * Which hierarchies are mounted where comes from cgroup-setup's layout
 * (cg_layout_detect); a file lives in the hierarchy of its controller, or
 * in cgroup v2's when it is a v2 core file (cgroup.stat, cpu.stat).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "../cgroup-setup/cg.h"
#include "statfile.h"
#include "util.h"

const char *const cgs_stat_file_names[] = {
	"memory.stat", "cgroup.stat", "cpu.stat", "memory.numa_stat", NULL
};
const char *const cgs_stat_target_names[] = { "leaf", "top", "parent", NULL };

/* The controller a file belongs to; NULL: a v2 core file. */
static const char *file_ctrl(enum cgs_stat_file f)
{
	switch (f) {
	case CGS_SF_MEMORY_STAT:
	case CGS_SF_NUMA_STAT:
		return "memory";
	case CGS_SF_CPU_STAT:
		return "cpu";
	case CGS_SF_CGROUP_STAT:
		break;
	}
	return NULL;
}

#define MAXF 40

/* Fields of a line, split on spaces; returns how many (at most MAXF). */
static unsigned split(const char *line, size_t len, const char **f, size_t *fl)
{
	unsigned n = 0;
	size_t i = 0;

	while (i < len && n < MAXF) {
		while (i < len && line[i] == ' ')
			i++;
		if (i >= len)
			break;
		f[n] = line + i;
		while (i < len && line[i] != ' ')
			i++;
		fl[n] = (size_t)(line + i - f[n]);
		n++;
	}
	return n;
}

/*
 * The hierarchy a file lives in: the one holding its controller (v1 or
 * v2), else, for a v2 core file (cgroup.stat; cpu.stat without the cpu
 * controller), the cgroup2 hierarchy. -ENOENT when there is none.
 */
static int file_hier(const struct cg_layout *l, enum cgs_stat_file f)
{
	const char *ctrl = file_ctrl(f);
	int h = ctrl ? cg_layout_find(l, ctrl) : -ENOENT;

	if (h >= 0 || (ctrl && f != CGS_SF_CPU_STAT))
		return h;
	for (unsigned i = 0; i < l->n; i++)
		if (l->h[i].version == 2)
			return (int)i;
	return -ENOENT;
}

/* Drop the last @up components of cgroup path @p ("/a/b/c" -> "/a").
 * -ERANGE when it has fewer. */
static int ascend(char *p, unsigned up)
{
	for (unsigned i = 0; i < up; i++) {
		char *slash = strrchr(p, '/');

		if (!slash || !strcmp(p, "/"))
			return -ERANGE;
		if (slash == p)
			slash[1] = 0;    /* "/a" -> "/" */
		else
			*slash = 0;
	}
	return 0;
}

/* Is hierarchy @h one of those holding the cgroups of @cg? */
static bool ours(const struct cg_layout *l, int h, const struct cgs_cgview *cg)
{
	for (const char *c = cg->ctrls; c && *c;) {
		size_t len = strcspn(c, ",");
		char one[32];

		snprintf(one, sizeof(one), "%.*s", (int)len, c);
		if (cg_layout_find(l, one) == h)
			return true;
		c += len;
		c += strspn(c, ",");
	}
	return false;
}

int cgs_stat_check(const struct cg_layout *l, enum cgs_stat_file file,
		   const struct cgs_cgview *cg, char *err, size_t errlen)
{
	const char *name = cgs_stat_file_names[file], *ctrl = file_ctrl(file);
	int h = file_hier(l, file);

	if (h < 0)
		return ctrl && file != CGS_SF_CPU_STAT
		       ? cgs_errf(err, errlen, -ENODEV,
				  "%s: the %s controller is mounted neither on cgroup v1 nor on cgroup v2 here; pick another file",
				  name, ctrl)
		       : cgs_errf(err, errlen, -ENODEV,
				  "%s is a cgroup v2 file and no cgroup2 filesystem is mounted here; pick another file",
				  name);
	if (cg && cg->depth && !ours(l, h, cg))
		return cgs_errf(err, errlen, -EINVAL,
				"%s lives in the cgroup v%d hierarchy at %s, where cgscale makes no cgroups (it makes them in the hierarchies of %s); pick a file of those",
				name, l->h[h].version, l->h[h].mount, cg->ctrls);
	return h;
}

int cgs_stat_locate_in(const struct cg_layout *l, const char *proc_cgroup,
		       enum cgs_stat_file file, enum cgs_stat_target target,
		       const struct cgs_cgview *cg, struct cgs_stat_where *w,
		       char *err, size_t errlen)
{
	const char *name = cgs_stat_file_names[file];
	const char *tname = cgs_stat_target_names[target];
	unsigned depth = cg ? cg->depth : 0, up;
	const struct cg_hier *hr;
	int h, rc;

	memset(w, 0, sizeof(*w));
	h = cgs_stat_check(l, file, cg, err, errlen);
	if (h < 0)
		return h;
	hr = &l->h[h];
	w->version = hr->version;
	if (cg_proc_path(l, (unsigned)h, proc_cgroup, w->cgroup, sizeof(w->cgroup)))
		return cgs_errf(err, errlen, -ENOENT,
				"%s: the task is in no cgroup that the cgroup v%d mount at %s shows",
				name, hr->version, hr->mount);
	if (depth) {
		up = target == CGS_ST_LEAF ? 0 : target == CGS_ST_TOP ? depth - 1 : depth;
		if (ascend(w->cgroup, up))
			return cgs_errf(err, errlen, -ERANGE,
					"target %s: the task's cgroup %s is not %u levels deep",
					tname, w->cgroup, up);
		snprintf(w->how, sizeof(w->how),
			 "%s: %u level(s) above the cgroup of task 0, of the %u cgscale made",
			 tname, up, depth);
	} else {
		snprintf(w->how, sizeof(w->how),
			 "%s: the tasks' own cgroup (cgscale made no cgroups)", tname);
	}
	rc = snprintf(w->path, sizeof(w->path), "%s%s/%s", hr->mount,
		      strcmp(w->cgroup, "/") ? w->cgroup : "", name);
	if (rc >= (int)sizeof(w->path))
		return cgs_errf(err, errlen, -ENAMETOOLONG, "the path of %s is too long", name);
	return 0;
}

int cgs_stat_locate(pid_t pid, enum cgs_stat_file file,
		    enum cgs_stat_target target, const struct cgs_cgview *cg,
		    struct cgs_stat_where *w, char *err, size_t errlen)
{
	struct cg_layout *l = malloc(sizeof(*l));
	char *pc = malloc(1 << 16), path[64];
	int rc = -ENOMEM;

	if (!l || !pc)
		goto out;
	rc = cg_layout_detect(l, err, errlen);
	if (rc)
		goto out;
	snprintf(path, sizeof(path), "/proc/%d/cgroup", pid ? (int)pid : (int)getpid());
	rc = cgs_read_file(path, pc, 1 << 16);
	if (rc) {
		cgs_errf(err, errlen, rc, "cannot read %s: %s", path, strerror(-rc));
		goto out;
	}
	rc = cgs_stat_locate_in(l, pc, file, target, cg, w, err, errlen);
	if (!rc && access(w->path, R_OK)) {
		rc = -errno;
		cgs_errf(err, errlen, rc, "%s: cannot read %s (cgroup %s, v%d): %s",
			 cgs_stat_file_names[file], w->path, w->cgroup, w->version,
			 strerror(-rc));
	}
out:
	free(l);
	free(pc);
	return rc;
}

ssize_t cgs_stat_read(const char *path, char **buf, size_t *cap)
{
	size_t len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	for (;;) {
		if (!*buf || *cap - len < 2) {
			size_t ncap = *cap ? 2 * *cap : 16384;
			char *nb = realloc(*buf, ncap);

			if (!nb) {
				close(fd);
				return -ENOMEM;
			}
			*buf = nb;
			*cap = ncap;
		}
		n = pread(fd, *buf + len, *cap - len - 1, (off_t)len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	close(fd);
	(*buf)[len] = 0;
	return (ssize_t)len;
}

/* A whole signed decimal of @n characters? */
static bool parse_int(const char *s, size_t n, int64_t *v)
{
	char tmp[32], *end;

	if (!n || n >= sizeof(tmp))
		return false;
	memcpy(tmp, s, n);
	tmp[n] = 0;
	errno = 0;
	*v = strtoll(tmp, &end, 10);
	return !errno && *end == 0 && (isdigit((unsigned char)tmp[0]) || tmp[0] == '-');
}

struct json_object *cgs_stat_parse(const char *text)
{
	struct json_object *o = json_object_new_object();

	for (const char *l = text; o && l && *l;) {
		const char *e = strchr(l, '\n'), *f[MAXF];
		size_t len = e ? (size_t)(e - l) : strlen(l), fl[MAXF];
		unsigned n = split(l, len, f, fl);
		struct json_object *sub;
		char key[128];
		const char *eq;
		int64_t v;

		l = e ? e + 1 : NULL;
		if (!n)
			continue;
		eq = memchr(f[0], '=', fl[0]);
		snprintf(key, sizeof(key), "%.*s", (int)(eq ? (size_t)(eq - f[0]) : fl[0]), f[0]);
		if (n == 2 && !eq && parse_int(f[1], fl[1], &v)) {
			json_object_object_add(o, key, json_object_new_int64(v));
			continue;
		}
		/* "anon N0=1 N1=2" (v2) or "total=3 N0=1 N1=2" (v1) */
		sub = json_object_new_object();
		for (unsigned i = eq ? 0 : 1; sub && i < n; i++) {
			const char *q = memchr(f[i], '=', fl[i]);
			char name[64];

			if (!q || !parse_int(q + 1, fl[i] - (size_t)(q + 1 - f[i]), &v)) {
				json_object_put(sub);
				sub = NULL;
				break;
			}
			snprintf(name, sizeof(name), "%.*s", (int)(q - f[i]), f[i]);
			json_object_object_add(sub, name, json_object_new_int64(v));
		}
		if (sub && json_object_object_length(sub))
			json_object_object_add(o, key, sub);
		else
			json_object_put(sub);
	}
	return o;
}
