#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 74-lkp-program.sh - cgscale as an LKP program (integrations/lkp/).
# Always: the pkg/ lists are scripts/deps.sh's, run and parse are valid
# shell, `export --format lkp-stats` is checked against the result file
# (per mode, the --lkp-baseline point kept out), and run checks and quotes
# every parameter: a bad nr_task, runtime, cgroup_set ... stops it (exit
# 99, LKP's die) naming the parameter, nothing is glob-expanded, and the
# reproduce.sh it writes, run by a shell, runs nothing planted in a value
# (with LKP_SRC unset, against two stub functions that write as LKP's
# lib/debug.sh and lib/reproduce-log.sh do). With LKP_SRC set to an
# lkp-tests checkout (scripts/deps.sh lkp installs what it needs): a
# scratch copy of it (symlinks) gets our program and jobs, as a lab adds
# them; every job file we ship is loaded with LKP's own loader (lib/job.rb)
# and each value must read back as written (YAML 1.1 takes a bare 0,3 for
# 3); our run is started as LKP's bin/run-test does (job parameters in the
# environment, output teed to $RESULT_ROOT/cgscale), LKP's own
# bin/run-stats runs our parse and its sbin/dump-stat, and the stats in
# cgscale.json are checked against the result file; then `lkp split-job`
# expands every job file into atomic jobs with the right parameters.
# 72-lkp-recipe.sh runs docs/lkp-and-ci.md's whole recipe (lkp install,
# lkp run, ncompare). Without LKP_SRC the LKP part skips loudly.
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
# --keep-disturbed: the arithmetic against all the ok runs (a busy box
# marks some disturbed, which lkp-stats leaves out unasked: 28-lkp-stats)
"$CGSCALE" export -f lkp-stats --keep-disturbed r.json >stats.txt || fail "export -f lkp-stats exit $?"
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
[ -n "$(stat process.memory.stat.pgfault stats.txt)$(stat process.memory.stat.total_pgfault stats.txt)" ] ||
	fail "no memory.stat deltas of process mode: $(cat stats.txt)"
# both modes: the mode-independent stats per mode, never one mean of both
grep -E '^(min_task_ops|memory\.stat\.|sys_us_per_op):' stats.txt &&
	fail "stats of both modes averaged into one key"
for m in process thread; do
	want=$(jq --arg m $m '[.points[] | select(.mode == $m and .status == "ok" and .tasks == 2)
		| .summary.min_task_ops_per_sec] | add / length' r.json)
	awk -v k=$m.min_task_ops -v w="$want" -F': ' '$1 == k { d = $2 - w; exit !(d < 0.01 && d > -0.01) }
		END { if (NR == 0) exit 1 }' stats.txt || fail "$m.min_task_ops $(stat $m.min_task_ops stats.txt), want $want"
done
# --lkp-baseline 1: the 1-task points give 1.processes and scalability only
"$CGSCALE" export -f lkp-stats --keep-disturbed --lkp-baseline 1 r.json >base.txt || fail "export --lkp-baseline 1 exit $?"
want=$(jq '[.points[] | select(.mode == "process" and .status == "ok" and .tasks == 2)
	| .summary.per_task_ops_per_sec] | add / length | floor' r.json)
[ "$(stat per_process_ops base.txt)" = "$want" ] || fail "--lkp-baseline 1: per_process_ops $(stat per_process_ops base.txt), the 2-task points' $want"
[ "$(stat scalability base.txt)" = "$(stat scalability stats.txt)" ] && [ -n "$(stat 1.processes base.txt)" ] ||
	fail "--lkp-baseline 1 lost the scalability or 1.processes: $(head -n 8 base.txt)"
"$CGSCALE" export -f tsv --lkp-baseline 1 r.json >/dev/null 2>&1 && fail "--lkp-baseline without lkp-stats was accepted"
grep -v -E '^[A-Za-z0-9_.-]+: -?[0-9.e+-]+$' stats.txt && fail "a line is not key: number"
dup=$(cut -d: -f1 stats.txt | sort | uniq -d)
[ -z "$dup" ] || fail "keys printed twice (LKP would take them for two records): $dup"
"$CGSCALE" run -q -t 1 -m process -w 0 -d 0.2 -i 0.1 -o two.json page_fault1 page_fault3 >/dev/null 2>&1
"$CGSCALE" export -f lkp-stats two.json >out 2>err && fail "two tests in one LKP job were accepted"
[ -s out ] && fail "refused lkp-stats still wrote stats"

