/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_locks.c - `--trace locks` off the machine: naming a contended lock
 * from a made-up kallsyms (a static object with and without data symbols,
 * the contending function past spin, rw, mutex and tracepoint frames, the
 * address when nothing is known); decoding fixed sample buffers laid out
 * as the kernel writes them (lock:contention_begin with its callchain,
 * _end with none, cut short, another tracepoint); the waits counted from
 * records (the tasks and everyone, nesting, a mutex's second begin, the
 * window, unpaired and unfinished waits, per op, per lock, the
 * distribution); the set and what tracefs says of a kernel without the
 * tracepoints. Compare's lock_wait.NAME family and the lines under a
 * row of run's table are test_lock_rows.c's.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "check/unit/tree_put.h"

#include "results/compare/model.h"
#include "runner/observe/observer.h"
#include "runner/observe/trace/trace.h"
#include "runner/observe/trace/trace_locks.h"

/* The formats of this kernel (6.18), as tracefs gives them. */
static const char begin_fmt[] =
	"name: contention_begin\nID: 408\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:void * lock_addr;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned int flags;\toffset:16;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"%p (flags=%s)\", REC->lock_addr\n";
static const char end_fmt[] =
	"name: contention_end\nID: 407\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:void * lock_addr;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int ret;\toffset:16;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"%p (ret=%d)\", REC->lock_addr, REC->ret\n";

