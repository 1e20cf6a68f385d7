#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Nested cgroups on a host whose memory controller is on cgroup v1 (this
# machine: a v1/v2 hybrid). Under the runner's own memory cgroup:
#
#   PARENT (our cgroup)
#   `- cgscale-PID-RAND-N       memory.limit_in_bytes=1G (+ cpu.cfs_quota_us
#      `- cgscale-l2             in the cpu hierarchy, same path)
#         `- cgscale-l3          all tasks; memory.stat pgfault >= ops
#
# then one leaf per task, bad knobs refused before anything is made, and
# every cgroup gone afterwards. cgroup v2 is tested in a VM (75-cgroup-v2-vm).
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip "cgroup tests need root"
grep -q ' - cgroup cgroup [^ ]*memory' /proc/self/mountinfo ||
	skip "!!! the memory controller is not on cgroup v1 here: the v1 cgroup test cannot run (v2 runs in 75-cgroup-v2-vm) !!!"

# gone FILE: no cgroup path recorded in FILE exists any more
gone() {
	for p in $(jq -r '.points[].cgroup.hierarchies[]?.levels[][]' "$1"); do
		[ -e "$p" ] && fail "$p is still there after the run"
	done
	return 0
}

# 1. depth 3, page_fault2 in both modes, a memory limit on level 1 and a
#    cpu quota on level 1, the sanitizer build
"$CGSCALE_SAN" run -q -t 2 -w 0 -d 1 -i 0.5 --cgroup-depth 3 \
	--cgroup-set 1:memory.limit_in_bytes=1G --cgroup-set 1:cpu.cfs_quota_us=150000 \
	-o d3.json page_fault2 >out.txt 2>err.txt || fail "depth 3 run: $(cat err.txt)"
grep -q Sanitizer err.txt && fail "sanitizer report: $(head -n 20 err.txt)"
jq_check d3.json '(.points | length) == 2 and ([.points[] | .status == "ok"] | all)' "both modes ran"
jq_check d3.json '[.points[].cgroup.layout] | unique == ["depth=3 leaf=shared set=1:memory.limit_in_bytes=1G set=1:cpu.cfs_quota_us=150000"]' \
	"the layout string"
jq_check d3.json '[.points[].cgroup | .versions == [1] and (.hierarchies | length) == 2] | all' \
	"memory and cpu hierarchies, both v1"
