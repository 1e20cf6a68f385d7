#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 72-lkp-recipe.sh - docs/lkp-and-ci.md's "cgscale in LKP" step by step,
# exactly as written: the test takes the sh block after the lkp-recipe
# marker out of the page and runs it (bash -e), in a cgscale checkout (a
# git snapshot of this tree at a path that does not end in .git, as
# CGSCALE_GIT), on a fresh clone of LKP_SRC, with RUNTIME=1s. So the
# page's steps are the test's: lkp split-job, lkp install of cgscale
# alone (its PKGBUILD, LKP's makepkg), lkp run three times and once with a
# fixed slowdown, lkp ncompare -k and cgscale compare on the two result
# roots. Then it checks what they left: each run's stats.json has
# cgscale.per_process_ops, per_thread_ops and scalability (the 1-task
# baseline kept out of the means), mode-independent stats per mode; only
# cgscale was built; ncompare -k lists the KPIs and LKP's own
# kpi_stat_direction, with our index-perf lines, calls the slowdown a
# regression and agrees with compare's direction on every row it lists
# and every metric of `compare --help`; compare --format lkp's keys are the
# LKP stats' names. LKP writes to /lkp: the block runs in a private mount
# namespace with a scratch folder bound there; the cgscale-lkp package
# that lkp install installs, the i386 architecture its installer adds,
# and its /tmp files are removed after, when the test made them. Needs
# root and network to Debian's mirror (lkp install runs apt-get).
# Without LKP_SRC it skips loudly. Exit 0 pass, 1 fail, 77 skip.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "jq missing"
[ -n "${LKP_SRC:-}" ] || skip "LKP_SRC unset: docs/lkp-and-ci.md's LKP steps were not run (set LKP_SRC=/path/to/lkp-tests; the test installs ruby and the rest with scripts/deps.sh lkp)"
[ -x "$LKP_SRC/bin/lkp" ] || fail "LKP_SRC=$LKP_SRC has no bin/lkp"
[ "$(id -u)" = 0 ] || skip "not root: lkp install and lkp run need root"
command -v unshare >/dev/null || skip "unshare missing (util-linux)"
dpkg-query -W -f='${Status}' cgscale-lkp 2>/dev/null | grep -q 'ok installed' &&
	skip "the Debian package cgscale-lkp (a lab's lkp install) is installed: the recipe would replace it"

# the page's block, word for word
awk '/<!-- lkp-recipe:/ { want = 1; next }
	want && /^```sh$/ { on = 1; next }
	on && /^```$/ { exit }
	on { print }' "$REPO/docs/lkp-and-ci.md" >block.sh
grep -q 'lkp" install' block.sh && grep -q 'lkp" ncompare' block.sh ||
	fail "no recipe block after the lkp-recipe marker in docs/lkp-and-ci.md: $(head -n 3 block.sh)"

# a cgscale checkout that LKP builds from: this tree, committed
mkdir cg
(cd "$REPO" && git ls-files -co --exclude-standard 2>/dev/null | grep -v -x -e cgscale -e 'build/.*' |
	tar -cf - -T -) | tar -C cg -xf - || fail "cannot copy the tree"
[ -f cg/Makefile ] || fail "the tree is not a git checkout (git ls-files gave nothing)"
(cd cg && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm tree) ||
	fail "cannot commit the snapshot"
# a fresh lkp-tests (the recipe writes into it)
if [ -d "$LKP_SRC/.git" ]; then
	git clone -q "$LKP_SRC" lkp-tests || fail "cannot clone $LKP_SRC"
else
	cp -a "$LKP_SRC" lkp-tests || fail "cannot copy $LKP_SRC"
fi

# what the test must undo: only what was not there before
foreign=$(dpkg --print-foreign-architectures)
made_lkp=0
[ -e /lkp ] || { mkdir /lkp && made_lkp=1; } || fail "cannot make the mount point /lkp"
tmps=""
for f in /tmp/lkp-${USER:-root} /tmp/apt-get_info /tmp/dpkg_error; do
	[ -e "$f" ] || tmps="$tmps $f"
