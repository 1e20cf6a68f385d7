/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_cgroup_clean.c - cgroup-setup/ without touching a real cgroup: the
 * key-value and marker parsers, the ownership proofs (recorded processes
 * with their start times, the lock a live run holds), and the leftover
 * finder on a fake hierarchy (only cgroups with our prefix and marker are
 * ever removed, never one of a live run, at any depth).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cmocka.h>

#include "cgroup-setup/cg.h"

static void test_kv_marker(void **state)
{
	struct cg_kv *kv = malloc(sizeof(*kv));
	struct cg_marker m;
	char v[256];
	int64_t x;

	(void)state;
	assert_non_null(kv);
	cg_kv_parse("low 0\nhigh 12\nmax 3\noom 0\noom_kill 1\nbogus\n\nx y\n", kv);
	assert_int_equal(kv->n, 5);
	assert_int_equal(cg_kv_get(kv, "high", &x), 0);
	assert_int_equal(x, 12);
	assert_int_equal(cg_kv_get(kv, "oom_kill", &x), 0);
	assert_int_equal(x, 1);
	assert_int_equal(cg_kv_get(kv, "bogus", &x), -ENOENT);
	free(kv);
	assert_int_equal(cg_marker_parse("cgscale pid=12 start=345 pidns=4026531836 parent_enabled=memory,cpu",
					 &m), 0);
	assert_int_equal(m.pid, 12);
	assert_true(m.start == 345);
	assert_true(m.pidns == 4026531836ULL);
	assert_string_equal(m.enabled, "memory,cpu");
	assert_int_equal(cg_marker_parse("cgscale pid=7 start=9", &m), 0);
	assert_string_equal(m.enabled, "");
	assert_true(m.pidns == 0);
	assert_int_equal(cg_marker_parse("something else", &m), -EINVAL);
	assert_int_equal(cg_marker_parse("cgscale pid=0 start=9", &m), -EINVAL);
	/* our own marker: alive; with another start time: gone; made in
	 * another pid namespace: cannot tell */
	assert_int_equal(cg_marker_value(v, sizeof(v), "parent_enabled=memory"), 0);
	assert_int_equal(cg_marker_parse(v, &m), 0);
	assert_int_equal(cg_marker_owner(&m), 1);
	assert_string_equal(m.enabled, "memory");
	m.start++;
	assert_int_equal(cg_marker_owner(&m), 0);
	m.pidns++;
	assert_int_equal(cg_marker_owner(&m), -1);
	/* our own start time makes us alive; another does not */
	assert_true(cg_owner_alive(getpid(), cg_proc_start(getpid())));
	assert_false(cg_owner_alive(getpid(), cg_proc_start(getpid()) + 1));
}

/* Recorded processes: a pid is ours only while it is the same process. */
static void test_own(void **state)
{
	struct cg_own o = { 0 };
	char v[96];

	(void)state;
	snprintf(v, sizeof(v), "%d:%llu 1:%llu\n", (int)getpid(), cg_proc_start(getpid()),
		 cg_proc_start(1) + 1);
	assert_int_equal(cg_own_parse(&o, v), 0);
	assert_int_equal(o.n, 2);
	assert_true(cg_own_has(&o, getpid()));
	assert_false(cg_own_has(&o, 1));           /* pid 1, another start time */
	assert_false(cg_own_has(&o, getppid()));   /* never recorded */
	assert_false(cg_own_has(NULL, getpid()));
	assert_int_equal(cg_own_add(&o, getppid(), 0), 0);
	assert_true(cg_own_has(&o, getppid()));
	assert_int_equal(cg_own_parse(&o, "12"), -EINVAL);
	assert_int_equal(cg_own_parse(&o, "12:0"), -EINVAL);
	assert_int_equal(cg_own_parse(&o, "cgs:x"), -EINVAL);
	assert_int_equal(cg_own_parse(&o, "-3:5"), -EINVAL);
	assert_int_equal(cg_own_parse(&o, "4:5x"), -EINVAL);
	cg_own_free(&o);
	assert_int_equal(o.n, 0);
}

/* Whose a marked cgroup is: a held lock or a live marker make it a live
 * run's, whatever the other says; neither: gone, and the lock is ours. */
