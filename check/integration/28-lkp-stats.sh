#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# export --format lkp-stats keeps apart what a job exists to contrast
# (issue 39, items 6-8), checked against the result file itself:
#   - points of two cgroup layouts (depth 0 and 1) get one set of keys a
#     layout, led by the layout ("depth-0.2.processes"), each the mean of
#     its own layout's runs; no key mixes them;
#   - with both modes, scalability is process mode's (LKP's will-it-scale
#     parse reads that column) and thread.scalability thread mode's;
#   - a disturbed run is left out of the means, as compare leaves it out
#     (disturbed_runs counts it); --keep-disturbed keeps it;
#   - compare --format lkp (item 10) prints no row of zeros as -100%, and
#     names thread mode's scalability as the stats do.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "no jq"
"$CGSCALE" run -q -t 1,2 -m both -r 2 -w 0 -d 0.3 -i 0.1 --cgroup-depth 0,1 -o r.json page_fault1 \
	>/dev/null 2>err.txt || fail "run: $(cat err.txt)"
# no run disturbed, then the first depth-0 process 2-task run marked so
jq '.points |= map(.disturbed = [])' r.json >clean.json
jq '(.points | map(.cgroup.layout == "depth=0" and .mode == "process" and .tasks == 2) | index(true)) as $i
    | .points[$i].disturbed = ["steal 5.0% (above 1%)"]' clean.json >dist.json
"$CGSCALE" export -f lkp-stats clean.json >clean.lkp 2>err.txt || fail "export: $(cat err.txt)"

# KEY FILE: its value
val() { sed -n "s/^$1: //p" "$2"; }
# LAYOUT MODE TASKS FIELD FILE [all]: the mean of FIELD over the ok runs (undisturbed unless all)
mean() {
	jq --arg l "$1" --arg m "$2" --argjson t "$3" --arg f "$4" --arg all "${6:-}" '[.points[]
		| select(.status == "ok" and .cgroup.layout == $l and .mode == $m and .tasks == $t)
		| select($all == "all" or (.disturbed | length) == 0) | .summary[$f]] | add / length' "$5"
}
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; exit !(a != "" && d <= t && d >= -t) }'; }

for l in "depth=0" "depth=1 leaf=shared"; do
	k=$(echo "$l" | sed 's/=/-/g; s/ /_/g')
	for m in process:processes thread:threads; do
		got=$(val "$k.2.${m#*:}" clean.lkp)
		want=$(mean "$l" "${m%:*}" 2 total_ops_per_sec clean.json)
		near "$got" "$want" 1 || fail "$k.2.${m#*:} is '$got', the runs of $l say $want: $(grep "2.${m#*:}" clean.lkp)"
	done
	got=$(val "$k.thread.scalability" clean.lkp)
	want=$(mean "$l" thread 2 scalability clean.json)
	near "$got" "$want" 0.00001 || fail "$k.thread.scalability is '$got', thread mode's is $want"
	got=$(val "$k.scalability" clean.lkp)
	want=$(mean "$l" process 2 scalability clean.json)
	near "$got" "$want" 0.00001 || fail "$k.scalability is '$got', process mode's is $want"
done
grep -q '^[0-9]*\.processes:' clean.lkp && fail "a key mixes the layouts: $(grep '^[0-9]*\.processes:' clean.lkp)"

# the disturbed run: out of the mean by default, in it with --keep-disturbed
"$CGSCALE" export -f lkp-stats dist.json >dist.lkp 2>err.txt || fail "export: $(cat err.txt)"
"$CGSCALE" export -f lkp-stats --keep-disturbed dist.json >keep.lkp 2>err.txt || fail "export: $(cat err.txt)"
[ "$(val depth-0.disturbed_runs dist.lkp)" = 1 ] || fail "disturbed_runs: $(grep disturbed dist.lkp)"
got=$(val depth-0.2.processes dist.lkp)
want=$(mean depth=0 process 2 total_ops_per_sec dist.json)
near "$got" "$want" 1 || fail "depth-0.2.processes '$got' is not the undisturbed run's $want"
got=$(val depth-0.2.processes keep.lkp)
want=$(mean depth=0 process 2 total_ops_per_sec dist.json all)
near "$got" "$want" 1 || fail "--keep-disturbed: depth-0.2.processes '$got', both runs say $want"
# every run disturbed (a busy box): no means, disturbed_runs says why, exit 0
jq '.points |= map(.disturbed = ["steal 5.0% (above 1%)"])' clean.json >all.json
"$CGSCALE" export -f lkp-stats all.json >all.lkp 2>err.txt || fail "all runs disturbed: exit $?: $(cat err.txt)"
grep -q 'processes:' all.lkp && fail "all runs disturbed, yet means: $(grep processes: all.lkp | head -n 2)"
[ "$(val depth-0.disturbed_runs all.lkp)" = 8 ] || fail "all runs disturbed: $(cat all.lkp)"
"$CGSCALE" export -f csv --keep-disturbed dist.json >out.txt 2>err.txt
[ $? = 2 ] && [ ! -s out.txt ] || fail "--keep-disturbed with -f csv was not refused: $(cat err.txt)"
# compare --format lkp (item 10): a file against itself has no row of
# zeros read as -100%, says how many keys it left out, and thread mode's
# scalability is thread.scalability, as in the stats
"$CGSCALE" compare -f lkp --keep-disturbed clean.json clean.json >cmp.txt 2>err.txt
[ $? -le 1 ] || fail "compare -f lkp: $(cat err.txt)"
grep -q -- '-100.0%' cmp.txt && fail "compare -f lkp of a file against itself: $(grep -m 3 -- '-100.0%' cmp.txt)"
grep -q 'more keys are 0 in every run of every side' cmp.txt || fail "compare -f lkp does not count the keys of zeros"
grep -q 'cgscale\.thread\.scalability$' cmp.txt || fail "no cgscale.thread.scalability row: $(grep scalability cmp.txt)"
echo "ok: $(grep -c . clean.lkp) keys, two layouts apart, thread.scalability, the disturbed run left out"
exit 0
