/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_journal.c - the line journal (lib/linelog.c) and the run journal
 * it carries (results/model/journal_lines.c): every appended line survives, a torn
 * last line and a garbled line are dropped and counted, a file that is not
 * a journal is refused, and a live writer's lock is seen by another process.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "lib/linelog.h"
#include "results/model/result.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 20);

	assert_non_null(f);
	*len = fread(buf, 1, (1 << 20) - 1, f);
	fclose(f);
	return buf;
}

/* A result header and two points, written through the journal. */
static void write_journal(const char *path, int npoints)
{
	struct res_file f = { 0 };
	int fd = cgs_linelog_create(path);
	char *line;

	assert_true(fd >= 0);
	f.schema_version = RES_SCHEMA_VERSION;
	f.tool_version = strdup("0.1.0");
	f.start_time = strdup("2026-12-01T00:00:00Z");
	line = res_journal_header(&f);
	assert_int_equal(cgs_linelog_append(fd, line, strlen(line)), 0);
	free(line);
	for (int k = 0; k < npoints; k++) {
		struct res_point *p = res_file_add_point(&f);

		assert_int_equal(res_point_alloc(p, 1, 2), 0);
		p->seq = (unsigned)k;
		p->test = strdup("page_fault1");
		p->mode = strdup("process");
		p->tasks = 1;
		p->status = RES_OK;
		p->t_ns[1] = 1000000000;
		p->phase[1] = RES_PHASE_MEASURE;
		p->ops[1] = 1000 + (uint64_t)k;
		p->task[0].status = RES_OK;
		res_point_summarise(p);
		line = res_journal_point(p);
		assert_int_equal(cgs_linelog_append(fd, line, strlen(line)), 0);
		free(line);
	}
	close(fd);
	res_file_free(&f);
}

static void t_recover(void **state)
{
	char dir[] = "/tmp/cgs-journal-XXXXXX", path[64];
	struct res_journal_info info;
	struct res_file f;
	char err[512], *buf;
	size_t len;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/r.json.partial", dir);
	write_journal(path, 3);
	buf = slurp(path, &len);
	assert_int_equal(res_journal_read("j", buf, len, &f, &info, err, sizeof(err)), 0);
	assert_int_equal(f.npoints, 3);
	assert_false(f.complete);
	assert_non_null(f.interrupted);
	assert_int_equal(f.points[2].ops[1], 1002);
	assert_int_equal(info.torn, 0);
	res_file_free(&f);

	/* torn last line: the two whole points are kept, the torn bytes counted */
	assert_int_equal(res_journal_read("j", buf, len - 40, &f, &info, err, sizeof(err)), 0);
	assert_int_equal(f.npoints, 2);
	assert_true(info.torn > 0);
	res_file_free(&f);

	/* a garbled line in the middle is dropped and named, not fatal */
	{
		char *nl = strchr(buf, '\n') + 1;

		nl[5] = '#';
		assert_int_equal(res_journal_read("j", buf, len, &f, &info, err, sizeof(err)), 0);
		assert_int_equal(f.npoints, 2);
		assert_int_equal(info.dropped, 1);
		assert_int_equal(info.first_dropped, 2);
		res_file_free(&f);
	}
	/* not a journal: a result file, or nothing whole */
	assert_int_equal(res_journal_read("j", "{\"schema_version\":1}\n", 21, &f, &info,
					  err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a cgscale journal"));
	assert_int_equal(res_journal_read("j", "{\"sch", 5, &f, &info, err, sizeof(err)), -EINVAL);
	free(buf);
	unlink(path);
	rmdir(dir);
}

static void t_lock(void **state)
{
	char dir[] = "/tmp/cgs-journal-XXXXXX", path[64];
	int go[2], done[2], st;
	pid_t child;
	char c;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/j.partial", dir);
	assert_int_equal(cgs_linelog_idle(path), -ENOENT);
	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(done), 0);
	child = fork();
	if (!child) {
		int fd = cgs_linelog_create(path);

		c = fd >= 0 ? 'y' : 'n';
		if (write(go[1], &c, 1) != 1 || read(done[0], &c, 1) != 1)
			_exit(1);
		_exit(0);
	}
	assert_int_equal(read(go[0], &c, 1), 1);
	assert_int_equal(c, 'y');
	assert_int_equal(cgs_linelog_idle(path), -EBUSY);
	assert_int_equal(cgs_linelog_create(path), -EBUSY);
	assert_int_equal(write(done[1], "x", 1), 1);
	assert_int_equal(waitpid(child, &st, 0), child);
	/* its writer is gone: the journal is dead, and can be taken over */
	assert_int_equal(cgs_linelog_idle(path), 0);
	unlink(path);
	rmdir(dir);
}

static int count_line(const char *line, size_t len, unsigned lineno, void *arg)
{
	(void)line;
	(void)lineno;
	*(size_t *)arg += len;
	return 0;
}

static void t_lines(void **state)
{
	size_t torn, sum = 0;

	(void)state;
	assert_int_equal(cgs_linelog_lines("ab\ncde\nfg", 9, &torn, count_line, &sum), 0);
	assert_int_equal(sum, 5);
	assert_int_equal(torn, 2);
	sum = 0;
	assert_int_equal(cgs_linelog_lines("", 0, &torn, count_line, &sum), 0);
	assert_int_equal(torn, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_recover),
		cmocka_unit_test(t_lock),
		cmocka_unit_test(t_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