mem=$(awk '$9 == "cgroup" && $NF ~ /memory/ {print $5; exit}' /proc/self/mountinfo)
self=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ {print $3}' /proc/self/cgroup)
[ "$self" = / ] && self=
jq_check d3.json "[.points[].cgroup.hierarchies[] | select(.controllers == \"memory\") |
	(.levels | length) == 3 and (.levels[0][0] | startswith(\"$mem$self/cgscale-\")) and
	(.levels[2][0] | endswith(\"/cgscale-l2/cgscale-l3\"))] | all" "three levels under our own memory cgroup"
jq_check d3.json '[.points[].cgroup.knobs[] | select(.knob == "memory.limit_in_bytes") | .read_back == ["1073741824"]] | all' \
	"memory.limit_in_bytes reads back 1G on level 1"
jq_check d3.json '[.points[].cgroup.knobs[] | select(.knob == "cpu.cfs_quota_us") | .read_back == ["150000"]] | all' \
	"cpu.cfs_quota_us reads back"
# every page touched is a fault charged to the leaf: pgfault since the gate
# >= every op counted up to the last sample >= the measured ops
jq_check d3.json '[.points[] | .cgroup.memory_stat.delta_since_gate.pgfault >=
	([.samples.ops[][]] | add) and ([.samples.ops[][]] | add) >= .summary.ops and .summary.ops > 0] | all' \
	"leaf pgfault delta >= ops"
jq_check d3.json '[.points[] | .cgroup.memory_stat.delta.pgfault > 0] | all' "pgfault over the window"
jq_check d3.json '[.points[].cgroup | .flagged == false and .removed == true] | all' "no OOM, removed"
jq -r '.points[] | "\(.mode): ops \(.summary.ops), leaf pgfault \(.cgroup.memory_stat.delta.pgfault) (window), \(.cgroup.memory_stat.delta_since_gate.pgfault) (since the gate)"' d3.json
gone d3.json

# 2. one leaf per task, in process mode; shared by nothing
"$CGSCALE_SAN" run -q -m process -t 2 -w 0 -d 0.6 -i 0.3 --cgroup-depth 2 --cgroup-leaf per-task \
	-o pt.json page_fault1 >/dev/null 2>err.txt || fail "per-task run: $(cat err.txt)"
grep -q Sanitizer err.txt && fail "sanitizer report: $(head -n 20 err.txt)"
jq_check pt.json '.points[0].status == "ok" and .points[0].cgroup.layout == "depth=2 leaf=per-task"' "per-task ran"
jq_check pt.json '.points[0].cgroup.hierarchies[0].levels[1] | length == 2 and (unique | length) == 2' \
	"two sibling leaves"
jq_check pt.json '[.points[0].cgroup.per_leaf[].delta.pgfault > 0] | all' "each leaf took its task's faults"
jq_check pt.json '(.points[0].tasks_detail | map(.pid) | unique | length) == 2' "two processes"
gone pt.json

# 3. refused before anything is created (exit 2, one clear line)
expect_bad() {
	want="$1"
	shift
	"$CGSCALE" run -q -t 1 -w 0 -d 0.2 -i 0.1 -o bad.json "$@" page_fault1 >/dev/null 2>err.txt
	rc=$?
	[ $rc -eq 2 ] || fail "$*: exit $rc, expected 2"
	grep -qF "$want" err.txt || fail "$*: message '$(cat err.txt)' lacks '$want'"
	[ -e bad.json ] && fail "$*: a result file"
	return 0
}
expect_bad "memory.min needs cgroup v2; this system mounts memory on v1" \
	--cgroup-depth 3 --cgroup-set 1:memory.min=1G
expect_bad "cpu.max needs cgroup v2; this system mounts cpu on v1" \
	--cgroup-depth 1 --cgroup-set 1:cpu.max=max
expect_bad "needs --mode process" --cgroup-depth 2 --cgroup-leaf per-task
expect_bad "not a valid cgroup name" --cgroup-depth 1 --cgroup-parent /a/../b
expect_bad "does not exist in the memory hierarchy" --cgroup-depth 1 --cgroup-parent /no-such-cgroup-$$
expect_bad "level 4 does not exist with --cgroup-depth 3" --cgroup-depth 3 --cgroup-set 4:memory.limit_in_bytes=1G
expect_bad "memory.no_such_knob" --cgroup-depth 2 --cgroup-set 2:memory.no_such_knob=1
expect_bad "Invalid argument" --cgroup-depth 1 --cgroup-set 1:memory.limit_in_bytes=lots
for n in $(find /sys/fs/cgroup -name "cgscale-*-check*" 2>/dev/null); do
	fail "a pre-flight cgroup stayed: $n"
done

# 4. depth 0 is the runner's cgroup and works unprivileged
if command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$CGSCALE" run -q -t 1 -w 0 -d 0.2 -i 0.1 \
		-o /tmp/cgscale-it-nobody-$$.json page_fault1 >/dev/null 2>err.txt ||
		fail "unprivileged depth 0: $(cat err.txt)"
	jq_check /tmp/cgscale-it-nobody-$$.json '.points[0].cgroup.layout == "depth=0" and .points[0].status == "ok"' \
		"unprivileged default is depth 0"
	rm -f /tmp/cgscale-it-nobody-$$.json
	setpriv --reuid=65534 --regid=65534 --clear-groups "$CGSCALE" run -q -t 1 -d 0.2 -i 0.1 \
		-o /tmp/cgscale-it-nobody-$$.json --cgroup-depth 1 page_fault1 >/dev/null 2>err.txt
	[ $? -eq 2 ] && grep -q "needs root" err.txt || fail "unprivileged depth 1 not refused: $(cat err.txt)"
fi
[ -z "$(our_procs)" ] || fail "processes left: $(our_procs)"
exit 0
