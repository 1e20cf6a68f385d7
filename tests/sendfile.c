/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sendfile - netperf TCP_SENDFILE over loopback (`netperf -t TCP_SENDFILE
 * -- -m 10K`), the case of LKP's netperf memcg reports.
 *
 * Each task owns one TCP connection over loopback. The task is the sender:
 * it sendfile()s --msg-size bytes (10K = 10240) of a file of random bytes
 * in its tmpdir (unlinked), alternating offsets 0 and msg-size, as
 * netperf's two-entry ring does; the file is 2 x (msg-size + 4) bytes, as
 * netperf writes it. Its partner (a thread, or a child process) is the
 * receiver, netserver's recv_tcp_stream: recv() of SO_RCVBUF bytes (the
 * receive buffer's size before the connection: 131072 with Linux's default
 * tcp_rmem) into a ring of two buffers until EOF, never touching the data.
 * No socket option that changes the data path is set unless asked
 * (--sndbuf/--rcvbuf); only send/receive timeouts, so that a dead or stuck
 * receiver fails the point instead of hanging it.
 *
 * One op = one sendfile() call's worth of msg-size bytes sent: a short send
 * counts its bytes and is completed before the next op. Aux counters:
 * tx_bytes (sender) and rx_bytes (receiver), as Mbit/s. At stop the sender
 * ends as netperf does: shutdown(SHUT_WR), wait for the receiver's FIN,
 * then every byte sent must have been received.
 *
 * Knobs: --msg-size, --net 6|4 (::1, or 127.0.0.1; 6 falls back to 4 when
 * ::1 is unavailable, recorded as workload.family), --partner same|next|
 * free, --sndbuf, --rcvbuf. Test knob (environment, not for users):
 * CGSCALE_TEST_RECV_DIE=BYTES makes each receiver die after BYTES.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "workload.h"
#include "../lib/macros.h"

#define SF_TIMEO_S 1                    /* poll granularity of both ends */
#define SF_STALL_S 10                   /* no progress for this long: fail */
#define SF_JOIN_NS (5 * 1000000000LL)   /* receiver's drain at the end */

enum { SF_TX, SF_RX };

struct sf_opts {
	int64_t msg_size;
	int net;
	int partner;
	int64_t sndbuf, rcvbuf;
};

static const char *const sf_nets[] = { "6", "4", NULL };

/* prepare's choice, inherited by the tasks */
struct sf_point {
	struct sockaddr_storage sa;
	socklen_t salen;
	int recv_size;          /* netserver's: SO_RCVBUF before the connection */
};

/* netperf's file: each of its 2 ring entries written as msg + sizeof(int) */
static size_t sf_file_bytes(int64_t msg)
{
	return 2 * ((size_t)msg + sizeof(int));
}

/* the receiver's own copy (see cgs_partner_start) */
struct sf_recv_arg {
	int rfd, sfd, filefd;
	int recv_size;
	int64_t die_after;
};

struct sf_task {
	int sfd, rfd, filefd;
	size_t msg;
};

/*
 * Can we listen on @pt->sa and connect to it? 0 or -errno. The listener
 * also gives netserver's receive size: its SO_RCVBUF before the connection
 * (after --rcvbuf, which Linux doubles), read as netserver reads it.
 */
static int sf_probe(struct sf_point *pt, int64_t rcvbuf)
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

static void sf_loopback(int family, struct sf_point *pt)
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

