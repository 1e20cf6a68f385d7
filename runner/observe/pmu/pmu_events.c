/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pmu_events.c - the events of -e: names in libpfm4 syntax, encoded by
 * pfm_get_os_event_encoding (there is no table of encodings here), then
 * opened once on the runner itself so that what the kernel refuses is
 * known before anything runs and reported "<not supported>" with the
 * kernel's reason, as perf stat does. Also the user-only fallback under
 * perf_event_paranoid, the open-file limit, and `cgscale events`.
 */
#include <errno.h>
#include <fnmatch.h>
#include <linux/perf_event.h>   /* before libpfm4's own copy */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <perfmon/pfmlib_perf_event.h>

#include "runner/observe/pmu/pmu.h"
#include "lib/util.h"

/* -e default: what LKP's perf-stat lines and perf stat's default show. */
static const char *const pmu_default_events[] = {
	"cycles", "instructions", "cache-references", "cache-misses",
	"branch-misses", "dTLB-load-misses", "page-faults",
	"context-switches", "cpu-migrations", NULL,
};

/* Encode @name for perf_event_open; a libpfm4 PFM_ERR_* code. */
static int encode(const char *name, int plm, struct perf_event_attr *attr,
		  char **fstr)
{
	pfm_perf_encode_arg_t arg = { .attr = attr, .fstr = fstr,
				      .size = sizeof(arg) };
	int rc;

	memset(attr, 0, sizeof(*attr));
	rc = pfm_get_os_event_encoding(name, plm, PFM_OS_PERF_EVENT_EXT, &arg);
	attr->size = sizeof(*attr);
	return rc;
}

static int add_event(struct pmu_set *s, const char *name, char *err,
		     size_t errlen)
{
	struct pmu_event *ev;
	struct perf_event_attr user;
	char *fstr = NULL;
	int rc;

	for (unsigned i = 0; i < s->n; i++)
		if (!strcmp(s->ev[i].name, name))
			return 0;
	if (s->n == PMU_MAX_EVENTS)
		return cgs_errf(err, errlen, -EINVAL,
			        "-e: more than %d events; count fewer", PMU_MAX_EVENTS);
	ev = &s->ev[s->n];
	rc = encode(name, PFM_PLM0 | PFM_PLM3, &ev->attr, &fstr);
	if (rc != PFM_SUCCESS) {
		free(fstr);
		return cgs_errf(err, errlen, -EINVAL,
			        "-e %s: %s (libpfm4); see 'cgscale events [PATTERN]' for the events known here",
			        name, pfm_strerror(rc));
	}
	/* :u/:k chose the levels when the default plm changes nothing */
	if (encode(name, PFM_PLM3, &user, NULL) == PFM_SUCCESS)
		ev->plm_given = user.exclude_kernel == ev->attr.exclude_kernel &&
				user.exclude_user == ev->attr.exclude_user;
	ev->name = strdup(name);
	ev->pfm = fstr;
	if (!ev->name || !ev->pfm) {
		free(ev->name);
		free(ev->pfm);
		memset(ev, 0, sizeof(*ev));
		return cgs_errf(err, errlen, -ENOMEM, "-e: out of memory");
	}
	s->n++;
	return 0;
}

int pmu_set_parse(struct pmu_set *s, const char *list, char *err, size_t errlen)
{
	char *copy = NULL, *save = NULL, *tok;
	int rc = 0;

	if (!list || !strcmp(list, "none"))
		return 0;
	if (pfm_initialize() != PFM_SUCCESS)
		return cgs_errf(err, errlen, -EIO, "-e: libpfm4 does not initialize here");
	copy = strdup(list);
	s->ev = calloc(PMU_MAX_EVENTS, sizeof(*s->ev));
	if (!copy || !s->ev) {
		rc = cgs_errf(err, errlen, -ENOMEM, "-e: out of memory");
		goto out;
	}
	if (!*list || list[strlen(list) - 1] == ',' || *list == ',' || strstr(list, ",,")) {
		rc = cgs_errf(err, errlen, -EINVAL,
			      "-e '%s': an empty event name; separate names with single commas",
			      list);
		goto out;
	}
	for (tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		char *end = tok + strlen(tok);

		while (*tok == ' ')
			tok++;
		while (end > tok && end[-1] == ' ')
			*--end = 0;
		if (!*tok) {
			rc = cgs_errf(err, errlen, -EINVAL,
				      "-e '%s': an empty event name; separate names with single commas",
				      list);
		} else if (!strcmp(tok, "none")) {
			rc = cgs_errf(err, errlen, -EINVAL,
				      "-e: 'none' turns counting off and stands alone; drop it or the other names");
		} else if (!strcmp(tok, "default")) {
			for (int i = 0; !rc && pmu_default_events[i]; i++)
				rc = add_event(s, pmu_default_events[i], err, errlen);
		} else {
			rc = add_event(s, tok, err, errlen);
		}
	}
out:
	free(copy);
	return rc;
}

