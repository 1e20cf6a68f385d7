#!/bin/sh
# stat_read: each task reads its cgroup's statistics file whole in a loop.
# Every point is ok with ops > 0 in each task, the file read is the
# memory.stat of the cgroup the tasks are in (checked against the
# runner's own /proc/self/cgroup: cgscale made no cgroups here), every
# --stat-file either reads or is skipped with a reason, and bad knobs are
# refused with exit 2.
. "$(dirname "$0")/lib.sh"

# the memory cgroup we (and so the runner and its tasks) are in
mem_cgroup() {
	v1=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ {print $3}' /proc/self/cgroup)
	if [ -n "$v1" ]; then echo "$v1"; else awk -F: '$1 == 0 {print $3}' /proc/self/cgroup; fi
}
mem_mount() {
	awk '$9 == "cgroup" && $NF ~ /(^|,)memory(,|$)/ {print $5; exit}' /proc/self/mountinfo
}
[ -n "$(mem_mount)" ] || grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null ||
	skip "no memory controller mounted (v1 or v2): stat_read has nothing to read"
cg=$(mem_cgroup)
if [ -z "$(mem_mount)" ] && [ "$cg" = / ]; then
	skip "we run in the cgroup v2 root, which has no memory.stat (run in a child cgroup)"
fi

"$CGSCALE" run -q -t 1,2 -w 0.2 -d 0.5 -i 0.25 -o r.json stat_read >out.txt 2>err.txt ||
	fail "run failed: $(cat err.txt)"
jq_check r.json '(.points | length) == 4 and ([.points[].status == "ok"] | all)' "4 points, all ok"
jq_check r.json '[.points[] | .summary.ops > 0 and ([.tasks_detail[].ops > 0] | all)] | all' "ops > 0 in every task"
jq_check r.json '[.points[] | .workload_options["stat-file"] == "memory.stat" and .workload_options["stat-target"] == "leaf"] | all' \
	"defaults echoed"
jq_check r.json '[.points[] | .stat_read.path | endswith("/memory.stat")] | all' "path of the file recorded"
jq_check r.json "[.points[] | .stat_read.cgroup == \"$cg\"] | all" "the tasks' own memory cgroup ($cg) was read"
jq_check r.json '[.points[] | .summary.aux.bytes.rate > 0] | all' "bytes read counted"
grep -q "^stat_read: " out.txt || fail "table lacks stat_read"

# every file: read, or skipped with the reason (e.g. cgroup.stat without v2)
for f in cgroup.stat cpu.stat memory.numa_stat; do
	"$CGSCALE" run -q -t 1 -m process -w 0 -d 0.3 -i 0.3 --stat-file "$f" -o "$f.json" stat_read \
		>/dev/null 2>err.txt || fail "--stat-file $f: $(cat err.txt)"
	jq_check "$f.json" '.points[0] | (.status == "ok" and .summary.ops > 0) or (.status == "skipped" and (.reason | length) > 0)' \
		"--stat-file $f ran or was skipped with a reason"
	jq_check "$f.json" ".points[0] | .status == \"skipped\" or (.stat_read.path | endswith(\"/$f\"))" "--stat-file $f read $f"
	echo "--stat-file $f: $(jq -r '.points[0] | .status + " " + (.stat_read.path // .reason)' "$f.json")"
done

# bad knobs: one line, exit 2, nothing written
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
exit 0