done
ls -d /tmp/lkp-stats.* 2>/dev/null >stats-tmp.before
mkdir root
cleanup() {
	# LKP's run-stats leaves /tmp/lkp-stats.* when a parse fails
	ls -d /tmp/lkp-stats.* 2>/dev/null | grep -v -x -F -f "$T/stats-tmp.before" | xargs -r rm -f
	if dpkg-query -W -f='${Status}' cgscale-lkp 2>/dev/null | grep -q 'ok installed'; then
		unshare -m --propagation private sh -c 'mount --bind "$1" /lkp && dpkg -P cgscale-lkp' \
			sh "$T/root" >/dev/null 2>&1
	fi
	case " $foreign " in
	*" i386 "*) ;;
	*) dpkg --print-foreign-architectures | grep -qx i386 &&
		! dpkg -l | grep -q ':i386 ' && dpkg --remove-architecture i386 ;;
	esac
	[ $made_lkp = 1 ] && rmdir /lkp
	# lkp run leaves bin/event/wakeup waiting on its FIFOs for good; ours
	# are those whose program lies in this test's scratch folder
	for p in /proc/[0-9]*; do
		exe=$(readlink "$p/exe" 2>/dev/null) || continue
		case $exe in "$T"/*) kill "${p#/proc/}" 2>/dev/null ;; esac
	done
	# shellcheck disable=SC2086
	[ -n "$tmps" ] && rm -rf $tmps
	[ -n "${KEEP:-}" ] || rm -rf "$T"
}
trap cleanup EXIT

# the block, then the test's own look at what it made (same shell: A, B)
cat >recipe.sh <<EOF
set -e -x
export LKP_SRC=$T/lkp-tests CGSCALE_GIT=$T/cg RUNTIME=1s
cd $T/cg
. $T/block.sh
set +e
printf '%s\n' "\$A" "\$B" "\$rc" >$T/ab
# the recipe's lkp_run on a job that fails (a bad parameter): it must stop
"\$LKP_SRC/bin/lkp" split-job --no-defaults -s "cgscale.runtime: \$RUNTIME" -s 'cgscale.mode: sideways' "\$LKP_SRC/jobs/cgscale.yaml" >$T/bad-split.log 2>&1
if lkp_run "\$(ls ./cgscale-*sideways*page_fault2.yaml | head -n 1)" >$T/bad-run.log 2>&1; then echo passed; else echo failed; fi >$T/bad-run
# every other shipped job, its first atomic job at \$RUNTIME: remap;
# sendfile-protect, which runs where memory is on v2 and is refused by
# cgscale-host elsewhere; and the default job over two cgroup layouts
# (an -s value with a comma, quoted), whose stats go one set a layout
one() { # NAME JOBFILE GLOB [-s ...]: split, lkp_run the first, note rc and root
	n=\$1 j=\$2 g=\$3; shift 3
	"\$LKP_SRC/bin/lkp" split-job --no-defaults -s "cgscale.runtime: \$RUNTIME" "\$@" "\$LKP_SRC/jobs/\$j" >$T/\$n-split.log 2>&1
	if lkp_run "\$(ls \$g | head -n 1)" >$T/\$n-run.log 2>&1; then echo 0; else echo 1; fi >$T/\$n-rc
	readlink -f result >$T/\$n-root
}
one remap cgscale-remap.yaml './cgscale-remap-*.yaml'
one sendfile cgscale-sendfile-protect.yaml './cgscale-sendfile-protect-*50%*.yaml' -s 'cgscale.runs: 1'
one layouts cgscale.yaml './cgscale-0_1-both-*page_fault2.yaml' -s "cgscale.cgroup_depth: '0,1'"
# the cgroup2 job on a host with v1 memory (a stub mount table, whatever
# this box is): cgscale-host refuses it before LKP's cgroup2 setup (a stub
# that leaves a mark, in this scratch lkp-tests) runs
printf 'cgroup /sys/fs/cgroup/memory cgroup rw,relatime,memory 0 0\n' >$T/hybrid.mounts
printf '#!/bin/sh\ntouch $T/cgroup2-touched\nexit 1\n' >"\$LKP_SRC/programs/cgroup2/setup"
"\$LKP_SRC/bin/lkp" split-job --no-defaults -s "cgscale.runtime: \$RUNTIME" "\$LKP_SRC/jobs/cgscale-cgroup2.yaml" >$T/cg2-split.log 2>&1
if CGSCALE_HOST_MOUNTS=$T/hybrid.mounts lkp_run "\$(ls ./cgscale-cgroup2-*page_fault2*.yaml | head -n 1)" >$T/cg2-run.log 2>&1; then echo passed; else echo failed; fi >$T/cg2-run
"\$LKP_SRC/bin/lkp" ncompare -k -j "\$A" -j "\$B" >$T/ncompare.txt 2>$T/ncompare.err
/lkp/benchmarks/cgscale/bin/cgscale compare --keep-disturbed -f lkp --axis workload "\$A" "\$B" >$T/cmp.lkp
/lkp/benchmarks/cgscale/bin/cgscale compare -f lkp --axis workload "\$A" "\$B" >$T/cmpjob.lkp
/lkp/benchmarks/cgscale/bin/cgscale compare -f lkp "\$A" "\$A" >$T/cmpself.lkp
EOF
start=$(date +%s)
unshare -m --propagation private sh -c 'mount --bind "$1" /lkp && exec bash "$2"' sh "$T/root" "$T/recipe.sh" \
	>recipe.log 2>&1 || fail "the recipe stopped: $(grep -v -e 'warning: ' -e ' WARN -- ' recipe.log | tail -n 15)"
secs=$(($(date +%s) - start))
L=$T/lkp-tests
# lkp install built cgscale and nothing else
[ "$(ls root/benchmarks)" = cgscale ] || fail "lkp install made /lkp/benchmarks/$(ls root/benchmarks | tr '\n' ' ')"
built=$(sed -n 's/^==> Making package: \([^ ]*\) .*/\1/p' recipe.log | sort -u | tr '\n' ' ')
[ "$built" = "cgscale " ] || fail "lkp install built: $built"
[ -x root/benchmarks/cgscale/bin/cgscale ] || fail "no /lkp/benchmarks/cgscale/bin/cgscale"

