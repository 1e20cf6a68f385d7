/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile.h - `--profile[=HZ]`: a sampled profile of the measured tasks
 * in the measured window. One sampling event per task (cycles where the
 * PMU has it, else the software cpu-clock), opened on the same targets as
 * the perf counters while the tasks wait at the gate, enabled when the
 * window opens and disabled at its last sample. The runner drains each
 * task's ring buffer at every sample instant; the tasks run no code of
 * ours. Kernel frames resolve through /proc/kallsyms, user frames of
 * cgscale's own binary through its symbol table (libelf), others are
 * "[user]". The point's "profile" section holds the samples (taken, lost,
 * throttled), per-symbol self/children counts and the folded stacks,
 * bounded. See results/SCHEMA.md.
 */
#ifndef CGS_PROFILE_H
#define CGS_PROFILE_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/symtab.h"
#include "results/model/result.h"

/* The default rate: 997 Hz cost page_fault1 3-4% of its CPU time per op
 * (issue 28), and the cost grows with the rate; 397 Hz is meant to stay
 * below 2% (bench/profile-overhead measures it). A prime, so that it does
 * not beat with the tick. */
#define CGS_PROFILE_DEFAULT_HZ 397
#define CGS_PROFILE_SHARE 0.99     /* folded stacks kept: this share ... */
#define CGS_PROFILE_MAX_STACKS 2000 /* ... and at most this many */
#define CGS_PROFILE_SYM_MIN 0.001  /* symbols kept: children >= 0.1% */

/* The profile of one run: what is sampled and how names resolve. */
struct cgs_profile_set {
	bool on;
	int64_t hz;
	struct perf_event_attr attr;
	const char *event;          /* "cycles" or "cpu-clock" */
	bool user_only;             /* kernel samples not allowed here */
	char *note;                 /* why, said once */
	struct cgs_symtab ksyms;    /* kallsyms; hidden: raw addresses */
	struct cgs_symtab usyms;    /* the tasks' functions: their program's,
				     * libraries' and vDSO's, of this point */
	uint64_t vdso_lo, vdso_hi;  /* the vDSO's image: an address there
				     * that no symbol covers is "[vdso]" */
	size_t pages;               /* ring data pages per task */
};

/*
 * Check the rate, pick the event, learn whether kernel samples are
 * allowed, load the symbols. @arg is the value of --profile: NULL off,
 * "" the default rate, else the rate in Hz. -EINVAL with @err for a bad
 * or refused rate (naming perf_event_max_sample_rate), -EACCES when
 * nothing can be sampled, else 0. Prints nothing.
 */
int cgs_profile_setup(struct cgs_profile_set *ps, const char *arg,
		      int64_t interval_ns, char *err, size_t errlen);
/* Once, in the process that runs the points (after any re-exec): say
 * what is not allowed, load the symbols, warn when they are hidden. */
void cgs_profile_prepare(struct cgs_profile_set *ps);
/* The user symbols of the address space of task process @pid (the plain
 * image's or a fork of cgscale's), from its /proc/PID/maps: each point's
 * tasks are a new exec, at addresses of their own when ASLR is on. 0, or
 * -errno (-ENOENT: none read; frames then show as [user]). */
int cgs_profile_task_symbols(struct cgs_profile_set *ps, pid_t pid);
void cgs_profile_set_free(struct cgs_profile_set *ps);

/* The observer of one point is profile.c's profile_observer (observer.h). */

/* The name of a kernel or user frame at @ip: its symbol; else a kernel
 * one's address in @buf, "[vdso]" in the vDSO (whose static helpers have
 * no symbol, as perf names them) and "[user]" elsewhere. */
const char *cgs_profile_frame_name(const struct cgs_profile_set *ps, uint64_t ip,
				   bool kernel, char *buf, size_t len);

/* ---- profile_out.c ---- */

/* What one point collected. */
struct cgs_profile_counts {
	uint64_t received, lost, throttled, kernel, user;
};

struct cgs_stacks;
/* The "profile" section from the stacks and counts; @user names the
 * frames that are user code. */
struct json_object *cgs_profile_json(const struct cgs_profile_set *ps,
				     const struct cgs_profile_counts *c,
				     struct cgs_stacks *stacks,
				     const struct cgs_stacks *user,
				     const char *failure);

/* The table lines under a (test, mode, tasks, layout) row: the top kernel
 * functions by self %, kernel vs user share, samples lost/throttled. */
void cgs_profile_print_rows(const struct res_file *f, const char *test,
			    const char *mode, unsigned tasks,
			    const char *layout, FILE *out);

#endif
