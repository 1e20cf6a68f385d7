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
printf '%s\n' "\$A" "\$B" >$T/ab
"\$LKP_SRC/bin/lkp" ncompare -k -j "\$A" -j "\$B" >$T/ncompare.txt 2>$T/ncompare.err
/lkp/benchmarks/cgscale/bin/cgscale compare --keep-disturbed -f lkp --axis workload "\$A" "\$B" >$T/cmp.lkp
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
[ -d "$A/2" ] || fail "the job has no third run in $A: $(ls "$A")"
for r in "$A"/0 "$A"/1 "$A"/2 "$B"/0; do
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
# every row LKP lists: its direction is compare's (higher or lower is
# better) applied to the sign of the change; which rows a noisy machine
# lets through is LKP's business
"$CGSCALE" compare --help | awk '/^metrics:$/ { on = 1; next } on && /^$/ { exit }
	on && /^  [a-z]/ { print $1, (/higher is better/ ? 1 : -1) }' >dirs.txt
while read -r key change got; do
	m=${key#cgscale.}
	m=${m#process.}
	m=${m#thread.}
	case $m in
	per_process_ops | per_thread_ops | [0-9]*.processes | [0-9]*.threads | workload) d=1 ;;
	aux.*) d=1 ;;
	*) d=$(awk -v m="$m" '$1 == m { print $2 }' dirs.txt) ;;
	esac
	[ -n "$d" ] || continue
	want=$(awk -v d="$d" -v c="$change" 'BEGIN { print (d * c < 0 ? "regression" : "improvement") }')
	[ "$got" = "$want" ] || fail "LKP says $got for $key $change%, compare's direction gives $want"
done <dir.txt
# memory.stat deltas (counts over the window: they follow the work done)
# and the idle % beside <N>.processes have no direction, on purpose;
# every other KPI has one
grep ' undefined$' dir.txt |
	grep -v -E '^cgscale\.(((process|thread)\.)?memory\.stat\.|[0-9]+\.(processes|threads)_idle )' >undef
[ ! -s undef ] || fail "KPIs of unknown direction in LKP: $(head -n 5 undef)"
# every metric compare knows has its direction in LKP, in both namings
"$CGSCALE" compare --help | awk '/^metrics:$/ { on = 1; next } on && /^$/ { exit }
	on && /^  [a-z]/ { print $1, (/higher is better/ ? "improvement" : "regression") }' |
	sed 's/^aux\.NAME/aux.rx_bytes/; s/^per_task_ops/per_process_ops/' >metrics.txt
[ "$(wc -l <metrics.txt)" -ge 20 ] || fail "compare --help lists $(wc -l <metrics.txt) metrics"
LKP_SRC=$L ruby - metrics.txt >mdir.txt 2>ruby.err <<'RUBY' || fail "LKP's stats.rb: $(grep -v warning ruby.err | tail -n 5)"
require "#{ENV['LKP_SRC']}/lib/stats"
File.readlines(ARGV[0]).each do |l|
  m, want = l.split
  keys = ["cgscale.#{m}"]
  keys += ["cgscale.process.#{m}", "cgscale.thread.#{m}"] unless m =~ /^(per_process_ops|scalability)$/
  keys.each { |k| got = kpi_stat_direction(k, 10.0); puts "#{k}: #{got}, want #{want}" if got != want }
end
RUBY
[ -s mdir.txt ] && fail "LKP's index-perf gives directions unlike compare's: $(head -n 5 mdir.txt)"

# cgscale compare on the LKP roots: its rows are the LKP stats' names
grep -q '^=====' cmp.lkp || fail "compare -f lkp on the LKP roots printed no block: $(head -n 5 cmp.lkp)"
awk '$1 ~ /^[-+]?[0-9.]+(e[-+]?[0-9]+)?$/ && NF >= 2 { print $NF }' cmp.lkp | sort -u >cmpkeys
grep -q -x cgscale.per_process_ops cmpkeys || fail "compare -f lkp has no cgscale.per_process_ops row: $(head -n 5 cmpkeys)"
# the names LKP's parse printed for the runs (LKP's stats.json drops zeros)
for r in "$A"/0 "$A"/1 "$A"/2; do
	jq -r 'keys[]' "$r/cgscale.json" >>lkpkeys.all
	CGSCALE=$T/root/benchmarks/cgscale/bin/cgscale "$L/programs/cgscale/parse" "$r/cgscale" >parse.out ||
		fail "parse of $r failed"
	sed 's/^/cgscale./; s/: .*//' parse.out >>lkpkeys.all
done
sort -u lkpkeys.all >lkpkeys
comm -23 cmpkeys lkpkeys >unknown
[ ! -s unknown ] || fail "compare -f lkp rows that LKP's stats do not have: $(head -n 5 unknown | tr '\n' ' ')"
grep -q 'cgscale: .*per_task_ops' recipe.log || grep -q 'per_task_ops (ops/s' recipe.log ||
	fail "the recipe's cgscale compare printed no per_task_ops"
echo "PASS: docs/lkp-and-ci.md's LKP recipe ran as written in ${secs}s: cgscale.per_process_ops $(jq '.["cgscale.per_process_ops"]' "$A"/0/stats.json), scalability $(jq '.["cgscale.scalability"]' "$A"/0/stats.json); ncompare -k: per_process_ops $(awk '$1 == "cgscale.per_process_ops" { print $2, $3 }' dir.txt); $(wc -l <cmpkeys) compare -f lkp keys all LKP's"
