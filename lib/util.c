/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util.c - one-line file I/O, atomic writes, time stamps and messages.
 */
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/safefile.h"
#include "lib/util.h"

int cgs_read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;

	if (fd < 0)
		return -errno;
	while (got + 1 < len) {
		ssize_t n = read(fd, buf + got, len - 1 - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = -errno;

			close(fd);
			return err;
		}
		if (n == 0)
			break;
		got += n;
	}
	buf[got] = 0;
	close(fd);
	return 0;
}

int cgs_read_line(const char *path, char *buf, size_t len)
{
	int rc = cgs_read_file(path, buf, len);

	if (!rc)
		buf[strcspn(buf, "\n")] = 0;
	return rc;
}

int cgs_write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int rc = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	if (n < 0)
		rc = -errno;
	else if ((size_t)n != strlen(s))
		rc = -EIO;
	if (close(fd) && !rc)
		rc = -errno;
	return rc;
}

void cgs_iso8601_now(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void cgs_stamp_now(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(buf, len, "%Y%m%d-%H%M%S", &tm);
}

int cgs_errf(char *err, size_t errlen, int rc, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return rc;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return rc;
}

char *cgs_fmt(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

/* A message is one line: control characters from the input (a newline
 * in an option's value) are shown escaped, never written raw. */
static void say_as(const char *who, const char *tag, const char *fmt, va_list ap)
{
	char line[1024], safe[4096];
	size_t o = 0;

	vsnprintf(line, sizeof(line), fmt, ap);
	for (const unsigned char *c = (const unsigned char *)line; *c && o + 5 < sizeof(safe); c++) {
		if (*c == '\n')
			o += (size_t)snprintf(safe + o, sizeof(safe) - o, "\\n");
		else if (*c == '\t')
			o += (size_t)snprintf(safe + o, sizeof(safe) - o, "\\t");
		else if (*c < 0x20 || *c == 0x7f)
			o += (size_t)snprintf(safe + o, sizeof(safe) - o, "\\x%02x", *c);
		else
			safe[o++] = (char)*c;
	}
	safe[o] = 0;
	fprintf(stderr, "cgscale%s%s: %s%s\n", who ? " " : "", who ? who : "", tag, safe);
}

static void say(const char *tag, const char *fmt, va_list ap)
{
	say_as(NULL, tag, fmt, ap);
}

void cgs_errs(const char *who, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say_as(who, "", fmt, ap);
	va_end(ap);
}

void cgs_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("", fmt, ap);
	va_end(ap);
}

void cgs_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("warning: ", fmt, ap);
	va_end(ap);
}

int cgs_write_atomic(const char *path, const char *data, size_t len,
		     char *err, size_t errlen)
{
	return cgs_write_atomic_at(-1, path, data, len, err, errlen);
}

/* Write, then put in place; @err says what failed. */
static int write_out(int dirfd, const char *path, const char *data, size_t len,
		     char *err, size_t errlen)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct cgs_out o;
	int rc = cgs_out_begin_at(&o, dirfd, base, 0644);

	if (rc)
		return cgs_errf(err, errlen, rc, "cannot write %s: %s", path, cgs_out_why(rc));
	rc = cgs_out_write(&o, data, len);
	if (rc) {
		cgs_out_abort(&o);
		return cgs_errf(err, errlen, rc, "writing %s: %s", path, strerror(-rc));
	}
	rc = cgs_out_commit(&o);
	if (rc)
		cgs_errf(err, errlen, rc, "cannot put %s in place: %s", path, cgs_out_why(rc));
	return rc;
}

int cgs_write_atomic_at(int dirfd, const char *path, const char *data,
			size_t len, char *err, size_t errlen)
{
	char name[NAME_MAX + 1];
	int dfd = dirfd >= 0 ? dirfd : cgs_open_parent(path, name, sizeof(name)), rc;
	sigset_t hold, old;

	if (dfd < 0)
		return cgs_errf(err, errlen, dfd, "cannot write %s: %s", path, strerror(-dfd));
	/* a temporary file is never left by a signal; a FIFO that waits for
	 * its reader can still be interrupted */
	sigemptyset(&hold);
	if (cgs_out_in_place(dfd, strrchr(path, '/') ? strrchr(path, '/') + 1 : path) != 1) {
		sigaddset(&hold, SIGINT);
		sigaddset(&hold, SIGTERM);
		sigaddset(&hold, SIGHUP);
	}
	sigprocmask(SIG_BLOCK, &hold, &old);
	rc = write_out(dfd, path, data, len, err, errlen);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (dfd != dirfd)
		close(dfd);
	return rc;
}

int64_t cgs_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