# every run's stats
A=$T/root$(sed -n 1p ab | sed 's|^/lkp||')
B=$T/root$(sed -n 2p ab | sed 's|^/lkp||')
[ -d "$A/3" ] && [ -d "$B/3" ] || fail "a job has fewer than 4 runs: $(ls "$A") and $(ls "$B")"
# the recipe's compare decides at 4 runs a side: B regressed (exit 1), or
# a busy box's disturbed runs were left out and too few are left (exit 4)
crc=$(sed -n 3p ab)
[ "$crc" = 1 ] || { [ "$crc" = 4 ] && grep -q 'disturbed' recipe.log; } ||
	fail "the recipe's cgscale compare exit $crc, not 1 (REGRESSION): $(grep -A 3 'per_task_ops' recipe.log | tail -n 8)"
# lkp_run stops on a job that failed, naming its last_state
[ "$(cat bad-run)" = failed ] && grep -q "failed:.*exit_code" bad-run.log ||
	fail "the recipe's lkp_run passed a failed job: $(cat bad-run) $(tail -n 3 bad-run.log)"
# the other shipped jobs: remap's stats under stress-ng's name; the two
# layouts one set of stats each; sendfile-protect ran where memory is on
# v2 (its Throughput_Mbps per depth), else was refused with the reason
root() { echo "$T/root$(sed 's|^/lkp||' "$1-root")"; }
[ "$(cat remap-rc)" = 0 ] || fail "the remap job failed: $(tail -n 5 remap-run.log)"
jq -e '(.["cgscale.remap.ops_per_sec"] > 0) or (.["cgscale.disturbed_runs"] > 0)' "$(root remap)/stats.json" >/dev/null ||
	fail "the remap job's stats lack remap.ops_per_sec: $(jq -c 'keys' "$(root remap)/stats.json" | cut -c 1-300)"
[ "$(cat layouts-rc)" = 0 ] || fail "the two-layout job failed: $(tail -n 5 layouts-run.log)"
# (a layout's key is its name: depth-0 has no leaf, depth-1_leaf-shared)
jq -e '(has("cgscale.depth-0.per_process_ops") and has("cgscale.depth-1_leaf-shared.per_process_ops")
	and (has("cgscale.per_process_ops") | not)) or (keys | map(select(test("disturbed_runs"))) | length > 0)' \
	"$(root layouts)/stats.json" >/dev/null ||
	fail "the two-layout job's stats are not one set a layout (was the quoted 0,1 read as 1?): $(jq -c 'keys' "$(root layouts)/stats.json" | cut -c 1-400)"
