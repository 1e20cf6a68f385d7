/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lkp_names.h - the names cgscale's figures have as LKP stats (LKP
 * stores them as "cgscale.<key>"), shared by `export --format lkp-stats`
 * and `compare --format lkp` so that both print the same keys.
 */
#ifndef CGS_COMPARE_LKP_NAMES_H
#define CGS_COMPARE_LKP_NAMES_H

#include <stdbool.h>
#include <stddef.h>

struct json_object;
struct cmp_result;
struct cmp_group;

/* LKP's name of the program and the prefix of its stats. */
#define CMP_LKP_PROGRAM "cgscale"

/*
 * The key of figure @name (a compare metric, "memory.stat.FIELD", an LKP
 * alias such as "Throughput_Mbps", a perf-profile key) for points run in
 * @mode. per_task_ops is will-it-scale's per_process_ops or
 * per_thread_ops and scalability stays will-it-scale's; any other figure
 * of a file that holds both modes (@both) is named "process.NAME" or
 * "thread.NAME", so that the two modes are never averaged into one.
 */
void cmp_lkp_key(const char *name, const char *mode, bool both, char *buf,
		 size_t len);

/*
 * LKP's perf-profile key of a profile share: "perf-profile.KIND.EVENT.SYM"
 * with the event that was sampled, ':' written '-', as LKP's perf-profile
 * parse names its own ("cycles:pp" -> cycles-pp); cgscale samples
 * "cycles" where there is a PMU, else "cpu-clock" (profile.event).
 */
void cmp_lkp_profile_key(const char *kind, const char *event, const char *sym,
			 char *buf, size_t len);

/* The sampling event of a point's profile section, "cpu-clock" when the
 * section does not say (an older file). */
const char *cmp_lkp_profile_event(struct json_object *prof);

/* Whether @g's test ran in both modes in @r: then its mode-independent
 * figures have a key per mode (cmp_lkp_key). */
bool cmp_lkp_both_modes(const struct cmp_result *r, const struct cmp_group *g);

#endif
