/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_partner.c - a task's partner in both modes: it runs on its own
 * copy of the argument, its aux counts reach the task, its failure and
 * its death become the task's failure with a message, a partner that
 * will not end is asked to quit and then killed (process), and the
 * same/next/free placements bind it where they say, its cancel type
 * asynchronous.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "runner/point/point.h"
#include "runner/point/task.h"
#include "runner/core/topo.h"

/* One task of a one-task point, as task.c builds it. */
struct fixture {
	struct cgs_topo topo;
	struct cgs_places places;
	struct cgs_point_tasks pt;
	struct cgs_shared *sh;
	struct cgs_rtask rt;
	char msg[240];
};

static const struct cgs_workload partner_test = { .name = "partner-test" };

static struct fixture *fixture(bool threads, bool bound)
{
	struct fixture *f = test_calloc(1, sizeof(*f));

	assert_int_equal(cgs_topo_load(&f->topo, NULL), 0);
	assert_int_equal(cgs_places_build(&f->topo, bound ? CGS_PLACE_PUS : CGS_PLACE_NONE,
					  &f->places), 0);
	f->pt.w = &partner_test;
	f->pt.topo = &f->topo;
	f->pt.places = &f->places;
	f->pt.ctx.threads = threads;
	f->pt.ctx.nr_tasks = 1;
	/* the CPU masks of the places are in the shared area (shared.c) */
	f->sh = f->pt.sh = cgs_shared_map(&f->pt, NULL, 0);
	assert_non_null(f->sh);
	f->rt = (struct cgs_rtask){
		.c = { .task = { .ctx = &f->pt.ctx }, .slot = &cgs_sh_slots(f->sh)[0],
		       .stop = &f->sh->stop },
		.msg = f->msg, .msglen = sizeof(f->msg), .pt = &f->pt,
	};
	return f;
}

static void fixture_free(struct fixture *f)
{
	assert_null(f->rt.partner);
	cgs_shared_unmap(f->sh);
	cgs_places_free(&f->places);
	cgs_topo_free(&f->topo);
	test_free(f);
}

struct arg {
	int what;
	uint64_t n;
	int *out;        /* MAP_SHARED, seen by a forked partner too */
};

enum { COUNT, FAIL, DIE, WAIT_QUIT, HANG, WHERE };

static int partner_fn(struct cgs_partner *p, void *v)
{
	struct arg *a = v;
	struct timespec ts = { 0, 10000000 };
	cpu_set_t set;
	int type;

	switch (a->what) {
	case COUNT:
		for (uint64_t i = 0; i < a->n; i++)
			cgs_partner_aux_add(p, 1, 1);
		return 0;
	case FAIL:
		return cgs_partner_fail(p, -EPIPE, "lost the %s", "socket");
	case DIE:
		raise(SIGKILL);
		return 0;
	case WAIT_QUIT:
		while (!cgs_partner_quit(p))
			nanosleep(&ts, NULL);
		return 0;
	case HANG:
		for (;;)
			nanosleep(&ts, NULL);
	case WHERE:
		/* which CPUs we may run on, and whether we were forked */
		sched_getaffinity(0, sizeof(set), &set);
		for (int c = 0; c < 64; c++)
			a->out[c] = CPU_ISSET(c, &set);
		a->out[64] = cgs_partner_forked(p);
		/* its cancel type (lib/cancel.h: cgs_thread_async_cancel) */
		pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, &type);
		a->out[65] = type;
		return 0;
	}
	return -EINVAL;
}

static int start(struct fixture *f, int what, uint64_t n, int *out,
		 enum cgs_partner_place where)
{
	struct arg a = { what, n, out };
	int rc = cgs_partner_start(&f->rt.c.task, where, "cgs:test-p", partner_fn, &a,
				   sizeof(a));

	/* the partner has its own copy: ours may go at once */
	memset(&a, 0xff, sizeof(a));
	return rc;
}

static void count_and_fail(bool threads)
{
	struct fixture *f = fixture(threads, false);

	assert_int_equal(start(f, COUNT, 1000, NULL, CGS_PARTNER_SAME), 0);
	assert_int_equal(cgs_partner_join(&f->rt.c.task, 5000000000LL), 0);
	assert_int_equal(f->rt.c.aux[1], 1000);
	assert_int_equal(atomic_load(&cgs_sh_slots(f->sh)[0].aux[1]), 1000);
	assert_int_equal(f->rt.c.aux[0], 0);
	assert_int_equal(f->rt.partner_err, 0);
	/* no partner: nothing to wait for */
	assert_int_equal(cgs_partner_join(&f->rt.c.task, 0), 0);
	assert_false(cgs_partner_running(&f->rt.c.task));

	assert_int_equal(start(f, FAIL, 0, NULL, CGS_PARTNER_SAME), 0);
	assert_int_equal(cgs_partner_join(&f->rt.c.task, 5000000000LL), -EPIPE);
	assert_int_equal(f->rt.partner_err, -EPIPE);
	assert_non_null(strstr(f->msg, "partner cgs:test-p"));
	assert_non_null(strstr(f->msg, "lost the socket"));
	fixture_free(f);
}

