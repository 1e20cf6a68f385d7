#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Each workload runs 1 s in each mode with 1 and 2 tasks: every point is ok
# with ops > 0 in every task; the page_fault tests take one minor fault per
# op (getrusage per task); the JSON holds every labelled sample; a slow
# page_fault pass still stops soon after the window.
. "$(dirname "$0")/lib.sh"

"$CGSCALE" run -q -t 1,2 -w 0.3 -d 1 -i 0.25 -o r.json \
	page_fault1 page_fault2 page_fault3 fallocate2 >out.txt 2>err.txt ||
	fail "run failed: $(cat err.txt)"
f=r.json
jq_check $f '.schema_version == 1 and .complete == true' "header"
jq_check $f '(.points | length) == 16' "16 points (4 tests x 2 modes x 2 task counts)"
jq_check $f '[.points[] | .status == "ok"] | all' "every point ok"
jq_check $f '[.points[] | .summary.ops > 0 and .summary.total_ops_per_sec > 0] | all' "ops > 0"
jq_check $f '[.points[] | .tasks_detail[] | .ops > 0 and .status == "ok"] | all' "every task counted"
jq_check $f '[.points[] | (.tasks_detail | length) == .tasks] | all' "one detail per task"
# start, then warm-up, then measure samples (2 and 4 planned; a starved
# sampler merges missed instants, so there may be fewer, never more)
jq_check $f '[.points[] | .samples.phase | (.[0] == "start") and (.[-1] == "measure") and
	(. == (.[0:1] + (.[1:] | map(select(. == "warmup"))) + (.[1:] | map(select(. == "measure"))))) and
	(map(select(. == "warmup")) | length | . >= 1 and . <= 2) and
	(map(select(. == "measure")) | length | . >= 1 and . <= 4)] | all' \
	"samples labelled start, warmup, measure, in that order"
jq_check $f '[.points[] | .samples as $s | ($s.ops | length) == .tasks and ([$s.ops[] | length == ($s.t_ns | length)] | all)] | all' \
	"one sample row per task, as long as the timestamps"
# rates divide by the measured time, which is about the duration
# (the last sample may come late on a loaded machine, never early)
jq_check $f '[.points[] | .summary.elapsed_s > 0.99 and .summary.elapsed_s < 3] | all' "measured at least 1 s"
# one minor fault per page touched, per task, within 2%
jq_check $f '[.points[] | select(.test | startswith("page_fault")) | .tasks_detail[] | (.minflt / .ops) | (. > 0.98 and . < 1.02)] | all' \
	"page_fault: minor faults per op close to 1"
jq_check $f '[.points[] | select(.tasks == 2 and .mode == "process") | .tasks_detail | map(.pid) | unique | length == 2] | all' \
	"process mode: one process per task"
jq_check $f '[.points[] | select(.tasks == 2 and .mode == "thread") | .tasks_detail | (map(.pid) | unique | length == 1) and (map(.tid) | unique | length == 2)] | all' \
	"thread mode: one process, a thread per task"
jq_check $f '.environment.tmpdir.fstype | type == "string"' "tmpdir filesystem recorded"
jq_check $f '.kernel.release | type == "string"' "kernel recorded"
jq_check $f '.machine.topology.pus >= 1' "topology recorded"
jq_check $f '.options.duration == 1 and .options.tasks == "1,2"' "options echoed"
for t in page_fault1 page_fault2 page_fault3 fallocate2; do
	grep -q "^$t: " out.txt || fail "table lacks $t"
done
grep -q "per-task ops/s" out.txt || fail "table header missing"

# a page_fault loop looks at the stop flag inside its 32k-page pass: with
# a spin of 0.2 ms an op a pass is 6.5 s, and the tasks stopped only at
# its end, about 6 s after a 0.3 s window; now within 256 ops (51 ms of
# spin). harness.stop_ms is the runner's own measure of it.
for t in page_fault1:pf1 page_fault3:pf3; do
	"$CGSCALE" run -q -t 1 -m process -r 1 -w 0 -d 0.3 -i 0.1 --cgroup-depth 0 \
		--${t#*:}-spin 200000 -o stop.json ${t%:*} >/dev/null 2>err.txt || fail "${t%:*} with a spin: $(cat err.txt)"
	ms=$(jq '.points[0].harness.stop_ms' stop.json)
	awk -v m="$ms" 'BEGIN { exit !(m < 3000) }' ||
		fail "${t%:*} with a 0.2 ms spin stopped $ms ms after its window: it waited for the end of its pass"
done
exit 0
