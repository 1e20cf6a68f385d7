/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_safefile.c - lib/safefile.c: a symlink at the temporary or final
 * name is refused and its target untouched, a rename never replaces a
 * device, FIFO or directory, a FIFO and a char device are written in
 * place, temporary names are random and O_EXCL, the sweep removes a dead
 * writer's temporary file but keeps a live one's and anything else, the
 * journal refuses a link, FIFO or hard link at its name, and a run's
 * directory is reopened only when it is still the same one.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib/linelog.h"
#include "lib/safefile.h"
#include "lib/util.h"

struct dir {
	char path[64];
	int fd;
};

static int setup(void **state)
{
	struct dir *d = calloc(1, sizeof(*d));

	snprintf(d->path, sizeof(d->path), "/tmp/cgs-safefile.XXXXXX");
	assert_non_null(mkdtemp(d->path));
	d->fd = open(d->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(d->fd >= 0);
	*state = d;
	return 0;
}

static int teardown(void **state)
{
	struct dir *d = *state;
	char cmd[128];

	close(d->fd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d->path);
	assert_int_equal(system(cmd), 0);
	free(d);
	return 0;
}

static char *at(const struct dir *d, const char *name)
{
	static char buf[4][256];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", d->path, name);
	return buf[k];
}

static void put(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(s, f);
	fclose(f);
}

static void expect(const char *path, const char *s)
{
	char buf[256];

	assert_int_equal(cgs_read_file(path, buf, sizeof(buf)), 0);
	assert_string_equal(buf, s);
}

static int atomic(const char *path, const char *s)
{
	char err[256];

	return cgs_write_atomic(path, s, strlen(s), err, sizeof(err));
}

/* How many names in the directory. */
static int entries(const struct dir *d)
{
	char cmd[128], buf[32];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | wc -l", d->path);
	p = popen(cmd, "r");
	if (p && fgets(buf, sizeof(buf), p))
		n = atoi(buf);
	if (p)
		pclose(p);
	return n;
}

static void test_new_and_replace(void **state)
{
	struct dir *d = *state;
	struct stat st;

	assert_int_equal(atomic(at(d, "a.json"), "one\n"), 0);
	expect(at(d, "a.json"), "one\n");
	assert_int_equal(atomic(at(d, "a.json"), "two\n"), 0);
	expect(at(d, "a.json"), "two\n");
	assert_int_equal(stat(at(d, "a.json"), &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	assert_int_equal(entries(d), 1);        /* no temporary left */
}

static void test_symlink_at_final_refused(void **state)
{
	struct dir *d = *state;
	struct cgs_out o;
	struct stat st;

	put(at(d, "victim"), "keep");
	assert_int_equal(symlink(at(d, "victim"), at(d, "a.json")), 0);
	/* our own link, but to a regular file: refused, the target untouched */
	assert_int_equal(atomic(at(d, "a.json"), "evil"), -ELOOP);
	expect(at(d, "victim"), "keep");
	assert_int_equal(lstat(at(d, "a.json"), &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	/* another user's link, even to /dev/null: refused */
	assert_int_equal(unlink(at(d, "a.json")), 0);
	assert_int_equal(symlink("/dev/null", at(d, "a.json")), 0);
	assert_int_equal(lchown(at(d, "a.json"), 12345, 12345), 0);
	assert_int_equal(cgs_out_begin(&o, at(d, "a.json"), 0644), -ELOOP);
	assert_int_equal(o.fd, -1);
	cgs_out_abort(&o);
	assert_int_equal(entries(d), 2);
}

/* A link swapped in at the final name between begin and commit. */
static void test_symlink_swapped_before_commit(void **state)
{
	struct dir *d = *state;
	struct cgs_out o;

	put(at(d, "victim"), "keep");
	assert_int_equal(cgs_out_begin(&o, at(d, "a.json"), 0644), 0);
	assert_int_equal(cgs_out_write(&o, "evil", 4), 0);
	assert_int_equal(symlink(at(d, "victim"), at(d, "a.json")), 0);
	assert_int_equal(cgs_out_commit(&o), -ELOOP);
	expect(at(d, "victim"), "keep");
	assert_int_equal(entries(d), 2);        /* the temporary is gone */
	cgs_out_abort(&o);                     /* twice is safe */
}

/* Every name the temp could have is a planted link: O_EXCL never follows. */
static void test_temp_name_links(void **state)
{
	struct dir *d = *state;
	struct cgs_out o;
	struct stat st;

	put(at(d, "victim"), "keep");
	assert_int_equal(cgs_out_begin(&o, at(d, "a.json"), 0644), 0);
	assert_true(cgs_is_our_temp(o.tmp));
	assert_int_equal(o.in_place, 0);
	assert_int_equal(fstatat(d->fd, o.tmp, &st, AT_SYMLINK_NOFOLLOW), 0);
	assert_true(S_ISREG(st.st_mode));
	cgs_out_abort(&o);
	assert_int_equal(entries(d), 1);
	/* a name taken (even by a dangling link) is never opened */
	assert_int_equal(symlinkat(at(d, "victim"), d->fd, "x"), 0);
	assert_int_equal(cgs_create_at(d->fd, "x", O_WRONLY, 0600), -EEXIST);
	assert_int_equal(symlinkat("/nonexistent/cgs", d->fd, "y"), 0);
	assert_int_equal(cgs_create_at(d->fd, "y", O_WRONLY, 0600), -EEXIST);
	assert_int_equal(cgs_create_at(d->fd, "../z", O_WRONLY, 0600), -EINVAL);
	assert_int_equal(access("/nonexistent/cgs", F_OK), -1);
	expect(at(d, "victim"), "keep");
}

static void test_random_names(void **state)
{
	struct dir *d = *state;
	struct cgs_out a, b;

	assert_int_equal(cgs_out_begin(&a, at(d, "a.json"), 0644), 0);
	assert_int_equal(cgs_out_begin(&b, at(d, "a.json"), 0644), 0);
	assert_string_not_equal(a.tmp, b.tmp);
	assert_true(cgs_is_our_temp(a.tmp) && cgs_is_our_temp(b.tmp));
	assert_non_null(strstr(a.tmp, ".a.json.cgs-"));
	cgs_out_abort(&a);
	cgs_out_abort(&b);
	assert_false(cgs_is_our_temp("a.json"));
	assert_false(cgs_is_our_temp(".a.json.XXXXXX"));
	assert_false(cgs_is_our_temp(".a.json.cgs-12-short"));
	assert_false(cgs_is_our_temp(".a.json.cgs-0-abcdefghijkl"));
	assert_false(cgs_is_our_temp(".a.json.cgs-12-ABCDEFGHIJKL"));
	assert_true(cgs_is_our_temp(".a.json.cgs-12-abcdefghij01"));
	assert_int_equal(entries(d), 0);
}

static void test_never_over_dir_or_fifo(void **state)
{
	struct dir *d = *state;
	struct cgs_out o;
	struct stat st;

	assert_int_equal(mkdir(at(d, "dir"), 0755), 0);
	assert_int_equal(atomic(at(d, "dir"), "x"), -EISDIR);
	/* a FIFO made between begin and commit is not replaced */
	assert_int_equal(cgs_out_begin(&o, at(d, "f"), 0644), 0);
	assert_int_equal(mkfifo(at(d, "f"), 0600), 0);
	assert_int_equal(cgs_out_commit(&o), -EINVAL);
	assert_int_equal(lstat(at(d, "f"), &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	/* the same for a char device */
	assert_int_equal(cgs_out_begin(&o, at(d, "c"), 0644), 0);
	assert_int_equal(mknod(at(d, "c"), S_IFCHR | 0666, makedev(1, 3)), 0);
	assert_int_equal(cgs_out_commit(&o), -EINVAL);
	assert_int_equal(lstat(at(d, "c"), &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	assert_int_equal(entries(d), 3);
}

static void test_char_device_in_place(void **state)
{
	struct dir *d = *state;
	struct cgs_out o;
	struct stat st;

	assert_int_equal(mknod(at(d, "null"), S_IFCHR | 0666, makedev(1, 3)), 0);
	assert_int_equal(atomic(at(d, "null"), "into the void\n"), 0);
	assert_int_equal(lstat(at(d, "null"), &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	assert_int_equal(st.st_rdev, makedev(1, 3));
	/* our own link to a device is followed: written in place */
	assert_int_equal(symlink(at(d, "null"), at(d, "out")), 0);
	assert_int_equal(cgs_out_begin(&o, at(d, "out"), 0644), 0);
	assert_int_equal(o.in_place, 1);
	assert_string_equal(o.tmp, "");
	assert_int_equal(cgs_out_write(&o, "x", 1), 0);
	assert_int_equal(cgs_out_commit(&o), 0);
	assert_int_equal(lstat(at(d, "out"), &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	/* a block device is neither written nor replaced */
	assert_int_equal(mknod(at(d, "blk"), S_IFBLK | 0600, makedev(7, 200)), 0);
	assert_int_equal(atomic(at(d, "blk"), "x"), -EINVAL);
	assert_int_equal(entries(d), 3);
}

static void test_fifo_in_place(void **state)
{
	struct dir *d = *state;
	char buf[64] = "";
	struct stat st;
	int p[2];
	pid_t pid;

	assert_int_equal(mkfifo(at(d, "fifo"), 0600), 0);
	assert_int_equal(pipe(p), 0);
	pid = fork();
	if (pid == 0) {
		int fd = open(at(d, "fifo"), O_RDONLY);
		ssize_t n = read(fd, buf, sizeof(buf) - 1);

		if (write(p[1], buf, n > 0 ? (size_t)n : 0) < 0)
			_exit(2);
		_exit(0);
	}
	close(p[1]);
	assert_int_equal(atomic(at(d, "fifo"), "through the fifo"), 0);
	assert_true(read(p[0], buf, sizeof(buf) - 1) > 0);
	assert_string_equal(buf, "through the fifo");
	close(p[0]);
	waitpid(pid, NULL, 0);
	assert_int_equal(lstat(at(d, "fifo"), &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	assert_int_equal(entries(d), 1);
}

/* A temp left by a dead writer is swept; a live writer's, a file of
 * another form, a link and a foreign name are kept. */
static void test_sweep(void **state)
{
	struct dir *d = *state;
	char dname[64], lname[64], aname[64];
	struct cgs_out live;
	struct stat st;
	pid_t dead = fork();

	if (dead == 0)
		_exit(0);
	waitpid(dead, NULL, 0);

	snprintf(dname, sizeof(dname), ".t.json.cgs-%d-abcdefghij01", (int)dead);
	snprintf(lname, sizeof(lname), ".u.json.cgs-%d-abcdefghij02", (int)dead);
	put(at(d, dname), "dead");
	put(at(d, "victim"), "keep");
	assert_int_equal(symlink(at(d, "victim"), at(d, lname)), 0);
	put(at(d, ".t.json.XXXXXX"), "not ours");
	/* unlocked, but its writer is alive (between create and flock) */
	snprintf(aname, sizeof(aname), ".w.json.cgs-%d-abcdefghij04", (int)getpid());
	put(at(d, aname), "alive");
	assert_int_equal(cgs_out_begin(&live, at(d, "v.json"), 0644), 0);
	/* a live writer elsewhere: pid alive and lock held */
	assert_int_equal(cgs_sweep_temps(d->fd), 0);
	assert_int_equal(access(at(d, dname), F_OK), -1);
	assert_int_equal(fstatat(d->fd, live.tmp, &st, 0), 0);
	assert_int_equal(lstat(at(d, lname), &st), 0);
	expect(at(d, "victim"), "keep");
	expect(at(d, ".t.json.XXXXXX"), "not ours");
	expect(at(d, aname), "alive");
	cgs_out_abort(&live);
}

/* The next atomic write into a directory sweeps it. */
static void test_begin_sweeps(void **state)
{
	struct dir *d = *state;
	char dname[64];
	pid_t dead = fork();

	if (dead == 0)
		_exit(0);
	waitpid(dead, NULL, 0);
	snprintf(dname, sizeof(dname), ".x.json.cgs-%d-abcdefghij03", (int)dead);
	put(at(d, dname), "dead");
	assert_int_equal(atomic(at(d, "y.json"), "y"), 0);
	assert_int_equal(access(at(d, dname), F_OK), -1);
	assert_int_equal(entries(d), 1);
}

/* The journal's creation: a link or FIFO at its name is refused. */
static void test_linelog_refuses(void **state)
{
	struct dir *d = *state;
	int fd;

	put(at(d, "victim"), "keep");
	assert_int_equal(symlink(at(d, "victim"), at(d, "j.partial")), 0);
	assert_int_equal(cgs_linelog_create_at(d->fd, "j.partial"), -ELOOP);
	assert_int_equal(cgs_linelog_create(at(d, "j.partial")), -ELOOP);
	assert_int_equal(cgs_linelog_idle(at(d, "j.partial")), -ELOOP);
	expect(at(d, "victim"), "keep");
	assert_int_equal(mkfifo(at(d, "f.partial"), 0600), 0);
	assert_int_equal(cgs_linelog_create_at(d->fd, "f.partial"), -EINVAL);
	assert_int_equal(link(at(d, "victim"), at(d, "h.partial")), 0);
	assert_int_equal(cgs_linelog_create_at(d->fd, "h.partial"), -EINVAL);
	expect(at(d, "victim"), "keep");
	fd = cgs_linelog_create_at(d->fd, "new.partial");
	assert_true(fd >= 0);
	close(fd);
}

/* The directory as mounted now when it is the same one, else -ESTALE. */
static void test_reopen_dir(void **state)
{
	struct dir *d = *state;
	struct stat a, b;
	int old, fd;

	assert_int_equal(mkdir(at(d, "o"), 0755), 0);
	old = open(at(d, "o"), O_RDONLY | O_DIRECTORY);
	fd = cgs_reopen_dir(old, at(d, "o/r.json"));
	assert_true(fd >= 0 && fd != old);
	close(fd);
	assert_int_equal(rename(at(d, "o"), at(d, "o2")), 0);
	assert_int_equal(symlink(d->path, at(d, "o")), 0);
	assert_int_equal(cgs_reopen_dir(old, at(d, "o/r.json")), -ESTALE);
	assert_int_equal(unlink(at(d, "o")), 0);
	assert_int_equal(cgs_reopen_dir(old, at(d, "o/r.json")), -ESTALE);
	assert_int_equal(rename(at(d, "o2"), at(d, "o")), 0);
	fd = cgs_reopen_dir(old, at(d, "o/r.json"));
	assert_int_equal(fstat(fd, &a), 0);
	assert_int_equal(fstat(old, &b), 0);
	assert_true(fd != old && a.st_ino == b.st_ino);
	close(fd);
	close(old);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_new_and_replace, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlink_at_final_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlink_swapped_before_commit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_temp_name_links, setup, teardown),
		cmocka_unit_test_setup_teardown(test_random_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_never_over_dir_or_fifo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_char_device_in_place, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fifo_in_place, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sweep, setup, teardown),
		cmocka_unit_test_setup_teardown(test_begin_sweeps, setup, teardown),
		cmocka_unit_test_setup_teardown(test_linelog_refuses, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reopen_dir, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
