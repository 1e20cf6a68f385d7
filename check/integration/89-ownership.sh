#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cgscale kills only what it can prove is its own (issue 25, cases 4, 5,
# 6 and 13), all under a scratch parent this test makes in its own memory
# cgroup and removes; `cgroup cleanup` runs only with --dry-run, so no
# other cgroup on the machine is touched.
#  4: a live run B with its tree inside the cgroup a SIGKILLed run A left:
#     another run's start-up sweep and `cleanup --dry-run` leave B alone
#     (cgroups, worker, tasks), keep A's cgroup saying why, and remove it
#     once B is gone.
#  5: a process someone moves into a live run's leaf or level-1 cgroup is
#     moved to the run's parent cgroup with a warning naming its pid and
#     comm, never killed (process and thread mode), and a finished point
#     records it in extra.cgroup.moved_out.
#  6: a forged marker and a process named cgs:x (as cgscale's workers
#     name themselves): neither the sweep nor cleanup kills it.
# 13: kill -9 of the parent of --invocations takes the running invocation,
#     its worker and its task down at once; the next sweep removes its
#     cgroups.
# OWN_CASES="4 13" runs only those (to see which fail on an old binary).
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip "cgroup tests need root"
M=$(awk '{for (i = 1; i <= NF; i++) if ($i == "-") break; if ($(i + 1) == "cgroup" && $NF ~ /(^|,)memory(,|$)/) {print $5; exit}}' /proc/self/mountinfo)
[ -n "$M" ] ||
	skip "!!! the memory controller is not on cgroup v1 here: this test needs it (v2 runs in 75-cgroup-v2-vm) !!!"
command -v python3 >/dev/null || skip "python3 is needed to forge a marker xattr"
SELF=$(awk -F: '$2 == "memory" {print $3}' /proc/self/cgroup)
PARENT="${SELF%/}/cgs-it-own-$$"
P="$M$PARENT"
mkdir "$P" || fail "cannot make the scratch parent $P"
CASES=${OWN_CASES:-4 5 6 13}

# what the test started: killed and reaped on exit, the scratch parent
# emptied (our own processes moved back to our cgroup) and removed
started=
cleanup() {
	for p in $started; do
		kill -KILL "$p" 2>/dev/null
	done
	wait 2>/dev/null
	for f in $(find "$P" -name cgroup.procs 2>/dev/null); do
		for p in $(cat "$f"); do
			case " $started " in *" $p "*) ;; *) continue ;; esac
			echo "$p" >"$M$SELF/cgroup.procs" 2>/dev/null
		done
	done
	find "$P" -depth -type d -exec rmdir {} \; 2>/dev/null
	[ -d "$P" ] && echo "warning: $P could not be removed" >&2
	rm -rf "$T"
}
trap cleanup EXIT

# alive PID: running, not a zombie
alive() {
	s=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
	[ -n "$s" ] && [ "$s" != Z ] && [ "$s" != X ]
}
# until COMMAND succeeds, for at most 60 s (what is waited for happens at
# once on an idle machine; the bound only ends a broken run)
until_ok() {
	for _n in $(seq 600); do
		"$@" && return 0
		sleep 0.1
	done
	return 1
}
# tree RUNNER [UNDER]: the first cgroup of RUNNER's first point, under
# UNDER (default the scratch parent), once it exists
tree_of() {
	find "${2:-$P}" -maxdepth 1 -type d -name "cgscale-$1-*-0" 2>/dev/null | head -n 1
}
has_procs() { [ "$(cat "$1/cgroup.procs" 2>/dev/null | grep -c .)" -ge "$2" ]; }
# tree_has RUNNER N [SUB [UNDER]]: RUNNER's tree ($d) holds N processes
# (in its cgroup SUB)
tree_has() {
	d=$(tree_of "$1" "${4:-$P}")
	[ -n "$d" ] && has_procs "$d${3:+/$3}" "$2"
}
# a short run under PARENT: its start-up sweep is what is tested
sweep() {
	"$CGSCALE_SAN" run -q -m process -t 1 -w 0 -d 0.2 -i 0.1 --cgroup-depth 1 \
		--cgroup-parent "$1" -o "$2.json" page_fault1 >/dev/null 2>"$2.err" ||
		fail "$2: the sweeping run failed: $(cat "$2.err")"
}
# stray: start a process cgscale knows nothing of, in $s
stray() {
	sleep 600 >/dev/null 2>&1 &
	s=$!
	started="$started $s"
}