static void test_owner_state(void **state)
{
	char tmpl[] = "/dev/shm/cgscale-unit.XXXXXX";
	struct cg_marker dead = { .pid = getpid(), .start = cg_proc_start(getpid()) + 7 };
	struct cg_marker live = { .pid = getpid(), .start = cg_proc_start(getpid()) };
	struct cg_marker other = dead;
	int fd, held, again;

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	other.pidns = 1;
	assert_int_equal(cg_owner_state(tmpl, &live, &fd), CG_LIVE);
	assert_int_equal(fd, -1);
	assert_int_equal(cg_owner_state(tmpl, &other, &fd), CG_UNKNOWN);
	assert_int_equal(fd, -1);
	assert_int_equal(cg_owner_state(tmpl, &dead, &fd), CG_GONE);
	assert_true(fd >= 0);
	/* while the sweep holds it, a second sweep sees it in use */
	assert_int_equal(cg_owner_state(tmpl, &dead, &again), CG_LIVE);
	close(fd);
	/* a run's lock: in use though its marker names a dead pid (a run in
	 * another pid namespace, or one whose children still live) */
	held = cg_lock(tmpl);
	assert_true(held >= 0);
	assert_int_equal(cg_lock(tmpl), -EWOULDBLOCK);
	assert_int_equal(cg_owner_state(tmpl, &dead, &fd), CG_LIVE);
	assert_int_equal(cg_owner_state(tmpl, &other, &fd), CG_LIVE);
	close(held);
	assert_int_equal(cg_owner_state(tmpl, &dead, &fd), CG_GONE);
	close(fd);
	assert_int_equal(rmdir(tmpl), 0);
}

/* The leftover finder on a fake hierarchy in a tmpfs directory. */
struct seen {
	char log[4096];
};

static void record(void *arg, const char *path, const char *what)
{
	struct seen *s = arg;
	const char *base = strstr(path, "/h/");

	snprintf(s->log + strlen(s->log), sizeof(s->log) - strlen(s->log), "%s: %.20s\n",
		 base ? base + 3 : path, what);
}

static int mk(const char *root, const char *rel, const char *marker)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%.200s/%.200s", root, rel);
	if (mkdir(p, 0755))
		return -1;
	if (marker && setxattr(p, CG_MARKER, marker, strlen(marker), 0))
		return -1;
	return 0;
}

static bool exists(const char *root, const char *rel)
{
	char p[PATH_MAX];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	return !stat(p, &st);
}

/* Under @root (a/cgscale-1-x-0 made by the caller): a dead run's deeper
 * levels, a name without marker, a live run's cgroup, a dead run's cgroup
 * holding a foreign one, and a cgroup of someone else. */
static void make_tree(const char *root, const char *dead, const char *live)
{
	assert_int_equal(mk(root, "a/cgscale-1-x-0/cgscale-l2", dead), 0);
	assert_int_equal(mk(root, "a/cgscale-1-x-0/cgscale-l2/cgscale-l3", dead), 0);
	assert_int_equal(mk(root, "cgscale-nomarker", NULL), 0);
	assert_int_equal(mk(root, "b", NULL), 0);
	assert_int_equal(mk(root, "b/cgscale-2-y-0", live), 0);
	assert_int_equal(mk(root, "c", NULL), 0);
	assert_int_equal(mk(root, "c/cgscale-3-z-0", dead), 0);
	assert_int_equal(mk(root, "c/cgscale-3-z-0/foreign", NULL), 0);
	assert_int_equal(mk(root, "other", NULL), 0);
	/* a dead run's cgroup holding a live run's tree (--cgroup-parent
	 * pointed into it), and one holding a tree whose lock is held */
	assert_int_equal(mk(root, "d", NULL), 0);
	assert_int_equal(mk(root, "d/cgscale-4-w-0", dead), 0);
	assert_int_equal(mk(root, "d/cgscale-4-w-0/cgscale-5-v-0", live), 0);
	assert_int_equal(mk(root, "d/cgscale-4-w-0/cgscale-5-v-0/cgscale-l2", live), 0);
	assert_int_equal(mk(root, "d/cgscale-6-u-0", dead), 0);
	assert_int_equal(mk(root, "d/cgscale-6-u-0/cgscale-7-t-0", dead), 0);
}

/* What cg_clean must have left, removed (each rmdir must succeed: the
 * directory is there and empty), @root last. */
