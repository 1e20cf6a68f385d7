/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * folded.c - `cgscale export --folded`: a point's collapsed stacks
 * from the "profile" sections of result files, in the format
 * flamegraph.pl, inferno and speedscope read ("frame;frame count").
 * The runs of the point are merged on stdout, or with --out-dir each run
 * of each profiled point is its own new file there, created O_EXCL through
 * the directory's fd (lib/safefile.h). Weighted in samples, or with
 * --weight ns-per-op in time per op: a stack's samples / the run's
 * samples x the run's CPU time per op (results/compare/profile.h), the
 * merged runs averaged, written with three decimals (flamegraph.pl and
 * difffolded.pl read decimal counts).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "lib/folded.h"
#include "lib/safedir.h"
#include "lib/safefile.h"
#include "lib/util.h"
#include "results/compare/model.h"
#include "results/compare/profile.h"
#include "results/export/folded.h"

const char *const exp_folded_weight_names[] = { "samples", "ns-per-op", NULL };

/* Stacks with a weight each, in the order first added. */
struct wstacks {
	struct cgs_stacks keys;
	double *w;
	size_t cap;
	unsigned runs;
};

static void ws_free(struct wstacks *ws)
{
	cgs_stacks_free(&ws->keys);
	free(ws->w);
	memset(ws, 0, sizeof(*ws));
}

/* Run @p's stacks into @ws: samples, or ns/op (-ENODATA with @err when
 * the run has no CPU time per op). */
static int ws_add_run(struct wstacks *ws, bool ns, const struct res_point *p,
		      struct json_object *prof, char *err, size_t errlen)
{
	struct cgs_stacks st = { 0 };
	struct cmp_run_cpu c = { .cpu = 1 };
	int rc = cmp_profile_folded(prof, &st);

	if (!rc && ns && !cmp_profile_run_cpu(p, &c))
		rc = cgs_errf(err, errlen, -ENODATA, "--weight ns-per-op: run %u of %s %s %u tasks has no CPU time per op (it ran with --no-cputime?); use --weight samples",
			      p->run + 1, p->test, p->mode, p->tasks);
	for (size_t i = 0; !rc && i < st.n; i++) {
		struct cgs_stack *e;

		rc = cgs_stacks_add(&ws->keys, st.v[i].stack, 0);
		e = rc ? NULL : cgs_stacks_find(&ws->keys, st.v[i].stack);
		if (e && ws->keys.n > ws->cap) {
			size_t cap = ws->cap ? 2 * ws->cap : 256;
			double *v = realloc(ws->w, cap * sizeof(*v));

			if (!v) {
				rc = -ENOMEM;
				break;
			}
			memset(v + ws->cap, 0, (cap - ws->cap) * sizeof(*v));
			ws->w = v;
			ws->cap = cap;
		}
		if (e)
			ws->w[e - ws->keys.v] += ns ? (double)st.v[i].count / (double)st.total * c.cpu
						    : (double)st.v[i].count;
	}
	ws->runs += !rc;
	cgs_stacks_free(&st);
	return rc;
}

static int by_weight(const void *x, const void *y, void *arg)
{
	const struct wstacks *ws = arg;
	size_t a = *(const size_t *)x, b = *(const size_t *)y;

	if (ws->w[a] != ws->w[b])
		return ws->w[a] > ws->w[b] ? -1 : 1;
	return strcmp(ws->keys.v[a].stack, ws->keys.v[b].stack);
}

/* "stack weight" lines, heaviest first: counts, or ns/op averaged over
 * the runs with three decimals. */
static int ws_write(struct wstacks *ws, bool ns, FILE *f)
{
	size_t *ix = malloc((ws->keys.n + 1) * sizeof(*ix));

	if (!ix)
		return -ENOMEM;
	for (size_t i = 0; i < ws->keys.n; i++)
		ix[i] = i;
	qsort_r(ix, ws->keys.n, sizeof(*ix), by_weight, ws);
	for (size_t i = 0; i < ws->keys.n; i++) {
		double w = ws->w[ix[i]] / (ns && ws->runs ? ws->runs : 1);

		if (!ns)
			fprintf(f, "%s %.0f\n", ws->keys.v[ix[i]].stack, w);
		else if (w >= 0.0005)
			fprintf(f, "%s %.3f\n", ws->keys.v[ix[i]].stack, w);
	}
	free(ix);
	return 0;
}

/* Does @p match "TEST:MODE:TASKS[:LAYOUT]" (NULL matches all)? */
static bool point_match(const struct res_point *p, const char *spec)
{
	char test[128], mode[32], layout[1024] = "";
	unsigned tasks;
	int n;

	if (!spec)
		return true;
	n = sscanf(spec, "%127[^:]:%31[^:]:%u:%1023[^\n]", test, mode, &tasks, layout);
	return n >= 3 && !strcmp(test, p->test) && !strcmp(mode, p->mode) &&
	       tasks == p->tasks && (n < 4 || !strcmp(layout, cmp_point_layout(p)));
}

