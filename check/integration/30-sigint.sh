#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SIGINT mid-run: exit 130, a valid JSON file marked incomplete holding the
# completed points, and no child process left. SIGTERM likewise (143).
. "$(dirname "$0")/lib.sh"

for sig in INT TERM; do
	"$CGSCALE" run -q -t 1,2 -w 0.2 -d 1 -i 0.5 -o r-$sig.json page_fault1 page_fault3 \
		>out.txt 2>err.txt &
	pid=$!
	sleep 3.5          # a couple of points done, one in flight
	kill -$sig $pid
	wait $pid
	rc=$?
	want=130
	[ $sig = TERM ] && want=143
	[ $rc -eq $want ] || fail "SIG$sig: exit $rc, expected $want: $(cat err.txt)"
	f=r-$sig.json
	[ -s $f ] || fail "SIG$sig: no result file"
	jq_check $f '.complete == false and (.interrupted | type == "string")' "marked incomplete"
	jq_check $f '(.points | length) >= 1 and (.points | length) < 8' "completed points kept"
	jq_check $f '[.points[] | .status == "ok"] | all' "only completed points"
	sleep 0.5
	[ -z "$(our_procs)" ] || fail "SIG$sig: processes left: $(our_procs)"
	ls -A | grep -q '^\.r-' && fail "SIG$sig: temporary file left"
done
# SIGKILL of the runner: it cannot clean up, but its workers and tasks die
# with it (PR_SET_PDEATHSIG) in both modes, and no temporary file is left.
for mode in process thread; do
	"$CGSCALE" run -q -m $mode -t 2 -w 0.5 -d 3 -i 0.5 -o k.json page_fault2 >/dev/null 2>&1 &
	pid=$!
	sleep 1.5
	[ -n "$(our_procs)" ] || fail "no tasks running before SIGKILL"
	kill -KILL $pid
	wait $pid 2>/dev/null
	for i in 1 2 3 4 5 6 7 8 9 10; do
		[ -z "$(our_procs)" ] && break
		sleep 0.2
	done
	[ -z "$(our_procs)" ] || fail "$mode: processes outlived the runner: $(our_procs)"
	[ -e k.json ] && fail "$mode: a result file after SIGKILL"
	ls -A | grep -q '^\.k\.json' && fail "$mode: a temporary file after SIGKILL"
done
exit 0
