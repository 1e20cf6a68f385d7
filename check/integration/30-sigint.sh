#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SIGINT mid-run: exit 130, a valid JSON file marked incomplete holding the
# completed points, and no child process left. SIGTERM likewise (143).
. "$(dirname "$0")/lib.sh"

# the journal FILE holds a finished point
has_point() { n=$(grep -c '"seq":' "$1" 2>/dev/null); [ "${n:-0}" -ge 1 ]; }
# no process runs our binary any more
none_left() { [ -z "$(our_procs)" ]; }
# the runner PID has started its tasks: a child (process mode) or
# threads beyond its own (thread mode)
has_tasks() { [ -n "$(pgrep -P "$1")" ] || [ "$(ls "/proc/$1/task" 2>/dev/null | wc -l)" -ge 3 ]; }

for sig in INT TERM; do
	"$CGSCALE" run -q -t 1,2 -w 0.2 -d 1 -i 0.5 -o r-$sig.json page_fault1 page_fault3 \
		>out.txt 2>err.txt &
	pid=$!
	# a point done (in the journal), the next in flight: polled, since a
	# loaded box may take longer than any fixed sleep
	wait_until 60 has_point r-$sig.json.partial ||
		fail "SIG$sig: no point finished in 60 s: $(cat err.txt)"
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
	wait_until 10 none_left || fail "SIG$sig: processes left 10 s after: $(our_procs)"
	ls -A | grep -q '^\.r-' && fail "SIG$sig: temporary file left"
done
# SIGKILL of the runner: it cannot clean up, but its workers and tasks die
# with it (PR_SET_PDEATHSIG) in both modes, and no temporary file is left.
for mode in process thread; do
	"$CGSCALE" run -q -m $mode -t 2 -w 0.5 -d 3 -i 0.5 -o k.json page_fault2 >/dev/null 2>&1 &
	pid=$!
	# the runner and its tasks: more than the runner alone (30 s at most)
	wait_until 30 has_tasks $pid || fail "$mode: no tasks running before SIGKILL"
	kill -KILL $pid
	wait $pid 2>/dev/null
	wait_until 10 none_left || fail "$mode: processes outlived the runner by 10 s: $(our_procs)"
	[ -e k.json ] && fail "$mode: a result file after SIGKILL"
	ls -A | grep -q '^\.k\.json' && fail "$mode: a temporary file after SIGKILL"
done
exit 0
