#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cgroup v2, which this host cannot give us (its memory controller is on
# v1), in a small VM: Debian's kernel (downloaded once into build/vm-cache,
# never installed) and an initramfs with busybox and cgscale, under QEMU
# TCG. check/vm/init runs the scenarios inside; this script checks what
# they report. Functional checks only: no figure from the VM means anything.
#
# Boot 1 (-smp 2), cgroup v2:
#   /                       A: memory enabled by us in the root's
#   `- cgscale-..-N           subtree_control (libcgroup 2.0.2 never writes
#      `- cgscale-l2          it) and turned off again; 1:memory.min and
#         `- cgscale-l3       1:memory.low read back; page_fault1 in both
#                             modes; leaf pgfault >= ops
#   S: stat_read of level 1's memory.stat and cgroup.stat (both modes),
#      page_fault1 with a 50 reads/s reader of level 1 and of the leaf
#      (whose pgfault grows by the faults), and stat_read at depth 0, of
#      the runner's own cgroup, the root
#   /box (the runner alone) B: the runner moves into box/cgscale-..-runner
#   |- cgscale-..-runner      so memory and cpu can be enabled in /box,
#   `- cgscale-..-N           and comes back; per-task leaves; cpu.max and
#      `- cgscale-t0, -t1     memory.max read back
#   OOM: 2:memory.max=32M fails the point and flags oom_kill
#   C: SIGKILL mid-point, then `cgscale cgroup cleanup` keeps the tree while
#      a process that is not a cgscale worker is in it (naming it), and
#      `cleanup --force` removes the tree and the runner's leaf (cgroup.kill
#      for that process), turns
#      /box's controllers off, leaves a decoy without our marker
#   O: a process moved into a live run's leaf is moved out, never killed;
#      a live run inside a killed run's leftover survives the sweeps
# Boot 2 (-smp 8,sockets=2,cores=2,threads=2): hwloc sees 2 packages with
#   SMT, and --placement cores/pus/spread bind where they say.
. "$(dirname "$0")/lib.sh"
. "$REPO/check/vm/vm-lib.sh"

loud_skip() {
	echo "!!! SKIPPING THE CGROUP V2 VM TEST: $* !!!" >&2
	skip "!!! cgroup v2 VM test not run: $* !!!"
}
command -v qemu-system-x86_64 >/dev/null || loud_skip "no qemu-system-x86_64 (Debian: qemu-system-x86)"
command -v busybox >/dev/null || loud_skip "no busybox (Debian: busybox-static)"
command -v cpio >/dev/null || loud_skip "no cpio"
command -v xz >/dev/null || loud_skip "no xz (Debian: xz-utils)"
command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null || loud_skip "no apt-get/dpkg-deb to fetch Debian's kernel"
vm_kernel || loud_skip "$VM_WHY"
vm_initramfs initrd.cpio "$CGSCALE" || fail "initramfs: $VM_WHY"

vm_boot "$VM_KERNEL" initrd.cpio v2 v2.txt v2.log -smp 2 || fail "boot 1: $VM_WHY"
grep -q '^=== done$' v2.txt || fail "boot 1 did not finish: $(tail -n 20 v2.log)"
val() { vm_value v2.txt "$1"; }
for f in a.json b.json oom.json s1.json s2.json s3.json s4.json s5.json; do
	vm_block v2.txt $f >$f
done
vm_block v2.txt cleanup >cleanup.txt
echo "guest: $(val kernel), $(val controllers)"
echo "guest seconds: A $(val t_a), S $(val t_s), B $(val t_b), OOM $(val t_oom), C $(val t_c) (since boot)"

# A
[ "$(val rc_a)" = 0 ] || fail "A: exit $(val rc_a): $(vm_block v2.txt a.err)"
jq_check a.json '(.points | length) == 2 and ([.points[] | .status == "ok"] | all)' "A: both modes ran"
jq_check a.json '[.points[].cgroup | .layout == "depth=3 leaf=shared set=1:memory.min=64M set=1:memory.low=64M"
	and .versions == [2] and (.hierarchies[0].levels | length) == 3
	and .hierarchies[0].enabled_in_parent == "memory" and .hierarchies[0].runner_moved_to == null] | all' \
	"A: v2, 3 levels, memory enabled in the root by us"
