/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * remap - stress-ng 0.15.06's remap stressor (`stress-ng --remap N`), the
 * case of the mlock rework regression in LKP's stress-ng reports.
 *
 * Each task maps 512 pages MAP_SHARED: by default of its own file in
 * --tmpdir (the default tmpdir is a tmpfs, so that is shmem, as stress-ng's
 * MAP_SHARED|MAP_ANONYMOUS object is); --remap-backing anon maps exactly as
 * stress-ng. Page i is tagged with i. Then, in stress-ng's order, passes
 * reverse, naive shuffle, all-to-one and forward remap every page i to file
 * page order[i] with remap_file_pages(), each page mlock()ed before and
 * munlock()ed after. After every pass each page must hold its tag: a
 * mismatch fails the task, it is never a number. After the four passes come
 * stress-ng's 6 illegal calls (failing on unmapped addresses).
 *
 * One op = one mlock + remap_file_pages + munlock step. Aux counter
 * "passes" (one per verified pass of 512 ops) is reported in bogo-ops/s:
 * stress-ng's bogo-op is four passes, 2048 ops.
 *
 * A kernel without remap_file_pages (ENOSYS) skips the point. mlock that
 * fails for RLIMIT_MEMLOCK fails it, naming the limit and the need.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "lib/macros.h"
#include "tests/remap.h"
#include "tests/workload.h"

const char *const remap_pass_names[] = {
	[REMAP_REVERSE] = "reverse",
	[REMAP_RANDOM] = "random",
	[REMAP_ALL_TO_1] = "all-to-1",
	[REMAP_FORWARD] = "forward",
};

