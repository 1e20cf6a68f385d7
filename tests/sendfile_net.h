/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sendfile_net.h - what the sendfile workload (tests/sendfile.c) takes
 * from netperf and netserver: the loopback address and its probe,
 * netserver's receive size, netperf's ring of offsets and its file, and
 * the connection, with the options and per-point and per-task state they
 * share.
 */
#ifndef CGS_SENDFILE_NET_H
#define CGS_SENDFILE_NET_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "tests/workload.h"

#define SF_TIMEO_S 1                    /* poll granularity of both ends */
#define SF_STALL_S 10                   /* no progress for this long: fail */
#define SF_JOIN_NS (5 * 1000000000LL)   /* receiver's drain at the end */

struct sf_opts {
	int64_t msg_size;
	int net;
	int partner;
	int64_t sndbuf, rcvbuf;
};

/* prepare's choice, inherited by the tasks */
struct sf_point {
	struct sockaddr_storage sa;
	socklen_t salen;
	int recv_size;          /* netserver's: SO_RCVBUF before the connection */
	unsigned width;         /* netperf's ring of offsets in the file */
};

struct sf_task {
	int sfd, rfd, filefd;
	size_t msg;
	unsigned width;
};

/* Loopback (::1 or 127.0.0.1) for @family into @pt. */
void sf_loopback(int family, struct sf_point *pt);

/* Can we listen on @pt->sa and connect to it? 0 or -errno; sets
 * pt->recv_size, netserver's receive size (SO_RCVBUF after @rcvbuf). */
int sf_probe(struct sf_point *pt, int64_t rcvbuf);

/* netperf's ring: SO_SNDBUF of a new socket (after @sndbuf) / @msg + 1
 * entries, at least 2. */
unsigned sf_width(int family, int64_t msg, int64_t sndbuf);

/* netperf's file: @width entries of @msg + sizeof(int) bytes. */
size_t sf_file_bytes(unsigned width, int64_t msg);

/* Write that file, random and unlinked, in the task's tmpdir: the fd, or
 * -errno with the task failed. */
int sf_file(struct cgs_task *t, const struct sf_task *s);

/* Listen on loopback, connect, accept: s->sfd and s->rfd, with 1 s send
 * and receive timeouts. 0 or -errno with the task failed. */
int sf_connect(struct cgs_task *t, struct sf_task *s);

#endif