/* A kernel: functions, the lock text, and (with data) static objects. */
static const char ksyms_text[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81100000 T do_anonymous_page\n"
	"ffffffff81100400 T __pte_offset_map_lock\n"
	"ffffffff81100800 T mutex_lock\n"
	"ffffffff81100900 T my_mutex_user\n"
	"ffffffff81100a00 T __traceiter_contention_begin\n"
	"ffffffff81100b00 t perf_trace_contention_begin\n"
	"ffffffff81100c00 T down_write\n"
	"ffffffff81100d00 t rwsem_down_write_slowpath\n"
	"ffffffff81100e00 T __vm_munmap\n"
	"ffffffff82000000 T __sched_text_start\n"
	"ffffffff82000100 t __mutex_lock.constprop.0\n"
	"ffffffff82000200 T __schedule\n"
	"ffffffff82000f00 T __sched_text_end\n"
	"ffffffff82001000 T __lock_text_start\n"
	"ffffffff82001100 T _raw_spin_lock\n"
	"ffffffff82001200 T __pv_queued_spin_lock_slowpath\n"
	"ffffffff82001f00 T __lock_text_end\n"
	"ffffffff82002000 T _etext\n";
static const char ksyms_data[] =
	"ffffffff83000000 D __start_once\n"
	"ffffffff83000100 d zone_lock\n"
	"ffffffff83000200 D big_struct\n"
	"ffffffff83001000 b some_bss\n"
	"ffffffff83002000 B _end\n";

#define IP_DO_ANON 0xffffffff81100010ULL
#define IP_PTE_LOCK 0xffffffff81100420ULL
#define IP_MUTEX_LOCK 0xffffffff81100820ULL
#define IP_MUTEX_USER 0xffffffff81100920ULL
#define IP_TRACEITER 0xffffffff81100a10ULL
#define IP_MUTEX_SLOW 0xffffffff82000110ULL
#define IP_SCHEDULE 0xffffffff82000210ULL
#define IP_RAW_SPIN 0xffffffff82001110ULL
#define IP_PV_SLOW 0xffffffff82001210ULL
#define IP_DOWN_WRITE 0xffffffff81100c10ULL
#define IP_RWSEM_SLOW 0xffffffff81100d10ULL
#define IP_MUNMAP 0xffffffff81100e10ULL

static struct cgs_locknames *load(bool data, char *path, size_t len)
{
	struct cgs_locknames *n = NULL;
	FILE *f;
	int fd;

	snprintf(path, len, "/tmp/cgs-ksyms-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(ksyms_text, f);
	if (data)
		fputs(ksyms_data, f);
	fclose(f);
	assert_int_equal(cgs_locknames_load(path, &n), 0);
	unlink(path);
	return n;
}

static void t_names(void **state)
{
	char path[64], buf[CGS_LOCK_NAME_MAX];
	struct cgs_locknames *n = load(true, path, sizeof(path));
	const uint64_t spin[] = { IP_TRACEITER, IP_PV_SLOW, IP_RAW_SPIN, IP_PTE_LOCK, IP_DO_ANON };
	const uint64_t mutex[] = { IP_MUTEX_SLOW, IP_MUTEX_LOCK, IP_MUTEX_USER };
	const uint64_t rwsem[] = { IP_RWSEM_SLOW, IP_DOWN_WRITE, IP_MUNMAP };
	const uint64_t rq[] = { IP_PV_SLOW, IP_RAW_SPIN, IP_SCHEDULE };

	(void)state;
	assert_string_equal(cgs_locknames_how(n), "kallsyms");
	/* a static object, and a lock inside one */
	assert_int_equal(cgs_lockname(n, 0xffffffff83000100ULL, spin, 5, buf, sizeof(buf)),
			 CGS_LOCK_BY_SYMBOL);
	assert_string_equal(buf, "zone_lock");
	assert_int_equal(cgs_lockname(n, 0xffffffff83000240ULL, spin, 5, buf, sizeof(buf)),
			 CGS_LOCK_BY_SYMBOL);
	assert_string_equal(buf, "big_struct+0x40");
	/* a section marker is no object; past _end is no static lock */
	assert_int_equal(cgs_lockname(n, 0xffffffff83000010ULL, spin, 5, buf, sizeof(buf)),
			 CGS_LOCK_BY_CALLER);
	assert_int_equal(cgs_lockname(n, 0xffffffff83002008ULL, spin, 5, buf, sizeof(buf)),
			 CGS_LOCK_BY_CALLER);
	/* a heap lock: past the tracepoint, the slow path and _raw_spin_lock */
	assert_int_equal(cgs_lockname(n, 0xffff888100000040ULL, spin, 5, buf, sizeof(buf)),
			 CGS_LOCK_BY_CALLER);
	assert_string_equal(buf, "__pte_offset_map_lock");
	/* a mutex: past the scheduler-text slow path and mutex_lock */
	cgs_lockname(n, 0xffff888100000080ULL, mutex, 3, buf, sizeof(buf));
	assert_string_equal(buf, "my_mutex_user");
	cgs_lockname(n, 0xffff888100000080ULL, rwsem, 3, buf, sizeof(buf));
	assert_string_equal(buf, "__vm_munmap");
	/* scheduler text is not skipped: the run queue lock of __schedule */
	cgs_lockname(n, 0xffff888100000100ULL, rq, 3, buf, sizeof(buf));
	assert_string_equal(buf, "__schedule");
	assert_true(cgs_lock_frame(n, IP_RAW_SPIN) && cgs_lock_frame(n, IP_MUTEX_SLOW) &&
		    cgs_lock_frame(n, IP_TRACEITER) && !cgs_lock_frame(n, IP_DO_ANON) &&
		    !cgs_lock_frame(n, IP_SCHEDULE));
	/* nothing but locking code, or no callchain: the address */
	assert_int_equal(cgs_lockname(n, 0xffff888100000040ULL, spin, 3, buf, sizeof(buf)),
			 CGS_LOCK_BY_ADDRESS);
	assert_string_equal(buf, "0xffff888100000040");
	assert_int_equal(cgs_lockname(n, 0xffff888100000040ULL, NULL, 0, buf, sizeof(buf)),
			 CGS_LOCK_BY_ADDRESS);
	assert_int_equal(cgs_lockname(NULL, 0xffffffff83000100ULL, spin, 5, buf, sizeof(buf)),
			 CGS_LOCK_BY_ADDRESS);
	cgs_locknames_free(n);
	/* functions only (this machine: no CONFIG_KALLSYMS_ALL) */
	n = load(false, path, sizeof(path));
	assert_non_null(strstr(cgs_locknames_how(n), "functions only"));
	assert_int_equal(cgs_lockname(n, 0xffffffff83000100ULL, spin, 5, buf, sizeof(buf)),
			 CGS_LOCK_BY_CALLER);
	assert_string_equal(buf, "__pte_offset_map_lock");
	cgs_locknames_free(n);
	assert_int_equal(cgs_locknames_load("/nonexistent/kallsyms", &n), -ENOENT);
	assert_non_null(strstr(cgs_locknames_how(n), "raw addresses"));
	cgs_locknames_free(n);
	assert_string_equal(cgs_lock_kind(1), "spinlock");
	assert_string_equal(cgs_lock_kind(1 | 2), "rwlock");
	assert_string_equal(cgs_lock_kind(32 | 1), "mutex");
	assert_string_equal(cgs_lock_kind(4), "rwsem");
	assert_string_equal(cgs_lock_kind(16 | 2), "percpu-rwsem");
}

/* A trace whose lock tracepoints are as this kernel's. */
static struct cgs_trace *lock_trace(void)
{
	struct cgs_trace *t = calloc(1, sizeof(*t));
	char err[128];

	assert_non_null(t);
	assert_int_equal(cgs_trace_parse_sets("locks", t, err, sizeof(err)), 0);
	t->tp[CGS_TP_LOCK_BEGIN].supported = t->tp[CGS_TP_LOCK_END].supported = true;
	t->tp[CGS_TP_LOCK_BEGIN].id = 408;
	t->tp[CGS_TP_LOCK_END].id = 407;
	assert_int_equal(cgs_tpformat_field(begin_fmt, "common_pid", &t->tp[CGS_TP_LOCK_BEGIN].f[CGS_F_PID]), 0);
	assert_int_equal(cgs_tpformat_field(begin_fmt, "lock_addr", &t->tp[CGS_TP_LOCK_BEGIN].f[CGS_F_ID]), 0);
	assert_int_equal(cgs_tpformat_field(begin_fmt, "flags", &t->tp[CGS_TP_LOCK_BEGIN].f[CGS_F_A]), 0);
	assert_int_equal(cgs_tpformat_field(end_fmt, "common_pid", &t->tp[CGS_TP_LOCK_END].f[CGS_F_PID]), 0);
	assert_int_equal(cgs_tpformat_field(end_fmt, "lock_addr", &t->tp[CGS_TP_LOCK_END].f[CGS_F_ID]), 0);
	assert_int_equal(cgs_tpformat_field(end_fmt, "ret", &t->tp[CGS_TP_LOCK_END].f[CGS_F_A]), 0);
	return t;
}

/* A sample as the kernel lays it out: header, pid/tid, time, cpu/res,
 * callchain (nr, ips), raw (size, then the record). Returns its size. */
static size_t sample(uint64_t *buf, int tid, uint64_t t, uint32_t cpu,
		     const uint64_t *chain, unsigned nchain, uint16_t type,
		     uint64_t addr, uint32_t last)
{
	struct perf_event_header *h = (struct perf_event_header *)buf;
	unsigned char *b = (unsigned char *)(h + 1), raw[20] = { 0 };
	uint32_t u[2] = { (uint32_t)tid, (uint32_t)tid }, rawsize = sizeof(raw);
	uint64_t nr = nchain;

	memcpy(b, u, 8);
	memcpy(b + 8, &t, 8);
	u[0] = cpu;
	u[1] = 0;
	memcpy(b + 16, u, 8);
	memcpy(b + 24, &nr, 8);
	if (nchain)
		memcpy(b + 32, chain, 8 * nchain);
	b += 32 + 8 * nchain;
	memcpy(raw, &type, 2);
	memcpy(raw + 4, &tid, 4);
	memcpy(raw + 8, &addr, 8);
	memcpy(raw + 16, &last, 4);
	memcpy(b, &rawsize, 4);
	memcpy(b + 4, raw, sizeof(raw));
	h->type = PERF_RECORD_SAMPLE;
	h->misc = 0;
	h->size = (uint16_t)((b + 4 + sizeof(raw) - (unsigned char *)buf + 7) / 8 * 8);
	return h->size;
}

static void t_decode(void **state)
{
	struct cgs_trace *t = lock_trace();
	char path[64];
	struct cgs_locknames *n = load(false, path, sizeof(path));
	const uint64_t chain[] = { (uint64_t)PERF_CONTEXT_KERNEL, IP_PV_SLOW, IP_RAW_SPIN,
				   IP_PTE_LOCK, IP_DO_ANON };
	uint64_t buf[64];
	struct perf_event_header *h = (struct perf_event_header *)buf;
	struct cgs_lockev e;

	(void)state;
	sample(buf, 4242, 123456789, 1, chain, 5, 408, 0xffff888100000040ULL, 1);
	assert_int_equal(cgs_lockev_decode(t, n, h, &e), 0);
	assert_true(e.begin);
	assert_int_equal(e.tid, 4242);
	assert_int_equal(e.cpu, 1);
	assert_true(e.t_ns == 123456789);
	assert_true(e.addr == 0xffff888100000040ULL);
	assert_int_equal(e.flags, 1);
	assert_int_equal(e.by, CGS_LOCK_BY_CALLER);
	assert_string_equal(e.name, "__pte_offset_map_lock");
	/* the end: no callchain, ret */
	sample(buf, 4242, 123456999, 0, NULL, 0, 407, 0xffff888100000040ULL, (uint32_t)-4);
	assert_int_equal(cgs_lockev_decode(t, n, h, &e), 0);
	assert_false(e.begin);
	assert_int_equal(e.ret, -4);
	assert_int_equal(e.cpu, 0);
	/* another tracepoint's record; cut short; a chain longer than the record */
	sample(buf, 1, 1, 0, NULL, 0, 500, 0, 0);
	assert_int_equal(cgs_lockev_decode(t, n, h, &e), -ENOENT);
	h->size = sizeof(*h) + 36;
	assert_int_equal(cgs_lockev_decode(t, n, h, &e), -EINVAL);
	sample(buf, 1, 1, 0, chain, 5, 408, 0, 0);
	buf[4] = 1000;                 /* nr */
	assert_int_equal(cgs_lockev_decode(t, n, h, &e), -EINVAL);
	cgs_locknames_free(n);
	free(t);
}

static void ev(struct cgs_lockcalc *c, int64_t t, int tid, bool begin, uint64_t addr,
	       const char *name)
{
	struct cgs_lockev e = { .t_ns = t, .tid = tid, .begin = begin, .addr = addr,
				.flags = 1, .by = CGS_LOCK_BY_CALLER };

	snprintf(e.name, sizeof(e.name), "%s", name ? name : "");
	cgs_lockcalc_add(c, &e);
}

static struct json_object *at(struct json_object *o, const char *path)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *k = strtok_r(buf, ".", &save); k; k = strtok_r(NULL, ".", &save)) {
		char *end;
		long i = strtol(k, &end, 10);

		if (!o)
			return NULL;
		if (!*end && json_object_is_type(o, json_type_array))
			o = json_object_array_get_idx(o, (size_t)i);
		else if (!json_object_object_get_ex(o, k, &o))
			return NULL;
	}
	return o;
}

