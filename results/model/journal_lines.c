/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * journal_lines.c - the journal of a run in progress (see results/model/result.h and
 * SCHEMA.md, "The journal"): the header record and the point records it is
 * made of, and the reader that turns a dead run's journal into a normal
 * result marked incomplete. Each line is checked on its own: a damaged
 * line (its checksum), one that is JSON but no valid point, or a point
 * seen before is dropped and named by its line number, never a reason to
 * lose the lines around it. Journals of older runners (no checksums, one
 * header) are read too.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/linelog.h"
#include "results/model/result.h"

#define JOURNAL_KEY "cgscale_journal"
#define OUTPUT_KEY "cgscale_journal_output"
#define JOURNAL_VERSION 2

static char *record_of(struct json_object *o)
{
	const char *t = o ? json_object_to_json_string_ext(o,
			JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE) : NULL;
	char *s = t ? strdup(t) : NULL;

	json_object_put(o);
	return s;
}

char *res_journal_header(const struct res_file *f, const char *output)
{
	struct res_file h = *f;
	struct json_object *o;

	h.npoints = 0;
	h.points = NULL;
	o = res_to_json(&h);
	if (o) {
		json_object_object_add(o, JOURNAL_KEY, json_object_new_int(JOURNAL_VERSION));
		if (output)
			json_object_object_add(o, OUTPUT_KEY, json_object_new_string(output));
	}
	return record_of(o);
}

char *res_journal_point(const struct res_point *p)
{
	return record_of(res_point_to_json(p));
}

const char *res_run_id(const struct res_file *f)
{
	struct json_object *id;

	if (!f->invocation || !json_object_object_get_ex(f->invocation, "id", &id) ||
	    !json_object_is_type(id, json_type_string))
		return NULL;
	return json_object_get_string(id);
}

struct jr {
	struct json_object *root, *points;
	const char *hdr;                /* the header's line, to know its copy */
	size_t hdrlen;
	uint32_t key;                   /* of the point lines' checksums */
	int sv;                         /* the header's schema_version */
	unsigned *seq, *seq_line;       /* the points kept: seq, line */
	size_t nseq, cap;
	struct res_journal_info *info;
};

__attribute__((format(printf, 3, 4)))
static int bad(struct jr *j, unsigned lineno, const char *fmt, ...)
{
	struct res_journal_info *in = j->info;
	unsigned *lines = realloc(in->bad_line, (in->nbad + 1) * sizeof(*lines));
	va_list ap;

	if (!lines)
		return -ENOMEM;
	in->bad_line = lines;
	lines[in->nbad] = lineno;
	if (in->nbad < RES_JOURNAL_MAX_BAD) {
		in->bad[in->nbad].line = lineno;
		va_start(ap, fmt);
		vsnprintf(in->bad[in->nbad].why, sizeof(in->bad[0].why), fmt, ap);
		va_end(ap);
	}
	in->nbad++;
	return 0;
}

static struct json_object *parse_line(const char *line, size_t len)
{
	struct json_tokener *tok = len < (1u << 30) ? json_tokener_new_ex(RES_MAX_DEPTH) : NULL;
	struct json_object *o;

	if (!tok)
		return NULL;
	o = json_tokener_parse_ex(tok, line, (int)len);
	if (o && (json_tokener_get_error(tok) != json_tokener_success ||
		  json_tokener_get_parse_end(tok) != len)) {
		json_object_put(o);
		o = NULL;
	}
	json_tokener_free(tok);
	return o;
}

