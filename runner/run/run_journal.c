/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run_journal.c - the run's journal (<output>.partial) and `cgscale recover`.
 * A finished point is appended at once (lib/linelog.c: one write, fsync),
 * so a SIGKILL, an OOM kill of the runner, a power cut or a failed final
 * write loses no finished point: `cgscale recover` and the next run into
 * the same output turn the journal into a result marked "complete": false.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/linelog.h"
#include "lib/macros.h"
#include "lib/opt.h"
#include "lib/util.h"
#include "results/model/result.h"
#include "runner/run/run_journal.h"

#define SUFFIX ".partial"

static int slurp(const char *path, char **buf, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;

	*buf = NULL;
	*len = 0;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		rc = -errno;
	else if (!S_ISREG(st.st_mode))
		rc = -EINVAL;
	else if (st.st_size >= (1LL << 31))
		rc = -EFBIG;
	if (rc)
		goto out;
	*buf = malloc((size_t)st.st_size + 1);
	if (!*buf) {
		rc = -ENOMEM;
		goto out;
	}
	while (*len < (size_t)st.st_size) {
		ssize_t n = read(fd, *buf + *len, (size_t)st.st_size - *len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = n ? -errno : 0;
			break;
		}
		*len += (size_t)n;
	}
out:
	close(fd);
	return rc;
}

/* Where a journal's result goes: the output it was for when that is free
 * and not @avoid, else <stem>-recovered[-N].json beside it. */
static int recovered_name(const char *journal, const char *avoid, char *out,
			  size_t outlen)
{
	size_t n = strlen(journal), sl = strlen(SUFFIX);
	char stem[PATH_MAX];

	if (n > sl && !strcmp(journal + n - sl, SUFFIX))
		n -= sl;
	if (n >= sizeof(stem))
		return -ENAMETOOLONG;
	snprintf(stem, sizeof(stem), "%.*s", (int)n, journal);
	if (!avoid && access(stem, F_OK) && n != strlen(journal)) {
		snprintf(out, outlen, "%s", stem);
		return 0;
	}
	if (n > 5 && !strcmp(stem + n - 5, ".json"))
		stem[n - 5] = 0;
	for (int k = 1; k < 1000; k++) {
		int w = k == 1 ? snprintf(out, outlen, "%s-recovered.json", stem)
			       : snprintf(out, outlen, "%s-recovered-%d.json", stem, k);

		if (w >= (int)outlen)
			return -ENAMETOOLONG;
		if (access(out, F_OK) && (!avoid || strcmp(out, avoid)))
			return 0;
	}
	return -EEXIST;
}

/* Turn the dead journal @journal into the result @out (chosen when
 * empty). 0; -EBUSY (a live run writes it), -EINVAL (not a journal),
 * -ENOENT: bad input, said in @err; other -errno: the write failed. */
static int recover(const char *journal, const char *avoid, char *out,
		   size_t outlen, unsigned *npoints, char *err, size_t errlen)
{
	struct res_journal_info info;
	struct res_file f;
	char *buf = NULL;
	size_t len;
	int rc = cgs_linelog_idle(journal);

	if (rc == -EBUSY)
		return cgs_errf(err, errlen, rc, "%s is the journal of a cgscale run still running; wait for it to end or stop it",
				journal);
	if (!rc)
		rc = slurp(journal, &buf, &len);
	if (rc) {
		free(buf);
		return cgs_errf(err, errlen, rc == -ENOMEM ? rc : -ENOENT,
				"cannot read the journal %s: %s", journal, strerror(-rc));
	}
	rc = res_journal_read(journal, buf, len, &f, &info, err, errlen);
	free(buf);
	if (rc)
		return rc;
	if (info.torn)
		cgs_warn("%s: dropped a torn last line (%zu bytes): the point being written when the run died",
			 journal, info.torn);
	if (info.dropped)
		cgs_warn("%s: dropped %u line(s) that are not JSON, the first at line %u",
			 journal, info.dropped, info.first_dropped);
	res_file_scalability(&f);
	if (!*out && recovered_name(journal, avoid, out, outlen)) {
		res_file_free(&f);
		return cgs_errf(err, errlen, -EINVAL, "%s: no free name to recover it into; give one with -o",
				journal);
	}
	rc = res_write_file(&f, out, err, errlen);
	*npoints = f.npoints;
	res_file_free(&f);
	if (!rc)
		unlink(journal);
	return rc;
}

