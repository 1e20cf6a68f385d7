/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_compare_profile_ns.c - profiles compared in time per op
 * (results/compare/profile_ns.c) on fixed profiles of a known change:
 * the base spends 300 ns/op in copy and 700 in fault (1000 ns/op of CPU
 * time, 1000 samples); the new side adds a spin of 500 ns/op, so copy's
 * share falls from 30% to 20% while its time per op stays 300 ns: the
 * dilution of issue 23. Small noise in the counts and the CPU time, 8
 * runs a side. The ns/op and sampling error of one key by hand; spin
 * GREW by +500 ns/op and is ranked first; copy is not SHRANK (NO_CHANGE
 * at a threshold its noise allows) although its share SHRANK; one row per
 * function; the self times of all rows add up to the change of CPU time,
 * the first row's to spin's; ranking by children; call paths only when
 * asked; runs without a CPU time fall back to shares; the text and JSON;
 * a function renamed between the kernels is one row.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "results/compare/model.h"
#include "results/compare/profile.h"
#include "results/compare/why.h"
#include "check/unit/cmp_two.h"
#include "check/unit/synth.h"

static struct json_object *sym(const char *n, int self, int children)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "name", json_object_new_string(n));
	json_object_object_add(o, "self", json_object_new_int(self));
	json_object_object_add(o, "children", json_object_new_int(children));
	json_object_object_add(o, "kernel", json_object_new_boolean(strcmp(n, "main") != 0));
	return o;
}

static void stack(struct json_object *f, const char *s, int n)
{
	struct json_object *a;

	if (!n)
		return;
	a = json_object_new_array();
	json_object_array_add(a, json_object_new_string(s));
	json_object_array_add(a, json_object_new_int(n));
	json_object_array_add(f, a);
}

/* A run: copy (named @cname), fault and spin samples (main is the root
 * of all). */
static struct json_object *profile(const char *cname, int copy, int fault, int spin)
{
	struct json_object *p = json_object_new_object(), *s = json_object_new_object();
	struct json_object *syms = json_object_new_array(), *f = json_object_new_array();
	int n = copy + fault + spin;

	json_object_object_add(s, "received", json_object_new_int(n));
	json_object_object_add(p, "samples", s);
	json_object_array_add(syms, sym("main", 0, n));
	json_object_array_add(syms, sym("fault", fault, fault + copy));
	json_object_array_add(syms, sym(cname, copy, copy));
	if (spin)
		json_object_array_add(syms, sym("spin", spin, spin));
	json_object_object_add(p, "symbols", syms);
	stack(f, "main;fault", fault);
	char path[128];

	snprintf(path, sizeof(path), "main;fault;%s", cname);
	stack(f, path, copy);
	stack(f, "main;spin", spin);
	json_object_object_add(p, "folded", f);
	return p;
}

/* cputime's section: @cpu ns/op, all of it system time but @user. */
static struct json_object *cputime(double cpu, double user)
{
	struct json_object *c = json_object_new_object(), *t = json_object_new_array();

	json_object_object_add(c, "ticks_per_sec", json_object_new_int(100));
	json_object_object_add(c, "ops", json_object_new_int(1000000));
	json_object_object_add(c, "user_us_per_op", json_object_new_double(user / 1000));
	json_object_object_add(c, "sys_us_per_op", json_object_new_double((cpu - user) / 1000));
	json_object_array_add(t, json_object_new_double(1));
	json_object_object_add(c, "task_user_s", t);
	return c;
}

enum cpu_kind { CPU_TICKS, CPU_ACCOUNT, CPU_NONE };

/* synth.h's file, every point profiled; @spin 0 or 500; noise from the
 * random generator of @seed, none when @seed is 0. */
