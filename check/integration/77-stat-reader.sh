#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --stat-reader: a reader thread outside the tasks reads memory.stat 50
# times a second while page_fault1 runs in a cgroup tree of depth 3 (the
# reader reads level 1, the top, whose read covers the whole subtree).
# The point reports about 50 reads/s (within 10%), percentiles in
# increasing order, one set of figures per interval aligned with the
# samples, the whole histogram, and the file's parsed content. A second
# run reads the leaf, whose pgfault grows by about the faults the tasks
# took: proof that the reader reads our tasks' cgroup. (Level 1's totals
# may lag: on this machine's kernel a v1 read of level 1 did not flush the
# subtree, and total_pgfault there waited for the periodic flush.)
# Without root (no cgroups of our own) the same runs at depth 0.
. "$(dirname "$0")/lib.sh"

mem_v1=$(awk '$9 == "cgroup" && $NF ~ /(^|,)memory(,|$)/ {print $5; exit}' /proc/self/mountinfo)
if [ -z "$mem_v1" ]; then
	grep -qw memory "$(awk '$9 == "cgroup2" {print $5; exit}' /proc/self/mountinfo)/cgroup.controllers" 2>/dev/null ||
		skip "no memory controller mounted (v1 or v2): nothing for the reader to read"
fi
# v1 memory.stat keeps the subtree's sums in total_*; v2's are hierarchical
if [ -n "$mem_v1" ]; then key=total_pgfault; else key=pgfault; fi
depth=3
if [ "$(id -u)" != 0 ]; then
	depth=0
	if [ -n "$mem_v1" ]; then
		own=$mem_v1$(awk -F: '$2 ~ /(^|,)memory(,|$)/ {print $3}' /proc/self/cgroup)/memory.stat
	else
		own=$(awk '$9 == "cgroup2" {print $5; exit}' /proc/self/mountinfo)$(awk -F: '$1 == 0 {print $3}' /proc/self/cgroup)/memory.stat
	fi
	[ -r "$own" ] || skip "not root (no cgroups of our own) and our cgroup has no readable memory.stat ($own)"
fi

s='.points[0].stat_reader'
# A reader starved of CPU for more than a period skips reads (and counts
# them as missed); on a busy shared machine that happens, so one retry.
for try in 1 2; do
	"$CGSCALE" run -t 1 -m process -w 0.5 -d 2 -i 0.5 --cgroup-depth $depth --stat-reader 50 \
		-o r.json page_fault1 >out.txt 2>err.txt || fail "run failed: $(cat err.txt)"
	[ "$(jq "$s.summary.missed" r.json)" = 0 ] && break
	echo "try $try: the reader missed $(jq "$s.summary.missed" r.json) reads (busy machine?)"
done
jq_check r.json '.points[0].status == "ok"' "point ok"
jq_check r.json '.options["stat-reader"] == 50 and .options["stat-reader-target"] == "top"' "options echoed"
jq_check r.json "$s.file == \"memory.stat\" and $s.depth == $depth" "memory.stat at depth $depth"
if [ $depth = 3 ]; then
	jq_check r.json ".points[0] | (.cgroup.hierarchies[] | select(.controllers | split(\",\") | index(\"memory\"))) as \$h | .stat_reader.path == \$h.levels[0][0] + \"/memory.stat\"" \
		"level 1 of our tree read: $(jq -r "$s.path" r.json)"
fi
jq_check r.json "$s.summary.reads_per_sec > 45 and $s.summary.reads_per_sec < 55" \
	"about 50 reads/s: $(jq "$s.summary.reads_per_sec" r.json)"
jq_check r.json "$s.summary | .count > 80 and .errors == 0" "reads counted, no errors"
jq_check r.json "$s.summary | 0 < .min_ns and .min_ns <= .p50_ns and .p50_ns <= .p90_ns and .p90_ns <= .p99_ns and .p99_ns <= .p99_9_ns and .p99_9_ns <= .max_ns" \
	"percentiles in increasing order: $(jq -c "$s.summary" r.json)"
jq_check r.json "$s.histogram.count == $s.summary.count and ([$s.histogram.buckets[][2]] | add) == $s.histogram.count" \
	"histogram holds every measured read"
jq_check r.json "$s.histogram.min == $s.summary.min_ns and $s.histogram.max == $s.summary.max_ns" "histogram min/max"
# the intervals line up with the samples; the measured ones add up to the point
jq_check r.json ".points[0] as \$p | [$s.intervals[] | length == (\$p.samples.t_ns | length)] | all" \
	"one interval figure per sample"
