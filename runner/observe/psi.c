/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * psi.c - the psi observer (--psi): /proc/pressure/memory read at the
 * measured window's edges (edges.h), so its "some" and "full" totals give
 * how long at least one task, and all non-idle tasks at once, stalled on
 * memory in the window: as a share of the window and per op. System-wide:
 * other work on the machine counts too. Its compare metrics and its
 * report view are declared below, beside the hooks (psi_section): the
 * run writes them into the result file, where compare and the report
 * find them. A kernel without pressure stall information (no CONFIG_PSI,
 * or booted psi=0) refuses --psi before any work, saying so.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/json.h"
#include "lib/macros.h"
#include "lib/util.h"
#include "runner/observe/edges.h"
#include "runner/observe/observer.h"

#define PSI_FILE "/proc/pressure/memory"

struct psi_opts {
	bool on;                      /* --psi */
};

struct psi_obs {
	struct cgs_edges e;
	uint64_t total[2][2];         /* [edge][some, full], microseconds */
};

static const char *const psi_kinds[2] = { "some", "full" };

/* The some and full totals of @text ("some avg10=... total=N"); a kernel
 * before 5.2 has no full line for memory: 0. 0 or -EINVAL. */
static int psi_parse(const char *text, uint64_t *total)
{
	for (int k = 0; k < 2; k++) {
		const char *l = strstr(text, psi_kinds[k]), *t = l ? strstr(l, "total=") : NULL;

		total[k] = 0;
		if (!t || sscanf(t, "total=%" SCNu64, &total[k]) != 1) {
			if (!k)
				return -EINVAL;
		}
	}
	return 0;
}

static int psi_read(void *obs, int which)
{
	struct psi_obs *s = obs;
	char buf[512];
	int rc = cgs_read_file(PSI_FILE, buf, sizeof(buf));

	return rc ? rc : psi_parse(buf, s->total[which]);
}

static void psi_sample(void *priv, unsigned n, int64_t t_ns, enum res_phase ph,
		       bool window_start)
{
	(void)n;
	(void)ph;
	cgs_edges_sample(&((struct psi_obs *)priv)->e, window_start, t_ns, psi_read, priv);
}

static void psi_window_end(void *priv, unsigned n, int64_t t_ns, enum res_phase ph)
{
	(void)n;
	cgs_edges_end(&((struct psi_obs *)priv)->e, ph, t_ns, psi_read, priv);
}

static void psi_write(void *priv, struct res_point *p)
{
	struct psi_obs *s = priv;
	struct json_object *o = json_object_new_object();
	double el = cgs_edges_seconds(&s->e);
	uint64_t ops = p->status == RES_OK ? p->sum.ops : 0;

	if (!p->extra)
		p->extra = json_object_new_object();
	cgs_jadd(o, "source", json_object_new_string(PSI_FILE ", system-wide"));
	if (!cgs_edges_both(&s->e)) {
		cgs_jadd(o, "error", json_object_new_string(s->e.err ? strerror(-s->e.err) :
			 "the point ended before its measured window opened"));
		json_object_object_add(p->extra, "psi", o);
		return;
	}
	cgs_jadd(o, "elapsed_s", cgs_jnum(el));
	for (int k = 0; k < 2; k++) {
		struct json_object *v = json_object_new_object();
		double us = (double)(s->total[1][k] - s->total[0][k]);

		cgs_jadd(v, "stall_us", cgs_jnum(us));
		cgs_jadd(v, "pct", cgs_jnum(el > 0 ? us / (el * 1e4) : NAN));
		cgs_jadd(v, "ns_per_op", ops ? cgs_jnum(us * 1e3 / (double)ops) : NULL);
		cgs_jadd(o, psi_kinds[k], v);
	}
	json_object_object_add(p->extra, "psi", o);
}

static int psi_new(const struct cgs_obs_ctx *ctx, const struct cgs_obs_point *pt,
		   void **priv)
{
	(void)ctx;
	(void)pt;
	*priv = calloc(1, sizeof(struct psi_obs));
	return *priv ? 0 : -ENOMEM;
}

/* Does this kernel give memory pressure? -EOPNOTSUPP with the reason. */
static int psi_supported(char *why, size_t len)
{
	char buf[512];
	uint64_t t[2];
	int rc = cgs_read_file(PSI_FILE, buf, sizeof(buf));

	if (!rc)
		rc = psi_parse(buf, t);
	if (rc)
		snprintf(why, len, "cannot read " PSI_FILE " (%s): the kernel lacks CONFIG_PSI "
			 "or was booted psi=0", strerror(-rc));
	return rc ? -EOPNOTSUPP : 0;
}

/* --psi on a kernel that cannot give it: refused, with the reason. */
static int psi_check(struct cgs_obs_ctx *ctx, char *err, size_t errlen)
{
	const struct psi_opts *o = ctx->opts;
	char why[256];

	if (o->on && psi_supported(why, sizeof(why)))
		return cgs_errf(err, errlen, -EINVAL, "--psi: %s; run without --psi", why);
	return 0;
}

static bool psi_wanted(const struct cgs_obs_ctx *ctx)
{
	return ((const struct psi_opts *)ctx->opts)->on;
}

static const struct cgs_opt psi_optdefs[] = {
	OPT_BOOL("psi", 0, struct psi_opts, on,
		 .help = "record memory pressure stalls (" PSI_FILE ") over the measured window"),
};

/* What compare judges and the report shows of the section. */
static const struct res_metric_decl psi_metrics[] = {
	{ "psi.some_ns_per_op", "ns/op", "time at least one task stalled on memory, per op "
	  "(PSI some), system-wide", -1, "secondary", "psi.some.ns_per_op" },
	{ "psi.full_ns_per_op", "ns/op", "time all non-idle tasks stalled on memory at once, "
	  "per op (PSI full), system-wide", -1, "secondary", "psi.full.ns_per_op" },
};

static const struct res_view_decl psi_view[] = {
	{ "some task stalled on memory", "psi.some.pct", "% of the window" },
	{ "all non-idle tasks stalled", "psi.full.pct", "% of the window" },
	{ "some: stall per op", "psi.some.ns_per_op", "ns/op" },
	{ "full: stall per op", "psi.full.ns_per_op", "ns/op" },
};

static const struct res_section_decl psi_section = {
	.key = "psi", .title = "memory pressure (PSI)",
	.metrics = psi_metrics, .nmetrics = ARRAY_SIZE(psi_metrics),
	.view = psi_view, .nview = ARRAY_SIZE(psi_view),
};

const struct cgs_obs_def psi_observer = {
	.name = "psi",
	.opts = psi_optdefs,
	.nopts = ARRAY_SIZE(psi_optdefs),
	.opts_size = sizeof(struct psi_opts),
	.check = psi_check,
	.supported = psi_supported,
	.wanted = psi_wanted,
	.new = psi_new,
	.free = free,
	.sample = psi_sample,
	.window_end = psi_window_end,
	.write = psi_write,
	.section = &psi_section,
};
