/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_task_cancel.c - a task runs its workload's loop with the
 * asynchronous cancel type (lib/cancel.h: cgs_thread_async_cancel), in thread
 * mode and in process mode, also when the runner had a second thread as
 * it forked: glibc's wrapper of a cancellation point (fallocate, read,
 * send, ...) then costs no locked instruction, as in will-it-scale. The
 * tasks are started by the worker, as a point starts them.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "runner/point/task.h"
#include "runner/core/topo.h"

/* The loop's aux[0]: its thread's cancel type + 1 (0: it never ran). */
static int probe_loop(struct cgs_task *t)
{
	struct timespec ts = { 0, 1000000 };
	int type;

	pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, &type);
	pthread_setcanceltype(type, NULL);
	cgs_aux_add(t, 0, (uint64_t)type + 1);
	while (!cgs_stop(t))
		nanosleep(&ts, NULL);
	return 0;
}

static const struct cgs_workload probe = {
	.name = "probe",
	.desc = "records its cancel type",
	.unit = "wait",
	.loop = probe_loop,
};

/* Poll until @cond holds, for at most 10 s. */
#define WAIT_10S(cond) \
	for (int i_ = 0; i_ < 10000 && !(cond); i_++) \
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL)

/* One task in @threads mode; its loop's cancel type. */
static int loop_cancel_type(bool threads)
{
	struct cgs_topo topo;
	struct cgs_places places;
	struct cgs_shared *sh;
	struct cgs_point_tasks pt;
	uint64_t seen;
	pid_t pid;
	int st;

	assert_int_equal(cgs_topo_load(&topo, NULL), 0);
	assert_int_equal(cgs_places_build(&topo, CGS_PLACE_NONE, &places), 0);
	/* no image: the tasks run in this test's own forks */
	pt = (struct cgs_point_tasks){
		.w = &probe, .ctx = { .nr_tasks = 1, .threads = threads },
		.topo = &topo, .places = &places, .runner = getpid(),
	};
	sh = pt.sh = cgs_shared_map(&pt, NULL, 0);
	assert_non_null(sh);
	pid = cgs_worker_start(&pt);
	assert_true(pid > 0);
	WAIT_10S(atomic_load(&sh->ready));
	assert_int_equal(atomic_load(&sh->ready), 1);
	cgs_gate_open(sh);
	WAIT_10S(atomic_load(&cgs_sh_slots(sh)[0].aux[0]));
	assert_true(atomic_load(&cgs_sh_slots(sh)[0].aux[0]) != 0);
	atomic_store(&sh->stop, 1);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(atomic_load(&cgs_sh_info(sh)[0].state), CGS_T_DONE);
	seen = cgs_sh_info(sh)[0].aux_final[0];
	cgs_places_free(&places);
	cgs_topo_free(&topo);
	cgs_shared_unmap(sh);
	return (int)seen - 1;
}

static void test_thread_mode(void **state)
{
	(void)state;
	assert_int_equal(loop_cancel_type(true), PTHREAD_CANCEL_ASYNCHRONOUS);
}

static void test_process_mode(void **state)
{
	(void)state;
	assert_int_equal(loop_cancel_type(false), PTHREAD_CANCEL_ASYNCHRONOUS);
}

static void *wait_for_pipe(void *p)
{
	char c;

	return read(*(int *)p, &c, 1) < 0 ? p : NULL;
}

/* a child forked by a process of two threads keeps glibc's wrapper */
static void test_process_mode_forked_by_threads(void **state)
{
	pthread_t th;
	int fds[2];

	(void)state;
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(pthread_create(&th, NULL, wait_for_pipe, &fds[0]), 0);
	assert_int_equal(loop_cancel_type(false), PTHREAD_CANCEL_ASYNCHRONOUS);
	close(fds[1]);
	pthread_join(th, NULL);
	close(fds[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thread_mode),
		cmocka_unit_test(test_process_mode),
		cmocka_unit_test(test_process_mode_forked_by_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