/* Choose the loopback address once per point, and record it. */
static int sf_prepare(struct cgs_ctx *ctx)
{
	const struct sf_opts *o = ctx->opts;
	struct sf_point *pt = calloc(1, sizeof(*pt));
	char why[160] = "";
	int rc;

	if (!pt)
		return -ENOMEM;
	ctx->priv = pt;
	sf_loopback(o->net == 0 ? AF_INET6 : AF_INET, pt);
	rc = sf_probe(pt, o->rcvbuf);
	if (rc && o->net == 0) {
		snprintf(why, sizeof(why), "::1 is not available (%s); used 127.0.0.1",
			 strerror(-rc));
		sf_loopback(AF_INET, pt);
		rc = sf_probe(pt, o->rcvbuf);
	}
	if (rc)
		return cgs_ctx_fail(ctx, -EOPNOTSUPP,
				    "no usable loopback address (127.0.0.1: %s)",
				    strerror(-rc));
	if (!ctx->extra)
		return 0;
	json_object_object_add(ctx->extra, "family", json_object_new_string(
		pt->sa.ss_family == AF_INET6 ? "ipv6" : "ipv4"));
	json_object_object_add(ctx->extra, "address", json_object_new_string(
		pt->sa.ss_family == AF_INET6 ? "::1" : "127.0.0.1"));
	if (why[0])
		json_object_object_add(ctx->extra, "fallback", json_object_new_string(why));
	json_object_object_add(ctx->extra, "partner", json_object_new_string(
		cgs_partner_place_names[o->partner]));
	json_object_object_add(ctx->extra, "receiver", json_object_new_string(
		ctx->threads ? "thread" : "process"));
	json_object_object_add(ctx->extra, "file_bytes",
			       json_object_new_int64((int64_t)sf_file_bytes(o->msg_size)));
	json_object_object_add(ctx->extra, "recv_size",
			       json_object_new_int(pt->recv_size));
	return 0;
}

static void sf_cleanup(struct cgs_ctx *ctx)
{
	free(ctx->priv);
}

static int sf_timeo(int fd, int opt)
{
	struct timeval tv = { SF_TIMEO_S, 0 };

	return setsockopt(fd, SOL_SOCKET, opt, &tv, sizeof(tv)) ? -errno : 0;
}

/*
 * The receiver: netserver's recv_tcp_stream, in the task's partner. Like
 * netserver it receives into a ring of SO_RCVBUF / recv size + 1 = 2
 * buffers, taking the next one after each call.
 */
static int sf_recv(struct cgs_partner *p, void *arg)
{
	struct sf_recv_arg *a = arg;
	char *buf[2] = { malloc(a->recv_size), malloc(a->recv_size) };
	uint64_t got = 0;
	unsigned k = 0;
	int rc = 0;

	if (cgs_partner_forked(p)) {
		close(a->sfd);
		close(a->filefd);
	}
	if (!buf[0] || !buf[1]) {
		rc = cgs_partner_fail(p, -ENOMEM, "receive buffers");
		goto out;
	}
	for (;;) {
		ssize_t n = recv(a->rfd, buf[k], a->recv_size, 0);

		if (n > 0) {
			k ^= 1;
			got += n;
			cgs_partner_aux_add(p, SF_RX, n);
			if (a->die_after && got >= (uint64_t)a->die_after) {
				/* test knob: a process dies for real; a
				 * thread closes with data unread, as death */
				if (cgs_partner_forked(p))
					kill(getpid(), SIGKILL);
				rc = cgs_partner_fail(p, -EIO, "died on purpose (test knob)");
				goto out;
			}
			continue;
		}
		if (n == 0)
			break;
		if (errno == EINTR)
			continue;
		if ((errno == EAGAIN || errno == EWOULDBLOCK) && !cgs_partner_quit(p))
			continue;
		rc = cgs_partner_fail(p, errno == EAGAIN ? -ETIMEDOUT : -errno,
				      "recv after %llu bytes", (unsigned long long)got);
		goto out;
	}
	/* EOF: netserver answers with its own FIN */
	shutdown(a->rfd, SHUT_WR);
out:
	close(a->rfd);
	free(buf[0]);
	free(buf[1]);
	return rc;
}

