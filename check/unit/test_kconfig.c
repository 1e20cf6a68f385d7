/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_kconfig.c - the kernel config reader (lib/kconfig.c) on fixed
 * .config texts: the options kept and their values, "not set" as n, the
 * debug and PREEMPT_RT rows recorded n when absent, a hash that ignores
 * comments but not values, a gzip'd file read as /proc/config.gz is;
 * and the environment diff's rule for option rows (results/compare/
 * env_kernel.c): an option on one side only differs, equal ones are not
 * printed, a debug option on one side is a note.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib/kconfig.h"
#include "results/compare/model.h"
#include "results/compare/fmt.h"

static const char generic[] =
	"#\n# Automatically generated file; DO NOT EDIT.\n#\n"
	"CONFIG_PREEMPT_VOLUNTARY=y\n# CONFIG_PREEMPT is not set\n"
	"CONFIG_MEMCG=y\nCONFIG_HZ=250\nCONFIG_TRANSPARENT_HUGEPAGE=y\n"
	"CONFIG_LOCALVERSION=\"\"\nCONFIG_EXT4_FS=m\n";
static const char rt[] =
	"CONFIG_PREEMPT_RT=y\n# CONFIG_PREEMPT_VOLUNTARY is not set\n"
	"CONFIG_MEMCG=y\nCONFIG_HZ=250\nCONFIG_KASAN=y\nCONFIG_EXT4_FS=m\n";

static const char *opt(struct json_object *o, const char *name)
{
	struct json_object *opts, *v;

	if (!json_object_object_get_ex(o, "options", &opts) ||
	    !json_object_object_get_ex(opts, name, &v))
		return NULL;
	return json_object_get_string(v);
}

static const char *hash(struct json_object *o)
{
	struct json_object *v;

	return json_object_object_get_ex(o, "hash", &v) ? json_object_get_string(v) : NULL;
}

static void test_parse(void **state)
{
	struct json_object *g = cgs_kconfig_parse(generic, strlen(generic), "g");
	struct json_object *r = cgs_kconfig_parse(rt, strlen(rt), "r");

	(void)state;
	assert_non_null(g);
	assert_string_equal(opt(g, "CONFIG_PREEMPT_VOLUNTARY"), "y");
	assert_string_equal(opt(g, "CONFIG_PREEMPT"), "n");
	assert_string_equal(opt(g, "CONFIG_HZ"), "250");
	assert_string_equal(opt(g, "CONFIG_PREEMPT_RT"), "n");   /* absent: n */
	assert_string_equal(opt(g, "CONFIG_KASAN"), "n");
	assert_null(opt(g, "CONFIG_EXT4_FS"));                   /* not ours */
	assert_string_equal(opt(r, "CONFIG_PREEMPT_RT"), "y");
	assert_string_equal(opt(r, "CONFIG_KASAN"), "y");
	assert_string_equal(opt(r, "CONFIG_PREEMPT_VOLUNTARY"), "n");
	assert_string_not_equal(hash(g), hash(r));
	assert_true(cgs_kconfig_is_debug("CONFIG_KASAN"));
	assert_true(cgs_kconfig_is_debug("LOCKDEP"));
	assert_false(cgs_kconfig_is_debug("CONFIG_PREEMPT_RT"));
	json_object_put(g);
	json_object_put(r);
}

/* 6.9's renames read under the new names; KFENCE kept but no debug
 * option; PER_VMA_LOCK recorded, n when absent */
static void test_renamed(void **state)
{
	static const char old[] = "CONFIG_RETPOLINE=y\nCONFIG_PAGE_TABLE_ISOLATION=y\n"
		"CONFIG_SPECULATION_MITIGATIONS=y\nCONFIG_KFENCE=y\nCONFIG_KFENCE_SAMPLE_INTERVAL=100\n";
	static const char new[] = "CONFIG_MITIGATION_RETPOLINE=y\nCONFIG_MITIGATION_PAGE_TABLE_ISOLATION=y\n"
		"CONFIG_CPU_MITIGATIONS=y\nCONFIG_PER_VMA_LOCK=y\n";
	struct json_object *o = cgs_kconfig_parse(old, strlen(old), NULL);
	struct json_object *n = cgs_kconfig_parse(new, strlen(new), NULL);

	(void)state;
	assert_string_equal(opt(o, "CONFIG_MITIGATION_RETPOLINE"), "y");
	assert_string_equal(opt(o, "CONFIG_MITIGATION_PAGE_TABLE_ISOLATION"), "y");
	assert_string_equal(opt(o, "CONFIG_CPU_MITIGATIONS"), "y");
	assert_null(opt(o, "CONFIG_RETPOLINE"));
	assert_string_equal(opt(o, "CONFIG_KFENCE"), "y");
	assert_string_equal(opt(o, "CONFIG_KFENCE_SAMPLE_INTERVAL"), "100");
	assert_false(cgs_kconfig_is_debug("CONFIG_KFENCE"));
	assert_string_equal(opt(o, "CONFIG_PER_VMA_LOCK"), "n");
	assert_string_equal(opt(n, "CONFIG_PER_VMA_LOCK"), "y");
	assert_string_equal(opt(n, "CONFIG_MITIGATION_RETPOLINE"), "y");
	json_object_put(o);
	json_object_put(n);
}