/* @s to the new file @name in @dirfd (O_EXCL|O_NOFOLLOW: an existing
 * name, a planted link included, is refused); removed when it fails. */
static int write_new(int dirfd, const char *name, const char *path,
		     struct wstacks *s, bool ns, char *err, size_t errlen)
{
	int fd = cgs_create_at(dirfd, name, O_WRONLY, 0644), rc;
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");

	if (fd < 0)
		return cgs_errf(err, errlen, fd, "cannot create %s: %s", path, strerror(-fd));
	if (!f) {
		close(fd);
		cgs_unlink_at(dirfd, name, NULL);
		return cgs_errf(err, errlen, -ENOMEM, "cannot write %s: out of memory", path);
	}
	rc = ws_write(s, ns, f);
	if (ferror(f) | fclose(f) | rc) {
		cgs_unlink_at(dirfd, name, NULL);
		return cgs_errf(err, errlen, rc ? rc : -EIO, "cannot write %s%s", path,
				rc ? ": out of memory" : "");
	}
	printf("%s\n", path);
	return 0;
}

/* One run to DIR/TEST-MODE-TASKS[-LAYOUT]-runN.folded. */
static int write_run(int dirfd, const char *dir, const struct res_point *p,
		     struct json_object *prof, bool ns, char *err, size_t errlen)
{
	struct wstacks s = { 0 };
	char path[PATH_MAX], name[NAME_MAX + 1], lay[256];
	const char *l = cmp_point_layout(p);
	int rc = ws_add_run(&s, ns, p, prof, err, errlen);

	snprintf(lay, sizeof(lay), "%s", strcmp(l, "none") ? l : "");
	for (char *c = lay; *c; c++)
		if (*c == ' ' || *c == '/' || *c == '=' || *c == ':')
			*c = *c == '=' ? '_' : '-';
	if (snprintf(name, sizeof(name), "%s-%s-%u%s%s-run%u.folded", p->test, p->mode,
		     p->tasks, *lay ? "-" : "", lay, p->run + 1) >= (int)sizeof(name))
		rc = rc ? rc : cgs_errf(err, errlen, -ENAMETOOLONG, "--out-dir: the name for %s is too long",
					p->test);
	for (char *c = name; *c; c++)
		if (*c == '/')
			*c = '-';
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!rc)
		rc = write_new(dirfd, name, path, &s, ns, err, errlen);
	ws_free(&s);
	return rc;
}

int exp_write_folded(int nargs, char **args, const char *point,
		     const char *out_dir, enum exp_folded_weight weight,
		     char *err, size_t errlen)
{
	bool ns = weight == EXP_FOLDED_NS_PER_OP;
	struct wstacks merged = { 0 };
	char first[1200] = "";
	unsigned found = 0;
	int rc = 0, dirfd = -1;

	if (out_dir) {
		dirfd = open(out_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dirfd < 0)
			return cgs_errf(err, errlen, -ENOENT, "--out-dir %s is not a directory; create it first",
					out_dir);
	}
	for (int a = 0; !rc && a < nargs; a++) {
		struct cmp_side s = { 0 };

		rc = cmp_side_load(&s, args[a], err, errlen);
		for (unsigned f = 0; !rc && f < s.nfiles; f++)
			for (unsigned i = 0; !rc && i < s.files[f].res.npoints; i++) {
				const struct res_point *p = &s.files[f].res.points[i];
				struct json_object *prof = cmp_point_profile(p);
				char key[1200];

				if (!prof || p->status != RES_OK ||
				    !point_match(p, point))
					continue;
				snprintf(key, sizeof(key), "%s:%s:%u:%s", p->test, p->mode,
					 p->tasks, cmp_point_layout(p));
				if (!out_dir && *first && strcmp(first, key)) {
					rc = cgs_errf(err, errlen, -EINVAL,
						      "more than one profiled point (%s, %s); choose one with --point TEST:MODE:TASKS[:LAYOUT], or use --out-dir",
						      first, key);
					break;
				}
				snprintf(first, sizeof(first), "%s", key);
				found++;
				rc = out_dir ? write_run(dirfd, out_dir, p, prof, ns, err, errlen)
					     : ws_add_run(&merged, ns, p, prof, err, errlen);
			}
		cmp_side_free(&s);
	}
	if (!rc && !found)
		rc = cgs_errf(err, errlen, -ENODATA, "no ok point with a profile%s%s (run with --profile)",
			      point ? " matches --point " : "", point ? point : "");
	if (!rc && !out_dir)
		rc = ws_write(&merged, ns, stdout);
	if (rc == -ENOMEM && !*err)
		snprintf(err, errlen, "out of memory");
	ws_free(&merged);
	if (dirfd >= 0)
		close(dirfd);
	return rc;
}
