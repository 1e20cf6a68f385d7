/*
 * journal.h - the run's journal beside its output (<output>.partial): each
 * finished point is appended as it finishes, so a killed run, a full disk
 * or a failed final write loses none of them; `cgscale recover` and the
 * next run into the same output turn a dead run's journal into a result.
 */
#ifndef CGS_RUN_JOURNAL_H
#define CGS_RUN_JOURNAL_H

#include <stddef.h>

struct cgs_run;

/* Create the default output's directory and give a default name a suffix
 * (-2, -3...) when another run has it. 0 or -errno with @err. */
int cgs_run_claim_output(struct cgs_run *r, char *err, size_t errlen);

/* Recover a dead journal left at @r's output, then create @r's journal
 * and write its header (after fill_header). 0, or -errno with @err: the
 * run must not start (exit 2). */
int cgs_run_journal_open(struct cgs_run *r, char *err, size_t errlen);

/* Append the finished points not yet in the journal. Warns once when the
 * journal cannot be written; the run goes on. Returns how many points are
 * not in the journal. */
unsigned cgs_run_journal_flush(struct cgs_run *r);

/* Close the journal; remove it unless @keep (the result was not written). */
void cgs_run_journal_close(struct cgs_run *r, int keep);

/* `cgscale recover JOURNAL`: returns the exit status. */
int cgs_cmd_recover(int argc, char **argv);

#endif
