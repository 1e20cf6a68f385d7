/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run_journal.h - the run's journal beside its output (<output>.partial): each
 * finished point is appended as it finishes, its line checksummed with the
 * run id, so a killed run, a full or failing disk or a failed final write
 * loses none of them. When the journal beside the output cannot take a
 * point (full, failing, its directory gone), the journal moves to the
 * fallback place (runner/run/fallback.h) with every point, and says so.
 * `cgscale recover` and the next run into the same output turn a dead
 * run's journal into a result, unless a result of the same run is there
 * already.
 */
#ifndef CGS_RUN_JOURNAL_H
#define CGS_RUN_JOURNAL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct res_file;

/* A run's journal, held by the run. */
struct cgs_rjournal {
	int fd;                      /* -1: none open */
	int dirfd;                   /* the output's directory, opened once; -1: none */
	char path[PATH_MAX + 16];    /* <output>.partial */
	char fbpath[PATH_MAX];       /* the journal in the fallback place, after
				      * a move; "" */
	char output[PATH_MAX];       /* the output, absolute */
	char id[40];                 /* the run id ("": none) */
	uint32_t key;                /* of the lines' checksums (the run id) */
	unsigned done;               /* points in the journal */
	int failed;                  /* the first error of the journal beside
				      * the output (-errno), 0: none */
	int unsynced;                /* a failed fsync of the journal (-errno) */
	bool moved;                  /* fd is the fallback journal's */
	bool left_beside;            /* the move could not remove <output>.partial */
	dev_t bdev;                  /* its file then, to remove it at the end */
	ino_t bino;
	bool warned;                 /* said once that appending failed */
	bool fb_warned;              /* and that the fallback one failed too */
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

/* Append the points of @f not yet in the journal; move the journal to the
 * fallback place when the one beside the output cannot take them, or is
 * gone. Warns once; the run goes on. Returns how many points are in no
 * journal. */
unsigned cgs_rj_flush(struct cgs_rjournal *j, const struct res_file *f);

/* The journal written now: <output>.partial, or the fallback one. */
const char *cgs_rj_path(const struct cgs_rjournal *j);

/* Say where the @npoints points of a run whose result file @outpath was
 * not written are (after cgs_rj_flush, which left @left out). */
void cgs_rj_say_kept(const struct cgs_rjournal *j, const char *outpath,
		     unsigned npoints, unsigned left);

/* Close the journal (and the directory); remove it unless @keep (the
 * result was not written). */
void cgs_rj_close(struct cgs_rjournal *j, bool keep);

/* What cgs_rj_recover did. */
struct cgs_rj_recovered {
	char out[PATH_MAX];          /* the result written, or the one that
				      * holds the run already */
	unsigned npoints;
	bool already;                /* a result of the same run (its id) held
				      * every point: nothing written */
};

/* Turn the dead journal @journal into a result: @want (NULL: chosen:
 * the output it was for when free and not @avoid, else
 * <stem>-recovered[-N].json), unless a result of the same run id already
 * holds its points (then the journal is only removed). Damaged and bad
 * lines are named on stderr. 0; -EBUSY (a live run writes it), -EINVAL
 * (not a journal), -ENOENT: bad input, said in @err; other -errno: the
 * write failed. */
int cgs_rj_recover(const char *journal, const char *avoid, const char *want,
		   struct cgs_rj_recovered *rv, char *err, size_t errlen);

#endif
