/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irqsite.c - the interrupt-enable sites a timer-sampled profile piles
 * up at, and the skew figure and warning built on them (irqsite.h).
 * Knobs: the two name tables below.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/esc.h"
#include "lib/irqsite.h"
#include "lib/json.h"
#include "lib/macros.h"

/* Parts of a function name that turn interrupts back on: the paravirt
 * and native enables, the unlocks that restore them, the context
 * switch's and the softirq loop's re-enable. */
static const char *const irq_site_part[] = {
	"irq_enable", "unlock_irq", "irqrestore", "finish_task_switch",
	"__do_softirq", "handle_softirqs",
};

/* Software events that sample in a timer interrupt. */
static const char *const timer_event[] = { "cpu-clock", "task-clock" };

bool cgs_irq_enable_site(const char *sym)
{
	for (size_t i = 0; sym && i < ARRAY_SIZE(irq_site_part); i++)
		if (strstr(sym, irq_site_part[i]))
			return true;
	return false;
}

bool cgs_timer_sampled(const char *event)
{
	for (size_t i = 0; event && i < ARRAY_SIZE(timer_event); i++)
		if (!strcmp(event, timer_event[i]))
			return true;
	return false;
}

struct json_object *cgs_skew_json(const struct cgs_symcounts *sc, uint64_t total,
				  const char *event)
{
	struct json_object *o = json_object_new_object(), *sites = json_object_new_array();
	const struct cgs_symcount *top[3] = { NULL };
	uint64_t at = 0;
	double pct;

	if (!o || !sites) {
		json_object_put(o);
		json_object_put(sites);
		return NULL;
	}
	for (size_t i = 0; i < sc->n; i++) {
		const struct cgs_symcount *s = &sc->v[i];

		if (!s->self || !cgs_irq_enable_site(s->name))
			continue;
		at += s->self;
		for (size_t k = 0; k < ARRAY_SIZE(top); k++)
			if (!top[k] || s->self > top[k]->self) {
				memmove(top + k + 1, top + k, (ARRAY_SIZE(top) - k - 1) * sizeof(*top));
				top[k] = s;
				break;
			}
	}
	for (size_t k = 0; k < ARRAY_SIZE(top) && top[k]; k++)
		json_object_array_add(sites, json_object_new_string(top[k]->name));
	pct = total ? 100.0 * (double)at / (double)total : 0;
	cgs_jadd(o, "timer_sampled", json_object_new_boolean(cgs_timer_sampled(event)));
	cgs_jadd(o, "samples", json_object_new_uint64(at));
	cgs_jadd(o, "pct", cgs_jnum(pct));
	cgs_jadd(o, "sites", sites);
	cgs_jadd(o, "skewed", json_object_new_boolean(cgs_timer_sampled(event) &&
						     pct >= CGS_SKEW_WARN_PCT));
	return o;
}

int cgs_skew_warning(struct json_object *const *sk, size_t n, char *buf, size_t len)
{
	struct json_object *v, *sites = NULL;
	double sum = 0;
	size_t skewed = 0, off;

	for (size_t i = 0; i < n; i++) {
		if (!sk[i] || !json_object_object_get_ex(sk[i], "skewed", &v) ||
		    !json_object_get_boolean(v))
			continue;
		skewed++;
		if (json_object_object_get_ex(sk[i], "pct", &v))
			sum += json_object_get_double(v);
		if (!sites)
			json_object_object_get_ex(sk[i], "sites", &sites);
	}
	if (!skewed)
		return -ENOENT;
	off = (size_t)snprintf(buf, len, "WARNING skewed profile: %.1f%% of the samples%s land where interrupts are turned back on (",
			       sum / (double)skewed, n > 1 ? " (mean of the skewed runs)" : "");
	for (size_t k = 0; off < len && json_object_is_type(sites, json_type_array) &&
	     k < json_object_array_length(sites); k++) {
		const char *s = json_object_get_string(json_object_array_get_idx(sites, k));
		char e[256];

		/* a result file is input: its names are escaped (lib/esc.h) */
		off += (size_t)snprintf(buf + off, len - off, "%s%s", k ? ", " : "",
					cgs_esc(s ? s : "?", e, sizeof(e)));
	}
	if (off < len)
		snprintf(buf + off, len - off, "): a clock event samples in the timer interrupt, so time with interrupts off is charged there, not to the code that ran with them off; read those functions' self time as the callers', or sample a PMU event (cycles) where the box has one");
	return 0;
}
