/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_irqsite.c - lib/irqsite.h: which functions are interrupt-enable
 * sites, which events sample in a timer, the skew figure of a profile's
 * symbol counts and its warning (said only when a run is skewed).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "lib/irqsite.h"

static void t_sites(void **state)
{
	(void)state;
	assert_true(cgs_irq_enable_site("pvm_irq_enable"));
	assert_true(cgs_irq_enable_site("__raw_callee_save_pvm_irq_enable"));
	assert_true(cgs_irq_enable_site("_raw_spin_unlock_irqrestore"));
	assert_true(cgs_irq_enable_site("_raw_spin_unlock_irq"));
	assert_true(cgs_irq_enable_site("finish_task_switch.isra.0"));
	assert_false(cgs_irq_enable_site("exc_page_fault"));
	assert_false(cgs_irq_enable_site("clear_page_erms"));
	assert_false(cgs_irq_enable_site(NULL));
	assert_true(cgs_timer_sampled("cpu-clock"));
	assert_true(cgs_timer_sampled("task-clock"));
	assert_false(cgs_timer_sampled("cycles"));
	assert_false(cgs_timer_sampled(NULL));
}

static struct cgs_symcount syms[] = {
	{ "pf1_loop", 500, 1000 },
	{ "pvm_irq_enable", 300, 300 },
	{ "_raw_spin_unlock_irqrestore", 20, 20 },
	{ "exc_page_fault", 10, 450 },
	{ "finish_task_switch.isra.0", 5, 5 },
	{ "__do_softirq", 0, 40 },     /* children only: not a landing */
};

static double num(struct json_object *o, const char *k)
{
	struct json_object *v;

	assert_true(json_object_object_get_ex(o, k, &v));
	return json_object_get_double(v);
}

static void t_skew(void **state)
{
	struct cgs_symcounts sc = { syms, sizeof(syms) / sizeof(syms[0]) };
	struct json_object *o = cgs_skew_json(&sc, 1000, "cpu-clock"), *v, *c;
	char w[1024];

	(void)state;
	assert_non_null(o);
	assert_int_equal((int)num(o, "samples"), 325);
	assert_true(fabs(num(o, "pct") - 32.5) < 1e-9);
	assert_true(json_object_object_get_ex(o, "skewed", &v) && json_object_get_boolean(v));
	assert_true(json_object_object_get_ex(o, "sites", &v));
	assert_int_equal(json_object_array_length(v), 3);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(v, 0)), "pvm_irq_enable");
	assert_string_equal(json_object_get_string(json_object_array_get_idx(v, 1)),
			    "_raw_spin_unlock_irqrestore");
	assert_int_equal(cgs_skew_warning(&o, 1, w, sizeof(w)), 0);
	assert_non_null(strstr(w, "32.5% of the samples land where interrupts are turned back on (pvm_irq_enable, _raw_spin_unlock_irqrestore, finish_task_switch.isra.0)"));
	/* the same counts from a PMU event: not skewed, nothing said */
	c = cgs_skew_json(&sc, 1000, "cycles");
	assert_true(json_object_object_get_ex(c, "skewed", &v) && !json_object_get_boolean(v));
	assert_int_equal(cgs_skew_warning(&c, 1, w, sizeof(w)), -ENOENT);
	json_object_put(c);
	/* below the threshold: not skewed */
	c = cgs_skew_json(&sc, 100000, "cpu-clock");
	assert_true(json_object_object_get_ex(c, "skewed", &v) && !json_object_get_boolean(v));
	json_object_put(c);
	json_object_put(o);
}

/* A result file is input: a skew object of the wrong types or names with
 * control characters is read safely, and no skew at all says nothing. */
static void t_warning_input(void **state)
{
	struct json_object *o = json_tokener_parse(
		"{\"skewed\": true, \"pct\": 50, \"sites\": [\"a\\u001b[31mb\", 5]}");
	struct json_object *none[2] = { NULL, NULL };
	char w[512];

	(void)state;
	assert_int_equal(cgs_skew_warning(none, 2, w, sizeof(w)), -ENOENT);
	assert_int_equal(cgs_skew_warning(&o, 1, w, sizeof(w)), 0);
	assert_null(strchr(w, '\x1b'));
	assert_non_null(strstr(w, "50.0% of the samples"));
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_sites),
		cmocka_unit_test(t_skew),
		cmocka_unit_test(t_warning_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
