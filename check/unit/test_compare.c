/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_compare.c - compare end to end on synthetic result files with a
 * known shift and noise (synth.h): A/A gives no REGRESSION, a 10% drop at
 * low noise is a REGRESSION (exit 1), a 1% change with T = 2% is
 * NO_CHANGE; noise, environment differences, grouping, bad input and the
 * exit codes; the verdict rules one by one; JSON and JUnit output. The
 * metrics other than ops/s: test_compare_metrics.c.
 */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "results/compare/model.h"
#include "results/compare/fmt.h"
#include "runner/cmd/cmd.h"
#include "check/unit/cmp_fixture.h"
#include "check/unit/synth.h"

/* Run `cgscale compare ARGS...` with stdout to /dev/null; the status. */
static int compare(const char *first, ...)
{
	char *argv[32] = { "compare" };
	int argc = 1, saved, null, status;
	va_list ap;

	va_start(ap, first);
	for (const char *a = first; a && argc < 31; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	fflush(stdout);
	saved = dup(1);
	null = open("/dev/null", O_WRONLY);
	dup2(null, 1);
	status = cgs_cmd_compare.fn(&cgs_cmd_compare, argc, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	close(null);
	return status;
}

static const struct cmp_delta *primary(const struct cmp_result *r)
{
	assert_int_equal(r->ngroups, 1);
	assert_true(r->groups[0].common);
	return cmp_delta_of(r, &r->groups[0], 1, 0);
}

static void test_aa_no_regression(void **state)
{
	struct fixture *f = *state;
	struct cmp_result r = { 0 };

	put(f, "a.json", (struct synth){ .runs = 10, .cov = 1, .seed = 1 });
	put(f, "b.json", (struct synth){ .runs = 10, .cov = 1, .seed = 2 });
	analyse(&r, path(f, "a.json"), path(f, "b.json"), 2);
	assert_int_equal(r.count[CMP_REGRESSION], 0);
	assert_int_equal(r.count[CMP_IMPROVEMENT], 0);
	assert_int_equal(primary(&r)->verdict, CMP_NO_CHANGE);
	cmp_result_free(&r);
	assert_int_equal(compare(path(f, "a.json"), path(f, "b.json"), NULL), 0);
	/* a file against itself: exactly no change */
	assert_int_equal(compare(path(f, "a.json"), path(f, "a.json"), NULL), 0);
}

static void test_regression_10pct(void **state)
{
	struct fixture *f = *state;
	struct cmp_result r = { 0 };
	const struct cmp_delta *d;

	put(f, "a.json", (struct synth){ .runs = 5, .cov = 0.5, .seed = 3 });
	put(f, "b.json", (struct synth){ .runs = 5, .cov = 0.5, .shift = -10, .seed = 4 });
	analyse(&r, path(f, "a.json"), path(f, "b.json"), 2);
	d = primary(&r);
	assert_int_equal(d->verdict, CMP_REGRESSION);
	assert_true(d->pct < -8 && d->pct > -12);
	assert_true(d->lo < d->pct && d->pct < d->hi && d->hi < -2);
	assert_true(d->mwu.exact);
	assert_true(fabs(d->mwu.p - 2.0 / 252) < 1e-12);  /* fully separated */
	cmp_result_free(&r);
	assert_int_equal(compare(path(f, "a.json"), path(f, "b.json"), NULL), 1);
	assert_int_equal(compare("--bisect", path(f, "a.json"), path(f, "b.json"), NULL), 1);
	/* the other way round it is an improvement: exit 0, bisect good */
	assert_int_equal(compare(path(f, "b.json"), path(f, "a.json"), NULL), 0);
	assert_int_equal(compare("--bisect", path(f, "b.json"), path(f, "a.json"), NULL), 0);
	/* thresholds above the change: no longer a regression; the slowest
	 * task (a secondary metric) regresses as much as the mean */
	assert_int_equal(compare("-T", "20", path(f, "a.json"), path(f, "b.json"), NULL), 1);
	assert_int_equal(compare("-T", "20", "--threshold-secondary", "20",
				 path(f, "a.json"), path(f, "b.json"), NULL), 0);
	assert_int_equal(compare("-T", "20", "--metrics", "per_task_ops",
				 path(f, "a.json"), path(f, "b.json"), NULL), 0);
}

static void test_one_pct_no_change(void **state)
{
	struct fixture *f = *state;
	struct cmp_result r = { 0 };

	put(f, "a.json", (struct synth){ .runs = 10, .cov = 0.3, .seed = 5 });
	put(f, "b.json", (struct synth){ .runs = 10, .cov = 0.3, .shift = -1, .seed = 6 });
	analyse(&r, path(f, "a.json"), path(f, "b.json"), 2);
	assert_int_equal(primary(&r)->verdict, CMP_NO_CHANGE);
	/* significant, yet within the practical threshold */
	assert_true(primary(&r)->p < 0.05);
	cmp_result_free(&r);
	/* with T = 0.5% the same data is a regression */
	memset(&r, 0, sizeof(r));
	analyse(&r, path(f, "a.json"), path(f, "b.json"), 0.5);
	assert_int_equal(primary(&r)->verdict, CMP_REGRESSION);
	cmp_result_free(&r);
}

static void test_noisy_and_exit_codes(void **state)
{
	struct fixture *f = *state;
	struct cmp_result r = { 0 };

	put(f, "a.json", (struct synth){ .runs = 5, .cov = 10, .seed = 7 });
	put(f, "b.json", (struct synth){ .runs = 5, .cov = 10, .seed = 8 });
	analyse(&r, path(f, "a.json"), path(f, "b.json"), 2);
	assert_int_equal(primary(&r)->verdict, CMP_NOISY);
	cmp_result_free(&r);
	assert_int_equal(compare(path(f, "a.json"), path(f, "b.json"), NULL), 0);
	assert_int_equal(compare("--fail-on-inconclusive", path(f, "a.json"),
				 path(f, "b.json"), NULL), 4);
	assert_int_equal(compare("--bisect", path(f, "a.json"), path(f, "b.json"), NULL), 125);
	/* a wider --max-cov: the interval straddles T, INCONCLUSIVE */
	assert_int_equal(compare("--max-cov", "50", "--fail-on-inconclusive",
				 path(f, "a.json"), path(f, "b.json"), NULL), 4);
}

static void test_too_few_runs(void **state)
{
	struct fixture *f = *state;
	struct cmp_result r = { 0 };

	put(f, "a.json", (struct synth){ .runs = 3, .cov = 0.2, .seed = 9 });
	put(f, "b.json", (struct synth){ .runs = 3, .cov = 0.2, .shift = -10, .seed = 10 });
	analyse(&r, path(f, "a.json"), path(f, "b.json"), 2);
	/* 3 vs 3 can never reach p < 0.05 */
	assert_true(fabs(primary(&r)->min_p - 0.1) < 1e-12);
	assert_true(primary(&r)->runs_needed >= 4);
	cmp_result_free(&r);
	put(f, "c.json", (struct synth){ .runs = 1, .seed = 11 });
	memset(&r, 0, sizeof(r));
	analyse(&r, path(f, "c.json"), path(f, "c.json"), 2);
	assert_int_equal(primary(&r)->verdict, CMP_INCONCLUSIVE);
	cmp_result_free(&r);
}

static void test_judge_rules(void **state)
{
	struct cmp_opts o;
	struct cmp_delta d = { .threshold = 2, .q = NAN };

	(void)state;
	cmp_opts_default(&o);
	d.lo = -5, d.hi = -3;
	assert_int_equal(cmp_judge(&d, CMP_PRIMARY, 1, 1, 5, 5, &o), CMP_REGRESSION);
	/* a noisy side of one invocation gives no direction: its runs cannot
	 * show how far a disturbed invocation lies (COMPARE.md, Verdicts) */
	assert_int_equal(cmp_judge(&d, CMP_PRIMARY, 9, 1, 5, 5, &o), CMP_NOISY);
	assert_non_null(strstr(d.why, "with one invocation a side"));
	/* with several invocations a side the interval holds their spread: a
	 * clear regression stays one on a noisy side (flagged in why) */
	d.two_level = true;
	assert_int_equal(cmp_judge(&d, CMP_PRIMARY, 9, 1, 5, 5, &o), CMP_REGRESSION);
	assert_non_null(strstr(d.why, "noisy"));
	d.two_level = false;
	/* secondary: needs q < alpha after Benjamini-Hochberg */
	d.q = 0.2;
	assert_int_equal(cmp_judge(&d, CMP_SECONDARY, 1, 1, 5, 5, &o), CMP_INCONCLUSIVE);
	d.q = 0.01;
	assert_int_equal(cmp_judge(&d, CMP_SECONDARY, 1, 1, 5, 5, &o), CMP_REGRESSION);
	d.lo = 3, d.hi = 5;
	assert_int_equal(cmp_judge(&d, CMP_PRIMARY, 1, 1, 5, 5, &o), CMP_IMPROVEMENT);
	d.lo = -1.5, d.hi = 1.9;
	assert_int_equal(cmp_judge(&d, CMP_PRIMARY, 1, 1, 5, 5, &o), CMP_NO_CHANGE);
	assert_int_equal(cmp_judge(&d, CMP_PRIMARY, 1, 6, 5, 5, &o), CMP_NOISY);
	d.lo = -2.5, d.hi = 1;
	assert_int_equal(cmp_judge(&d, CMP_PRIMARY, 1, 1, 5, 5, &o), CMP_INCONCLUSIVE);
	d.lo = -5, d.hi = -3;
	assert_int_equal(cmp_judge(&d, CMP_PRIMARY, 1, 1, 1, 5, &o), CMP_INCONCLUSIVE);
	d.lo = NAN;
	assert_int_equal(cmp_judge(&d, CMP_PRIMARY, 1, 1, 5, 5, &o), CMP_INCONCLUSIVE);
}

/* The kernel row says the word that tells c2 and c1 apart, however long
 * the line: a cut at the row's width would hide it. */
static void cmdline_words(struct fixture *f)
{
	struct cmp_result r = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *m;

	analyse(&r, path(f, "c2.json"), path(f, "c1.json"), 2);
	m = open_memstream(&text, &len);
	cmp_fmt_env(&r, m, false);
	fclose(m);
	assert_non_null(strstr(text, "+init_on_free=1  (the words that differ)"));
	assert_non_null(strstr(text, "(no word of its own)"));
	assert_null(strstr(text, "cgab_"));
	free(text);
	cmp_result_free(&r);
}

static void test_environment(void **state)
{
	struct fixture *f = *state;

	put(f, "a.json", (struct synth){ .runs = 5, .cov = 0.5, .seed = 12 });
	/* another kernel is the default axis: compared */
	put(f, "k.json", (struct synth){ .runs = 5, .cov = 0.5, .seed = 13, .kernel = "6.2.0" });
	assert_int_equal(compare(path(f, "a.json"), path(f, "k.json"), NULL), 0);
	/* the same kernel on both sides: an A/A, fine by default, but an
	 * --axis given along which nothing differs is refused (exit 3) */
	put(f, "a2.json", (struct synth){ .runs = 5, .cov = 0.5, .seed = 17 });
	assert_int_equal(compare(path(f, "a.json"), path(f, "a2.json"), NULL), 0);
	assert_int_equal(compare("--axis", "kernel", path(f, "a.json"), path(f, "a2.json"), NULL), 3);
	assert_int_equal(compare("--axis", "kernel", path(f, "a.json"), path(f, "k.json"), NULL), 0);
	/* one image booted two ways (cgscale ab's cmdline=): the command
	 * line is part of the kernel axis, so it differs; the boot files'
	 * names and ab's own cgab_* words are not */
	put(f, "c1.json", (struct synth){ .runs = 5, .cov = 0.5, .seed = 18,
		.cmdline = "BOOT_IMAGE=/a console=ttyS0 panic=-1 quiet cgab_cgroup=v2 cgab_accel=tcg init_on_free=1" });
	put(f, "c2.json", (struct synth){ .runs = 5, .cov = 0.5, .seed = 19,
		.cmdline = "BOOT_IMAGE=/b console=ttyS0 panic=-1 quiet cgab_cgroup=v1 cgab_accel=kvm" });
	put(f, "c3.json", (struct synth){ .runs = 5, .cov = 0.5, .seed = 20,
		.cmdline = "BOOT_IMAGE=/c console=ttyS0 panic=-1 quiet cgab_cgroup=v2 cgab_accel=tcg" });
	assert_int_equal(compare("--axis", "kernel", "--allow-env-diff", path(f, "c2.json"),
				 path(f, "c1.json"), NULL), 0);
	assert_int_equal(compare("--axis", "kernel", "--allow-env-diff", path(f, "c2.json"),
				 path(f, "c3.json"), NULL), 3);
	cmdline_words(f);
	/* ...but not along another axis */
	assert_int_equal(compare("--axis", "kernel.thp", path(f, "a.json"),
				 path(f, "k.json"), NULL), 3);
	/* THP differs: incomparable, unless it is the axis or allowed */
	put(f, "t.json", (struct synth){ .runs = 5, .cov = 0.5, .seed = 14,
					 .thp = "[always] madvise never" });
	assert_int_equal(compare(path(f, "a.json"), path(f, "t.json"), NULL), 3);
	assert_int_equal(compare("--bisect", path(f, "a.json"), path(f, "t.json"), NULL), 125);
	assert_int_equal(compare("--allow-env-diff", path(f, "a.json"), path(f, "t.json"), NULL), 0);
	assert_int_equal(compare("--axis", "kernel.thp.enabled", path(f, "a.json"),
				 path(f, "t.json"), NULL), 0);
	assert_int_equal(compare("--axis", "no.such.field", path(f, "a.json"),
				 path(f, "t.json"), NULL), 2);
	/* one side mixing two kernels is incomparable too */
	mkdir(path(f, "mixed"), 0755);
	put(f, "mixed/1.json", (struct synth){ .runs = 2, .seed = 15 });
	put(f, "mixed/2.json", (struct synth){ .runs = 2, .seed = 16, .kernel = "6.2.0" });
	assert_int_equal(compare(path(f, "a.json"), path(f, "mixed"), NULL), 3);
}


/* Why @a and @b cannot be compared (cmp_analyse's -EXDEV), as compare
 * prints it. */
static const char *problem(struct fixture *f, const char *a, const char *b)
{
	static struct cmp_result r;
	static char buf[1024];
	char err[512];

	memset(&r, 0, sizeof(r));
	cmp_opts_default(&r.o);
	r.nsides = 2;
	r.sides = calloc(2, sizeof(*r.sides));
	assert_non_null(r.sides);
	strcpy(r.sides[0].label, "A");
	strcpy(r.sides[1].label, "B");
	assert_int_equal(cmp_side_load(&r.sides[0], path(f, a), err, sizeof(err)), 0);
	assert_int_equal(cmp_side_load(&r.sides[1], path(f, b), err, sizeof(err)), 0);
	assert_int_equal(cmp_analyse(&r, err, sizeof(err)), -EXDEV);
	snprintf(buf, sizeof(buf), "%s", r.problem);
	cmp_result_free(&r);
	return buf;
}

static void test_grouping(void **state)
{
	struct fixture *f = *state;
	struct cmp_result r = { 0 };

	/* a directory of files, one run each, is one side */
	mkdir(path(f, "dir"), 0755);
	for (int i = 0; i < 5; i++) {
		char name[32];

		snprintf(name, sizeof(name), "dir/run%d.json", i);
		put(f, name, (struct synth){ .runs = 1, .cov = 0.5, .seed = 20 + i });
	}
	put(f, "a.json", (struct synth){ .runs = 5, .cov = 0.5, .seed = 30 });
	analyse(&r, path(f, "a.json"), path(f, "dir"), 2);
	assert_int_equal(r.sides[1].nfiles, 5);
	assert_int_equal(r.groups[0].cell[1].n[0], 5);
	cmp_result_free(&r);
	/* another mode, task count or cgroup layout is another point */
	put(f, "th.json", (struct synth){ .runs = 5, .seed = 31, .mode = "thread" });
	assert_int_equal(compare(path(f, "a.json"), path(f, "th.json"), NULL), 3);
	put(f, "t4.json", (struct synth){ .runs = 5, .seed = 32, .tasks = 4 });
	assert_int_equal(compare(path(f, "a.json"), path(f, "t4.json"), NULL), 3);
	put(f, "cg.json", (struct synth){ .runs = 5, .seed = 33, .cov = 0.5, .layout = "nested" });
	assert_int_equal(compare(path(f, "a.json"), path(f, "cg.json"), NULL), 3);
	/* the refusal says what differs, and which --axis would pair them */
	assert_non_null(strstr(problem(f, "a.json", "cg.json"), "--axis cgroup compares them"));
	assert_non_null(strstr(problem(f, "a.json", "th.json"), "other modes or task counts"));
	assert_non_null(strstr(problem(f, "a.json", "t4.json"), "other modes or task counts"));
	put(f, "other.json", (struct synth){ .runs = 5, .seed = 34, .test = "page_fault2" });
	assert_non_null(strstr(problem(f, "a.json", "other.json"), "different tests"));
	/* ...unless the layout is the axis */
	assert_int_equal(compare("--axis", "cgroup", path(f, "a.json"), path(f, "cg.json"), NULL), 0);
	/* several new sides: each gets its own comparison */
	memset(&r, 0, sizeof(r));
	analyse(&r, path(f, "a.json"), path(f, "dir"), 2);
	cmp_result_free(&r);
	assert_int_equal(compare(path(f, "a.json"), path(f, "dir"), path(f, "a.json"), NULL), 0);
}

static void test_bad_input(void **state)
{
	struct fixture *f = *state;
	FILE *fp;

	put(f, "a.json", (struct synth){ .runs = 3, .seed = 50 });
	put(f, "failed.json", (struct synth){ .runs = 3, .seed = 51, .status = "failed" });
	assert_int_equal(compare(path(f, "a.json"), path(f, "failed.json"), NULL), 2);
	assert_int_equal(compare(path(f, "a.json"), path(f, "missing.json"), NULL), 2);
	assert_int_equal(compare("--bisect", path(f, "a.json"), path(f, "missing.json"), NULL), 125);
	fp = fopen(path(f, "foreign.json"), "w");
	assert_non_null(fp);
	fputs("{\"hello\": [1, 2, 3]}\n", fp);
	fclose(fp);
	assert_int_equal(compare(path(f, "a.json"), path(f, "foreign.json"), NULL), 2);
	mkdir(path(f, "empty"), 0755);
	assert_int_equal(compare(path(f, "a.json"), path(f, "empty"), NULL), 2);
	/* usage errors */
	assert_int_equal(compare(path(f, "a.json"), NULL), 2);
	assert_int_equal(compare("--threshold", "abc", path(f, "a.json"), path(f, "a.json"), NULL), 2);
	assert_int_equal(compare("--metrics", "nope", path(f, "a.json"), path(f, "a.json"), NULL), 2);
	assert_int_equal(compare("--bisect", "--alpha", "2", path(f, "a.json"),
				 path(f, "a.json"), NULL), 128);
}

static void test_json_and_junit(void **state)
{
	struct fixture *f = *state;
	struct cmp_result r = { 0 };
	struct json_object *root, *pts, *cmp, *v;
	char *buf = NULL, xml[8192];
	size_t len = 0;
	FILE *mem, *fp;
	char err[256];

	put(f, "a.json", (struct synth){ .runs = 5, .cov = 0.5, .seed = 60 });
	put(f, "b.json", (struct synth){ .runs = 5, .cov = 0.5, .shift = -10, .seed = 61 });
	analyse(&r, path(f, "a.json"), path(f, "b.json"), 2);
	mem = open_memstream(&buf, &len);
	assert_int_equal(cmp_print_json(&r, mem), 0);
	fclose(mem);
	root = json_tokener_parse(buf);
	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "points", &pts));
	cmp = json_object_object_get(json_object_array_get_idx(pts, 0), "comparisons");
	v = json_object_array_get_idx(cmp, 0);
	assert_string_equal(json_object_get_string(json_object_object_get(v, "verdict")),
			    "REGRESSION");
	assert_true(fabs(json_object_get_double(json_object_object_get(v, "change_pct")) -
			 primary(&r)->pct) < 1e-9);
	assert_int_equal(json_object_get_int(json_object_object_get(root, "exit_status")), 1);
	json_object_put(root);
	free(buf);
	/* every other format prints without error */
	for (int k = 0; k <= CMP_FMT_JSON; k++) {
		fp = fopen("/dev/null", "w");
		assert_int_equal(cmp_print(&r, k, fp), 0);
		fclose(fp);
	}
	assert_int_equal(cmp_write_junit(&r, path(f, "junit.xml"), err, sizeof(err)), 0);
	fp = fopen(path(f, "junit.xml"), "r");
	assert_non_null(fp);
	xml[fread(xml, 1, sizeof(xml) - 1, fp)] = 0;
	fclose(fp);
	assert_non_null(strstr(xml, "<failure message=\"REGRESSION"));
	/* per_task_ops and min_task_ops (2 tasks, both slower) */
	assert_non_null(strstr(xml, "tests=\"2\" failures=\"2\""));
	assert_int_equal(cmp_write_junit(&r, "/nonexistent/dir/j.xml", err, sizeof(err)), -ENOENT);
	cmp_result_free(&r);
}

