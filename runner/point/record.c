/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record.c - copy the tasks' info records into the point and
 * decide its status from theirs; say in its harness section in which
 * address space they ran.
 */
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "runner/point/point_int.h"
#include "runner/point/task.h"

static char *xstrdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* harness.task_process: "plain" when every group's tasks ran in the
 * exec'ed image, "runner" when none did (with why), the image's path and
 * the most mappings a group's tasks started with. */
static void record_process(const struct cgs_point_spec *spec,
			   const struct cgs_shared *sh, struct res_point *p)
{
	const struct cgs_group_rec *g = cgs_sh_groups(sh);
	struct json_object *o, *h = NULL;
	const char *why = NULL;
	unsigned plain = 0;
	int maps = 0;

	for (unsigned i = 0; i < sh->ngroups; i++) {
		plain += atomic_load(&g[i].plain) ? 1 : 0;
		maps = g[i].maps > maps ? g[i].maps : maps;
		if (!why && !atomic_load(&g[i].plain) && g[i].why[0])
			why = g[i].why;
	}
	if ((!p->extra && !(p->extra = json_object_new_object())) ||
	    !(o = json_object_new_object()))
		return;
	if (!json_object_object_get_ex(p->extra, "harness", &h) &&
	    (!(h = json_object_new_object()) ||
	     json_object_object_add(p->extra, "harness", h))) {
		json_object_put(o);
		return;
	}
	json_object_object_add(o, "image", json_object_new_string(
		plain == sh->ngroups ? "plain" : plain ? "mixed" : "runner"));
	if (plain && spec->image)
		json_object_object_add(o, "exe", json_object_new_string(spec->image));
	if (maps)
		json_object_object_add(o, "mappings", json_object_new_int(maps));
	if (why)
		json_object_object_add(o, "why", json_object_new_string(why));
	json_object_object_add(h, "task_process", o);
}

/* Copy the tasks' info records into the point and decide its status. */
void cgs_point_record_tasks(const struct cgs_point_spec *spec,
			 const struct cgs_shared *sh, struct res_point *p)
{
	char *first = NULL;
	unsigned failed = 0, skipped = 0;

	for (unsigned i = 0; i < sh->ntasks; i++) {
		const struct cgs_task_info *in = &cgs_sh_info(sh)[i];
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
	record_process(spec, sh, p);
}

