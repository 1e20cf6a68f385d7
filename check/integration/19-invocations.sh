#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# run --invocations K: K fresh processes, one file each in the -o
# directory, each recording its own invocation id, index and the series;
# compare groups the runs by invocation and judges the invocation means
# when a side has several (3 against 2: "needs 4 invocations a side"), and says the between-invocation variance is
# unknown when each side is one. SIGTERM stops the series after the
# running invocation. --pf3-spin NS slows each op by NS (recorded in the
# point's options only when on), and compare --axis workload compares it
# with the plain run. Every invocation runs the binary the user started,
# even when its file is replaced mid-series. Bad input exits 2 before
# anything is written.
. "$(dirname "$0")/lib.sh"

common="-q -m process -t 1 -w 0 -d 0.3 -i 0.1 -r 3"
mkdir A B
"$CGSCALE" run $common --invocations 3 -o A page_fault3 >out.txt 2>err.txt \
	|| fail "run failed: $(cat err.txt)"
[ "$(ls A | wc -l)" = 3 ] || fail "3 files expected in A: $(ls A)"
grep -q "invocation 3 of 3" err.txt || fail "no progress: $(cat err.txt)"
grep -q "the files of 3 of 3 invocations" err.txt || fail "no closing count: $(cat err.txt)"
jq -s -e '[.[].invocation.id] | unique | length == 3' A/*.json >/dev/null \
	|| fail "the ids are not distinct: $(jq -c .invocation A/*.json)"
jq -s -e '[.[].invocation.series] | unique | length == 1' A/*.json >/dev/null \
	|| fail "not one series"
jq -s -e '[.[].invocation.index] | sort == [1,2,3]' A/*.json >/dev/null \
	|| fail "indexes: $(jq -c .invocation A/*.json)"
jq -s -e '[.[].invocation.of] | unique == [3]' A/*.json >/dev/null || fail "of"
# the recipe: run twice into one directory
"$CGSCALE" run $common -o B page_fault3 >/dev/null 2>&1 || fail "run B1"
"$CGSCALE" run $common -o B/second.json page_fault3 >/dev/null 2>&1 || fail "run B2"
jq -e '.invocation.index == 1 and .invocation.of == 1' B/second.json >/dev/null \
	|| fail "a plain run is invocation 1 of 1: $(jq -c .invocation B/second.json)"

"$CGSCALE" compare --keep-disturbed --metrics per_task_ops A B >cmp.txt
[ $? -le 1 ] || fail "compare failed: $(cat cmp.txt)"
grep -q "invocations: A 3 invocations.*; B 2 invocations.*p on the invocation means, CI by the Hodges-Lehmann rank CI" cmp.txt \
	|| fail "no invocation line: $(cat cmp.txt)"
"$CGSCALE" compare --keep-disturbed --format json --metrics per_task_ops A B >cmp.json
jq -e '.points[0].comparisons[0] | (.verdict == "INCONCLUSIVE") and (.why | test("needs 4 invocations a side")) and (.invocations | .two_level and .base_invocations == 3 and .new_invocations == 2 and .base_units == 3 and .new_units == 2 and .needs_units == 4 and (.base.df > 0))' \
	cmp.json >/dev/null || fail "JSON: $(jq -c '.points[0].comparisons[0].invocations' cmp.json)"
# one invocation a side: the between part is unknown, the CI one-level
a1=$(ls A/*.json | head -n 1)
"$CGSCALE" compare --keep-disturbed --metrics per_task_ops "$a1" B/second.json >one.txt
grep -q "one invocation each: the variance between invocations (boots) is unknown" one.txt \
	|| fail "no unknown-variance line: $(cat one.txt)"
# the same file twice is one invocation, whatever its name
cp "$a1" A/copy.json.tmp && mv A/copy.json.tmp dup.json
"$CGSCALE" compare --keep-disturbed --format json --metrics per_task_ops "$a1" dup.json >dup.json.out
jq -e '.points[0].comparisons[0].invocations.two_level == false' dup.json.out >/dev/null \
	|| fail "a copy counted as another invocation"

# SIGTERM: the running invocation keeps its points, no further one starts
mkdir S
"$CGSCALE" run -q -m process -t 1 -w 0 -d 2 -i 0.5 -r 1 --invocations 3 -o S page_fault3 \
	>/dev/null 2>err.txt &
pid=$!
sleep 1
kill -TERM $pid
wait $pid
rc=$?
[ $rc = 143 ] || fail "exit $rc after SIGTERM, want 143: $(cat err.txt)"
[ "$(ls S | wc -l)" -le 1 ] || fail "another invocation started: $(ls S)"
grep -q "invocation 2 of 3" err.txt && fail "invocation 2 started: $(cat err.txt)"
grep -q "the files of 1 of 3 invocations" err.txt || fail "the count says more ran: $(cat err.txt)"

# --pf3-spin: off is not recorded, on is, and each op takes >= NS longer
"$CGSCALE" run -q -m process -t 1 -w 0 -d 0.5 -i 0.25 -r 2 -o plain.json page_fault3 \
	>/dev/null 2>&1 || fail "plain run"
"$CGSCALE" run -q -m process -t 1 -w 0 -d 0.5 -i 0.25 -r 2 --pf3-spin 20000 -o spin.json \
	page_fault3 >/dev/null 2>&1 || fail "spin run"
jq -e '[.points[].workload_options // {} | has("pf3-spin")] | any | not' plain.json >/dev/null \
	|| fail "spin 0 recorded"
jq -e '[.points[].workload_options["pf3-spin"]] | unique == [20000]' spin.json >/dev/null \
	|| fail "spin not recorded: $(jq -c '[.points[].workload_options]' spin.json)"
# 20 us per op: at most 50000 ops/s, whatever the machine
jq -e '[.points[].summary.per_task_ops_per_sec] | max <= 50000' spin.json >/dev/null \
	|| fail "spin did not slow the ops: $(jq -c '[.points[].summary.per_task_ops_per_sec]' spin.json)"
"$CGSCALE" compare plain.json spin.json >/dev/null 2>&1
[ $? = 3 ] || fail "different workload options compared without --axis workload"
"$CGSCALE" compare --keep-disturbed --axis workload --metrics per_task_ops plain.json spin.json >ax.txt
[ $? -le 1 ] || fail "compare --axis workload: $(cat ax.txt)"
grep -q "workload.options *axis *A: default | B: pf3-spin=20000" ax.txt || fail "axis row: $(cat ax.txt)"

# every invocation is the build the user started, by fd: a file put in
# its place mid-series (a make, a package upgrade) does not run
mkdir bin R
cp "$CGSCALE" bin/cgscale
cp "$(dirname "$(readlink -f "$CGSCALE")")/cgscale-tasks" bin/ 2>/dev/null
bin/cgscale run -q -m process -t 1 -w 0 -d 1 -i 0.5 -r 1 --invocations 3 -o R page_fault3 \
	>/dev/null 2>err.txt &
pid=$!
wait_until 120 grep -q "invocation 1 of 3" err.txt ||
	{ kill $pid; wait $pid; fail "no first invocation: $(cat err.txt)"; }
printf '#!/bin/sh\nexit 0\n' >bin/new
chmod 0755 bin/new
mv bin/new bin/cgscale
wait $pid || fail "the series failed once its file was replaced: $(cat err.txt)"
[ "$(ls R | wc -l)" = 3 ] || fail "3 files expected after the file was replaced, got: $(ls R)"

# bad input: exit 2, nothing written
mkdir E
for args in "--invocations 0" "--invocations 101" "--invocations 2 -r auto" \
	"--invocations 2 -o E/x.json" "--invocations" "--pf3-spin -1" \
	"--invocations 2 --csv-dir E"; do
	# shellcheck disable=SC2086
	"$CGSCALE" run -q -d 0.1 -i 0.1 -o E $args page_fault3 >/dev/null 2>err.txt
	rc=$?
	[ $rc = 2 ] || fail "'$args' exit $rc, want 2"
	[ "$(wc -l <err.txt)" = 1 ] || fail "'$args': not one line: $(cat err.txt)"
done
[ -z "$(ls E)" ] || fail "bad input wrote: $(ls E)"
exit 0
