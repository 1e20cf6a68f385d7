/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lock_name.c - what to call a contended lock (trace_locks.h). A static
 * lock is named by the kernel object that holds it, when kallsyms lists
 * data symbols (CONFIG_KALLSYMS_ALL; "zone_lock", "contig_page_data+0x40").
 * Any other lock (in a memcg, a zone, an mm) is named by the function that
 * contended it: the first frame of contention_begin's callchain that is
 * not locking code, as `perf lock contention` names callers. Locking code
 * is what lies in the kernel's lock text (__lock_text_start..end: the
 * spin and rw lock entry points and slow paths) and the functions named
 * in lock_fn[] (mutex, rwsem, semaphore, percpu-rwsem and rt-mutex entry
 * points and slow paths, which live in ordinary or scheduler text, and
 * the tracepoint's own frames). Scheduler text is not skipped: the run
 * queue lock contended in __schedule is named __schedule.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/symtab.h"
#include "runner/observe/trace/trace_locks.h"

const char *const cgs_lock_by_names[] = {
	[CGS_LOCK_BY_SYMBOL] = "symbol", [CGS_LOCK_BY_CALLER] = "caller",
	[CGS_LOCK_BY_ADDRESS] = "address",
};

struct cgs_locknames {
	struct cgs_symtab text;       /* functions, from kallsyms */
	struct cgs_symtab data;       /* static objects, when listed */
	uint64_t lock_text[2];        /* [start, end), 0 0: unknown */
	uint64_t data_end;            /* the end of the last object */
	char why[160];
};

/* Function names (or prefixes, ending in '*') that are locking code. */
static const char *const lock_fn[] = {
	"__traceiter_contention_*", "perf_trace_contention_*", "trace_contention_*",
	"perf_trace_buf_*", "perf_tp_event*", "perf_callchain*",
	"queued_spin_lock_slowpath", "native_queued_spin_lock_slowpath",
	"__pv_queued_spin_lock_slowpath", "queued_read_lock_slowpath",
	"queued_write_lock_slowpath", "do_raw_spin_lock*", "do_raw_read_lock*",
	"do_raw_write_lock*", "_raw_*", "__raw_*",
	"mutex_lock*", "__mutex_lock*", "mutex_spin_on_owner*", "mutex_optimistic_spin*",
	"osq_lock", "rwsem_down_*", "rwsem_optimistic_spin*", "rwsem_spin_on_owner*",
	"__rwsem_*", "down_read*", "down_write*", "down", "down_interruptible",
	"down_killable", "down_timeout", "__down*", "percpu_down_*",
	"__percpu_down_*", "percpu_rwsem_wait*", "rt_mutex_*", "__rt_mutex_*",
	"rt_spin_lock*", "rtlock_*", "ww_mutex_lock*", "__ww_mutex_lock*",
	NULL,
};

static bool name_is_lock_fn(const char *name)
{
	for (unsigned i = 0; lock_fn[i]; i++) {
		size_t n = strlen(lock_fn[i]);

		if (lock_fn[i][n - 1] == '*' ? !strncmp(name, lock_fn[i], n - 1)
					     : !strcmp(name, lock_fn[i]))
			return true;
	}
	return false;
}

/* A data symbol that only marks a section, not an object. */
static bool is_marker(const char *name)
{
	return !strncmp(name, "__start_", 8) || !strncmp(name, "__stop_", 7) ||
	       !strncmp(name, "__end_", 6) || !strcmp(name, "__init_begin") ||
	       !strcmp(name, "_sdata") || !strcmp(name, "_edata") ||
	       !strcmp(name, "__bss_start") || !strcmp(name, "__bss_stop") ||
	       !strcmp(name, "_end") || !strncmp(name, "__per_cpu_", 10);
}

/* The data objects of kallsyms (types d D b B): the symtab loader keeps
 * functions only. The end markers bound the last object. */
static int load_data(struct cgs_locknames *n, const char *path)
{
	FILE *f = fopen(path, "re");
	char line[512];
	int rc = 0;

	if (!f)
		return -errno;
	while (!rc && fgets(line, sizeof(line), f)) {
		struct cgs_sym *v;
		uint64_t addr;
		char type, name[256];

		if (sscanf(line, "%" SCNx64 " %c %255s", &addr, &type, name) != 3 || !addr ||
		    !strchr("dDbB", type) || strchr(name, '['))
			continue;
		if (!strcmp(name, "_end") || !strcmp(name, "__bss_stop")) {
			if (addr > n->data_end)
				n->data_end = addr;
			continue;
		}
		if (is_marker(name))
			continue;
		if (n->data.n == n->data.cap) {
			size_t cap = n->data.cap ? 2 * n->data.cap : 1024;

			v = realloc(n->data.v, cap * sizeof(*v));
			if (!v) {
				rc = -ENOMEM;
				break;
			}
			n->data.v = v;
			n->data.cap = cap;
		}
		v = &n->data.v[n->data.n];
		v->addr = addr;
		v->size = 0;
		v->name = strdup(name);
		if (!v->name)
			rc = -ENOMEM;
		else
			n->data.n++;
	}
	fclose(f);
	cgs_symtab_sort(&n->data);
	return rc;
}

static uint64_t text_sym(const struct cgs_symtab *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].name, name))
			return t->v[i].addr;
	return 0;
}