static void write_side(const char *path, const char *cname, int spin, unsigned runs,
		       uint64_t seed, enum cpu_kind ck)
{
	struct synth s = { .tasks = 1, .runs = runs, .mean = 1e6, .cov = 1, .seed = seed + 1 };
	struct json_object *root, *pts;
	struct st_rng r;

	assert_int_equal(synth_write(path, &s), 0);
	root = json_object_from_file(path);
	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "points", &pts));
	st_rng_seed(&r, seed);
	for (size_t i = 0; i < json_object_array_length(pts); i++) {
		struct json_object *pt = json_object_array_get_idx(pts, i);
		int nz = seed ? 1 : 0, copy = 300 + nz * ((int)st_rng_below(&r, 9) - 4);
		int fault = 700 + nz * ((int)st_rng_below(&r, 9) - 4);
		int sp = spin ? spin + nz * ((int)st_rng_below(&r, 9) - 4) : 0;
		/* a sample is 1 ns/op of CPU time, +-0.2% */
		double cpu = (copy + fault + sp) * (1 + nz * ((double)st_rng_below(&r, 5) - 2) / 1000);

		json_object_object_add(pt, "profile", profile(cname, copy, fault, sp));
		if (ck == CPU_TICKS) {
			json_object_object_add(pt, "cputime", cputime(cpu, sp));
		} else if (ck == CPU_ACCOUNT) {
			struct json_object *a = json_object_new_object();

			json_object_object_add(a, "user_ns_per_op", json_object_new_double(sp));
			json_object_object_add(a, "sys_ns_per_op", json_object_new_double(cpu - sp));
			json_object_object_add(a, "wall_ns_per_op", json_object_new_double(cpu + 10));
			json_object_object_add(pt, "account", a);
		}
	}
	assert_int_equal(json_object_to_file(path, root), 0);
	json_object_put(root);
}

struct pair {
	char a[32], b[32];
	struct cmp_result r;
	struct cmp_profile p;
};

static void analyse(struct pair *t, const struct cmp_prof_opts *o)
{
	memset(&t->r, 0, sizeof(t->r));
	cmp_opts_default(&t->r.o);
	t->r.o.keep_disturbed = true;
	cmp_analyse_two(&t->r, t->a, t->b);
	assert_int_equal(cmp_profile_analyse_opts(&t->r, o, &t->p), 0);
}

/* @ca, @cb: the name of copy on A and on B */
static void make_named(struct pair *t, const char *ca, const char *cb, int spin_b, unsigned runs,
		       bool noise, enum cpu_kind ck, const struct cmp_prof_opts *o)
{
	int fa, fb;

	strcpy(t->a, "/tmp/cgs-pns-a-XXXXXX");
	strcpy(t->b, "/tmp/cgs-pns-b-XXXXXX");
	fa = mkstemp(t->a);
	fb = mkstemp(t->b);
	close(fa);
	close(fb);
	write_side(t->a, ca, 0, runs, noise ? 11 : 0, ck);
	write_side(t->b, cb, spin_b, runs, noise ? 12 : 0, ck);
	analyse(t, o);
	unlink(t->a);   /* read: a failed assertion later leaves no file */
	unlink(t->b);
}

static void make(struct pair *t, int spin_b, unsigned runs, bool noise, enum cpu_kind ck,
		 const struct cmp_prof_opts *o)
{
	make_named(t, "copy", "copy", spin_b, runs, noise, ck, o);
}

static void done(struct pair *t)
{
	cmp_profile_free(&t->p);
	cmp_result_free(&t->r);
}

static const struct cmp_pns_row *row(const struct cmp_pns_point *pt, const char *s)
{
	for (size_t i = 0; i < pt->nfunc; i++)
		if (!strcmp(pt->rows[i].sym, s))
			return &pt->rows[i];
	return NULL;
}

static const struct cmp_prof_row *share_row(const struct cmp_profile *p,
					    enum cmp_prof_kind k, const char *s)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->rows[i].kind == k && !strcmp(p->rows[i].sym, s))
			return &p->rows[i];
	return NULL;
}

/* The figures of one key by hand: ns/op = share x CPU time per op; the
 * sampling error of the mean of 2 equal runs, with the clock ticks'
 * rounding (1/3 tick^2 a task) and without it (the account's ns). */