# compare, show and export read LKP result roots: a run's cgscale.results/
# (LKP's own *.json beside it are stats, not results), and in the
# directory of a job's runs (0/ 1/ beside avg.json) the runs
for s in a b; do
	for n in 0 1; do
		mkdir -p lroot-$s/$n/cgscale.results
		cp r.json lroot-$s/$n/cgscale.results/result.json
		echo '{"cgscale.per_process_ops": [1]}' >lroot-$s/$n/cgscale.json
		cp lroot-$s/$n/cgscale.json lroot-$s/$n/stats.json
	done
	echo '{"cgscale.per_process_ops": [1]}' >lroot-$s/avg.json
done
"$CGSCALE" compare --keep-disturbed lroot-a lroot-b >lc.txt 2>&1
[ $? -le 1 ] && grep -q '^cgscale compare: A = lroot-a (2 files)' lc.txt ||
	fail "compare of two LKP job directories: $(head -n 3 lc.txt)"
"$CGSCALE" compare --keep-disturbed lroot-a/0 lroot-b/1 >lc.txt 2>&1
[ $? -le 1 ] && grep -q 'A = lroot-a/0 (1 file)' lc.txt || fail "compare of two LKP result roots: $(head -n 3 lc.txt)"
"$CGSCALE" export -f lkp-stats --keep-disturbed lroot-a/1 | cmp -s - stats.txt || fail "export of an LKP result root differs from the file's"

# run checks and quotes every parameter (with LKP's lib, or stubs that
# write as its die and log_echo do)
if [ -n "${LKP_SRC:-}" ]; then
	LS=$(cd "$LKP_SRC" && pwd)
else
	LS=$T/stub
	mkdir -p stub/lib
	printf 'die() { echo "$@" >&2; exit 99; }\n' >stub/lib/debug.sh
	printf 'log_echo() { echo "$(date +%%T)" "$@"; echo "$@" >>"$TMP_RESULT_ROOT/reproduce.sh"; }\n' >stub/lib/reproduce-log.sh
fi
# prog VAR=VALUE...: run as bin/run-test does, in a fresh result root pr/
prog() {
	rm -rf pr && mkdir pr && touch pr/a pr/b 'pr/1:memory.high=x'
	(
		export LKP_SRC=$LS RESULT_ROOT=$T/pr TMP_RESULT_ROOT=$T/pr CGSCALE \
			test=page_fault3 mode=process nr_task=1 runtime=1 warmup=0.2
		export "$@"
		cd pr && bash "$P/run"
	) >prog.out 2>&1
}
# refused: exit 99, one line naming the parameter, nothing run
refused() {
	prog "$1=$2"
	rc=$?
	[ $rc = 99 ] || fail "$1='$2': exit $rc, want 99 (refused): $(head -n 3 prog.out)"
	head -n 1 prog.out | grep -q -F "cgscale: $1='$2'" ||
		fail "$1='$2': the message does not name it: $(head -n 1 prog.out)"
	[ ! -e pr/cgscale.results/result.json ] || fail "$1='$2' was refused after running"
	[ ! -e pr/reproduce.sh ] || (cd pr && sh ./reproduce.sh >/dev/null 2>&1)
	[ ! -e "$T/pwn" ] || fail "$1='$2': a planted command ran"
}
refused nr_task "1;touch $T/pwn #"
refused nr_task '1 2'
for v in abc 300ms -5 0 '2x; rm -rf /'; do
	refused runtime "$v"
done
refused warmup 1x
refused runs -1
refused cgroup_depth '2;touch pwn'
refused mode '$(touch pwn)'
refused profile yes
refused cgroup_parent 'relative/path'
# cgroup_set='*' is not expanded to pr/'s files: refused as the word it is
prog 'cgroup_set=*'
[ $? = 99 ] && grep -q -F "'*' is not LEVEL:KNOB=VALUE" prog.out || fail "cgroup_set='*': $(head -n 2 prog.out)"
# words that pass the checks reach cgscale, and reproduce.sh, as they are:
# a shell reading reproduce.sh gets the same words and runs nothing else
val="/no such;touch $T/pwn #"
prog "cgroup_parent=$val" 'cgroup_set=1:memory.high=*' "cgscale_opts=--fail-fast *"
[ -s pr/reproduce.sh ] || fail "run wrote no reproduce.sh: $(head -n 3 prog.out)"
for w in "$val" '1:memory.high=*' '*'; do
	bash -c 'eval "set -- $(tail -n 1 "$1")"; shift; for a; do [ "$a" = "$2" ] && exit 0; done; exit 1' \
		_ pr/reproduce.sh "$w" || fail "reproduce.sh lost the word '$w': $(tail -n 1 pr/reproduce.sh)"
