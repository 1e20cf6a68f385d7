/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_stats_r.c - compare's statistics against R's own results: the
 * Mann-Whitney p-values of wilcox.test(exact = TRUE) and Welch's t, df
 * and p of t.test, on fixed vectors (ties, n from 2 to 30, equal and
 * unequal sizes, extreme tails), checked to 1e-6 (absolute, and relative
 * for tiny p). R is not needed to run this test: the values below were
 * recorded with R 4.2.2 (Debian 12, r-base-core) by running, with
 * Rscript, the script that follows, which printed the table as it stands.
 *
 * With ties wilcox.test cannot give an exact p ("cannot compute exact
 * p-value with ties") and falls back to the normal approximation; cgscale
 * counts the exact permutation distribution of the midrank sum up to 50
 * values. For those cases ("enum") R computes the reference by enumerating
 * every split with combn (pexact below); beyond 50 values cgscale also uses
 * the normal approximation, and the reference is wilcox.test's own.
 *
 *   set.seed(19)
 *   cases <- list(
 *     list("2 vs 2, no ties", c(1.5, 2.5), c(3.1, 4.2)),
 *     list("3 vs 5, interleaved", c(10.2, 11.7, 9.4), c(10.9, 12.3, 9.9, 11.1, 13.0)),
 *     list("5 vs 5, ties", c(3, 4, 4, 5, 6), c(4, 5, 6, 6, 7)),
 *     list("10 vs 7, no ties", round(rnorm(10, 100, 5), 3), round(rnorm(7, 104, 5), 3)),
 *     list("8 vs 12, many ties", round(rnorm(8, 20, 2)), round(rnorm(12, 21, 2))),
 *     list("12 vs 12, ties", round(rnorm(12, 50, 3)), round(rnorm(12, 52, 3))),
 *     list("20 vs 20, separated: extreme tail", round(1000 + 1:20 * 0.37, 2), round(1100 + 1:20 * 0.41, 2)),
 *     list("30 vs 30, no ties", round(rnorm(30, 5e6, 1e5)), round(rnorm(30, 5.05e6, 1e5))),
 *     list("30 vs 25, ties (normal approximation)", round(rnorm(30, 40, 4)), round(rnorm(25, 42, 4))),
 *     list("2 vs 30, unequal sizes", c(7.25, 8.5), round(rnorm(30, 8, 1), 4)),
 *     list("4 vs 4, nearly all tied", c(1, 1, 2, 2), c(1, 2, 2, 2))
 *   )
 *   # the exact conditional p with ties, by enumerating every split in R
 *   pexact <- function(a, b) {
 *     r <- rank(c(b, a)); m <- length(b); w <- sum(r[1:m])
 *     s <- combn(length(r), m, function(i) sum(r[i]))
 *     min(1, 2 * min(mean(s <= w + 1e-9), mean(s >= w - 1e-9)))
 *   }
 *   f <- function(x) trimws(formatC(x, digits = 17, format = "g"))
 *   vec <- function(x) paste(f(x), collapse = ", ")
 *   for (k in seq_along(cases)) {
 *     cs <- cases[[k]]; a <- cs[[2]]; b <- cs[[3]]
 *     ties <- anyDuplicated(c(a, b)) > 0
 *     n <- length(a) + length(b)
 *     if (ties && n <= 50) { p <- pexact(a, b); how <- "enum" } else {
 *       p <- suppressWarnings(wilcox.test(b, a, exact = TRUE)$p.value); how <- if (ties) "wilcox-normal" else "wilcox-exact" }
 *     u <- suppressWarnings(wilcox.test(b, a, exact = TRUE)$statistic)
 *     t <- t.test(b, a)
 *     cat(sprintf("\t{ \"%s\", %d, { %s }, %d, { %s },\n\t  %s, %s, \"%s\",\n\t  %s, %s, %s, %s },\n",
 *         cs[[1]], length(a), vec(a), length(b), vec(b), f(u), f(p), how,
 *         f(t$statistic), f(t$parameter), f(t$p.value), f(qt(0.975, t$parameter))))
 *   }
 *   cat(sprintf("q: %s %s %s %s %s\n", f(qnorm(0.975)), f(qnorm(1e-12)), f(pnorm(-8)), f(pt(-40, 3)), f(qt(1e-9, 2.5))))
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "results/stats/stats.h"

struct rcase {
	const char *what;
	size_t na;
	double a[30];
	size_t nb;
	double b[30];
	double u, p;       /* wilcox.test(b, a): W (U of b) and p */
	const char *how;   /* wilcox-exact, wilcox-normal, or enum (ties) */
	double t, df, tp;  /* t.test(b, a): Welch's t, df, p */
	double q975;       /* qt(0.975, df) */
};

static const struct rcase cases[] = {
	{ "2 vs 2, no ties", 2, { 1.5, 2.5 }, 2, { 3.1000000000000001, 4.2000000000000002 },
	  4, 0.33333333333333331, "wilcox-exact",
	  2.2198202201878314, 1.9821029990665966, 0.15775845374865091, 4.3400975679403642 },
	{ "3 vs 5, interleaved", 3, { 10.199999999999999, 11.699999999999999, 9.4000000000000004 }, 5, { 10.9, 12.300000000000001, 9.9000000000000004, 11.1, 13 },
	  11, 0.39285714285714285, "wilcox-exact",
	  1.1608174674931893, 4.5100869911909829, 0.30344725967212322, 2.6568828157204689 },
	{ "5 vs 5, ties", 5, { 3, 4, 4, 5, 6 }, 5, { 4, 5, 6, 6, 7 },
	  19.5, 0.22222222222222221, "enum",
	  1.6641005886756863, 8, 0.13466060342094135, 2.3060041352041658 },
	{ "10 vs 7, no ties", 10, { 94.052999999999997, 101.943, 98.278000000000006, 97.260999999999996, 104.90300000000001, 98.816999999999993, 104.04900000000001, 96.275999999999996, 98.700999999999993, 99.084999999999994 }, 7, { 106.593, 108.417, 106.949, 103.01600000000001, 107.298, 102.697, 101.137 },
	  63, 0.00462772521596051, "wilcox-exact",
	  3.8596417338813005, 14.458297526051259, 0.0016417955388386865, 2.1384260686676702 },
	{ "8 vs 12, many ties", 8, { 23, 21, 19, 23, 18, 20, 22, 18 }, 12, { 22, 21, 25, 18, 22, 24, 20, 22, 21, 23, 17, 27 },
	  61, 0.32947527189013259, "enum",
	  1.224993474839067, 17.701516033690289, 0.2366290990617016, 2.1034642286391638 },
	{ "12 vs 12, ties", 12, { 43, 48, 47, 51, 56, 48, 47, 49, 50, 52, 52, 54 }, 12, { 53, 57, 50, 50, 51, 58, 51, 49, 54, 49, 53, 54 },
	  104, 0.065285434716044491, "enum",
	  2.0064228532864479, 21.391269399278737, 0.057617753462291754, 2.0773001278752887 },
	{ "20 vs 20, separated: extreme tail", 20, { 1000.37, 1000.74, 1001.11, 1001.48, 1001.85, 1002.22, 1002.59, 1002.96, 1003.33, 1003.7, 1004.0700000000001, 1004.4400000000001, 1004.8099999999999, 1005.1799999999999, 1005.55, 1005.92, 1006.29, 1006.66, 1007.03, 1007.4 }, 20, { 1100.4100000000001, 1100.8199999999999, 1101.23, 1101.6400000000001, 1102.05, 1102.46, 1102.8699999999999, 1103.28, 1103.6900000000001, 1104.0999999999999, 1104.51, 1104.9200000000001, 1105.3299999999999, 1105.74, 1106.1500000000001, 1106.5599999999999, 1106.97, 1107.3800000000001, 1107.79, 1108.2 },
	  400, 1.4508889103849688e-11, "wilcox-exact",
	  137.45206633092801, 37.606475171289993, 2.0290755029003708e-52, 2.0250900625436947 },
	{ "30 vs 30, no ties", 30, { 5019051, 4967086, 5077245, 4854808, 5095574, 5046710, 4953371, 4851543, 4899384, 4954900, 5033306, 5050349, 5075974, 4817137, 5051974, 4915904, 5082338, 4800071, 5007147, 4974546, 4901758, 5022518, 4819713, 5104963, 4985736, 5191890, 5046042, 5061371, 5014569, 4935637 }, 30, { 5136263, 4973971, 4858503, 4849560, 5128114, 4961432, 5216887, 5038017, 5052193, 5129101, 5295766, 5173636, 5064058, 5097358, 5141391, 5158871, 5025312, 5039112, 5123283, 4929093, 5021979, 5083619, 4862350, 5013177, 5161448, 5170711, 5189344, 5024938, 4985712, 5094548 },
	  642, 0.0041050537371941356, "wilcox-exact",
	  2.998072284461291, 57.285736776584834, 0.0040136078681038091, 2.0022490148179908 },
	{ "30 vs 25, ties (normal approximation)", 30, { 40, 51, 38, 47, 41, 45, 45, 33, 41, 47, 40, 38, 37, 44, 43, 41, 41, 44, 45, 47, 43, 41, 42, 43, 37, 37, 40, 35, 39, 42 }, 25, { 41, 38, 38, 46, 37, 37, 47, 37, 42, 48, 42, 46, 43, 43, 36, 47, 33, 43, 45, 35, 42, 35, 41, 46, 38 },
	  357, 0.76651929097690275, "wilcox-normal",
	  -0.46363006604807583, 48.848211263052775, 0.64497215066529201, 2.0097331993726262 },
	{ "2 vs 30, unequal sizes", 2, { 7.25, 8.5 }, 30, { 8.9253, 8.8768999999999991, 6.8925999999999998, 7.8451000000000004, 8.5890000000000004, 7.8365, 7.4382999999999999, 7.9142000000000001, 7.8010999999999999, 9.3026, 8.0385000000000009, 7.0350000000000001, 9.8889999999999993, 7.3377999999999997, 8.5246999999999993, 8.4647000000000006, 7.4608999999999996, 7.7047999999999996, 8.1404999999999994, 7.7698, 8.5433000000000003, 10.349, 5.4184999999999999, 7.7525000000000004, 8.7825000000000006, 8.1908999999999992, 6.5540000000000003, 7.9656000000000002, 8.6905999999999999, 9.2784999999999993 },
	  37, 0.62903225806451613, "wilcox-exact",
	  0.36195188144180446, 1.1726580386315966, 0.77173691804630162, 9.0363002346446688 },
	{ "4 vs 4, nearly all tied", 4, { 1, 1, 2, 2 }, 4, { 1, 2, 2, 2 },
	  10, 1, "enum",
	  0.6546536707079772, 5.879999999999999, 0.53744034442667377, 2.4590678344567358 },
};

/* |got - want| within 1e-6, and within 1e-6 of want relative. */
static void r_close(const char *what, const char *name, double got, double want)
{
	double d = fabs(got - want);

	if (!(d <= 1e-6 && (want == 0 || d <= 1e-6 * fabs(want))))
		fail_msg("%s: %s is %.17g, R says %.17g", what, name, got, want);
}

static void test_mann_whitney_vs_r(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct rcase *c = &cases[i];
		struct st_test t;

		assert_int_equal(st_mann_whitney(c->a, c->na, c->b, c->nb, &t), 0);
		r_close(c->what, "U", t.stat, c->u);
		r_close(c->what, "Mann-Whitney p", t.p, c->p);
		if (t.exact != !!strcmp(c->how, "wilcox-normal"))
			fail_msg("%s: exact is %d, R's p is %s", c->what, t.exact, c->how);
	}
}

