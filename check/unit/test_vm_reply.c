/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_vm_reply.c - cgscale ab's reading of a guest's reply file: the
 * result between "=== result" and "=== end" is one line of any length
 * (a 44 KB line once lost boots when it was read 8 KB at a time and a cut
 * fell inside a string), CR LF line ends, and replies with no result or
 * a cut one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <json-c/json.h>

#include "runner/ab/vm.h"

static char path[] = "/tmp/cgs-vm-reply-XXXXXX";

static void put(const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* A one-line result whose strings are far longer than any read buffer. */
static void test_long_line(void **state)
{
	size_t n = 200000;
	char *big = malloc(n + 1), *text = malloc(n + 256);
	struct json_object *r, *v;

	(void)state;
	memset(big, 'x', n);
	big[n] = 0;
	snprintf(text, n + 256, "kernel: 6.1\r\nrc: 0\r\n=== result\r\n{\"a\":\"%s\",\"b\":2}\r\n\r\n=== end\r\n=== done\r\n", big);
	put(text);
	r = cgs_vm_reply_result(path);
	assert_non_null(r);
	assert_true(json_object_object_get_ex(r, "a", &v));
	assert_int_equal(strlen(json_object_get_string(v)), n);
	assert_true(json_object_object_get_ex(r, "b", &v));
	assert_int_equal(json_object_get_int(v), 2);
	json_object_put(r);
	free(big);
	free(text);
}

static void test_none(void **state)
{
	(void)state;
	put("kernel: 6.1\nrc: 1\n=== done\n");
	assert_null(cgs_vm_reply_result(path));
	put("=== result\n{\"a\":\"cut her");   /* the guest died mid-line */
	assert_null(cgs_vm_reply_result(path));
	unlink(path);
	assert_null(cgs_vm_reply_result(path));   /* no file at all */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_none),
	};
	int fd = mkstemp(path), rc;

	if (fd < 0)
		return 1;
	close(fd);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(path);
	return rc;
}
