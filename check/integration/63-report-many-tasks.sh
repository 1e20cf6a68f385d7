#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 63-report-many-tasks.sh - above 64 tasks the report draws the per-task
# figure as the distribution of the tasks' rates (sorted, one line per
# run) with a table of quantiles that names the slowest and fastest task,
# not a bar and a table row per task; at 64 tasks and below, the bars.
. "$(dirname "$0")/lib.sh"
command -v gnuplot >/dev/null || skip "no gnuplot (Debian gnuplot-nox): the charts are what is tested"

"$CGSCALE" run -q -t 8,80 -m thread -r 2 -w 0 -d 300ms -i 100ms -o r.json fallocate2 \
	>/dev/null 2>err.txt || fail "run: $(cat err.txt)"
"$CGSCALE" report -o r.html r.json >/dev/null 2>err.txt || fail "report: $(cat err.txt)"
grep -q 'fallocate2, thread, 80 tasks: ops/s of each task, slowest to fastest</figcaption>' r.html ||
	fail "no distribution figure for 80 tasks"
grep -q 'fallocate2, thread, 8 tasks: ops/s of each task</figcaption>' r.html ||
	fail "no bar figure for 8 tasks"
grep -q 'fallocate2, thread, 80 tasks: ops/s of each task</figcaption>' r.html &&
	fail "a bar figure for 80 tasks"
# the table: one row per run (2), naming tasks by index and cpuset
sec=$(awk '/80 tasks: ops\/s of each task, slowest to fastest/,/<\/figure>/' r.html)
rows=$(printf '%s\n' "$sec" | grep -c '^<tr><td>run ')
[ "$rows" -eq 2 ] || fail "distribution table: $rows run rows, want 2"
printf '%s\n' "$sec" | grep -Eq '<td>task [0-9]+ \([0-9-]+\): [0-9]+</td><td>task [0-9]+ \(' ||
	fail "slowest and fastest tasks not named"
printf '%s\n' "$sec" | grep -q '<svg' || fail "the distribution was not drawn"
exit 0
