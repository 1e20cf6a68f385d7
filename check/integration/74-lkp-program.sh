#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 74-lkp-program.sh - cgscale as an LKP program (integrations/lkp/).
# Always: the pkg/ lists are scripts/deps.sh's, run and parse are valid
# shell, and `export --format lkp-stats` is checked against the result
# file. With LKP_SRC set to an lkp-tests checkout: a scratch copy of it
# (symlinks) gets our program and jobs, as a lab adds them; our run is
# started as LKP's bin/run-test does (job parameters in the environment,
# output teed to $RESULT_ROOT/cgscale), LKP's own bin/run-stats runs our
# parse and its sbin/dump-stat, and the stats in cgscale.json are checked
# against the result file; then `lkp split-job` expands every job file we
# ship into atomic jobs with the right parameters. `lkp run` itself writes
# under /lkp/result and is not run here (docs/lkp-and-ci.md, "cgscale in
# LKP", shows how far it goes). Without LKP_SRC the LKP part skips loudly.
# Exit 0 pass, 1 fail, 77 skip.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "jq missing"
I=$REPO/integrations/lkp
P=$I/programs/cgscale

for k in build runtime; do
	f=$P/pkg/depends$([ $k = build ] && echo -dev)
	"$REPO/scripts/deps.sh" --list $k | cmp -s - "$f" ||
		fail "$f differs from scripts/deps.sh --list $k"
done
bash -n "$P/run" || fail "run is not valid bash"
sh -n "$P/parse" || fail "parse is not valid sh"
for p in test mode nr_task runtime cgroup_depth cgroup_set profile; do
	grep -q "^# - $p\$" "$P/run" || fail "run does not declare parameter $p"
	grep -q "^  $p:" "$P/meta.yaml" || fail "meta.yaml lacks parameter $p"
done

# lkp-stats against the file (no LKP needed)
"$CGSCALE" run -q -t 1,2 -m both -w 0.1 -d 0.3 -i 0.1 --cgroup-depth 2 -o r.json page_fault3 \
	>/dev/null 2>run.err || fail "run: $(cat run.err)"
"$CGSCALE" export -f lkp-stats r.json >stats.txt || fail "export -f lkp-stats exit $?"
stat() { awk -v k="$1" -F': ' '$1 == k { print $2 }' "$2"; }
for m in process thread; do
	key=$([ $m = process ] && echo per_process_ops || echo per_thread_ops)
	want=$(jq --arg m $m '[.points[] | select(.mode == $m and .status == "ok")
		| .summary.per_task_ops_per_sec] | add / length | floor' r.json)
	[ "$(stat $key stats.txt)" = "$want" ] || fail "$key $(stat $key stats.txt), want $want"
done
want=$(jq '[.points[] | select(.mode == "process" and .tasks == 2) | .summary.total_ops_per_sec] | add / length | round' r.json)
[ "$(stat 2.processes stats.txt)" = "$want" ] || fail "2.processes $(stat 2.processes stats.txt), want $want"
[ -n "$(stat scalability stats.txt)" ] || fail "no scalability with 1 and 2 tasks"
[ -n "$(stat memory.stat.pgfault stats.txt)$(stat memory.stat.total_pgfault stats.txt)" ] ||
	fail "no memory.stat deltas: $(cat stats.txt)"
grep -v -E '^[A-Za-z0-9_.-]+: -?[0-9.e+-]+$' stats.txt && fail "a line is not key: number"
dup=$(cut -d: -f1 stats.txt | sort | uniq -d)
[ -z "$dup" ] || fail "keys printed twice (LKP would take them for two records): $dup"
"$CGSCALE" run -q -t 1 -m process -w 0 -d 0.2 -i 0.1 -o two.json page_fault1 page_fault3 >/dev/null 2>&1
"$CGSCALE" export -f lkp-stats two.json >out 2>err && fail "two tests in one LKP job were accepted"
[ -s out ] && fail "refused lkp-stats still wrote stats"

[ -n "${LKP_SRC:-}" ] || skip "LKP_SRC unset: the LKP program was checked, but not run through lkp-tests (set LKP_SRC=/path/to/lkp-tests; needs ruby, ruby-activesupport, ruby-git, ruby-tty-command)"
[ -x "$LKP_SRC/bin/run-stats" ] || fail "LKP_SRC=$LKP_SRC has no bin/run-stats"
command -v ruby >/dev/null || skip "ruby missing: apt-get install ruby ruby-activesupport ruby-git ruby-tty-command"

