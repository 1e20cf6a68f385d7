#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 46-perf-nonroot.sh - perf counters for a user who is not root, run as
# nobody (setpriv, no groups; its files in a directory of its own):
#   - with kernel.perf_event_paranoid >= 2, events asked for user+kernel
#     fall back to user mode, and say so (stderr, table, results); the
#     scheduler's events, which only happen in kernel mode, say
#     <not supported> rather than a 0 that means nothing; :k is refused
#     with the kernel's reason; page-faults still count one per op;
#   - tasks x events above a hard RLIMIT_NOFILE that nobody cannot raise
#     fail before running, with the number needed and the limit.
. "$(dirname "$0")/lib.sh"
d=$T
[ "$(id -u)" = 0 ] || skip "needs root to switch to nobody"
command -v setpriv >/dev/null || skip "no setpriv (util-linux)"
[ -r /proc/sys/kernel/perf_event_paranoid ] || skip "this kernel has no perf_event support"
asnobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
asnobody test -x "$CGSCALE" ||
	skip "nobody cannot run $CGSCALE (a directory above it is closed to others)"
chown 65534:65534 "$d" || exit 1
par=$(cat /proc/sys/kernel/perf_event_paranoid)

asnobody "$CGSCALE" run -q -t 1 -m both -w 200ms -d 1s -i 250ms --tmpdir "$d" \
	-e page-faults,context-switches,task-clock,cycles:k page_fault1 \
	-o "$d/r.json" >"$d/out" 2>"$d/err" ||
	{ rc=$?; cat "$d/err"; fail "run as nobody exited $rc"; }
jq -e '[.points[] | .status == "ok"] | all' "$d/r.json" >/dev/null || fail "a point failed"
pop() { jq -r ".points[] | .perf.totals[\"page-faults\"].per_op" "$d/r.json"; }
for x in $(pop); do
	awk -v x="$x" 'BEGIN { exit !(x >= 0.98 && x <= 1.02) }' ||
		fail "page-faults per op $x as nobody"
done
if [ "$par" -ge 2 ]; then
	echo "perf_event_paranoid=$par: expecting the user-only fallback"
	jq -e '.points[0].perf | (.events[0].counting == "user") and .events[0].user_only_fallback and
		(.note | test("perf_event_paranoid=[0-9]+ forbids kernel-mode counting for uid 65534"))' \
		"$d/r.json" >/dev/null || fail "no user-only fallback recorded: $(jq -c '.points[0].perf.events' "$d/r.json")"
	grep -q 'perf_event_paranoid=.*count user mode only' "$d/err" || fail "no fallback warning on stderr"
	grep -q 'perf: perf_event_paranoid=' "$d/out" || fail "no fallback note in the table"
	jq -e '.points[0].perf.events[1] | .supported == false and (.reason | test("kernel mode only"))' \
		"$d/r.json" >/dev/null || fail "context-switches counted user-only: $(jq -c '.points[0].perf.events[1]' "$d/r.json")"
	grep -q '<not supported> *context-switches' "$d/out" || fail "no <not supported> context-switches line"
	jq -e '.points[0].perf.events[3] | .supported == false and .counting == "kernel" and
		(.errno == "EACCES" or .errno == "ENOENT")' "$d/r.json" >/dev/null ||
		fail "cycles:k as nobody: $(jq -c '.points[0].perf.events[3]' "$d/r.json")"
	jq -e '.points[0].perf.totals["task-clock"].count > 0' "$d/r.json" >/dev/null || fail "task-clock lost"
else
	echo "perf_event_paranoid=$par: kernel counting allowed, no fallback expected"
	jq -e '.points[0].perf | .events[0].counting == "user+kernel" and (has("note") | not)' \
		"$d/r.json" >/dev/null || fail "fallback without need"
fi

# a hard open-file limit nobody cannot raise: 2 tasks x 2 events + 64
asnobody sh -c 'ulimit -n 60 && exec "$0" "$@"' "$CGSCALE" run -q -t 2 -m thread \
	-w 0 -d 200ms -i 100ms --tmpdir "$d" -e page-faults,task-clock page_fault1 \
	-o "$d/lim.json" >/dev/null 2>"$d/lim.err"
rc=$?
[ $rc -eq 2 ] || fail "RLIMIT_NOFILE 60: exit $rc, want 2 ($(cat "$d/lim.err"))"
grep -q 'need 68 open files, but RLIMIT_NOFILE allows 60 (hard limit 60)' "$d/lim.err" ||
	fail "RLIMIT_NOFILE message: $(cat "$d/lim.err")"
[ ! -e "$d/lim.json" ] || fail "a result was written"
echo "perf counters as nobody: ok"