done
(cd pr && sh ./reproduce.sh >/dev/null 2>&1)
[ ! -e "$T/pwn" ] || fail "reproduce.sh ran a command planted in cgroup_parent"
grep -q 'memory.high=x' pr/reproduce.sh && fail "cgroup_set was glob-expanded: $(tail -n 1 pr/reproduce.sh)"
echo "ok: run refuses bad parameters (exit 99, named) and quotes the rest in reproduce.sh"

# cgscale-host, the setup the cgroup2 and sendfile-protect jobs run first:
# it refuses a host whose hierarchy cannot give them what they need, read
# from the mount table (stub tables here, whatever this box is)
H=$I/programs/cgscale-host/setup
sh -n "$H" || fail "cgscale-host/setup is not valid sh"
mkdir -p v2root v2nomem && echo 'cpuset cpu io memory pids' >v2root/cgroup.controllers &&
	echo 'cpuset cpu io pids' >v2nomem/cgroup.controllers
printf '%s\n' 'cgroup /sys/fs/cgroup/memory cgroup rw,nosuid,nodev,noexec,relatime,memory 0 0' \
	'cgroup /sys/fs/cgroup/systemd cgroup rw,relatime,xattr,name=systemd 0 0' \
	"cgroup2 $T/v2nomem cgroup2 rw,relatime 0 0" >hybrid.mounts
printf '%s\n' 'cgroup /sys/fs/cgroup/systemd cgroup rw,relatime,xattr,name=systemd 0 0' \
	"cgroup2 $T/v2root cgroup2 rw,nosuid,nodev,noexec,relatime 0 0" >unified.mounts
host() { # MOUNTS unified cgroup_v2: the exit status, the stderr in host.err
	CGSCALE_HOST_MOUNTS=$1 unified=$2 cgroup_v2=$3 sh "$H" >host.out 2>host.err
}
host unified.mounts 1 memory || fail "cgscale-host refused a unified host with memory: $(cat host.err)"
[ -s host.err ] && fail "cgscale-host said something on a good host: $(cat host.err)"
host hybrid.mounts 1 memory && fail "cgscale-host let the cgroup2 job run on a host with v1 memory mounted"
grep -q "memory at /sys/fs/cgroup/memory.*unmount.*systemd.unified_cgroup_hierarchy=1" host.err ||
	fail "cgscale-host's refusal does not say why and what to do: $(cat host.err)"
[ "$(wc -l <host.err)" = 1 ] || fail "cgscale-host's refusal is not one line: $(cat host.err)"
host hybrid.mounts 0 memory && fail "cgscale-host let the sendfile job run without memory on v2"
grep -q "needs the memory controller on cgroup v2.*v2nomem/cgroup.controllers lacks it" host.err ||
	fail "cgscale-host's refusal for memory does not name it: $(cat host.err)"
host hybrid.mounts 0 "" || fail "cgscale-host refused a job that needs nothing: $(cat host.err)"
grep -v cgroup2 unified.mounts >nov2.mounts
host nov2.mounts 0 memory && fail "cgscale-host let a job that needs v2 run on a host without v2"
grep -q "mounts no cgroup v2 hierarchy" host.err || fail "no v2: $(cat host.err)"
for j in cgscale-cgroup2 cgscale-sendfile-protect; do
	# before LKP's cgroup2 setup (<<: cgroup2.yaml) and the test
	awk '/^(<<|cgscale):/ { exit } /^cgscale-host:/ { ok = 1 } END { exit !ok }' "$I/jobs/$j.yaml" ||
		fail "$j.yaml does not run cgscale-host before its other setups and the test"
done
echo "ok: cgscale-host refuses a hybrid or v1-memory host with the reason, passes a unified one"