int cgs_rj_open(struct cgs_rjournal *j, const char *outpath,
		const struct res_file *head, char *err, size_t errlen)
{
	char old[PATH_MAX] = "", *line;
	struct stat st;
	unsigned n = 0;
	int rc;

	j->fd = -1;
	j->done = 0;
	j->warned = false;
	if (snprintf(j->path, sizeof(j->path), "%s" SUFFIX, outpath) >= (int)sizeof(j->path))
		return cgs_errf(err, errlen, -ENAMETOOLONG, "-o %s: the name is too long", outpath);
	rc = cgs_linelog_idle(j->path);
	if (rc == -EBUSY)
		return cgs_errf(err, errlen, rc, "-o %s: another cgscale run is writing this output (its journal %s is in use); choose another -o",
				outpath, j->path);
	/* an empty journal holds no point: the claim of -o DIR, or a run
	 * that died before its header */
	if (!rc && !stat(j->path, &st) && st.st_size == 0)
		rc = -ENOENT;
	if (!rc) {
		rc = recover(j->path, outpath, old, sizeof(old), &n, err, errlen);
		if (rc)
			return rc;
		cgs_warn("an earlier run into %s did not finish: its %u finished point(s) are now in %s (\"complete\": false)",
			 outpath, n, old);
	}
	rc = cgs_linelog_create(j->path);
	if (rc < 0)
		return cgs_errf(err, errlen, rc, "-o %s: cannot create the journal %s: %s; choose a writable path with -o",
				outpath, j->path, strerror(-rc));
	j->fd = rc;
	line = res_journal_header(head);
	rc = line ? cgs_linelog_append(j->fd, line, strlen(line)) : -ENOMEM;
	free(line);
	if (rc) {
		cgs_rj_close(j, false);
		return cgs_errf(err, errlen, rc, "-o %s: cannot write the journal %s: %s; free some space or choose another -o",
				outpath, j->path, strerror(-rc));
	}
	return 0;
}

unsigned cgs_rj_flush(struct cgs_rjournal *j, const struct res_file *f)
{
	int rc = 0;

	while (j->fd >= 0 && !rc && j->done < f->npoints) {
		char *line = res_journal_point(&f->points[j->done]);

		rc = line ? cgs_linelog_append(j->fd, line, strlen(line)) : -ENOMEM;
		free(line);
		if (!rc)
			j->done++;
	}
	if (rc && !j->warned) {
		j->warned = true;
		cgs_warn("cannot append to the journal %s: %s; the points go on being kept in memory",
			 j->path, strerror(-rc));
	}
	return f->npoints > j->done ? f->npoints - j->done : 0;
}

void cgs_rj_close(struct cgs_rjournal *j, bool keep)
{
	if (j->fd < 0)
		return;
	if (!keep)
		unlink(j->path);
	close(j->fd);
	j->fd = -1;
}

struct rcv_cli {
	char *output;
};

const struct cgs_opt cgs_recover_optdefs[] = {
	OPT_STRING("output", 'o', struct rcv_cli, output, .metavar = "FILE",
		.help = "the result to write (default: the run's output, or <name>-recovered.json beside it when that exists)"),
};
const size_t cgs_recover_noptdefs = ARRAY_SIZE(cgs_recover_optdefs);

static void rcv_usage(const struct cgs_optset *set, FILE *out)
{
	fprintf(out, "usage: cgscale recover [options] JOURNAL\n"
		     "Turn the journal of a run that did not finish (<output>.partial, left by a\n"
		     "SIGKILL, an OOM kill, a power cut or a failed final write) into a normal\n"
		     "result marked \"complete\": false, holding every point that finished. A torn\n"
		     "last line is dropped with a warning. The journal is removed once written.\n");
	cgs_opt_help(set, out);
	fprintf(out, "\nexit status: 0 written; 1 the write failed (the journal is kept); 2 bad\n"
		     "input: no journal, not a journal, or one a running cgscale still writes.\n");
}

