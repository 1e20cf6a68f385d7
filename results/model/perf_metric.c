/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf_metric.c - the table of derived perf metrics (see perf_metric.h).
 */
#include <string.h>

#include "results/model/perf_metric.h"

#define RES_PERF_TYPE_HW PERF_TYPE_HARDWARE
#define RES_PERF_TYPE_SW PERF_TYPE_SOFTWARE
#define RES_PERF_ROW_(id, nm, hw, ty, n, d, sc, lab, wh, ...) \
	[RES_PERF_##id] = { .name = nm, .how = hw, .type = RES_PERF_TYPE_##ty, .num = n, \
			    .den = d, .scale = sc, .label = lab, .what = wh },
const struct res_perf_metric res_perf_metrics[RES_NPERF] = {
	RES_PERF_METRICS(RES_PERF_ROW_)
};

const struct res_perf_metric *res_perf_find(const char *name)
{
	for (int m = 0; m < RES_NPERF; m++)
		if (!strcmp(res_perf_metrics[m].name, name))
			return &res_perf_metrics[m];
	return NULL;
}
