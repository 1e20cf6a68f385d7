/*
 * statfile.c - find, read and parse the cgroup statistics files of
 * statfile.h. One read = open + pread from offset 0 until end of file +
 * close: what a monitoring agent does, and what makes the kernel generate
 * (and, for memory.stat, flush) the statistics once per read.
 *
 * The hierarchy of a file comes from /proc/self/mountinfo: a cgroup v1
 * mount whose options name the file's controller, else the cgroup2 mount
 * when its root's cgroup.controllers has it (or the file is a v2 core
 * file: cgroup.stat, cpu.stat).
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

/* Does @list, words separated by any of @seps, hold @word? */
static bool list_has(const char *list, const char *seps, const char *word)
{
	size_t n = strlen(word);

	while (list && *list) {
		size_t len = strcspn(list, seps);

		if (len == n && !strncmp(list, word, n))
			return true;
		list += len;
		list += strspn(list, seps);
	}
	return false;
}

/* One cgroup mount, from a mountinfo line. */
struct mnt {
	int version;
	char root[PATH_MAX], point[PATH_MAX];
};

/* Copy a mountinfo field, undoing its octal escapes (\040 = space). */
static void unescape(char *out, size_t len, const char *s, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; i < n && o + 1 < len; i++) {
		if (s[i] == '\\' && i + 3 < n && isdigit((unsigned char)s[i + 1]) &&
		    isdigit((unsigned char)s[i + 2]) && isdigit((unsigned char)s[i + 3])) {
			out[o++] = (char)(((s[i + 1] - '0') << 6) |
					  ((s[i + 2] - '0') << 3) | (s[i + 3] - '0'));
			i += 3;
		} else {
			out[o++] = s[i];
		}
	}
	out[o] = 0;
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

static bool field_is(const char *f, size_t fl, const char *s)
{
	return fl == strlen(s) && !strncmp(f, s, fl);
}

/*
 * The mount of the hierarchy holding @ctrl: a v1 mount that names it
 * (the kernel binds a controller to v1 or v2, never both), else cgroup2
 * when its root's @v2ctrls has it, or when @ctrl is NULL or @core (a
 * file every v2 cgroup has). 0 or -ENOENT.
 */
static int find_mount(const char *mountinfo, const char *v2ctrls,
		      const char *ctrl, bool core, struct mnt *m)
{
	struct mnt v2 = { 0 };
	bool have_v2 = false;

	for (const char *l = mountinfo; l && *l;) {
		const char *e = strchr(l, '\n'), *f[MAXF];
		size_t len = e ? (size_t)(e - l) : strlen(l), fl[MAXF];
		unsigned n = split(l, len, f, fl), sep = 6;
		char opts[512];

		l = e ? e + 1 : NULL;
		/* id parent dev root point opts [optional...] - type src super */
		while (sep < n && !field_is(f[sep], fl[sep], "-"))
			sep++;
		if (sep + 3 >= n + 1 || sep + 1 >= n)
			continue;
		if (field_is(f[sep + 1], fl[sep + 1], "cgroup2")) {
			if (!have_v2) {
				v2.version = 2;
				unescape(v2.root, sizeof(v2.root), f[3], fl[3]);
				unescape(v2.point, sizeof(v2.point), f[4], fl[4]);
				have_v2 = true;
			}
			continue;
		}
		if (!ctrl || !field_is(f[sep + 1], fl[sep + 1], "cgroup") || sep + 3 >= n)
			continue;
		unescape(opts, sizeof(opts), f[sep + 3], fl[sep + 3]);
		if (!list_has(opts, ",", ctrl))
			continue;
		m->version = 1;
		unescape(m->root, sizeof(m->root), f[3], fl[3]);
		unescape(m->point, sizeof(m->point), f[4], fl[4]);
		return 0;
	}
	if (have_v2 && (!ctrl || core || list_has(v2ctrls, " \n", ctrl))) {
		*m = v2;
		return 0;
	}
	return -ENOENT;
}

/* The task's cgroup in the hierarchy of @m, from /proc/PID/cgroup
 * ("N:ctrl,ctrl:/path" on v1, "0::/path" on v2). 0 or -ENOENT. */
