#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The 13 fault cases of a hostile user, each checked for what matters: the
# exit status and reason, no finished point lost (the result, or the
# journal recovered, holds every point that had finished), and nothing
# left behind (no process of ours, no cgroup of the run's, no temporary
# file). Cases: normal exit; SIGINT; SIGTERM; SIGKILL of the runner then
# recover; SIGKILL of a task; SIGSEGV of a task thread; OOM in the leaf;
# the sendfile receiver killed; a full filesystem for the output; an
# unwritable output; a full tmpdir; SIGSTOP/SIGCONT of the runner; a
# frozen cgroup. Then issue 25's cases 7 to 9 under both builds: a small
# disk that fills, a failing disk (fsync errors injected with strace), the
# output's directory removed mid-run; and the fallback place never reached
# through a planted link (at it, or on the way to it) nor used when
# another user owns it or a directory on the way; and issue 40's OOM kill
# at a limit of one page (4097, 0x1000), which kills the worker before
# its tasks start, named from the kernel's count. Root only.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip "the fault cases need root (cgroups, tmpfs mounts)"
ulimit -c 0
# a sanitizer build would catch the SIGSEGV and SIGBUS sent to its tasks
# itself and exit 1: let them kill, as in the release build
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0:handle_sigbus=0"
NOLEAK="$ASAN_OPTIONS:detect_leaks=0"    # LeakSanitizer cannot run under ptrace (strace)
M="$T/m"
mkdir "$M"
trap 'umount "$M" 2>/dev/null; rm -rf "$T"' EXIT
# a case (lib.sh's subcase), then the scratch mount it may leave
case_() {
	subcase "$@"
	umount "$M" 2>/dev/null
}

