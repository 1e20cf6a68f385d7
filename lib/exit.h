/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exit.h - the exit status of every cgscale command, named once. A
 * command's page and --help say which of these it can return; cgscale(1)
 * says the convention:
 *
 *   0    done
 *   1    it ran, but something failed: a point, a chart, a write, a
 *        cleanup; compare: at least one REGRESSION
 *   2    bad usage or bad input: a one-line message says what and how to
 *        fix it; nothing was run or written
 *   3    compare: incomparable inputs
 *   4    compare --fail-on-inconclusive: INCONCLUSIVE or NOISY verdicts
 *   70   an internal error (sysexits' EX_SOFTWARE): a broken table, no
 *        memory before anything ran
 *   125  compare --bisect: skip this commit
 *   128  compare --bisect: bad usage, which aborts git bisect run
 *   128+N  run: stopped by signal N (130 SIGINT, 143 SIGTERM); the
 *        finished points are kept
 */
#ifndef CGS_EXIT_H
#define CGS_EXIT_H

#define CGS_EXIT_OK 0
#define CGS_EXIT_FAIL 1
#define CGS_EXIT_BADINPUT 2
#define CGS_EXIT_INCOMPARABLE 3
#define CGS_EXIT_INCONCLUSIVE 4
#define CGS_EXIT_INTERNAL 70
#define CGS_EXIT_BISECT_SKIP 125
#define CGS_EXIT_BISECT_ABORT 128
#define CGS_EXIT_SIGNAL(signo) (128 + (signo))

#endif
