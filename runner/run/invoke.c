/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * invoke.c - `run --invocations K` (invoke.h). The process the user
 * started checks everything, then runs cgscale again K times, one after
 * the other, with CGSCALE_INVOCATION=i/K/SERIES in the environment; each
 * is a fresh process of this very file, by fd (new heap, new page
 * placement, its own ASLR-off re-exec) that runs every point -r times
 * and writes its own file
 * DIR/cgscale-STAMP-invI.json. SIGINT/SIGTERM/SIGHUP are passed on to the
 * running invocation, which keeps its completed points, and no further
 * invocation starts; a kill -9 takes the running invocation down with it
 * (PR_SET_PDEATHSIG). Knobs: INVOKE_ENV.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include "lib/safedir.h"
#include "runner/run/invoke.h"
#include "runner/run/run.h"
#include "lib/exit.h"
#include "lib/pdeath.h"
#include "lib/util.h"

#define INVOKE_ENV "CGSCALE_INVOCATION"

/* 16 random bytes in hex into @buf (33 bytes). */
static int random_id(char *buf)
{
	unsigned char b[16];

	if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b))
		return -errno;
	for (size_t i = 0; i < sizeof(b); i++)
		snprintf(buf + 2 * i, 3, "%02x", b[i]);
	return 0;
}

/* In an invocation of a series: parse the environment. */
static int parse_env(struct cgs_run *r, const char *env, char *err, size_t errlen)
{
	unsigned i, k;
	char series[33];

	if (sscanf(env, "%u/%u/%32[0-9a-f]", &i, &k, series) != 3 || !i || i > k ||
	    strlen(series) != 32)
		return cgs_errf(err, errlen, -EINVAL,
				"%s='%s' is not INDEX/COUNT/SERIES; unset it", INVOKE_ENV, env);
	r->inv_index = i;
	r->inv_of = k;
	snprintf(r->inv_series, sizeof(r->inv_series), "%s", series);
	return 0;
}

int cgs_invoke_validate(struct cgs_run *r, char *err, size_t errlen)
{
	const char *env = getenv(INVOKE_ENV);
	struct stat st;
	char stamp[32];
	int rc;

	r->inv_index = r->inv_of = 1;
	if (env && *env) {
		rc = parse_env(r, env, err, errlen);
		if (rc || !r->o.output)
			return rc;
		/* one file per invocation in the series' directory */
		cgs_stamp_now(stamp, sizeof(stamp));
		if (snprintf(r->outpath, sizeof(r->outpath), "%s/cgscale-%s-inv%u.json",
			     r->o.output, stamp, r->inv_index) >= (int)sizeof(r->outpath))
			return cgs_errf(err, errlen, -ENAMETOOLONG, "-o %s: path too long",
					r->o.output);
		return 0;
	}
	if (r->o.invocations < 2)
		return 0;
	if (r->o.runs_auto)
		return cgs_errf(err, errlen, -EINVAL,
				"--invocations %lld with -r auto: auto stops on one invocation's runs; give a count, e.g. -r 5 --invocations %lld",
				(long long)r->o.invocations, (long long)r->o.invocations);
	if (r->o.csv_dir)
		return cgs_errf(err, errlen, -EINVAL,
				"--invocations %lld with --csv-dir: each invocation would overwrite the last one's CSV; run the invocations one by one with a --csv-dir each",
				(long long)r->o.invocations);
	if (r->o.output && (stat(r->o.output, &st) || !S_ISDIR(st.st_mode)))
		return cgs_errf(err, errlen, -EINVAL,
				"--invocations %lld writes one file per invocation: give -o an existing directory, not %s",
				(long long)r->o.invocations, r->o.output);
	return random_id(r->inv_series) ? cgs_errf(err, errlen, -EIO,
			"cannot read random bytes for the series id") : 0;
}

/* The directory the invocations write into: -o, or a new one under
 * results/runs/ (ours to create, as for a single run). */
