/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run_journal.h - the run's journal beside its output (<output>.partial): each
 * finished point is appended as it finishes, so a killed run, a full disk
 * or a failed final write loses none of them; `cgscale recover` and the
 * next run into the same output turn a dead run's journal into a result.
 */
#ifndef CGS_RUN_JOURNAL_H
#define CGS_RUN_JOURNAL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

struct res_file;

/* A run's journal, held by the run. */
struct cgs_rjournal {
	int fd;                      /* -1: none open */
	int dirfd;                   /* the output's directory, opened once; -1: none */
	char path[PATH_MAX + 16];    /* <output>.partial */
	unsigned done;               /* points appended */
	bool warned;                 /* said once that appending failed */
};

/* Create the default output's directory (@is_default: results/runs/<stamp>/)
 * or pick a free name in -o DIR (@in_dir), adding -2, -3... to @outpath
 * when another run has it; in -o DIR the name is claimed by creating its
 * empty journal (O_EXCL|O_NOFOLLOW through the directory's fd, locked at
 * once), kept open in @j for cgs_rj_open: never reopened by path. @j->fd
 * and @j->dirfd are -1 on entry. 0 or -errno with @err. */
int cgs_rj_claim_output(struct cgs_rjournal *j, char *outpath, size_t len,
			bool is_default, bool in_dir, char *err, size_t errlen);

/* Remove the empty journal of a claim that was not used. */
void cgs_rj_unclaim(struct cgs_rjournal *j);

/* Recover a dead journal left at @outpath, then create @j (through the
 * output's directory fd; a link or device at its name is refused) and
 * write the header of @head (no points yet). An output that is written
 * in place (a device, FIFO or tty) has no journal beside it: 0 with
 * @j->fd -1. 0, or -errno with @err: the run must not start (exit 2). */
int cgs_rj_open(struct cgs_rjournal *j, const char *outpath,
		const struct res_file *head, char *err, size_t errlen);

/* Append the points of @f not yet in the journal. Warns once when the
 * journal cannot be written; the run goes on. Returns how many points are
 * not in the journal. */
unsigned cgs_rj_flush(struct cgs_rjournal *j, const struct res_file *f);

/* Close the journal (and the directory); remove it unless @keep (the
 * result was not written). */
void cgs_rj_close(struct cgs_rjournal *j, bool keep);

/* Turn the dead journal @journal into the result @out (chosen when
 * empty; never @avoid), with *@npoints points: `cgscale recover`. 0;
 * -EBUSY (a live run writes it), -EINVAL (not a journal), -ENOENT: bad
 * input, said in @err; other -errno: the write failed. */
int cgs_rj_recover(const char *journal, const char *avoid, char *out,
		   size_t outlen, unsigned *npoints, char *err, size_t errlen);

#endif
