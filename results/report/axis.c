/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * axis.c - what the report's charts draw, computed here and not by
 * the plotting program so that it is tested: axis ranges on tick
 * multiples, "nice" steps (1, 2, 2.5, 5 x 10^k), short tick labels with
 * SI suffixes, and will-it-scale's linear reference, N x ops(1).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results/report/document.h"
#include "lib/macros.h"

static const double nice_mult[] = { 1, 2, 2.5, 5, 10 };

/* The nice step nearest (in ratio) to span / parts; integers only with
 * @integer. */
static double nearest_nice(double span, double parts, bool integer)
{
	double raw = span / parts, best = NAN, best_d = INFINITY;
	double p = pow(10, floor(log10(raw)));

	for (size_t i = 0; i < ARRAY_SIZE(nice_mult); i++) {
		double c = nice_mult[i] * p, d = fabs(log(c / raw));

		if (integer && (c < 1 || c != floor(c)))
			continue;
		if (d < best_d) {
			best = c;
			best_d = d;
		}
	}
	if (integer && isnan(best))
		best = 1;
	return best;
}

double rpt_nice_step(double span, unsigned target)
{
	if (!(span > 0) || !isfinite(span) || !target)
		return NAN;
	return nearest_nice(span, target, false);
}

/* The next nice step above @step. */
static double bigger_step(double step)
{
	double p = pow(10, floor(log10(step) + 1e-9));
	double f = step / p;

	for (size_t i = 0; i < ARRAY_SIZE(nice_mult); i++)
		if (nice_mult[i] > f * (1 + 1e-9))
			return nice_mult[i] * p;
	return 2 * p * 10;
}

/* Decimals that show @step exactly, at most 6. */
static int decimals_for(double step)
{
	for (int d = 0; d < 6; d++) {
		double s = step * pow(10, d);

		if (fabs(s - round(s)) < 1e-6 * (s > 1 ? s : 1))
			return d;
	}
	return 6;
}

void rpt_fmt_tick(double v, double step, char *buf, size_t len)
{
	static const struct { double scale; const char *sfx; } si[] = {
		{ 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" },
	};
	double scale = 1, a = fabs(v);
	const char *sfx = "";
	char *dot;
	int d;

	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return;
	}
	if (!(step > 0) || !isfinite(step))
		step = a > 0 ? a : 1;
	if (a < step * 1e-9)
		v = a = 0;   /* no "-0" or "1e-17" from float arithmetic */
	for (size_t i = 0; i < ARRAY_SIZE(si); i++)
		if (a >= si[i].scale * (1 - 1e-9)) {
			scale = si[i].scale;
			sfx = si[i].sfx;
			break;
		}
	d = decimals_for(step / scale);
	snprintf(buf, len, "%.*f", d, v / scale);
	dot = strchr(buf, '.');
	if (dot) {
		char *e = buf + strlen(buf) - 1;

		while (e > dot && *e == '0')
			*e-- = 0;
		if (e == dot)
			*e = 0;
	}
	if (!strcmp(buf, "-0"))
		snprintf(buf, len, "0");
	strncat(buf, sfx, len - strlen(buf) - 1);
}

/* A log2 axis over [lo, hi] (0 < lo < hi): the range is the data, the
 * ticks are the powers of two inside it, and the range's ends. */
static void fit_log2(struct rpt_axis *a, double lo, double hi)
{
	a->log2 = true;
	a->step = 2;
	a->min = lo;
	a->max = hi;
	a->nticks = 0;
	for (double t = pow(2, ceil(log2(lo) - 1e-9)); t <= hi * (1 + 1e-9) &&
	     a->nticks < RPT_MAX_TICKS; t *= 2) {
		a->tick[a->nticks] = t;
		rpt_fmt_tick(t, t < 1 ? t : 1, a->tick_label[a->nticks],
			     sizeof(a->tick_label[0]));
		a->nticks++;
	}
}

/* A flat range (lo == hi) opened around its value so that it shows. */
static void widen_flat(double *lo, double *hi, unsigned flags)
{
	/* with RPT_AX_ZERO only 0 == 0 gets here: 0..d, never below */
	double d = *lo ? fabs(*lo) * 0.1 : 1;

	if ((flags & RPT_AX_INT) && d < 1)
		d = 1;
	if (!(flags & RPT_AX_ZERO))
		*lo -= d;
	*hi += d;
}

