/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * journal_keep.h - what keeps a run's points when the journal beside its
 * output fails (runner/run/journal_keep.c): the writing of the journal's
 * lines, its move to the fallback place, the run id that tells a finished
 * result from a dead journal, and the naming of a journal's bad lines.
 */
#ifndef CGS_JOURNAL_KEEP_H
#define CGS_JOURNAL_KEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct res_file;
struct res_journal_info;
struct cgs_rjournal;

/* The header of @head for @output, twice (a damaged copy loses nothing).
 * 0 or the write's -errno. */
int cgs_rj_put_header(int fd, const struct res_file *head, const char *output);

/* Write the points [*@done, npoints) of @f, *@done counting the lines
 * written, then fsync (its -errno in *@sync, 0 when it worked). 0 or the
 * write's -errno. */
int cgs_rj_put_points(int fd, uint32_t key, const struct res_file *f,
		      unsigned *done, int *sync);

/* Whether the journal's fd is still the file at its name (not removed
 * with its directory). */
bool cgs_rj_still_there(const struct cgs_rjournal *j);

/* Remove the fallback journal of @j (the result holds its points) and
 * the <output>.partial the move left, if still the same file. */
void cgs_rj_drop_moved(struct cgs_rjournal *j);

/* Move @j, whose journal failed with @why, to the fallback place with
 * every point of @f; warns once either way. 0 or -errno. */
int cgs_rj_move(struct cgs_rjournal *j, const struct res_file *f, int why);

/* Whether one of the @n files @cand is a result of run @id with at least
 * @npoints points: 1 with its name in @found, else 0. */
int cgs_rj_finished(const char *id, unsigned npoints, char *const *cand,
		    size_t n, char *found, size_t len);

/* Name each dropped line of @journal (@in) on stderr, and a journal
 * without checksums. */
void cgs_rj_name_bad(const char *journal, const struct res_journal_info *in);

#endif
