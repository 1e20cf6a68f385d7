/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cg_lib.c - the libcgroup 2.0.2 boundary: every libcgroup call of
 * cgscale is here, and its positive ECG* codes become -errno (ECGOTHER:
 * -cgroup_get_last_errno()), with cgroup_strerror() text in messages.
 *
 * 2.0.2 pitfalls designed around (measured on Debian 12):
 *  - cgroup_get_cgroup() + cgroup_modify_cgroup() writes back every value
 *    it read: cg_lib_set() builds a fresh struct holding only the knobs.
 *  - cgroup_attach_task(NULL) crashes: we always pass a named cgroup.
 *  - cgroup_create_cgroup() is mkdir -p: it silently reuses a cgroup that
 *    exists, so cg_lib_create() refuses one that does.
 *  - cgroup_delete_cgroup_ext(CGFLAG_DELETE_EMPTY_ONLY) returns 0 when
 *    rmdir fails with EBUSY (ECGNONEMPTY is dropped by its first-error
 *    logic), so cg_lib_remove() checks that the directory is gone.
 *  - There is no cgroup_setup_mode(), and cgroup_get_controller_version()
 *    is exported but only declared in an internal header (public in 3.0):
 *    we bind to the symbol under our own name.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libcgroup.h>

#include "cgroup-setup/cg.h"
#include "cgroup-setup/cg_int.h"

/* enum cg_version_t is CGROUP_UNK = 0, CGROUP_V1 = 1, CGROUP_V2 = 2 */
extern int cg_lib_controller_version(const char *ctrl, int *version)
	__asm__("cgroup_get_controller_version");

/* An ECG* code (or 0) as 0 or -errno. */
static int ecg_errno(int ecg)
{
	switch (ecg) {
	case 0:
		return 0;
	case ECGOTHER: {
		int e = cgroup_get_last_errno();

		return e > 0 ? -e : -EIO;
	}
	case ECGROUPNOTMOUNTED:
	case ECGROUPSUBSYSNOTMOUNTED:
		return -ENODEV;
	case ECGROUPNOTEXIST:
	case ECGROUPVALUENOTEXIST:
		return -ENOENT;
	case ECGROUPNOTOWNER:
		return -EPERM;
	case ECGROUPNOTALLOWED:
		return -EACCES;
	case ECGVALUEEXISTS:
	case ECGCONTROLLEREXISTS:
		return -EEXIST;
	case ECGINVAL:
		return -EINVAL;
	case ECGNONEMPTY:
		return -EBUSY;
	case ECGEOF:
		return -ENODATA;
	case ECGROUPNOTINITIALIZED:
		return -ENXIO;
	default:
		return -EIO;
	}
}

/* Translate @ecg, with "WHAT: libcgroup's text" in @err. */
static int lib_fail(int ecg, char *err, size_t errlen, const char *what)
{
	int rc = ecg_errno(ecg);

	if (err && rc)
		snprintf(err, errlen, "%s: %s", what, cgroup_strerror(ecg));
	return rc;
}

int cg_lib_init(char *err, size_t errlen)
{
	return lib_fail(cgroup_init(), err, errlen, "libcgroup cgroup_init");
}

int cg_lib_version(const char *ctrl)
{
	int v = 0;

	if (cg_lib_controller_version(ctrl, &v) || (v != 1 && v != 2))
		return -ENOENT;
	return v;
}

int cg_lib_mount(const char *ctrl, char *out, size_t len)
{
	char *mp = NULL;
	int rc = ecg_errno(cgroup_get_subsys_mount_point(ctrl, &mp));

	if (!rc && mp)
		snprintf(out, len, "%s", mp);
	free(mp);
	return rc ? rc : mp ? 0 : -ENOENT;
}

/* A struct cgroup named @rel with the controllers in comma-separated
 * @ctrls, and no values; *@c is the first one's. */
