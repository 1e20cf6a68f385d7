/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * page_fault_file.h - the file-backed half of page_fault2 and page_fault3:
 * each task maps a 128 MiB sparse file of its own in --tmpdir, writes one
 * byte per page, and unmaps it. Only the mapping flag differs.
 */
#ifndef CGS_PAGE_FAULT_FILE_H
#define CGS_PAGE_FAULT_FILE_H

#include "tests/workload.h"

#define PF_FILE_MEMSIZE (128L << 20)

/* setup/teardown shared by both: a file of the task's own. */
int pf_file_setup(struct cgs_task *t);
void pf_file_teardown(struct cgs_task *t);

/* The most one task keeps in --tmpdir: the whole file. On a tmpfs even a
 * MAP_PRIVATE write fault fills the file's page first (page_fault2 too). */
uint64_t pf_file_tmpdir_bytes(const void *opts);

/* The loop, with MAP_PRIVATE (page_fault2) or MAP_SHARED (page_fault3). */
int pf_file_loop(struct cgs_task *t, int map_flag);

#endif