/* Files as invocations: each file of a directory is one invocation, and
 * invocations that differ widen the interval (two-level bootstrap). */
static void test_invocations(void **state)
{
	static const double sa[] = { 0, 4, -4 }, sb[] = { 6, 2, -2 };
	struct fixture *f = *state;
	struct cmp_result r = { 0 };
	const struct cmp_delta *d;

	assert_int_equal(mkdir(path(f, "A"), 0700), 0);
	assert_int_equal(mkdir(path(f, "B"), 0700), 0);
	for (unsigned i = 0; i < 3; i++) {
		char a[32], b[32];

		snprintf(a, sizeof(a), "A/%u.json", i);
		snprintf(b, sizeof(b), "B/%u.json", i);
		put(f, a, (struct synth){ .runs = 5, .cov = 0.5, .shift = sa[i], .seed = 10 + i });
		put(f, b, (struct synth){ .runs = 5, .cov = 0.5, .shift = sb[i], .seed = 20 + i });
	}
	analyse(&r, path(f, "A"), path(f, "B"), 2);
	d = primary(&r);
	assert_true(d->two_level);
	assert_int_equal(d->vc[0].k, 3);
	assert_int_equal(d->vc[1].k, 3);
	assert_int_equal(d->vc[0].model, ST_VC_TWO_LEVEL);
	/* between sd about 4%, within 0.5% */
	assert_true(sqrt(d->vc[0].var_between) / d->vc[0].mean > 0.025);
	assert_true(sqrt(d->vc[0].var_within) / d->vc[0].mean < 0.01);
	/* the units are the 3 invocation means a side, not the 15 runs,
	 * and Mann-Whitney cannot decide on 3 vs 3 (smallest p 0.1) */
	assert_int_equal(d->units[0], 3);
	assert_int_equal(d->units[1], 3);
	assert_int_equal(d->needs, 4);
	assert_int_equal(d->verdict, CMP_INCONCLUSIVE);
	assert_non_null(strstr(d->why, "needs 4 invocations a side"));
	assert_int_not_equal(d->verdict, CMP_IMPROVEMENT);
	assert_int_not_equal(d->verdict, CMP_REGRESSION);
	/* the advice counts invocations (ab's boots), not --runs */
	{
		char *text = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&text, &len);

		cmp_fmt_point_notes(&r, &r.groups[0], m, "");
		fclose(m);
		assert_non_null(strstr(text, "invocations (run --invocations"));
		assert_non_null(strstr(text, "in cgscale ab, --boots"));
		assert_null(strstr(text, "rerun each side with --runs"));
		free(text);
	}
	cmp_result_free(&r);
	/* one file a side: one invocation each, the one-level interval */
	analyse(&r, path(f, "A/0.json"), path(f, "B/0.json"), 2);
	assert_false(primary(&r)->two_level);
	cmp_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_aa_no_regression, setup, teardown),
		cmocka_unit_test_setup_teardown(test_regression_10pct, setup, teardown),
		cmocka_unit_test_setup_teardown(test_one_pct_no_change, setup, teardown),
		cmocka_unit_test_setup_teardown(test_noisy_and_exit_codes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_too_few_runs, setup, teardown),
		cmocka_unit_test(test_judge_rules),
		cmocka_unit_test_setup_teardown(test_environment, setup, teardown),
		cmocka_unit_test_setup_teardown(test_grouping, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_input, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_and_junit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_invocations, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