static int perf_open(struct perf_event_attr *a, pid_t pid, int group)
{
	return (int)syscall(SYS_perf_event_open, a, pid, -1, group,
			    PERF_FLAG_FD_CLOEXEC);
}

/* Open @attr on ourselves, disabled, in @group (or alone). fd or -errno. */
static int open_self(const struct perf_event_attr *attr, int group)
{
	struct perf_event_attr a = *attr;
	int fd;

	a.size = sizeof(a);
	a.disabled = group < 0;
	fd = perf_open(&a, 0, group);
	return fd < 0 ? -errno : fd;
}

/* The scheduler's software events happen in kernel mode only: counted
 * with exclude_kernel they always read 0 (measured: see the probe notes). */
static bool kernel_side(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_CONTEXT_SWITCHES ||
		a->config == PERF_COUNT_SW_CPU_MIGRATIONS ||
		a->config == PERF_COUNT_SW_CGROUP_SWITCHES);
}

static int paranoid(void)
{
	char buf[32];

	if (cgs_read_line("/proc/sys/kernel/perf_event_paranoid", buf, sizeof(buf)))
		return 99;
	return atoi(buf);
}

/* The kernel's reason, as "Message (ENAME): what it means here". */
static char *reason_of(int rc)
{
	const char *what = "";

	switch (-rc) {
	case ENOENT:
		what = ": the kernel has no PMU for this event here";
		break;
	case EOPNOTSUPP:
		what = ": the PMU cannot count this event per task";
		break;
	case EINVAL:
		what = ": the kernel rejects this encoding (a system-wide or uncore event cannot count per task)";
		break;
	case EACCES:
	case EPERM:
		return cgs_fmt("%s (%s): perf_event_paranoid=%d forbids it for uid %u; count user mode only (:u), run as root, or lower kernel.perf_event_paranoid",
			       strerror(-rc), strerrorname_np(-rc), paranoid(),
			       (unsigned)geteuid());
	}
	return cgs_fmt("%s (%s)%s", strerror(-rc), strerrorname_np(-rc), what);
}

/* Re-encode @ev for user mode only and open it on ourselves; keep the
 * new encoding when that works. fd or -errno. */
static int try_user_only(struct pmu_event *ev)
{
	struct perf_event_attr a;
	char *fstr = NULL;
	int fd;

	if (encode(ev->name, PFM_PLM3, &a, &fstr) != PFM_SUCCESS || !fstr) {
		free(fstr);
		return -EACCES;
	}
	fd = open_self(&a, -1);
	if (fd < 0) {
		free(fstr);
		return fd;
	}
	free(ev->pfm);
	ev->pfm = fstr;
	ev->attr = a;
	ev->user_only = true;
	return fd;
}

static void probe_one(struct pmu_event *ev, unsigned *fallbacks)
{
	int rc = open_self(&ev->attr, -1);

	if ((rc == -EACCES || rc == -EPERM) && !ev->plm_given &&
	    !ev->attr.exclude_kernel) {
		int urc = try_user_only(ev);

		/* user mode alone may fail for a deeper reason (no PMU) */
		if (urc >= 0 || (urc != -EACCES && urc != -EPERM))
			rc = urc;
	}
	if (rc >= 0) {
		close(rc);
		rc = 0;
		if (ev->attr.exclude_kernel && kernel_side(&ev->attr)) {
			ev->err = -EOPNOTSUPP;
			ev->reason = ev->user_only
				? cgs_fmt("counts in kernel mode only, and perf_event_paranoid=%d forbids kernel counting for uid %u; run as root or lower kernel.perf_event_paranoid",
					  paranoid(), (unsigned)geteuid())
				: cgs_fmt("counts in kernel mode only: counted user-only (:u) it always reads 0");
			return;
		}
		*fallbacks += ev->user_only;
	}
	ev->err = rc;
	if (rc)
		ev->reason = reason_of(rc);
}