static void test_count_and_fail_threads(void **state)
{
	(void)state;
	count_and_fail(true);
}

static void test_count_and_fail_processes(void **state)
{
	(void)state;
	count_and_fail(false);
}

static void test_death_is_a_failure(void **state)
{
	struct fixture *f = fixture(false, false);

	(void)state;
	assert_int_equal(start(f, DIE, 0, NULL, CGS_PARTNER_SAME), 0);
	assert_int_equal(cgs_partner_join(&f->rt.c.task, 5000000000LL), -ECHILD);
	assert_non_null(strstr(f->msg, "killed by signal 9"));
	fixture_free(f);
}

static void test_quit_then_kill(void **state)
{
	int64_t t0;

	(void)state;
	for (int threads = 0; threads < 2; threads++) {
		struct fixture *f = fixture(threads, false);

		/* asked to quit after the timeout, it does: not a failure */
		assert_int_equal(start(f, WAIT_QUIT, 0, NULL, CGS_PARTNER_SAME), 0);
		assert_true(cgs_partner_running(&f->rt.c.task));
		t0 = cgs_now_ns();
		assert_int_equal(cgs_partner_join(&f->rt.c.task, 50000000), 0);
		assert_in_range(cgs_now_ns() - t0, 50000000, 1050000000);
		fixture_free(f);
	}
	/* a process that ignores it is killed, within the bound */
	struct fixture *f = fixture(false, false);

	assert_int_equal(start(f, HANG, 0, NULL, CGS_PARTNER_SAME), 0);
	t0 = cgs_now_ns();
	assert_int_equal(cgs_partner_join(&f->rt.c.task, 50000000), -ETIMEDOUT);
	assert_true(cgs_now_ns() - t0 < 3000000000LL);
	assert_non_null(strstr(f->msg, "did not end"));
	assert_int_equal(f->rt.partner_err, -ETIMEDOUT);
	fixture_free(f);
}

static void test_placement(void **state)
{
	int *out = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	cpu_set_t mine;

	(void)state;
	assert_true(out != MAP_FAILED);
	sched_getaffinity(0, sizeof(mine), &mine);
	for (int threads = 0; threads < 2; threads++) {
		struct fixture *f = fixture(threads, true);
		int cpu0 = hwloc_bitmap_first(cgs_place_of(&f->places, 0));
		int cpu1 = hwloc_bitmap_first(cgs_place_of(&f->places, 1));

		/* same and next: exactly that place's CPU */
		assert_int_equal(start(f, WHERE, 0, out, CGS_PARTNER_SAME), 0);
		assert_int_equal(cgs_partner_join(&f->rt.c.task, 5000000000LL), 0);
		assert_int_equal(out[64], !threads);
		assert_int_equal(out[65], PTHREAD_CANCEL_ASYNCHRONOUS);
		for (int c = 0; c < 64; c++)
			assert_int_equal(out[c], c == cpu0);
		assert_int_equal(start(f, WHERE, 0, out, CGS_PARTNER_NEXT), 0);
		assert_int_equal(cgs_partner_join(&f->rt.c.task, 5000000000LL), 0);
		for (int c = 0; c < 64; c++)
			assert_int_equal(out[c], c == cpu1);
		/* free: the worker's affinity; here the worker is this
		 * thread (thread mode) or our parent (process mode) */
		if (threads) {
			assert_int_equal(start(f, WHERE, 0, out, CGS_PARTNER_FREE), 0);
			assert_int_equal(cgs_partner_join(&f->rt.c.task, 5000000000LL), 0);
			for (int c = 0; c < 64; c++)
				assert_int_equal(out[c], !!CPU_ISSET(c, &mine));
		}
		fixture_free(f);
	}
	munmap(out, 4096);
}

static void test_one_partner_only(void **state)
{
	struct fixture *f = fixture(true, false);

	(void)state;
	assert_int_equal(start(f, WAIT_QUIT, 0, NULL, CGS_PARTNER_SAME), 0);
	assert_int_equal(start(f, COUNT, 1, NULL, CGS_PARTNER_SAME), -EBUSY);
	assert_int_equal(cgs_partner_join(&f->rt.c.task, 0), 0);
	fixture_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count_and_fail_threads),
		cmocka_unit_test(test_count_and_fail_processes),
		cmocka_unit_test(test_death_is_a_failure),
		cmocka_unit_test(test_quit_then_kill),
		cmocka_unit_test(test_placement),
		cmocka_unit_test(test_one_partner_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