static double jd(struct json_object *o, const char *path)
{
	struct json_object *v = at(o, path);

	return v ? json_object_get_double(v) : -1;
}

/* t_calc's window and contentions. */
static void calc_events(struct cgs_lockcalc *c)
{
	cgs_lockcalc_window(c, 1000, 10000);
	ev(c, 900, 10, true, 0xa, "early");            /* before the window */
	ev(c, 1100, 10, false, 0xa, NULL);             /* unpaired */
	/* task 10 waits 400 on A; an interrupt on it waits 50 on B inside */
	ev(c, 2000, 10, true, 0xa, "lock_a");
	ev(c, 2100, 10, true, 0xb, "lock_b");
	ev(c, 2150, 10, false, 0xb, NULL);
	ev(c, 2400, 10, false, 0xa, NULL);
	/* task 11: a mutex says begin twice (spin, then sleep): one wait */
	ev(c, 3000, 11, true, 0xc, "lock_a");          /* another lock_a address */
	ev(c, 3300, 11, true, 0xc, "lock_a");
	ev(c, 4000, 11, false, 0xc, NULL);
	/* someone else waits 1000 on B */
	ev(c, 5000, 99, true, 0xb, "lock_b");
	ev(c, 6000, 99, false, 0xb, NULL);
	/* task 10 begins and the window closes: unfinished */
	ev(c, 9000, 10, true, 0xa, "lock_a");
	ev(c, 10500, 10, false, 0xa, NULL);
	cgs_lockcalc_lost(c, 2);
}

