/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record.c - copy the tasks' info records into the point and
 * decide its status from theirs.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "runner/point/point_int.h"
#include "runner/point/task.h"

static char *xstrdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* Copy the tasks' info records into the point and decide its status. */
void cgs_point_record_tasks(const struct cgs_point_spec *spec,
			 const struct cgs_shared *sh, struct res_point *p)
{
	char *first = NULL;
	unsigned failed = 0, skipped = 0;

	for (unsigned i = 0; i < sh->ntasks; i++) {
		const struct cgs_task_info *in = &sh->info[i];
		struct res_task *t = &p->task[i];
		hwloc_const_bitmap_t place = cgs_place_of(spec->places, i);
		int state = atomic_load(&in->state);

		t->pid = in->pid;
		t->tid = in->tid;
		t->cpu_start = in->cpu_start;
		t->cpu_end = in->cpu_end;
		t->migrated = in->cpu_start >= 0 && in->cpu_end >= 0 &&
			      in->cpu_start != in->cpu_end;
		t->ops = in->ops_final;
		memcpy(t->aux, in->aux_final, sizeof(t->aux));
		t->minflt = in->minflt;
		t->majflt = in->majflt;
		if (place) {
			char list[256];

			hwloc_bitmap_list_snprintf(list, sizeof(list), place);
			t->cpuset = strdup(list);
		}
		if (state == CGS_T_DONE) {
			t->status = RES_OK;
			continue;
		}
		if (state == CGS_T_SKIPPED) {
			skipped++;
			t->status = RES_SKIPPED;
		} else if (state == CGS_T_FAILED) {
			failed++;
			t->status = RES_FAILED;
		} else {
			/* never got to record an outcome: stopped early */
			t->status = RES_STOPPED;
		}
		t->error = xstrdup(in->msg[0] ? in->msg : NULL);
		if (!first && (state == CGS_T_FAILED || state == CGS_T_SKIPPED))
			first = cgs_fmt("task %u (pid %d): %s", i, in->pid,
				    in->msg[0] ? in->msg : "failed");
	}
	if (failed) {
		p->status = RES_FAILED;
		p->reason = failed > 1 ? cgs_fmt("%s (and %u more)", first, failed - 1)
				       : xstrdup(first);
	} else if (skipped) {
		p->status = RES_SKIPPED;
		p->reason = xstrdup(first);
	}
	free(first);
}

