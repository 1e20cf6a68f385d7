#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -r auto: the runs stop at the target when it is easy (T = 5000%, reached even on a loaded box: four
# clean runs, the fewest for which compare's rank interval exists, and as
# many more as foreign load disturbed), at --max-runs when it cannot be reached (T = 0.0001%), and the
# target, the stop reason and each point's figures are in the result.
# Every ok point carries its disturbed marking, and a run stopped for
# 1.5 s (a late sampler, as on a starved machine) is marked disturbed,
# listed by run's notes and by show, and left out by compare. Bad input
# exits 2 before anything is written.
. "$(dirname "$0")/lib.sh"

common="-q -m process -t 1 -w 0 -d 0.3 -i 0.1"
"$CGSCALE" run $common -r auto -T 5000 -o easy.json page_fault3 >/dev/null 2>err.txt \
	|| fail "run failed: $(cat err.txt)"
jq_check easy.json '.options.runs_auto.stop_reason == "every point reached the target"' \
	"stops at the target: $(jq -c .options.runs_auto easy.json)"
# four clean runs; a run that foreign load disturbed does not count, so
# the runs made are four and the disturbed ones, each in the file
nd=$(jq '[.points[] | select(.disturbed | length > 0)] | length' easy.json)
jq_check easy.json ".options.runs_auto.points[0].clean_runs == 4 and .options.runs_auto.runs_done == 4 + $nd
	and (.points | length) == 4 + $nd" "four clean runs ($nd disturbed): $(jq -c .options.runs_auto easy.json)"
jq_check easy.json '.options.runs_auto.target_half_width_pct == 2500' "target T/2 recorded"
jq_check easy.json '.options.runs_auto.points[0].reached == true' "point reached"
grep -q "stopped after $((4 + nd)) runs: every point reached the target" err.txt \
	|| fail "no stop line: $(cat err.txt)"
jq_check easy.json '[.points[] | .disturbed | type == "array"] | all' "points carry the marking"

"$CGSCALE" run $common -r auto -T 0.0001 --max-runs 4 -o hard.json page_fault3 >/dev/null 2>err.txt \
	|| fail "run failed: $(cat err.txt)"
jq_check hard.json '.options.runs_auto.stop_reason == "--max-runs reached"' "stops at --max-runs"
jq_check hard.json '(.points | length) == 4 and .options.runs_auto.points[0].reached == false' \
	"four runs, target not reached"
grep -q "not reached: half-width .*; \(about [0-9]* clean runs would reach it\|no practical run count reaches it\)" err.txt \
	|| fail "no runs-needed line: $(cat err.txt)"

# a disturbed run: the runner stopped for 1.5 s in run 1's measurement
"$CGSCALE" run -q -m process -t 1 -w 0 -d 5 -i 0.25 -r 2 -o dist.json page_fault1 \
	>out.txt 2>err.txt &
pid=$!
sleep 2
kill -STOP $pid
sleep 1.5
kill -CONT $pid
wait $pid || fail "run failed: $(cat err.txt)"
jq_check dist.json '[.points[] | select(.disturbed | length > 0)] | length >= 1' \
	"a run marked disturbed: $(jq -c '[.points[].disturbed]' dist.json)"
jq_check dist.json '[.points[].disturbed[] | select(test("sampler late"))] | length >= 1' \
	"the reason is the late sampler"
grep -q "runs disturbed (compare leaves them out)" out.txt || fail "run's notes: $(cat out.txt)"
"$CGSCALE" show dist.json >show.txt || fail "show failed"
grep -q "disturbed, left out" show.txt || fail "show does not list it: $(cat show.txt)"
grep -q "is disturbed, left out.*sampler late" show.txt || fail "show gives no reason"
# The stopped run is disturbed; on a busy machine its sibling may be too
# (foreign load): compare must count what the file says, either way.
nd=$(jq '[.points[] | select(.disturbed | length > 0)] | length' dist.json)
"$CGSCALE" compare dist.json dist.json >cmp.txt
grep -q "disturbed A $nd of 2 ok runs" cmp.txt || fail "compare ($nd disturbed): $(cat cmp.txt)"
grep -q "INCONCLUSIVE (only $((2 - nd)) clean runs on A ($nd disturbed" cmp.txt ||
	fail "verdict ($nd disturbed): $(cat cmp.txt)"
"$CGSCALE" compare --keep-disturbed dist.json dist.json >keep.txt
grep -q "disturbed A" keep.txt && fail "--keep-disturbed still leaves runs out"

for bad in "-r auto --max-runs 2" "-r auto -T 0" "-r auto -T -1" "-r 0" "-r many"; do
	# shellcheck disable=SC2086
	"$CGSCALE" run $common $bad -o bad.json page_fault3 2>err.txt
	rc=$?
	[ $rc -eq 2 ] || fail "'$bad': exit $rc, want 2"
	[ "$(wc -l <err.txt)" -eq 1 ] || fail "'$bad': not one line: $(cat err.txt)"
	[ -e bad.json ] && fail "'$bad' wrote a file"
done
exit 0