static void test_hash_comments(void **state)
{
	const char *a = "CONFIG_HZ=250\nCONFIG_MEMCG=y\n";
	const char *b = "# a comment\n\nCONFIG_HZ=250\n# CONFIG_FOO is not set\nCONFIG_MEMCG=y\n";
	const char *c = "CONFIG_HZ=1000\nCONFIG_MEMCG=y\n";
	struct json_object *x = cgs_kconfig_parse(a, strlen(a), NULL);
	struct json_object *y = cgs_kconfig_parse(b, strlen(b), NULL);
	struct json_object *z = cgs_kconfig_parse(c, strlen(c), NULL);

	(void)state;
	assert_string_equal(hash(x), hash(y));
	assert_string_not_equal(hash(x), hash(z));
	json_object_put(x);
	json_object_put(y);
	json_object_put(z);
}

static void test_read_gz(void **state)
{
	char dir[] = "/tmp/cgs-kconfig.XXXXXX", path[128], cmd[512], *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/config", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(rt, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "gzip -9 %s", path);
	if (system(cmd) != 0) {
		skip();
	}
	snprintf(path, sizeof(path), "%s/config.gz", dir);
	assert_int_equal(cgs_kconfig_read(path, &text, &len), 0);
	assert_int_equal(len, strlen(rt));
	assert_memory_equal(text, rt, len);
	free(text);
	unlink(path);
	rmdir(dir);
	assert_int_not_equal(cgs_kconfig_read("/nonexistent/config", &text, &len), 0);
}

/* Two sides, one field each row: the rule of env_kernel.c. */
static void test_env_rows(void **state)
{
	struct cmp_result r = { 0 };
	struct cmp_side sides[2] = { { .label = "A", .name = "a" }, { .label = "B", .name = "b" } };
	struct cmp_envrow rows[3] = { 0 };
	char *v0[2] = { "y", NULL }, *v1[2] = { "250", "250" }, *v2[2] = { "n", "y" };

	(void)state;
	rows[0].field = "kernel.config.options.CONFIG_PREEMPT_RT";
	rows[0].val = v0;
	rows[1].field = "kernel.config.options.CONFIG_HZ";
	rows[1].val = v1;
	rows[2].field = "kernel.config.options.CONFIG_KASAN";
	rows[2].val = v2;
	r.sides = sides;
	r.nsides = 2;
	r.env = malloc(sizeof(rows));
	memcpy(r.env, rows, sizeof(rows));
	r.nenv = 3;
	assert_int_equal(cmp_env_kernel(&r), 0);
	assert_true(r.env[0].differs);
	assert_false(r.env[0].hidden);
	assert_true(r.env[1].hidden);
	assert_true(r.env[2].differs);
	assert_int_equal(r.nnotes, 1);
	assert_non_null(strstr(r.notes[0], "KASAN"));
	/* the text says what "-" is against "n" */
	{
		char *text = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&text, &len);

		cmp_fmt_env(&r, m, false);
		fclose(m);
		assert_non_null(strstr(text, "CONFIG_PREEMPT_RT"));
		assert_non_null(strstr(text, "\"-\" the kernel's config has no such option at all; \"n\" it has, not set"));
		free(text);
	}
	for (unsigned i = 0; i < r.nnotes; i++)
		free(r.notes[i]);
	free(r.notes);
	free(r.env);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_renamed),
		cmocka_unit_test(test_hash_comments),
		cmocka_unit_test(test_read_gz),
		cmocka_unit_test(test_env_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