case4() {
	"$CGSCALE" run -q -m process -t 1 -w 0 -d 600 -i 1 --cgroup-depth 1 --cgroup-parent "$PARENT" \
		-o a.json page_fault1 >/dev/null 2>a.err &
	a=$!
	started="$started $a"
	until_ok tree_has $a 2 || fail "4: run A made no cgroup: $(cat a.err)"
	adir=$d
	kill -KILL $a
	wait $a 2>/dev/null
	until_ok eval '! has_procs "$adir" 1' || fail "4: A's processes outlived it: $(cat "$adir/cgroup.procs")"
	"$CGSCALE" run -q -m process -t 2 -w 0 -d 600 -i 1 --cgroup-depth 2 --cgroup-parent "${adir#$M}" \
		-o b.json page_fault1 >/dev/null 2>b.err &
	b=$!
	started="$started $b"
	until_ok tree_has $b 3 cgscale-l2 "$adir" || fail "4: run B did not start: $(cat b.err)"
	bdir=$d
	bprocs=$(cat "$bdir/cgscale-l2/cgroup.procs")

	"$CGSCALE_SAN" cgroup cleanup --dry-run >dry4.txt 2>&1
	for p in $bprocs; do
		grep "would kill" dry4.txt | grep -qw "$p" &&
			fail "4: cleanup --dry-run would kill B's worker or task $p: $(grep -F "$adir" dry4.txt)"
	done
	grep -q "cgscale-$b-[^:]*: would remove" dry4.txt && fail "4: cleanup --dry-run would remove B's cgroups: $(grep "$adir" dry4.txt)"
	grep -qF "$adir: kept: it holds the cgroups of a live cgscale run (pid $b)" dry4.txt ||
		fail "4: cleanup --dry-run does not keep A's cgroup for B: $(grep "$adir" dry4.txt)"

	sweep "$PARENT" c4
	for p in $b $bprocs; do
		alive $p || fail "4: another run's sweep killed B's process $p: $(cat c4.err b.err)"
	done
	for d in "$bdir" "$bdir/cgscale-l2"; do
		[ -d "$d" ] || fail "4: another run's sweep removed B's cgroup $d: $(cat c4.err)"
	done
	grep -qF "$adir: kept: it holds the cgroups of a live cgscale run (pid $b)" c4.err ||
		fail "4: the sweep does not say why A's cgroup stays: $(cat c4.err)"
	[ "$(cat "$bdir/cgscale-l2/cgroup.procs")" = "$bprocs" ] || fail "4: B's tasks moved"

	kill -INT $b
	wait $b
	rc=$?
	[ $rc -eq 130 ] || fail "4: B after SIGINT: exit $rc: $(cat b.err)"
	[ ! -d "$bdir" ] || fail "4: B left $bdir"
	sweep "$PARENT" c4b
	grep -qF "removed $adir, left behind by a cgscale run that was killed" c4b.err ||
		fail "4: A's cgroup not swept once B was gone: $(cat c4b.err)"
	[ ! -d "$adir" ] || fail "4: $adir is still there"
	echo "case 4 ok"
}

# case5_int MODE: strays in the leaf and in level 1, the point ended by SIGINT
case5_int() {
	"$CGSCALE" run -q -m $1 -t 2 -w 0 -d 600 -i 1 --cgroup-depth 2 --cgroup-parent "$PARENT" \
		-o "i$1.json" page_fault1 >/dev/null 2>"i$1.err" &
	r=$!
	started="$started $r"
	until_ok tree_has $r 1 cgscale-l2 || fail "5 $1: the run made no cgroup: $(cat "i$1.err")"
	top=$d
	stray
	s1=$s
	stray
	s2=$s
	echo $s1 >"$top/cgscale-l2/cgroup.procs" || fail "5 $1: cannot move a process into the leaf"
	echo $s2 >"$top/cgroup.procs" || fail "5 $1: cannot move a process into level 1"
	kill -INT $r
	wait $r
	rc=$?
	[ $rc -eq 130 ] || fail "5 $1: exit $rc after SIGINT: $(cat "i$1.err")"
	alive $s1 || fail "5 $1: the process moved into the leaf was killed: $(cat "i$1.err")"
	alive $s2 || fail "5 $1: the process moved into level 1 was killed: $(cat "i$1.err")"
	grep -qx $s1 "$P/cgroup.procs" && grep -qx $s2 "$P/cgroup.procs" ||
		fail "5 $1: the processes are not in the run's parent $P: $(cat "i$1.err")"
	grep -qF "pid $s1 (sleep), which cgscale did not start, was in $top/cgscale-l2: moved to $P, not killed" "i$1.err" &&
		grep -qF "pid $s2 (sleep), which cgscale did not start, was in $top: moved to $P, not killed" "i$1.err" ||
		fail "5 $1: no warning naming the pids and comm: $(cat "i$1.err")"
	[ ! -d "$top" ] || fail "5 $1: the run's cgroups stayed: $(find "$top")"
	kill $s1 $s2
}