int cgs_locknames_load(const char *path, struct cgs_locknames **out)
{
	struct cgs_locknames *n = calloc(1, sizeof(*n));
	int rc;

	*out = n;
	if (!n)
		return -ENOMEM;
	rc = cgs_symtab_load_kallsyms(&n->text, path);
	if (!rc && n->text.hidden)
		snprintf(n->why, sizeof(n->why),
			 "raw addresses: %s shows only zero addresses (kptr_restrict, not root)", path);
	else if (rc)
		snprintf(n->why, sizeof(n->why), "raw addresses: cannot read %s: %s", path,
			 strerror(-rc));
	if (rc || n->text.hidden)
		return rc;
	n->lock_text[0] = text_sym(&n->text, "__lock_text_start");
	n->lock_text[1] = text_sym(&n->text, "__lock_text_end");
	rc = load_data(n, path);
	if (n->data.n && !n->data_end)
		n->data_end = n->data.v[n->data.n - 1].addr + 4096;
	snprintf(n->why, sizeof(n->why), n->data.n ? "kallsyms" :
		 "kallsyms, functions only (no data symbols: CONFIG_KALLSYMS_ALL is off), so locks are named by the contending function");
	return rc;
}

void cgs_locknames_free(struct cgs_locknames *n)
{
	if (!n)
		return;
	cgs_symtab_free(&n->text);
	cgs_symtab_free(&n->data);
	free(n);
}

const char *cgs_locknames_how(const struct cgs_locknames *n)
{
	return n ? n->why : "raw addresses: no symbols were loaded";
}

bool cgs_lock_frame(const struct cgs_locknames *n, uint64_t ip)
{
	const char *name;

	if (!n)
		return false;
	if (n->lock_text[0] && ip >= n->lock_text[0] && ip < n->lock_text[1])
		return true;
	name = cgs_symtab_lookup(&n->text, ip);
	return name && name_is_lock_fn(name);
}

/* The static object holding @addr, with the offset into it. */
static const char *data_obj(const struct cgs_locknames *n, uint64_t addr,
			    uint64_t *off)
{
	size_t lo = 0, hi = n->data.n;

	if (!n->data.n || addr < n->data.v[0].addr || addr >= n->data_end)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (n->data.v[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	*off = addr - n->data.v[lo].addr;
	return n->data.v[lo].name;
}

enum cgs_lock_by cgs_lockname(const struct cgs_locknames *n, uint64_t addr,
			      const uint64_t *ips, unsigned nips, char *buf,
			      size_t len)
{
	const char *name;
	uint64_t off = 0;

	if (n && (name = data_obj(n, addr, &off))) {
		if (off)
			snprintf(buf, len, "%s+0x%" PRIx64, name, off);
		else
			snprintf(buf, len, "%s", name);
		return CGS_LOCK_BY_SYMBOL;
	}
	for (unsigned i = 0; n && n->text.n && i < nips; i++) {
		if (cgs_lock_frame(n, ips[i]))
			continue;
		name = cgs_symtab_lookup(&n->text, ips[i]);
		if (!name)
			break;
		snprintf(buf, len, "%s", name);
		return CGS_LOCK_BY_CALLER;
	}
	snprintf(buf, len, "0x%016" PRIx64, addr);
	return CGS_LOCK_BY_ADDRESS;
}

/* include/trace/events/lock.h */
#define LCB_F_SPIN   (1U << 0)
#define LCB_F_READ   (1U << 1)
#define LCB_F_WRITE  (1U << 2)
#define LCB_F_RT     (1U << 3)
#define LCB_F_PERCPU (1U << 4)
#define LCB_F_MUTEX  (1U << 5)

const char *cgs_lock_kind(unsigned flags)
{
	if (flags & LCB_F_MUTEX)
		return "mutex";
	if (flags & LCB_F_PERCPU)
		return "percpu-rwsem";
	if (flags & LCB_F_RT)
		return "rt-mutex";
	if (flags & LCB_F_SPIN)
		return flags & (LCB_F_READ | LCB_F_WRITE) ? "rwlock" : "spinlock";
	if (flags & (LCB_F_READ | LCB_F_WRITE))
		return "rwsem";
	return "other";
}