static void test_ns_math(void **state)
{
	struct cmp_prof_opts o;
	struct pair t;
	const struct cmp_pns_point *pt;
	const struct cmp_pns_row *w;
	double tick = 1e9 / 100 / 1e6, var_c = tick * tick / 3;

	(void)state;
	cmp_prof_opts_default(&o);
	make(&t, 500, 2, false, CPU_TICKS, &o);
	pt = cmp_profile_point_ns(&t.p, 0, 1);
	assert_non_null(pt);
	assert_true(fabs(pt->cpu_a - 1000) < 1e-9 && fabs(pt->cpu_b - 1500) < 1e-9);
	assert_true(fabs(pt->user_b - 500) < 1e-9);
	w = row(pt, "copy");
	assert_non_null(w);
	assert_true(fabs(w->a.self - 300) < 1e-9 && fabs(w->b.self - 300) < 1e-9);
	assert_true(fabs(w->a.self_pct - 30) < 1e-9 && fabs(w->b.self_pct - 20) < 1e-9);
	/* one run: C^2 p (1-p) / N + p^2 var(C); the mean of 2: / 2 */
	assert_true(fabs(w->a.self_se - sqrt((1000.0 * 1000 * 0.3 * 0.7 / 1000 +
					       0.09 * var_c) / 2)) < 1e-9);
	assert_true(fabs(w->b.self_se - sqrt((1500.0 * 1500 * 0.2 * 0.8 / 1500 +
					       0.04 * var_c) / 2)) < 1e-9);
	assert_true(fabs(row(pt, "fault")->a.children - 1000) < 1e-9);
	assert_true(fabs(pt->threshold_ns - 2) < 1e-12);   /* 0.2% of 1000 */
	assert_string_equal(pt->cpu_src, "cputime (utime + stime, clock ticks)");
	done(&t);

	make(&t, 500, 2, false, CPU_ACCOUNT, &o);
	pt = cmp_profile_point_ns(&t.p, 0, 1);
	assert_non_null(pt);
	w = row(pt, "copy");
	assert_true(fabs(w->a.self_se - sqrt(1000.0 * 1000 * 0.3 * 0.7 / 1000 / 2)) < 1e-9);
	assert_true(fabs(pt->wall_b - 1510) < 1e-9);
	assert_string_equal(pt->cpu_src, "the account (schedstat run time, ns)");
	done(&t);
}

/* The dilution: copy's share SHRANK, its time per op did not. */
/* Where the time went lists spin first, with the profile's verdict (it
 * was null, which known-effects read as not named). */
static void why_names_spin(struct pair *t)
{
	struct json_object *j, *fn, *v;

	t->r.prof = &t->p;
	j = cmp_why_json_group(&t->r, 0);
	assert_non_null(j);
	fn = json_object_array_get_idx(j, 0);
	assert_true(json_object_object_get_ex(fn, "functions", &fn));
	fn = json_object_array_get_idx(fn, 0);
	assert_true(json_object_object_get_ex(fn, "name", &v));
	assert_string_equal(json_object_get_string(v), "spin");
	assert_true(json_object_object_get_ex(fn, "verdict", &v));
	assert_string_equal(json_object_get_string(v), "GREW");
	json_object_put(j);
	t->r.prof = NULL;
}

