/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * causes.c - see causes.h. The OOM cause comes from the memory events the
 * cgroup module already put in extra.cgroup (flags "oom_kill +N in PATH",
 * knobs with their read-back limit); the SIGBUS one from --tmpdir's free
 * space now.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include <json-c/json.h>

#include "lib/util.h"
#include "results/model/result.h"
#include "tests/workload.h"
#include "runner/run/causes.h"

#define MIB (1024.0 * 1024.0)

static int64_t tmpdir_free(const char *dir)
{
	struct statvfs st;

	if (statvfs(dir, &st))
		return -1;
	return (int64_t)st.f_bavail * (int64_t)st.f_frsize;
}

int cgs_tmpdir_check(const char *dir, const struct cgs_workload *const *tests,
		     const void *const *opts, unsigned n, unsigned most,
		     char *err, size_t errlen)
{
	int64_t avail = tmpdir_free(dir);

	if (avail < 0)
		return 0;     /* cannot tell: the run will say if it fills */
	for (unsigned t = 0; t < n; t++) {
		const struct cgs_workload *w = tests[t];
		double each = w->tmpdir_bytes ? (double)w->tmpdir_bytes(opts[t]) : 0;

		if (each * most > (double)avail)
			return cgs_errf(err, errlen, -ENOSPC,
					"--tmpdir %s has %.0f MiB free; %s at %u tasks needs %.0f MiB (%.1f MiB a task): free some space, choose another --tmpdir or run fewer tasks",
					dir, avail / MIB, w->name, most, each * most / MIB,
					each / MIB);
	}
	return 0;
}

/* The memory limit set on the cgroup at @level, as read back, and its
 * knob in @knob. */
static const char *limit_at(struct json_object *cg, int level, const char **knob)
{
	struct json_object *knobs, *k, *v, *rb;

	if (!json_object_object_get_ex(cg, "knobs", &knobs))
		return NULL;
	for (size_t i = 0; i < json_object_array_length(knobs); i++) {
		k = json_object_array_get_idx(knobs, i);
		if (!json_object_object_get_ex(k, "level", &v) ||
		    json_object_get_int(v) != level ||
		    !json_object_object_get_ex(k, "knob", &v) ||
		    (strcmp(json_object_get_string(v), "memory.limit_in_bytes") &&
		     strcmp(json_object_get_string(v), "memory.max")))
			continue;
		*knob = json_object_get_string(v);
		if (json_object_object_get_ex(k, "read_back", &rb) &&
		    json_object_array_length(rb))
			return json_object_get_string(json_object_array_get_idx(rb, 0));
		if (json_object_object_get_ex(k, "value", &v))
			return json_object_get_string(v);
	}
	return NULL;
}

/* The level of the cgroup @path in extra.cgroup.events, or -1. */
static int level_of(struct json_object *cg, const char *path)
{
	struct json_object *ev, *e, *v;

	if (!json_object_object_get_ex(cg, "events", &ev))
		return -1;
	for (size_t i = 0; i < json_object_array_length(ev); i++) {
		e = json_object_array_get_idx(ev, i);
		if (json_object_object_get_ex(e, "path", &v) &&
		    !strcmp(json_object_get_string(v), path) &&
		    json_object_object_get_ex(e, "level", &v))
			return json_object_get_int(v);
	}
	return -1;
}

/* From the kernel's own count (extra.cgroup's flag "oom_kill +N in
 * PATH", the delta of memory.events or memory.oom_control over the
 * point), never from the limit's value or spelling. */
static char *oom_cause(struct res_point *p)
{
	struct json_object *cg, *flags;
	char fix[128];

	if (!p->extra || !json_object_object_get_ex(p->extra, "cgroup", &cg) ||
	    !json_object_object_get_ex(cg, "flags", &flags))
		return NULL;
	for (size_t i = 0; i < json_object_array_length(flags); i++) {
		const char *f = json_object_get_string(json_object_array_get_idx(flags, i));
		const char *in = f ? strstr(f, " in ") : NULL;
		const char *lim, *knob = NULL;
		int level;

		if (!f || strncmp(f, "oom_kill +", 10) || !in)
			continue;
		level = level_of(cg, in + 4);
		lim = limit_at(cg, level, &knob);
		if (lim)
			snprintf(fix, sizeof(fix), "raise --cgroup-set %d:%s", level, knob);
		else
			snprintf(fix, sizeof(fix), "raise the memory limit set above it");
		return cgs_fmt("OOM-killed in %s (memory limit %s%s): the kernel's OOM killer counted %lld kill(s) there (oom_kill); %s",
			       in + 4, lim ? lim : "set above it",
			       lim && strspn(lim, "0123456789") == strlen(lim) ? " bytes" : "",
			       strtoll(f + 10, NULL, 10), fix);
	}
	return NULL;
}

void cgs_explain_failure(const char *tmpdir, struct res_point *p)
{
	char *cause = NULL, *both;

	if (p->status != RES_FAILED || !p->reason)
		return;
	if (strstr(p->reason, "signal 9 "))
		cause = oom_cause(p);
	else if (strstr(p->reason, "signal 7 ")) {
		int64_t avail = tmpdir_free(tmpdir);

		cause = cgs_fmt("SIGBUS on a file in --tmpdir %s: it filled up (%.0f MiB free now)",
				tmpdir, avail < 0 ? 0 : avail / MIB);
	}
	if (!cause)
		return;
	both = cgs_fmt("%s: %s", cause, p->reason);
	free(cause);
	if (both) {
		free(p->reason);
		p->reason = both;
	}
}
