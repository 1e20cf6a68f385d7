#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 60-compare-real.sh - the runner writes, compare reads: a real page_fault3
# run of 3 repetitions compared with itself (A/A) exits 0, INCONCLUSIVE
# (3 a side cannot decide at 0.05: 'needs 4 runs a side'),
# and every per-run figure compare reports is the one in the file (round
# trip). show, export --tsv, every --format and --junit work on it.
# Exit 0 pass, 1 fail, 77 skip.
set -e
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "jq missing"
tmp=$T

"$CGSCALE" run -q -t 1 -m process -r 3 -w 0.1 -d 0.3 -i 0.1 page_fault3 \
	-o "$tmp/a.json" >/dev/null 2>"$tmp/run.err" || fail "run: $(cat "$tmp/run.err")"
[ "$(jq '[.points[] | select(.status == "ok")] | length' "$tmp/a.json")" = 3 ] ||
	skip "page_fault3 did not run here"

# A/A: a file against itself; this VM is too noisy to expect NO_CHANGE,
# but never a REGRESSION, so exit 0
"$CGSCALE" compare "$tmp/a.json" "$tmp/a.json" >"$tmp/aa.txt" || fail "A/A exit $?"
grep -q "REGRESSION (" "$tmp/aa.txt" && fail "A/A reports a REGRESSION"

# round trip: compare's per-run values are the file's per-task ops/s
# (on a loaded machine a run may be marked disturbed: keep them all here)
"$CGSCALE" compare --keep-disturbed -f json "$tmp/a.json" "$tmp/a.json" >"$tmp/aa.json" ||
	fail "json exit $?"
jq -e --slurpfile f "$tmp/a.json" '
	.points[0].sides.A.metrics.per_task_ops as $m |
	($f[0].points | map(.summary.per_task_ops_per_sec)) as $v |
	($m.values | length) == 3 and
	([$m.values, $v] | transpose | all(((.[0] - .[1]) | fabs) <= 1e-9 * .[1])) and
	((($m.mean - ($v | add / length)) | fabs) <= 1e-9 * $m.mean) and
	$m.min == ($v | min) and $m.max == ($v | max)' "$tmp/aa.json" >/dev/null ||
	fail "compare's figures differ from the file's"
# 3 runs a side: no 95% rank interval exists and no p can be below 0.05,
# so there is no CI and the verdict says how many runs a decision needs
jq -e '.points[0].comparisons[0] | .change_pct == 0 and .ci_low_pct == null
	and .ci_high_pct == null and .p == 1 and .verdict == "INCONCLUSIVE"
	and (.why | test("needs 4 runs a side"))' "$tmp/aa.json" >/dev/null ||
	fail "A/A of 3 runs: not 'needs 4 runs a side': $(jq -c '.points[0].comparisons[0]' "$tmp/aa.json")"
[ "$(jq .exit_status "$tmp/aa.json")" = 0 ] || fail "json exit_status"
grep -q "summary disagrees" "$tmp/aa.json" && fail "the summary in the file disagrees with its samples"

# a directory side: all files in it are one side
mkdir "$tmp/dir"
cp "$tmp/a.json" "$tmp/dir/one.json"
"$CGSCALE" compare "$tmp/dir" "$tmp/a.json" >/dev/null || fail "directory side exit $?"

for f in text lkp mmtests markdown json; do
	"$CGSCALE" compare -f "$f" --junit "$tmp/j.xml" "$tmp/a.json" "$tmp/a.json" \
		>"$tmp/out.$f" || fail "--format $f exit $?"
	[ -s "$tmp/out.$f" ] || fail "--format $f printed nothing"
done
grep -q "%stddev" "$tmp/out.lkp" || fail "lkp format lacks its header"
grep -q "^Hmean " "$tmp/out.mmtests" || fail "mmtests format lacks Hmean"
# mmtests: two decimals throughout, '-' for what one run cannot give, no nan
jq '.points |= map(select(.run == 0))' "$tmp/a.json" >"$tmp/one.json"
"$CGSCALE" compare --keep-disturbed -f mmtests "$tmp/one.json" "$tmp/a.json" >"$tmp/mm1.txt" || fail "mmtests one-run exit $?"
grep -qi nan "$tmp/mm1.txt" && fail "mmtests prints nan: $(grep -i nan "$tmp/mm1.txt")"
rows=$(grep -E '^(Min|Hmean|HStddev|HCoeffVar|Max) ' "$tmp/mm1.txt")
[ -n "$rows" ] || fail "mmtests: no Min/Hmean/HStddev/HCoeffVar/Max rows"
printf '%s\n' "$rows" | grep -E '[0-9]\.([0-9]|[0-9]{3,})([^0-9]|$)' &&
	fail "mmtests: a value without exactly two decimals"
printf '%s\n' "$rows" | grep -E '^HStddev +process-1[^ ]* +- ' >/dev/null ||
	fail "mmtests: the one-run side's stddev is not '-': $(grep HStddev "$tmp/mm1.txt")"
grep -q "^| page_fault3" "$tmp/out.markdown" || fail "markdown lacks a row"
grep -q "<testcase" "$tmp/j.xml" || fail "junit has no test case"
if command -v xmllint >/dev/null; then
	xmllint --noout "$tmp/j.xml" || fail "junit is not well-formed XML"
fi

"$CGSCALE" show --keep-disturbed "$tmp/a.json" >"$tmp/show.txt" || fail "show exit $?"
grep -q "page_fault3 process tasks=1" "$tmp/show.txt" || fail "show lacks the point"
grep -q "3/3" "$tmp/show.txt" || fail "show does not count 3 ok runs"
mean=$(jq '[.points[].summary.per_task_ops_per_sec] | add / length | round' "$tmp/a.json")
grep "page_fault3 process tasks=1" "$tmp/show.txt" | grep -qw "$mean" ||
	fail "show does not print the mean per_task_ops $mean: $(cat "$tmp/show.txt")"

"$CGSCALE" export --tsv "$tmp/a.json" >"$tmp/a.tsv" || fail "export exit $?"
head -1 "$tmp/a.tsv" | grep -q "^file	test	mode	tasks	cgroup	options	run	status	scope	task	interval	phase	t_s	metric	unit	value	disturbed$" ||
	fail "export header: $(head -1 "$tmp/a.tsv")"
# per interval: each task's rate (scope task) and the sum (scope point)
nint=$(jq '[.points[].samples.t_ns | length - 1] | add' "$tmp/a.json")
got=$(awk -F'\t' 'NR > 1 && $11 != "NA" && $14 == "ops_per_sec"' "$tmp/a.tsv" | wc -l)
[ "$got" = $((nint * 2)) ] || fail "export has $got interval rows, want $((nint * 2))"
awk -F'\t' '$14 == "per_task_ops" { print $7, $16 }' "$tmp/a.tsv" >"$tmp/pt.txt"
jq -r '.points[] | "\(.run) \(.summary.per_task_ops_per_sec)"' "$tmp/a.json" |
	paste -d' ' - "$tmp/pt.txt" |
	awk '{ d = $2 - $4; if (NF != 4 || $1 != $3 || d > 1e-6 * $2 || -d > 1e-6 * $2) exit 1 }' ||
	fail "export's per_task_ops differ from the file: $(cat "$tmp/pt.txt")"
awk -F'\t' 'NF != 17 { exit 1 }' "$tmp/a.tsv" || fail "export rows are not 17 columns"
echo "PASS: A/A exit 0, round trip, formats, show, export"
