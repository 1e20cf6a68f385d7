/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * list.h - every observer of a point, one line each, in the order their
 * hooks are called and their sections are written (observer.h). Add a
 * line here and a runner/observe/<name>.c that defines
 * `const struct cgs_obs_def <name>_observer`.
 */
CGS_OBSERVER(pmu)
CGS_OBSERVER(profile)
CGS_OBSERVER(stat_read)
CGS_OBSERVER(stat_reader)
CGS_OBSERVER(profile_scope)
CGS_OBSERVER(vmstat)
CGS_OBSERVER(psi)
CGS_OBSERVER(cputime)
CGS_OBSERVER(account)
CGS_OBSERVER(trace)