# case5_end MODE D: a stray in the leaf of a point that ends by itself
case5_end() {
	"$CGSCALE_SAN" run -q -m $1 -t 1 -w 0 -d $2 -i 1 --cgroup-depth 2 --cgroup-parent "$PARENT" \
		-o "e$1.json" page_fault1 >/dev/null 2>"e$1.err" &
	r=$!
	started="$started $r"
	until_ok tree_has $r 1 cgscale-l2 || fail "5 $1: the run made no cgroup: $(cat "e$1.err")"
	stray
	s1=$s
	if ! echo $s1 >"$d/cgscale-l2/cgroup.procs" 2>/dev/null; then
		# the point ended first (a slow machine): again, longer
		wait $r
		kill $s1
		return 1
	fi
	wait $r
	rc=$?
	[ $rc -eq 0 ] || fail "5 $1: exit $rc: $(cat "e$1.err")"
	alive $s1 || fail "5 $1: the process moved into the leaf was killed at the end of the point"
	grep -qx $s1 "$P/cgroup.procs" || fail "5 $1: the process is not in $P"
	grep -q "pid $s1 (sleep), which cgscale did not start, was in .*/cgscale-l2: moved to $P, not killed" "e$1.err" ||
		fail "5 $1: no warning: $(cat "e$1.err")"
	jq_check "e$1.json" "[.points[] | .cgroup | .removed and (.moved_out | length) == 1 and .moved_out[0].pid == $s1
		and .moved_out[0].comm == \"sleep\" and .moved_out[0].to == \"$P\"] | all" "5 $1: moved_out not recorded"
	kill $s1
}

case5() {
	for m in process thread; do
		case5_int $m
		case5_end $m 6 || case5_end $m 60 || fail "5 $m: the stray could not be put in the leaf"
	done
	echo "case 5 ok"
}

case6() {
	dead=$(sh -c 'echo $$')
	f="$P/cgscale-$dead-forged-0"
	mkdir "$f" || fail "6: mkdir"
	python3 -c "import os, sys; os.setxattr(sys.argv[1], 'trusted.cgscale', b'cgscale pid=$dead start=1')" "$f" ||
		fail "6: cannot forge the marker"
	cp "$(command -v sleep)" "$T/cgs:x" && cp "$(command -v sh)" "$T/cgs:p" || fail "6: cp"
	# cgs:x, a child of cgs:p: a cgscale worker and its runner by name
	"$T/cgs:p" -c "\"$T/cgs:x\" 600 & echo \$! >x.pid; wait" &
	started="$started $!"
	until_ok test -s x.pid || fail "6: cgs:x did not start"
	x=$(cat x.pid)
	started="$started $x"
	[ "$(cat /proc/$x/comm)" = "cgs:x" ] || fail "6: comm is $(cat /proc/$x/comm)"
	echo $x >"$f/cgroup.procs" || fail "6: cannot move cgs:x into the forged cgroup"
	"$CGSCALE_SAN" cgroup cleanup --dry-run >dry6.txt 2>&1
	grep -F "$f:" dry6.txt | grep -q "would kill" && fail "6: cleanup --dry-run would kill cgs:x: $(grep -F "$f" dry6.txt)"
	grep -qF "$f: kept: it holds processes that are not cgscale's workers: $x (cgs:x)" dry6.txt ||
		fail "6: cleanup --dry-run does not keep the forged cgroup naming cgs:x: $(grep -F "$f" dry6.txt)"
	sweep "$PARENT" c6
	alive $x || fail "6: the sweep killed cgs:x: $(cat c6.err)"
	[ -d "$f" ] || fail "6: the sweep removed the cgroup holding cgs:x"
	grep -qF "$f: kept: it holds processes that are not cgscale's workers: $x (cgs:x)" c6.err ||
		fail "6: the sweep does not say why it keeps the cgroup: $(cat c6.err)"
	echo $x >"$M$SELF/cgroup.procs"
	kill $x
	rmdir "$f" || fail "6: rmdir"
	echo "case 6 ok"
}

case13() {
	mkdir inv
	"$CGSCALE" run -q -m process -t 1 -w 0 -d 600 -i 1 --invocations 3 --cgroup-depth 1 \
		--cgroup-parent "$PARENT" -o inv page_fault1 >/dev/null 2>inv.err &
	parent=$!
	started="$started $parent"
	inv_tree() {
		d=$(find "$P" -maxdepth 1 -type d -name 'cgscale-*-0' | head -n 1)
		has_procs "$d" 2
	}
	until_ok inv_tree || fail "13: the invocation made no cgroup: $(cat inv.err)"
	c=$(basename "$d" | cut -d- -f2)
	procs=$(cat "$d/cgroup.procs")
	started="$started $c $procs"
	[ "$(sed 's/.*) //' /proc/$c/stat | cut -d' ' -f2)" = $parent ] ||
		fail "13: $c is not the invocation of $parent"
	kill -KILL $parent
	wait $parent 2>/dev/null
	gone() {
		for p in $c $procs; do
			alive $p && return 1
		done
		return 0
	}
	# PR_SET_PDEATHSIG: at once; the bound is 20 s of a 600 s invocation
	for _n in $(seq 200); do
		gone && break
		sleep 0.1
	done
	gone || fail "13: the invocation ($c) or its worker and task ($procs) outlived the parent's kill -9"
	sweep "$PARENT" c13
	grep -qF "removed $d, left behind by a cgscale run that was killed" c13.err ||
		fail "13: the next sweep did not remove the invocation's cgroup: $(cat c13.err)"
	[ ! -d "$d" ] || fail "13: $d stayed"
	echo "case 13 ok"
}

for c in $CASES; do
	case$c
done
exit 0
