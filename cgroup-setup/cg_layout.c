/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cg_layout.c - which cgroup hierarchies are mounted, where, with which
 * controllers, and where this process sits in each: pure v1, pure v2, or
 * the v1/v2 hybrid (e.g. memory on v1, a cgroup2 mount with few or no
 * controllers at /sys/fs/cgroup/unified). Read from /proc/self/mountinfo
 * and /proc/self/cgroup; the parser is pure so unit tests feed it text.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "cgroup-setup/cg.h"
#include "cgroup-setup/cg_int.h"

bool cg_list_has(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; p && *p;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == n && !strncmp(p, word, n))
			return true;
		p = end ? end + 1 : NULL;
	}
	return false;
}

const char *cg_kind_name(enum cg_kind k)
{
	static const char *const names[] = { "none", "v1", "v2", "hybrid" };

	return k <= CG_HYBRID ? names[k] : "?";
}

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = 0;
}

/* v1 super options that are not controllers. */
static bool v1_option(const char *o)
{
	static const char *const opts[] = { "rw", "ro", "noprefix",
		"clone_children", "xattr", "cpuset_v2_mode", "favordynmods",
		"none", NULL };

	if (strchr(o, '='))
		return true;      /* name=, release_agent= */
	for (unsigned i = 0; opts[i]; i++)
		if (!strcmp(o, opts[i]))
			return true;
	return false;
}

/* The controllers in v1 super options, comma-separated, into @out. */
static void v1_ctrls(char *superopts, char *out, size_t len)
{
	char *save = NULL;

	out[0] = 0;
	for (char *o = strtok_r(superopts, ",", &save); o;
	     o = strtok_r(NULL, ",", &save)) {
		if (v1_option(o))
			continue;
		if (strlen(out) + strlen(o) + 2 > len)
			break;
		if (out[0])
			strcat(out, ",");
		strcat(out, o);
	}
}

struct mline {
	char dev[32], root[PATH_MAX], mnt[PATH_MAX], opts[256];
	char fstype[32], superopts[512];
};

/* Split one mountinfo line; 0, or -EINVAL when it is not one. */
static int parse_mline(char *line, struct mline *m)
{
	char *f[32], *save = NULL;
	unsigned n = 0, sep = 0;

	for (char *t = strtok_r(line, " ", &save); t && n < 32;
	     t = strtok_r(NULL, " ", &save))
		f[n++] = t;
	for (unsigned i = 6; i < n; i++)
		if (!strcmp(f[i], "-")) {
			sep = i;
			break;
		}
	if (!sep || sep + 2 >= n)
		return -EINVAL;
	snprintf(m->dev, sizeof(m->dev), "%s", f[2]);
	snprintf(m->root, sizeof(m->root), "%s", f[3]);
	snprintf(m->mnt, sizeof(m->mnt), "%s", f[4]);
	snprintf(m->opts, sizeof(m->opts), "%s", f[5]);
	snprintf(m->fstype, sizeof(m->fstype), "%s", f[sep + 1]);
	snprintf(m->superopts, sizeof(m->superopts), "%s",
		 sep + 3 < n ? f[sep + 3] : "");
	unescape(m->root);
	unescape(m->mnt);
	return 0;
}

/* Make @path relative to the mount root @mroot: "" when outside it. */
static void rel_to_mount(const char *path, const char *mroot, char *out,
			 size_t len)
{
	size_t n = strlen(mroot);

	if (!strcmp(mroot, "/")) {
		snprintf(out, len, "%s", path);
	} else if (!strncmp(path, mroot, n) && (path[n] == '/' || !path[n])) {
		snprintf(out, len, "%s", path[n] ? path + n : "/");
	} else {
		out[0] = 0;
	}
}

/* The path of hierarchy @h in /proc/PID/cgroup text, as written there. */
static int find_cgroup_line(const struct cg_hier *h, const char *text,
			    char *out, size_t len)
{
	char first[64];
	const char *p = text;

	snprintf(first, sizeof(first), "%.63s", h->ctrls);
	first[strcspn(first, ",")] = 0;
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t ll = nl ? (size_t)(nl - p) : strlen(p);
		char line[PATH_MAX + 256], *c1, *c2;

		if (ll < sizeof(line)) {
			memcpy(line, p, ll);
			line[ll] = 0;
			c1 = strchr(line, ':');
			c2 = c1 ? strchr(c1 + 1, ':') : NULL;
			if (c2) {
				*c1 = *c2 = 0;
				if (h->version == 2 ? !strcmp(line, "0") && c1 + 1 == c2
						    : first[0] && cg_list_has(c1 + 1, first)) {
					snprintf(out, len, "%s", c2 + 1);
					return 0;
				}
			}
		}
		p = nl ? nl + 1 : NULL;
	}
	return -ENOENT;
}

int cg_proc_path(const struct cg_layout *l, unsigned h, const char *text,
		 char *out, size_t len)
{
	char raw[PATH_MAX];
	int rc;

	if (h >= l->n)
		return -EINVAL;
	rc = find_cgroup_line(&l->h[h], text, raw, sizeof(raw));
	if (rc)
		return rc;
	rel_to_mount(raw, l->h[h].mroot, out, len);
	return out[0] ? 0 : -ENOENT;
}