# descendants PID: every process below PID
descendants() {
	for c in $(pgrep -P "$1"); do
		echo "$c"
		descendants "$c"
	done
}
# wait_lines FILE N: until FILE has N complete lines
wait_lines() {
	for i in $(seq 150); do
		[ -f "$1" ] && [ "$(wc -l <"$1" 2>/dev/null)" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}
# points FILE: the point lines of a journal (its header is written twice)
points() { grep -c '"seq":' "$1"; }
# wait_points FILE N: until the journal FILE holds N points
wait_points() {
	for i in $(seq 150); do
		[ -f "$1" ] && [ "$(points "$1")" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}
# kept ERR N OUT: the journal that the message in ERR says holds all N
# points is there, beside the output or in the fallback place (here in
# the scratch folder), and recovers into OUT with N points
kept() {
	j=$(sed -n "s/.*all $2 point(s) are in the journal .*: run 'cgscale recover \([^']*\)'.*/\1/p" "$1")
	[ -n "$j" ] || { bad "no journal named with all $2 points: $(cat "$1")"; return 1; }
	case "$j" in
	*/*.json.partial) ;;
	*) bad "the journal named is not one: $j"; return 1 ;;
	esac
	[ -f "$j" ] || { bad "the journal named, $j, is not there"; return 1; }
	"$C" recover -o "$3" "$j" 2>rec.txt || { bad "recover $j: $(cat rec.txt)"; return 1; }
	[ "$(jq '.points | length' "$3")" -eq "$2" ] || { bad "recovered $(jq '.points | length' "$3") of $2 points"; return 1; }
	[ ! -e "$j" ] || { bad "recover left $j"; return 1; }
}
# clean PID DIR...: nothing of runner PID left: processes, cgroups, temp
# files (.NAME.cgs-PID-RANDOM of an atomic write, .NAME.XXXXXX of older
# builds, cgscale.XXXXXX of a task)
clean() {
	pid=$1
	shift
	for i in $(seq 25); do
		[ -z "$(our_procs)" ] && break
		sleep 0.2
	done
	[ -z "$(our_procs)" ] || { bad "processes left: $(our_procs)"; return 1; }
	cg=$(find /sys/fs/cgroup -mindepth 2 -maxdepth 8 -type d -name "cgscale-$pid-*" 2>/dev/null)
	[ -z "$cg" ] || { bad "cgroups left: $cg"; return 1; }
	for d in "$T" "$@"; do
		tmp=$(find "$d" -maxdepth 1 \( -name '.*.??????' -o -name '.*.cgs-*' -o -name 'cgscale.??????' \) 2>/dev/null)
		[ -z "$tmp" ] || { bad "temporary files left: $tmp"; return 1; }
	done
	return 0
}
RUN="run -q -m process -t 1,2 -w 0 -d 0.6 -i 0.2"

normal() {
	"$CGSCALE" $RUN -o n.json page_fault1 >/dev/null 2>e.txt &
	pid=$!
	wait $pid || { bad "exit $?: $(cat e.txt)"; return 1; }
	jq -e '.complete and (.points | length) == 2 and all(.points[]; .status == "ok")' n.json >/dev/null ||
		{ bad "result"; return 1; }
	[ -e n.json.partial ] && { bad "journal left"; return 1; }
	clean $pid
}

# signal SIG WANT: stop a run mid-way; every point done before is kept
signal() {
	"$CGSCALE" $RUN -o s$1.json page_fault1 page_fault3 >/dev/null 2>e.txt &
	pid=$!
	wait_points s$1.json.partial 2 || { bad "no journal"; return 1; }
	done_before=$(points s$1.json.partial)
	kill -$1 $pid
	wait $pid
	rc=$?
	[ $rc -eq $2 ] || { bad "exit $rc, expected $2"; return 1; }
	jq -e ".complete == false and (.points | length) >= $done_before" s$1.json >/dev/null ||
		{ bad "points lost: $done_before done, $(jq '.points | length' s$1.json) kept"; return 1; }
	[ -e s$1.json.partial ] && { bad "journal left"; return 1; }
	clean $pid
}
sigint() { signal INT 130; }
sigterm() { signal TERM 143; }

sigkill_recover() {
	"$CGSCALE" $RUN --cgroup-depth 1 -o k.json page_fault1 page_fault3 >/dev/null 2>&1 &
	pid=$!
	wait_points k.json.partial 2 || { bad "no journal"; return 1; }
	kill -KILL $pid
	wait $pid 2>/dev/null
	n=$(points k.json.partial)
	"$CGSCALE" recover k.json.partial 2>e.txt || { bad "recover: $(cat e.txt)"; return 1; }
	jq -e ".complete == false and (.points | length) == $n" k.json >/dev/null ||
		{ bad "recovered $(jq '.points | length' k.json) of $n points"; return 1; }
	"$CGSCALE" show k.json >/dev/null 2>&1 || { bad "show of the recovered result"; return 1; }
	# the cgroups a SIGKILL leaves go with the next run (it cleans up the
	# dead runs' cgroups under its parents)
	"$CGSCALE" run -q -m thread -t 1 -w 0 -d 0.2 -i 0.1 --cgroup-depth 1 -o k2.json page_fault1 \
		>/dev/null 2>&1 || { bad "the next run"; return 1; }
	clean $pid
}

# kill_task SIG MODE WANT: send SIG to one task of the first point
kill_task() {
	"$CGSCALE" run -q -m $2 -t 2,1 -w 0 -d 2 -i 0.5 -o t$1.json page_fault1 >/dev/null 2>e.txt &
	pid=$!
	victim=
	for i in $(seq 50); do
		for c in $(descendants $pid); do
			for th in /proc/$c/task/*; do     # a thread, in thread mode
				[ "$(cat $th/comm 2>/dev/null)" = cgs:page_fault1 ] && victim=${th##*/}
			done
		done
		[ -n "$victim" ] && break
		sleep 0.1
	done
	[ -n "$victim" ] || { bad "no task found"; return 1; }
	sleep 0.5
	kill -$1 $victim
	wait $pid
	rc=$?
	[ $rc -eq 1 ] || { bad "exit $rc, expected 1: $(cat e.txt)"; return 1; }
	jq -e --arg re "$3" '(.points | length) == 2 and .points[0].status == "failed" and
		(.points[0].reason | test($re)) and .points[1].status == "ok"' t$1.json >/dev/null ||
		{ bad "results: $(jq -c '[.points[] | {status, reason}]' t$1.json)"; return 1; }
	clean $pid
}
task_kill() { kill_task KILL process "signal 9"; }
thread_segv() { kill_task SEGV thread "signal 11"; }

# oom_at CGSCALE LIMIT BYTES WHO: a point under memory limit LIMIT (read
# back as BYTES) fails, named OOM-killed from the kernel's oom_kill count,
# the knob to raise given; the reason then starts with WHO (empty: any).
# At one page (issue 40) the worker is killed before its tasks start,
# before the gate: named all the same, from the counts taken when the
# point's cgroup was made.
oom_at() {
	knob=memory.limit_in_bytes
	if ! grep -q ' - cgroup cgroup [^ ]*memory' /proc/self/mountinfo; then
		grep -q cgroup2 /proc/self/mountinfo || { bad "no memory cgroup"; return 1; }
		knob=memory.max
	fi
	"$1" run -q -m process -t 1 -w 0 -d 1 -i 0.5 --cgroup-set "1:$knob=$2" \
		-o oom.json page_fault2 >/dev/null 2>e.txt &
	pid=$!
	wait $pid
	rc=$?
	[ $rc -eq 1 ] || { bad "exit $rc, expected 1: $(cat e.txt)"; return 1; }
	jq -e --arg re "^OOM-killed in /sys/fs/cgroup/.*cgscale-[0-9]+-[^ ]* \\(memory limit $3 bytes\\): the kernel's OOM killer counted [1-9][0-9]* kill\\(s\\) there \\(oom_kill\\); raise --cgroup-set 1:$knob: $4.* killed by signal 9" \
		'.points[0].status == "failed" and (.points[0].reason | test($re))' \
		oom.json >/dev/null || { bad "reason: $(jq -r '.points[0].reason' oom.json)"; return 1; }
	grep -q "OOM-killed in .*raise --cgroup-set 1:$knob" e.txt || { bad "not said: $(cat e.txt)"; return 1; }
	rm -f oom.json
	clean $pid
}
oom() { oom_at "$CGSCALE" 32M 33554432 "task 0 "; }

receiver() {
	"$CGSCALE" run -q -m process -t 1 -w 0 -d 30 -i 1 -o sf.json sendfile >/dev/null 2>e.txt &
	pid=$!
	victim=
	for i in $(seq 100); do
		for c in $(descendants $pid); do
			[ "$(cat /proc/$c/comm 2>/dev/null)" = cgs:sf-recv ] && victim=$c
		done
		[ -n "$victim" ] && break
		sleep 0.1
	done
	[ -n "$victim" ] || { bad "no receiver found"; return 1; }
	sleep 0.5
	kill -KILL $victim
	wait $pid
	rc=$?
	[ $rc -eq 1 ] || { bad "exit $rc: $(cat e.txt)"; return 1; }
	jq -e '.points[0].status == "failed" and (.points[0].reason | test("sf-recv"))' sf.json >/dev/null ||
		{ bad "reason: $(jq -r '.points[0].reason' sf.json)"; return 1; }
	clean $pid
}

# a full filesystem for the output mid-run: the table, exit 1, and every
# point in the journal named (moved to the fallback place when the one
# beside the output could not take a point)
full_output() {
	C=$CGSCALE
	mount -t tmpfs -o size=256k cgscale-it "$M" || { bad "cannot mount a tmpfs"; return 1; }
	"$CGSCALE" $RUN -o "$M/r.json" page_fault1 page_fault3 >table.txt 2>e.txt &
	pid=$!
	wait_points "$M/r.json.partial" 1 || { bad "no journal"; return 1; }
	dd if=/dev/zero of="$M/fill" bs=4k 2>/dev/null
	wait $pid
	rc=$?
	[ $rc -eq 1 ] || { bad "exit $rc, expected 1"; return 1; }
	grep -q page_fault3 table.txt || { bad "no table printed"; return 1; }
	rm "$M/fill"
	kept e.txt 4 "$T/full.json" || return 1
	clean $pid "$M"
}

unwritable() {
	# refused before the first point
	"$CGSCALE" $RUN -o /proc/r.json page_fault1 >o.txt 2>e.txt
	rc=$?
	[ $rc -eq 2 ] && [ ! -s o.txt ] || { bad "-o /proc/r.json: exit $rc"; return 1; }
	# made read-only mid-run (a read-only bind mount over the directory:
	# the journal, open before, still takes points): the table, exit 1
	mount -t tmpfs -o size=4m cgscale-it "$M" || { bad "cannot mount a tmpfs"; return 1; }
	"$CGSCALE" $RUN -o "$M/r.json" page_fault1 page_fault3 >table.txt 2>e.txt &
	pid=$!
	wait_points "$M/r.json.partial" 2 || { bad "no journal"; return 1; }
	mount --bind "$M" "$M" && mount -o remount,ro,bind "$M" || { bad "cannot make it read-only"; return 1; }
	wait $pid
	rc=$?
	umount "$M"
	[ $rc -eq 1 ] || { bad "read-only output: exit $rc"; return 1; }
	grep -q page_fault3 table.txt || { bad "no table printed"; return 1; }
	grep -q "Read-only file system" e.txt || { bad "the cause not said: $(cat e.txt)"; return 1; }
	grep -q "4 point(s) are in the journal $M/r.json.partial:" e.txt || { bad "the journal not named: $(cat e.txt)"; return 1; }
	"$CGSCALE" recover "$M/r.json.partial" 2>/dev/null || { bad "recover"; return 1; }
	jq -e '(.points | length) == 4' "$M/r.json" >/dev/null || { bad "recovered $(jq '.points | length' "$M/r.json") points"; return 1; }
	clean $pid "$M" || return 1
	# the same when the final rename fails with EROFS (injected)
	ASAN_OPTIONS=$NOLEAK strace -f -o /dev/null -e trace=rename,renameat,renameat2 \
		-e inject=rename,renameat,renameat2:error=EROFS "$CGSCALE" $RUN -o "$T/ro.json" \
		page_fault1 page_fault3 >table.txt 2>e.txt
	rc=$?
	[ $rc -eq 1 ] || { bad "EROFS at the rename: exit $rc"; return 1; }
	grep -q page_fault3 table.txt || { bad "EROFS at the rename: no table printed"; return 1; }
	grep -q "4 point(s) are in the journal $T/ro.json.partial:" e.txt || { bad "EROFS at the rename: the journal not named: $(cat e.txt)"; return 1; }
	"$CGSCALE" recover "$T/ro.json.partial" 2>/dev/null || { bad "recover"; return 1; }
	jq -e '(.points | length) == 4' "$T/ro.json" >/dev/null || { bad "recovered $(jq '.points | length' "$T/ro.json") points"; return 1; }
	clean 0
}

full_tmpdir() {
	mount -t tmpfs -o size=140m cgscale-it "$M" || { bad "cannot mount a tmpfs"; return 1; }
	# too small for 2 tasks: refused before the first point, naming the need
	"$CGSCALE" run -q -m process -t 2 -d 0.5 -i 0.25 --tmpdir "$M" page_fault3 >o.txt 2>e.txt
	rc=$?
	[ $rc -eq 2 ] && grep -q "needs 256 MiB" e.txt || { bad "not refused: exit $rc: $(cat e.txt)"; return 1; }
	# filled up after the check (80 MiB written during the first point):
	# page_fault3's shared mapping gets SIGBUS, and the reason says why
	"$CGSCALE" run -q -m process -t 1 -w 0 -d 1 -i 0.5 --tmpdir "$M" -o bus.json fallocate2 page_fault3 \
		>/dev/null 2>e.txt &
	pid=$!
	wait_lines bus.json.partial 1 || { bad "no journal"; return 1; }
	dd if=/dev/zero of="$M/fill" bs=1M count=80 2>/dev/null
	wait $pid
	rm -f "$M/fill"
	jq -e '.points[1].status == "failed" and (.points[1].reason | test("SIGBUS on a file in --tmpdir .*: it filled up"))' \
		bus.json >/dev/null || { bad "reason: $(jq -r '.points[1].reason' bus.json)"; return 1; }
	clean $pid "$M"
}

stop_cont() {
	"$CGSCALE" $RUN -o sc.json page_fault1 >/dev/null 2>e.txt &
	pid=$!
	wait_lines sc.json.partial 1 || { bad "no journal"; return 1; }
	sleep 0.3
	kill -STOP $pid
	sleep 2
	kill -CONT $pid
	wait $pid || { bad "exit $?: $(cat e.txt)"; return 1; }
	jq -e '.complete and (.points | length) == 2 and all(.points[]; .status == "ok")' sc.json >/dev/null ||
		{ bad "results: $(jq -c '[.points[] | {status, reason}]' sc.json)"; return 1; }
	clean $pid
}

frozen() {
	grep -q ' - cgroup cgroup [^ ]*freezer' /proc/self/mountinfo ||
		grep -q cgroup2 /proc/self/mountinfo || { bad "no freezer"; return 1; }
	start=$(date +%s)
	"$CGSCALE" run -q -m process -t 1 -w 0 -d 1 -i 0.5 --cgroup-set 1:freezer.state=FROZEN \
		-o fz.json page_fault1 >/dev/null 2>e.txt &
	pid=$!
	wait $pid
	rc=$?
	[ $rc -eq 1 ] || { bad "exit $rc: $(cat e.txt)"; return 1; }
	[ $(($(date +%s) - start)) -lt 20 ] || { bad "took $(($(date +%s) - start)) s"; return 1; }
	jq -e '.points[0].status == "failed" and (.points[0].reason | test("frozen"))' fz.json >/dev/null ||
		{ bad "reason: $(jq -r '.points[0].reason' fz.json)"; return 1; }
	clean $pid || return 1
	# frozen from outside mid-point: bounded, and SIGTERM still heard
	"$CGSCALE" run -q -m process -t 1 -w 0 -d 3 -i 0.5 --cgroup-set 1:freezer.state=THAWED \
		-o fz2.json page_fault1 >/dev/null 2>e.txt &
	pid=$!
	fz=
	for i in $(seq 50); do
		fz=$(find /sys/fs/cgroup/freezer -maxdepth 6 -type d -name "cgscale-$pid-*" 2>/dev/null | head -n 1)
		[ -n "$fz" ] && break
		sleep 0.1
	done
	[ -n "$fz" ] || { bad "no freezer cgroup of the run"; kill -INT $pid; wait $pid; return 1; }
	sleep 0.5
	echo FROZEN >"$fz/freezer.state"
	sleep 0.5
	kill -TERM $pid
	start=$(date +%s)
	wait $pid
	rc=$?
	[ $rc -eq 143 ] || { bad "frozen, then SIGTERM: exit $rc: $(cat e.txt)"; return 1; }
	[ $(($(date +%s) - start)) -lt 10 ] || { bad "SIGTERM took $(($(date +%s) - start)) s"; return 1; }
	clean $pid
}

# Issue 25, cases 7 to 9, under both builds: no finished point is lost
# when the disk fills, fails or loses the output's directory mid-run; the
# message names the journal that holds them all, which the fallback place
# ($XDG_STATE_HOME/cgscale, in the scratch folder: lib.sh) takes over
# when the one beside the output cannot.
TWELVE="run -q -m both -t 1,2,3 -r 2 -w 0 -d 0.2 -i 0.1"
SIX="run -q -m process -t 1,2,3 -r 2 -w 0 -d 0.2 -i 0.1"
# 7: a 64 KiB filesystem fills after 7 of 12 points
small_disk() {
	mount -t tmpfs -o size=64k cgscale-it "$M" || { bad "cannot mount a tmpfs"; return 1; }
	"$C" $TWELVE -o "$M/r$B.json" page_fault1 >table.txt 2>e.txt &
	pid=$!
	wait $pid
	rc=$?
	[ $rc -eq 1 ] || { bad "exit $rc, expected 1: $(cat e.txt)"; return 1; }
	grep -q "fallback place" e.txt && grep -q "$XDG_STATE_HOME/cgscale/r$B-" e.txt ||
		{ bad "the fallback place not named: $(cat e.txt)"; return 1; }
	[ "$(stat -c %a "$XDG_STATE_HOME/cgscale")" = 700 ] || { bad "the fallback place is not mode 0700"; return 1; }
	kept e.txt 12 "$T/small$B.json" || return 1
	clean $pid "$M" "$XDG_STATE_HOME/cgscale"
}
# the fallback place is never reached through a symbolic link, nor used
# when another user owns it, nor reached through a user's link or
# directory on the way (issue 40, case 4: root with a HOME whose
# ~/.local/state is a user's link): the points it cannot take are said to
# be only in the table, and nothing is written there
fallback_safe() {
	mkdir -p "$XDG_STATE_HOME" "$T/victim$B"
	rm -rf "$XDG_STATE_HOME/cgscale"
	ln -s "$T/victim$B" "$XDG_STATE_HOME/cgscale"
	for how in link owner uplink updir; do
		state=$XDG_STATE_HOME
		case $how in
		owner)
			rm "$XDG_STATE_HOME/cgscale"
			mkdir -m 0700 "$XDG_STATE_HOME/cgscale"
			chown 12345:12345 "$XDG_STATE_HOME/cgscale" ;;
		uplink)   # $T/h$B/state: a link that uid 12345 owns
			mkdir -p "$T/h$B"
			ln -s "$T/victim$B" "$T/h$B/state" && chown -h 12345:12345 "$T/h$B/state"
			state=$T/h$B/state ;;
		updir)    # $T/u$B: a directory that uid 12345 owns
			mkdir -p "$T/u$B" && chown 12345:12345 "$T/u$B"
			state=$T/u$B/state ;;
		esac
		mount -t tmpfs -o size=64k cgscale-it "$M" || { bad "cannot mount a tmpfs"; return 1; }
		XDG_STATE_HOME=$state "$C" $TWELVE -o "$M/s$B.json" page_fault1 >table.txt 2>e.txt
		rc=$?
		umount "$M"
		[ $rc -eq 1 ] || { bad "$how: exit $rc, expected 1: $(cat e.txt)"; return 1; }
		[ -z "$(find -L "$T/victim$B" "$XDG_STATE_HOME/cgscale" -mindepth 1)" ] ||
			{ bad "$how: written in the fallback place: $(find -L "$T/victim$B" "$XDG_STATE_HOME/cgscale")"; return 1; }
		case $how in
		link) grep -q "fallback place $XDG_STATE_HOME/cgscale is not a directory (a symbolic link?)" e.txt ;;
		owner) grep -q "fallback place $XDG_STATE_HOME/cgscale belongs to uid 12345" e.txt ;;
		updir) [ -z "$(find "$T/u$B" -mindepth 1)" ] &&
			grep -q "the way to the fallback place $state/cgscale passes a link or directory another user owns" e.txt ;;
		uplink) grep -q "the way to the fallback place $state/cgscale passes a link or directory another user owns" e.txt ;;
		esac || { bad "$how: not said, or made there: $(cat e.txt)"; return 1; }
		grep -q "of 12 point(s) are in the journal $M/s$B.json.partial: .* the other [0-9]* are only in the table above" e.txt ||
			{ bad "$how: where the points are not said: $(cat e.txt)"; return 1; }
	done
	rm -rf "$XDG_STATE_HOME/cgscale"
}
# 8: fsync fails from the Nth call on (strace injects ERR): no point lost
failing_disk() {
	ASAN_OPTIONS=$NOLEAK strace -f -o /dev/null -e trace=fsync -e inject=fsync:error=$1:when=$2+ \
		"$C" $SIX -o "$T/f$1$B.json" page_fault1 >table.txt 2>e.txt
	rc=$?
	[ $rc -eq 1 ] || { bad "exit $rc, expected 1: $(cat e.txt)"; return 1; }
	kept e.txt 6 "$T/f$1$B-rec.json" || return 1
	clean 0 "$T" "$XDG_STATE_HOME/cgscale"
}
eio() { failing_disk EIO 4; }
erofs() { failing_disk EROFS 7; }
# 9: the output's directory removed mid-run: the result is in the
# fallback place ("results in" names it; exit 1, since it is not where -o
# said), and no journal is named for the gone directory
dir_gone() {
	g=$T/gone$B
	mkdir "$g"
	"$C" run -q -m process -t 1,2,3 -r 2 -w 0 -d 1 -i 0.25 -o "$g/r.json" page_fault1 >table.txt 2>e.txt &
	pid=$!
	wait_points "$g/r.json.partial" 2 || { bad "no journal"; return 1; }
	rm -rf "$g"
	wait $pid
	rc=$?
	[ $rc -eq 1 ] || { bad "exit $rc, expected 1: $(cat e.txt)"; return 1; }
	grep -q "cgscale recover $g" e.txt && { bad "a journal that is gone named: $(cat e.txt)"; return 1; }
	out=$(sed -n 's/^cgscale: results in //p' e.txt)
	case "$out" in
	"$XDG_STATE_HOME"/cgscale/r-*.json) ;;
	*) bad "results in '$out', not in the fallback place: $(cat e.txt)"; return 1 ;;
	esac
	[ "$(jq '.points | length' "$out")" -eq 6 ] || { bad "$out holds $(jq '.points | length' "$out") of 6 points"; return 1; }
	rm "$out"
	clean $pid "$XDG_STATE_HOME/cgscale"
}

