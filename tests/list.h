/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * list.h - tests/ holds the workloads (the suite's benchmarks, one C file
 * each; the project's own tests are in check/). This is every workload,
 * one line each, in the stable order that
 * `cgscale list` prints and the runner uses. Add a line here and a
 * tests/<name>.c that defines `const struct cgs_workload <name>_workload`.
 */
CGS_WORKLOAD(page_fault1)
CGS_WORKLOAD(page_fault2)
CGS_WORKLOAD(page_fault3)
CGS_WORKLOAD(fallocate2)
CGS_WORKLOAD(stat_read)
CGS_WORKLOAD(sendfile)
CGS_WORKLOAD(remap)