static void test_welch_vs_r(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct rcase *c = &cases[i];
		struct st_test t;

		assert_int_equal(st_welch(c->a, c->na, c->b, c->nb, &t), 0);
		r_close(c->what, "Welch t", t.stat, c->t);
		r_close(c->what, "Welch df", t.df, c->df);
		r_close(c->what, "Welch p", t.p, c->tp);
		r_close(c->what, "qt(0.975, df)", st_t_quantile(0.975, t.df), c->q975);
	}
}

/* The script's last line: qnorm(0.975), qnorm(1e-12), pnorm(-8),
 * pt(-40, 3), qt(1e-9, 2.5). */
static void test_distributions_vs_r(void **state)
{
	(void)state;
	r_close("tails", "qnorm(0.975)", st_norm_quantile(0.975), 1.9599639845400536);
	r_close("tails", "qnorm(1e-12)", st_norm_quantile(1e-12), -7.0344838253011321);
	r_close("tails", "pnorm(-8)", st_norm_cdf(-8), 6.2209605742717849e-16);
	r_close("tails", "pt(-40, 3)", st_t_cdf(-40, 3), 1.719034039457927e-05);
	r_close("tails", "qt(1e-9, 2.5)", st_t_quantile(1e-9, 2.5), -3489.5833953699907);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mann_whitney_vs_r),
		cmocka_unit_test(test_welch_vs_r),
		cmocka_unit_test(test_distributions_vs_r),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