int pmu_set_probe(struct pmu_set *s, char *err, size_t errlen)
{
	unsigned fallbacks = 0;
	int leader = -1;

	for (unsigned i = 0; i < s->n; i++)
		probe_one(&s->ev[i], &fallbacks);
	/* all of them in one group, as each task will have them */
	for (unsigned i = 0; i < s->n; i++) {
		struct pmu_event *ev = &s->ev[i];
		int fd;

		if (ev->err)
			continue;
		fd = open_self(&ev->attr, leader);
		if (fd < 0) {
			ev->err = fd;
			ev->reason = cgs_fmt("%s (%s): does not fit in one counter group with the events before it; the PMU has too few counters, count fewer hardware events",
					     strerror(-fd), strerrorname_np(-fd));
		} else if (leader < 0) {
			leader = fd;
		} else {
			close(fd);
		}
	}
	if (leader >= 0)
		close(leader);
	if (fallbacks)
		s->note = cgs_fmt("perf_event_paranoid=%d forbids kernel-mode counting for uid %u: %u event(s) count user mode only; run as root or lower kernel.perf_event_paranoid to count the kernel too",
				  paranoid(), (unsigned)geteuid(), fallbacks);
	for (unsigned i = 0; s->require && i < s->n; i++)
		if (s->ev[i].err)
			return cgs_errf(err, errlen, -EOPNOTSUPP,
				        "-e %s: <not supported> here: %s; drop it from -e, or leave out --require-events",
				        s->ev[i].name, s->ev[i].reason ? s->ev[i].reason : "");
	return 0;
}

void pmu_set_report(const struct pmu_set *s)
{
	for (unsigned i = 0; i < s->n; i++)
		if (s->ev[i].err)
			cgs_warn("-e %s: <not supported>: %s", s->ev[i].name,
				 s->ev[i].reason ? s->ev[i].reason : "");
	if (s->note)
		cgs_warn("-e: %s", s->note);
}

unsigned pmu_set_counted(const struct pmu_set *s)
{
	unsigned n = 0;

	for (unsigned i = 0; i < s->n; i++)
		n += !s->ev[i].err;
	return n;
}

int pmu_set_nofile(const struct pmu_set *s, unsigned max_tasks, char *err,
		   size_t errlen)
{
	unsigned c = pmu_set_counted(s);
	/* headroom for the runner's own files: std*, signalfd, /proc/stat */
	rlim_t need = (rlim_t)max_tasks * c + 64;
	struct rlimit rl;

	if (!c || getrlimit(RLIMIT_NOFILE, &rl))
		return 0;
	if (rl.rlim_cur >= need)
		return 0;
	if (rl.rlim_max >= need) {
		struct rlimit up = { need, rl.rlim_max };

		if (!setrlimit(RLIMIT_NOFILE, &up))
			return 0;
	} else {
		struct rlimit up = { need, need };   /* needs CAP_SYS_RESOURCE */

		if (!setrlimit(RLIMIT_NOFILE, &up))
			return 0;
	}
	return cgs_errf(err, errlen, -EMFILE,
		        "-e: %u tasks x %u events need %llu open files, but RLIMIT_NOFILE allows %llu (hard limit %llu); raise it (ulimit -n %llu) or count fewer events or tasks",
		        max_tasks, c, (unsigned long long)need,
		        (unsigned long long)rl.rlim_cur,
		        (unsigned long long)rl.rlim_max, (unsigned long long)need);
}

void pmu_set_free(struct pmu_set *s)
{
	for (unsigned i = 0; s->ev && i < s->n; i++) {
		free(s->ev[i].name);
		free(s->ev[i].pfm);
		free(s->ev[i].reason);
	}
	if (s->ev)
		pfm_terminate();
	free(s->ev);
	free(s->note);
	s->ev = NULL;
	s->note = NULL;
	s->n = 0;
}

int pmu_set_find(const struct pmu_set *s, uint32_t type, uint64_t config,
		 const struct pmu_event *like)
{
	for (unsigned i = 0; i < s->n; i++) {
		const struct perf_event_attr *a = &s->ev[i].attr;

		if (s->ev[i].err || a->type != type || a->config != config)
			continue;
		if (like && (a->exclude_user != like->attr.exclude_user ||
			     a->exclude_kernel != like->attr.exclude_kernel))
			continue;
		return (int)i;
	}
	return -1;
}

