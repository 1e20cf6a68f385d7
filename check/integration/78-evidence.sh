#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 78-evidence.sh - the evidence every point records by default, checked
# against what the kernel says elsewhere:
#   - page_fault1 (one op = one page touched = one fault): vmstat's pgfault
#     delta over the window is at least the ops counted in it (system-wide,
#     so other work only adds); --no-vmstat / --no-cputime drop the sections;
#   - fallocate2 (one op = fallocate of 8 KiB on tmpfs = 2 new pages):
#     the pgalloc_* deltas add up to at least 1.9 pages per op;
#   - page_fault1's sys_us_per_op is positive, of the order of a fault
#     (0.2 to 100 us), and within a factor of 2 of the ratio of system
#     time to minor faults that /proc/PID/stat gives for the same task,
#     polled while it runs (its whole life: set-up and warm-up included);
#   - sys_us_per_op rises with the work per op: sendfile of 256 KiB per
#     call costs at least 3 times the system time of 4 KiB per call
#     (measured here: about 10 times);
#   - compare of two real runs (2 repetitions each) lists the vmstat and
#     CPU-time metrics with a verdict.
# Exit 0 pass, 1 fail, 77 skip.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "jq missing"

run() { # OUT ARGS...: one run, fails the test when cgscale fails
	o=$1
	shift
	"$CGSCALE" run -q -m process --cgroup-depth 0 -o "$o" "$@" >/dev/null 2>err.txt ||
		fail "run $*: $(cat err.txt)"
}

# page_fault1, with /proc/PID/stat of every descendant polled meanwhile
"$CGSCALE" run -q -t 1 -m process --cgroup-depth 0 -w 0.5 -d 2 -i 0.5 \
	-o pf.json page_fault1 >/dev/null 2>err.txt &
