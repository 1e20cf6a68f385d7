/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_journal.c - the line journal (lib/linelog.c) and the run journal
 * it carries (results/model/journal_lines.c): every appended line survives
 * with its checksum; a torn last line, a damaged line, a line that is JSON
 * but no valid point and a repeated point are each dropped and named by
 * line number while the others are kept; a single flipped bit anywhere is
 * either caught by a checksum or changes nothing; journals of older
 * runners (no checksums) still recover; a file that is not a journal is
 * refused; a live writer's lock is seen by another process.
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

#define RUN_ID "0123456789abcdef0123456789abcdef"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 20);

	assert_non_null(f);
	*len = fread(buf, 1, (1 << 20) - 1, f);
	fclose(f);
	return buf;
}

/* One point line's record. */
static char *point_rec(struct res_file *f, int k)
{
	struct res_point *p = res_file_add_point(f);

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
	return res_journal_point(p);
}

/* A journal as the runner writes it: the header twice, then @npoints
 * points, each line checksummed with the run id (@old: the format of
 * older runners, one header and no checksums). */
static void write_journal(const char *path, int npoints, bool old)
{
	struct res_file f = { 0 };
	int fd = cgs_linelog_create(path);
	uint32_t key = cgs_linelog_key(RUN_ID);
	char *rec;

	assert_true(fd >= 0);
	f.schema_version = RES_SCHEMA_VERSION;
	f.tool_version = strdup("0.1.0");
	f.start_time = strdup("2026-12-01T00:00:00Z");
	f.invocation = json_object_new_object();
	json_object_object_add(f.invocation, "id", json_object_new_string(RUN_ID));
	rec = res_journal_header(&f, "/results/r.json");
	if (old) {
		/* what an older runner wrote: "cgscale_journal": 1, raw lines */
		char *one = strstr(rec, "\"cgscale_journal\":2");

		assert_non_null(one);
		one[strlen("\"cgscale_journal\":")] = '1';
		assert_int_equal(dprintf(fd, "%s\n", rec), (int)strlen(rec) + 1);
	} else {
		assert_int_equal(cgs_linelog_append(fd, rec, strlen(rec), 0), 0);
		assert_int_equal(cgs_linelog_append(fd, rec, strlen(rec), 0), 0);
	}
	free(rec);
	for (int k = 0; k < npoints; k++) {
		rec = point_rec(&f, k);
		if (old)
			assert_int_equal(dprintf(fd, "%s\n", rec), (int)strlen(rec) + 1);
		else
			assert_int_equal(cgs_linelog_append(fd, rec, strlen(rec), key), 0);
		free(rec);
	}
	close(fd);
	res_file_free(&f);
}

static char *tmp_journal(char *dir, char *path, size_t len, int npoints, bool old)
{
	size_t n;

	assert_non_null(mkdtemp(dir));
	snprintf(path, len, "%s/r.json.partial", dir);
	write_journal(path, npoints, old);
	return slurp(path, &n);
}

static void rm_journal(char *dir, char *path, char *buf)
{
	free(buf);
	unlink(path);
	rmdir(dir);
}

/* The line numbers res_journal_read named, "3,5". */
static void named(const struct res_journal_info *in, char *buf, size_t len)
{
	*buf = 0;
	for (unsigned k = 0; k < in->nbad; k++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%u", k ? "," : "",
			 in->bad_line[k]);
}