if cgroup_v2=memory sh "$REPO/integrations/lkp/programs/cgscale-host/setup" 2>host.err; then
	[ "$(cat sendfile-rc)" = 0 ] || fail "sendfile-protect failed on a host with memory on v2: $(tail -n 5 sendfile-run.log)"
	jq -e '(has("cgscale.depth-0.Throughput_Mbps") and has("cgscale.depth-3_leaf-shared.Throughput_Mbps"))
		or (keys | map(select(test("disturbed_runs"))) | length > 0)' "$(root sendfile)/stats.json" >/dev/null ||
		fail "sendfile-protect's stats lack Throughput_Mbps per depth: $(jq -c keys "$(root sendfile)/stats.json" | cut -c 1-400)"
	sendfile="ran, Throughput_Mbps per depth"
else
	[ "$(cat sendfile-rc)" = 1 ] && grep -q "failed:.*setup.cgscale-host.exit_code.1" sendfile-run.log &&
		grep -q "needs the memory controller on cgroup v2" sendfile-run.log ||
		fail "sendfile-protect on a host without memory on v2 was not refused by cgscale-host: $(tail -n 5 sendfile-run.log)"
	sendfile="refused: no memory on v2 here"
fi
# the cgroup2 job refused on a v1-memory host, before LKP's cgroup2 setup
[ "$(cat cg2-run)" = failed ] && grep -q "failed:.*setup.cgscale-host.exit_code.1" cg2-run.log ||
	fail "the cgroup2 job was not refused by cgscale-host: $(cat cg2-run) $(tail -n 5 cg2-run.log)"
