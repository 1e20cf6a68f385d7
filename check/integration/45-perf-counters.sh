#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 45-perf-counters.sh - per-task perf counters (-e) with software events,
# which count on any Linux with perf_event: page_fault1 and page_fault3,
# 1 and 2 tasks, process and thread mode.
#   - page-faults per op is 1 within 2% for page_fault1 (one fault per
#     page touched), each task's counter targets its own pid/tid, the
#     per-interval counts add up to the totals, warm-up counts nothing;
#   - task-clock per task is close to the measured window (busy tasks);
#   - `-e cycles` runs and says <not supported> with the kernel's reason
#     when the kernel has no PMU for it (else it must count), and
#     --require-events then refuses to run (exit 2, nothing written);
#   - an unknown name is exit 2 with libpfm4's message; RLIMIT_NOFILE is
#     raised when tasks x events need it; `cgscale events` lists.
. "$(dirname "$0")/lib.sh"
d=$T
[ -r /proc/sys/kernel/perf_event_paranoid ] || skip "this kernel has no perf_event support"

# Is anything else using the CPUs? (/proc/stat over one second, before
# our run: busy CPUs = non-idle share x CPUs.)
cpu_busy() {
	awk '/^cpu / { t = 0; for (i = 2; i <= NF; i++) t += $i; print t, $5 + $6 }' /proc/stat
}
set -- $(cpu_busy); sleep 1; t1=$1 i1=$2; set -- $(cpu_busy)
others=$(awk -v t="$(($1 - t1))" -v i="$(($2 - i1))" -v n="$(nproc)" \
	'BEGIN { printf "%.2f", t ? (t - i) / t * n : 0 }')
quiet=$(awk -v o="$others" 'BEGIN { print (o < 0.1) ? "yes" : "no" }')

# 1. the software events, both tests, 1 and 2 tasks, both modes
"$CGSCALE" run -q -t 1,2 -m both -w 500ms -d 2s -i 500ms --placement none \
	-e page-faults,context-switches,task-clock page_fault1 page_fault3 \
	-o "$d/sw.json" >"$d/sw.out" 2>"$d/sw.err" || {
	rc=$?; cat "$d/sw.err"; fail "software events run exited $rc"; }
jq -e '[.points[] | select(.status == "ok")] | length == 8' "$d/sw.json" >/dev/null ||
	fail "not all 8 points ok: $(jq -c '[.points[] | [.test, .mode, .tasks, .status, .reason]]' "$d/sw.json")"
jq -e '[.points[].perf.events[] | .supported and .counting == "user+kernel"] | all' \
	"$d/sw.json" >/dev/null || fail "a software event is not counted in user+kernel mode as root"
# page-faults per op within 2% of 1 for page_fault1
jq -r '.points[] | select(.test == "page_fault1") |
	"\(.mode) \(.tasks) \(.perf.totals["page-faults"].per_op)"' "$d/sw.json" |
while read -r mode n pop; do
	echo "page_fault1 $mode $n tasks: page-faults/op = $pop"
	awk -v x="$pop" 'BEGIN { exit !(x >= 0.98 && x <= 1.02) }' ||
		{ echo "FAIL: page_fault1 $mode $n tasks: page-faults per op $pop, not 1 within 2%"; exit 1; }
done || exit 1
# each task counts itself: its pid in process mode, its tid in thread mode
jq -e '[.points[] | . as $p | .perf.tasks[] |
	.target == (if $p.mode == "process" then $p.tasks_detail[.index].pid
		    else $p.tasks_detail[.index].tid end)] | all' "$d/sw.json" >/dev/null ||
	fail "a counter group targets the wrong pid/tid"
jq -e '[.points[] | select(.mode == "thread") | .tasks_detail[] | .tid != .pid] | all' \
	"$d/sw.json" >/dev/null || fail "thread mode tasks have tid == pid"
# intervals: one per sample, nothing before the window, sums = totals
jq -e '[.points[] | (.samples.t_ns | length) as $n | .perf.enabled_at_sample as $e |
	.perf.tasks[] | .counts["page-faults"] as $c |
	($c | length) == $n and ([$c[0:$e+1][]] | add) == 0 and
	([$c[$e+1:][]] | add) == .totals["page-faults"].raw and
	.totals["page-faults"].raw > 0] | all' "$d/sw.json" >/dev/null ||
	fail "per-interval page-faults do not line up with the samples and totals"
jq -e '[.points[].perf.tasks[].totals["context-switches"].raw >= 0] | all' "$d/sw.json" >/dev/null ||
	fail "context-switches missing"
# per interval, the counters follow the op counter sampled at the same
# instant: page_fault1 takes one fault per op (2% + a few ops read apart),
# and a task that did ops ran (task-clock > 0)
jq -e '[.points[] | .tasks as $n | .samples.ops as $ops | .samples.t_ns as $t |
	.test as $test | .perf.enabled_at_sample as $e | .perf.tasks[] | .index as $i |
	range($e + 1; $t | length) as $s | ($ops[$i][$s]) as $o |
	(.counts["task-clock"][$s] > 0 or $o < 100) and
	($test != "page_fault1" or
	 ((.counts["page-faults"][$s] - $o) | fabs) <= 0.02 * $o + 100)] | all' "$d/sw.json" >/dev/null ||
	fail "per-interval counts do not follow the ops: $(jq -c '[.points[] | [.test, .mode, .tasks, .samples.ops, [.perf.tasks[].counts]]]' "$d/sw.json")"
