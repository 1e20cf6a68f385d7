#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# stat_read: each task reads its cgroup's statistics file whole in a loop.
#  - at depth 3, for each --stat-target, every point is ok with ops > 0 in
#    every task, and the file read is that of the leaf, level 1 or the
#    parent that the point's extra.cgroup records;
#  - without cgroups of our own (depth 0) it is the runner's own cgroup;
#  - every --stat-file reads, or is skipped with the reason;
#  - bad knobs, and a file outside the hierarchies of our cgroups, are
#    refused with exit 2 before anything runs.
. "$(dirname "$0")/lib.sh"

mem_v1=$(awk '$9 == "cgroup" && $NF ~ /(^|,)memory(,|$)/ {print $5; exit}' /proc/self/mountinfo)
v2_mnt=$(awk '$9 == "cgroup2" {print $5; exit}' /proc/self/mountinfo)
if [ -n "$mem_v1" ]; then
	self=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ {print $3}' /proc/self/cgroup)
	own=$mem_v1$self/memory.stat
else
	grep -qw memory "$v2_mnt/cgroup.controllers" 2>/dev/null ||
		skip "no memory controller mounted (v1 or v2): stat_read has nothing to read"
	self=$(awk -F: '$1 == 0 {print $3}' /proc/self/cgroup)
	own=$v2_mnt$self/memory.stat
fi

# 1. depth 0: the tasks' cgroup is ours, both modes, 1 and 2 tasks
if [ ! -r "$own" ]; then
	echo "note: our own cgroup has no readable memory.stat ($own): depth 0 not tested"
else
	"$CGSCALE" run -q -t 1,2 -w 0.2 -d 0.5 -i 0.25 --cgroup-depth 0 -o r0.json stat_read \
		>out.txt 2>err.txt || fail "depth 0 run: $(cat err.txt)"
	jq_check r0.json '(.points | length) == 4 and ([.points[].status == "ok"] | all)' "depth 0: 4 points, all ok"
	jq_check r0.json '[.points[] | .summary.ops > 0 and ([.tasks_detail[].ops > 0] | all)] | all' "depth 0: ops > 0 in every task"
	jq_check r0.json '[.points[] | .workload_options["stat-file"] == "memory.stat" and .workload_options["stat-target"] == "leaf"] | all' \
		"defaults echoed"
	jq_check r0.json "[.points[] | .stat_read.cgroup == \"$self\" and .stat_read.depth == 0] | all" \
		"depth 0: the tasks' (our own) memory cgroup $self was read"
	jq_check r0.json '[.points[] | .summary.aux.bytes.rate > 0] | all' "bytes read counted"
	grep -q "^stat_read: " out.txt || fail "table lacks stat_read"
	# every file: read, or skipped with the reason
	for f in cgroup.stat cpu.stat memory.numa_stat; do
		"$CGSCALE" run -q -t 1 -m process -w 0 -d 0.3 -i 0.3 --cgroup-depth 0 --stat-file "$f" \
			-o "$f.json" stat_read >/dev/null 2>err.txt || fail "--stat-file $f: $(cat err.txt)"
		jq_check "$f.json" '.points[0] | (.status == "ok" and .summary.ops > 0) or (.status == "skipped" and (.reason | length) > 0)' \
			"--stat-file $f ran or was skipped with a reason"
		jq_check "$f.json" ".points[0] | .status == \"skipped\" or (.stat_read.path | endswith(\"/$f\"))" "--stat-file $f read $f"
		echo "--stat-file $f: $(jq -r '.points[0] | .status + " " + (.stat_read.path // .reason)' "$f.json")"
	done
fi

# 2. bad knobs: one line, exit 2, nothing written
bad() {
	"$CGSCALE" run "$@" -o bad.json stat_read >/dev/null 2>err.txt
	rc=$?
	[ $rc -eq 2 ] || fail "'$*' exited $rc, expected 2"
	[ "$(wc -l <err.txt)" -eq 1 ] || fail "'$*': $(cat err.txt)"
	[ ! -e bad.json ] || fail "'$*' wrote a result"
	echo "ok: $* -> $(cat err.txt)"
}
bad --stat-file memory.bogus
bad --stat-target middle
bad --stat-reader 10 --stat-reader-cpu 4096
bad --stat-reader 10 --stat-reader-cpu two
bad --stat-reader -5
bad --stat-reader 1000000

[ "$(id -u)" = 0 ] || skip "depth 3 needs root to make cgroups (the depth 0 part passed)"
# memory on v1 and a cgroup2 mount beside it: cgroup.stat is not where
# our cgroups are
[ -n "$mem_v1" ] && [ -n "$v2_mnt" ] && bad --cgroup-depth 2 --stat-file cgroup.stat
[ -n "$mem_v1" ] && bad --cgroup-depth 2 --stat-reader 5 --stat-reader-file cpu.stat

# 3. depth 3: the leaf, level 1 and the parent, as extra.cgroup records them
for t in leaf top parent; do
	"$CGSCALE" run -q -t 2 -w 0.2 -d 0.5 -i 0.25 --cgroup-depth 3 --stat-target $t \
		-o d3-$t.json stat_read >/dev/null 2>err.txt || fail "depth 3 --stat-target $t: $(cat err.txt)"
	jq_check d3-$t.json '(.points | length) == 2 and ([.points[].status == "ok"] | all)' "depth 3 $t: both modes ok"
	jq_check d3-$t.json '[.points[] | .summary.ops > 0 and ([.tasks_detail[].ops > 0] | all)] | all' \
		"depth 3 $t: ops > 0 in every task"
	case $t in
	leaf) want='.levels[2][0]' ;;
	top) want='.levels[0][0]' ;;
	parent) want='.parent' ;;
	esac
	jq_check d3-$t.json "[.points[] | (.cgroup.hierarchies[] | select(.controllers | split(\",\") | index(\"memory\"))) as \$h | .stat_read.path == (\$h | $want) + \"/memory.stat\"] | all" \
		"depth 3 $t: read $(jq -r '.points[0].stat_read.path' d3-$t.json)"
	jq_check d3-$t.json '[.points[].stat_read.depth == 3] | all' "depth recorded"
done
exit 0