jq_check a.json '([.points[].cgroup.knobs[] | .read_back == ["67108864"]] | all) and
	([.points[].cgroup.knobs[].knob] | sort) == ["memory.low", "memory.low", "memory.min", "memory.min"]' \
	"A: memory.min and memory.low read back 64M on level 1"
jq_check a.json '[.points[] | .cgroup.memory_stat.delta_since_gate.pgfault >= ([.samples.ops[][]] | add)
	and ([.samples.ops[][]] | add) >= .summary.ops and .summary.ops > 0] | all' "A: leaf pgfault >= ops"
jq_check a.json '[.points[].cgroup | .memory_stat.delta.anon > 0 and has("events") and .flagged == false
	and .removed == true] | all' "A: anon charged to the leaf, no events, removed"
[ -z "$(val root_subtree_before)" ] && [ -z "$(val root_subtree_after_a)" ] ||
	fail "A: the root's subtree_control was '$(val root_subtree_before)', now '$(val root_subtree_after_a)'"
[ "$(val left_a)" = 0 ] || fail "A: $(val left_a) cgroups left"

# S: the stats readers
for k in 1 2 3 4 5; do
	[ "$(val rc_s$k)" = 0 ] || fail "S$k: exit $(val rc_s$k): $(vm_block v2.txt s.err)"
done
lvl='(.cgroup.hierarchies[0].levels)'
jq_check s1.json "(.points | length) == 2 and ([.points[] | .status == \"ok\" and .summary.ops > 0
	and .stat_read.cgroup_version == 2 and .stat_read.path == $lvl[0][0] + \"/memory.stat\"] | all)" \
	"S1: stat_read of level 1's memory.stat, both modes, ops > 0"
jq_check s2.json ".points[0] | .status == \"ok\" and .summary.ops > 0 and .stat_read.path == $lvl[0][0] + \"/cgroup.stat\"" \
	"S2: stat_read of level 1's cgroup.stat"
sr='.points[0].stat_reader'
jq_check s3.json ".points[0] | .status == \"ok\" and .stat_reader.path == $lvl[0][0] + \"/memory.stat\"" "S3: the reader read level 1"
jq_check s3.json "$sr.summary.reads_per_sec > 45 and $sr.summary.reads_per_sec < 55" \
	"S3: about 50 reads/s: $(jq "$sr.summary.reads_per_sec" s3.json) ($(jq "$sr.summary.missed" s3.json) missed)"
jq_check s3.json "$sr.summary | .count > 0 and .min_ns <= .p50_ns and .p50_ns <= .p90_ns and .p90_ns <= .p99_ns
	and .p99_ns <= .p99_9_ns and .p99_9_ns <= .max_ns" "S3: percentiles in increasing order"
jq_check s3.json "$sr.content.delta.pgfault > 0" "S3: level 1's pgfault grew: $(jq "$sr.content.delta.pgfault" s3.json)"
jq_check s4.json ".points[0] | $VM_S4_GREW and .stat_reader.path == $lvl[2][0] + \"/memory.stat\"" \
	"S4: the leaf's pgfault grew by the faults ($(jq "$sr.content.delta.pgfault" s4.json) for $(jq .points[0].summary.ops s4.json) ops)"
jq_check s5.json '.points[0] | .status == "ok" and .summary.ops > 0 and .stat_read.path == "/sys/fs/cgroup/memory.stat"
	and .stat_read.depth == 0' "S5: depth 0: the root's own memory.stat"
[ "$(val left_s)" = 0 ] || fail "S: $(val left_s) cgroups left"

# B
[ "$(val rc_b)" = 0 ] || fail "B: exit $(val rc_b): $(vm_block v2.txt b.err)"
jq_check b.json '.points[0] | .status == "ok" and .cgroup.layout ==
	"depth=2 leaf=per-task set=1:cpu.max=50000 100000 set=2:memory.max=200M"' "B: per-task ran"
jq_check b.json '.points[0].cgroup.hierarchies[0] | (.runner_moved_to | test("^/sys/fs/cgroup/box/cgscale-.*-runner$"))
	and .enabled_in_parent == "memory,cpu" and .parent == "/sys/fs/cgroup/box" and (.levels[1] | length) == 2' \
	"B: the runner waited in a leaf of its own while /box enabled memory and cpu"
