/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * statread_out.c - the stats reader's bookkeeping and output: checking
 * its options and files, its state, the point's extra.stat_reader section
 * (results/SCHEMA.md), and its table line, whose percentiles come from
 * the runs' histograms merged, never averaged.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/json.h"
#include "cgroup-setup/cg.h"
#include "runner/cgroups/cgrun.h"
#include "runner/core/sampler_cpu.h"
#include "runner/observe/statread/statread_int.h"
#include "lib/util.h"

int sr_alloc(struct cgs_statread *sr)
{
	sr->cur = calloc(1, sizeof(*sr->cur));
	sr->spare = calloc(1, sizeof(*sr->spare));
	sr->point = calloc(1, sizeof(*sr->point));
	sr->cpu = -1;
	if (!sr->cur || !sr->spare || !sr->point || pthread_mutex_init(&sr->mu, NULL)) {
		sr_free(sr);
		return -ENOMEM;
	}
	return 0;
}

void sr_free(struct cgs_statread *sr)
{
	if (sr->cur && sr->spare && sr->point)
		pthread_mutex_destroy(&sr->mu);
	free(sr->cur);
	free(sr->spare);
	free(sr->point);
	free(sr->iv);
	free(sr->latest);
	if (sr->bind)
		hwloc_bitmap_free(sr->bind);
	for (int i = 0; i < 2; i++)
		json_object_put(sr->content[i].values);
	memset(sr, 0, sizeof(*sr));
}

int sr_intervals_grow(struct cgs_statread *sr, unsigned n)
{
	struct cgs_sr_interval *iv;
	unsigned cap = sr->niv ? sr->niv : 16;

	if (n <= sr->niv)
		return 0;
	while (cap < n)
		cap *= 2;
	iv = realloc(sr->iv, cap * sizeof(*iv));
	if (!iv)
		return -ENOMEM;
	memset(iv + sr->niv, 0, (cap - sr->niv) * sizeof(*iv));
	sr->iv = iv;
	sr->niv = cap;
	return 0;
}

void sr_content_keep(struct cgs_statread *sr, int which, const char *text,
		     int64_t t_ns)
{
	json_object_put(sr->content[which].values);
	sr->content[which].values = cgs_stat_parse(text);
	sr->content[which].t_ns = t_ns;
}

void sr_add_where(struct json_object *o, enum cgs_stat_file f,
		      enum cgs_stat_target t, const struct cgs_stat_where *w,
		      const struct cgs_cgview *cg)
{
	cgs_jadd(o, "file", json_object_new_string(cgs_stat_file_names[f]));
	cgs_jadd(o, "target", json_object_new_string(cgs_stat_target_names[t]));
	cgs_jadd(o, "depth", json_object_new_int(cg ? (int)cg->depth : 0));
	cgs_jadd(o, "path", w->path[0] ? json_object_new_string(w->path) : NULL);
	cgs_jadd(o, "cgroup", w->cgroup[0] ? json_object_new_string(w->cgroup) : NULL);
	cgs_jadd(o, "cgroup_version", w->version ? json_object_new_int(w->version) : NULL);
	cgs_jadd(o, "resolved", w->how[0] ? json_object_new_string(w->how) : NULL);
}

static struct json_object *content_json(const struct cgs_sr_content *c)
{
	struct json_object *o;

	if (!c->values)
		return NULL;
	o = json_object_new_object();
	cgs_jadd(o, "t_ns", json_object_new_int64(c->t_ns));
	cgs_jadd(o, "values", json_object_get(c->values));
	return o;
}

/* end - start of every whole-number key present in both. */
static struct json_object *content_delta(const struct cgs_sr_content *c)
{
	struct json_object *d;

	if (!c[0].values || !c[1].values)
		return NULL;
	d = json_object_new_object();
	json_object_object_foreach(c[1].values, k, v) {
		struct json_object *a;

		if (json_object_is_type(v, json_type_int) &&
		    json_object_object_get_ex(c[0].values, k, &a) &&
		    json_object_is_type(a, json_type_int))
			cgs_jadd(d, k, json_object_new_int64(json_object_get_int64(v) -
							json_object_get_int64(a)));
	}
	return d;
}

