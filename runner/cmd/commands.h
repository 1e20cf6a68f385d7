/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * commands.h - every subcommand of cgscale, one line each, in the order
 * `cgscale --help`, cgscale(1) and the completion list them. Add a line
 * here and a runner/cmd/<name>.c that defines
 * `const struct cgs_command cgs_cmd_<name>` (cmd.h); its dispatch, page,
 * --help and completion follow. Included by commands.c only (and the
 * Makefile reads the page names from it).
 */
CGS_COMMAND(run)
CGS_COMMAND(list)
CGS_COMMAND(events)
CGS_COMMAND(compare)
CGS_COMMAND(show)
CGS_COMMAND(export)
CGS_COMMAND(cgroup)
CGS_COMMAND(report)
CGS_COMMAND(recover)
CGS_COMMAND(ab)