# task-clock per task: never longer than the measured window, and, on a
# machine nobody else is using, close to it (the tasks are busy; with
# other work about they wait for a CPU, and that bound cannot hold)
jq -r '.points[] | .test as $t | .mode as $m | .tasks as $n | .perf.elapsed_s as $el |
	.perf.tasks[] | "\($t) \($m) \($n) \(.index) \(.totals["task-clock"].count / 1e9 / $el)"' \
	"$d/sw.json" >"$d/tc"
while read -r t m n i ratio; do
	echo "$t $m $n tasks, task $i: task-clock / measured time = $ratio"
	awk -v x="$ratio" 'BEGIN { exit !(x > 0 && x <= 1.02) }' ||
		fail "$t $m $n task $i: task-clock/window $ratio (want <= 1.02)"
	if [ "$quiet" = yes ]; then
		awk -v x="$ratio" 'BEGIN { exit !(x >= 0.9) }' ||
			fail "$t $m $n task $i: task-clock/window $ratio on a quiet machine (want >= 0.9)"
	fi
done <"$d/tc"
[ "$quiet" = yes ] || echo "NOTE: other work used $others CPUs before the run: task-clock >= 0.9 x window not checked"
grep -q 'page-faults .* /op' "$d/sw.out" || fail "no page-faults line in the table"
grep -q 'task-clock .*CPUs utilized' "$d/sw.out" || fail "no task-clock line in the table"

# 2. cycles: <not supported> with the kernel's reason, and the run goes on
"$CGSCALE" run -q -t 1 -m thread -w 0 -d 1s -i 250ms -e cycles,page-faults \
	page_fault1 -o "$d/cyc.json" >"$d/cyc.out" 2>"$d/cyc.err" || {
	rc=$?; cat "$d/cyc.err"; fail "-e cycles exited $rc"; }
if jq -e '.points[0].perf.events[0].supported' "$d/cyc.json" >/dev/null; then
	echo "this kernel counts cycles: checking that it did"
	jq -e '.points[0].perf.totals.cycles.count > 0' "$d/cyc.json" >/dev/null ||
		fail "cycles supported but counted nothing"
	"$CGSCALE" run -q -t 1 -m thread -w 0 -d 300ms -i 100ms -e cycles --require-events \
		page_fault1 -o "$d/req.json" >/dev/null 2>&1 || fail "--require-events failed with cycles supported"
else
	grep -q '<not supported> *cycles' "$d/cyc.out" || fail "no <not supported> cycles line"
	grep -q 'not supported.*cycles\|cycles.*not supported' "$d/cyc.err" || fail "no warning about cycles"
	jq -e '.points[0].status == "ok" and (.points[0].perf.events[0].reason | length > 0) and
		.points[0].perf.totals["page-faults"].count > 0' "$d/cyc.json" >/dev/null ||
		fail "cycles <not supported> but the point or page-faults suffered: $(jq -c ".points[0] | [.status, .reason, .perf.totals]" "$d/cyc.json")"
	echo "cycles: $(jq -r '.points[0].perf.events[0].reason' "$d/cyc.json")"
	mkdir "$d/req"
	"$CGSCALE" run -q -t 1 -m thread -w 0 -d 300ms -i 100ms -e cycles,page-faults --require-events \
		page_fault1 -o "$d/req" >"$d/req.out" 2>"$d/req.err"
	rc=$?
	[ $rc -eq 2 ] || fail "--require-events with cycles unsupported: exit $rc, want 2"
	grep -q 'cycles: <not supported>' "$d/req.err" || fail "--require-events message: $(cat "$d/req.err")"
	[ -z "$(ls "$d/req")" ] || fail "--require-events left files"
fi

# 3. unknown names: exit 2 before anything, libpfm4's message and a hint
"$CGSCALE" run -q -e page-faults,no-such-event page_fault1 -o "$d/x.json" 2>"$d/bad.err"
rc=$?
[ $rc -eq 2 ] || fail "unknown event: exit $rc, want 2"
[ "$(wc -l <"$d/bad.err")" -eq 1 ] && grep -q 'no-such-event: event not found (libpfm4).*cgscale events' "$d/bad.err" ||
	fail "unknown event message: $(cat "$d/bad.err")"
[ ! -e "$d/x.json" ] || fail "unknown event wrote a result"
"$CGSCALE" events fault >"$d/ev.out" || fail "cgscale events exited $?"
grep -q 'perf::PAGE-FAULTS *yes' "$d/ev.out" || fail "cgscale events: $(cat "$d/ev.out")"

# 4. tasks x events above the soft open-file limit: raised, not failed;
#    and the sanitizer build over the observer's whole life
(ulimit -Sn 50 && "$CGSCALE_SAN" run -q -t 2 -m both -w 100ms -d 300ms -i 100ms \
	-e page-faults,task-clock,cycles page_fault1 -o "$d/nofile.json" >/dev/null 2>"$d/nofile.err") ||
	{ cat "$d/nofile.err"; fail "run with a low soft RLIMIT_NOFILE failed"; }
jq -e '[.points[] | .status == "ok" and .perf.totals["task-clock"].tasks == 2] | all' \
	"$d/nofile.json" >/dev/null || fail "low RLIMIT_NOFILE run lost counters"
# counting is off by default
"$CGSCALE" run -q -t 1 -m thread -w 0 -d 200ms -i 100ms page_fault1 -o "$d/off.json" >/dev/null 2>&1 ||
	fail "plain run failed"
jq -e '.points[0] | has("perf") | not' "$d/off.json" >/dev/null || fail "a plain run has a perf section"
echo "perf counters: ok"
