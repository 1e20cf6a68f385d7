/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sendfile_net.c - netperf's and netserver's parts of the sendfile
 * workload (see sendfile_net.h): read from the socket the way they read
 * them, so that a box with a tuned tcp_rmem/tcp_wmem, or --sndbuf and
 * --rcvbuf, gets what netperf -s/-S would.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/random.h>
#include <sys/time.h>
#include <unistd.h>

#include "tests/sendfile_net.h"

void sf_loopback(int family, struct sf_point *pt)
{
	memset(&pt->sa, 0, sizeof(pt->sa));
	if (family == AF_INET6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)&pt->sa;

		a->sin6_family = AF_INET6;
		a->sin6_addr = in6addr_loopback;
		pt->salen = sizeof(*a);
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)&pt->sa;

		a->sin_family = AF_INET;
		a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		pt->salen = sizeof(*a);
	}
}

/*
 * Can we listen on @pt->sa and connect to it? 0 or -errno. The listener
 * also gives netserver's receive size: its SO_RCVBUF before the connection
 * (after --rcvbuf, which Linux doubles), read as netserver reads it.
 */
int sf_probe(struct sf_point *pt, int64_t rcvbuf)
{
	struct sockaddr_storage sa = pt->sa;
	socklen_t len = pt->salen, vlen = sizeof(int);
	int lfd = socket(sa.ss_family, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_TCP);
	int fd = socket(sa.ss_family, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_TCP);
	int v = (int)rcvbuf, rc = 0;

	if (lfd < 0 || fd < 0 || bind(lfd, (struct sockaddr *)&sa, len) ||
	    (rcvbuf && setsockopt(lfd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v))) ||
	    getsockopt(lfd, SOL_SOCKET, SO_RCVBUF, &v, &vlen) ||
	    listen(lfd, 1) || getsockname(lfd, (struct sockaddr *)&sa, &len) ||
	    connect(fd, (struct sockaddr *)&sa, len))
		rc = -errno;
	if (lfd >= 0)
		close(lfd);
	if (fd >= 0)
		close(fd);
	pt->recv_size = v > 0 ? v : 4096;   /* netserver's fallback */
	return rc;
}

/*
 * netperf's sendfile ring: SO_SNDBUF of a new socket (after -s) / msg + 1
 * entries, at least 2; 2 when the socket cannot be asked.
 */
unsigned sf_width(int family, int64_t msg, int64_t sndbuf)
{
	int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_TCP);
	int v = (int)sndbuf;
	socklen_t len = sizeof(v);
	int64_t w = 2;

	if (fd >= 0 && (!sndbuf || !setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v))) &&
	    !getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, &len) && v > 0)
		w = v / msg + 1;
	if (fd >= 0)
		close(fd);
	return w < 2 ? 2 : (unsigned)w;
}

/* netperf's file: each ring entry written as msg + sizeof(int) bytes */
size_t sf_file_bytes(unsigned width, int64_t msg)
{
	return width * ((size_t)msg + sizeof(int));
}

/* The file netperf sends from: random bytes, unlinked. */
int sf_file(struct cgs_task *t, const struct sf_task *s)
{
	size_t len = sf_file_bytes(s->width, (int64_t)s->msg), done = 0;
	char buf[4096];
	int fd = cgs_task_tmpfile(t, 0);

	while (fd >= 0 && done < len) {
		size_t n = len - done < sizeof(buf) ? len - done : sizeof(buf);

		if (getrandom(buf, n, 0) != (ssize_t)n ||
		    pwrite(fd, buf, n, done) != (ssize_t)n) {
			int err = -errno;

			close(fd);
			return cgs_task_fail(t, err ? err : -EIO,
					     "writing the %zu-byte file to send", len);
		}
		done += n;
	}
	return fd;
}

static int sf_timeo(int fd, int opt)
{
	struct timeval tv = { SF_TIMEO_S, 0 };

	return setsockopt(fd, SOL_SOCKET, opt, &tv, sizeof(tv)) ? -errno : 0;
}

static int sf_buf(struct cgs_task *t, int fd, int opt, int64_t bytes)
{
	int v = (int)bytes;

	if (bytes && setsockopt(fd, SOL_SOCKET, opt, &v, sizeof(v)))
		return cgs_task_fail(t, -errno, "setting %s to %d",
				     opt == SO_SNDBUF ? "SO_SNDBUF" : "SO_RCVBUF", v);
	return 0;
}

/* Listen on loopback, connect, accept: both ends of the connection. */
int sf_connect(struct cgs_task *t, struct sf_task *s)
{
	const struct sf_opts *o = t->ctx->opts;
	const struct sf_point *pt = t->ctx->priv;
	struct sockaddr_storage sa = pt->sa;
	socklen_t len = pt->salen;
	int one = 1, lfd, rc;

	lfd = socket(sa.ss_family, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_TCP);
	if (lfd < 0)
		return cgs_task_fail(t, -errno, "socket");
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* on the listener, so the accepted socket starts with it */
	rc = sf_buf(t, lfd, SO_RCVBUF, o->rcvbuf);
	if (!rc && (bind(lfd, (struct sockaddr *)&sa, len) || listen(lfd, 1) ||
		    getsockname(lfd, (struct sockaddr *)&sa, &len)))
		rc = cgs_task_fail(t, -errno, "listening on loopback");
	if (!rc) {
		s->sfd = socket(sa.ss_family, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_TCP);
		if (s->sfd < 0)
			rc = cgs_task_fail(t, -errno, "socket");
	}
	if (!rc) {
		setsockopt(s->sfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		rc = sf_buf(t, s->sfd, SO_SNDBUF, o->sndbuf);
	}
	if (!rc && connect(s->sfd, (struct sockaddr *)&sa, len))
		rc = cgs_task_fail(t, -errno, "connecting over loopback");
	if (!rc) {
		s->rfd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (s->rfd < 0)
			rc = cgs_task_fail(t, -errno, "accept");
	}
	if (!rc && (sf_timeo(s->sfd, SO_SNDTIMEO) || sf_timeo(s->sfd, SO_RCVTIMEO) ||
		    sf_timeo(s->rfd, SO_RCVTIMEO)))
		rc = cgs_task_fail(t, -errno, "setting socket timeouts");
	close(lfd);
	return rc;
}