static void remove_left(const char *root)
{
	static const char *const left[] = { "c/cgscale-3-z-0/foreign", "c/cgscale-3-z-0", "c",
		"b/cgscale-2-y-0", "b", "cgscale-nomarker", "a", "other",
		"d/cgscale-4-w-0/cgscale-5-v-0/cgscale-l2", "d/cgscale-4-w-0/cgscale-5-v-0",
		"d/cgscale-4-w-0", "d/cgscale-6-u-0/cgscale-7-t-0", "d/cgscale-6-u-0", "d",
		"", NULL };
	for (unsigned i = 0; left[i]; i++) {
		char p[PATH_MAX];

		snprintf(p, sizeof(p), "%.200s/%.200s", root, left[i]);
		assert_int_equal(rmdir(p), 0);
	}
}

static void test_clean(void **state)
{
	char tmpl[] = "/dev/shm/cgscale-unit.XXXXXX", root[256], dead[128], live[128];
	char p[PATH_MAX];
	int lock;
	struct cg_layout l = { .kind = CG_PURE_V1, .n = 1 };
	struct seen seen = { "" };
	struct cg_clean_opts o = { .wait_ns = 0, .report = record, .arg = &seen };
	char err[256];
	int rc;

	(void)state;
	if (!mkdtemp(tmpl))
		skip();
	snprintf(root, sizeof(root), "%s/h", tmpl);
	mkdir(root, 0755);
	snprintf(dead, sizeof(dead), "cgscale pid=%d start=%llu", (int)getpid(),
		 cg_proc_start(getpid()) + 7);
	snprintf(live, sizeof(live), "cgscale pid=%d start=%llu", (int)getpid(),
		 cg_proc_start(getpid()));
	if (mk(root, "a", NULL) || mk(root, "a/cgscale-1-x-0", dead)) {
		/* trusted.* xattrs need root (CAP_SYS_ADMIN) */
		rmdir(root);
		skip();
	}
	make_tree(root, dead, live);
	snprintf(p, sizeof(p), "%s/d/cgscale-6-u-0/cgscale-7-t-0", root);
	lock = cg_lock(p);
	assert_true(lock >= 0);
	snprintf(l.h[0].mount, sizeof(l.h[0].mount), "%s", root);
	l.h[0].version = 1;
	/* dry run: lists, removes nothing */
	o.dry_run = true;
	rc = cg_clean(&l, &o, err, sizeof(err));
	assert_true(exists(root, "a/cgscale-1-x-0/cgscale-l2/cgscale-l3"));
	assert_non_null(strstr(seen.log, "a/cgscale-1-x-0/cgscale-l2/cgscale-l3: would remove"));
	assert_null(strstr(seen.log, "cgscale-5-v-0: would"));
	assert_null(strstr(seen.log, "cgscale-5-v-0/cgscale-l2: would"));
	o.dry_run = false;
	seen.log[0] = 0;
	rc = cg_clean(&l, &o, err, sizeof(err));
	assert_int_equal(rc, 3);     /* c/cgscale-3-z-0, d/cgscale-4-w-0, d/cgscale-6-u-0 stay */
	/* a live run's tree inside a dead one's: both stay, and why is said */
	assert_true(exists(root, "d/cgscale-4-w-0/cgscale-5-v-0/cgscale-l2"));
	assert_non_null(strstr(seen.log, "d/cgscale-4-w-0/cgscale-5-v-0: in use by cgscale"));
	assert_non_null(strstr(seen.log, "d/cgscale-4-w-0: kept: it holds the c"));
	assert_true(exists(root, "d/cgscale-6-u-0/cgscale-7-t-0"));
	assert_non_null(strstr(seen.log, "d/cgscale-6-u-0/cgscale-7-t-0: in use: a live pro"));
	close(lock);
	assert_false(exists(root, "a/cgscale-1-x-0"));
	assert_true(exists(root, "a"));
	assert_true(exists(root, "cgscale-nomarker"));
	assert_true(exists(root, "b/cgscale-2-y-0"));
	assert_true(exists(root, "c/cgscale-3-z-0/foreign"));
	assert_true(exists(root, "other"));
	assert_non_null(strstr(seen.log, "b/cgscale-2-y-0: in use by cgscale"));
	assert_non_null(strstr(seen.log, "cgscale-nomarker: has the cgscale na"));
	/* deepest first */
	assert_true(strstr(seen.log, "cgscale-l3: removed") < strstr(seen.log, "cgscale-l2: removed"));
	assert_true(strstr(seen.log, "cgscale-l2: removed") < strstr(seen.log, "cgscale-1-x-0: removed"));
	remove_left(root);
	assert_int_equal(rmdir(tmpl), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kv_marker),
		cmocka_unit_test(test_own),
		cmocka_unit_test(test_owner_state),
		cmocka_unit_test(test_clean),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