static void t_calc(void **state)
{
	const int tasks[] = { 10, 11 };
	struct cgs_lockcalc *c = cgs_lockcalc_new(tasks, 2);
	struct json_object *o;

	(void)state;
	assert_non_null(c);
	calc_events(c);
	o = cgs_lockcalc_json(c, 2.0, 100);
	assert_true(jd(o, "tasks.waits") == 3);
	assert_true(jd(o, "tasks.wait_ns") == 400 + 50 + 1000);
	assert_true(jd(o, "tasks.wait_ns_per_op") == 14.5);
	assert_true(jd(o, "tasks.waits_per_op") == 0.03);
	assert_true(jd(o, "tasks.wait.max_ns") == 1000);
	assert_true(jd(o, "tasks.wait.min_ns") == 50);
	assert_true(jd(o, "all.waits") == 4);
	assert_true(jd(o, "all.wait_ns") == 2450);
	assert_true(jd(o, "all.wait_us_per_sec") == 2450 / 1e3 / 2);
	assert_true(jd(o, "names") == 2);
	/* by the tasks' wait: lock_a (1400, two addresses), then lock_b */
	assert_string_equal(json_object_get_string(at(o, "by_lock.0.name")), "lock_a");
	assert_true(jd(o, "by_lock.0.task_wait_ns") == 1400);
	assert_true(jd(o, "by_lock.0.waits") == 2);
	assert_true(jd(o, "by_lock.0.addresses") == 2);
	assert_true(jd(o, "by_lock.0.wait_ns_per_op") == 14);
	assert_string_equal(json_object_get_string(at(o, "by_lock.0.kind")), "spinlock");
	assert_string_equal(json_object_get_string(at(o, "by_lock.0.named_by")), "caller");
	assert_string_equal(json_object_get_string(at(o, "by_lock.1.name")), "lock_b");
	assert_true(jd(o, "by_lock.1.task_wait_ns") == 50);
	assert_true(jd(o, "by_lock.1.wait_ns") == 1050);
	assert_true(jd(o, "by_lock.1.all_wait_ns_per_op") == 10.5);
	assert_true(jd(o, "by_lock.1.wait.max_ns") == 1000);
	assert_true(jd(o, "wait_ns_per_op_by_lock.lock_a") == 14);
	assert_true(jd(o, "wait_ns_per_op_by_lock.lock_b") == 0.5);
	assert_true(jd(o, "unpaired") == 1);
	assert_true(jd(o, "unfinished") == 1);
	assert_true(jd(o, "lost_records") == 2);
	json_object_put(o);
	/* no ops: per op is null */
	o = cgs_lockcalc_json(c, 2.0, 0);
	assert_null(at(o, "tasks.wait_ns_per_op"));
	assert_true(json_object_object_get_ex(at(o, "tasks"), "wait_ns_per_op", NULL));
	json_object_put(o);
	cgs_lockcalc_free(c);
}