static void t_recover(void **state)
{
	char dir[] = "/tmp/cgs-journal-XXXXXX", path[64];
	struct res_journal_info info;
	struct res_file f;
	char err[512], *buf = tmp_journal(dir, path, sizeof(path), 3, false);
	size_t len = strlen(buf);

	(void)state;
	assert_int_equal(res_journal_read("j", buf, len, &f, &info, err, sizeof(err)), 0);
	assert_int_equal(f.npoints, 3);
	assert_false(f.complete);
	assert_non_null(f.interrupted);
	assert_int_equal(f.points[2].ops[1], 1002);
	assert_string_equal(res_run_id(&f), RUN_ID);
	assert_string_equal(info.output, "/results/r.json");
	assert_true(info.checksums);
	assert_int_equal(info.nbad, 0);   /* the header's copy is no bad line */
	assert_int_equal(info.torn, 0);
	res_file_free(&f);
	res_journal_info_free(&info);

	/* torn last line: the two whole points are kept, the torn bytes counted */
	assert_int_equal(res_journal_read("j", buf, len - 40, &f, &info, err, sizeof(err)), 0);
	assert_int_equal(f.npoints, 2);
	assert_true(info.torn > 0);
	res_file_free(&f);
	res_journal_info_free(&info);

	/* a garbled header: its copy on line 2 serves */
	buf[40] ^= 0x20;
	assert_int_equal(res_journal_read("j", buf, len, &f, &info, err, sizeof(err)), 0);
	assert_int_equal(f.npoints, 3);
	assert_int_equal(info.nbad, 1);
	assert_int_equal(info.bad[0].line, 1);
	res_file_free(&f);
	res_journal_info_free(&info);
	buf[40] ^= 0x20;

	/* not a journal: a result file, or nothing whole */
	assert_int_equal(res_journal_read("j", "{\"schema_version\":1}\n", 21, &f, &info,
					  err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a cgscale journal"));
	assert_int_equal(res_journal_read("j", "{\"sch", 5, &f, &info, err, sizeof(err)), -EINVAL);
	rm_journal(dir, path, buf);
}

/* @buf with line @at (from 1) replaced by @line. */
static char *with_line(const char *buf, unsigned at, const char *line)
{
	const char *s = buf, *e;
	char *out;

	for (unsigned k = 1; k < at; k++)
		s = strchr(s, '\n') + 1;
	e = strchr(s, '\n');
	assert_true(asprintf(&out, "%.*s%s%s", (int)(s - buf), buf, line, e) > 0);
	return out;
}

/* A record framed as the runner frames it, checksum and all. */
static char *framed(const char *rec)
{
	char path[] = "/tmp/cgs-frame-XXXXXX", *line;
	int fd = mkstemp(path);
	size_t n;

	assert_true(fd >= 0);
	assert_int_equal(cgs_linelog_write(fd, rec, strlen(rec), cgs_linelog_key(RUN_ID)), 0);
	close(fd);
	line = slurp(path, &n);
	unlink(path);
	line[n - 1] = 0;
	return line;
}

/* The record of line @at (from 1) of @buf, a copy. */
static char *record_at(const char *buf, unsigned at)
{
	const char *s = buf, *e, *r;

	for (unsigned k = 1; k < at; k++)
		s = strchr(s, '\n') + 1;
	e = strchr(s, '\n');
	r = strstr(s, "\"rec\":") + 6;
	return strndup(r, (size_t)(e - 1 - r));     /* without the frame's '}' */
}

/* @s with its first @from replaced by @to. */
static char *replaced(const char *s, const char *from, const char *to)
{
	const char *at = strstr(s, from);
	char *out;

	assert_non_null(at);
	assert_true(asprintf(&out, "%.*s%s%s", (int)(at - s), s, to, at + strlen(from)) > 0);
	return out;
}

/* Valid JSON with a valid checksum, but no valid point: named, the rest
 * kept; a line without a checksum; a line repeated does not make one
 * point more. */
static void t_bad_lines(void **state)
{
	char dir[] = "/tmp/cgs-journal-XXXXXX", path[64], err[512], list[64];
	char *buf = tmp_journal(dir, path, sizeof(path), 12, false);
	char *rec5 = record_at(buf, 5), *wrong[4];
	struct res_journal_info info;
	struct res_file f;

	(void)state;
	wrong[0] = strdup("{}");
	wrong[1] = strdup("{\"x\":1}");
	wrong[2] = replaced(rec5, "\"tasks\":", "\"taskz\":");
	wrong[3] = replaced(rec5, "\"mode\":\"process\"", "\"mode\":\"xprocess\"");
	for (int w = 0; w < 4; w++) {
		char *fr = framed(wrong[w]), *text = with_line(buf, 5, fr);

		assert_int_equal(res_journal_read("j", text, strlen(text), &f, &info, err,
						  sizeof(err)), 0);
		assert_int_equal(f.npoints, 11);
		named(&info, list, sizeof(list));
		assert_string_equal(list, "5");
		assert_non_null(strstr(info.bad[0].why, "not a valid point"));
		res_file_free(&f);
		res_journal_info_free(&info);
		free(text);
		free(fr);
		free(wrong[w]);
	}
	free(rec5);
	/* without a checksum, in a journal that has them */
	{
		char *text = with_line(buf, 5, "{\"x\":1}");

		assert_int_equal(res_journal_read("j", text, strlen(text), &f, &info, err,
						  sizeof(err)), 0);
		assert_int_equal(f.npoints, 11);
		named(&info, list, sizeof(list));
		assert_string_equal(list, "5");
		assert_non_null(strstr(info.bad[0].why, "no checksum"));
		res_file_free(&f);
		res_journal_info_free(&info);
		free(text);
	}
	/* a repeated line: 12 points, the repeat named */
	{
		const char *l6 = buf;
		char *text;

		for (int k = 1; k < 6; k++)
			l6 = strchr(l6, '\n') + 1;
		assert_true(asprintf(&text, "%.*s%s", (int)(strchr(l6, '\n') + 1 - buf), buf, l6) > 0);
		assert_int_equal(res_journal_read("j", text, strlen(text), &f, &info, err,
						  sizeof(err)), 0);
		assert_int_equal(f.npoints, 12);
		named(&info, list, sizeof(list));
		assert_string_equal(list, "7");
		assert_non_null(strstr(info.bad[0].why, "repeats the point of line 6"));
		res_file_free(&f);
		res_journal_info_free(&info);
		free(text);
	}
	rm_journal(dir, path, buf);
}

/* One flipped bit anywhere in a 12-point journal: its line is named and
 * only its point lost, or the result is exactly the same (a damaged '\n'
 * between two whole lines); a different point is never accepted. */
/* Every bit of every '\n' of @buf but the last (that one tears the last
 * line) flipped: the journal reads as @want, the damage split away. */
static void newline_flips(char *buf, size_t len, const char *want)
{
	struct res_journal_info info;
	struct res_file f;
	struct json_object *o;
	char err[512];

	for (size_t at = 0; at + 1 < len; at++) {
		for (int b = 0; buf[at] == '\n' && b < 8; b++) {
			buf[at] ^= (char)(1u << b);
			assert_int_equal(res_journal_read("j", buf, len, &f, &info, err,
							  sizeof(err)), 0);
			assert_int_equal(info.nbad, 0);
			assert_int_equal(info.split, 1);
			o = res_to_json(&f);
			assert_string_equal(json_object_to_json_string(o), want);
			json_object_put(o);
			res_file_free(&f);
			res_journal_info_free(&info);
			buf[at] ^= (char)(1u << b);
		}
	}
}

static void t_bit_flips(void **state)
{
	char dir[] = "/tmp/cgs-journal-XXXXXX", path[64], err[512];
	char *buf = tmp_journal(dir, path, sizeof(path), 12, false), *want;
	size_t len = strlen(buf);
	struct res_journal_info info;
	struct res_file f;
	struct json_object *o;
	unsigned caught = 0, same = 0;

	(void)state;
	assert_int_equal(res_journal_read("j", buf, len, &f, &info, err, sizeof(err)), 0);
	o = res_to_json(&f);
	want = strdup(json_object_to_json_string(o));
	json_object_put(o);
	res_file_free(&f);
	res_journal_info_free(&info);
	srand(25);
	for (int i = 0; i < 300; i++) {
		size_t at = (size_t)rand() % len;
		char bit = (char)(1u << (rand() % 8));
		unsigned line = 1;

		for (size_t k = 0; k < at; k++)
			line += buf[k] == '\n';
		buf[at] ^= bit;
		assert_int_equal(res_journal_read("j", buf, len, &f, &info, err, sizeof(err)), 0);
		o = res_to_json(&f);
		if (info.nbad) {
			caught++;
			assert_int_equal(info.bad_line[0], line);
			assert_int_equal(f.npoints, line <= 2 ? 12 : 11);
		} else {
			same++;
			assert_int_equal(info.split, 1);
			assert_string_equal(json_object_to_json_string(o), want);
		}
		json_object_put(o);
		res_file_free(&f);
		res_journal_info_free(&info);
		buf[at] ^= bit;
	}
	print_message("300 flips: %u caught and named, %u a damaged newline that lost nothing\n",
		      caught, same);
	assert_int_equal(caught + same, 300);
	newline_flips(buf, len, want);
	free(want);
	rm_journal(dir, path, buf);
}

/* A journal of an older runner: no checksums, one header; still read,
 * its bad lines named. */
static void t_old_journal(void **state)
{
	char dir[] = "/tmp/cgs-journal-XXXXXX", path[64], err[512];
	char *buf = tmp_journal(dir, path, sizeof(path), 3, true), *text;
	struct res_journal_info info;
	struct res_file f;

	(void)state;
	assert_int_equal(res_journal_read("j", buf, strlen(buf), &f, &info, err, sizeof(err)), 0);
	assert_int_equal(f.npoints, 3);
	assert_false(info.checksums);
	assert_int_equal(info.nbad, 0);
	res_file_free(&f);
	res_journal_info_free(&info);
	text = with_line(buf, 3, "{\"x\":1}");
	assert_int_equal(res_journal_read("j", text, strlen(text), &f, &info, err, sizeof(err)), 0);
	assert_int_equal(f.npoints, 2);
	assert_int_equal(info.nbad, 1);
	assert_int_equal(info.bad[0].line, 3);
	res_file_free(&f);
	res_journal_info_free(&info);
	free(text);
	rm_journal(dir, path, buf);
}

static void t_frame(void **state)
{
	const char *rec, *line = "{\"crc32\":\"00000000\",\"rec\":{}}";
	size_t n;

	(void)state;
	assert_int_equal(cgs_linelog_unframe("{\"a\":1}", 7, 0, &rec, &n), 0);
	assert_int_equal(n, 7);
	assert_int_equal(cgs_linelog_unframe(line, strlen(line), 0, &rec, &n), -EBADMSG);
	{
		char *ok = framed("{\"a\":1}");

		assert_int_equal(cgs_linelog_unframe(ok, strlen(ok), cgs_linelog_key(RUN_ID),
						     &rec, &n), 1);
		assert_int_equal(n, 7);
		assert_memory_equal(rec, "{\"a\":1}", 7);
		/* another run's line: the key differs */
		assert_int_equal(cgs_linelog_unframe(ok, strlen(ok), cgs_linelog_key("x"),
						     &rec, &n), -EBADMSG);
		free(ok);
	}
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
		cmocka_unit_test(t_bad_lines),
		cmocka_unit_test(t_bit_flips),
		cmocka_unit_test(t_old_journal),
		cmocka_unit_test(t_frame),
		cmocka_unit_test(t_lock),
		cmocka_unit_test(t_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
