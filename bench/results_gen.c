/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results_gen.c - a large result file for the results-scale bench, made
 * with the runner's own writer: the header and point metadata of a small
 * real result (TEMPLATE), and for every run, task count and mode a point
 * of TASKS tasks x SAMPLES samples with plausible counts (a per-task
 * base rate, noise, a few slow tasks). Prints the seconds the writer took.
 *
 *   results-gen TEMPLATE OUT TASKLIST SAMPLES RUNS [SEED] [SCALE]
 *   (TASKLIST: counts separated by commas; both modes; SCALE multiplies
 *   every rate, for a B side that differs from A)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/model/result.h"
#include "lib/util.h"

static uint64_t rng(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int fill(struct res_point *p, const struct res_point *tp, unsigned tasks,
		unsigned samples, uint64_t *seed, double scale)
{
	unsigned warm = samples / 6;

	if (res_point_alloc(p, tasks, samples))
		return -1;
	p->started_at = strdup(tp->started_at);
	p->placement = strdup(tp->placement);
	p->status = RES_OK;
	p->warmup_s = warm * 1.0;
	p->duration_s = samples - 1 - warm;
	p->interval_s = 1.0;
	for (unsigned s = 0; s < samples; s++) {
		p->t_ns[s] = (int64_t)s * 1000000000 + (int64_t)(rng(seed) % 100000);
		p->phase[s] = !s ? RES_PHASE_START : s <= warm ? RES_PHASE_WARMUP : RES_PHASE_MEASURE;
		if (s)
			p->idle_pct[s] = p->iowait_pct[s] = p->steal_pct[s] = (rng(seed) % 100) / 50.0;
	}
	for (unsigned i = 0; i < tasks; i++) {
		/* most tasks near 100k ops/s, one in 50 at half speed */
		double base = scale * (i % 50 == 7 ? 50000 : 100000) * (0.9 + (rng(seed) % 2000) / 10000.0);

		for (unsigned s = 1; s < samples; s++) {
			uint64_t v = (uint64_t)(base * (0.95 + (rng(seed) % 1000) / 10000.0));

			p->ops[(size_t)i * samples + s] = v;
			p->task[i].ops += v;
		}
		p->task[i].pid = 1000 + (int)i;
		p->task[i].tid = 1000 + (int)i;
		p->task[i].cpu_start = p->task[i].cpu_end = (int)i;
		p->task[i].status = RES_OK;
		p->task[i].cpuset = cgs_fmt("%u", i);
	}
	res_point_summarise(p);
	return 0;
}

int main(int argc, char **argv)
{
	struct res_file f;
	char err[512], *list, *tok, *save = NULL;
	unsigned samples, runs, seq = 0;
	uint64_t seed;
	double scale;
	int64_t t0;

	if (argc < 6) {
		fprintf(stderr, "usage: results-gen TEMPLATE OUT TASKLIST SAMPLES RUNS [SEED] [SCALE]\n");
		return 2;
	}
	samples = (unsigned)atoi(argv[4]);
	runs = (unsigned)atoi(argv[5]);
	seed = argc > 6 ? strtoull(argv[6], NULL, 0) : 88172645463325252ULL;
	scale = argc > 7 ? atof(argv[7]) : 1.0;
	if (res_read_file(argv[1], &f, err, sizeof(err)) || !f.npoints || samples < 3) {
		fprintf(stderr, "results-gen: %s\n", err);
		return 1;
	}
	struct res_point tp = f.points[0];

	f.points = NULL;
	f.npoints = 0;
	for (unsigned run = 0; run < runs; run++) {
		list = strdup(argv[3]);
		for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			for (int m = 0; m < 2; m++) {
				struct res_point *p = res_file_add_point(&f);

				if (!p || fill(p, &tp, (unsigned)atoi(tok), samples, &seed, scale))
					return 1;
				p->seq = seq++;
				p->test = strdup(tp.test);
				p->mode = strdup(m ? "thread" : "process");
				p->tasks = (unsigned)atoi(tok);
				p->run = run;
			}
		free(list);
	}
	res_file_scalability(&f);
	t0 = cgs_now_ns();
	if (res_write_file(&f, argv[2], err, sizeof(err))) {
		fprintf(stderr, "results-gen: %s\n", err);
		return 1;
	}
	printf("%.3f\n", (cgs_now_ns() - t0) / 1e9);
	res_point_free(&tp);
	res_file_free(&f);
	return 0;
}