/* Line @lineno as the header: taken when it is one, else named. */
static void try_header(struct jr *j, const char *raw, size_t rawlen, unsigned lineno)
{
	const char *line;
	size_t len;
	int fr = cgs_linelog_unframe(raw, rawlen, 0, &line, &len);
	struct json_object *o, *mark, *pts, *out;
	struct res_file h;
	char why[128];

	if (fr < 0) {
		bad(j, lineno, "damaged: its checksum does not match");
		return;
	}
	o = parse_line(line, len);
	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, JOURNAL_KEY, &mark) ||
	    !json_object_object_get_ex(o, "points", &pts) ||
	    !json_object_is_type(pts, json_type_array) || json_object_array_length(pts)) {
		json_object_put(o);
		bad(j, lineno, "no journal header");
		return;
	}
	if (res_from_json(o, &h, why, sizeof(why))) {
		res_file_free(&h);
		json_object_put(o);
		bad(j, lineno, "a journal header that is not valid: %s", why);
		return;
	}
	j->sv = h.schema_version;
	j->key = fr ? cgs_linelog_key(res_run_id(&h)) : 0;
	res_file_free(&h);
	j->info->checksums = fr == 1;
	if (json_object_object_get_ex(o, OUTPUT_KEY, &out) &&
	    json_object_is_type(out, json_type_string))
		snprintf(j->info->output, sizeof(j->info->output), "%s",
			 json_object_get_string(out));
	json_object_object_del(o, JOURNAL_KEY);
	json_object_object_del(o, OUTPUT_KEY);
	j->root = o;
	j->points = pts;
	j->hdr = raw;
	j->hdrlen = rawlen;
}

