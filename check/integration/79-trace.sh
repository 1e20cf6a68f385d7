#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 79-trace.sh - --trace memcg-flush: the kernel's memcg stats flushes and
# the rstat lock, from tracepoints, in a depth-3 cgroup tree while the
# stat reader reads level 1's memory.stat, at 10 Hz and at 100 Hz.
#   - every tracepoint of the set is supported on this kernel, or the run
#     says why not (then the test skips: nothing to count);
#   - flush calls of the point's own cgroups follow the reader: 0.5 to 2
#     per read at each rate, and the 100 Hz run has at least 3 times the
#     calls of the 10 Hz run (10 times expected; the margin is for a
#     reader starved on a busy 2-vCPU machine). Own = the record's cgroup
#     id is one of our tree's, so other work on the machine does not count;
#   - at 100 Hz the rstat lock was taken: flushes, a hold per flush for
#     each, percentiles in order;
#   - tracefs is mounted afterwards exactly where it was before;
#   - bad input exits 2 with nothing written: an unknown set, and --trace
#     as nobody (no CAP_PERFMON).
# Exit 0 pass, 1 fail, 77 skip.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "jq missing"

"$CGSCALE" run -q -t 1 --trace bogus -o bad.json page_fault1 >out.txt 2>err.txt
rc=$?
[ $rc = 2 ] || fail "unknown set: exit $rc, want 2"
grep -q "unknown set 'bogus'" err.txt || fail "unknown set: message $(cat err.txt)"
[ ! -e bad.json ] || fail "unknown set: a result was written"
"$CGSCALE" run --help | grep -q "memcg-flush = memcg:memcg_flush_stats, cgroup:cgroup_rstat_locked" ||
	fail "--help does not name the tracepoints of memcg-flush"

[ "$(id -u)" = 0 ] || skip "--trace needs root (and cgroups of our own)"
if command -v setpriv >/dev/null; then
	nb=$(mktemp -d /tmp/cgscale-it-nb.XXXXXX) || fail "mktemp"
	trap 'rm -rf "$T" "$nb"' EXIT
	chown 65534:65534 "$nb" || fail "chown $nb"
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$CGSCALE" run -q -t 1 --trace memcg-flush -o "$nb/r.json" --tmpdir "$nb" page_fault1 \
		>"$nb/out" 2>"$nb/err"
	rc=$?
	if [ $rc = 126 ] || [ $rc = 127 ]; then
		echo "nobody cannot run $CGSCALE: non-root check left out"
	else
		[ $rc = 2 ] || fail "as nobody: exit $rc, want 2 ($(cat "$nb/err"))"
		grep -q "needs root, or CAP_PERFMON" "$nb/err" || fail "as nobody: message $(cat "$nb/err")"
		[ ! -e "$nb/r.json" ] || fail "as nobody: a result was written"
	fi
fi

mem_v1=$(awk '$9 == "cgroup" && $NF ~ /(^|,)memory(,|$)/ {print $5; exit}' /proc/self/mountinfo)
[ -n "$mem_v1" ] || grep -qw memory "$(awk '$9 == "cgroup2" {print $5; exit}' /proc/self/mountinfo)/cgroup.controllers" 2>/dev/null ||
	skip "no memory controller mounted: no memcg stats to flush"
before=$(awk '$9 == "tracefs" {print $5}' /proc/self/mountinfo | sort)
for hz in 10 100; do
	"$CGSCALE" run -q -t 1 -m process -w 0.5 -d 3 -i 0.5 --cgroup-depth 3 \
		--stat-reader $hz --trace memcg-flush -o r$hz.json page_fault1 >/dev/null 2>err.txt ||
		fail "run at $hz Hz: $(cat err.txt)"
done
after=$(awk '$9 == "tracefs" {print $5}' /proc/self/mountinfo | sort)
[ "$before" = "$after" ] || fail "tracefs mounts changed: before '$before', after '$after'"
t='.points[0].trace'
unsup=$(jq -r "[$t.events[] | select(.supported | not) | \"\(.name): \(.reason)\"] | join(\"; \")" r10.json)
[ -z "$unsup" ] || skip "not supported on this kernel: $unsup"
for hz in 10 100; do
	jq_check r$hz.json ".points[0].status == \"ok\" and $t.error == null" "$hz Hz: point ok, no trace error ($(jq -c "$t.error" r$hz.json))"
	jq_check r$hz.json "($t.own_cgroup_ids | length) == 3" "$hz Hz: the three cgroups of the tree are ours"
	jq_check r$hz.json "$t.flush.calls.own_per_read >= 0.5 and $t.flush.calls.own_per_read <= 2" \
		"$hz Hz: flush calls per read $(jq "$t.flush.calls.own_per_read" r$hz.json)"
	jq_check r$hz.json "$t.flush.calls.all >= $t.flush.calls.own" "$hz Hz: own calls are a part of all"
done
c10=$(jq "$t.flush.calls.own" r10.json)
c100=$(jq "$t.flush.calls.own" r100.json)
[ "$c10" -ge 10 ] || fail "10 Hz over 3 s: only $c10 flush calls of our cgroups"
[ "$c100" -ge $((3 * c10)) ] || fail "flush calls did not follow the reader: 10 Hz $c10, 100 Hz $c100"
echo "flush calls of our cgroups: 10 Hz $c10, 100 Hz $c100"
l="$t.rstat_lock"
jq_check r100.json "$l.flushes > 0 and $l.hold_per_flush.count == $l.flushes" \
	"100 Hz: rstat flushes with a hold each ($(jq -c "$l | {flushes, hold_per_flush}" r100.json))"
jq_check r100.json "$l.hold_per_flush | 0 < .min_ns and .min_ns <= .p50_ns and .p50_ns <= .p99_ns and .p99_ns <= .max_ns" \
	"100 Hz: hold percentiles in order"
jq_check r100.json "$l.acquisitions.all >= $l.flushes" "100 Hz: a flush takes the lock at least once"
# the report shows the sections: the notable vmstat counters, the trace
"$CGSCALE" report -o report.html --no-charts r100.json >/dev/null 2>&1 ||
	"$CGSCALE" report -o report.html r100.json >/dev/null 2>&1 || fail "report failed"
grep -q "<summary>trace, run 1" report.html || fail "report: no trace section"
grep -q "rstat_lock.hold_per_flush.p99_ns" report.html || fail "report: no rstat hold percentiles"
grep -q "proc-vmstat.pgfault</td>" report.html || fail "report: no vmstat pgfault row"
grep -q "sys_us_per_op" report.html || fail "report: no cputime section"
# compare lists the flush metrics with a verdict
# --keep-disturbed: on a shared machine the runs are often marked disturbed
"$CGSCALE" compare --keep-disturbed -f json r10.json r100.json >cmp.json 2>cmp.err
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || fail "compare exited $rc: $(cat cmp.err)"
for m in flush_per_sec flush_per_op flush_per_read rstat_hold_p50 rstat_hold_p99 rstat_hold_max; do
	jq -e --arg m "$m" '[.points[0].comparisons[] | select(.metric == $m) | .verdict] | length == 1' \
		cmp.json >/dev/null || fail "compare has no verdict for $m"
done
exit 0
