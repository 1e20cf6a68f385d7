/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sendfile - netperf TCP_SENDFILE over loopback (`netperf -t TCP_SENDFILE
 * -- -m 10K`), the case of LKP's netperf memcg reports.
 *
 * Each task owns one TCP connection over loopback. The task is the sender:
 * it sendfile()s --msg-size bytes (10K = 10240) of a file of random bytes
 * in its tmpdir (unlinked), going round netperf's ring: W = SO_SNDBUF /
 * msg-size + 1 entries (at least 2; SO_SNDBUF as the new socket reports
 * it, after --sndbuf: 16384 with Linux's default tcp_wmem, so W = 2 at
 * 10K), at offsets 0, W-1, ..., 1 times msg-size, in a file of
 * W x (msg-size + 4) bytes, as netperf writes it (tests/sendfile_net.c).
 * Its partner (a thread, or a child process) is the receiver, netserver's
 * recv_tcp_stream: recv() of SO_RCVBUF bytes (the
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
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>

#include <json-c/json.h>

#include "tests/sendfile_net.h"
#include "tests/workload.h"
#include "lib/macros.h"

enum { SF_TX, SF_RX };

static const char *const sf_nets[] = { "6", "4", NULL };

/* the receiver's own copy (see cgs_partner_start) */
struct sf_recv_arg {
	int rfd, sfd, filefd;
	int recv_size;
	int64_t die_after;
};

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
	pt->width = sf_width(pt->sa.ss_family, o->msg_size, o->sndbuf);
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
			       json_object_new_int64((int64_t)sf_file_bytes(pt->width, o->msg_size)));
	json_object_object_add(ctx->extra, "ring_entries", json_object_new_int((int)pt->width));
	json_object_object_add(ctx->extra, "recv_size",
			       json_object_new_int(pt->recv_size));
	return 0;
}

static void sf_cleanup(struct cgs_ctx *ctx)
{
	free(ctx->priv);
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
	*s = (struct sf_task){ .sfd = -1, .rfd = -1, .msg = (size_t)o->msg_size,
			       .width = ((const struct sf_point *)t->ctx->priv)->width };
	t->priv = s;
	s->filefd = sf_file(t, s);
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
	unsigned k = 0;
	int rc;

	while (!cgs_stop(t)) {
		rc = sf_send_msg(t, s, (off_t)k * (off_t)s->msg);
		if (rc)
			return rc;
		cgs_add(t, 1);
		k = k ? k - 1 : s->width - 1;   /* netperf's ring: 0, W-1, ..., 1 */
	}
	return sf_finish(t, s);
}

#define SO struct sf_opts
static const struct cgs_opt sf_optdefs[] = {
	OPT_SIZE("msg-size", 0, SO, msg_size, .def = "10K", .min = 1,
		.max = 64 << 20,
		.help = "bytes per sendfile() call (netperf -m); netperf's ring of SO_SNDBUF / SIZE + 1 such pieces is the file sent"),
	OPT_ENUM("net", 0, SO, net, .def = "6", .choices = sf_nets,
		.help = "loopback address: 6 = ::1 (falls back to 127.0.0.1), 4 = 127.0.0.1"),
	OPT_ENUM("partner", 0, SO, partner, .def = "same",
		.choices = cgs_partner_place_names,
		.help = "receiver on the sender's place, the next place, or unpinned"),
	OPT_SIZE("sndbuf", 0, SO, sndbuf, .min = 0, .max = 1 << 30,
		.help = "SO_SNDBUF of the sender (netperf -s); 0: the kernel's autotuning"),
	OPT_SIZE("rcvbuf", 0, SO, rcvbuf, .min = 0, .max = 1 << 30,
		.help = "SO_RCVBUF of the receiver (netperf -S); 0: the kernel's autotuning"),
};

static const struct cgs_aux sf_aux[] = {
	[SF_TX] = { "tx_bytes", "Mbit/s", 8e-6 },
	[SF_RX] = { "rx_bytes", "Mbit/s", 8e-6 },
};

/* the file sent: netperf's ring */
static uint64_t sf_tmpdir_bytes(const void *opts)
{
	const struct sf_opts *o = opts;

	return sf_file_bytes(sf_width(AF_INET, o->msg_size, o->sndbuf), o->msg_size);
}

/* A loopback address to listen on and connect to: 127.0.0.1 at least. */
static int sf_supported(const void *opts, char *why, size_t len)
{
	const struct sf_opts *o = opts;
	struct sf_point pt = { 0 };
	int rc;

	sf_loopback(AF_INET, &pt);
	rc = sf_probe(&pt, o->rcvbuf);
	if (rc)
		snprintf(why, len, "no usable loopback address (127.0.0.1: %s)", strerror(-rc));
	return rc ? -EOPNOTSUPP : 0;
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
	.supported = sf_supported,
};
