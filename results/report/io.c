/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * io.c - what `cgscale report` and `compare --html` read and write:
 * result files (a file, or every *.json under a directory, in name
 * order; its disturbed runs marked when the runner did not), the output
 * path (a directory gets report.html), and the page,
 * written atomically (a temporary file beside it, fsync, rename) with
 * SIGINT/SIGTERM/SIGHUP held off meanwhile, so nothing half-written or
 * temporary is ever left behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/outpath.h"
#include "lib/util.h"
#include "lib/walk.h"
#include "results/model/disturb.h"
#include "results/report/document.h"

static int add_file(const char *path, struct rpt_input **in, unsigned *n,
		    char *err, size_t errlen)
{
	struct rpt_input *v = realloc(*in, (*n + 1) * sizeof(*v));
	int rc;

	if (!v) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	*in = v;
	memset(&v[*n], 0, sizeof(v[*n]));
	v[*n].path = strdup(path);
	if (!v[*n].path) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	rc = res_read_file(path, &v[*n].res, err, errlen);
	if (!rc && res_disturb_mark_unmarked(&v[*n].res)) {
		res_file_free(&v[*n].res);
		snprintf(err, errlen, "out of memory");
		rc = -ENOMEM;
	}
	if (rc) {
		free(v[*n].path);
		return rc;
	}
	(*n)++;
	return 0;
}

struct load_ctx {
	struct rpt_input **in;
	unsigned *n;
};

static int load_one(const char *path, void *arg, char *err, size_t errlen)
{
	struct load_ctx *c = arg;

	return add_file(path, c->in, c->n, err, errlen);
}

int rpt_load(const char *arg, struct rpt_input **in, unsigned *n, char *err,
	     size_t errlen)
{
	unsigned before = *n;
	struct stat st;
	int rc;

	if (stat(arg, &st)) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s; give a result file or a directory of them",
			 arg, strerror(errno));
		return rc;
	}
	if (!S_ISDIR(st.st_mode))
		return add_file(arg, in, n, err, errlen);
	rc = cgs_walk_json(arg, load_one, &(struct load_ctx){ in, n }, err, errlen);
	if (!rc && *n == before) {
		snprintf(err, errlen, "%s: no result file (*.json) in this directory", arg);
		rc = -ENOENT;
	}
	return rc;
}

void rpt_inputs_free(struct rpt_input *in, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		free(in[i].path);
		res_file_free(&in[i].res);
	}
	free(in);
}

char *rpt_output_path(const char *what, const char *o, char *err, size_t errlen)
{
	struct stat st;
	char *path, dir[PATH_MAX];

	if (*o && !stat(o, &st) && S_ISDIR(st.st_mode)) {
		cgs_trim_slashes(o, dir, sizeof(dir));
		if (asprintf(&path, "%s%sreport.html", dir, strcmp(dir, "/") ? "/" : "") < 0)
			return NULL;
	} else {
		path = strdup(o);
	}
	if (!path)
		return NULL;
	if (cgs_check_out_path(what, path, err, errlen)) {
		free(path);
		path = NULL;
	}
	return path;
}

int rpt_doc_write(struct rpt_doc *d, const char *path, const char *gnuplot,
		  char *err, size_t errlen)
{
	char *html = NULL, why[1024];
	size_t len = 0;
	FILE *mem = open_memstream(&html, &len);
	int rc, wrc = 0;

	err[0] = 0;
	if (!mem) {
		snprintf(err, errlen, "out of memory building the page");
		return -ENOMEM;
	}
	rc = rpt_doc_finish(d, gnuplot, mem, why, sizeof(why));
	if (fclose(mem) && !rc)
		rc = -ENOMEM;
	if (rc && rc != -ENOENT && rc != -EIO) {
		snprintf(err, errlen, "cannot build the page: %s", strerror(-rc));
		goto out;
	}
	if (!path) {
		if (fwrite(html, 1, len, stdout) != len || fflush(stdout)) {
			wrc = -errno;
			snprintf(err, errlen, "writing to stdout: %s", strerror(errno));
		}
	} else {
		wrc = cgs_write_atomic(path, html, len, err, errlen);
	}
	if (wrc)
		rc = -ECANCELED;     /* never taken for "no gnuplot" (-ENOENT) */
	else if (rc)
		snprintf(err, errlen, "%s", why);
out:
	free(html);
	return rc;
}