/* The file netperf sends from: 2 x msg random bytes, unlinked. */
static int sf_file(struct cgs_task *t, size_t msg)
{
	size_t len = sf_file_bytes((int64_t)msg), done = 0;
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

static int sf_buf(struct cgs_task *t, int fd, int opt, int64_t bytes)
{
	int v = (int)bytes;

	if (bytes && setsockopt(fd, SOL_SOCKET, opt, &v, sizeof(v)))
		return cgs_task_fail(t, -errno, "setting %s to %d",
				     opt == SO_SNDBUF ? "SO_SNDBUF" : "SO_RCVBUF", v);
	return 0;
}

/* Listen on loopback, connect, accept: both ends of the connection. */
static int sf_connect(struct cgs_task *t, struct sf_task *s)
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

static void sf_teardown(struct cgs_task *t)
{
	struct sf_task *s = t->priv;

	if (!s)
		return;
	if (s->sfd >= 0) {
		/* wakes a receiver still reading after a failure */
		shutdown(s->sfd, SHUT_RDWR);
		cgs_partner_join(t, SF_JOIN_NS);
		close(s->sfd);
	}
	if (s->rfd >= 0)
		close(s->rfd);
	if (s->filefd >= 0)
		close(s->filefd);
	free(s);
	t->priv = NULL;
}

static int sf_setup(struct cgs_task *t)
{
	const struct sf_opts *o = t->ctx->opts;
	const char *die = getenv("CGSCALE_TEST_RECV_DIE");
	struct sf_task *s = calloc(1, sizeof(*s));
	struct sf_recv_arg a;
	int rc;

	if (!s)
		return -ENOMEM;
	*s = (struct sf_task){ .sfd = -1, .rfd = -1, .msg = (size_t)o->msg_size };
	t->priv = s;
	s->filefd = sf_file(t, s->msg);
	rc = s->filefd < 0 ? s->filefd : sf_connect(t, s);
	if (rc)
		goto fail;
	a = (struct sf_recv_arg){ .rfd = s->rfd, .sfd = s->sfd,
				  .filefd = s->filefd,
				  .recv_size = ((const struct sf_point *)t->ctx->priv)->recv_size,
				  .die_after = die ? atoll(die) : 0 };
	rc = cgs_partner_start(t, o->partner, "cgs:sf-recv", sf_recv, &a, sizeof(a));
	if (rc)
		goto fail;
	/* the receiver owns its end now; a process partner has its copy */
	if (!t->ctx->threads)
		close(s->rfd);
	s->rfd = -1;
	return 0;
fail:
	sf_teardown(t);   /* the runner calls teardown only after a setup that worked */
	return rc;
}

/*
 * The connection broke (the sender's view, @what) or stalled (@stalled):
 * reap the receiver. A dead receiver's own story comes first; a stuck one
 * is the sender's finding, and it is killed after it.
 */
static int sf_broken(struct cgs_task *t, int err, const char *what, bool stalled)
{
	if (stalled)
		cgs_task_fail(t, err, "%s after %llu bytes sent", what,
			      (unsigned long long)cgs_aux_get(t, SF_TX));
	cgs_partner_join(t, SF_JOIN_NS);
	if (cgs_task_failed(t))
		return err;
	return cgs_task_fail(t, err, "%s after %llu bytes sent", what,
			     (unsigned long long)cgs_aux_get(t, SF_TX));
}

/* Send one message of msg bytes from @off, however many calls it takes. */
static int sf_send_msg(struct cgs_task *t, struct sf_task *s, off_t off)
{
	size_t left = s->msg;
	int stalled = 0;

	while (left) {
		ssize_t n = sendfile(s->sfd, s->filefd, &off, left);

		if (n > 0) {
			left -= n;
			stalled = 0;
			cgs_aux_add(t, SF_TX, n);
			continue;
		}
		if (n == 0)
			return cgs_task_fail(t, -EIO, "sendfile sent nothing at offset %lld",
					     (long long)off);
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN)
			return sf_broken(t, -errno, "sendfile", false);
		/* a full socket for SF_TIMEO_S: is the receiver there? */
		if (!cgs_partner_running(t))
			return sf_broken(t, -EPIPE, "the receiver ended", false);
		if (++stalled * SF_TIMEO_S >= SF_STALL_S)
			return sf_broken(t, -ETIMEDOUT, "the receiver read nothing for 10 s", true);
	}
	return 0;
}