static int series_dir(struct cgs_run *r, char *dir, size_t len)
{
	char stamp[32];
	int fd;

	if (r->o.output) {
		snprintf(dir, len, "%s", r->o.output);
		return 0;
	}
	cgs_stamp_now(stamp, sizeof(stamp));
	snprintf(dir, len, "results/runs/%s", stamp);
	fd = cgs_open_dir(dir, CGS_DIR_CREATE, 0755);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

/* Start invocation @i and wait for it, passing signals on. Its exit
 * status, and *@sig the signal that came meanwhile. */
static int one(struct cgs_run *r, const char *dir, unsigned i, int self,
	       const sigset_t *set, const sigset_t *old, int *sig)
{
	char env[128], **av = calloc(r->argc + 4, sizeof(*av));
	size_t k;
	int status = 70;
	pid_t parent, pid;

	if (!av)
		return CGS_EXIT_INTERNAL;
	av[0] = "cgscale";
	av[1] = r->argv[0];
	k = 2;
	if (!r->o.output) {    /* else the user's own -o names @dir already */
		av[k++] = "--output";
		av[k++] = (char *)dir;
	}
	memcpy(av + k, r->argv + 1, (r->argc - 1) * sizeof(*av));
	snprintf(env, sizeof(env), "%u/%lld/%s", i, (long long)r->o.invocations,
		 r->inv_series);
	fprintf(stderr, "cgscale: invocation %u of %lld\n", i, (long long)r->o.invocations);
	parent = getpid();
	pid = fork();
	if (pid == 0) {
		/* a kill -9 of this process takes the invocation (and, as
		 * each dies with its parent, its workers and tasks) down */
		cgs_die_with_parent(parent);
		setenv(INVOKE_ENV, env, 1);
		sigprocmask(SIG_SETMASK, old, NULL);
		fexecve(self, av, environ);
		_exit(70);
	}
	free(av);
	if (pid < 0)
		return CGS_EXIT_INTERNAL;
	for (;;) {
		siginfo_t si;
		int s = sigwaitinfo(set, &si);

		if (s == SIGCHLD) {
			pid_t w = waitpid(pid, &status, WNOHANG);

			if (w == pid)
				break;
			continue;
		}
		if (s > 0) {
			*sig = s;
			kill(pid, s);
		}
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

int cgs_invoke_all(struct cgs_run *r)
{
	char dir[PATH_MAX];
	sigset_t set, old;
	int worst = 0, sig = 0, rc, self;
	unsigned started = 0;

	if (getenv(INVOKE_ENV) || r->o.invocations < 2)
		return -1;
	/* every invocation is this very build, by fd: a make that replaces
	 * the file, or a mount that hides its folder, mid-series changes
	 * nothing (by path, the later invocations ran whatever was there) */
	self = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (self < 0) {
		cgs_err("cannot open this binary (/proc/self/exe): %s", strerror(errno));
		return CGS_EXIT_INTERNAL;
	}
	rc = series_dir(r, dir, sizeof(dir));
	if (rc) {
		cgs_err("cannot create the directory %s: %s", dir, strerror(-rc));
		close(self);
		return CGS_EXIT_INTERNAL;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, &old);
	for (unsigned i = 1; i <= r->o.invocations && !sig; i++) {
		int st = one(r, dir, i, self, &set, &old, &sig);

		started = i;
		if (st > worst)
			worst = st;
		if (st >= 128 || st == 2 || st == 70)
			break;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(self);
	if (sig && worst < 128)
		worst = 128 + sig;
	cgs_info("%s: the files of %u of %lld invocations (series %s); compare this directory as one side: it knows each file is one invocation",
		dir, started, (long long)r->o.invocations, r->inv_series);
	return worst;
}

int cgs_invoke_record(struct cgs_run *r)
{
	struct json_object *o = json_object_new_object();
	char id[33];

	if (!o)
		return -ENOMEM;
	if (random_id(id))
		snprintf(id, sizeof(id), "%016llx%016llx", (unsigned long long)getpid(),
			 (unsigned long long)cgs_now_ns());
	json_object_object_add(o, "id", json_object_new_string(id));
	json_object_object_add(o, "index", json_object_new_int((int)r->inv_index));
	json_object_object_add(o, "of", json_object_new_int((int)r->inv_of));
	if (r->inv_series[0])
		json_object_object_add(o, "series", json_object_new_string(r->inv_series));
	r->res.invocation = o;
	return 0;
}