/* Columns of the per-interval figures, indexed like the samples. */
static struct json_object *intervals_json(const struct cgs_statread *sr, unsigned n)
{
	static const char *const names[] = { "reads", "reads_per_sec", "min_ns", "p50_ns",
		"p90_ns", "p99_ns", "p99_9_ns", "max_ns", "errors", "missed" };
	struct json_object *o = json_object_new_object(), *col[10];

	for (int c = 0; c < 10; c++) {
		col[c] = json_object_new_array_ext((int)n);
		cgs_jadd(o, names[c], col[c]);
	}
	for (unsigned s = 0; s < n; s++) {
		const struct cgs_sr_interval *iv = &sr->iv[s];
		double dt = s ? (iv->t_ns - sr->iv[s - 1].t_ns) / 1e9 : 0;
		const uint64_t lat[6] = { iv->sum.min, iv->sum.p50, iv->sum.p90,
					  iv->sum.p99, iv->sum.p999, iv->sum.max };

		json_object_array_add(col[0], json_object_new_uint64(iv->sum.count));
		json_object_array_add(col[1], dt > 0 ? json_object_new_double(iv->sum.count / dt)
						     : NULL);
		for (int c = 0; c < 6; c++)
			json_object_array_add(col[2 + c], iv->sum.count
					      ? json_object_new_uint64(lat[c]) : NULL);
		json_object_array_add(col[8], json_object_new_uint64(iv->errors));
		json_object_array_add(col[9], json_object_new_uint64(iv->missed));
	}
	return o;
}

void sr_add_json(struct cgs_statread *sr, struct res_point *p)
{
	struct json_object *o = json_object_new_object(), *sum;
	unsigned n = sr->nsamples < p->nsamples ? sr->nsamples : p->nsamples;
	struct res_hist_summary hs;
	double el = sr->measured_ns / 1e9;

	if (!p->extra)
		p->extra = json_object_new_object();
	sr_add_where(o, sr->file, sr->target, &sr->where, sr->cg);
	cgs_jadd(o, "hz", json_object_new_int64(sr->hz));
	cgs_jadd(o, "cpu", sr->cpu >= 0 ? json_object_new_int(sr->cpu) : NULL);
	cgs_jadd(o, "cpu_choice", json_object_new_string(sr->cpu_note[0] ? sr->cpu_note
						    : "not started"));
	cgs_jadd(o, "read", json_object_new_string(
		"open + pread from offset 0 to end of file + close, timed as one"));
	res_hist_summarise(sr->point, &hs);
	sum = res_hist_summary_json(&hs);
	cgs_jadd(sum, "elapsed_s", json_object_new_double(el));
	cgs_jadd(sum, "reads_per_sec", cgs_jnum(el > 0 ? hs.count / el : NAN));
	cgs_jadd(sum, "errors", json_object_new_uint64(sr->m_errors));
	cgs_jadd(sum, "missed", json_object_new_uint64(sr->m_missed));
	cgs_jadd(sum, "bytes_per_read", cgs_jnum(hs.count ? (double)sr->m_bytes / hs.count : NAN));
	cgs_jadd(o, "summary", sum);
	cgs_jadd(o, "intervals", intervals_json(sr, n));
	cgs_jadd(o, "histogram", res_hist_to_json(sr->point));
	if (sr->content[0].values || sr->content[1].values) {
		struct json_object *c = json_object_new_object();

		cgs_jadd(c, "start", content_json(&sr->content[0]));
		cgs_jadd(c, "end", content_json(&sr->content[1]));
		cgs_jadd(c, "delta", content_delta(sr->content));
		cgs_jadd(o, "content", c);
	} else {
		cgs_jadd(o, "content", NULL);
	}
	cgs_jadd(o, "error", sr->first_error[0] ? json_object_new_string(sr->first_error)
					   : NULL);
	json_object_object_add(p->extra, "stat_reader", o);
}

int sr_check_cpu(int cpu, const struct cgs_topo *topo, char *err, size_t errlen)
{
	char list[256];

	if (cpu >= 0 && !cgs_cpu_allowed(topo, cpu, list, sizeof(list)))
		return cgs_errf(err, errlen, -EINVAL,
				"--stat-reader-cpu %d is not a CPU the runner may use; give one of %s",
				cpu, list);
	return 0;
}