jq_check b.json '[.points[0].cgroup.knobs[] | {knob, read_back}] ==
	[{"knob": "cpu.max", "read_back": ["50000 100000"]}, {"knob": "memory.max", "read_back": ["209715200", "209715200"]}]' \
	"B: cpu.max and memory.max read back"
jq_check b.json '[.points[0].cgroup.per_leaf[].delta.pgfault > 0] | all' "B: each leaf took its task's faults"
[ -z "$(val box_subtree_after_b)" ] || fail "B: /box still enables '$(val box_subtree_after_b)'"
[ "$(val box_procs_after_b)" = 0 ] || fail "B: processes left in /box"
[ "$(val left_b)" = 0 ] || fail "B: $(val left_b) cgroups left"

# OOM
[ "$(val rc_oom)" = 1 ] || fail "OOM: exit $(val rc_oom), expected 1"
jq_check oom.json '.points[0] | .status == "failed" and .cgroup.flagged == true and
	(.cgroup.flags | map(test("^oom_kill \\+[0-9]+ in /sys/fs/cgroup/box/cgscale-.*/cgscale-l2$")) | any)' \
	"OOM: the point failed and oom_kill is flagged on the leaf"
[ "$(val left_oom)" = 0 ] || fail "OOM: $(val left_oom) cgroups left"

# C
[ "$(val left_after_kill)" -ge 4 ] && [ "$(val runner_leaf_after_kill)" = 1 ] ||
	fail "C: SIGKILL should leave the tree and the runner's leaf: $(val left_after_kill), $(val runner_leaf_after_kill)"
[ "$(val procs_after_kill)" = 0 ] || fail "C: processes outlived the runner"
vm_block v2.txt cleanup_keep >cleanup_keep.txt
[ "$(val rc_cleanup_keep)" = 1 ] && [ "$(val stray_alive_after_keep)" = 1 ] ||
	fail "C: cleanup without --force: exit $(val rc_cleanup_keep), stray alive $(val stray_alive_after_keep): $(cat cleanup_keep.txt)"
grep -q "not cgscale's workers: [0-9]* (sleep); move them out, or give --force" cleanup_keep.txt ||
	fail "C: cleanup without --force did not name the stray: $(cat cleanup_keep.txt)"
[ "$(val rc_cleanup)" = 0 ] || fail "C: cleanup --force exit $(val rc_cleanup): $(cat cleanup.txt)"
[ "$(val left_after_cleanup)" = 1 ] && [ "$(val decoy_after_cleanup)" = 1 ] ||
	fail "C: after cleanup $(val left_after_cleanup) cgscale-* cgroups (the decoy: $(val decoy_after_cleanup)): $(cat cleanup.txt)"
grep -q 'cgscale-decoy: has the cgscale name prefix but no cgscale marker' cleanup.txt || fail "C: decoy not reported"
# the runner's leaf holds no stray: the first cleanup removes it already
cat cleanup_keep.txt cleanup.txt | grep -q 'runner: removed' || fail "C: the runner's leaf was not removed"
[ "$(val stray_status)" = 137 ] || fail "C: a process left in the tree ended with $(val stray_status), not cgroup.kill's SIGKILL"
[ -z "$(val box_subtree_after_cleanup)" ] || fail "C: /box still enables '$(val box_subtree_after_cleanup)'"

# O (issue 25): a process moved into a live run's leaf is moved out, never
# killed: to the runner's leaf while /box enables memory, then with the
# runner back to /box; a live run inside a killed run's leftover survives
# cleanup --dry-run and another run's sweep, and the leftover is swept
# once it is gone
echo "guest seconds: O $(val t_o)"
vm_block v2.txt o5.err >o5.err
for b in o4dry o4c.err o4d.err; do
	vm_block v2.txt $b >$b.txt
done
[ "$(val rc_o5)" = 130 ] || fail "O5: exit $(val rc_o5): $(cat o5.err)"
[ "$(val o5_stray_alive)" = 1 ] || fail "O5: the process moved into the leaf was killed: $(cat o5.err)"
[ "$(val o5_stray_cgroup)" = "0::/box" ] || fail "O5: it ended in $(val o5_stray_cgroup), not /box: $(cat o5.err)"
s=$(val o5_stray)
grep -q "pid $s (sleep), which cgscale did not start, was in /sys/fs/cgroup/box/cgscale-[^ ]*/cgscale-l2: moved to /sys/fs/cgroup/box/cgscale-[^ ]*-runner, not killed" o5.err &&
	grep -q "pid $s (sleep), which cgscale did not start, was in /sys/fs/cgroup/box/cgscale-[^ ]*-runner: moved to /sys/fs/cgroup/box, not killed" o5.err ||
	fail "O5: no warnings naming the process on its way out: $(cat o5.err)"
