#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A task that crashes fails its point with the task and the signal, the run
# exits non-zero, and later points still run; --fail-fast stops there.
. "$(dirname "$0")/lib.sh"

# Only ever signal our own processes: the worker is a child of the runner
# we started, the tasks are children of that worker.
worker_of() {   # worker_of RUNNER_PID
	for i in $(seq 50); do
		w=$(pgrep -P "$1" -x 'cgs:worker' | head -n 1)
		[ -n "$w" ] && { echo "$w"; return 0; }
		sleep 0.1
	done
	return 1
}

# crash: process mode task 0 gets SIGSEGV during the first point
crash_first_task() {
	w=$(worker_of "$1") || return 1
	for i in $(seq 50); do
		p=$(pgrep -P "$w" -x 'cgs:page_fault1' | head -n 1)
		[ -n "$p" ] && { sleep 0.3; kill -SEGV "$p"; return 0; }
		sleep 0.1
	done
	return 1
}
"$CGSCALE" run -q -m process -t 1 -w 1 -d 2 -i 0.5 -o r.json page_fault1 page_fault3 \
	>out.txt 2>err.txt &
pid=$!
crash_first_task $pid || fail "no task to crash"
wait $pid
rc=$?
[ $rc -eq 1 ] || fail "exit $rc, expected 1"
jq_check r.json '.points[0].status == "failed"' "first point failed"
jq_check r.json '.points[0].reason | test("task 0 .*signal 11")' "reason names the task and signal"
jq_check r.json '.points[1].status == "ok" and .points[1].test == "page_fault3"' "next point still ran"
grep -q "failed" err.txt || fail "no message on stderr"

# thread mode: the crash takes the worker; --fail-fast stops the run there
"$CGSCALE" run -q -m thread -t 1 -w 1 -d 2 -i 0.5 --fail-fast -o r2.json page_fault1 page_fault3 \
	>out.txt 2>err.txt &
pid=$!
p=$(worker_of $pid) || fail "no worker"
sleep 0.3
kill -SEGV "$p"
wait $pid
rc=$?
[ $rc -eq 1 ] || fail "thread crash: exit $rc"
jq_check r2.json '(.points | length) == 1 and .points[0].status == "failed"' "--fail-fast stopped after the failure"
jq_check r2.json '.points[0].reason | test("signal 11")' "thread-mode reason names the signal"
[ -z "$(our_procs)" ] || fail "processes left: $(our_procs)"
exit 0