static int proc_path(const char *text, const struct mnt *m, const char *ctrl,
		     char *out, size_t len)
{
	for (const char *l = text; l && *l;) {
		const char *e = strchr(l, '\n');
		size_t n = e ? (size_t)(e - l) : strlen(l);
		char line[PATH_MAX + 256], *c1, *c2;

		if (n < sizeof(line)) {
			memcpy(line, l, n);
			line[n] = 0;
		} else {
			line[0] = 0;
		}
		l = e ? e + 1 : NULL;
		c1 = strchr(line, ':');
		c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c1 = *c2 = 0;
		if (m->version == 2 ? strcmp(line, "0") || c1[1] :
		    !list_has(c1 + 1, ",", ctrl))
			continue;
		if ((size_t)snprintf(out, len, "%s", c2 + 1) >= len)
			return -ENAMETOOLONG;
		return 0;
	}
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

static unsigned components(const char *p)
{
	unsigned n = 0;

	for (; *p; p++)
		n += p[0] == '/' && p[1] && p[1] != '/';
	return n;
}

int cgs_stat_locate_text(const char *mountinfo, const char *v2ctrls,
			 const char *proc_cgroup, enum cgs_stat_file file,
			 enum cgs_stat_target target,
			 const struct cgs_cgview *cg,
			 struct cgs_stat_where *w, char *err, size_t errlen)
{
	const char *name = cgs_stat_file_names[file], *ctrl = file_ctrl(file);
	const char *tname = cgs_stat_target_names[target];
	unsigned depth = cg ? cg->depth : 0, up = 0;
	char rel[PATH_MAX];
	struct mnt m;
	int rc;

	memset(w, 0, sizeof(*w));
	if (find_mount(mountinfo, v2ctrls, ctrl, file == CGS_SF_CPU_STAT, &m))
		return ctrl ? cgs_errf(err, errlen, -ENODEV,
				       "%s: the %s controller is mounted neither on cgroup v1 nor on cgroup v2 here; pick another file",
				       name, ctrl)
			    : cgs_errf(err, errlen, -ENODEV,
				       "%s is a cgroup v2 file and no cgroup2 filesystem is mounted here; pick another file",
				       name);
	if (file == CGS_SF_CGROUP_STAT && m.version != 2)
		return cgs_errf(err, errlen, -ENODEV, "cgroup.stat needs cgroup v2");
	w->version = m.version;
	if (proc_path(proc_cgroup, &m, ctrl, w->cgroup, sizeof(w->cgroup)))
		return cgs_errf(err, errlen, -ENOENT,
				"%s: the task is in no cgroup of the %s hierarchy at %s",
				name, m.version == 2 ? "cgroup v2" : ctrl, m.point);
	if (depth) {
		struct mnt t;
		bool ours = false;

		/* is the file's hierarchy one that holds the cgroups we made? */
		for (const char *c = cg->ctrls; c && *c;) {
			size_t len = strcspn(c, ",");
			char one[32];

			snprintf(one, sizeof(one), "%.*s", (int)len, c);
			ours |= !find_mount(mountinfo, v2ctrls, one, false, &t) &&
				!strcmp(t.point, m.point);
			c += len;
			c += strspn(c, ",");
		}
		if (!ours)
			return cgs_errf(err, errlen, -EINVAL,
					"%s lives in the cgroup v%d hierarchy at %s, where cgscale made no cgroups (its cgroups are in the hierarchies of %s); pick a file of those",
					name, m.version, m.point, cg->ctrls);
		up = target == CGS_ST_LEAF ? 0 : target == CGS_ST_TOP ? depth - 1 : depth;
		if (ascend(w->cgroup, up))
			return cgs_errf(err, errlen, -ERANGE,
					"target %s: the task's cgroup %s is not %u levels deep",
					tname, w->cgroup, up);
		snprintf(w->how, sizeof(w->how), "%s: %u level(s) above the cgroup of task 0, at depth %u",
			 tname, up, depth);
	} else {
		snprintf(w->how, sizeof(w->how),
			 "%s: the tasks' own cgroup, which is the runner's (cgscale made no cgroups)",
			 tname);
	}
	/* the mount shows the cgroup m.root (bind mounts, cgroup namespaces) */
	snprintf(rel, sizeof(rel), "%s", w->cgroup);
	if (strcmp(m.root, "/")) {
		size_t rl = strlen(m.root);

		if (strncmp(rel, m.root, rl) || (rel[rl] && rel[rl] != '/'))
			return cgs_errf(err, errlen, -ENOENT,
					"%s: cgroup %s is outside what %s shows (%s)",
					name, w->cgroup, m.point, m.root);
		memmove(rel, rel + rl, strlen(rel + rl) + 1);
	}
	rc = snprintf(w->path, sizeof(w->path), "%s%s/%s", m.point,
		      components(rel) ? rel : "", name);
	if (rc >= (int)sizeof(w->path))
		return cgs_errf(err, errlen, -ENAMETOOLONG, "the path of %s is too long", name);
	return 0;
}

int cgs_stat_locate(pid_t pid, enum cgs_stat_file file,
		    enum cgs_stat_target target, const struct cgs_cgview *cg,
		    struct cgs_stat_where *w, char *err, size_t errlen)
{
	char *mi = malloc(1 << 20), *pc = malloc(1 << 16), ctrls[512] = "";
	char path[64];
	struct mnt m;
	int rc = -ENOMEM;

	if (!mi || !pc)
		goto out;
	snprintf(path, sizeof(path), "/proc/%d/cgroup", pid ? (int)pid : (int)getpid());
	rc = cgs_read_file("/proc/self/mountinfo", mi, 1 << 20);
	if (!rc)
		rc = cgs_read_file(path, pc, 1 << 16);
	if (rc) {
		cgs_errf(err, errlen, rc, "cannot read /proc/self/mountinfo or %s: %s",
			 path, strerror(-rc));
		goto out;
	}
	/* the cgroup2 root's controllers, when cgroup2 is mounted */
	if (!find_mount(mi, "", NULL, false, &m)) {
		char cpath[PATH_MAX + 32];

		snprintf(cpath, sizeof(cpath), "%s/cgroup.controllers", m.point);
		cgs_read_file(cpath, ctrls, sizeof(ctrls));
	}
	rc = cgs_stat_locate_text(mi, ctrls, pc, file, target, cg, w, err, errlen);
	if (!rc && access(w->path, R_OK)) {
		rc = -errno;
		cgs_errf(err, errlen, rc,
			 "%s: cannot read %s (cgroup %s, v%d): %s%s",
			 cgs_stat_file_names[file], w->path, w->cgroup, w->version,
			 strerror(-rc),
			 rc == -ENOENT && w->version == 2 && !strcmp(w->cgroup, "/")
			 ? "; the v2 root cgroup has no memory files, run with cgroups of our own"
			 : "");
	}
out:
	free(mi);
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
