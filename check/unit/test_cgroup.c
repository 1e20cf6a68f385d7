/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_cgroup.c - cgroup-setup/ and the runner's cgroup options without
 * touching a real cgroup: name and path checks, --cgroup-set parsing, the
 * v1/v2 knob table, layout detection from sample mountinfo and
 * /proc/self/cgroup text (this machine's hybrid, pure v2, pure v1 with
 * co-mounted controllers, a container's bind mount), the tree's names,
 * and the ABBA layout order (markers and the leftover finder:
 * test_cgroup_clean.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cmocka.h>

#include "cgroup-setup/cg.h"
#include "runner/cgroups/cgrun.h"

/* This machine: a v1/v2 hybrid, memory on v1, the shell in a memcg. */
static const char hybrid_mi[] =
	"25 30 0:23 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n"
	"31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	"32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
	"33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct\n"
	"34 31 0:31 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset\n"
	"35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
	"40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd\n"
	"41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";
static const char hybrid_self[] =
	"9:name=systemd:/\n4:memory:/process_api/d3dd\n3:cpuset:/\n2:cpuacct:/\n1:cpu:/\n0::/\n";

/* A systemd host: pure v2, optional fields before the separator. */
static const char v2_mi[] =
	"22 1 259:2 / / rw,relatime shared:1 - ext4 /dev/root rw\n"
	"28 24 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n";
static const char v2_self[] = "0::/user.slice/user-0.slice/session-3.scope\n";

/* An old v1 host with cpu,cpuacct co-mounted, and a duplicate mount. */
static const char v1_mi[] =
	"30 25 0:26 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n"
	"31 25 0:27 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
	"90 25 0:27 / /mnt/mem\\040copy rw - cgroup cgroup rw,memory\n"
	"32 25 0:28 / /sys/fs/cgroup/cpuset ro - cgroup cgroup rw,cpuset,clone_children\n";
static const char v1_self[] = "3:cpuset:/\n2:memory:/a/b\n1:cpu,cpuacct:/x\n";

/* A container without a cgroup namespace: the mount shows a subtree. */
static const char ct_mi[] =
	"700 600 0:30 /docker/abc /sys/fs/cgroup rw,nosuid - cgroup2 cgroup rw\n";
static const char ct_self[] = "0::/docker/abc/sub\n";

static void test_names(void **state)
{
	(void)state;
	assert_true(cg_name_ok("cgscale-12-ab"));
	assert_true(cg_name_ok("a.b_c-D9"));
	assert_false(cg_name_ok(""));
	assert_false(cg_name_ok("."));
	assert_false(cg_name_ok(".."));
	assert_false(cg_name_ok("a/b"));
	assert_false(cg_name_ok("a b"));
	assert_false(cg_name_ok("a\nb"));
	assert_false(cg_name_ok("x$"));
}

static void expect_path(const char *in, int rc, const char *out)
{
	char buf[PATH_MAX], err[512] = "";

	assert_int_equal(cg_path_check(in, buf, sizeof(buf), err, sizeof(err)), rc);
	if (!rc)
		assert_string_equal(buf, out);
	else
		assert_true(err[0] != 0);
}

static void test_paths(void **state)
{
	(void)state;
	expect_path("/", 0, "/");
	expect_path("a/b", 0, "/a/b");
	expect_path("/a/b/", 0, "/a/b");
	expect_path("/a//b", -EINVAL, NULL);
	expect_path("/a/../etc", -EINVAL, NULL);
	expect_path("/a/./b", -EINVAL, NULL);
	expect_path("/sys/fs/cgroup/memory/a", -EINVAL, NULL);
	expect_path("/a b", -EINVAL, NULL);
	expect_path("", -EINVAL, NULL);
}

static void test_knob_parse(void **state)
{
	struct cg_knob k;
	char err[512];

	(void)state;
	assert_int_equal(cg_knob_parse("1:memory.max=512M", &k, err, sizeof(err)), 0);
	assert_int_equal(k.level, 1);
	assert_string_equal(k.ctrl, "memory");
	assert_string_equal(k.name, "memory.max");
	assert_string_equal(k.value, "512M");
	assert_int_equal(cg_knob_parse("3:cpu.max=80000 100000", &k, err, sizeof(err)), 0);
	assert_string_equal(k.value, "80000 100000");
	assert_int_equal(cg_knob_parse("2:hugetlb.2MB.limit_in_bytes=0", &k, err, sizeof(err)), 0);
	assert_string_equal(k.ctrl, "hugetlb");
	static const char *const bad[] = {
		"memory.max=1", "0:memory.max=1", "17:memory.max=1", "x:memory.max=1",
		"-1:memory.max=1", "1:memory=1", "1:.max=1", "1:memory.=1",
		"1:memory.max=", "1:=5", "1:memory.max", "1:../memory.max=1",
		"1:memory/max=1", "1:cgroup.procs=1", "1:cgroup.subtree_control=+memory",
		"1:memory.max=1\n2", ":memory.max=1", NULL };
	for (unsigned i = 0; bad[i]; i++) {
		err[0] = 0;
		assert_int_equal(cg_knob_parse(bad[i], &k, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "--cgroup-set"));
	}
	char big[200];

	memset(big, 'x', sizeof(big));
	memcpy(big, "1:memory.max=", 13);
	big[sizeof(big) - 1] = 0;
	assert_int_equal(cg_knob_parse(big, &k, err, sizeof(err)), -EINVAL);
}

static void test_knob_version(void **state)
{
	const char *other;

	(void)state;
	assert_int_equal(cg_knob_version("memory.min", &other), 2);
	assert_int_equal(cg_knob_version("memory.max", &other), 2);
	assert_string_equal(other, "memory.limit_in_bytes");
	assert_int_equal(cg_knob_version("memory.limit_in_bytes", &other), 1);
	assert_string_equal(other, "memory.max");
	assert_int_equal(cg_knob_version("cpu.cfs_quota_us", &other), 1);
	assert_int_equal(cg_knob_version("cpu.max", &other), 2);
	assert_int_equal(cg_knob_version("blkio.weight", &other), 1);
	assert_int_equal(cg_knob_version("io.max", &other), 2);
	assert_int_equal(cg_knob_version("hugetlb.2MB.limit_in_bytes", &other), 1);
	assert_int_equal(cg_knob_version("memory.oom_control", &other), 1);
	assert_int_equal(cg_knob_version("pids.max", &other), 0);
	assert_int_equal(cg_knob_version("cpuset.cpus", &other), 0);
	assert_int_equal(cg_knob_version("memory.numa_stat", &other), 0);
}

static void parse(const char *mi, const char *self, const char *v2, struct cg_layout *l)
{
	char err[512];

	assert_int_equal(cg_layout_parse(mi, self, v2, l, err, sizeof(err)), 0);
}

static void test_layout_hybrid(void **state)
{
	struct cg_layout l;
	int m, h;

	(void)state;
	parse(hybrid_mi, hybrid_self, "hugetlb\n", &l);
	assert_int_equal(l.kind, CG_HYBRID);
	assert_string_equal(cg_kind_name(l.kind), "hybrid");
	assert_int_equal(l.n, 5);          /* name=systemd is not one */
	m = cg_layout_find(&l, "memory");
	assert_true(m >= 0);
	assert_int_equal(l.h[m].version, 1);
	assert_string_equal(l.h[m].mount, "/sys/fs/cgroup/memory");
	assert_string_equal(l.h[m].self, "/process_api/d3dd");
	h = cg_layout_find(&l, "hugetlb");
	assert_true(h >= 0);
	assert_int_equal(l.h[h].version, 2);
	assert_string_equal(l.h[h].self, "/");
	assert_string_equal(l.h[cg_layout_find(&l, "cpu")].self, "/");
	assert_int_equal(cg_layout_find(&l, "io"), -ENOENT);
	assert_int_equal(cg_layout_find(&l, "cpu,cpuacct"), -ENOENT);
}

/* What depth 0 is: the runner's memory cgroup and how deep it lies, or
 * --cgroup-parent's; nothing when no layout is depth 0. */
static void test_depth0_text(void **state)
{
	static struct cgs_cgrun c;
	char buf[PATH_MAX + 200];

	(void)state;
	memset(&c, 0, sizeof(c));
	parse(hybrid_mi, hybrid_self, "hugetlb\n", &c.lay);
	c.detected = true;
	c.nlayouts = 2;
	c.L[0].depth = 3;
	assert_true(cgs_cgrun_depth0_text(&c, buf, sizeof(buf)));
	assert_non_null(strstr(buf, "runner's cgroup, memory /process_api/d3dd (2 levels below the root)"));
	assert_non_null(strstr(buf, "--cgroup-parent / runs them in the root"));
	c.has_parent = true;
	strcpy(c.parent, "/");
	assert_true(cgs_cgrun_depth0_text(&c, buf, sizeof(buf)));
	assert_non_null(strstr(buf, "--cgroup-parent / (0 levels below the root)"));
	c.L[1].depth = 3;
	assert_false(cgs_cgrun_depth0_text(&c, buf, sizeof(buf)));
}

static void test_layout_v2(void **state)
{
	struct cg_layout l;
	int m;

	(void)state;
	parse(v2_mi, v2_self, "cpuset cpu io memory hugetlb pids rdma misc\n", &l);
	assert_int_equal(l.kind, CG_PURE_V2);
	assert_int_equal(l.n, 1);
	m = cg_layout_find(&l, "memory");
	assert_int_equal(m, 0);
	assert_string_equal(l.h[0].ctrls, "cpuset,cpu,io,memory,hugetlb,pids,rdma,misc");
	assert_string_equal(l.h[0].self, "/user.slice/user-0.slice/session-3.scope");
	assert_false(l.h[0].readonly);
	assert_int_equal(cg_layout_find(&l, "cpuacct"), -ENOENT);
}

static void test_layout_v1(void **state)
{
	struct cg_layout l;
	char out[PATH_MAX];
	int c, m, s;

	(void)state;
	parse(v1_mi, v1_self, NULL, &l);
	assert_int_equal(l.kind, CG_PURE_V1);
	assert_int_equal(l.n, 3);          /* the second memory mount counts once */
	c = cg_layout_find(&l, "cpuacct");
	assert_int_equal(c, cg_layout_find(&l, "cpu"));
	assert_string_equal(l.h[c].ctrls, "cpu,cpuacct");
	assert_string_equal(l.h[c].self, "/x");
	m = cg_layout_find(&l, "memory");
	assert_string_equal(l.h[m].mount, "/sys/fs/cgroup/memory");
	assert_string_equal(l.h[m].self, "/a/b");
	s = cg_layout_find(&l, "cpuset");
	assert_string_equal(l.h[s].ctrls, "cpuset");
	assert_true(l.h[s].readonly);
	assert_int_equal(cg_proc_path(&l, (unsigned)m, "2:memory:/q/r\n1:cpu,cpuacct:/\n",
				      out, sizeof(out)), 0);
	assert_string_equal(out, "/q/r");
	assert_int_equal(cg_proc_path(&l, (unsigned)s, "2:memory:/q\n", out, sizeof(out)),
			 -ENOENT);
	/* a duplicate first seen with a subtree root yields to the real root */
	parse("90 25 0:27 /sub /mnt/m rw - cgroup cgroup rw,memory\n"
	      "31 25 0:27 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n",
	      "2:memory:/sub/x\n", NULL, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.h[0].mount, "/sys/fs/cgroup/memory");
	assert_string_equal(l.h[0].self, "/sub/x");
	/* an escaped mount point */
	parse("90 25 0:27 / /mnt/mem\\040copy rw - cgroup cgroup rw,memory\n", "", NULL, &l);
	assert_string_equal(l.h[0].mount, "/mnt/mem copy");
	assert_string_equal(l.h[0].self, "");
}

static void test_layout_container(void **state)
{
	struct cg_layout l;
	char out[PATH_MAX];

	(void)state;
	parse(ct_mi, ct_self, "memory pids\n", &l);
	assert_int_equal(l.kind, CG_PURE_V2);
	assert_string_equal(l.h[0].mroot, "/docker/abc");
	assert_string_equal(l.h[0].self, "/sub");
	assert_int_equal(cg_proc_path(&l, 0, "0::/docker/abc\n", out, sizeof(out)), 0);
	assert_string_equal(out, "/");
	/* outside the mounted subtree: not visible */
	assert_int_equal(cg_proc_path(&l, 0, "0::/docker/abcd\n", out, sizeof(out)), -ENOENT);
	parse(ct_mi, "0::/other\n", "memory\n", &l);
	assert_string_equal(l.h[0].self, "");
	parse("", "", NULL, &l);
	assert_int_equal(l.kind, CG_NONE);
	assert_int_equal(l.n, 0);
}

static void knob_expect(const struct cg_layout *l, const char *spec, int rc,
			 const char *msg)
{
	struct cg_knob k;
	char err[512] = "";

	assert_int_equal(cg_knob_parse(spec, &k, err, sizeof(err)), 0);
	assert_int_equal(cg_knob_check(l, &k, err, sizeof(err)), rc);
	if (msg)
		assert_non_null(strstr(err, msg));
}

static void test_knob_check(void **state)
{
	struct cg_layout hy, v2;

	(void)state;
	parse(hybrid_mi, hybrid_self, "hugetlb\n", &hy);
	parse(v2_mi, v2_self, "cpuset cpu io memory pids\n", &v2);
	knob_expect(&hy, "1:memory.min=1G", -EINVAL,
		     "memory.min needs cgroup v2; this system mounts memory on v1");
	knob_expect(&hy, "1:cpu.max=1000 10000", -EINVAL, "(the nearest v1 knob: cpu.cfs_quota_us");
	knob_expect(&hy, "1:memory.limit_in_bytes=1G", 0, NULL);
	knob_expect(&hy, "1:cpu.cfs_quota_us=80000", 0, NULL);
	knob_expect(&hy, "1:io.max=8:0 rbps=1", -ENODEV, "/sys/fs/cgroup/unified/cgroup.controllers");
	knob_expect(&v2, "1:memory.limit_in_bytes=1G", -EINVAL,
		     "memory.limit_in_bytes needs cgroup v1; this system mounts memory on v2 (the nearest v2 knob: memory.max)");
	knob_expect(&v2, "1:memory.min=1G", 0, NULL);
	knob_expect(&v2, "2:cpu.max=50000 100000", 0, NULL);
	knob_expect(&v2, "1:blkio.weight=100", -ENODEV, "blkio controller");
}

static void test_tree_plan(void **state)
{
	struct cg_layout hy, v2;
	struct cg_knob k[2];
	struct cg_tree t;
	char err[512], p[PATH_MAX];
	struct cg_spec s = { .depth = 3, .nleaves = 1, .id = CG_PREFIX "1-ab-0" };

	(void)state;
	parse(hybrid_mi, hybrid_self, "hugetlb\n", &hy);
	parse(v2_mi, v2_self, "cpuset cpu io memory pids\n", &v2);
	assert_int_equal(cg_tree_plan(&t, &hy, &s, err, sizeof(err)), 0);
	assert_int_equal(t.nh, 1);
	assert_int_equal(t.nnodes, 3);
	assert_string_equal(t.h[0].parent, "/process_api/d3dd");
	assert_int_equal(cg_tree_path(&t, 0, 2, p, sizeof(p)), 0);
	assert_string_equal(p, "/sys/fs/cgroup/memory/process_api/d3dd/cgscale-1-ab-0/cgscale-l2/cgscale-l3");
	assert_int_equal(t.level[0], 1);
	assert_int_equal(t.level[2], 3);
	cg_tree_free(&t);
	/* per-task under the root, and a cpu knob: two hierarchies on v1 */
	assert_int_equal(cg_knob_parse("1:cpu.cfs_quota_us=80000", &k[0], err, sizeof(err)), 0);
	s = (struct cg_spec){ .depth = 2, .per_task = true, .nleaves = 3, .parent = "/",
			      .nknobs = 1, .knobs = k, .id = CG_PREFIX "1-ab-1" };
	assert_int_equal(cg_tree_plan(&t, &hy, &s, err, sizeof(err)), 0);
	assert_int_equal(t.nh, 2);
	assert_int_equal(t.nnodes, 4);
	assert_int_equal(t.first_leaf, 1);
	assert_int_equal(cg_tree_rel(&t, 1, 3, p, sizeof(p)), 0);
	assert_string_equal(p, "/cgscale-1-ab-1/cgscale-t2");
	assert_string_equal(t.h[1].need, "cpu");
	cg_tree_free(&t);
	/* depth 1 per task: sibling leaves directly in the parent */
	s = (struct cg_spec){ .depth = 1, .per_task = true, .nleaves = 2,
			      .id = CG_PREFIX "1-ab-2" };
	assert_int_equal(cg_tree_plan(&t, &v2, &s, err, sizeof(err)), 0);
	assert_int_equal(cg_tree_rel(&t, 0, 1, p, sizeof(p)), 0);
	assert_string_equal(p, "/user.slice/user-0.slice/session-3.scope/cgscale-1-ab-2-t1");
	cg_tree_free(&t);
	/* a v2 knob on v1 memory never gets planned */
	assert_int_equal(cg_knob_parse("1:memory.min=1G", &k[1], err, sizeof(err)), 0);
	s = (struct cg_spec){ .depth = 3, .nleaves = 1, .nknobs = 1, .knobs = &k[1],
			      .id = CG_PREFIX "x" };
	assert_int_equal(cg_tree_plan(&t, &hy, &s, err, sizeof(err)), -EINVAL);
	cg_tree_free(&t);
	/* a knob below the tree's depth does not apply to it */
	assert_int_equal(cg_knob_parse("3:cpu.max=max", &k[0], err, sizeof(err)), 0);
	s = (struct cg_spec){ .depth = 2, .nleaves = 1, .nknobs = 1, .knobs = k,
			      .id = CG_PREFIX "x" };
	assert_int_equal(cg_tree_plan(&t, &v2, &s, err, sizeof(err)), 0);
	assert_string_equal(t.h[0].need, "memory");
	cg_tree_free(&t);
	/* depth 0 has no tree */
	s.depth = 0;
	assert_int_equal(cg_tree_plan(&t, &hy, &s, err, sizeof(err)), -EINVAL);
	cg_tree_free(&t);
}

static void test_order_and_depths(void **state)
{
	unsigned d[8];
	char err[256], name[512];
	struct cg_knob k[2];

	(void)state;
	/* ABBA: forward in even runs, backward in odd ones */
	assert_int_equal(cgs_cg_order(2, 0, 0), 0);
	assert_int_equal(cgs_cg_order(2, 0, 1), 1);
	assert_int_equal(cgs_cg_order(2, 1, 0), 1);
	assert_int_equal(cgs_cg_order(2, 1, 1), 0);
	assert_int_equal(cgs_cg_order(2, 2, 0), 0);
	assert_int_equal(cgs_cg_order(3, 1, 0), 2);
	assert_int_equal(cgs_cg_order(3, 1, 2), 0);
	assert_int_equal(cgs_cg_order(1, 5, 0), 0);
	assert_int_equal(cgs_cg_parse_depths("0,3", d, 8, err, sizeof(err)), 2);
	assert_int_equal(d[0], 0);
	assert_int_equal(d[1], 3);
	assert_int_equal(cgs_cg_parse_depths("16", d, 8, err, sizeof(err)), 1);
	static const char *const bad[] = { "", "17", "-1", "0,0", "1,", "1,,2", "a",
		"2x", " 1", "+1", "0,1,2,3,4,5,6,7,8", NULL };
	for (unsigned i = 0; bad[i]; i++)
		assert_int_equal(cgs_cg_parse_depths(bad[i], d, 8, err, sizeof(err)), -EINVAL);
	assert_int_equal(cg_knob_parse("1:memory.min=1G", &k[0], err, sizeof(err)), 0);
	assert_int_equal(cg_knob_parse("3:memory.max=512M", &k[1], err, sizeof(err)), 0);
	cgs_cg_layout_name(0, false, k, 2, name, sizeof(name));
	assert_string_equal(name, "depth=0");
	cgs_cg_layout_name(3, false, k, 1, name, sizeof(name));
	assert_string_equal(name, "depth=3 leaf=shared set=1:memory.min=1G");
	cgs_cg_layout_name(2, true, k, 2, name, sizeof(name));
	assert_string_equal(name, "depth=2 leaf=per-task set=1:memory.min=1G");
	cgs_cg_layout_name(3, false, k, 2, name, sizeof(name));
	assert_string_equal(name, "depth=3 leaf=shared set=1:memory.min=1G set=3:memory.max=512M");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_knob_parse),
		cmocka_unit_test(test_knob_version),
		cmocka_unit_test(test_layout_hybrid),
		cmocka_unit_test(test_depth0_text),
		cmocka_unit_test(test_layout_v2),
		cmocka_unit_test(test_layout_v1),
		cmocka_unit_test(test_layout_container),
		cmocka_unit_test(test_knob_check),
		cmocka_unit_test(test_tree_plan),
		cmocka_unit_test(test_order_and_depths),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
