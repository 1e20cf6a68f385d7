#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kernel-bisect-step.sh - one step of `git bisect run` on a Linux kernel
# tree, with cgscale as the test: build the kernel of this commit, boot it
# (in a virtual machine, with virtme-ng, by default), run cgscale in it,
# compare the result against a baseline measured the same way on the good
# kernel, and exit with the code git bisect run wants:
#
#   0    good: compare found no REGRESSION
#   1    bad: a REGRESSION
#   125  skip: this commit cannot be judged: the kernel does not build,
#        boot or measure, the kernel that ran is not the one built here
#        (include/config/kernel.release and UTS_VERSION against the
#        result's kernel.release and kernel.version), or compare cannot
#        decide
#   128  abort: the bisection itself is wrong (no baseline, bad options,
#        no cgscale or vng, an interrupt, an internal error): every commit
#        would fail the same way
#
# From the exit statuses of cgscale (lib/exit.h, cgscale-compare(1)):
#   compare 0 (no REGRESSION) -> 0, 1 (a REGRESSION) -> 1,
#   4 (INCONCLUSIVE or NOISY; the step passes --fail-on-inconclusive),
#   2 (this commit's result unreadable) and 3 (incomparable) -> 125,
#   70 or anything else -> 128;
#   run, or the boot that runs it: 0 -> compare, 130/143 (SIGINT/SIGTERM)
#   -> 128, anything else (a point failed, no boot) -> 125; run's bad
#   input (2) is caught before the build, by --dry-run on this machine.
#
# Usage, in the kernel tree (installed, the script is
# /usr/share/cgscale/kernel-bisect-step.sh; it is not on PATH):
#   step=/usr/share/cgscale/kernel-bisect-step.sh
#   vng --kconfig      # a .config that boots in virtme-ng
#   git checkout GOOD && $step --baseline BASE.json [TEST...]
#   git bisect start BAD GOOD
#   git bisect run $step BASE.json [TEST...]
# On bare metal, where each step installs the kernel and reboots, run it by
# hand after each boot, and let it mark the commit (--mark runs `git bisect
# good|bad|skip`; after a 128 it marks nothing):
#   CGS_BISECT_BUILD=: CGS_BISECT_BOOT= kernel-bisect-step.sh --mark BASE.json [TEST...]
# then build and install the commit git bisect checked out, and reboot.
#
# TEST... defaults to page_fault1. The environment:
#   CGSCALE             the cgscale binary (default: cgscale on PATH)
#   CGS_BISECT_BUILD    the command that builds the kernel here (default:
#                       make olddefconfig && make -j$(nproc); 'vng --kconfig'
#                       writes a .config that boots in virtme-ng)
#   CGS_BISECT_BOOT     the command that boots the kernel just built and runs
#                       "$CGS_BISECT_CMD" in it, exiting with its status
#                       (default: vng --run . --rwdir "$CGS_BISECT_OUT"
#                       --exec "$CGS_BISECT_CMD"); empty: run it here, on the
#                       running kernel
#   CGS_BISECT_RUN      the options of cgscale run, the same for the baseline
#                       and every step (default: -r 5)
#   CGS_BISECT_COMPARE  the options of cgscale compare (default: --metrics
#                       per_task_ops: bisect on the primary metric)
#   CGS_BISECT_OUT      where each commit's result, build log and comparison
#                       go (default: cgscale-bisect/ in the tree's git directory)
set -u
me=kernel-bisect-step

say() { echo "$me: $*" >&2; }
abort() { say "$*"; exit 128; }
# q WORD: WORD quoted for sh
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
# verdict CODE WORD WHY: say it, mark it with --mark, exit CODE
verdict() {
	say "$commit: $2 ($3)"
	if [ "$mark" = 1 ]; then
		git bisect "$2" >&2 || abort "git bisect $2 failed"
	fi
	exit "$1"
}

baseline=0 mark=0
while [ $# -gt 0 ]; do
	case $1 in
	--baseline) baseline=1 ;;
	--mark) mark=1 ;;
	-h | --help) sed -n '3,/^set -u$/{/^set -u$/d;s/^# \{0,1\}//;p;}' "$0"; exit 0 ;;
	--) shift; break ;;
	-*) abort "unknown option '$1'; see --help" ;;
	*) break ;;
	esac
	shift
