#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Nested cgroups and signals: SIGINT mid-point removes the point's cgroups
# before the runner exits; SIGKILL leaves them (the runner cannot help it)
# but no process, and `cgscale cgroup cleanup` then removes exactly those:
# never a cgroup without our marker, never one whose runner still lives,
# never one holding a process that is not a cgscale worker unless --force.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip "cgroup tests need root"
grep -q ' - cgroup cgroup [^ ]*memory' /proc/self/mountinfo ||
	skip "!!! the memory controller is not on cgroup v1 here: this test needs it (v2 runs in 75-cgroup-v2-vm) !!!"

# ours PID: the cgroups made by the runner with pid PID, in any hierarchy
ours() {
	for d in $(find /sys/fs/cgroup -mindepth 2 -type d -name "cgscale-$1-*" -prune 2>/dev/null); do
		find "$d" -type d
	done
}
# wait_ours PID: until the runner PID has made its first point's cgroups
wait_ours() {
	for i in $(seq 100); do
		[ -n "$(ours "$1" | grep -v check)" ] && return 0
		sleep 0.1
	done
	fail "runner $1 made no cgroup"
}
no_procs() {
	for i in $(seq 25); do
		[ -z "$(our_procs)" ] && return 0
		sleep 0.2
	done
	fail "$1: processes left: $(our_procs)"
}
live=
trap '[ -n "$live" ] && kill -INT $live 2>/dev/null; wait; rm -rf "$T"' EXIT
args="-m process -t 2 -w 0 -d 4 -i 0.5 --cgroup-depth 2 --cgroup-leaf per-task --cgroup-set 1:cpu.cfs_quota_us=150000"

# SIGINT: exit 130, nothing left
"$CGSCALE" run -q $args -o int.json page_fault2 >/dev/null 2>err.txt &
pid=$!
wait_ours $pid
sleep 1
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || fail "SIGINT: exit $rc: $(cat err.txt)"
[ -z "$(ours $pid)" ] || fail "SIGINT left cgroups: $(ours $pid)"
no_procs SIGINT

# a run that goes on meanwhile: nothing may touch its cgroups
"$CGSCALE" run -q -m process -t 1 -w 0 -d 20 -i 1 --cgroup-depth 1 -o live.json page_fault1 >/dev/null 2>&1 &
live=$!
wait_ours $live

# SIGKILL: the cgroups stay (in memory and cpu), no process does
"$CGSCALE" run -q $args -o kill.json page_fault2 >/dev/null 2>&1 &
pid=$!
wait_ours $pid
sleep 1
kill -KILL $pid
wait $pid 2>/dev/null
# its workers and tasks died with it: its cgroups hold no process
for i in $(seq 25); do
	procs=$(for d in $(ours $pid); do cat "$d/cgroup.procs"; done)
	[ -z "$procs" ] && break
	sleep 0.2
done
[ -z "$procs" ] || fail "SIGKILL: processes left in its cgroups: $procs"
left=$(ours $pid | wc -l)
[ "$left" -eq 6 ] || fail "expected 6 cgroups left by SIGKILL (2 hierarchies x 3), found: $(ours $pid)"

# a process someone moved into a leftover cgroup is not a cgscale worker:
# cleanup keeps that cgroup and names the pid; --dry-run --force says it
# would kill it; --force kills it (v1: SIGKILL per pid)
sleep 300 &
stray=$!
echo $stray >"$(ours $pid | grep memory | grep 'cgscale-t0$')/cgroup.procs" || fail "cannot place the stray"

# a decoy cleanup must leave alone: our prefix without our marker
parent=$(dirname "$(ours $pid | grep memory | head -n 1)")
mkdir "$parent/cgscale-decoy-$$" || fail "cannot make the decoy"

"$CGSCALE" cgroup cleanup --dry-run >dry.txt 2>&1
[ "$(ours $pid | wc -l)" -eq 6 ] || fail "--dry-run removed something"
grep -q "cgscale-$pid-.*would remove" dry.txt || fail "--dry-run does not list them: $(cat dry.txt)"
grep -q "cgscale-t0: kept: it holds processes that are not cgscale's workers: $stray (sleep)" dry.txt ||
	fail "--dry-run does not name the stray: $(cat dry.txt)"
"$CGSCALE" cgroup cleanup >keep.txt 2>&1
rc=$?
[ $rc -eq 1 ] || fail "cleanup with a stray: exit $rc, expected 1: $(cat keep.txt)"
kill -0 $stray || fail "cleanup without --force killed a process that is not ours"
grep -q "$stray (sleep); move them out, or give --force" keep.txt || fail "the stray not named: $(cat keep.txt)"
[ -d "$(ours $pid | grep memory | grep 'cgscale-t0$')" ] || fail "the stray's cgroup was removed"
"$CGSCALE" cgroup cleanup --dry-run --force >dryf.txt 2>&1
grep -q "would kill.*$stray (sleep)" dryf.txt || fail "--dry-run --force does not say it would kill: $(cat dryf.txt)"
kill -0 $stray || fail "--dry-run --force killed"
"$CGSCALE" cgroup cleanup --force >clean.txt 2>&1
rc=$?
cat clean.txt
[ $rc -eq 0 ] || fail "cleanup exit $rc"
[ -z "$(ours $pid)" ] || fail "cleanup left: $(ours $pid)"
wait $stray
rc=$?
[ $rc -eq 137 ] || fail "the stray process in a leftover cgroup ended with $rc, not SIGKILL"
grep -q "cgscale-decoy-$$: has the cgscale name prefix but no cgscale marker" clean.txt ||
	fail "the decoy was not reported as not ours"
[ -d "$parent/cgscale-decoy-$$" ] || fail "cleanup removed a cgroup without our marker"
rmdir "$parent/cgscale-decoy-$$"
[ -n "$(ours $live)" ] || fail "cleanup removed the cgroups of a live run"
grep -q "in use by cgscale pid $live" clean.txt || fail "the live run was not reported"
kill -INT $live
wait $live
[ -z "$(ours $live)" ] || fail "the live run left: $(ours $live)"
no_procs cleanup
exit 0
