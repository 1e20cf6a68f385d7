/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * procstat.c - the /proc parsers of procstat.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/procstat.h"

int cgs_vmstat_parse(const char *text, struct cgs_vmstat *out)
{
	const char *s = text;

	out->n = 0;
	while (s && *s) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		size_t klen = strcspn(s, " \t\n");
		char *end;
		unsigned long long v;

		if (klen && klen < CGS_VMSTAT_NAME && klen < len) {
			v = strtoull(s + klen, &end, 10);
			if (end > s + klen && end <= s + len &&
			    (end == s + len || *end == ' ' || *end == '\t')) {
				if (out->n == CGS_VMSTAT_MAX)
					return -E2BIG;
				memcpy(out->name[out->n], s, klen);
				out->name[out->n][klen] = 0;
				out->v[out->n++] = v;
			}
		}
		s = nl ? nl + 1 : NULL;
	}
	return out->n ? 0 : -EINVAL;
}

int cgs_vmstat_get(const struct cgs_vmstat *s, const char *name, uint64_t *v)
{
	for (unsigned i = 0; i < s->n; i++)
		if (!strcmp(s->name[i], name)) {
			*v = s->v[i];
			return 0;
		}
	return -ENOENT;
}

int cgs_taskstat_parse(const char *line, uint64_t *utime, uint64_t *stime)
{
	const char *s = strrchr(line, ')');
	unsigned long long u, st;

	/* after "comm)": state(3) ppid pgrp session tty tpgid flags minflt
	 * cminflt majflt cmajflt utime(14) stime(15) */
	if (!s || sscanf(s + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			 &u, &st) != 2)
		return -EINVAL;
	*utime = u;
	*stime = st;
	return 0;
}

int cgs_schedstat_parse(const char *line, uint64_t *run_ns, uint64_t *wait_ns)
{
	unsigned long long r, w;

	if (sscanf(line, "%llu %llu", &r, &w) != 2)
		return -EINVAL;
	*run_ns = r;
	*wait_ns = w;
	return 0;
}

int cgs_procsched_sleep(const char *text, uint64_t *ns)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *k = l;
		unsigned long long ms, frac;
		int n0 = 0, n1 = 0;

		while (*k == ' ')
			k++;
		if (!strncmp(k, "se.statistics.", 14))
			k += 14;
		else if (!strncmp(k, "stats.", 6))
			k += 6;
		if (strncmp(k, "sum_sleep_runtime", 17) || (k[17] != ' ' && k[17] != ':'))
			continue;
		k = strchr(k, ':');
		if (!k || sscanf(k + 1, " %n%llu.%llu%n", &n0, &ms, &frac, &n1) != 2 ||
		    n1 - n0 < 2)
			return -EINVAL;
		/* ms and six digits of ns, as the kernel's SPLIT_NS prints */
		*ns = ms * 1000000ULL + frac;
		return 0;
	}
	return -ENOENT;
}

int cgs_read_schedstats_sysctl(void)
{
	FILE *f = fopen("/proc/sys/kernel/sched_schedstats", "re");
	int v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v < 0 ? -1 : v != 0;
}
