#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 87-stopped-task.sh - a task stopped for 2 s inside the measured window
# marks its run disturbed, with the task and the intervals named, in the
# point and in the table, and compare leaves the run out (--keep-disturbed
# uses it). Process mode: SIGSTOP of one task's process (2 tasks, and 1);
# thread mode: one thread stopped by ptrace (SIGSTOP would stop the whole
# thread group), and SIGSTOP of the group (1 task; 2 tasks: no task did an
# op). A task stopped from before the window to after it did no op: the
# table says so. What is asserted is the stopped intervals, 0 ops however
# busy the machine; the clean run is only compare's other side.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to stop one thread (ptrace)"

# Stop the thread $1 alone (PTRACE_INTERRUPT) for $2 seconds, then let go.
cat >tstop.py <<'EOF'
import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
SEIZE, INTERRUPT, DETACH, WALL = 0x4206, 0x4207, 17, 0x40000000
tid, secs = int(sys.argv[1]), float(sys.argv[2])
if libc.ptrace(SEIZE, tid, None, None) or libc.ptrace(INTERRUPT, tid, None, None):
    print("ptrace %d: %s" % (tid, os.strerror(ctypes.get_errno())), file=sys.stderr)
    sys.exit(3)
os.waitpid(tid, WALL)
time.sleep(secs)
libc.ptrace(DETACH, tid, None, None)
EOF

runner= stopped=
trap '[ -n "$stopped" ] && kill -CONT $stopped 2>/dev/null; [ -n "$runner" ] && kill -INT $runner 2>/dev/null; wait; [ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT

# tasks_of RUNNER N: the pids (process mode) or tids (thread mode) of the
# N page_fault1 tasks of our runner's worker, once all N exist
tasks_of() {
	for i in $(seq 200); do
		w=$(pgrep -P "$1" -x cgs:worker | head -n 1)
		if [ -n "$w" ]; then
			t=$({ pgrep -P "$w" -x cgs:page_fault1
			      for x in /proc/"$w"/task/*; do
				[ "$(cat "$x/comm" 2>/dev/null)" = cgs:page_fault1 ] && echo "${x##*/}"
			      done; } | sort -un)
			[ "$(echo "$t" | grep -c .)" -eq "$2" ] && { echo "$t"; return 0; }
		fi
		sleep 0.05
	done
	return 1
}

# stopped_run NAME MODE N HOW: run page_fault1 with N tasks, stop the last
# task 1 s after the tasks exist for 2 s (HOW: sig or ptrace); NAME.json,
# NAME.out; $idx: the stopped task's index in the result
stopped_run() {
	"$CGSCALE" run -q -m "$2" -t "$3" -w 0.5 -d 4 -i 0.5 -o "$1.json" page_fault1 \
		>"$1.out" 2>"$1.err" &
	runner=$!
	id=$(tasks_of $runner "$3" | tail -n 1) || fail "$1: no tasks found"
	sleep 1
	if [ "$4" = sig ]; then
		stopped=$id
		kill -STOP "$id"
		sleep 2
		kill -CONT "$id"
		stopped=
	else
		python3 tstop.py "$id" 2 2>"$1.ptrace"
		case $? in
		0) ;;
		3) noptrace=$(cat "$1.ptrace") ;;
		*) fail "$1: could not stop thread $id: $(cat "$1.ptrace")" ;;
		esac
	fi
	wait $runner || fail "$1: run exited $?: $(cat "$1.err")"
	runner=
	jq_check "$1.json" '.points[0].status == "ok"' "$1: the point is ok"
	idx=$(jq -r --argjson id "$id" '.points[0].tasks_detail[] | select(.tid == $id) | .index' "$1.json")
	[ -n "$idx" ] || fail "$1: the stopped task $id is no task of the result"
}

# has NAME REGEX: the point's disturbed reasons match, and the table says it
has() {
	jq -e --arg re "$2" '.points[0].disturbed | any(test($re))' "$1.json" >/dev/null ||
		fail "$1: no reason matching '$2': $(jq -c '.points[0] | {disturbed, ops: .samples.ops}' "$1.json")"
	grep -E "runs disturbed \(compare leaves them out\), e\.g\. .*$2" "$1.out" >/dev/null ||
		fail "$1: the table does not say it: $(cat "$1.out")"
}

stopped_run p2 process 2 sig
has p2 "task $idx did 0 ops in intervals? [0-9, -]+ of 8.* while its siblings ran"
stopped_run p1 process 1 sig
has p1 "task 0 did 0 ops in intervals? [0-9, -]+ of 8.* while the window went on"
noptrace=
stopped_run t2 thread 2 ptrace
if [ -n "$noptrace" ]; then
	echo "ptrace refused here ($noptrace): one thread stopped alone is not checked"
else
	has t2 "task $idx did 0 ops in intervals? [0-9, -]+ of 8.* while its siblings ran"
fi
stopped_run t1 thread 1 sig
has t1 "task 0 did 0 ops in intervals? [0-9, -]+ of 8.* while the window went on"
# SIGSTOP of a thread stops its whole group
stopped_run tg thread 2 sig
has tg "all tasks did 0 ops in intervals? [0-9, -]+ of 8"

# compare leaves the stopped run out and lists it; --keep-disturbed uses it
"$CGSCALE" run -q -m process -t 2 -w 0.5 -d 4 -i 0.5 -o clean.json page_fault1 \
	>/dev/null 2>err.txt || fail "clean run: $(cat err.txt)"
# not asserted (a foreign load may mark it): said when it is
jq -e '.points[0].disturbed == []' clean.json >/dev/null ||
	echo "note: the clean run is marked too: $(jq -c .points[0].disturbed clean.json)"
"$CGSCALE" compare clean.json p2.json >cmp.txt 2>&1
grep -q "disturbed B 1 of 1 ok runs, left out" cmp.txt || fail "compare: $(cat cmp.txt)"
grep -q "p2.json: page_fault1 process tasks=2 run 1 is disturbed, left out .*task [01] did 0 ops" cmp.txt ||
	fail "compare does not list the run: $(cat cmp.txt)"
"$CGSCALE" compare --keep-disturbed clean.json p2.json >keep.txt 2>&1
grep -q "disturbed B" keep.txt && fail "--keep-disturbed still leaves the run out"
grep -Eq "^    B +1 " keep.txt || fail "--keep-disturbed: B has not its run: $(cat keep.txt)"

# a task stopped in the warm-up (it is in its loop: its minor faults
# grow) until after the window did no op in it
"$CGSCALE" run -q -m process -t 2 -w 1 -d 2 -i 0.5 -o never.json page_fault1 \
	>never.out 2>never.err &
runner=$!
id=$(tasks_of $runner 2 | tail -n 1) || fail "never: no tasks found"
for i in $(seq 200); do
	[ "$(awk '{ print $10 }' /proc/"$id"/stat 2>/dev/null || echo 0)" -gt 1000 ] && break
	sleep 0.01
done
stopped=$id
kill -STOP "$id"
sleep 3.5
kill -CONT "$id"
stopped=
wait $runner || fail "never: run exited $?: $(cat never.err)"
runner=
jq_check never.json '.points[0].status == "ok"' "never: the point is ok"
jq -e '.points[0].disturbed | any(test("^1 of 2 tasks did no op in the measured window \\(first: task [01]\\)"))' \
	never.json >/dev/null || fail "never: $(jq -c .points[0].disturbed never.json)"
grep -q "1 task did no op in the window (in 1 of 1 runs)" never.out || fail "never: table: $(cat never.out)"
[ -z "$(our_procs)" ] || fail "processes left: $(our_procs)"
exit 0