static void test_dilution(void **state)
{
	struct cmp_prof_opts o;
	struct pair t;
	const struct cmp_pns_point *pt;
	const struct cmp_pns_row *w;
	struct cmp_pns_top top;

	(void)state;
	cmp_prof_opts_default(&o);
	make(&t, 500, 8, true, CPU_TICKS, &o);
	assert_string_equal(share_row(&t.p, CMP_PROF_SELF, "copy")->verdict, "SHRANK");
	pt = cmp_profile_point_ns(&t.p, 0, 1);
	assert_non_null(pt);
	assert_string_equal(pt->rows[0].sym, "spin");      /* the largest |change| */
	assert_true(fabs(pt->rows[0].dself.pct - 500) < 10);
	assert_string_equal(pt->rows[0].vself, "GREW");
	assert_string_equal(pt->rows[0].vchildren, "GREW");
	w = row(pt, "copy");
	assert_true(fabs(w->dself.pct) < 5);
	assert_true(w->b.self_pct < w->a.self_pct - 9);     /* its share fell 10 pp */
	assert_string_not_equal(w->vself, "SHRANK");
	assert_string_not_equal(w->vchildren, "SHRANK");
	/* ranked by |change of self|, one row per function */
	for (size_t i = 0; i + 1 < pt->nfunc; i++)
		assert_true(fabs(pt->rows[i].dself.pct) >= fabs(pt->rows[i + 1].dself.pct));
	for (size_t i = 0; i < pt->nfunc; i++)
		for (size_t j = i + 1; j < pt->nfunc; j++)
			assert_string_not_equal(pt->rows[i].sym, pt->rows[j].sym);
	assert_int_equal(pt->nfunc, 4);                     /* main fault copy spin */
	assert_int_equal(pt->n, pt->nfunc);                 /* no call paths unasked */
	/* the self times of all rows add up to the CPU time's change */
	assert_int_equal(cmp_profile_top_ns(&t.p, 0, 1, CMP_PNS_TOP_MAX, &top), 0);
	assert_int_equal(top.n, 4);
	assert_true(fabs(top.explained_ns - top.cpu_change_ns) < 1e-6);
	assert_true(fabs(top.cpu_change_ns - 500) < 10);
	assert_true(top.explained_se > 0 && top.explained_se < 30);
	assert_int_equal(cmp_profile_top_ns(&t.p, 0, 1, 1, &top), 0);
	assert_int_equal(top.n, 1);
	assert_true(top.row[0] == &pt->rows[0] && top.explained_ns == pt->rows[0].dself.pct);
	assert_int_equal(cmp_profile_top_ns(&t.p, 0, 2, 1, &top), -ENOENT);
	why_names_spin(&t);
	done(&t);

	/* at a threshold the noise allows (2% of 1000 ns/op), NO_CHANGE */
	o.threshold = 2;
	make(&t, 500, 8, true, CPU_TICKS, &o);
	pt = cmp_profile_point_ns(&t.p, 0, 1);
	assert_string_equal(row(pt, "copy")->vself, "NO_CHANGE");
	assert_string_equal(pt->rows[0].vself, "GREW");
	done(&t);
}

/* An A/A: nothing GREW or SHRANK in ns/op. */
static void test_aa(void **state)
{
	struct cmp_prof_opts o;
	struct pair t;
	const struct cmp_pns_point *pt;

	(void)state;
	cmp_prof_opts_default(&o);
	make(&t, 0, 8, true, CPU_TICKS, &o);
	pt = cmp_profile_point_ns(&t.p, 0, 1);
	assert_non_null(pt);
	for (size_t i = 0; i < pt->n; i++) {
		assert_string_not_equal(pt->rows[i].vself, "GREW");
		assert_string_not_equal(pt->rows[i].vself, "SHRANK");
		assert_string_not_equal(pt->rows[i].vchildren, "GREW");
		assert_string_not_equal(pt->rows[i].vchildren, "SHRANK");
	}
	done(&t);
}

/* A function renamed between the kernels (do_set_pte on A, set_pte_range
 * on B, the same 300 ns/op) is one row "do_set_pte -> set_pte_range",
 * not a SHRANK and a GREW; two names that are no rename stay apart. */
static void test_renamed(void **state)
{
	struct cmp_prof_opts o;
	struct pair t;
	const struct cmp_pns_point *pt;
	const struct cmp_pns_row *w;

	(void)state;
	cmp_prof_opts_default(&o);
	make_named(&t, "do_set_pte", "set_pte_range", 0, 8, true, CPU_TICKS, &o);
	pt = cmp_profile_point_ns(&t.p, 0, 1);
	assert_non_null(pt);
	w = row(pt, "do_set_pte -> set_pte_range");
	assert_non_null(w);
	assert_true(fabs(w->a.self - 300) < 10 && fabs(w->b.self - 300) < 10);
	assert_true(fabs(w->dself.pct) < 10);
	assert_string_not_equal(w->vself, "SHRANK");
	assert_string_not_equal(w->vself, "GREW");
	assert_null(row(pt, "do_set_pte"));
	assert_null(row(pt, "set_pte_range"));
	assert_int_equal(pt->nfunc, 3);                     /* main fault and the pair */
	done(&t);

	make_named(&t, "copy", "copy2", 0, 8, true, CPU_TICKS, &o);
	pt = cmp_profile_point_ns(&t.p, 0, 1);
	assert_string_equal(row(pt, "copy")->vself, "SHRANK");
	assert_string_equal(row(pt, "copy2")->vself, "GREW");
	done(&t);
}

