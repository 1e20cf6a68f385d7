/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * invoke.h - `run --invocations K`: the whole run, K times, each a fresh
 * process (a re-exec of cgscale) writing its own result file into the -o
 * directory, so that compare can tell the variance between invocations
 * (heap and page placement, caches, the kernel's state at start) from the
 * variance between runs of one. Every result records its invocation
 * (res_file.invocation: a random id, index, of, series).
 */
#ifndef CGS_INVOKE_H
#define CGS_INVOKE_H

#include <stddef.h>

struct cgs_run;

/* Check --invocations against the other options (after the output path
 * was checked); 0 or -EINVAL with a one-line message in @err. */
int cgs_invoke_validate(struct cgs_run *r, char *err, size_t errlen);

/* In the process the user started, with K > 1: run the K invocations one
 * after the other and return the exit status of the whole (the worst of
 * theirs; 128 + signal when interrupted, and no further invocation
 * starts). -1 in an invocation itself, which goes on to run the points. */
int cgs_invoke_all(struct cgs_run *r);

/* Record this invocation in r->res.invocation. 0 or -ENOMEM. */
int cgs_invoke_record(struct cgs_run *r);

#endif