[ -z "$(val box_subtree_after_o5)" ] || fail "O5: /box still enables '$(val box_subtree_after_o5)'"
a=$(val o4_adir) b=$(val o4_b)
[ "$(val o4_b_started)" = 1 ] || fail "O4: B did not start"
grep "cgscale-$b-" o4dry.txt | grep -q "would" && fail "O4: cleanup --dry-run would remove or kill B's: $(cat o4dry.txt)"
grep -qF "$a: kept: it holds the cgroups of a live cgscale run (pid $b)" o4dry.txt ||
	fail "O4: cleanup --dry-run does not keep A's leftover for B: $(cat o4dry.txt)"
[ "$(val rc_o4c)" = 0 ] || fail "O4: the sweeping run failed: $(cat o4c.err.txt)"
[ "$(val o4_b_alive)" = "3 of 3" ] && [ "$(val o4_b_leaf)" = 1 ] ||
	fail "O4: another run's sweep hurt B: $(val o4_b_alive) alive, leaf $(val o4_b_leaf): $(cat o4c.err.txt)"
grep -qF "$a: kept: it holds the cgroups of a live cgscale run (pid $b)" o4c.err.txt ||
	fail "O4: the sweep does not say why A's leftover stays: $(cat o4c.err.txt)"
[ "$(val rc_o4b)" = 130 ] || fail "O4: B after SIGINT: exit $(val rc_o4b)"
grep -qF "removed $a, left behind by a cgscale run that was killed" o4d.err.txt && [ "$(val o4_adir_after)" = 0 ] ||
	fail "O4: A's leftover not swept once B was gone: $(cat o4d.err.txt)"
[ "$(val left_o)" = 1 ] || fail "O: $(val left_o) cgscale-* cgroups left (the decoy only expected)"

# Boot 2: 2 packages x 2 cores x 2 threads
vm_boot "$VM_KERNEL" initrd.cpio topo topo.txt topo.log -smp 8,sockets=2,cores=2,threads=2 \
	-cpu max,vendor=GenuineIntel || fail "boot 2: $VM_WHY"
grep -q '^=== done$' topo.txt || fail "boot 2 did not finish: $(tail -n 20 topo.log)"
grep '^cpu ' topo.txt | sed 's/^/guest /'
for f in cores pus spread; do
	[ "$(vm_value topo.txt rc_$f)" = 0 ] || fail "--placement $f: exit $(vm_value topo.txt rc_$f): $(vm_block topo.txt errors)"
	vm_block topo.txt $f.json >$f.json
	jq_check $f.json '.machine.topology | .packages == 2 and .cores == 4 and .pus == 8 and .smt == true' \
		"$f: hwloc sees 2 packages, 4 cores, 8 PUs with SMT"
	jq -r --arg f "$f" '"--placement \($f): " + ([.points[0].tasks_detail[] | "\(.cpuset)@\(.cpu_start)"] | join(" "))' $f.json
done
# every task ran inside its place
inside='def inside($c): split(",") | map(split("-") | map(tonumber)) |
	any(. as $r | $c >= $r[0] and $c <= ($r[1] // $r[0]));
	[.points[0].tasks_detail[] | . as $t | .cpuset | inside($t.cpu_start)] | all'
jq_check cores.json '[.points[0].tasks_detail[].cpuset] == ["0-1", "2-3", "4-5", "6-7"]' "cores: one whole core each"
jq_check cores.json "$inside" "cores: each task started inside its core"
jq_check pus.json '[.points[0].tasks_detail[].cpuset] == ["0", "2", "4", "6", "1", "3", "5", "7"]' \
	"pus: the first PU of every core, then their SMT siblings"
jq_check pus.json "$inside" "pus: each task started on its PU"
jq_check spread.json '[.points[0].tasks_detail[].cpuset | split("-")[0] | tonumber | . >= 4] == [false, true, false, true]' \
	"spread: packages alternate"
jq_check spread.json "$inside" "spread: each task started inside its place"
exit 0