case_ "normal exit" normal
case_ "SIGINT" sigint
case_ "SIGTERM" sigterm
case_ "SIGKILL of the runner, then recover" sigkill_recover
case_ "SIGKILL of a task" task_kill
case_ "SIGSEGV of a task thread" thread_segv
case_ "OOM in the leaf" oom
case_ "the sendfile receiver killed" receiver
case_ "a full filesystem for the output" full_output
case_ "an unwritable output" unwritable
case_ "a full tmpdir" full_tmpdir
case_ "SIGSTOP/SIGCONT of the runner" stop_cont
case_ "a frozen cgroup" frozen
for B in rel san; do
	C=$CGSCALE
	[ $B = san ] && C=${CGSCALE_SAN:-}
	[ -n "$C" ] || continue
	[ $B = san ] && [ "$C" = "$CGSCALE" ] && continue
	case_ "$B: 7, a 64 KiB disk full after 7 of 12 points" small_disk
	case_ "$B: 8, fsync fails with EIO from the 4th call" eio
	case_ "$B: 8, fsync fails with EROFS from the 7th call" erofs
	case_ "$B: 9, the output's directory removed mid-run" dir_gone
	case_ "$B: the fallback place never through a link, nor another user's" fallback_safe
	case_ "$B: an OOM kill at a limit of 4097 named" oom_at "$C" 4097 4096 ""
	case_ "$B: an OOM kill at a limit of 0x1000 named" oom_at "$C" 0x1000 4096 ""
	rm -rf "${XDG_STATE_HOME:?}/cgscale"
done
subcases_done fault