cg=$!
: >poll.txt
kids() { cat /proc/"$1"/task/*/children 2>/dev/null; }
while kill -0 $cg 2>/dev/null; do
	for a in $(kids $cg); do
		for b in $a $(kids "$a"); do
			for c in $b $(kids "$b"); do
				# pid utime stime minflt
				awk '{ sub(/^.*\) /, ""); print p, $12, $13, $8 }' p="$c" \
					/proc/"$c"/stat 2>/dev/null >>poll.txt
			done
		done
	done
	sleep 0.1
done
wait $cg || fail "page_fault1 run: $(cat err.txt)"
p='.points[0]'
jq_check pf.json "$p.status == \"ok\"" "page_fault1 ok"
jq_check pf.json "$p.vmstat.ops == $p.summary.ops" "vmstat covers the summary's window"
jq_check pf.json "$p.vmstat.delta.pgfault >= $p.summary.ops" \
	"pgfault delta $(jq "$p.vmstat.delta.pgfault" pf.json) below the ops $(jq "$p.summary.ops" pf.json)"
jq_check pf.json "$p.vmstat.per_op.pgfault >= 1 and ($p.vmstat.per_sec.pgfault * $p.vmstat.elapsed_s - $p.vmstat.delta.pgfault | fabs) < 1" \
	"per op and per second rates agree with the delta"
jq_check pf.json "$p.cputime.sys_us_per_op > 0.2 and $p.cputime.sys_us_per_op < 100" \
	"sys_us_per_op $(jq "$p.cputime.sys_us_per_op" pf.json) is not of the order of a page fault"
jq_check pf.json "($p.cputime.sys_s + $p.cputime.user_s) > 0 and ($p.cputime.task_sys_s | add) == $p.cputime.sys_s" \
	"per-task CPU times add up"
task=$(jq "$p.tasks_detail[0].pid" pf.json)
last=$(awk -v t="$task" '$1 == t' poll.txt | tail -n 1)
[ -n "$last" ] || fail "task $task was never seen in /proc while it ran"
hz=$(getconf CLK_TCK)
proc=$(echo "$last" | awk -v hz="$hz" '$4 > 0 { printf "%.6f", $3 * 1e6 / hz / $4 }')
[ -n "$proc" ] || fail "no faults in /proc/$task/stat: $last"
ours=$(jq "$p.cputime.sys_us_per_op" pf.json)
awk -v a="$ours" -v b="$proc" 'BEGIN { exit !(a > b / 2 && a < b * 2) }' ||
	fail "sys_us_per_op $ours is not within 2x of /proc/$task/stat's stime/minflt $proc us"
echo "page_fault1: sys_us_per_op $ours, /proc/$task/stat stime/minflt $proc us"

run off.json -t 1 -w 0.2 -d 0.5 -i 0.25 --no-vmstat --no-cputime page_fault1
jq_check off.json "$p | has(\"vmstat\") or has(\"cputime\") | not" "--no-vmstat --no-cputime drop the sections"

run fa.json -t 1 -w 0.5 -d 2 -i 0.5 fallocate2
jq_check fa.json "$p.status == \"ok\" and $p.summary.ops > 1000" "fallocate2 ran"
jq_check fa.json "([$p.vmstat.delta | to_entries[] | select(.key | startswith(\"pgalloc_\")) | .value] | add) >= 1.9 * $p.summary.ops" \
	"pgalloc_* $(jq -c "$p.vmstat.delta | with_entries(select(.key | startswith(\"pgalloc_\")))" fa.json) below 2 pages per op ($(jq "$p.summary.ops" fa.json) ops)"

run s4.json -t 1 -w 0.5 -d 3 sendfile --msg-size 4K
run s256.json -t 1 -w 0.5 -d 3 sendfile --msg-size 256K
a=$(jq "$p.cputime.sys_us_per_op" s4.json)
b=$(jq "$p.cputime.sys_us_per_op" s256.json)
awk -v a="$a" -v b="$b" 'BEGIN { exit !(a > 0 && b >= 3 * a) }' ||
	fail "sys_us_per_op did not rise with the work per op: 4K $a, 256K $b"
echo "sendfile sys_us_per_op: 4K $a, 256K $b"

# compare: two real runs of two repetitions each
run c1.json -t 1 -r 2 -w 0.2 -d 0.5 -i 0.25 page_fault1
run c2.json -t 1 -r 2 -w 0.2 -d 0.5 -i 0.25 page_fault1
# --keep-disturbed: on a shared machine the runs are often marked disturbed
"$CGSCALE" compare --keep-disturbed -f json c1.json c2.json >cmp.json 2>cmp.err
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || fail "compare exited $rc: $(cat cmp.err)"
# (a count per op that is 0 on every run of both sides is not compared:
# pgfree comes in batches at each pass's munmap, and a loaded box's 0.5 s
# windows can hold none; then it must be absent, not judged)
for m in sys_us_per_op user_us_per_op proc-vmstat.pgfault proc-vmstat.pgfault.per_op \
	proc-vmstat.pgalloc_normal.per_op proc-vmstat.pgfree.per_op; do
	k=${m#proc-vmstat.}; k=${k%.per_op}
	want=1
	case $m in
	*.per_op) [ "$(jq -s --arg k "$k" '[.[].points[].vmstat.per_op[$k] // 0 | select(. > 0)] | length' c1.json c2.json)" = 0 ] && want=0 ;;
	esac
	jq -e --arg m "$m" --argjson w "$want" '[.points[0].comparisons[] | select(.metric == $m) |
		.verdict | IN("NO_CHANGE", "IMPROVEMENT", "REGRESSION", "NOISY", "INCONCLUSIVE")] | length == $w' \
		cmp.json >/dev/null || fail "compare has $( [ $want = 1 ] && echo no verdict || echo a verdict of a count that never moved) for $m"
done
"$CGSCALE" compare --keep-disturbed c1.json c2.json >cmp.txt 2>&1
grep -q "sys_us_per_op (us/op, lower is better" cmp.txt || fail "text compare lacks sys_us_per_op"
exit 0
