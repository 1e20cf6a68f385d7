/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sample.c - the pure arithmetic of sampling, kept apart so it can be
 * unit-tested: the schedule of sample instants (warm-up, then the
 * measurement, each ending exactly at its end) and the CPU idle, iowait
 * and steal percentages between two readings of /proc/stat, of the
 * whole machine or summed over the CPUs a run may use.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "runner/point/point.h"

unsigned cgs_schedule(int64_t warmup, int64_t duration, int64_t interval,
		      int64_t *at, enum res_phase *phase)
{
	unsigned n = 0;

#define SCHED_ADD(t, ph) do { if (at) { at[n] = (t); phase[n] = (ph); } n++; } while (0)
	SCHED_ADD(0, RES_PHASE_START);
	for (int64_t t = interval; t < warmup; t += interval)
		SCHED_ADD(t, RES_PHASE_WARMUP);
	if (warmup > 0)
		SCHED_ADD(warmup, RES_PHASE_WARMUP);
	for (int64_t t = warmup + interval; t < warmup + duration; t += interval)
		SCHED_ADD(t, RES_PHASE_MEASURE);
	SCHED_ADD(warmup + duration, RES_PHASE_MEASURE);
#undef SCHED_ADD
	return n;
}

/* The counts after a line's name: "user nice system idle iowait ...". */
static int cpustat_vals(const char *vals, struct cgs_cpustat *out)
{
	unsigned long long v[8] = { 0 };
	int n = sscanf(vals, "%llu %llu %llu %llu %llu %llu %llu %llu",
		       &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);

	if (n < 4)
		return -EINVAL;
	out->total = 0;
	for (int i = 0; i < 8; i++)
		out->total += v[i];    /* guest time is already in user */
	out->idle = v[3];
	out->iowait = v[4];
	out->steal = v[7];
	return 0;
}

int cgs_cpustat_parse(const char *line, struct cgs_cpustat *out)
{
	if (strncmp(line, "cpu", 3) || (line[3] != ' ' && line[3] != '\t'))
		return -EINVAL;
	return cpustat_vals(line + 3, out);
}

int cgs_cpustat_parse_cpus(const char *text, hwloc_const_bitmap_t cpus,
			   struct cgs_cpustat *out, unsigned *found)
{
	const char *l = text;

	*found = 0;
	if (!cpus) {
		if (cgs_cpustat_parse(text, out))
			return -EINVAL;
		*found = 1;
		return 0;
	}
	memset(out, 0, sizeof(*out));
	for (const char *nl; (nl = strchr(l, '\n')) && !strncmp(l, "cpu", 3); l = nl + 1) {
		struct cgs_cpustat c;
		char *end;
		unsigned long cpu;

		if (l[3] < '0' || l[3] > '9')
			continue;                  /* the machine's line */
		cpu = strtoul(l + 3, &end, 10);
		if (cpu > INT_MAX || !hwloc_bitmap_isset(cpus, (unsigned)cpu) ||
		    cpustat_vals(end, &c))
			continue;
		out->total += c.total;
		out->idle += c.idle;
		out->iowait += c.iowait;
		out->steal += c.steal;
		++*found;
	}
	return *found ? 0 : -ENOENT;
}

void cgs_cpustat_pct(const struct cgs_cpustat *a, const struct cgs_cpustat *b,
		     double *idle, double *iowait, double *steal)
{
	double dt = (double)b->total - (double)a->total;

	if (!(dt > 0)) {
		*idle = *iowait = *steal = NAN;
		return;
	}
	*idle = 100.0 * ((double)b->idle - (double)a->idle) / dt;
	*iowait = 100.0 * ((double)b->iowait - (double)a->iowait) / dt;
	*steal = 100.0 * ((double)b->steal - (double)a->steal) / dt;
}

bool cgs_cpustat_due(const struct cgs_cpustat_span *cs, int64_t now,
		     int64_t every, bool edge)
{
	return cs->have && (edge || now - cs->prev_ns >= every);
}

void cgs_cpustat_span_fill(struct cgs_cpustat_span *cs, const struct cgs_cpustat *cur,
			   int64_t now, unsigned k, double *idle, double *iowait,
			   double *steal)
{
	double i, w, s;

	cgs_cpustat_pct(&cs->prev, cur, &i, &w, &s);
	for (unsigned j = cs->prev_k + 1; j <= k; j++) {
		idle[j] = i;
		iowait[j] = w;
		steal[j] = s;
	}
	cs->prev = *cur;
	cs->prev_ns = now;
	cs->prev_k = k;
}

int64_t cgs_sample_due(const int64_t *plan, const enum res_phase *phase,
		       unsigned s, int64_t t0, int64_t window_start)
{
	unsigned w;

	if (phase[s] != RES_PHASE_MEASURE || !window_start)
		return t0 + plan[s];
	/* the plan's window start: the last sample before the first measure */
	for (w = s; w > 0 && phase[w - 1] == RES_PHASE_MEASURE; w--)
		;
	return window_start + plan[s] - plan[w - 1];   /* phase[0] is start */
}

/* Sleep until @when (monotonic ns) unless a signal arrives first. */
int cgs_wait_until(int64_t when, int sigfd, int *signo)
{
	for (;;) {
		int64_t left = when - cgs_now_ns();
		struct pollfd pfd = { .fd = sigfd, .events = POLLIN };
		struct timespec ts;
		int r;

		if (left <= 0)
			return 0;
		ts.tv_sec = left / 1000000000;
		ts.tv_nsec = left % 1000000000;
		r = ppoll(&pfd, sigfd >= 0 ? 1 : 0, &ts, NULL);
		if (r > 0) {
			struct signalfd_siginfo si;

			if (read(sigfd, &si, sizeof(si)) == sizeof(si)) {
				*signo = (int)si.ssi_signo;
				return -EINTR;
			}
		}
	}
}
