/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irqsite.h - the skew of a profile sampled by a timer. A software clock
 * event (cpu-clock, task-clock) takes its sample in the timer interrupt,
 * so time spent with interrupts off is charged to the place where they
 * come back on (pvm_irq_enable in a PVM guest, _raw_spin_unlock_irqrestore,
 * finish_task_switch, ... on bare metal), not to the code that ran with
 * them off. A PMU event sampled by NMI has no such skew. This says, from
 * a profile's per-symbol self counts, what share of the samples landed
 * at such sites, so that the runner and compare can warn before anyone
 * ranks pvm_irq_enable as a cause.
 */
#ifndef CGS_IRQSITE_H
#define CGS_IRQSITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "lib/folded.h"

/* A share of samples at interrupt-enable sites at or above this (%) is a
 * skewed profile: the runner and compare print a warning. */
#define CGS_SKEW_WARN_PCT 10.0

/* Is @sym a kernel function where interrupts are turned back on? */
bool cgs_irq_enable_site(const char *sym);

/* Is @event sampled in a timer interrupt (a software clock event)? */
bool cgs_timer_sampled(const char *event);

/* A profile's "skew" object: "timer_sampled" (of @event), "samples" (at
 * interrupt-enable sites, by self), "pct" (of @total), "sites" (the
 * three biggest, by self) and "skewed" (timer sampled and pct >=
 * CGS_SKEW_WARN_PCT), from the symbol counts @sc. NULL when out of
 * memory. */
struct json_object *cgs_skew_json(const struct cgs_symcounts *sc, uint64_t total,
				  const char *event);

/* The warning for the skew objects @sk of @n runs (any may be NULL) into
 * @buf: the runs' mean share and the sites; 0 when it was written, or
 * -ENOENT when no run is skewed (nothing to say). */
int cgs_skew_warning(struct json_object *const *sk, size_t n, char *buf, size_t len);

#endif
