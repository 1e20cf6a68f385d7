/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf_ring.c - drain a perf_event mmap ring buffer (see perf_ring.h).
 * The kernel writes data_head; we read up to it after a read barrier and
 * publish data_tail after a full barrier, as tools/perf does.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/perf_ring.h"

int cgs_perf_ring_map(struct cgs_perf_ring *r, int fd, size_t pages)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), n = 8;
	int err = -EINVAL;

	memset(r, 0, sizeof(*r));
	while (n * 2 <= pages)
		n *= 2;
	for (; n >= 8; n /= 2) {
		void *m = mmap(NULL, (n + 1) * pg, PROT_READ | PROT_WRITE,
			       MAP_SHARED, fd, 0);

		if (m != MAP_FAILED) {
			r->base = m;
			r->map_size = (n + 1) * pg;
			r->data_size = n * pg;
			return 0;
		}
		err = -errno;
		if (err != -EPERM && err != -ENOMEM)
			break;
	}
	return err;
}

void cgs_perf_ring_unmap(struct cgs_perf_ring *r)
{
	if (r->base)
		munmap(r->base, r->map_size);
	free(r->copy);
	memset(r, 0, sizeof(*r));
}

/* The record at @off (ring offset) of @size bytes, made contiguous. */
static const struct perf_event_header *record_at(struct cgs_perf_ring *r,
						 const char *data, size_t off,
						 size_t size)
{
	size_t first = r->data_size - off;

	if (size <= first)
		return (const struct perf_event_header *)(data + off);
	if (r->copy_size < size) {
		char *c = realloc(r->copy, size);

		if (!c)
			return NULL;
		r->copy = c;
		r->copy_size = size;
	}
	memcpy(r->copy, data + off, first);
	memcpy(r->copy + first, data, size - first);
	return (const struct perf_event_header *)r->copy;
}

long cgs_perf_ring_drain(struct cgs_perf_ring *r, cgs_perf_ring_fn fn,
			 void *arg)
{
	struct perf_event_mmap_page *mp = r->base;
	const char *data;
	uint64_t head, tail;
	long n = 0;

	if (!mp)
		return 0;
	data = (const char *)r->base + (r->map_size - r->data_size);
	head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	tail = mp->data_tail;
	while (tail + sizeof(struct perf_event_header) <= head) {
		struct perf_event_header hb;
		const struct perf_event_header *h;
		size_t off = tail & (r->data_size - 1);

		h = record_at(r, data, off, sizeof(hb));
		if (!h)
			return -ENOMEM;
		hb = *h;
		if (!hb.size || hb.size > r->data_size || tail + hb.size > head) {
			__atomic_store_n(&mp->data_tail, head, __ATOMIC_RELEASE);
			return -EIO;
		}
		h = record_at(r, data, off, hb.size);
		if (!h)
			return -ENOMEM;
		fn(h, arg);
		tail += hb.size;
		n++;
	}
	__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
	return n;
}