/* The nice step nearest to @target ticks over lo..hi, made bigger until
 * the ticks fit in RPT_MAX_TICKS; the tick multiples around lo..hi in
 * @first and @last. */
static double fit_step(double lo, double hi, unsigned target, bool integer,
		       double *first, double *last)
{
	double step = nearest_nice(hi - lo, target - 1, integer);

	for (;;) {
		*first = floor(lo / step + 1e-9) * step;
		*last = ceil(hi / step - 1e-9) * step;
		if ((*last - *first) / step + 1.5 <= RPT_MAX_TICKS)
			break;
		step = bigger_step(step);
	}
	return step;
}

/* The ticks from @first to @last, a->step apart, with their labels. */
static void put_ticks(struct rpt_axis *a, double first, double last)
{
	double step = a->step;

	a->nticks = 0;
	for (unsigned i = 0; a->nticks < RPT_MAX_TICKS; i++) {
		double t = first + i * step;

		if (t > last + step * 1e-6)
			break;
		if (fabs(t) < step * 1e-9)
			t = 0;
		a->tick[a->nticks] = t;
		rpt_fmt_tick(t, step, a->tick_label[a->nticks],
			     sizeof(a->tick_label[0]));
		a->nticks++;
	}
}

int rpt_axis_fit(struct rpt_axis *a, double lo, double hi, unsigned target,
		 unsigned flags)
{
	bool integer = flags & RPT_AX_INT;
	double step, first, last, dlo, dhi;

	if (target < 2)
		return -EINVAL;
	if (!isfinite(lo) || !isfinite(hi) || lo > hi) {
		lo = 0;
		hi = 1;
	}
	a->log2 = false;
	if ((flags & RPT_AX_LOG2) && lo > 0 && hi > lo) {
		fit_log2(a, lo, hi);
		return 0;
	}
	if (flags & RPT_AX_ZERO) {
		lo = fmin(lo, 0);
		hi = fmax(hi, 0);
	}
	if (lo == hi)
		widen_flat(&lo, &hi, flags);
	dlo = lo;
	dhi = hi;
	step = fit_step(lo, hi, target, integer, &first, &last);
	a->step = step;
	if (flags & RPT_AX_PAD) {
		double pad = integer ? 0.5 : step / 2;

		first = ceil(lo / step - 1e-9) * step;
		last = floor(hi / step + 1e-9) * step;
		a->min = lo - pad;
		a->max = hi + pad;
	} else if (flags & RPT_AX_TIGHT) {
		/* the data's own ends; only the ticks inside them */
		a->min = dlo;
		a->max = dhi;
		first = ceil(dlo / step - 1e-9) * step;
		last = floor(dhi / step + 1e-9) * step;
	} else {
		a->min = first;
		a->max = last;
	}
	put_ticks(a, first, last);
	return 0;
}

int rpt_axis_categories(struct rpt_axis *a, unsigned n,
			const char *const *labels, bool reverse)
{
	unsigned every = (n + RPT_MAX_TICKS - 1) / RPT_MAX_TICKS;

	if (!n)
		return -EINVAL;
	a->min = reverse ? n - 0.5 : -0.5;
	a->max = reverse ? -0.5 : n - 0.5;
	a->step = every;
	a->nticks = 0;
	for (unsigned i = 0; i < n && a->nticks < RPT_MAX_TICKS; i += every) {
		a->tick[a->nticks] = i;
		snprintf(a->tick_label[a->nticks], sizeof(a->tick_label[0]), "%s",
			 labels[i] ? labels[i] : "");
		a->nticks++;
	}
	return 0;
}

int rpt_linear(const double *tasks, const double *ops, size_t n, double *out)
{
	double one = NAN;

	for (size_t i = 0; i < n; i++)
		if (tasks[i] == 1 && isnan(one))
			one = ops[i];
	for (size_t i = 0; i < n; i++)
		out[i] = one > 0 && isfinite(one) ? tasks[i] * one : NAN;
	return one > 0 && isfinite(one) ? 0 : -ENOENT;
}
