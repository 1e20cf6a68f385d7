# SPDX-License-Identifier: GPL-2.0-or-later
# lib.sh - helpers for the integration tests (sourced, not run).
# Each test gets $T, a temporary directory removed on exit, and runs
# cgscale from inside it so that default paths land there too.
set -u
: "${CGSCALE:?set CGSCALE to the cgscale binary}"
REPO=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d /tmp/cgscale-it.XXXXXX)
# KEEP=1 keeps the directory for a post-mortem
[ -n "${KEEP:-}" ] || trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
# a run's fallback place for its journal (runner/run/fallback.h) is here
export XDG_STATE_HOME="$T/state"

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

# An assertion that depends on what this box can show (a PMU, precise CPU
# accounting, lock contention) and that the test measured it cannot:
# `not_here REASON` says so now and keeps the reason; the test's other
# assertions go on, and `done_here` ends it: exit 77 with the reasons on
# the last line when any was left out (run-integration.sh prints it as a
# SKIP), else exit 0. Never a silent pass.
not_here=
not_here() { echo "not checked on this box: $*"; not_here="${not_here:+$not_here; }$*"; }
done_here() {
	[ -z "$not_here" ] || { echo "SKIP: every other assertion passed; not checked on this box: $not_here"; exit 77; }
	exit 0
}

# wait_until SECONDS CMD...: run CMD every 0.1 s until it succeeds
# (return 0) or SECONDS have passed (return 1). For a condition that a
# loaded scheduler makes late: never a fixed sleep followed by a check.
wait_until() {
	_wu_end=$(($(date +%s) + $1 + 1))
	shift
	until "$@"; do
		[ "$(date +%s)" -lt "$_wu_end" ] || return 1
		sleep 0.1
	done
}
# gone PID: the process has exited: no such process, or a zombie that
# its parent has not reaped yet (kill -0 succeeds on those)
gone() {
	_st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null) || return 0
	case "$_st" in '' | Z* | X*) return 0 ;; *) return 1 ;; esac
}

# jq_check FILE FILTER MESSAGE: the jq filter must print true.
jq_check() {
	r=$(jq -r "$2" "$1") || fail "jq failed on $1: $2"
	[ "$r" = true ] || fail "$3 (jq: $2 gave $r)"
}

# user_change_se A.json B.json: the error (1 SE) of the change of the
# account's user ns/op between two results of several runs: the kernel's
# split (its tick sampling error, account.split.user_se_ns_per_op) or the
# runs' own spread (the SE of each side's mean), the larger. On a loaded
# box preemption and the scaling of the ticks to the run time
# (cputime_adjust) add to the split's own error.
user_change_se() {
	_se='[.points[].account.split.user_se_ns_per_op // 0] | (map(. * .) | add | sqrt) / length'
	_var='[.points[].account.user_ns_per_op] | length as $n | (add / $n) as $m
		| (map((. - $m) * (. - $m)) | add / ($n - 1)) / $n'
	awk -v a="$(jq "$_se" "$1")" -v b="$(jq "$_se" "$2")" -v va="$(jq "$_var" "$1")" \
		-v vb="$(jq "$_var" "$2")" \
		'BEGIN { t = sqrt(a * a + b * b); e = sqrt(va + vb); printf "%.1f", (t > e ? t : e) }'
}

# Our processes still alive: anything running the binary under test or
# the plain image beside it (the workers and tasks: runner/image/).
our_procs() {
	_img=$(dirname "$(readlink -f "$CGSCALE")")/cgscale-tasks
	_simg=
	[ -z "${CGSCALE_SAN:-}" ] || _simg=$(dirname "$(readlink -f "$CGSCALE_SAN")")/cgscale-tasks
	for p in /proc/[0-9]*; do
		exe=$(readlink "$p/exe" 2>/dev/null) || continue
		case $exe in
		"$CGSCALE" | "${CGSCALE_SAN:-}" | "$_img" | "${_simg:-/}") echo "${p#/proc/}" ;;
		esac
	done
}

# Named cases of one test, each run to its end so all failures are seen:
# `subcase NAME CMD...` runs CMD and counts it in $passed or $failed (the
# failed ones' names in $names); `subcases_done WHAT` prints the count and
# fails when any case failed. A case says why it failed with `bad MSG`.
passed=0 failed=0 names=
bad() { echo "  FAIL: $*" >&2; return 1; }
subcase() {
	name=$1
	shift
	if "$@"; then
		passed=$((passed + 1))
		echo "ok: $name"
	else
		failed=$((failed + 1))
		names="$names; $name"
		echo "FAILED: $name"
	fi
}
subcases_done() {
	echo "$1 cases: $passed of $((passed + failed)) passed${names:+ (failed:${names#;})}"
	[ $failed -eq 0 ]
}