# a lab's checkout: lkp-tests plus our program and jobs
cp -rs "$(cd "$LKP_SRC" && pwd)" lkp || fail "cannot copy LKP_SRC"
cp -r "$P" lkp/programs/ && cp "$I"/jobs/*.yaml lkp/jobs/ || fail "cannot add the program"
L=$T/lkp

# run as bin/run-test runs it: parameters in the environment, the output
# teed to $TMP_RESULT_ROOT/cgscale; then LKP's run-stats: parse, dump-stat
mkdir rr
printf 'suite: cgscale\ntestcase: cgscale\ncategory: benchmark\n' >rr/job.yaml
(
	export LKP_SRC=$L RESULT_ROOT=$T/rr TMP_RESULT_ROOT=$T/rr TMP=$T BENCHMARK_ROOT=$T/none
	export CGSCALE test=page_fault3 mode=both nr_task=1,2 runtime=1s warmup=0.2 cgroup_depth=2
	"$L/programs/cgscale/run" 2>&1 | tee rr/cgscale >/dev/null
	"$L/bin/run-stats" cgscale
) >lkp.out 2>&1 || fail "run/run-stats: $(tail -n 5 lkp.out)"
R=rr/cgscale.results/result.json
[ -s $R ] || fail "run wrote no result: $(tail -n 5 rr/cgscale)"
[ -s rr/cgscale.json ] || fail "run-stats wrote no cgscale.json: $(tail -n 5 lkp.out)"
for m in process thread; do
	key=$([ $m = process ] && echo per_process_ops || echo per_thread_ops)
	want=$(jq --arg m $m '[.points[] | select(.mode == $m and .status == "ok")
		| .summary.per_task_ops_per_sec] | add / length | floor' $R)
	got=$(jq --arg k cgscale.$key '.[$k][0]' rr/cgscale.json)
	[ "$got" = "$want" ] || fail "LKP's cgscale.$key is $got, the file's $want"
done
jq -e 'has("cgscale.scalability") and has("cgscale.2.processes") and has("cgscale.2.threads")
	and (keys | map(select(startswith("cgscale.memory.stat."))) | length > 0)' rr/cgscale.json >/dev/null ||
	fail "LKP's cgscale.json lacks stats: $(jq -c keys rr/cgscale.json)"
[ -e rr/cgscale-result.json ] && fail "the result file sits where LKP takes it for stats"

# lkp split-job on every job file, with the host file lkp install writes
(
	export LKP_SRC=$L
	bash -c '. "$LKP_SRC/lib/host.sh"; create_host_config' && mkdir split && cd split &&
	for j in "$I"/jobs/*.yaml; do "$L/bin/lkp" split-job "$L/jobs/$(basename "$j")" || exit 1; done
) >split.out 2>&1 || fail "lkp split-job: $(grep -v WARN split.out | tail -n 5)"
n() { ls split | grep -c "^$1"; }
[ "$(n cgscale-2-both)" = 4 ] || fail "cgscale.yaml: $(n cgscale-2-both) atomic jobs, want 4: $(ls split)"
[ "$(n cgscale-cgroup2-)" = 4 ] || fail "cgscale-cgroup2.yaml: $(n cgscale-cgroup2-) jobs, want 4"
[ "$(n cgscale-sendfile-protect-)" = 2 ] || fail "sendfile job: $(n cgscale-sendfile-protect-) jobs, want 2"
[ "$(n cgscale-remap-)" = 1 ] || fail "remap job: $(n cgscale-remap-) jobs, want 1"
grep -q 'memory.low: 50%' split/cgscale-cgroup2-*page_fault2*.yaml || fail "cgroup2.yaml not merged"
grep -q 'cgroup_set: 1:memory.min=1G 1:memory.low=1G' split/cgscale-sendfile-protect-*.yaml ||
	fail "sendfile job lost its knobs"
echo "PASS: LKP ran our run and parse: cgscale.per_process_ops $(jq '.["cgscale.per_process_ops"][0]' rr/cgscale.json) = the file's; split-job expanded $(ls split | wc -l) jobs"