/* By children; call paths with the flag, after the functions. */
static void test_rank_and_paths(void **state)
{
	struct cmp_prof_opts o;
	struct pair t;
	const struct cmp_pns_point *pt;

	(void)state;
	cmp_prof_opts_default(&o);
	o.rank = CMP_PNS_BY_CHILDREN;
	o.calltraces = true;
	make(&t, 500, 4, true, CPU_TICKS, &o);
	pt = cmp_profile_point_ns(&t.p, 0, 1);
	for (size_t i = 0; i + 1 < pt->nfunc; i++)
		assert_true(fabs(pt->rows[i].dchildren.pct) >= fabs(pt->rows[i + 1].dchildren.pct));
	assert_true(pt->n > pt->nfunc);
	for (size_t i = pt->nfunc; i < pt->n; i++) {
		assert_true(pt->rows[i].path);
		assert_true(isnan(pt->rows[i].a.self));
	}
	assert_non_null(strstr(pt->rows[pt->nfunc].sym, "."));
	done(&t);
}

static char *text_of(const struct cmp_result *r, enum cmp_format f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	assert_non_null(m);
	cmp_profile_print(r, r->prof, f, m);
	fclose(m);
	return buf;
}

/* The text and JSON; runs without a CPU time are compared in shares. */
static void test_outputs(void **state)
{
	struct cmp_prof_opts o;
	struct pair t;
	struct json_object *j, *pts, *fn, *v;
	char *txt;

	(void)state;
	cmp_prof_opts_default(&o);
	make(&t, 500, 4, true, CPU_TICKS, &o);
	t.r.prof = &t.p;
	txt = text_of(&t.r, CMP_FMT_TEXT);
	assert_non_null(strstr(txt, "Profile in time per op"));
	assert_non_null(strstr(txt, "these 4 functions' self time: +"));
	assert_non_null(strstr(txt, "ns/op change of CPU time (user + sys)"));
	assert_null(strstr(txt, "Profile: share of samples"));
	assert_true(strstr(txt, " spin\n") < strstr(txt, " copy\n"));
	free(txt);
	txt = text_of(&t.r, CMP_FMT_LKP);      /* LKP keeps its shares */
	/* under the LKP stats' names, the event the synthetic runs sampled */
	assert_non_null(strstr(txt, "cgscale.perf-profile.self.cpu-clock.copy\n"));
	free(txt);
	j = cmp_profile_ns_json(&t.r, &t.p);
	assert_true(json_object_object_get_ex(j, "points", &pts));
	fn = json_object_array_get_idx(pts, 0);
	assert_true(json_object_object_get_ex(fn, "functions", &fn));
	fn = json_object_array_get_idx(fn, 0);
	assert_true(json_object_object_get_ex(fn, "function", &v));
	assert_string_equal(json_object_get_string(v), "spin");
	assert_true(json_object_object_get_ex(fn, "self", &v));
	assert_true(json_object_object_get_ex(v, "verdict", &v));
	json_object_put(j);
	t.r.prof = NULL;
	done(&t);

	make(&t, 500, 4, true, CPU_NONE, &o);
	assert_null(cmp_profile_point_ns(&t.p, 0, 1));
	assert_true(t.p.n > 0);
	t.r.prof = &t.p;
	txt = text_of(&t.r, CMP_FMT_TEXT);
	assert_non_null(strstr(txt, "Profile: share of samples"));
	free(txt);
	t.r.prof = NULL;
	done(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ns_math),
		cmocka_unit_test(test_dilution),
		cmocka_unit_test(test_aa),
		cmocka_unit_test(test_rank_and_paths),
		cmocka_unit_test(test_renamed),
		cmocka_unit_test(test_outputs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