/* netperf's end of test: FIN, wait for the receiver's, count. */
static int sf_finish(struct cgs_task *t, struct sf_task *s)
{
	char c[4];
	int waited = 0, rc;

	if (shutdown(s->sfd, SHUT_WR))
		return cgs_task_fail(t, -errno, "shutdown");
	for (;;) {
		ssize_t n = recv(s->sfd, c, sizeof(c), 0);

		if (n == 0)
			break;
		if (n > 0)
			return cgs_task_fail(t, -EPROTO, "the receiver sent data");
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN)
			return sf_broken(t, -errno, "waiting for the receiver's FIN", false);
		if (!cgs_partner_running(t))
			return sf_broken(t, -EPIPE, "the receiver ended without its FIN", false);
		if (++waited * SF_TIMEO_S >= SF_STALL_S)
			return sf_broken(t, -ETIMEDOUT, "no FIN from the receiver for 10 s", true);
	}
	rc = cgs_partner_join(t, SF_JOIN_NS);
	if (rc)
		return rc;
	if (cgs_aux_get(t, SF_RX) != cgs_aux_get(t, SF_TX))
		return cgs_task_fail(t, -EIO, "the receiver got %llu bytes of the %llu sent",
				     (unsigned long long)cgs_aux_get(t, SF_RX),
				     (unsigned long long)cgs_aux_get(t, SF_TX));
	return 0;
}

static int sf_loop(struct cgs_task *t)
{
	struct sf_task *s = t->priv;
	off_t off = 0;
	int rc;

	while (!cgs_stop(t)) {
		rc = sf_send_msg(t, s, off);
		if (rc)
			return rc;
		cgs_add(t, 1);
		off = off ? 0 : (off_t)s->msg;
	}
	return sf_finish(t, s);
}

#define SO(f) offsetof(struct sf_opts, f)
static const struct cgs_opt sf_optdefs[] = {
	OPT_SIZE("msg-size", 0, SO(msg_size), "10K", 1, 64 << 20,
		"bytes per sendfile() call (netperf -m); the file is 2 x (that + 4), as netperf's"),
	OPT_ENUM("net", 0, SO(net), "6", sf_nets,
		"loopback address: 6 = ::1 (falls back to 127.0.0.1), 4 = 127.0.0.1"),
	OPT_ENUM("partner", 0, SO(partner), "same", cgs_partner_place_names,
		"receiver on the sender's place, the next place, or unpinned"),
	OPT_SIZE("sndbuf", 0, SO(sndbuf), NULL, 0, 1 << 30,
		"SO_SNDBUF of the sender (netperf -s); 0: the kernel's autotuning"),
	OPT_SIZE("rcvbuf", 0, SO(rcvbuf), NULL, 0, 1 << 30,
		"SO_RCVBUF of the receiver (netperf -S); 0: the kernel's autotuning"),
};

static const struct cgs_aux sf_aux[] = {
	[SF_TX] = { "tx_bytes", "Mbit/s", 8e-6 },
	[SF_RX] = { "rx_bytes", "Mbit/s", 8e-6 },
};

/* the file sent: 2 x (msg-size + 4) */
static uint64_t sf_tmpdir_bytes(const void *opts)
{
	return sf_file_bytes(((const struct sf_opts *)opts)->msg_size);
}

const struct cgs_workload sendfile_workload = {
	.name = "sendfile",
	.desc = "netperf TCP_SENDFILE over loopback, receiver as partner",
	.unit = "sendfile of msg-size",
	.aux = sf_aux,
	.naux = ARRAY_SIZE(sf_aux),
	.opts = sf_optdefs,
	.nopts = ARRAY_SIZE(sf_optdefs),
	.opts_size = sizeof(struct sf_opts),
	.prepare = sf_prepare,
	.cleanup = sf_cleanup,
	.setup = sf_setup,
	.loop = sf_loop,
	.teardown = sf_teardown,
	.tmpdir_bytes = sf_tmpdir_bytes,
};
