#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 32-task-process.sh - the tasks run in the plain image (runner/image/):
#   - by default each worker execs cgscale-tasks, found next to cgscale:
#     seen from outside, in /proc, while the run runs - the worker and a
#     task are that program, with fewer mappings than the runner - and
#     recorded in harness.task_process (plain, its path, the mappings);
#   - the image links none of the runner's own libraries;
#   - --task-process runner runs them in forks of cgscale, says so in
#     the record and not on stderr; compare will not mix the two (exit 3
#     naming environment.task_process.image) unless it is the --axis;
#   - without an image beside it, with an image of another build, or with
#     one others may write, a run warns in one line, runs the tasks in
#     forks of cgscale and records why; its points are ok;
#   - run --dry-run says which;
#   - ASLR is off in the tasks even when the folder cgscale was started
#     from is hidden by a later mount (the re-exec is by fd);
#   - a bad --task-process is exit 2 with one line, and writes nothing.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "no jq"
IMG=$(dirname "$(readlink -f "$CGSCALE")")/cgscale-tasks
[ -x "$IMG" ] || fail "no cgscale-tasks beside $CGSCALE: make builds it with cgscale"
IMG=$(readlink -f "$IMG")

# what links the image: the C library and the few the workloads use
for l in libhwloc libcgroup libpfm libRmath libz libelf libudev; do
	ldd "$IMG" | grep -q "$l" && fail "cgscale-tasks links $l: $(ldd "$IMG" | tr '\n' ' ')"
done

# watch_run MODE ARGS...: a 6 s run in the background; the worker's and
# a task's exe and mappings, from /proc, into seen.txt
watch_run() {
	mode=$1
	shift
	"$CGSCALE" run -q -t 1 -m "$mode" -w 0 -d 6 -i 1 -o "$mode.json" "$@" page_fault3 </dev/null >/dev/null 2>"$mode.err" &
	run=$!
	wait_until 30 sh -c "pgrep -P $run -x cgs:worker >/dev/null" || fail "$mode: no worker of pid $run came"
	w=$(pgrep -P "$run" -x cgs:worker | head -n 1)
	wait_until 30 sh -c "pgrep -P $w >/dev/null || [ \$(ls /proc/$w/task | wc -l) -gt 1 ]" ||
		fail "$mode: the worker $w started no task"
	if [ "$mode" = process ]; then task=$(pgrep -P "$w" | head -n 1); else task=$w; fi
	echo "$(readlink "/proc/$w/exe") $(readlink "/proc/$task/exe") $(wc -l <"/proc/$w/maps") $(wc -l <"/proc/$run/maps")" >seen.txt
	wait "$run" || fail "$mode: run failed: $(cat "$mode.err")"
}

for mode in process thread; do
	watch_run $mode
	read -r wexe texe wmaps rmaps <seen.txt
	[ "$wexe" = "$IMG" ] && [ "$texe" = "$IMG" ] ||
		fail "$mode: the worker is $wexe and a task $texe, not $IMG"
	[ "$wmaps" -lt "$rmaps" ] || fail "$mode: the tasks' process has $wmaps mappings, the runner $rmaps"
	jq -e --arg i "$IMG" '[.points[] | .status == "ok" and .harness.task_process.image == "plain"
		and .harness.task_process.exe == $i and .harness.task_process.mappings > 0
		and (.harness.task_process | has("why") | not)] | all' $mode.json >/dev/null ||
		fail "$mode: the record is not of the plain image: $(jq -c '.points[0].harness.task_process' $mode.json)"
	grep -q "forks of cgscale" $mode.err && fail "$mode: warned with the image there: $(cat $mode.err)"
	echo "$mode: worker and task run $wexe, $wmaps mappings against the runner's $rmaps"
	cp $mode.json plain-$mode.json
done

watch_run thread --task-process runner
read -r wexe texe wmaps rmaps <seen.txt
[ "$wexe" = "$(readlink -f "$CGSCALE")" ] || fail "--task-process runner: the worker is $wexe"
jq_check thread.json '[.points[] | .status == "ok" and .harness.task_process.image == "runner"
	and .harness.task_process.why == "--task-process runner" and .harness.task_process.mappings > 0] | all' \
	"--task-process runner is not recorded"
grep -q "forks of cgscale" thread.err && fail "--task-process runner warned: $(cat thread.err)"

# compare does not mix them, unless they are the axis
jq_check process.json '.environment.task_process.image == "plain"' "the run's environment does not say plain"
jq_check thread.json '.environment.task_process == {"image": "runner", "why": "--task-process runner"}' \
	"the run's environment does not say runner"
