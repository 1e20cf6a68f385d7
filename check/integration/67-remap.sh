#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 67-remap.sh - the remap workload (stress-ng remap) in both modes at 1
# and 2 tasks, on a tmpdir file and on anonymous shmem: every point ok,
# ops counted per page, bogo-ops counted per verified pass (so ops and
# passes agree exactly), and an mlock refused for RLIMIT_MEMLOCK fails
# the point with the limit and the amount needed.
. "$(dirname "$0")/lib.sh"
set -e
tmp=$T

# each task: 0 <= ops - 512 x passes < 512 (a pass is counted once verified)
check() {
	jq -e --argjson n "$2" '
		(.points | length) == $n and
		all(.points[]; .status == "ok" and
		    .summary.aux.passes.unit == "bogo-ops/s" and
		    .summary.aux.passes.rate > 0 and
		    all(.tasks_detail[]; .aux.passes > 0 and
			.ops - 512 * .aux.passes >= 0 and .ops - 512 * .aux.passes < 512))' \
		"$1" >/dev/null ||
		{ jq -c '.points[] | {mode, tasks, status, reason,
			  t: [.tasks_detail[] | {ops, aux}]}' "$1"; fail "$1"; }
}

rc=0
"$CGSCALE" run -m both -t 1,2 -w 0 -d 1 -i 0.5 -q -o "$tmp/file.json" remap \
	>"$tmp/log" 2>&1 || rc=$?
[ $rc = 0 ] || { cat "$tmp/log"; fail "remap run: exit $rc"; }
if jq -e '.points[0].status == "skipped"' "$tmp/file.json" >/dev/null; then
	skip "$(jq -r '.points[0].reason' "$tmp/file.json")"
fi
check "$tmp/file.json" 4
grep -q 'bogo-ops/s (passes' "$tmp/log" || fail "no bogo-ops/s line in the table"

"$CGSCALE_SAN" run -m both -t 2 -w 0 -d 0.5 -i 0.25 -q --remap-backing anon \
	-o "$tmp/anon.json" remap >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "anon run (sanitizers)"; }
check "$tmp/anon.json" 2

# nested cgroups: both modes in a 3-level hierarchy
if [ "$(id -u)" = 0 ] && grep -q 'memory' /proc/self/cgroup; then
	"$CGSCALE" run -m both -t 1,2 -w 0 -d 0.5 -i 0.25 -q --cgroup-depth 3 \
		-o "$tmp/cg.json" remap >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "depth 3 run"; }
	check "$tmp/cg.json" 4
	jq -e 'all(.points[]; .cgroup.layout | startswith("depth=3"))' "$tmp/cg.json" >/dev/null ||
		fail "depth 3: no cgroup layout recorded"
else
	echo "note: not root or no memory cgroup: nested cgroups are not checked"
fi

# RLIMIT_MEMLOCK: no CAP_IPC_LOCK (dropped from the bounding set for root)
# and a limit of 0 make the first mlock fail
if [ "$(id -u)" = 0 ]; then
	command -v setpriv >/dev/null || { echo "note: no setpriv: the RLIMIT_MEMLOCK error is not checked"; echo "remap: ok"; exit 0; }
	run() { setpriv --inh-caps=-ipc_lock --bounding-set=-ipc_lock "$@"; }
else
	run() { "$@"; }
fi
rc=0
run sh -c 'ulimit -l 0 && exec "$0" run -m process -t 1 -w 0 -d 0.5 -i 0.25 -q -o "$1" remap' \
	"$CGSCALE" "$tmp/lim.json" >"$tmp/log" 2>&1 || rc=$?
[ $rc = 1 ] || { cat "$tmp/log"; fail "mlock limit: exit $rc, want 1"; }
jq -e '.points[0].status == "failed" and
	(.points[0].reason | test("RLIMIT_MEMLOCK is 0 bytes") and test("needs [0-9]+ bytes per process"))' \
	"$tmp/lim.json" >/dev/null || { jq -c '.points[0] | {status, reason}' "$tmp/lim.json"; fail "mlock limit reason"; }
echo "remap: ok"
