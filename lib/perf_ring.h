/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf_ring.h - a perf_event mmap ring buffer, read by the process that
 * opened the event (not by the profiled task): map it, then drain every
 * complete record at a time of the caller's choosing, each one handed to
 * a callback in one contiguous piece even when it wraps round the end of
 * the buffer. Generic: any perf_event fd with sampling or side records.
 */
#ifndef CGS_PERF_RING_H
#define CGS_PERF_RING_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

struct cgs_perf_ring {
	void *base;                /* the control page, then the data pages */
	size_t data_size;          /* a power of two */
	size_t map_size;
	char *copy;                /* room for one record that wraps */
	size_t copy_size;
};

/*
 * Map @fd with 2^n data pages, @pages at most and 8 at least: on EPERM or
 * ENOMEM (perf_event_mlock_kb, RLIMIT_MEMLOCK) it retries with half as
 * many. 0, or -errno of the last attempt.
 */
int cgs_perf_ring_map(struct cgs_perf_ring *r, int fd, size_t pages);

/* Unmap; safe on a zeroed or unmapped ring. */
void cgs_perf_ring_unmap(struct cgs_perf_ring *r);

/* Called for each record; @h points to its header, h->size bytes long. */
typedef void (*cgs_perf_ring_fn)(const struct perf_event_header *h,
				 void *arg);

/*
 * Hand every complete record to @fn, oldest first, then release the space
 * to the kernel. Returns the number of records, or -EIO when the ring
 * holds a record that cannot be right (size 0 or larger than the ring).
 */
long cgs_perf_ring_drain(struct cgs_perf_ring *r, cgs_perf_ring_fn fn,
			 void *arg);

#endif