/* Add (or, for a second mount of one hierarchy, maybe replace) @m. */
static int add_hier(struct cg_layout *l, struct mline *m, const char *v2_ctrls,
		    char (*devs)[32])
{
	struct cg_hier h = { 0 };
	unsigned i;

	h.version = !strcmp(m->fstype, "cgroup2") ? 2 : 1;
	if (h.version == 1) {
		v1_ctrls(m->superopts, h.ctrls, sizeof(h.ctrls));
		if (!h.ctrls[0])
			return 0;   /* a named hierarchy (name=systemd) */
	} else if (v2_ctrls) {
		char tmp[256], *save = NULL;

		snprintf(tmp, sizeof(tmp), "%s", v2_ctrls);
		for (char *c = strtok_r(tmp, " \n", &save); c;
		     c = strtok_r(NULL, " \n", &save)) {
			if (strlen(h.ctrls) + strlen(c) + 2 > sizeof(h.ctrls))
				break;
			if (h.ctrls[0])
				strcat(h.ctrls, ",");
			strcat(h.ctrls, c);
		}
	}
	snprintf(h.mount, sizeof(h.mount), "%s", m->mnt);
	snprintf(h.mroot, sizeof(h.mroot), "%s", m->root);
	h.readonly = !strncmp(m->opts, "ro", 2) && (!m->opts[2] || m->opts[2] == ',');
	for (i = 0; i < l->n; i++) {
		if (strcmp(devs[i], m->dev))
			continue;
		/* the same hierarchy again: prefer a mount of its root */
		if (strcmp(l->h[i].mroot, "/") && !strcmp(h.mroot, "/"))
			l->h[i] = h;
		return 0;
	}
	if (l->n == CG_MAX_HIER)
		return -E2BIG;
	snprintf(devs[l->n], 32, "%s", m->dev);
	l->h[l->n++] = h;
	return 0;
}

int cg_layout_parse(const char *mountinfo, const char *self_cgroup,
		    const char *v2_ctrls, struct cg_layout *l, char *err,
		    size_t errlen)
{
	char (*devs)[32] = calloc(CG_MAX_HIER, 32);
	char *text = strdup(mountinfo ? mountinfo : ""), *save = NULL;
	struct mline *m = malloc(sizeof(*m));
	bool v1 = false, v2 = false;
	int rc = 0;

	memset(l, 0, sizeof(*l));
	if (!devs || !text || !m) {
		rc = -ENOMEM;
		goto out;
	}
	for (char *line = strtok_r(text, "\n", &save); line && !rc;
	     line = strtok_r(NULL, "\n", &save)) {
		if (parse_mline(line, m))
			continue;
		if (strcmp(m->fstype, "cgroup") && strcmp(m->fstype, "cgroup2"))
			continue;
		rc = add_hier(l, m, v2_ctrls, devs);
	}
	if (rc) {
		rc = cgs_errf(err, errlen, rc, "more than %d cgroup hierarchies mounted",
			     CG_MAX_HIER);
		goto out;
	}
	for (unsigned i = 0; i < l->n; i++) {
		struct cg_hier *h = &l->h[i];
		char raw[PATH_MAX];

		v1 |= h->version == 1;
		v2 |= h->version == 2;
		if (self_cgroup && !find_cgroup_line(h, self_cgroup, raw, sizeof(raw)))
			rel_to_mount(raw, h->mroot, h->self, sizeof(h->self));
	}
	l->kind = v1 && v2 ? CG_HYBRID : v1 ? CG_PURE_V1 : v2 ? CG_PURE_V2 : CG_NONE;
out:
	free(devs);
	free(text);
	free(m);
	return rc;
}

int cg_layout_find(const struct cg_layout *l, const char *ctrl)
{
	for (unsigned i = 0; i < l->n; i++)
		if (cg_list_has(l->h[i].ctrls, ctrl))
			return (int)i;
	return -ENOENT;
}

/* Read a whole /proc or cgroupfs file into a new buffer. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	size_t cap = 8192, n = 0;
	char *buf = malloc(cap);

	if (!f || !buf) {
		if (f)
			fclose(f);
		free(buf);
		return NULL;
	}
	for (;;) {
		size_t got = fread(buf + n, 1, cap - n - 1, f);

		n += got;
		if (n + 1 < cap)
			break;
		char *nb = realloc(buf, cap * 2);

		if (!nb) {
			free(buf);
			fclose(f);
			return NULL;
		}
		buf = nb;
		cap *= 2;
	}
	buf[n] = 0;
	fclose(f);
	return buf;
}

int cg_layout_detect(struct cg_layout *l, char *err, size_t errlen)
{
	char *mi = slurp("/proc/self/mountinfo");
	char *self = slurp("/proc/self/cgroup");
	char *v2 = NULL;
	int rc;

	if (!mi) {
		rc = cgs_errf(err, errlen, -errno, "cannot read /proc/self/mountinfo: %s",
			     strerror(errno));
		goto out;
	}
	/* a first pass finds the cgroup2 mount, whose root lists its
	 * controllers; the second fills them in */
	rc = cg_layout_parse(mi, self, NULL, l, err, errlen);
	for (unsigned i = 0; !rc && i < l->n; i++) {
		char path[PATH_MAX + 32];

		if (l->h[i].version != 2)
			continue;
		snprintf(path, sizeof(path), "%s/cgroup.controllers", l->h[i].mount);
		v2 = slurp(path);
		rc = cg_layout_parse(mi, self, v2 ? v2 : "", l, err, errlen);
		break;
	}
out:
	free(mi);
	free(self);
	free(v2);
	return rc;
}