jq_check r.json ".points[0] as \$p | $s as \$r | [range(0; \$p.samples.phase | length) | select(\$p.samples.phase[.] == \"measure\") | \$r.intervals.reads[.]] | add == \$r.summary.count" \
	"measured intervals add up to the point's count"
jq_check r.json "$s.intervals.reads[0] == 0" "no interval before the start"
jq_check r.json "$s.intervals as \$v | [range(1; \$v.reads | length) | select(\$v.reads[.] > 0) | \$v.min_ns[.] <= \$v.p50_ns[.] and \$v.p50_ns[.] <= \$v.p99_ns[.] and \$v.p99_ns[.] <= \$v.max_ns[.]] | all" \
	"per-interval percentiles in order"
# the content is parsed; at the top it may lag (a kernel may not flush the
# subtree on every read), so only its direction is checked here
jq_check r.json "$s.content.delta.$key >= 0" "$key at the top: +$(jq "$s.content.delta.$key" r.json) for $(jq .points[0].summary.ops r.json) faults"
jq_check r.json "$s.content.end.t_ns > $s.content.start.t_ns" "content read at the window's start and end"
grep -q "reader   memory.stat at top: " out.txt || fail "table lacks the reader line: $(cat out.txt)"

# thread mode, the reader at the leaf on a CPU we name, under the
# sanitizers: the leaf's file counts the tasks' faults (the read flushes)
"$CGSCALE_SAN" run -q -t 1 -m thread -w 0.2 -d 1 -i 0.25 --cgroup-depth $depth --stat-reader 100 \
	--stat-reader-cpu 0 --stat-reader-target leaf -o s.json page_fault1 >/dev/null 2>err.txt ||
	fail "sanitizer run: $(cat err.txt)"
grep -q Sanitizer err.txt && fail "sanitizer report: $(head -n 20 err.txt)"
s='.points[0].stat_reader'
jq_check s.json ".points[0].status == \"ok\" and $s.cpu == 0" "bound to CPU 0"
jq_check s.json "$s.summary.count > 0" "leaf read"
if [ $depth = 3 ]; then
	jq_check s.json ".points[0] | (.cgroup.hierarchies[] | select(.controllers | split(\",\") | index(\"memory\"))) as \$h | .stat_reader.path == \$h.levels[2][0] + \"/memory.stat\"" \
		"the leaf of our tree read"
fi
jq_check s.json "$s.content.delta.pgfault > 0" "pgfault grew at the leaf"
jq_check s.json ".points[0] as \$p | $s.content.delta.pgfault >= 0.5 * \$p.summary.ops" \
	"the leaf's pgfault grew by at least half the faults counted ($(jq "$s.content.delta.pgfault" s.json) vs $(jq .points[0].summary.ops s.json) ops)"
# the window opens with the gate (-w 0) and the reader thread's first read
# comes 400 ms late (CGSCALE_TEST_SR_LATE_MS, as a reader starved on a
# busy machine): the window's start is still read, before the gate, so
# the delta is never null (as it was, in 75-cgroup-v2-vm's S4 under load)
CGSCALE_TEST_SR_LATE_MS=400 "$CGSCALE_SAN" run -q -t 1 -m thread -w 0 -d 0.6 -i 0.2 --cgroup-depth $depth \
	--stat-reader 50 --stat-reader-target leaf -o late.json page_fault1 >/dev/null 2>err.txt ||
	fail "late reader run: $(cat err.txt)"
grep -q Sanitizer err.txt && fail "sanitizer report: $(head -n 20 err.txt)"
jq_check late.json "$s.content.start.t_ns <= 0 and $s.content.end.t_ns > 400000000" \
	"the start read before the gate, the end by the late thread: $(jq -c "[$s.content.start.t_ns, $s.content.end.t_ns]" late.json)"
jq_check late.json ".points[0] as \$p | $s.content.delta.pgfault >= 0.5 * \$p.summary.ops" \
	"a late first read: the leaf's pgfault grew by the faults ($(jq "$s.content.delta.pgfault" late.json) for $(jq .points[0].summary.ops late.json) ops)"
# without --stat-reader there is no section
"$CGSCALE" run -q -t 1 -m thread -w 0 -d 0.2 -i 0.1 --cgroup-depth 0 -o n.json page_fault1 >/dev/null 2>&1 ||
	fail "plain run"
jq_check n.json '.points[0] | has("stat_reader") | not' "no reader section unless asked"
exit 0
