/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gnuplot.c - draw every chart of a page with one run of gnuplot:
 * one script (results/report/plot.c) with all charts, fed on gnuplot's stdin,
 * the SVG documents read back from its stdout, split at markers gnuplot
 * prints between them. Nothing touches the file system but two unlinked
 * temporary files (the script and gnuplot's stderr). Each SVG is then
 * made safe to embed beside the others: no prolog, ids made unique.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "results/report/document.h"
#include "lib/macros.h"

extern char **environ;

/* ---- making gnuplot's SVG embeddable ---- */

static bool starts(const char *p, const char *end, const char *lit)
{
	size_t n = strlen(lit);

	return (size_t)(end - p) >= n && !memcmp(p, lit, n);
}

static const char *find(const char *p, const char *end, const char *lit)
{
	return p < end ? memmem(p, (size_t)(end - p), lit, strlen(lit)) : NULL;
}

char *rpt_svg_embed(const char *svg, size_t len, const char *prefix)
{
	const char *end = svg + len, *p, *last = NULL;
	char *buf = NULL;
	size_t blen = 0;
	FILE *f;

	for (p = svg; (p = find(p, end, "<svg")); p += 4)
		if (p + 4 < end && strchr(" \t\r\n>", p[4]))
			break;
	if (!p)
		return NULL;
	for (const char *q = p; (q = find(q, end, "</svg>")); q += 6)
		last = q;
	if (!last)
		return NULL;
	end = last + 6;
	f = open_memstream(&buf, &blen);
	if (!f)
		return NULL;
	fputs("<svg class=\"chart\" role=\"img\"", f);
	for (p += 4; p < end; p++) {
		static const char *const refs[] = { "href=\"#", "href='#", "url(#" };
		bool done = false;

		if ((starts(p, end, "id=\"") || starts(p, end, "id='")) &&
		    strchr(" \t\r\n", p[-1])) {
			fwrite(p, 1, 4, f);
			fputs(prefix, f);
			p += 3;
			continue;
		}
		for (size_t r = 0; r < ARRAY_SIZE(refs) && !done; r++)
			if (starts(p, end, refs[r])) {
				fputs(refs[r], f);
				fputs(prefix, f);
				p += strlen(refs[r]) - 1;
				done = true;
			}
		if (done)
			continue;
		if (starts(p, end, "]]>")) {
			fputs("]]&gt;", f);
			p += 2;
			continue;
		}
		fputc(*p, f);
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Put @title in place of gnuplot's <title>NAME</title> (the first one). */
static char *retitle(char *svg, const char *title)
{
	char *t = strstr(svg, "<title>"), *e, *esc, *out;

	if (!t || !(e = strstr(t, "</title>")) || !(esc = rpt_html_escape(title)))
		return svg;
	if (asprintf(&out, "%.*s<title>%s%s", (int)(t - svg), svg, esc, e) < 0)
		out = NULL;
	free(esc);
	if (!out)
		return svg;
	free(svg);
	return out;
}

/* ---- running gnuplot ---- */

static int slurp(int fd, pid_t pid, char **out, size_t *outlen, unsigned secs)
{
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap);
	struct timespec t0, now;
	int rc = 0;

	if (!buf)
		return -ENOMEM;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t n;
		int left;

		clock_gettime(CLOCK_MONOTONIC, &now);
		left = (int)secs - (int)(now.tv_sec - t0.tv_sec);
		if (left <= 0) {
			kill(pid, SIGKILL);
			rc = -ETIMEDOUT;
			break;
		}
		n = poll(&pfd, 1, left * 1000);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -errno;
			break;
		}
		if (n == 0)
			continue;   /* timed out: the next round kills it */
		if (len + 4096 > cap) {
			char *nb = realloc(buf, cap * 2);

			if (!nb) {
				rc = -ENOMEM;
				kill(pid, SIGKILL);
				break;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = n < 0 ? -errno : 0;
			break;
		}
		len += (size_t)n;
	}
	buf[len] = 0;
	*out = buf;
	*outlen = len;
	return rc;
}

/* The first line gnuplot wrote on stderr that says something. */
static void first_error(FILE *ef, char *buf, size_t len)
{
	char line[512];

	buf[0] = 0;
	rewind(ef);
	while (fgets(line, sizeof(line), ef)) {
		char *s = line + strspn(line, " \t\r\n^");

		s[strcspn(s, "\r\n")] = 0;
		if (*s) {
			snprintf(buf, len, "%s", s);
			return;
		}
	}
}

static void chart_error(struct rpt_chart *c, const char *fmt, const char *what)
{
	free(c->error);
	if (asprintf(&c->error, fmt, what) < 0)
		c->error = NULL;
}

/* Cut gnuplot's output at the markers and embed each chart's SVG. */
static unsigned split_output(struct rpt_chart **c, unsigned n, const char *out,
			     size_t len, const char *why)
{
	const char *end = out + len, *from = out;
	unsigned failed = 0;

	for (unsigned i = 0; i < n; i++) {
		char mark[48], prefix[24];
		const char *p, *q;

		if (c[i]->error)
			continue;
		snprintf(mark, sizeof(mark), "<!--cgs-chart %u-->", i);
		/* the charts come in order: look on from the last one, so that
		 * splitting is linear in the output, not charts x output */
		p = find(from, end, mark);
		if (!p)
			p = find(out, from, mark);
		if (p) {
			from = p;
			p += strlen(mark);
			q = find(p, end, "<!--cgs-chart ");
			snprintf(prefix, sizeof(prefix), "c%u-", c[i]->id);
			c[i]->svg = rpt_svg_embed(p, (size_t)((q ? q : end) - p), prefix);
		}
		if (c[i]->svg) {
			c[i]->svg = retitle(c[i]->svg, c[i]->title);
			continue;
		}
		chart_error(c[i], "gnuplot drew nothing: %s", why);
		failed++;
	}
	return failed;
}

static int write_script(FILE *sf, struct rpt_chart **c, unsigned n)
{
	unsigned todo = 0;

	fprintf(sf, "set encoding utf8\nset terminal svg\nset output\nset print '-'\n");
	for (unsigned i = 0; i < n; i++) {
		if (!rpt_chart_has_data(c[i])) {
			chart_error(c[i], "%s", "no data to draw");
			continue;
		}
		fprintf(sf, "print '<!--cgs-chart %u-->'\n", i);
		rpt_gp_script(sf, c[i]);
		todo++;
	}
	fprintf(sf, "print '<!--cgs-chart end-->'\n");
	if (fflush(sf) || ferror(sf))
		return -EIO;
	rewind(sf);
	return (int)todo;
}

/* Start gnuplot: the script on its stdin, its stdout into wfd, its stderr
 * into ef. */
static int spawn_gnuplot(const char *gnuplot, FILE *sf, int wfd, FILE *ef,
			 pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	char *argv[] = { (char *)gnuplot, "-d", NULL };
	int rc;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fileno(sf), 0);
	posix_spawn_file_actions_adddup2(&fa, wfd, 1);
	posix_spawn_file_actions_adddup2(&fa, fileno(ef), 2);
	rc = posix_spawnp(pid, gnuplot, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return -rc;
}

/* Why charts may be missing, in one line: the first thing gnuplot said on
 * stderr, else how it ended. */
static void gnuplot_why(FILE *ef, int rc, int status, char *why, size_t len)
{
	first_error(ef, why, len);
	if (rc == -ETIMEDOUT)
		snprintf(why, len, "gnuplot took too long and was stopped");
	else if (!why[0] && WIFSIGNALED(status))
		snprintf(why, len, "gnuplot died of signal %d", WTERMSIG(status));
	else if (!why[0])
		snprintf(why, len, "gnuplot exited with status %d and said nothing",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* Read gnuplot's output to its end, reap it, and give each chart its SVG or
 * its error; returns how many charts were not drawn. */
static unsigned collect(struct rpt_chart **c, unsigned n, int fd, pid_t pid,
			FILE *ef, unsigned secs, char *why, size_t len)
{
	char *out = NULL;
	size_t outlen = 0;
	int rc, status = 0;
	unsigned failed;

	rc = slurp(fd, pid, &out, &outlen, secs);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	gnuplot_why(ef, rc, status, why, len);
	failed = out ? split_output(c, n, out, outlen, why) : n;
	free(out);
	return failed;
}

int rpt_plot_all(struct rpt_chart **c, unsigned n, const char *gnuplot,
		 char *err, size_t errlen)
{
	FILE *sf = tmpfile(), *ef = tmpfile();
	char why[512];
	int pfd[2] = { -1, -1 }, rc, todo;
	unsigned failed;
	pid_t pid;

	err[0] = 0;
	if (!sf || !ef) {
		rc = -errno;
		snprintf(err, errlen, "cannot make a temporary file for gnuplot: %s",
			 strerror(-rc));
		goto out;
	}
	todo = write_script(sf, c, n);
	if (todo <= 0) {
		rc = todo;
		if (rc)
			snprintf(err, errlen, "cannot write the gnuplot script");
		goto out;
	}
	if (pipe2(pfd, O_CLOEXEC)) {
		rc = -errno;
		snprintf(err, errlen, "pipe: %s", strerror(-rc));
		goto out;
	}
	rc = spawn_gnuplot(gnuplot, sf, pfd[1], ef, &pid);
	close(pfd[1]);
	pfd[1] = -1;
	if (rc) {
		snprintf(err, errlen, "cannot run %s: %s", gnuplot, strerror(-rc));
		for (unsigned i = 0; i < n; i++)
			if (!c[i]->error)
				chart_error(c[i], "%s", err);
		rc = -ENOENT;
		goto out;
	}
	failed = collect(c, n, pfd[0], pid, ef, 120 + (unsigned)todo, why,
			 sizeof(why));
	rc = 0;
	if (failed) {
		snprintf(err, errlen, "%u of %d charts were not drawn: %s", failed,
			 todo, why);
		rc = -EIO;
	}
out:
	if (pfd[0] >= 0)
		close(pfd[0]);
	if (pfd[1] >= 0)
		close(pfd[1]);
	if (sf)
		fclose(sf);
	if (ef)
		fclose(ef);
	return rc;
}