done
[ $# -ge 1 ] || abort "give the baseline result: $me [--baseline|--mark] BASE.json [TEST...]"
base=$1
shift
[ $# -ge 1 ] || set -- page_fault1
tests=
for t in "$@"; do tests="$tests $(q "$t")"; done
cgs=${CGSCALE:-cgscale}
command -v "$cgs" >/dev/null 2>&1 || abort "no cgscale binary '$cgs'; install cgscale or set CGSCALE"
cgs=$(command -v "$cgs")
run_opts=${CGS_BISECT_RUN:--r 5}
cmp_opts=${CGS_BISECT_COMPARE:---metrics per_task_ops}
if [ "${CGS_BISECT_BUILD+set}" = set ]; then
	build=$CGS_BISECT_BUILD
else
	build='make olddefconfig && make -j"$(nproc)"'
fi
if [ "${CGS_BISECT_BOOT+set}" = set ]; then
	boot=$CGS_BISECT_BOOT
else
	boot='vng --run . --rwdir "$CGS_BISECT_OUT" --exec "$CGS_BISECT_CMD"'
	command -v vng >/dev/null 2>&1 ||
		abort "virtme-ng (vng) is missing: install it, or set CGS_BISECT_BOOT (empty: run on this kernel)"
fi
commit=$(git rev-parse --short HEAD 2>/dev/null) || commit=current
out_dir=${CGS_BISECT_OUT:-$(git rev-parse --absolute-git-dir 2>/dev/null || pwd)/cgscale-bisect}
mkdir -p "$out_dir" || abort "cannot make $out_dir"
out_dir=$(cd "$out_dir" && pwd)

# What would fail on every commit fails here, before anything is built.
if [ "$baseline" = 0 ]; then
	"$cgs" show "$base" >/dev/null 2>"$out_dir/check.err" ||
		abort "the baseline cannot be read: $(tail -n 1 "$out_dir/check.err"); measure it with --baseline"
fi
# shellcheck disable=SC2086 # the options are words
eval "\"\$cgs\" run --dry-run $run_opts $tests" >/dev/null 2>"$out_dir/check.err" ||
	abort "cgscale run $run_opts $*: $(tail -n 1 "$out_dir/check.err")"

# The result is written under $out_dir, which the boot can write
# (vng's --rwdir; its root is copy-on-write): the baseline is copied to
# the path given once it is there.
if [ "$baseline" = 1 ]; then
	keep=$base
	case $keep in /*) ;; *) keep=$(pwd)/$keep ;; esac
	result=$out_dir/baseline-$commit.json
else
	result=$out_dir/$commit.json
fi
rm -f "$result"
# The kernel this commit builds, to check that the boot ran it: a boot
# loader that fell back, or a kernel not installed, must not give this
# commit the old kernel's verdict.
built_release=$(cat include/config/kernel.release 2>/dev/null)
built_version() {
	sed -n 's/^#define UTS_VERSION "\(.*\)"$/\1/p' include/generated/compile.h 2>/dev/null
}
log=$out_dir/$commit.log
if [ -n "$build" ]; then
	say "$commit: building ($build), log in $log"
	sh -c "$build" >"$log" 2>&1 || {
		[ "$baseline" = 1 ] && { say "the good kernel does not build; see $log"; exit 1; }
		verdict 125 skip "the build failed; see $log"
	}
fi
CGS_BISECT_CMD="$(q "$cgs") run -q $run_opts -o $(q "$result")$tests"
CGS_BISECT_OUT=$out_dir
export CGS_BISECT_CMD CGS_BISECT_OUT
say "$commit: ${boot:+booting ($boot) and }running $CGS_BISECT_CMD"
sh -c "${boot:-$CGS_BISECT_CMD}" >>"$log" 2>&1
st=$?
case $st in
0) ;;
130 | 143) abort "cgscale run was interrupted (exit $st)" ;;
*) [ "$baseline" = 1 ] && { say "the good kernel did not measure (exit $st); see $log"; exit 1; }
   verdict 125 skip "the kernel did not boot or measure: exit $st; see $log" ;;
esac
if [ ! -s "$result" ]; then
	[ "$baseline" = 1 ] && { say "no result in $result; see $log"; exit 1; }
	verdict 125 skip "no result in $result; see $log"
fi
# (the result's kernel.release, and its kernel.version: the one that
# starts with '#'; read with sed, since jq may not be on the box)
ran_release=$(sed -n 's/.*"release": *"\([^"]*\)".*/\1/p' "$result" | head -n 1)
ran_version=$(sed -n 's/.*"version": *"\(#[^"]*\)".*/\1/p' "$result" | head -n 1)
built_release=$(cat include/config/kernel.release 2>/dev/null || echo "$built_release")
bv=$(built_version)
if [ -n "$built_release" ] && { [ "$ran_release" != "$built_release" ] ||
	{ [ -n "$bv" ] && [ -n "$ran_version" ] && [ "$ran_version" != "$bv" ]; }; }; then
	why="the kernel that ran is $ran_release ($ran_version), not the one built here, $built_release${bv:+ ($bv)}: the boot did not take it (not installed, or the boot loader fell back)"
	[ "$baseline" = 1 ] && { say "$why"; exit 1; }
	verdict 125 skip "$why"
elif [ -z "$built_release" ]; then
	say "$commit: cannot check which kernel ran: no include/config/kernel.release here (not a kernel tree, or not built)"
fi
if [ "$baseline" = 1 ]; then
	cp "$result" "$keep" || { say "cannot copy the baseline to $keep"; exit 1; }
	say "$commit: the baseline is $keep (the kernel that ran: $ran_release)"
	exit 0
fi

# shellcheck disable=SC2086
"$cgs" compare --fail-on-inconclusive $cmp_opts "$base" "$result" >"$out_dir/$commit.compare.txt" 2>&1
st=$?
seen=$(grep '^verdicts:' "$out_dir/$commit.compare.txt")
case $st in
0) verdict 0 good "no REGRESSION; $seen" ;;
1) verdict 1 bad "a REGRESSION; $seen" ;;
4) verdict 125 skip "compare cannot decide; $seen" ;;
2 | 3) verdict 125 skip "compare cannot use this result (exit $st): $(tail -n 1 "$out_dir/$commit.compare.txt")" ;;
*) abort "cgscale compare failed (exit $st): $(tail -n 1 "$out_dir/$commit.compare.txt")" ;;
esac