static struct cgroup *lib_cgroup(const char *ctrls, const char *rel,
				 struct cgroup_controller **c)
{
	struct cgroup *cg = cgroup_new_cgroup(rel);
	char name[64];

	*c = NULL;
	for (const char *p = ctrls; cg && p && *p;) {
		size_t n = strcspn(p, ",");
		struct cgroup_controller *cc;

		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		cc = cgroup_add_controller(cg, name);
		if (!cc)
			cgroup_free(&cg);
		if (!*c)
			*c = cc;
		p = p[n] ? p + n + 1 : NULL;
	}
	return cg;
}

static int full_path(const char *ctrl, const char *rel, char *out, size_t len)
{
	char mp[PATH_MAX], first[64];
	int rc;

	snprintf(first, sizeof(first), "%.*s", (int)strcspn(ctrl, ","), ctrl);
	rc = cg_lib_mount(first, mp, sizeof(mp));

	if (rc)
		return rc;
	if (snprintf(out, len, "%s%s", mp, strcmp(rel, "/") ? rel : "") >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

int cg_lib_create(const char *ctrl, const char *rel, char *err, size_t errlen)
{
	struct cgroup_controller *c;
	struct cgroup *cg;
	char path[PATH_MAX];
	struct stat st;
	int rc = full_path(ctrl, rel, path, sizeof(path));

	if (rc)
		return rc;
	if (!stat(path, &st)) {
		snprintf(err, errlen, "%s exists already: cgscale never reuses a cgroup", path);
		return -EEXIST;
	}
	cg = lib_cgroup(ctrl, rel, &c);
	if (!cg)
		return -ENOMEM;
	/* ignore_ownership: keep root's ownership, change no modes. On v2 it
	 * writes +CTRL into cgroup.subtree_control of every ancestor below
	 * the mount root; cg_tree.c has made those writes no-ops. */
	rc = cgroup_create_cgroup(cg, 1);
	cgroup_free(&cg);
	if (rc)
		return lib_fail(rc, err, errlen, path);
	return 0;
}

int cg_lib_set(const char *ctrl, const char *rel, unsigned n,
	       const char *const *names, const char *const *values,
	       char *err, size_t errlen)
{
	struct cgroup_controller *c;
	struct cgroup *cg = lib_cgroup(ctrl, rel, &c);
	int rc = 0;

	if (!cg)
		return -ENOMEM;
	/* a fresh struct: only these values are written */
	for (unsigned i = 0; !rc && i < n; i++) {
		rc = cgroup_set_value_string(c, names[i], values[i]);
		if (rc)
			rc = lib_fail(rc, err, errlen, names[i]);
	}
	if (!rc) {
		rc = cgroup_modify_cgroup(cg);
		if (rc == ECGROUPVALUENOTEXIST) {
			snprintf(err, errlen, "%s%s: no such knob file in this kernel's %s controller (%s)",
				 n == 1 ? "" : "one of ", n == 1 ? names[0] : "the knobs",
				 ctrl, cgroup_strerror(rc));
			rc = -ENOENT;
		} else if (rc) {
			char what[PATH_MAX + 128];

			snprintf(what, sizeof(what), "writing %s%s in %s",
				 n == 1 ? "" : "the knobs, e.g. ", names[0], rel);
			rc = lib_fail(rc, err, errlen, what);
		}
	}
	cgroup_free(&cg);
	return rc;
}

int cg_lib_attach(const char *ctrl, const char *rel, pid_t pid, char *err,
		  size_t errlen)
{
	struct cgroup_controller *c;
	struct cgroup *cg = lib_cgroup(ctrl, rel, &c);
	int rc;

	if (!cg)
		return -ENOMEM;
	/* never NULL: cgroup_attach_task(NULL) crashes in 2.0.2 */
	rc = cgroup_attach_task_pid(cg, pid);
	cgroup_free(&cg);
	if (rc) {
		char what[PATH_MAX + 64];

		snprintf(what, sizeof(what), "moving pid %d into %s:%s", (int)pid,
			 ctrl, rel);
		return lib_fail(rc, err, errlen, what);
	}
	return 0;
}

int cg_lib_remove(const char *ctrl, const char *rel, char *err, size_t errlen)
{
	struct cgroup_controller *c;
	struct cgroup *cg;
	char path[PATH_MAX];
	struct stat st;
	int rc = full_path(ctrl, rel, path, sizeof(path));

	if (rc)
		return rc;
	cg = lib_cgroup(ctrl, rel, &c);
	if (!cg)
		return -ENOMEM;
	/* EMPTY_ONLY: never migrate tasks into the parent */
	rc = cgroup_delete_cgroup_ext(cg, CGFLAG_DELETE_EMPTY_ONLY);
	cgroup_free(&cg);
	if (rc)
		return lib_fail(rc, err, errlen, path);
	/* 2.0.2 may report 0 for an rmdir that failed with EBUSY */
	if (!stat(path, &st)) {
		if (err)
			snprintf(err, errlen, "%s: still there (it holds tasks or cgroups)", path);
		return -EBUSY;
	}
	return 0;
}

int cg_lib_read(const char *ctrl, const char *rel, const char *file,
		char *buf, size_t len)
{
	char line[4096];
	void *h = NULL;
	size_t used = 0;
	int rc;

	if (!len)
		return -EINVAL;
	buf[0] = 0;
	rc = cgroup_read_value_begin(ctrl, rel, (char *)file, &h, line,
				     (int)sizeof(line));
	while (!rc) {
		size_t n = strlen(line);

		if (used + n + 1 > len)
			n = len - used - 1;
		memcpy(buf + used, line, n);
		used += n;
		buf[used] = 0;
		rc = cgroup_read_value_next(&h, line, (int)sizeof(line));
	}
	if (h)
		cgroup_read_value_end(&h);
	return rc == ECGEOF ? 0 : ecg_errno(rc);
}

int cg_lib_stat(const char *ctrl, const char *rel, struct cg_kv *kv)
{
	struct cgroup_stat st;
	void *h = NULL;
	int rc;

	kv->n = 0;
	rc = cgroup_read_stats_begin(ctrl, rel, &h, &st);
	while (!rc) {
		char *end;
		long long v = strtoll(st.value, &end, 10);

		if (kv->n < CG_KV_MAX && end != st.value) {
			snprintf(kv->key[kv->n], sizeof(kv->key[0]), "%.47s", st.name);
			kv->val[kv->n++] = v;
		}
		rc = cgroup_read_stats_next(&h, &st);
	}
	if (h)
		cgroup_read_stats_end(&h);
	/* 2.0.2 answers ECGINVAL when it cannot open the file */
	return rc == ECGEOF ? 0 : rc == ECGINVAL ? -ENOENT : ecg_errno(rc);
}

void cg_kv_parse(const char *text, struct cg_kv *kv)
{
	kv->n = 0;
	for (const char *p = text; p && *p && kv->n < CG_KV_MAX;) {
		const char *nl = strchr(p, '\n');
		size_t klen = strcspn(p, " \n");
		char *end;
		long long v;

		if (p[klen] == ' ' && klen && klen < sizeof(kv->key[0])) {
			v = strtoll(p + klen + 1, &end, 10);
			if (end != p + klen + 1) {
				memcpy(kv->key[kv->n], p, klen);
				kv->key[kv->n][klen] = 0;
				kv->val[kv->n++] = v;
			}
		}
		p = nl ? nl + 1 : NULL;
	}
}

int cg_kv_get(const struct cg_kv *kv, const char *key, int64_t *v)
{
	for (unsigned i = 0; i < kv->n; i++)
		if (!strcmp(kv->key[i], key)) {
			*v = kv->val[i];
			return 0;
		}
	return -ENOENT;
}
