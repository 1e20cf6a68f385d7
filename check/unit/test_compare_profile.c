/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_compare_profile.c - the profile comparison on synthetic profiles
 * with a known change: stacks main;fault;charge (c samples of 1000) and
 * main;fault (the rest), c about 100 on the base and 150 on the new side
 * with small noise. self.charge, children.charge and the call trace
 * charge.fault.main must GREW by 5 pp, self.fault SHRANK by 5 pp,
 * children.fault (always 100%) is NO_CHANGE; an A/A gives no GREW or
 * SHRANK; the floor hides small keys; LKP's names in --format lkp.
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
#include "check/unit/cmp_two.h"
#include "check/unit/synth.h"

static struct json_object *sym(const char *n, int self, int children)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "name", json_object_new_string(n));
	json_object_object_add(o, "self", json_object_new_int(self));
	json_object_object_add(o, "children", json_object_new_int(children));
	json_object_object_add(o, "kernel", json_object_new_boolean(1));
	return o;
}

static struct json_object *stack(const char *s, int n)
{
	struct json_object *a = json_object_new_array();

	json_object_array_add(a, json_object_new_string(s));
	json_object_array_add(a, json_object_new_int(n));
	return a;
}

/* A profile of 1000 samples, @c of them in charge, 2 in "tiny". */
static struct json_object *profile(int c)
{
	struct json_object *p = json_object_new_object(), *s = json_object_new_object();
	struct json_object *syms = json_object_new_array(), *f = json_object_new_array();

	json_object_object_add(s, "received", json_object_new_int(1000));
	json_object_object_add(p, "samples", s);
	json_object_object_add(p, "event", json_object_new_string("cpu-clock"));
	json_object_array_add(syms, sym("main", 0, 1000));
	json_object_array_add(syms, sym("fault", 998 - c, 1000));
	json_object_array_add(syms, sym("charge", c, c));
	json_object_array_add(syms, sym("tiny", 2, 2));
	json_object_object_add(p, "symbols", syms);
	json_object_array_add(f, stack("main;fault", 998 - c));
	json_object_array_add(f, stack("main;fault;charge", c));
	json_object_array_add(f, stack("main;fault;tiny", 2));
	json_object_object_add(p, "folded", f);
	return p;
}

/* synth.h's file with a profile in every point, c = @c0 + small noise. */
static void write_side(const char *path, int c0, unsigned runs, uint64_t seed)
{
	struct synth s = { .tasks = 1, .runs = runs, .mean = 1e6, .cov = 1, .seed = seed };
	struct json_object *root, *pts;
	struct st_rng r;

	assert_int_equal(synth_write(path, &s), 0);
	root = json_object_from_file(path);
	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "points", &pts));
	st_rng_seed(&r, seed);
	for (size_t i = 0; i < json_object_array_length(pts); i++)
		json_object_object_add(json_object_array_get_idx(pts, i), "profile",
				       profile(c0 + (int)st_rng_below(&r, 7) - 3));
	assert_int_equal(json_object_to_file(path, root), 0);
	json_object_put(root);
}

static void analyse(struct cmp_result *r, struct cmp_profile *p, const char *a,
		    const char *b)
{
	memset(r, 0, sizeof(*r));
	cmp_opts_default(&r->o);
	cmp_analyse_two(r, a, b);
	assert_int_equal(cmp_profile_analyse(r, CMP_PROF_FLOOR, CMP_PROF_THRESHOLD, p), 0);
}

static const struct cmp_prof_row *row(const struct cmp_profile *p,
				      enum cmp_prof_kind k, const char *s)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->rows[i].kind == k && !strcmp(p->rows[i].sym, s))
			return &p->rows[i];
	return NULL;
}

static void test_known_change(void **state)
{
	char a[] = "/tmp/cgs-prof-a-XXXXXX", b[] = "/tmp/cgs-prof-b-XXXXXX";
	struct cmp_result r;
	struct cmp_profile p;
	const struct cmp_prof_row *w;
	int fa = mkstemp(a), fb = mkstemp(b);

	(void)state;
	close(fa);
	close(fb);
	write_side(a, 100, 8, 1);
	write_side(b, 150, 8, 2);
	analyse(&r, &p, a, b);
	assert_int_equal(p.groups_with_profile, 1);
	w = row(&p, CMP_PROF_SELF, "charge");
	assert_non_null(w);
	assert_true(fabs(w->d.pct - 5) < 0.6);
	assert_true(w->d.lo > 4 && w->d.hi < 6);
	assert_string_equal(w->verdict, "GREW");
	assert_string_equal(row(&p, CMP_PROF_CHILDREN, "charge")->verdict, "GREW");
	assert_string_equal(row(&p, CMP_PROF_CALLTRACE, "charge.fault.main")->verdict, "GREW");
	w = row(&p, CMP_PROF_SELF, "fault");
	assert_true(fabs(w->d.pct + 5) < 0.6);
	assert_string_equal(w->verdict, "SHRANK");
	w = row(&p, CMP_PROF_CHILDREN, "fault");
	assert_true(w->d.pct == 0 && w->d.lo == 0 && w->d.hi == 0);
	assert_string_equal(w->verdict, "NO_CHANGE");
	assert_null(row(&p, CMP_PROF_SELF, "tiny"));          /* 0.2% < floor */
	/* the largest change comes first */
	assert_true(fabs(p.rows[0].d.pct) >= fabs(p.rows[p.n - 1].d.pct));
	/* the LKP stats' names, with the event sampled */
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);

		cmp_profile_print(&r, &p, CMP_FMT_LKP, m);
		fclose(m);
		assert_non_null(strstr(buf, " cgscale.perf-profile.self.cpu-clock.charge\n"));
		assert_non_null(strstr(buf, " cgscale.perf-profile.calltrace.cpu-clock.charge.fault.main\n"));
		assert_null(strstr(buf, "cycles-pp"));
		assert_non_null(strstr(buf, "+5.0"));
		free(buf);
	}
	cmp_profile_free(&p);
	cmp_result_free(&r);   /* frees the sides too */

	/* A/A: nothing grew or shrank */
	write_side(b, 100, 8, 3);
	analyse(&r, &p, a, b);
	assert_true(p.n > 0);
	for (size_t i = 0; i < p.n; i++)
		if (!strcmp(p.rows[i].verdict, "GREW") || !strcmp(p.rows[i].verdict, "SHRANK"))
			fail_msg("A/A: %s.%s %s", cmp_prof_kind_names[p.rows[i].kind],
				 p.rows[i].sym, p.rows[i].verdict);
	cmp_profile_free(&p);
	cmp_result_free(&r);   /* frees the sides too */
	unlink(a);
	unlink(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_change),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
