#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 88-kernel-bisect.sh - scripts/kernel-bisect-step.sh, the step of a kernel
# bisection, maps what happens to a commit onto git bisect run's codes:
# a stub "kernel build" (CGS_BISECT_BUILD), a stub "boot" that runs the
# measurement here (CGS_BISECT_BOOT) and a stub `cgscale run` that hands
# out a prepared result, compared by the real cgscale compare. Good,
# improved and bad results, undecided ones, unreadable and incomparable
# ones, a failed build, boot or point, an interrupt, a missing baseline,
# bad run options (caught before the build), --baseline, --mark, and a
# whole `git bisect run` over a stub tree that finds the commit that
# slowed it down, past one that does not build. No timing: the results
# are made with fixed per-interval counts from one real short run.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "jq is missing (Debian package jq)"
command -v git >/dev/null || skip "git is missing (Debian package git)"
step=$REPO/scripts/kernel-bisect-step.sh
[ -x "$step" ] || fail "$step is missing or not executable"

# One real short run, its counts then fixed: 10000 ops an interval, +k in run k.
"$CGSCALE" run -q -t 1 -m process -r 4 -w 0 -d 0.2 -i 0.1 --cgroup-depth 0 \
	-o run.json page_fault1 >run.log 2>&1 || fail "cgscale run failed: $(tail -n 3 run.log)"
jq '.points |= (to_entries | map(.key as $k | .value
	| .samples.t_ns = [0, 100000000, 200000000]
	| .samples.ops = [[0, 10000 + $k, 10000 + $k]]
	| .samples.idle_pct = [null, 0, 0] | .samples.steal_pct = [null, 0, 0]
	| .samples.iowait_pct = [null, 0, 0] | .status = "ok" | .disturbed = []))' run.json >base.json ||
	fail "jq could not fix the counts"
cp base.json same.json
jq '.points[].samples.ops |= map(map(. * 3 / 4 | floor))' base.json >slow.json
jq '.points[].samples.ops |= map(map(. * 5 / 4 | floor))' base.json >fast.json
jq '.points[0].samples.ops |= map(map(. * 3))' base.json >noisy.json
jq '.machine.cpu_model = "Another CPU"' base.json >othercpu.json
head -c 500 base.json >truncated.json

