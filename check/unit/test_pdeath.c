/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_pdeath.c - children die with their parent (lib/pdeath.c): a child
 * whose parent is already gone when it looks exits 127 at once, and one
 * whose parent dies later is SIGKILLed (it comes to us, a subreaper).
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib/pdeath.h"

/* The parent it was told of is not its parent: gone, so it leaves. */
static void test_parent_gone_before(void **state)
{
	pid_t pid = fork();
	int st;

	(void)state;
	assert_true(pid >= 0);
	if (!pid) {
		cgs_die_with_parent(getppid() + 1);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 127);
}

/* A grandchild outlives nothing: its parent exits, it gets SIGKILL. */
static void test_parent_dies_later(void **state)
{
	int fd[2], ready[2], st;
	pid_t mid, gc = 0;

	(void)state;
	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	assert_int_equal(pipe(fd), 0);
	assert_int_equal(pipe(ready), 0);
	mid = fork();
	assert_true(mid >= 0);
	if (!mid) {
		pid_t self = getpid(), g = fork();
		char c;

		if (!g) {
			cgs_die_with_parent(self);
			(void)!write(ready[1], "r", 1);
			for (;;)
				pause();
		}
		/* once the grandchild is set, its parent goes */
		if (g < 0 || read(ready[0], &c, 1) != 1)
			_exit(1);
		(void)!write(fd[1], &g, sizeof(g));
		_exit(0);
	}
	close(ready[0]);
	close(ready[1]);
	close(fd[1]);
	assert_int_equal(read(fd[0], &gc, sizeof(gc)), (ssize_t)sizeof(gc));
	close(fd[0]);
	assert_int_equal(waitpid(mid, &st, 0), mid);
	assert_true(WIFEXITED(st) && !WEXITSTATUS(st));
	assert_int_equal(waitpid(gc, &st, 0), gc);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGKILL);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parent_gone_before),
		cmocka_unit_test(test_parent_dies_later),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