/* More names than the table keeps: the rest are "[other]". */
static void t_calc_many(void **state)
{
	const int tasks[] = { 5 };
	struct cgs_lockcalc *c = cgs_lockcalc_new(tasks, 1);
	struct json_object *o, *by;
	char name[32];
	bool other = false;

	(void)state;
	for (int i = 0; i < 300; i++) {
		snprintf(name, sizeof(name), "f%03d", i);
		ev(c, 10 * i + 1, 5, true, 0x100 + (uint64_t)i, name);
		ev(c, 10 * i + 2 + (i == 299 ? 5 : 0), 5, false, 0x100 + (uint64_t)i, NULL);
	}
	o = cgs_lockcalc_json(c, 1.0, 10);
	assert_true(jd(o, "tasks.waits") == 300);
	by = at(o, "by_lock");
	assert_int_equal(json_object_array_length(by), 20);
	/* [other] holds the 44 names past 256, one of them the longest wait */
	assert_string_equal(json_object_get_string(at(o, "by_lock.0.name")), "[other]");
	assert_true(jd(o, "by_lock.0.task_waits") == 44);
	other = json_object_object_length(at(o, "wait_ns_per_op_by_lock")) == 8;
	assert_true(other);
	json_object_put(o);
	cgs_lockcalc_free(c);
}