/* ---- cgscale events ---- */

static const char *const pmu_type_names[] = {
	[PFM_PMU_TYPE_UNKNOWN] = "unknown type",
	[PFM_PMU_TYPE_CORE] = "core",
	[PFM_PMU_TYPE_UNCORE] = "uncore",
	[PFM_PMU_TYPE_OS_GENERIC] = "OS generic",
};

static bool matches(const char *pattern, const char *full)
{
	if (!pattern)
		return true;
	if (strpbrk(pattern, "*?["))
		return !fnmatch(pattern, full, FNM_CASEFOLD);
	return strcasestr(full, pattern) != NULL;
}

/* Whether the kernel counts @full for this user, per task, in words. */
static void counts_here(const char *full, char *buf, size_t len)
{
	struct perf_event_attr a;
	int fd;

	if (encode(full, PFM_PLM0 | PFM_PLM3, &a, NULL) != PFM_SUCCESS) {
		snprintf(buf, len, "-");
		return;
	}
	fd = open_self(&a, -1);
	if (fd == -EACCES && encode(full, PFM_PLM3, &a, NULL) == PFM_SUCCESS &&
	    (fd = open_self(&a, -1)) >= 0) {
		close(fd);
		snprintf(buf, len, "user only");
		return;
	}
	if (fd >= 0) {
		close(fd);
		snprintf(buf, len, "yes");
	} else {
		snprintf(buf, len, "<not supported> %s", strerrorname_np(-fd));
	}
}

static void list_events(const pfm_pmu_info_t *pi, const char *pattern,
			unsigned *shown)
{
	for (int idx = pi->first_event; idx != -1; idx = pfm_get_event_next(idx)) {
		pfm_event_info_t ei = { .size = sizeof(ei) };
		char full[512], here[64];

		if (pfm_get_event_info(idx, PFM_OS_PERF_EVENT_EXT, &ei) != PFM_SUCCESS)
			continue;
		snprintf(full, sizeof(full), "%s::%s", pi->name, ei.name);
		if (!matches(pattern, full))
			continue;
		counts_here(full, here, sizeof(here));
		printf("  %-44s %-24s %s\n", full, here, ei.desc ? ei.desc : "");
		for (int k = 0; k < ei.nattrs; k++) {
			pfm_event_attr_info_t ai = { .size = sizeof(ai) };

			if (pfm_get_event_attr_info(idx, k, PFM_OS_PERF_EVENT_EXT, &ai) ||
			    ai.type != PFM_ATTR_UMASK)
				continue;
			printf("      :%-39s %-24s %s%s\n", ai.name, "",
			       ai.desc ? ai.desc : "", ai.is_dfl ? " (default)" : "");
		}
		(*shown)++;
	}
}

int pmu_list_events(const char *pattern)
{
	unsigned shown = 0, cores = 0;
	pfm_pmu_t p;

	if (pfm_initialize() != PFM_SUCCESS) {
		cgs_err("libpfm4 does not initialize here");
		return 1;
	}
	printf("PMUs libpfm4 detects on this machine:\n");
	pfm_for_all_pmus(p) {
		pfm_pmu_info_t pi = { .size = sizeof(pi) };

		if (pfm_get_pmu_info(p, &pi) != PFM_SUCCESS || !pi.is_present)
			continue;
		cores += pi.type == PFM_PMU_TYPE_CORE;
		printf("  %-12s %s (%s, %d event%s)\n", pi.name, pi.desc,
		       pi.type < PFM_PMU_TYPE_MAX ? pmu_type_names[pi.type] : "?",
		       pi.nevents, pi.nevents == 1 ? "" : "s");
	}
	if (!cores)
		printf("  (no core PMU: hardware events exist here only as the generic perf:: names,\n"
		       "   and the kernel counts them only if it has a PMU driver for this CPU)\n");
	printf("\nEvents%s%s%s (name, counts here per task, description):\n",
	       pattern ? " matching '" : "", pattern ? pattern : "", pattern ? "'" : "");
	pfm_for_all_pmus(p) {
		pfm_pmu_info_t pi = { .size = sizeof(pi) };

		if (pfm_get_pmu_info(p, &pi) == PFM_SUCCESS && pi.is_present)
			list_events(&pi, pattern, &shown);
	}
	if (!shown)
		printf("  none\n");
	pfm_terminate();
	return 0;
}