/* 0 with *@seq when @o is a valid point; else the reason in @why. */
static int check_point(const struct jr *j, struct json_object *o, unsigned *seq,
		       char *why, size_t whylen)
{
	struct json_object *doc = json_object_new_object(), *tool = json_object_new_object();
	struct json_object *pts = json_object_new_array();
	struct res_file pf;
	int rc;

	if (!doc || !tool || !pts) {
		json_object_put(doc);
		json_object_put(tool);
		json_object_put(pts);
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	json_object_object_add(tool, "name", json_object_new_string("cgscale"));
	json_object_object_add(doc, "schema_version", json_object_new_int(j->sv));
	json_object_object_add(doc, "tool", tool);
	json_object_array_add(pts, json_object_get(o));
	json_object_object_add(doc, "points", pts);
	rc = res_from_json(doc, &pf, why, whylen);
	if (!rc && pf.npoints == 1)
		*seq = pf.points[0].seq;
	if (!strncmp(why, "points[0]: ", 11))
		memmove(why, why + 11, strlen(why + 11) + 1);
	res_file_free(&pf);
	json_object_put(doc);
	return rc;
}

/* Keep @seq of line @lineno; 0, or the line that had it already. */
static unsigned seen(struct jr *j, unsigned seq, unsigned lineno, int *rc)
{
	for (size_t k = 0; k < j->nseq; k++)
		if (j->seq[k] == seq)
			return j->seq_line[k];
	if (j->nseq == j->cap) {
		size_t cap = j->cap ? 2 * j->cap : 64;
		unsigned *s = realloc(j->seq, cap * sizeof(*s));

		if (s)
			j->seq = s;
		s = s ? realloc(j->seq_line, cap * sizeof(*s)) : NULL;
		if (!s) {
			*rc = -ENOMEM;
			return 0;
		}
		j->seq_line = s;
		j->cap = cap;
	}
	j->seq[j->nseq] = seq;
	j->seq_line[j->nseq++] = lineno;
	return 0;
}

static int point_line(struct jr *j, const char *line, size_t len, unsigned lineno)
{
	struct json_object *o, *mark;
	unsigned seq = 0, first;
	char why[128] = "";
	int fr, rc = 0;

	if (len == j->hdrlen && !memcmp(line, j->hdr, len))
		return 0;       /* the header's copy */
	fr = cgs_linelog_unframe(line, len, j->key, &line, &len);
	if (fr < 0)
		return bad(j, lineno, "damaged: its checksum does not match (a changed byte, or a line of another run)");
	if (!fr && j->info->checksums)
		return bad(j, lineno, "no checksum, in a journal whose lines have one");
	o = parse_line(line, len);
	if (!o)
		return bad(j, lineno, "not JSON");
	if (json_object_is_type(o, json_type_object) &&
	    json_object_object_get_ex(o, JOURNAL_KEY, &mark)) {
		json_object_put(o);
		return bad(j, lineno, "a second journal header, not the first one's copy");
	}
	rc = check_point(j, o, &seq, why, sizeof(why));
	if (rc) {
		json_object_put(o);
		return rc == -ENOMEM ? rc : bad(j, lineno, "not a valid point: %s", why);
	}
	first = seen(j, seq, lineno, &rc);
	if (rc || first) {
		json_object_put(o);
		return rc ? rc : bad(j, lineno, "repeats the point of line %u (seq %u)", first, seq);
	}
	return json_object_array_add(j->points, o) ? -ENOMEM : 0;
}

static int one_piece(struct jr *j, const char *line, size_t len, unsigned lineno)
{
	if (j->root)
		return point_line(j, line, len, lineno);
	try_header(j, line, len, lineno);
	return 0;
}

/* Whether @line's checksum holds, as a header or as a point. */
static bool whole(const struct jr *j, const char *line, size_t len)
{
	const char *rec;
	size_t n;

	return cgs_linelog_unframe(line, len, 0, &rec, &n) > 0 ||
	       (j->key && cgs_linelog_unframe(line, len, j->key, &rec, &n) > 0);
}

static int one_line(const char *line, size_t len, unsigned lineno, void *arg)
{
	struct jr *j = arg;
	size_t at;
	int rc = 0;

	/* a '\n' changed by a flipped bit runs two lines into one: when the
	 * whole fails its checksum, take each framed part on its own */
	while (!rc && !whole(j, line, len) && (at = cgs_linelog_inner_frame(line, len))) {
		if (!j->info->split++)
			j->info->split_line = lineno;
		rc = one_piece(j, line, at - 1, lineno);
		line += at;
		len -= at;
	}
	if (!rc)
		rc = one_piece(j, line, len, lineno);
	/* the header and its copy, even with one of them cut in two */
	return !rc && !j->root && lineno >= 3 ? -EINVAL : rc;
}

int res_journal_read(const char *name, const char *buf, size_t len,
		     struct res_file *f, struct res_journal_info *info,
		     char *err, size_t errlen)
{
	struct jr j = { .info = info };
	struct json_object *intr;
	char inner[400];
	int rc;

	memset(f, 0, sizeof(*f));
	memset(info, 0, sizeof(*info));
	rc = cgs_linelog_lines(buf, len, &info->torn, one_line, &j);
	if (rc == -ENOMEM) {
		snprintf(err, errlen, "%s: out of memory", name);
		res_journal_info_free(info);
		goto out;
	}
	if (rc || !j.root) {
		snprintf(err, errlen, "%s: not a cgscale journal (%s%s)", name,
			 info->nbad ? "line 1: " : "no complete header line",
			 info->nbad ? info->bad[0].why : "");
		rc = -EINVAL;
		res_journal_info_free(info);
		goto out;
	}
	json_object_object_add(j.root, "complete", json_object_new_boolean(0));
	if (!json_object_object_get_ex(j.root, "interrupted", &intr) ||
	    !json_object_is_type(intr, json_type_string))
		json_object_object_add(j.root, "interrupted", json_object_new_string(
			"the run stopped before its end; its points were recovered from its journal"));
	rc = res_from_json(j.root, f, inner, sizeof(inner));
	if (rc) {
		snprintf(err, errlen, "%s: %s", name, inner);
		res_file_free(f);
		res_journal_info_free(info);
	}
	info->points = f->npoints;
out:
	free(j.seq);
	free(j.seq_line);
	json_object_put(j.root);
	return rc;
}

void res_journal_info_free(struct res_journal_info *info)
{
	free(info->bad_line);
	info->bad_line = NULL;
}