int sr_check_layouts(const struct cgs_cgrun *c, int rfile, int wfile, char *err,
		     size_t errlen)
{
	if ((rfile < 0 && wfile < 0) || !c || !c->detected)
		return 0;
	for (unsigned i = 0; i < c->nlayouts; i++) {
		struct cg_spec spec = { .depth = c->L[i].depth, .per_task = c->per_task,
					.nleaves = 1,
					.parent = c->has_parent ? c->parent : NULL,
					.nknobs = c->nknobs, .knobs = c->knobs };
		struct cgs_cgview v = { .depth = spec.depth };
		char ctrls[256] = "", msg[1024];
		struct cg_tree t;
		int rc = 0;

		/* the hierarchies a tree of this layout spans (nothing made) */
		if (spec.depth && !cg_tree_plan(&t, &c->lay, &spec, msg, sizeof(msg))) {
			for (unsigned h = 0; h < t.nh; h++)
				snprintf(ctrls + strlen(ctrls), sizeof(ctrls) - strlen(ctrls),
					 "%s%s", h ? "," : "", t.h[h].ctrl);
			cg_tree_free(&t);
		}
		v.ctrls = ctrls;
		if (rfile >= 0)
			rc = cgs_stat_check(&c->lay, (enum cgs_stat_file)rfile,
					    &v, msg, sizeof(msg));
		if (rc < 0)
			return cgs_errf(err, errlen, rc, "--stat-reader-file %s", msg);
		/* stat_read itself skips a file this system lacks; a file
		 * outside our cgroups' hierarchies is a mistake */
		if (wfile >= 0 && cgs_stat_check(&c->lay, (enum cgs_stat_file)wfile, &v,
						 msg, sizeof(msg)) == -EINVAL)
			return cgs_errf(err, errlen, -EINVAL, "--stat-file %s (cgroup layout %s)",
					msg, c->L[i].name);
	}
	return 0;
}

static void fmt_ns(uint64_t ns, char *buf, size_t len)
{
	if (ns < 1000)
		snprintf(buf, len, "%" PRIu64 "ns", ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.1fus", ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.2fms", ns / 1e6);
	else
		snprintf(buf, len, "%.2fs", ns / 1e9);
}

void cgs_statread_print_rows(const struct res_file *f, const char *test,
			     const char *mode, unsigned tasks, const char *layout,
			     FILE *out)
{
	struct res_hist *all = calloc(1, sizeof(*all)), *one = calloc(1, sizeof(*one));
	const char *file = NULL, *target = NULL;
	struct res_hist_summary s;
	double rate = 0;
	unsigned n = 0;
	char v[6][24];

	for (unsigned i = 0; all && one && i < f->npoints; i++) {
		const struct res_point *p = &f->points[i];
		const char *pl = cgs_point_layout(p);
		struct json_object *sr, *x;

		if (strcmp(p->test, test) || strcmp(p->mode, mode) || p->tasks != tasks ||
		    p->status != RES_OK || !p->extra ||
		    !(pl == layout || (pl && layout && !strcmp(pl, layout))) ||
		    !json_object_object_get_ex(p->extra, "stat_reader", &sr) ||
		    !json_object_object_get_ex(sr, "histogram", &x) ||
		    res_hist_from_json(x, one, NULL, 0))
			continue;
		res_hist_merge(all, one);
		if (json_object_object_get_ex(sr, "summary", &x) &&
		    json_object_object_get_ex(x, "reads_per_sec", &x))
			rate += json_object_get_double(x);
		if (json_object_object_get_ex(sr, "file", &x))
			file = json_object_get_string(x);
		if (json_object_object_get_ex(sr, "target", &x))
			target = json_object_get_string(x);
		n++;
	}
	if (n) {
		res_hist_summarise(all, &s);
		fmt_ns(s.min, v[0], sizeof(v[0]));
		fmt_ns(s.p50, v[1], sizeof(v[1]));
		fmt_ns(s.p90, v[2], sizeof(v[2]));
		fmt_ns(s.p99, v[3], sizeof(v[3]));
		fmt_ns(s.p999, v[4], sizeof(v[4]));
		fmt_ns(s.max, v[5], sizeof(v[5]));
		fprintf(out, "  %-8s %s at %s: %.1f reads/s; read latency min %s p50 %s p90 %s p99 %s p99.9 %s max %s (%" PRIu64 " reads)\n",
			"reader", file ? file : "?", target ? target : "?", rate / n,
			v[0], v[1], v[2], v[3], v[4], v[5], s.count);
	}
	free(all);
	free(one);
}