[ -e cgroup2-touched ] && fail "LKP's cgroup2 setup ran before cgscale-host refused the host"
for r in "$A"/0 "$A"/1 "$A"/2 "$A"/3 "$B"/0 "$B"/3; do
	s=$r/stats.json
	# (a busy box's disturbed runs are left out: a key may go, said by
	# cgscale.disturbed_runs)
	jq -e '((.["cgscale.per_process_ops"] > 0) and (.["cgscale.per_thread_ops"] > 0)
		and (.["cgscale.scalability"] > 0) and (.["cgscale.1.processes"] > 0)
		and (.["cgscale.2.threads"] > 0)) or (.["cgscale.disturbed_runs"] > 0)' "$s" >/dev/null ||
		fail "$s lacks cgscale.per_process_ops, per_thread_ops, scalability: $(jq -c 'with_entries(select(.key | startswith("cgscale.")))' "$s" | cut -c 1-400)"
	# both modes: the mode-independent stats per mode, never one mean
	# (which ones a run has depends on the run: LKP drops zeros)
	jq -e '(keys | map(select(test("^cgscale\\.(min_task_ops|memory\\.stat\\.|sys_us_per_op|user_us_per_op|proc-vmstat\\.)"))) | length == 0)
		and (keys | map(select(startswith("cgscale.process."))) | length > 0)
		and (keys | map(select(startswith("cgscale.thread."))) | length > 0)' "$s" >/dev/null ||
		fail "$s averages the modes: $(jq -c 'keys | map(select(startswith("cgscale.")))' "$s" | cut -c 1-400)"
	# per_process_ops: the job's 2-task points, not the added baseline,
	# nor its disturbed runs (left out, as compare leaves them out)
	want=$(jq '[.points[] | select(.mode == "process" and .tasks == 2 and .status == "ok"
		and ((.disturbed // []) | length) == 0)
		| .summary.per_task_ops_per_sec] | if length == 0 then null else add / length | floor end' \
		"$r/cgscale.results/result.json")
	[ "$(jq '.["cgscale.per_process_ops"]' "$s")" = "$want" ] ||
		fail "$s: per_process_ops $(jq '.["cgscale.per_process_ops"]' "$s"), the 2-task points' $want"
done

# ncompare -k: the KPIs, with LKP's own idea of their direction
grep -q 'cgscale\.per_process_ops$' ncompare.txt ||
	fail "ncompare -k does not list cgscale.per_process_ops: $(grep -v -e warning -e WARN ncompare.txt ncompare.err | tail -n 15)"
LKP_SRC=$L ruby - ncompare.txt >dir.txt 2>ruby.err <<'RUBY' || fail "LKP's stats.rb: $(grep -v warning ruby.err | tail -n 5)"
require "#{ENV['LKP_SRC']}/lib/stats"
File.readlines(ARGV[0]).each do |l|
  next unless l =~ /\s([-+][0-9.]+)%\s.*\s(cgscale\.\S+)$/
  puts "#{$2} #{$1} #{kpi_stat_direction($2, $1.to_f)}"
end
RUBY
# the KPIs: B is slower by construction (200 us of wall-clock busy-wait
# per op caps it at 5000 ops/s a task), so they must be listed, down, and
# LKP must call that a regression
for k in per_process_ops per_thread_ops; do
	grep -q "^cgscale\.$k -[0-9.]* regression$" dir.txt ||
		fail "LKP's direction of cgscale.$k is not a regression: $(grep "cgscale\.$k " dir.txt || echo 'no row')"
done
# the stats with no direction on purpose (integrations/lkp/etc/
# index-perf-all.yaml says why): the scalability (a fallen 1-task baseline
# raises it), the machine's counters, memory.stat deltas, the run's health
undirected() {
	case $1 in
	scalability | proc-vmstat.* | psi.* | rstat_* | who.kworker | who.kswapd | who.softirq | who.others | \
		memory.stat.* | [0-9]*.processes_idle | [0-9]*.threads_idle | disturbed_runs | failed_points | \
		profile_skew_pct | perf-profile.*) return 0 ;;
	esac
	return 1
}
# a key without cgscale., its layout ("depth-3_leaf-shared.") and its mode
bare() {
	m=${1#cgscale.}
	case $m in depth-*) m=${m#*.} ;; esac
	m=${m#process.}
	m=${m#thread.}
	echo "$m"
}
# every row LKP lists: its direction is compare's (higher or lower is
# better) applied to the sign of the change, or none for the undirected;
# which rows a noisy machine lets through is LKP's business
"$CGSCALE" compare --help | awk '/^metrics:$/ { on = 1; next } on && /^$/ { exit }
	on && /^  [a-z]/ { print $1, (/higher is better/ ? 1 : -1) }' >dirs.txt
while read -r key change got; do
	m=$(bare "$key")
	if undirected "$m"; then
		[ "$got" = undefined ] || fail "LKP gives $key a direction ($got), which it must not have"
		continue
	fi
	case $m in
	per_process_ops | per_thread_ops | [0-9]*.processes | [0-9]*.threads | workload | Throughput_Mbps | remap.ops_per_sec) d=1 ;;
	aux.*) d=1 ;;
	*) d=$(awk -v m="$m" '$1 == m { print $2 }' dirs.txt) ;;
	esac
	[ -n "$d" ] || fail "LKP lists $key ($got), a stat 72 knows no direction of"
	want=$(awk -v d="$d" -v c="$change" 'BEGIN { print (d * c < 0 ? "regression" : "improvement") }')
	[ "$got" = "$want" ] || fail "LKP says $got for $key $change%, compare's direction gives $want"
done <dir.txt
# every metric compare knows: LKP's direction is compare's, in both
# namings and under a layout, or none for the undirected
"$CGSCALE" compare --help | awk '/^metrics:$/ { on = 1; next } on && /^$/ { exit }
	on && /^  [a-z]/ { print $1, (/higher is better/ ? "improvement" : "regression") }' |
	sed 's/^aux\.NAME/aux.rx_bytes/; s/^per_task_ops/per_process_ops/; s/NAME/x/' >metrics.raw
[ "$(wc -l <metrics.raw)" -ge 20 ] || fail "compare --help lists $(wc -l <metrics.raw) metrics"
while read -r m want; do
	if undirected "$m"; then echo "$m undefined"; else echo "$m $want"; fi
done <metrics.raw >metrics.txt
grep -q '^scalability undefined$' metrics.txt || fail "compare --help lists no scalability: $(head -n 3 metrics.txt)"
LKP_SRC=$L ruby - metrics.txt >mdir.txt 2>ruby.err <<'RUBY' || fail "LKP's stats.rb: $(grep -v warning ruby.err | tail -n 5)"
require "#{ENV['LKP_SRC']}/lib/stats"
File.readlines(ARGV[0]).each do |l|
  m, want = l.split
  keys = ["cgscale.#{m}", "cgscale.depth-3_leaf-shared.#{m}"]
  keys += ["cgscale.process.#{m}", "cgscale.thread.#{m}", "cgscale.depth-0_leaf-shared.thread.#{m}"] unless m =~ /^(per_process_ops|scalability)$/
  keys.each { |k| got = kpi_stat_direction(k, 10.0); puts "#{k}: #{got}, want #{want}" if got != want }
end
RUBY
[ -s mdir.txt ] && fail "LKP's index-perf gives directions unlike compare's: $(head -n 5 mdir.txt)"

# cgscale compare on the LKP roots: its rows are the LKP stats' names
grep -q '^=====' cmp.lkp || fail "compare -f lkp on the LKP roots printed no block: $(head -n 5 cmp.lkp)"
awk '$1 ~ /^[-+]?[0-9.]+(e[-+]?[0-9]+)?$/ && NF >= 2 { print $NF }' cmp.lkp | sort -u >cmpkeys
grep -q -x cgscale.per_process_ops cmpkeys || fail "compare -f lkp has no cgscale.per_process_ops row: $(head -n 5 cmpkeys)"
# the names LKP's parse printed for the runs (LKP's stats.json drops zeros)
for r in "$A"/0 "$A"/1 "$A"/2 "$A"/3 "$B"/0 "$B"/1 "$B"/2 "$B"/3; do
	jq -r 'keys[]' "$r/cgscale.json" >>lkpkeys.all
	CGSCALE=$T/root/benchmarks/cgscale/bin/cgscale "$L/programs/cgscale/parse" "$r/cgscale" >parse.out ||
		fail "parse of $r failed"
	sed 's/^/cgscale./; s/: .*//' parse.out >>lkpkeys.all
done
sort -u lkpkeys.all >lkpkeys
comm -23 cmpkeys lkpkeys >unknown
[ ! -s unknown ] || fail "compare -f lkp rows that LKP's stats do not have: $(head -n 5 unknown | tr '\n' ' ')"
# the job block holds LKP's own stats of the runs: will-it-scale's
# workload and <N>.processes too, and LKP's values (the mean of the runs)
for k in workload 2.processes 1.processes per_thread_ops; do
	grep -q -x "cgscale.$k" cmpkeys || fail "compare -f lkp has no cgscale.$k row: $(grep -A 12 '^testcase/test:$' cmp.lkp)"
done
for k in workload 2.processes; do
	got=$(awk -v k="cgscale.$k" '$NF == k { print $1; exit }' cmpjob.lkp)
	want=$(jq -s --arg k "cgscale.$k" '[.[] | .[$k] | select(. != null)] |
		if length == 4 then add / length | floor else "n/a" end' "$A"/0/stats.json "$A"/1/stats.json "$A"/2/stats.json "$A"/3/stats.json)
	[ "$want" = '"n/a"' ] || [ "$got" = "$want" ] ||
		fail "compare -f lkp's cgscale.$k of A is $got, the mean of LKP's stats.json $want"
done
# a root against itself: no change on any row
awk '$NF ~ /^cgscale\./ { for (i = 1; i <= NF; i++) if ($i ~ /^[-+][0-9.e+]+%$/ && $i != "+0.0%" && $i != "-0.0%") print }' cmpself.lkp >selfchg
[ ! -s selfchg ] || fail "compare -f lkp of a root against itself shows a change: $(head -n 3 selfchg)"
grep -q 'cgscale\.workload$' cmpself.lkp || fail "compare -f lkp of a root against itself printed no job block: $(head -n 5 cmpself.lkp)"
grep -q 'cgscale: .*per_task_ops' recipe.log || grep -q 'per_task_ops (ops/s' recipe.log ||
	fail "the recipe's cgscale compare printed no per_task_ops"
echo "PASS: docs/lkp-and-ci.md's LKP recipe ran as written in ${secs}s; remap ran, two layouts one set of stats each, sendfile-protect $sendfile, cgroup2 refused on a v1-memory host; cgscale.per_process_ops $(jq '.["cgscale.per_process_ops"]' "$A"/0/stats.json), scalability $(jq '.["cgscale.scalability"]' "$A"/0/stats.json); ncompare -k: per_process_ops $(awk '$1 == "cgscale.per_process_ops" { print $2, $3 }' dir.txt); $(wc -l <cmpkeys) compare -f lkp keys all LKP's"