int cgs_cmd_recover(int argc, char **argv)
{
	struct rcv_cli cli = { 0 };
	struct cgs_optset set = { "recover options", cgs_recover_optdefs, cgs_recover_noptdefs, &cli };
	char err[1024], out[PATH_MAX] = "";
	unsigned n = 0;
	int first, rc, status = 2;

	if (cgs_opt_defaults(&set, err, sizeof(err))) {
		cgs_err("internal error: %s", err);
		return 70;
	}
	rc = cgs_opt_parse(&set, 1, argc, argv, &first, err, sizeof(err));
	if (rc == 1) {
		rcv_usage(&set, stdout);
		status = 0;
	} else if (rc) {
		cgs_err("%s", err);
	} else if (argc - first != 1) {
		cgs_err("recover: name one journal (<output>.partial); see 'cgscale recover --help'");
	} else if (cli.output && !*cli.output) {
		cgs_err("recover -o '': give a file name");
	} else {
		if (cli.output)
			snprintf(out, sizeof(out), "%s", cli.output);
		rc = recover(argv[first], NULL, out, sizeof(out), &n, err, sizeof(err));
		if (rc)
			cgs_err("%s", err);
		if (!rc)
			fprintf(stderr, "cgscale: recovered %u point(s) into %s (\"complete\": false)\n",
				n, out);
		status = !rc ? 0 : (rc == -EBUSY || rc == -EINVAL || rc == -ENOENT) ? 2 : 1;
	}
	cgs_opt_free(&set);
	return status;
}

void cgs_rj_unclaim(const char *outpath)
{
	char j[PATH_MAX + 16];
	struct stat st;

	snprintf(j, sizeof(j), "%s" SUFFIX, outpath);
	if (!stat(j, &st) && st.st_size == 0)
		unlink(j);
}

/* Make the default output's directory, and pick a name no other run uses:
 * two runs started in the same second get two files. */
int cgs_rj_claim_output(char *outpath, size_t len, bool is_default,
			bool in_dir, char *err, size_t errlen)
{
	char base[PATH_MAX], *slash;
	size_t n;
	int fd;

	if (!is_default && !in_dir)
		return 0;
	snprintf(base, sizeof(base), "%s", outpath);
	if (is_default) {
		/* results/runs/<stamp>/result.json: the directory is the name */
		slash = strrchr(base, '/');
		if (!slash)
			return cgs_errf(err, errlen, -EINVAL, "internal error: default output %s", base);
		*slash = 0;
		mkdir("results", 0755);
		mkdir("results/runs", 0755);
		for (int k = 1; k < 1000; k++) {
			char dir[PATH_MAX];

			if (k == 1)
				snprintf(dir, sizeof(dir), "%s", base);
			else
				snprintf(dir, sizeof(dir), "%s-%d", base, k);
			if (!mkdir(dir, 0755)) {
				if (snprintf(outpath, len, "%s/result.json", dir) >= (int)len)
					return cgs_errf(err, errlen, -ENAMETOOLONG, "the current directory's path is too long; give -o");
				return 0;
			}
			if (errno != EEXIST)
				return cgs_errf(err, errlen, -errno, "cannot create %s: %s; give a path with -o",
						dir, strerror(errno));
		}
		return cgs_errf(err, errlen, -EEXIST, "no free directory name under results/runs; give a path with -o");
	}
	n = strlen(base);
	if (n > 5)
		base[n - 5] = 0;       /* <dir>/cgscale-<stamp>.json */
	for (int k = 1; k < 1000; k++) {
		char j[PATH_MAX + 16];
		int w = k == 1 ? snprintf(outpath, len, "%s.json", base)
			       : snprintf(outpath, len, "%s-%d.json", base, k);

		if (w >= (int)len)
			return cgs_errf(err, errlen, -ENAMETOOLONG, "-o: the path is too long");
		snprintf(j, sizeof(j), "%s" SUFFIX, outpath);
		if (!access(outpath, F_OK))
			continue;
		/* the empty journal is the claim: atomic against a run that
		 * picks a name in the same directory at the same moment */
		fd = open(j, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd >= 0) {
			close(fd);
			return 0;
		}
		if (errno != EEXIST)
			return cgs_errf(err, errlen, -errno, "-o: cannot create %s: %s; choose a writable directory",
					j, strerror(errno));
	}
	return cgs_errf(err, errlen, -EEXIST, "no free result name in -o's directory; give a file name with -o");
}