"$CGSCALE" compare plain-thread.json thread.json >cmp.txt 2>&1
rc=$?
[ $rc = 3 ] && grep -q "environment.task_process.image differs between the sides: A 'plain', B 'runner'" cmp.txt ||
	fail "compare of plain and runner: exit $rc: $(tail -n 2 cmp.txt)"
"$CGSCALE" compare --axis environment.task_process plain-thread.json thread.json >cmp.txt 2>&1 ||
	fail "compare --axis environment.task_process: $(tail -n 2 cmp.txt)"

# no usable image beside the binary: the run says why, and runs anyway
# solo_run DIR: cgscale copied alone into DIR, one short run
solo_run() {
	"$1/cgscale" run -q -t 1 -m process -w 0 -d 0.3 -i 0.1 -o solo.json page_fault3 </dev/null >/dev/null 2>solo.err ||
		fail "a run from $1: $(cat solo.err)"
	[ "$(grep -c "^cgscale: warning: the tasks run in forks of cgscale, with its libraries in their address space: ." solo.err)" = 1 ] ||
		fail "a run from $1 does not warn in one line: $(cat solo.err)"
	jq -e '[.points[] | .status == "ok" and .harness.task_process.image == "runner"] | all' solo.json >/dev/null ||
		fail "a run from $1 records $(jq -c '.points[0].harness.task_process' solo.json)"
	jq -r '.points[0].harness.task_process.why' solo.json
}
for d in solo stale open; do
	mkdir -p "$d" && chmod 0755 "$d" && cp "$(readlink -f "$CGSCALE")" "$d/cgscale"
done
printf '#!/bin/sh\necho another-build\n' >stale/cgscale-tasks
cp "$IMG" open/cgscale-tasks
chmod 0755 stale/cgscale-tasks
chmod 0777 open/cgscale-tasks
why=$(solo_run "$T/solo")
case $why in "no cgscale-tasks in $T/solo or $T/solo/../libexec/cgscale"*) ;; *) fail "alone: why is: $why" ;; esac
why=$(solo_run "$T/stale")
case $why in *"stale/cgscale-tasks is of another build (another-build; this is "*) ;; *) fail "stale: why is: $why" ;; esac
why=$(solo_run "$T/open")
case $why in *"open/cgscale-tasks may be written by others"*) ;; *) fail "world-writable: why is: $why" ;; esac

# started from a folder a fresh tmpfs then hides (as bench/wis-pair.sh
# does): the re-exec that turns ASLR off still finds this very binary
if command -v unshare >/dev/null; then
	unshare -m --propagation private sh -c 'mount -t tmpfs -o size=256m cgs-it /tmp && exec "$@"' sh \
		./solo/cgscale run -q -t 1 -m thread -w 0 -d 0.3 -i 0.1 --tmpdir /tmp -o hidden.json page_fault3 \
		</dev/null >/dev/null 2>hidden.err || fail "a run from a hidden folder: $(cat hidden.err)"
	grep -q "could not re-exec" hidden.err && fail "a run from a hidden folder: $(cat hidden.err)"
	jq_check hidden.json '.environment.aslr | startswith("off")' "a run from a hidden folder kept ASLR on"
else
	not_here "a run from a folder a tmpfs hides: no unshare(1)"
fi

# the plan says where the tasks will run
"$CGSCALE" run -n -t 1 page_fault3 </dev/null >plan.txt 2>&1 || fail "dry-run: $(tail -n 3 plan.txt)"
grep -q -F "tasks: in $IMG, the plain image each worker execs" plan.txt || fail "dry-run: $(grep '^tasks' plan.txt)"
"$T/solo/cgscale" run -n -t 1 page_fault3 </dev/null >plan.txt 2>&1 || fail "dry-run alone: $(tail -n 3 plan.txt)"
grep -q -F "tasks: in forks of cgscale, with its libraries in their address space: no cgscale-tasks in $T/solo" plan.txt ||
	fail "dry-run alone: $(grep '^tasks' plan.txt)"

# bad input
"$CGSCALE" run --task-process nowhere -q -t 1 -d 0.2 -o bad.json page_fault3 </dev/null >out.txt 2>err.txt
rc=$?
[ $rc = 2 ] || fail "--task-process nowhere: exit $rc"
[ "$(grep -c . err.txt)" = 1 ] && grep -q -- "--task-process" err.txt || fail "--task-process nowhere: $(cat err.txt)"
[ -e bad.json ] && fail "--task-process nowhere wrote bad.json"
echo "PASS: tasks in $IMG by default; runner on request; alone, stale and world-writable images refused with why; ASLR off from a hidden folder"
done_here