[ -n "${LKP_SRC:-}" ] || skip "LKP_SRC unset: the LKP program was checked, but not run through lkp-tests (set LKP_SRC=/path/to/lkp-tests; scripts/deps.sh lkp installs what it needs)"
[ -x "$LKP_SRC/bin/run-stats" ] || fail "LKP_SRC=$LKP_SRC has no bin/run-stats"
"$REPO/scripts/deps.sh" lkp >deps.out 2>&1 || skip "scripts/deps.sh lkp could not install LKP's packages: $(tail -n 2 deps.out)"

# a lab's checkout: lkp-tests plus our program and jobs
cp -rs "$(cd "$LKP_SRC" && pwd)" lkp || fail "cannot copy LKP_SRC"
cp -r "$I"/programs/* lkp/programs/ && cp "$I"/jobs/*.yaml lkp/jobs/ || fail "cannot add the program"
L=$T/lkp

# every job file we ship, through LKP's own loader: each value as written
LKP_SRC=$L ruby - "$I"/jobs/*.yaml >yaml.txt 2>ruby.err <<'RUBY' || fail "LKP's lib/job.rb: $(grep -v warning ruby.err | tail -n 5)"
require "#{ENV['LKP_SRC']}/lib/job"
def scalars(node, path, out)
  case node
  when Psych::Nodes::Mapping
    node.children.each_slice(2) { |k, v| scalars(v, path + [k.value], out) unless k.value == '<<' }
  when Psych::Nodes::Sequence
    node.children.each_with_index { |v, i| scalars(v, path + [i], out) }
  when Psych::Nodes::Scalar
    out << [path, node.value]
  end
  out
end
n = 0
ARGV.each do |f|
  job = Job.new
  job.load(f, expand_template: true)
  h = job.to_hash
  scalars(Psych.parse_file(f).root, [], []).each do |path, raw|
    got = path.reduce(h) { |o, k| o.nil? ? nil : o[k] }
    n += 1
    puts "#{File.basename(f)}: #{path.join('.')}: written #{raw.inspect}, LKP reads #{got.inspect}" if got.to_s != raw
  end
end
warn "values: #{n}"
RUBY
[ ! -s yaml.txt ] || fail "LKP's YAML loader changes job values: $(head -n 5 yaml.txt)"
grep -q 'values: [1-9][0-9]' ruby.err || fail "the loader check read too few values: $(grep values ruby.err)"

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
	# LKP's parse leaves the disturbed runs out, as compare does
	want=$(jq --arg m $m '[.points[] | select(.mode == $m and .status == "ok" and ((.disturbed // []) | length) == 0)
		| .summary.per_task_ops_per_sec] | if length == 0 then null else add / length | floor end' $R)
	got=$(jq --arg k cgscale.$key '.[$k][0]' rr/cgscale.json)
	[ "$got" = "$want" ] || fail "LKP's cgscale.$key is $got, the file's $want"
done
jq -e 'has("cgscale.scalability") and has("cgscale.2.processes") and has("cgscale.2.threads")
	and (keys | map(select(startswith("cgscale.process.memory.stat."))) | length > 0)
	and (keys | map(select(startswith("cgscale.thread.memory.stat."))) | length > 0)' rr/cgscale.json >/dev/null ||
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
grep -q -E "cgroup_set: [\"']?1:memory.min=1G 1:memory.low=1G" split/cgscale-sendfile-protect-*.yaml ||
	fail "sendfile job lost its knobs"
grep -q -E "cgroup_depth: [\"']0,3" split/cgscale-sendfile-protect-*.yaml ||
	fail "sendfile job lost its root-cgroup baseline: $(grep cgroup_depth split/cgscale-sendfile-protect-*.yaml)"
# LKP's job.sh of each job runs cgscale-host before every other setup
for j in split/cgscale-cgroup2-*page_fault2*.yaml split/cgscale-sendfile-protect-*50%*.yaml; do
	LKP_SRC=$L "$L/sbin/job2sh" "$j" >job.sh 2>job2sh.err || fail "job2sh $j: $(tail -n 3 job2sh.err)"
	first=$(grep -o 'run-setup [a-z0-9-]*' job.sh | head -n 1)
	[ "$first" = "run-setup cgscale-host" ] ||
		fail "$(basename "$j")'s job.sh runs $first first, not cgscale-host: $(grep -o 'run-setup [a-z0-9-]*' job.sh | tr '\n' ' ')"
done
echo "PASS: LKP ran our run and parse: cgscale.per_process_ops $(jq '.["cgscale.per_process_ops"][0]' rr/cgscale.json) = the file's; split-job expanded $(ls split | wc -l) jobs"
