/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_statfile.c - where a statistics file is, in cgroup-setup's layout
 * (hybrid v1/v2 as on the dev machine, pure v2, pure v1, a cgroup
 * namespace's mount root), which
 * cgroup leaf/top/parent name at a depth, the errors for files in a
 * hierarchy without our cgroups, one whole read of a file bigger than
 * the first buffer, and the parser on v1 and v2 texts.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "cgroup-setup/cg.h"
#include "runner/cgroups/statpath.h"

/* The layout of @mi (mountinfo text) with @v2 as the cgroup2 root's
 * controllers, then resolve. */
static int locate(const char *mi, const char *v2, const char *pc,
		  enum cgs_stat_file f, enum cgs_stat_target t,
		  const struct cgs_cgview *cg, struct cgs_stat_where *w,
		  char *err, size_t errlen)
{
	struct cg_layout *l = malloc(sizeof(*l));
	int rc;

	assert_non_null(l);
	assert_int_equal(cg_layout_parse(mi, NULL, v2, l, err, errlen), 0);
	rc = cgs_stat_locate_in(l, pc, f, t, cg, w, err, errlen);
	free(l);
	return rc;
}

static const char hybrid_mi[] =
	"31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	"32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
	"33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct\n"
	"35 31 0:32 / /sys/fs/cgroup/memory rw,relatime shared:9 - cgroup cgroup rw,memory\n"
	"40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd\n"
	"41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";
static const char hybrid_pc[] =
	"9:name=systemd:/\n4:memory:/sandbox/me/cgscale-1/cgscale-l2/cgscale-l3\n"
	"1:cpu:/\n0::/\n";

static const char v2_mi[] =
	"22 1 0:20 / / rw - ext4 /dev/vda rw\n"
	"25 22 0:22 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw,nsdelegate\n";
static const char v2_pc[] = "0::/user.slice/cgscale-7/cgscale-l2/cgscale-t1\n";
static const char v2_ctrls[] = "cpuset cpu io memory hugetlb pids\n";

static void t_hybrid(void **state)
{
	struct cgs_cgview cg = { 3, "memory" };
	struct cgs_stat_where w;
	char err[512];

	(void)state;
	assert_int_equal(locate(hybrid_mi, "hugetlb\n", hybrid_pc,
					      CGS_SF_MEMORY_STAT, CGS_ST_LEAF, &cg,
					      &w, err, sizeof(err)), 0);
	assert_string_equal(w.path, "/sys/fs/cgroup/memory/sandbox/me/cgscale-1/cgscale-l2/cgscale-l3/memory.stat");
	assert_int_equal(w.version, 1);
	assert_int_equal(locate(hybrid_mi, "hugetlb\n", hybrid_pc,
					      CGS_SF_MEMORY_STAT, CGS_ST_TOP, &cg,
					      &w, err, sizeof(err)), 0);
	assert_string_equal(w.path, "/sys/fs/cgroup/memory/sandbox/me/cgscale-1/memory.stat");
	assert_string_equal(w.cgroup, "/sandbox/me/cgscale-1");
	assert_int_equal(locate(hybrid_mi, "hugetlb\n", hybrid_pc,
					      CGS_SF_NUMA_STAT, CGS_ST_PARENT, &cg,
					      &w, err, sizeof(err)), 0);
	assert_string_equal(w.path, "/sys/fs/cgroup/memory/sandbox/me/memory.numa_stat");
	/* depth 0: every target is the task's own cgroup */
	assert_int_equal(locate(hybrid_mi, "hugetlb\n", hybrid_pc,
					      CGS_SF_MEMORY_STAT, CGS_ST_PARENT, NULL,
					      &w, err, sizeof(err)), 0);
	assert_string_equal(w.path, "/sys/fs/cgroup/memory/sandbox/me/cgscale-1/cgscale-l2/cgscale-l3/memory.stat");
	assert_non_null(strstr(w.how, "made no cgroups"));
	/* cpu.stat is on v1 cpu, where the task is at the root */
	assert_int_equal(locate(hybrid_mi, "hugetlb\n", hybrid_pc,
					      CGS_SF_CPU_STAT, CGS_ST_LEAF, NULL,
					      &w, err, sizeof(err)), 0);
	assert_string_equal(w.path, "/sys/fs/cgroup/cpu/cpu.stat");
	/* ... so at depth 3 with our cgroups only in memory, it is refused */
	assert_int_equal(locate(hybrid_mi, "hugetlb\n", hybrid_pc,
					      CGS_SF_CPU_STAT, CGS_ST_TOP, &cg,
					      &w, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "makes no cgroups"));
	/* unless the tree spans the cpu hierarchy too (a cpu knob) */
	cg.ctrls = "memory,cpu";
	assert_int_equal(locate(hybrid_mi, "hugetlb\n",
					      "4:memory:/a/b/c\n1:cpu:/a/b/c\n0::/\n",
					      CGS_SF_CPU_STAT, CGS_ST_TOP, &cg,
					      &w, err, sizeof(err)), 0);
	assert_string_equal(w.path, "/sys/fs/cgroup/cpu/a/cpu.stat");
	/* cgroup.stat: the v2 file, on the hybrid's cgroup2 mount */
	assert_int_equal(locate(hybrid_mi, "hugetlb\n", hybrid_pc,
					      CGS_SF_CGROUP_STAT, CGS_ST_LEAF, NULL,
					      &w, err, sizeof(err)), 0);
	assert_string_equal(w.path, "/sys/fs/cgroup/unified/cgroup.stat");
	assert_int_equal(w.version, 2);
	/* ... which a tree in memory's v1 hierarchy does not reach */
	cg.ctrls = "memory";
	assert_int_equal(locate(hybrid_mi, "hugetlb\n", hybrid_pc, CGS_SF_CGROUP_STAT,
				CGS_ST_LEAF, &cg, &w, err, sizeof(err)), -EINVAL);
}

/* The check run before anything is made: the file's hierarchy index,
 * -ENODEV when none, -EINVAL outside the tree's hierarchies. */
static void t_check(void **state)
{
	struct cg_layout *l = malloc(sizeof(*l));
	struct cgs_cgview mem = { 2, "memory" }, both = { 2, "memory,cpu" };
	char err[512];

	(void)state;
	assert_int_equal(cg_layout_parse(hybrid_mi, NULL, "hugetlb\n", l, err, sizeof(err)), 0);
	assert_true(cgs_stat_check(l, CGS_SF_MEMORY_STAT, &mem, err, sizeof(err)) >= 0);
	assert_true(cgs_stat_check(l, CGS_SF_CPU_STAT, NULL, err, sizeof(err)) >= 0);
	assert_int_equal(cgs_stat_check(l, CGS_SF_CPU_STAT, &mem, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "/sys/fs/cgroup/cpu"));
	assert_true(cgs_stat_check(l, CGS_SF_CPU_STAT, &both, err, sizeof(err)) >= 0);
	assert_int_equal(cg_layout_parse("32 31 0:29 / /cg/cpu rw - cgroup cgroup rw,cpu\n",
					 NULL, NULL, l, err, sizeof(err)), 0);
	assert_int_equal(cgs_stat_check(l, CGS_SF_MEMORY_STAT, NULL, err, sizeof(err)), -ENODEV);
	assert_int_equal(cgs_stat_check(l, CGS_SF_CGROUP_STAT, NULL, err, sizeof(err)), -ENODEV);
	free(l);
}

static void t_v2(void **state)
{
	struct cgs_cgview cg = { 3, "memory" };
	struct cgs_stat_where w;
	char err[512];

	(void)state;
	assert_int_equal(locate(v2_mi, v2_ctrls, v2_pc, CGS_SF_MEMORY_STAT,
					      CGS_ST_TOP, &cg, &w, err, sizeof(err)), 0);
	assert_string_equal(w.path, "/sys/fs/cgroup/user.slice/cgscale-7/memory.stat");
	assert_int_equal(w.version, 2);
	/* on v2 every file is in the one hierarchy */
	assert_int_equal(locate(v2_mi, v2_ctrls, v2_pc, CGS_SF_CGROUP_STAT,
					      CGS_ST_PARENT, &cg, &w, err, sizeof(err)), 0);
	assert_string_equal(w.path, "/sys/fs/cgroup/user.slice/cgroup.stat");
	assert_int_equal(locate(v2_mi, v2_ctrls, v2_pc, CGS_SF_CPU_STAT,
					      CGS_ST_LEAF, &cg, &w, err, sizeof(err)), 0);
	assert_string_equal(w.path, "/sys/fs/cgroup/user.slice/cgscale-7/cgscale-l2/cgscale-t1/cpu.stat");
	/* too shallow for the depth asked */
	cg.depth = 5;
	assert_int_equal(locate(v2_mi, v2_ctrls, v2_pc, CGS_SF_MEMORY_STAT,
					      CGS_ST_PARENT, &cg, &w, err, sizeof(err)), -ERANGE);
	/* the root cgroup itself */
	assert_int_equal(locate(v2_mi, v2_ctrls, "0::/\n", CGS_SF_CGROUP_STAT,
					      CGS_ST_LEAF, NULL, &w, err, sizeof(err)), 0);
	assert_string_equal(w.path, "/sys/fs/cgroup/cgroup.stat");
	/* memory not enabled on v2 and not on v1: a clear error */
	assert_int_equal(locate(v2_mi, "cpu io\n", v2_pc, CGS_SF_MEMORY_STAT,
					      CGS_ST_LEAF, NULL, &w, err, sizeof(err)), -ENODEV);
	assert_non_null(strstr(err, "memory controller"));
	/* no cgroup2 at all: cgroup.stat cannot be had */
	assert_int_equal(locate("32 31 0:29 / /cg/memory rw - cgroup cgroup rw,memory\n",
					      NULL, "3:memory:/x\n", CGS_SF_CGROUP_STAT,
					      CGS_ST_LEAF, NULL, &w, err, sizeof(err)), -ENODEV);
	assert_non_null(strstr(err, "cgroup v2"));
}

/* A cgroup namespace: the mount shows /ns/root as its "/". An escaped
 * space in the mount point is undone. */
static void t_ns_root(void **state)
{
	static const char mi[] =
		"25 22 0:22 /ns/root /mnt/cg\\040two rw - cgroup2 cgroup2 rw\n";
	struct cgs_stat_where w;
	char err[512];

	(void)state;
	assert_int_equal(locate(mi, "memory\n", "0::/ns/root/a\n",
					      CGS_SF_MEMORY_STAT, CGS_ST_LEAF, NULL,
					      &w, err, sizeof(err)), 0);
	assert_string_equal(w.path, "/mnt/cg two/a/memory.stat");
	assert_int_equal(locate(mi, "memory\n", "0::/ns/rootx\n",
					      CGS_SF_MEMORY_STAT, CGS_ST_LEAF, NULL,
					      &w, err, sizeof(err)), -ENOENT);
}

static void t_read(void **state)
{
	char path[] = "/tmp/cgs-statfile-XXXXXX", *buf = NULL;
	size_t cap = 0;
	FILE *f;
	int fd;
	ssize_t n;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	for (int i = 0; i < 5000; i++)
		fprintf(f, "key%d %d\n", i, i);
	fclose(f);
	n = cgs_stat_read(path, &buf, &cap);
	assert_true(n > 40000);
	assert_int_equal(strlen(buf), (size_t)n);
	assert_non_null(strstr(buf, "key4999 4999\n"));
	/* again, into the same buffer: the whole file from offset 0 */
	assert_int_equal(cgs_stat_read(path, &buf, &cap), n);
	unlink(path);
	assert_int_equal(cgs_stat_read(path, &buf, &cap), -ENOENT);
	free(buf);
}

static int64_t get(struct json_object *o, const char *k)
{
	struct json_object *v;

	assert_true(json_object_object_get_ex(o, k, &v));
	return json_object_get_int64(v);
}

static void t_parse(void **state)
{
	struct json_object *o, *sub;

	(void)state;
	o = cgs_stat_parse("cache 4096\nrss 8192\npgfault 123456789012\n"
			   "total_pgfault 5\nbogus line here\nneg -3\n");
	assert_int_equal(get(o, "pgfault"), 123456789012LL);
	assert_int_equal(get(o, "total_pgfault"), 5);
	assert_int_equal(get(o, "neg"), -3);
	assert_false(json_object_object_get_ex(o, "bogus", NULL));
	json_object_put(o);
	/* v2 numa_stat, then v1 numa_stat */
	o = cgs_stat_parse("anon N0=4096 N1=0\nfile N0=1 N1=2\n");
	assert_true(json_object_object_get_ex(o, "file", &sub));
	assert_int_equal(get(sub, "N1"), 2);
	json_object_put(o);
	o = cgs_stat_parse("total=2227 N0=2227\nhierarchical_total=9 N0=9\n");
	assert_true(json_object_object_get_ex(o, "total", &sub));
	assert_int_equal(get(sub, "total"), 2227);
	assert_int_equal(get(sub, "N0"), 2227);
	assert_true(json_object_object_get_ex(o, "hierarchical_total", &sub));
	json_object_put(o);
	o = cgs_stat_parse("");
	assert_int_equal(json_object_object_length(o), 0);
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_hybrid),
		cmocka_unit_test(t_v2),
		cmocka_unit_test(t_check),
		cmocka_unit_test(t_ns_root),
		cmocka_unit_test(t_read),
		cmocka_unit_test(t_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