static uint32_t xorshift32(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

void remap_order(enum remap_pass pass, uint16_t *order, size_t n,
		 uint32_t *rng)
{
	for (size_t i = 0; i < n; i++) {
		switch (pass) {
		case REMAP_REVERSE: order[i] = (uint16_t)(n - 1 - i); break;
		case REMAP_ALL_TO_1: order[i] = 0; break;
		default: order[i] = (uint16_t)i; break;
		}
	}
	if (pass != REMAP_RANDOM)
		return;
	/* stress-ng's shuffle: swap each slot with any slot */
	for (size_t i = 0; i < n; i++) {
		size_t j = xorshift32(rng) % n;
		uint16_t tmp = order[i];

		order[i] = order[j];
		order[j] = tmp;
	}
}

void remap_tag(void *base, size_t pgsize, size_t n)
{
	for (size_t i = 0; i < n; i++)
		*(volatile uint16_t *)((char *)base + i * pgsize) = (uint16_t)i;
}

int remap_page(void *addr, size_t pgsize, uint16_t pgoff, const char **call)
{
	if (mlock(addr, pgsize)) {
		*call = "mlock";
		return -errno;
	}
	if (remap_file_pages(addr, pgsize, 0, pgoff, 0)) {
		munlock(addr, pgsize);
		if (remap_file_pages(addr, pgsize, 0, pgoff, 0)) {
			*call = "remap_file_pages";
			return -errno;
		}
		return 0;
	}
	if (munlock(addr, pgsize)) {
		*call = "munlock";
		return -errno;
	}
	return 0;
}

int remap_verify(const void *base, size_t pgsize, const uint16_t *order,
		 size_t n, size_t *bad, uint16_t *got)
{
	for (size_t i = 0; i < n; i++) {
		uint16_t v = *(const volatile uint16_t *)((const char *)base + i * pgsize);

		if (v != order[i]) {
			*bad = i;
			*got = v;
			return -EIO;
		}
	}
	return 0;
}

enum { RM_FILE, RM_ANON };
static const char *const rm_backings[] = { "file", "anon", NULL };

struct rm_opts {
	int backing;
};

struct rm_task {
	char *base;
	size_t pg, len;
	int fd;
	void *unmapped, *hole;    /* for the illegal calls */
	void *resv;               /* thread mode: where they point */
	uint32_t rng;
	uint16_t order[REMAP_PAGES];
};

/* The error for a failed mlock: the limit, and what this needs. */
static int rm_mlock_fail(struct cgs_task *t, int err, size_t pg)
{
	unsigned per = t->ctx->threads ? t->ctx->nr_tasks : 1;
	size_t need = pg * per;
	struct rlimit rl;
	char lim[48] = "unlimited";

	if (err != -ENOMEM && err != -EPERM)
		return cgs_task_fail(t, err, "mlock of one page");
	if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		snprintf(lim, sizeof(lim), "%llu bytes", (unsigned long long)rl.rlim_cur);
	return cgs_task_fail(t, err,
			     "mlock failed: RLIMIT_MEMLOCK is %s; remap locks one %zu-byte page at a time per task, so it needs %zu bytes per process (%u task(s)): raise it (ulimit -l %zu) or run with CAP_IPC_LOCK",
			     lim, pg, need, per, (need + 1023) / 1024);
}

/*
 * stress-ng's illegal-call addresses: an unmapped page, and the hole just
 * after a live page. In thread mode other tasks map memory in the same
 * address space, so the holes are carved in a private PROT_NONE mapping
 * of our own instead: the calls still fail (EINVAL), and can never remap
 * another task's pages.
 */
static int rm_holes(struct cgs_task *t, struct rm_task *s)
{
	int flags = MAP_ANONYMOUS | (t->ctx->threads ? MAP_PRIVATE : MAP_SHARED);
	int prot = t->ctx->threads ? PROT_NONE : PROT_READ | PROT_WRITE;
	char *a = mmap(NULL, 3 * s->pg, prot, flags, -1, 0);

	if (a == MAP_FAILED)
		return cgs_task_fail(t, -errno, "mapping the illegal-call pages");
	s->unmapped = a;
	s->hole = a + 2 * s->pg;
	if (t->ctx->threads) {
		s->resv = a;
		return 0;
	}
	/* process mode: unmap page 0 and page 2, keep page 1 live */
	munmap(a, s->pg);
	munmap(a + 2 * s->pg, s->pg);
	s->resv = a + s->pg;
	return 0;
}

static void rm_teardown(struct cgs_task *t)
{
	struct rm_task *s = t->priv;

	if (!s)
		return;
	if (s->base)
		munmap(s->base, s->len);
	if (s->resv)
		munmap(s->resv, t->ctx->threads ? 3 * s->pg : s->pg);
	if (s->fd >= 0)
		close(s->fd);
	free(s);
	t->priv = NULL;
}

static int rm_setup(struct cgs_task *t)
{
	const struct rm_opts *o = t->ctx->opts;
	struct rm_task *s = calloc(1, sizeof(*s));
	const char *call = "";
	int rc;

	if (!s)
		return -ENOMEM;
	t->priv = s;
	s->fd = -1;
	s->pg = (size_t)sysconf(_SC_PAGESIZE);
	s->len = REMAP_PAGES * s->pg;
	s->rng = 2463534242u ^ ((t->nr + 1) * 2654435761u);
	if (o->backing == RM_FILE) {
		s->fd = cgs_task_tmpfile(t, (int64_t)s->len);
		rc = s->fd;
		if (rc < 0)
			goto fail;
	}
	s->base = mmap(NULL, s->len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | (s->fd < 0 ? MAP_ANONYMOUS : 0), s->fd, 0);
	if (s->base == MAP_FAILED) {
		s->base = NULL;
		rc = cgs_task_fail(t, -errno, "mapping %d pages MAP_SHARED", REMAP_PAGES);
		goto fail;
	}
	remap_tag(s->base, s->pg, REMAP_PAGES);
	/* page 0 onto itself: says whether the kernel has the call at all */
	rc = remap_page(s->base, s->pg, 0, &call);
	if (rc == -ENOSYS)
		rc = cgs_task_fail(t, rc, "remap_file_pages() is not in this kernel");
	else if (rc && !strcmp(call, "mlock"))
		rc = rm_mlock_fail(t, rc, s->pg);
	else if (rc)
		rc = cgs_task_fail(t, rc, "%s of a page of the %s mapping", call,
				   rm_backings[o->backing]);
	if (!rc)
		rc = rm_holes(t, s);
	if (!rc)
		return 0;
fail:
	rm_teardown(t);
	return rc;
}

/* stress-ng's 6 illegal calls per bogo-op; they fail, results ignored. */
static void rm_illegal(struct rm_task *s)
{
	void *addr[2] = { s->unmapped, s->hole };

	for (int k = 0; k < 2; k++) {
		(void)!remap_file_pages(addr[k], s->pg, 0, 0, 0);
		(void)!remap_file_pages(addr[k], s->pg, 0, 0, ~0);
		(void)!remap_file_pages(addr[k], s->pg, ~0, s->order[0], 0);
	}
}

static int rm_loop(struct cgs_task *t)
{
	struct rm_task *s = t->priv;

	while (!cgs_stop(t)) {
		for (int pass = 0; pass < REMAP_NPASSES; pass++) {
			const char *call = "";
			size_t bad;
			uint16_t got;
			int rc;

			remap_order(pass, s->order, REMAP_PAGES, &s->rng);
			for (size_t i = 0; i < REMAP_PAGES; i++) {
				rc = remap_page(s->base + i * s->pg, s->pg, s->order[i], &call);
				if (rc && !strcmp(call, "mlock"))
					return rm_mlock_fail(t, rc, s->pg);
				if (rc)
					return cgs_task_fail(t, rc, "%s pass: %s of page %zu to %u",
							     remap_pass_names[pass], call, i,
							     s->order[i]);
				cgs_add(t, 1);
			}
			if (remap_verify(s->base, s->pg, s->order, REMAP_PAGES, &bad, &got))
				return cgs_task_fail(t, -EIO,
						     "verification after the %s pass: page %zu holds the data of page %u, not %u",
						     remap_pass_names[pass], bad, got, s->order[bad]);
			cgs_aux_add(t, 0, 1);
			if (cgs_stop(t))
				return 0;
		}
		rm_illegal(s);
	}
	return 0;
}

static const struct cgs_opt rm_optdefs[] = {
	OPT_ENUM("remap-backing", 0, struct rm_opts, backing, .def = "file",
		.choices = rm_backings,
		.help = "map a file in --tmpdir (shmem on a tmpfs), or MAP_ANONYMOUS shmem as stress-ng"),
};

static const struct cgs_aux rm_aux[] = {
	{ "passes", "bogo-ops/s", 0.25 },   /* 4 passes = 1 stress-ng bogo-op */
};

static uint64_t rm_tmpdir_bytes(const void *opts)
{
	const struct rm_opts *o = opts;

	return o->backing == RM_FILE ? REMAP_PAGES * (uint64_t)sysconf(_SC_PAGESIZE) : 0;
}

/* remap_file_pages(2): deprecated since 3.16 and emulated, but a kernel
 * may lack it (ENOSYS); an empty call tells, as EINVAL when it is there. */
static int rm_supported(const void *opts, char *why, size_t len)
{
	(void)opts;
	if (remap_file_pages(NULL, 0, 0, 0, 0) && errno == ENOSYS) {
		snprintf(why, len, "remap_file_pages() is not in this kernel");
		return -EOPNOTSUPP;
	}
	return 0;
}

const struct cgs_workload remap_workload = {
	.name = "remap",
	.desc = "stress-ng remap: mlock, remap_file_pages, munlock of 512 pages",
	.unit = "page remapped",
	.aux = rm_aux,
	.naux = ARRAY_SIZE(rm_aux),
	.opts = rm_optdefs,
	.nopts = ARRAY_SIZE(rm_optdefs),
	.opts_size = sizeof(struct rm_opts),
	.setup = rm_setup,
	.loop = rm_loop,
	.teardown = rm_teardown,
	.tmpdir_bytes = rm_tmpdir_bytes,
	.supported = rm_supported,
};
