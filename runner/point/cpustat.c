/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cpustat.c - read /proc/stat for a point's idle, iowait and steal
 * figures: of the CPUs the run may use (taskset, a cpuset) from their
 * per-CPU lines, so that someone else's work on the CPUs outside does not
 * read as foreign load; of the whole machine (its first line) when the run
 * may use all of it, or the topology is not this machine's. The text is
 * read only as far as the last of those CPUs' lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner/point/point_int.h"

/* A "cpuN" line is at most 9 + 10 x 21 characters. */
#define LINE_MAX_LEN 256

int cgs_cpustat_open(struct cgs_cpustat_src *src, const struct cgs_topo *topo)
{
	int last;

	memset(src, 0, sizeof(*src));
	src->fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	if (topo && topo->thissystem && topo->allowed_by) {
		src->cpus = hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(topo->t));
		if (!src->cpus)
			goto nomem;
	}
	last = src->cpus ? hwloc_bitmap_last(src->cpus) : -1;
	if (src->cpus && last < 0) {         /* none, or infinite: the machine */
		hwloc_bitmap_free(src->cpus);
		src->cpus = NULL;
		last = -1;
	}
	src->len = ((size_t)last + 2) * LINE_MAX_LEN + 1;
	src->buf = malloc(src->len);
	if (!src->buf)
		goto nomem;
	return 0;
nomem:
	cgs_cpustat_close(src);
	return -ENOMEM;
}

/* Does @buf (@have bytes) hold the start of a line after the CPUs'? Each
 * read makes the kernel format the whole file: read no more than needed. */
static bool past_cpus(const char *buf, size_t have)
{
	for (const char *nl = memchr(buf, '\n', have); nl;
	     nl = memchr(nl + 1, '\n', have - (size_t)(nl + 1 - buf))) {
		size_t left = have - (size_t)(nl + 1 - buf);

		if (left >= 3 && strncmp(nl + 1, "cpu", 3))
			return true;
	}
	return false;
}

int cgs_cpustat_read(struct cgs_cpustat_src *src, struct cgs_cpustat *out)
{
	size_t have = 0;
	unsigned found;

	if (src->fd < 0 || !src->buf)
		return -EIO;
	while (have < src->len - 1) {
		ssize_t n = pread(src->fd, src->buf + have, src->len - 1 - have,
				  (off_t)have);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		have += (size_t)n;
		if (!src->cpus || past_cpus(src->buf, have))
			break;           /* the first line is all the machine's needs */
	}
	if (!have)
		return -EIO;
	src->buf[have] = 0;
	return cgs_cpustat_parse_cpus(src->buf, src->cpus, out, &found);
}

void cgs_cpustat_close(struct cgs_cpustat_src *src)
{
	if (src->fd >= 0)
		close(src->fd);
	hwloc_bitmap_free(src->cpus);
	free(src->buf);
	memset(src, 0, sizeof(*src));
	src->fd = -1;
}

char *cgs_cpustat_src_cpus(const struct cgs_cpustat_src *src)
{
	char *s = NULL;

	if (!src->cpus)
		return strdup("all");
	return hwloc_bitmap_list_asprintf(&s, src->cpus) < 0 ? NULL : s;
}