# cgscale with a stub run: it copies $FAKE_RESULT (or, in a tree with a
# file "speed", speed's word .json) to its -o and exits $FAKE_RUN_RC; a
# --dry-run and every other command are the real binary's.
cat >fakecgs <<EOF
#!/bin/sh
if [ "\$1" = run ] && ! printf '%s\n' "\$@" | grep -qx -- --dry-run; then
	echo "\$*" >>"$T/runs.log"
	while [ \$# -gt 0 ]; do [ "\$1" = -o ] && out=\$2; shift; done
	res=\${FAKE_RESULT:-}
	[ -f speed ] && res=$T/\$(cat speed).json
	[ -n "\$res" ] && [ -f "\$res" ] && cp "\$res" "\$out"
	exit \${FAKE_RUN_RC:-0}
fi
exec "$CGSCALE" "\$@"
EOF
chmod +x fakecgs
CGSCALE=$T/fakecgs
CGS_BISECT_BUILD='touch built'
CGS_BISECT_BOOT='echo booted >>booted; sh -c "$CGS_BISECT_CMD"'
CGS_BISECT_RUN='-r 4 -w 0 -d 0.2 -i 0.1 --cgroup-depth 0 -t 1 -m process'
CGS_BISECT_OUT=$T/out
export CGSCALE CGS_BISECT_BUILD CGS_BISECT_BOOT CGS_BISECT_RUN CGS_BISECT_OUT

# a one-commit "kernel tree"
git init -q tree && cd tree || fail "git init failed"
echo v1 >Makefile
git add Makefile && git -c user.name=t -c user.email=t@example.org commit -qm v1 || fail "git commit failed"

# want CODE WHAT ENV...: the step, with ENV, exits CODE
want() {
	code=$1 what=$2
	shift 2
	rm -f built booted
	env "$@" "$step" "$T/base.json" page_fault1 >"$T/step.out" 2>"$T/step.err"
	st=$?
	[ "$st" = "$code" ] || fail "$what: exit $st, want $code: $(cat "$T/step.err")"
	echo "ok: $what: $code ($(tail -n 1 "$T/step.err"))"
}
want 0 "the same speed is good" FAKE_RESULT="$T/same.json"
[ -f built ] && [ -f booted ] || fail "the step did not build and boot"
grep -q -- "-r 4 -w 0 -d 0.2 -i 0.1 --cgroup-depth 0 -t 1 -m process -o $T/out/" "$T/runs.log" ||
	fail "the boot did not run the measurement with CGS_BISECT_RUN: $(tail -n 1 "$T/runs.log")"
grep -q "good (no REGRESSION; verdicts: NO_CHANGE 1" "$T/step.err" || fail "the step does not say why: $(cat "$T/step.err")"
want 0 "faster is good" FAKE_RESULT="$T/fast.json"
want 1 "a REGRESSION is bad" FAKE_RESULT="$T/slow.json"
want 125 "NOISY is skip" FAKE_RESULT="$T/noisy.json"
want 125 "an unreadable result is skip" FAKE_RESULT="$T/truncated.json"
want 125 "an incomparable result is skip" FAKE_RESULT="$T/othercpu.json"
want 125 "no result is skip" FAKE_RESULT=
want 125 "a failed point is skip" FAKE_RESULT="$T/same.json" FAKE_RUN_RC=1
want 128 "an interrupt aborts" FAKE_RESULT="$T/same.json" FAKE_RUN_RC=130
want 125 "a build failure is skip" FAKE_RESULT="$T/same.json" CGS_BISECT_BUILD='exit 2'
[ -f booted ] && fail "a kernel that did not build was booted"
want 125 "a kernel that does not boot is skip" FAKE_RESULT="$T/same.json" CGS_BISECT_BOOT='exit 1'
want 0 "an empty CGS_BISECT_BOOT runs on this kernel" FAKE_RESULT="$T/same.json" CGS_BISECT_BOOT=
[ -f booted ] && fail "CGS_BISECT_BOOT= booted all the same"
want 128 "bad run options abort, before the build" FAKE_RESULT="$T/same.json" CGS_BISECT_RUN=--nosuch
[ -f built ] && fail "the step built a kernel with run options that cannot work"
grep -q "nosuch" "$T/step.err" || fail "the abort does not name the option: $(cat "$T/step.err")"
want 128 "no cgscale aborts" CGSCALE=/nonexistent/cgscale
if command -v vng >/dev/null; then
	echo "note: vng is installed here: the default boot is not tried"
else
	want 128 "the default boot without vng aborts" -u CGS_BISECT_BOOT FAKE_RESULT="$T/same.json"
fi
# the kernel that ran must be the one this tree built (issue 39): a boot
# loader that fell back to another kernel gives no verdict for the commit
rel=$(jq -r .kernel.release "$T/same.json")
mkdir -p include/config include/generated
echo "9.9.9-not-$rel" >include/config/kernel.release
want 125 "a kernel that is not the one built is skip" FAKE_RESULT="$T/same.json"
grep -q "the kernel that ran is $rel .*not the one built here, 9.9.9-not-$rel" "$T/step.err" ||
	fail "the skip does not name both kernels: $(cat "$T/step.err")"
echo "$rel" >include/config/kernel.release
ver=$(jq -r .kernel.version "$T/same.json")
printf '#define UTS_VERSION "#99 SMP another build"\n' >include/generated/compile.h
want 125 "the same release of another build is skip" FAKE_RESULT="$T/same.json"
printf '#define UTS_VERSION "%s"\n' "$ver" >include/generated/compile.h
want 0 "the kernel built, as it ran, is judged" FAKE_RESULT="$T/same.json"
echo "9.9.9-not-$rel" >include/config/kernel.release
FAKE_RESULT=$T/same.json "$step" --baseline "$T/wrong-base.json" page_fault1 >/dev/null 2>"$T/step.err"
[ $? = 1 ] && [ ! -e "$T/wrong-base.json" ] || fail "a baseline from another kernel was kept: $(cat "$T/step.err")"
rm -r include
# no baseline: abort
rm -f built
"$step" "$T/nosuch.json" >/dev/null 2>"$T/step.err"
[ $? = 128 ] || fail "a missing baseline does not abort: $(cat "$T/step.err")"
[ -f built ] && fail "the step built a kernel without a baseline"
# --baseline writes the baseline from this kernel
FAKE_RESULT=$T/same.json "$step" --baseline "$T/new-base.json" page_fault1 >/dev/null 2>"$T/step.err" ||
	fail "--baseline failed: $(cat "$T/step.err")"
cmp -s "$T/new-base.json" "$T/same.json" || fail "--baseline did not write the result to the baseline"
# measured under the output folder (which a VM boot can write: vng's
# --rwdir), then copied to the path given
grep -q -- "-o $T/out/baseline-" "$T/runs.log" || fail "--baseline did not measure under CGS_BISECT_OUT: $(tail -n 1 "$T/runs.log")"
echo "ok: --baseline writes the baseline"

# --mark, as on bare metal: the step marks the commit itself
cd "$T" && git init -q marks && cd marks || fail "git init failed"
for i in 1 2 3; do
	echo "$i" >Makefile
	git add Makefile && git -c user.name=t -c user.email=t@example.org commit -qm "c$i"
done
git bisect start HEAD HEAD~2 >/dev/null 2>&1 || fail "git bisect start failed"
FAKE_RESULT=$T/slow.json CGS_BISECT_BUILD=: CGS_BISECT_BOOT= "$step" --mark "$T/base.json" >/dev/null 2>"$T/step.err"
[ $? = 1 ] || fail "--mark with a REGRESSION: $(cat "$T/step.err")"
git bisect log | grep -q "^git bisect bad" || fail "--mark did not mark the commit bad: $(git bisect log)"
git bisect reset >/dev/null 2>&1
echo "ok: --mark marks the commit"

# A whole bisection: c5 slows it down, c3 does not build (c4 builds again).
cd "$T" && git init -q kernel && cd kernel || fail "git init failed"
for i in 1 2 3 4 5 6 7 8; do
	echo "$i" >Makefile
	if [ "$i" -ge 5 ]; then echo slow >speed; else echo same >speed; fi
	if [ "$i" = 3 ]; then echo >broken; else rm -f broken; fi
	git add -A && git -c user.name=t -c user.email=t@example.org commit -qm "c$i"
done
bad=$(git log --format=%H --grep='^c5$')
git bisect start HEAD HEAD~7 >/dev/null 2>&1 || fail "git bisect start failed"
CGS_BISECT_BUILD='! test -e broken' git bisect run "$step" "$T/base.json" page_fault1 >bisect.out 2>&1 ||
	fail "git bisect run failed: $(tail -n 20 bisect.out)"
grep -q "^$bad is the first bad commit" bisect.out ||
	fail "git bisect run did not find c5 ($bad): $(grep -i 'first bad\|skip' bisect.out | head -n 5)"
steps=$(grep -c "^kernel-bisect-step: [0-9a-f]*: \(good\|bad\|skip\) " bisect.out)
git bisect reset >/dev/null 2>&1
echo "ok: git bisect run found the commit that slowed it down, in $steps steps"
