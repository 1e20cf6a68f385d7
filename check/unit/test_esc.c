/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_esc.c - lib/esc.c, the one escaping of strings of outside origin:
 * C0 controls, DEL, C1 controls and bytes that are not UTF-8 escaped;
 * valid UTF-8 kept; a cut never splits an escape or a character; a
 * whole text keeps its own lines.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/esc.h"

static void t_esc(void **state)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "plain text", "plain text" },
		{ "a\nb\tc\rd", "a\\nb\\tc\\rd" },
		{ "red\x1b[31m", "red\\x1b[31m" },
		{ "bell\x07 del\x7f", "bell\\x07 del\\x7f" },
		{ "\xc2\x9b" "2J", "\\xc2\\x9b2J" },             /* C1 CSI as UTF-8 */
		{ "raw \x9b", "raw \\x9b" },                     /* not UTF-8 */
		{ "cut \xe2\x82", "cut \\xe2\\x82" },            /* truncated */
		{ "over \xc0\xaf", "over \\xc0\\xaf" },          /* overlong */
		{ "\xed\xa0\x80", "\\xed\\xa0\\x80" },           /* surrogate */
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80" },
		{ "back\\slash", "back\\slash" },
		{ "", "" },
	};
	char buf[128];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_string_equal(cgs_esc(cases[i].in, buf, sizeof(buf)), cases[i].out);
		assert_int_equal(cgs_esc_needed(cases[i].in), strcmp(cases[i].in, cases[i].out) != 0);
	}
	assert_string_equal(cgs_esc(NULL, buf, sizeof(buf)), "");
	/* cut before an escape that does not fit, never inside one */
	assert_string_equal(cgs_esc("ab\x1b", buf, 5), "ab");
	assert_string_equal(cgs_esc("ab\xc3\xa9", buf, 4), "ab");
	assert_string_equal(cgs_esc("abc", buf, 1), "");
}

static void t_dup_and_write(void **state)
{
	char *d = cgs_esc_dup("\x1b\x1b\x9b");
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	(void)state;
	assert_string_equal(d, "\\x1b\\x1b\\x9b");
	free(d);
	m = open_memstream(&buf, &len);
	assert_int_equal(cgs_esc_write(m, "l1\n\tl2\x1b\n", 8, CGS_ESC_KEEP_LINES), 0);
	assert_int_equal(cgs_esc_write(m, "a\nb\0c", 5, 0), 0);      /* a NUL too */
	fclose(m);
	assert_int_equal(len, strlen("l1\n\tl2\\x1b\na\\nb\\x00c"));
	assert_memory_equal(buf, "l1\n\tl2\\x1b\na\\nb\\x00c", len);
	free(buf);
}

/* A whole text through the buffer: its lines kept, its controls not. */
static void t_buffer(void **state)
{
	struct cgs_esc_buf b;
	char *out = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&out, &len);

	(void)state;
	assert_int_equal(cgs_esc_open(&b), 0);
	fprintf(b.f, "name: %s\n", "x\x1b]0;title\x07");
	assert_int_equal(cgs_esc_close(&b, m), 0);
	fclose(m);
	assert_string_equal(out, "name: x\\x1b]0;title\\x07\n");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_esc),
		cmocka_unit_test(t_dup_and_write),
		cmocka_unit_test(t_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