static void t_tracefs(void **state)
{
	char dir[] = "/tmp/cgs-tracefs-XXXXXX", cmd[64], err[256];
	struct cgs_trace *t = calloc(1, sizeof(*t));
	struct json_object *o;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(cgs_trace_parse_sets("locks", t, err, sizeof(err)), 0);
	for (int k = 0; k < CGS_TP_NKIND; k++)
		assert_true(t->tp[k].wanted == cgs_tp_is_lock(k));
	assert_true(cgs_locks_wanted(t));
	/* a kernel without them (before 5.19): not supported, with the reason */
	tree_put(dir, "events/sched/sched_switch/id", "300\n");
	cgs_trace_read_tracefs(dir, t);
	assert_false(t->tp[CGS_TP_LOCK_BEGIN].supported);
	assert_non_null(strstr(t->tp[CGS_TP_LOCK_BEGIN].reason, "no such tracepoint"));
	assert_non_null(strstr(t->tp[CGS_TP_LOCK_BEGIN].reason, "events/lock/contention_begin"));
	o = cgs_locks_unsupported(t, NULL);
	assert_false(json_object_get_boolean(at(o, "supported")));
	assert_non_null(strstr(json_object_get_string(at(o, "reason")), "no such tracepoint"));
	assert_string_equal(json_object_get_string(at(o, "tracepoint")), "lock:contention_begin");
	json_object_put(o);
	/* this kernel's */
	tree_put(dir, "events/lock/contention_begin/id", "408\n");
	tree_put(dir, "events/lock/contention_begin/format", begin_fmt);
	tree_put(dir, "events/lock/contention_end/id", "407\n");
	tree_put(dir, "events/lock/contention_end/format", end_fmt);
	cgs_trace_read_tracefs(dir, t);
	assert_true(t->tp[CGS_TP_LOCK_BEGIN].supported && t->tp[CGS_TP_LOCK_END].supported);
	assert_int_equal(t->tp[CGS_TP_LOCK_END].id, 407);
	assert_int_equal(t->tp[CGS_TP_LOCK_BEGIN].f[CGS_F_ID].offset, 8);
	assert_int_equal(t->tp[CGS_TP_LOCK_BEGIN].f[CGS_F_ID].size, 8);
	assert_int_equal(t->tp[CGS_TP_LOCK_END].f[CGS_F_A].offset, 16);
	assert_true(t->tp[CGS_TP_LOCK_END].f[CGS_F_A].is_signed);
	assert_int_equal(cgs_trace_parse_sets("memcg-flush,locks", t, err, sizeof(err)), 0);
	assert_int_equal(cgs_trace_parse_sets("lock", t, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "memcg-flush, locks"));
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_names),
		cmocka_unit_test(t_decode),
		cmocka_unit_test(t_calc),
		cmocka_unit_test(t_calc_many),
		cmocka_unit_test(t_tracefs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
