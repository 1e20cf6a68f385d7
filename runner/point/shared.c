/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shared.c - the memory a point's tasks share with the runner (task.h):
 * one memfd, so that the plain image the workers exec can map it too.
 * The runner fills it before any worker starts: the groups, the CPU mask
 * of each task's place (from hwloc, so the tasks' side needs no hwloc)
 * and what the image needs to rebuild the point.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runner/point/task.h"

#define ALIGN_UP(x, a) (((x) + (a) - 1) & ~(size_t)((a) - 1))

/* Longs in a mask that holds every CPU of every place and is as long as
 * the kernel's (which sched_getaffinity needs: the raw call returns its
 * size); 0: none bound. */
static size_t mask_words(const struct cgs_places *pl)
{
	unsigned long probe[1024];
	long kernel = syscall(SYS_sched_getaffinity, 0, sizeof(probe), probe);
	size_t words;
	int last = -1;

	for (unsigned i = 0; pl && i < pl->n; i++) {
		int l = hwloc_bitmap_last(pl->set[i]);

		if (l > last)
			last = l;
	}
	if (last < 0)
		return 0;
	words = (size_t)last / (8 * sizeof(long)) + 1;
	if (kernel > 0 && (size_t)kernel / sizeof(long) > words)
		words = (size_t)kernel / sizeof(long);
	return words;
}

static void fill_masks(struct cgs_shared *sh, const struct cgs_places *pl)
{
	struct cgs_image_spec *im = cgs_sh_image(sh);
	unsigned long *m = (unsigned long *)((char *)sh + im->masks_off);

	for (unsigned i = 0; im->mask_words && i <= im->nr_tasks; i++) {
		hwloc_const_bitmap_t set = cgs_place_of(pl, i);

		for (size_t k = 0; k < im->mask_words; k++)
			m[i * im->mask_words + k] = hwloc_bitmap_to_ith_ulong(set, (unsigned)k);
	}
}

static void fill_image(struct cgs_shared *sh, const struct cgs_point_tasks *pt)
{
	struct cgs_image_spec *im = cgs_sh_image(sh);

	cgs_image_abi(im->abi, sizeof(im->abi));
	snprintf(im->workload, sizeof(im->workload), "%s", pt->w->name);
	snprintf(im->tmpdir, sizeof(im->tmpdir), "%s", pt->ctx.tmpdir ? pt->ctx.tmpdir : "");
	im->nr_tasks = pt->ctx.nr_tasks;
	im->threads = pt->ctx.threads;
	im->runner = pt->runner;
	if (im->opts_size && pt->ctx.opts)
		memcpy((char *)sh + im->opts_off, pt->ctx.opts, im->opts_size);
	fill_masks(sh, pt->places);
}

static void fill_groups(struct cgs_shared *sh, const struct cgs_group *groups)
{
	struct cgs_group_rec *g = cgs_sh_groups(sh);

	for (unsigned i = 0; i < sh->ngroups; i++) {
		g[i].first = groups ? groups[i].first : 0;
		g[i].n = groups ? groups[i].n : sh->ntasks;
		g[i].stat_file = g[i].stat_target = -1;
	}
}

struct cgs_shared *cgs_shared_map(const struct cgs_point_tasks *pt,
				  const struct cgs_group *groups, unsigned ngroups)
{
	unsigned n = pt->ctx.nr_tasks, ng = ngroups ? ngroups : 1;
	size_t words = mask_words(pt->places), len = ALIGN_UP(sizeof(struct cgs_shared), 256);
	size_t slots = len, info, grp, image, opts, masks;
	struct cgs_shared *sh;
	int fd, err;

	info = len = slots + (size_t)n * sizeof(struct cgs_slot);
	grp = len = ALIGN_UP(info + (size_t)n * sizeof(struct cgs_task_info), 64);
	image = len = ALIGN_UP(grp + ng * sizeof(struct cgs_group_rec), 64);
	opts = len = ALIGN_UP(image + sizeof(struct cgs_image_spec), 64);
	masks = len = ALIGN_UP(opts + pt->w->opts_size, 64);
	len += (n + 1) * words * sizeof(long);
	/* a memfd, shared as anonymous memory is: no file in /tmp, no
	 * writeback faults, and an fd the workers hand to their exec */
	fd = memfd_create("cgscale-tasks", MFD_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (ftruncate(fd, (off_t)len))
		goto fail;
	sh = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (sh == MAP_FAILED)
		goto fail;
	*sh = (struct cgs_shared){ .ntasks = n, .ngroups = ng, .fd = fd,
		.slots_off = slots, .info_off = info, .groups_off = grp,
		.image_off = image, .maplen = len };
	*cgs_sh_image(sh) = (struct cgs_image_spec){ .opts_off = opts,
		.opts_size = pt->w->opts_size, .masks_off = masks, .mask_words = words };
	for (unsigned i = 0; i < n; i++)
		cgs_sh_info(sh)[i].cpu_start = cgs_sh_info(sh)[i].cpu_end = -1;
	fill_groups(sh, ngroups ? groups : NULL);
	fill_image(sh, pt);
	return sh;
fail:
	err = errno;
	close(fd);
	errno = err;
	return NULL;
}

void cgs_shared_unmap(struct cgs_shared *sh)
{
	if (!sh)
		return;
	close(sh->fd);
	munmap(sh, sh->maplen);
}
