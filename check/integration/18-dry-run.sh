#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 18-dry-run.sh - run --dry-run plans and runs nothing; --topology plans
# for a described box: a 2-socket, 448-PU synthetic one (the issue's
# "pack:2 numa:2 l3:1 core:56 pu:2") and an lstopo XML file; real tasks on
# a described box are refused (exit 2, nothing written); a bad description
# exits 2; cgroup show resolves -t on the described box.
. "$(dirname "$0")/lib.sh"
BOX="pack:2 numa:2 l3:1 core:56 pu:2"

"$CGSCALE" run --dry-run --topology "$BOX" -t sweep -m both -w 2 -d 5 \
	fallocate2 >plan.txt 2>err.txt || fail "dry run exited $?: $(cat err.txt)"
[ ! -e results ] || fail "a dry run made results/"
grep -q '2 packages, 4 NUMA nodes, 4 last-level caches, 224 cores, 448 PUs (SMT)' plan.txt ||
	fail "machine line: $(grep -A1 '^machine' plan.txt)"
# the sweep ladder on that box: 1, an LLC's (= a node's) 56 cores, a
# package's 112, all 224 cores, all 448 PUs; both modes: 10 points
grep -q '^points, in the order they run (10):' plan.txt || fail "not 10 points"
for n in 1 56 112 224 448; do
	grep -Eq "^ +[0-9]+ +1 +fallocate2 +thread +$n " plan.txt || fail "no thread point of $n tasks"
done
# task counts: 112 tasks fill package 0 (2 nodes, 2 LLCs); 448 are 2 per core
grep -Eq '^ +112 +1 +2 +2 +112 +224 +1$' plan.txt || fail "112-task coverage: $(grep -E '^ +112 ' plan.txt)"
grep -Eq '^ +448 +2 +4 +4 +224 +448 +up to 2 ' plan.txt || fail "448-task coverage"
# places: core i = PUs 2i,2i+1; task 112 is the first of package 1, node 2, LLC 2
grep -Eq '^ +0 +0-1 +0 +0 +0 +0$' plan.txt || fail "place of task 0"
grep -Eq '^ +112 +224-225 +112 +1 +2 +2$' plan.txt || fail "place of task 112: $(grep -E '^ +112 +224' plan.txt)"
grep -Eq '^ +223 +446-447 +223 +1 +3 +3$' plan.txt || fail "place of task 223"
grep -q '^cgroups:' plan.txt || fail "no cgroup plan"
grep -q '^tmpdir .*: up to 448.0 MiB at once (fallocate2, 448 tasks)' plan.txt || fail "tmpdir space: $(grep ^tmpdir plan.txt)"
grep -q '^estimated wall time: at least 0:01:10, 10 points' plan.txt || fail "wall time: $(grep ^estimated plan.txt)"

# real tasks on a described box: refused before anything is done
"$CGSCALE" run --topology "$BOX" -t 2 -m thread -w 0 -d 100ms -i 50ms -o r.json fallocate2 \
	>out.txt 2>err.txt
rc=$?
[ $rc -eq 2 ] || fail "a real run on a described box exited $rc, want 2"
grep -q 'describes another machine: add --dry-run' err.txt || fail "refusal: $(cat err.txt)"
[ ! -e r.json ] && [ ! -e results ] || fail "a refused run wrote something"
HWLOC_SYNTHETIC="pack:2 core:2 pu:1" "$CGSCALE" run -t 1 -m thread -w 0 -d 100ms -i 50ms \
	-o r.json fallocate2 >/dev/null 2>err.txt
[ $? -eq 2 ] && grep -q 'HWLOC_SYNTHETIC' err.txt || fail "HWLOC_SYNTHETIC run: $(cat err.txt)"

# bad descriptions
"$CGSCALE" run -n --topology "pack:2 cores:x" fallocate2 >/dev/null 2>err.txt
[ $? -eq 2 ] && grep -q 'not an hwloc synthetic description' err.txt || fail "bad description: $(cat err.txt)"
"$CGSCALE" run -n --topology ./nobox.xml fallocate2 >/dev/null 2>err.txt
[ $? -eq 2 ] && grep -q 'no such file' err.txt || fail "missing XML: $(cat err.txt)"

# cgroup show resolves -t on the described box: one leaf per task up to 448
if "$CGSCALE" cgroup show --topology "$BOX" -t sweep -m process --cgroup-depth 1 \
	--cgroup-leaf per-task >show.txt 2>err.txt; then
	grep -q 'topology: pack:2 numa:2 l3:1 core:56 pu:2 (448 PUs)' show.txt || fail "cgroup show topology line"
	grep -q 'cgscale-.*t447/ .*leaf of one task' show.txt || fail "no 448th leaf: $(tail -3 show.txt)"
else
	echo "cgroup show not possible here ($(cat err.txt)): that part not run"
fi

# an lstopo XML of a box
command -v lstopo-no-graphics >/dev/null || skip "no lstopo-no-graphics (Debian hwloc): the XML case not run"
lstopo-no-graphics -i "pack:2 [numa] core:4 pu:2" --of xml box.xml || fail "lstopo could not write XML"
"$CGSCALE" run -n --topology box.xml -t all -m thread --placement pus fallocate2 >xml.txt 2>err.txt ||
	fail "XML dry run: $(cat err.txt)"
grep -q '2 packages, 2 NUMA nodes, .* 8 cores, 16 PUs (SMT)' xml.txt || fail "XML machine: $(sed -n 4p xml.txt)"
# pus: the first PU of each core, then the siblings; task 8 is PU 1
grep -Eq '^ +8 +1 +0 +0 +0 +-$' xml.txt || fail "XML place of task 8: $(grep -E '^ +8 +1 ' xml.txt)"
exit 0
