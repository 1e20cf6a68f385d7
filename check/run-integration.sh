#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# run-integration.sh CGSCALE [CGSCALE_SAN] - run every executable
# check/integration/*.sh in order with $CGSCALE (and $CGSCALE_SAN, the
# sanitizer build) set. Exit 0 = pass, 77 = skip (with a reason on its
# last line), anything else = fail. Afterwards no cgscale process may be
# left running: one that carries this test's token in its environment
# (CGSCALE_IT_TOKEN, set for each test) and runs our binary (or the plain
# image beside it, cgscale-tasks) is a leak and
# is killed; any other process, another checkout's or one started by hand
# with the same binary, is not ours to judge or to kill. CHECK_LOAD=N runs
# them beside N busy loops (`make check CHECK_LOAD=2`).
CGSCALE=$(realpath "$1")
CGSCALE_SAN=$(realpath "${2:-$1}")
export CGSCALE CGSCALE_SAN
# the plain images beside them, which the workers and tasks run
IMG=$(dirname "$CGSCALE")/cgscale-tasks
IMG_SAN=$(dirname "$CGSCALE_SAN")/cgscale-tasks
cd "$(dirname "$0")/.." || exit 1
# Processes running our binaries that this test started (its token).
ours() {
	for p in /proc/[0-9]*; do
		exe=$(readlink "$p/exe" 2>/dev/null) || continue
		case "$exe" in
		"$CGSCALE" | "$CGSCALE_SAN" | "$IMG" | "$IMG_SAN")
			tr '\0' '\n' <"$p/environ" 2>/dev/null | grep -qx "CGSCALE_IT_TOKEN=$CGSCALE_IT_TOKEN" &&
				echo "${p#/proc/}" ;;
		esac
	done | tr '\n' ' '
}
# CHECK_LOAD=N: N busy loops (our own children, ended on exit) for the
# length of the tests, so that the suite is run as on a busy box
load_pids=
trap '[ -z "$load_pids" ] || kill $load_pids 2>/dev/null' EXIT
trap 'exit 130' INT TERM
case "${CHECK_LOAD:-0}" in
'' | *[!0-9]*) echo "CHECK_LOAD=$CHECK_LOAD: not a number of busy loops (CHECK_LOAD=2)" >&2; exit 2 ;;
esac
i=0
while [ $i -lt "${CHECK_LOAD:-0}" ]; do
	sh -c 'while :; do :; done' &
	load_pids="$load_pids $!"
	i=$((i + 1))
done
[ -z "$load_pids" ] || echo "integration tests beside $CHECK_LOAD busy loop(s) (CHECK_LOAD):$load_pids"
n=0
pass=0 fail=0 skip=0
for t in check/integration/*.sh; do
	[ -x "$t" ] || continue
	start=$(date +%s)
	n=$((n + 1))
	CGSCALE_IT_TOKEN=$$-$start-$n
	export CGSCALE_IT_TOKEN
	out=$("$t" 2>&1)
	rc=$?
	secs=$(( $(date +%s) - start ))
	case $rc in
	0) pass=$((pass + 1)); echo "ok      $t (${secs}s)" ;;
	77) skip=$((skip + 1)); echo "SKIP    $t: $(printf '%s\n' "$out" | tail -n 1)" ;;
	*) fail=$((fail + 1)); echo "FAILED  $t (exit $rc, ${secs}s)"
	   printf '%s\n' "$out" | tail -n 40 | sed 's/^/        /' ;;
	esac
	# a process the test ended may take a while to go on a loaded box:
	# a leak is one still there 10 s later (by the clock: a scan of
	# /proc is slow on a busy box, so never a count of scans)
	left=$(ours)
	end=$(($(date +%s) + 10))
	while [ -n "$left" ] && [ "$(date +%s)" -lt $end ]; do
		sleep 0.1
		left=$(ours)
	done
	if [ -n "$left" ]; then
		fail=$((fail + 1))
		echo "FAILED  $t left cgscale processes behind: $left"
		kill -9 $left 2>/dev/null
	fi
done
echo "integration tests: $pass passed, $skip skipped, $fail failed"
[ $fail -eq 0 ]
