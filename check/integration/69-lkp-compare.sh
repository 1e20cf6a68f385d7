#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 69-lkp-compare.sh - `compare --format lkp` against lkp-tests' own
# formatting code: with LKP_SRC set to an lkp-tests checkout, Ruby loads
# its lib/compare.rb and renders the same per-run values of two real runs
# (from `compare -f json`) with Compare.show_group_header,
# show_perf_header, calc_stat_change, show_perf_change and show_stat; the
# group blocks cgscale prints must be byte for byte the same. Without
# LKP_SRC the layout is still checked (keys without spaces, the =====
# block), and the test skips loudly at the end. Needs ruby,
# ruby-activesupport, ruby-git and ruby-tty-command (what lib/compare.rb
# requires) for the LKP part. The job block (each run's LKP stats, from
# export -f lkp-stats) is rendered by compare.rb too. Also: JUnit case names carry the side names. Exit 0 pass, 1 fail, 77 skip.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "jq missing"

for s in base patched-1; do
	"$CGSCALE" run -q -t 1,2 -m process -r 3 -w 0.1 -d 0.3 -i 0.1 -o $s.json page_fault3 \
		>/dev/null 2>run.err || fail "run: $(cat run.err)"
done
"$CGSCALE" compare --keep-disturbed -f lkp base.json patched-1.json >lkp.txt; rc=$?
[ $rc -le 1 ] || fail "compare -f lkp exit $rc"
"$CGSCALE" compare --keep-disturbed -f json --junit j.xml base.json patched-1.json >cmp.json
# JUnit case names carry the side names, not only "B vs A"
grep -q '<testcase classname="cgscale.page_fault3 process tasks=1[^"]*" name="per_task_ops patched-1 (B) vs base (A)"' j.xml ||
	fail "JUnit case names lack the side names: $(grep -m 1 '<testcase' j.xml)"
# our blocks: everything before cgscale's own trailer
sed '/^cgscale compare:/,$d' lkp.txt >ours.txt
grep -q '^=========================================================================================$' ours.txt ||
	fail "no ===== line: $(head -n 3 lkp.txt)"
grep -q "^side/kernel.release: $" ours.txt || fail "no compare-axes block"
keys=$(grep -E '^ .*  cgscale\.[a-z_0-9.-]+$' ours.txt | wc -l)
[ "$keys" -ge 3 ] || fail "expected per_process_ops, min_task_ops, scalability rows: $(cat ours.txt)"
awk '/^ *[-+]?[0-9]/ { print $NF }' ours.txt | grep -v '^cgscale\.[a-z_0-9.-]*$' &&
	fail "awk \$NF does not give the key on every row"
# the rows' keys are the LKP stats' names (LKP's parse prefixes cgscale.)
"$CGSCALE" export --keep-disturbed -f lkp-stats base.json | sed 's/^/cgscale./; s/: .*//' | sort -u >stats.keys
awk '/^ *[-+]?[0-9]/ { print $NF }' ours.txt | sort -u >rows.keys
grep -q -x cgscale.per_process_ops rows.keys || fail "no cgscale.per_process_ops row: $(head -n 5 rows.keys)"
comm -23 rows.keys stats.keys >unknown
[ ! -s unknown ] || fail "compare -f lkp rows that are not LKP stats: $(head -n 5 unknown | tr '\n' ' ')"

# the job block: each file's LKP stats (export -f lkp-stats), key by key;
# an LKP root's run gives the baseline its program recorded beside it
grep -q '^testcase/test:$' ours.txt || fail "no job block: $(head -n 5 ours.txt)"
for k in workload 2.processes 1.processes; do
	grep -q -x "cgscale.$k" rows.keys || fail "the job block has no cgscale.$k row"
done
mkdir -p root/0/cgscale.results root/1/cgscale.results
cp base.json root/0/cgscale.results/result.json && cp patched-1.json root/1/cgscale.results/result.json
echo 1 >root/0/cgscale.results/baseline && echo 1 >root/1/cgscale.results/baseline
"$CGSCALE" compare --keep-disturbed -f lkp root root >self.txt 2>self.err; rc=$?
[ $rc = 0 ] || fail "compare -f lkp of an LKP root against itself: exit $rc $(head -n 3 self.err)"
a=$("$CGSCALE" export --keep-disturbed -f lkp-stats --lkp-baseline 1 base.json | sed -n 's/^per_process_ops: //p')
b=$("$CGSCALE" export --keep-disturbed -f lkp-stats --lkp-baseline 1 patched-1.json | sed -n 's/^per_process_ops: //p')
want=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%d", (a + b) / 2 }')
got=$(awk '$NF == "cgscale.per_process_ops" { print $1; exit }' self.txt)
[ "$got" = "$want" ] || fail "the job block's per_process_ops of the root is $got, LKP's mean of its runs (baseline out) $want"
awk '$NF ~ /^cgscale\./ { for (i = 1; i <= NF; i++) if ($i ~ /^[-+][0-9.e+]+%$/ && $i != "+0.0%" && $i != "-0.0%") print }' self.txt >selfchg
[ ! -s selfchg ] || fail "a root against itself shows a change: $(head -n 3 selfchg)"

[ -n "${LKP_SRC:-}" ] || skip "LKP_SRC unset: the layout was checked, but not against lkp-tests' lib/compare.rb (set LKP_SRC=/path/to/lkp-tests)"
[ -f "$LKP_SRC/lib/compare.rb" ] || fail "LKP_SRC=$LKP_SRC has no lib/compare.rb"
"$REPO/scripts/deps.sh" lkp >deps.out 2>&1 || skip "scripts/deps.sh lkp could not install LKP's packages: $(tail -n 2 deps.out)"

# the job block: each side's run (one file a side here) as LKP stats
for s in base patched-1; do
	"$CGSCALE" export --keep-disturbed -f lkp-stats $s.json >$s.lkp || fail "export -f lkp-stats $s.json"
done
LKP_SRC="$LKP_SRC" ruby - cmp.json base.lkp patched-1.lkp >lkp-ref.txt 2>ruby.err <<'RUBY' || fail "lkp-tests' compare.rb failed: $(tail -n 5 ruby.err)"
require 'json'
require "#{ENV['LKP_SRC']}/lib/compare.rb"
doc = JSON.parse(File.read(ARGV[0]))
axes = doc['environment'].select { |e| e['kind'] == 'axis' }
# the side is named by the kernel's release, the config rows only when alone
axis = axes.find { |e| !e['field'].start_with?('kernel.config.') } || axes.first
labels = doc['sides'].map { |s| s['label'] }
Group = Struct.new(:axes, :compare_axeses, :mresult_roots)
cas = doc['sides'].map do |s|
  h = { 'side' => s['name'] }
  h[axis['field']] = axis['values'][s['label']].tr(' ', ':') if axis
  h
end
# the job block: the runs' LKP stats, key by key, side 0's order; a key
# 0 in every run of every side is counted, not shown
runs = ARGV[1..].map { |f| File.readlines(f).to_h { |l| k, v = l.chomp.split(': ', 2); [k, v.to_f] } }
Compare.show_group_header Group.new({ 'testcase' => 'cgscale', 'test' => doc['points'][0]['test'] }, cas, [])
Compare.show_perf_header labels.size - 1
rows = zero = 0
runs[0].each_key do |k|
  next unless runs.all? { |r| r.key?(k) }
  if runs.all? { |r| r[k] == 0 }
    zero += 1
    next
  end
  stat = { Compare::STAT_KEY => "cgscale.#{k}", Compare::VALUES => runs.map { |r| [r[k]] } }
  Compare.calc_stat_change stat
  Compare.show_perf_change stat
  Compare.show_stat stat
  rows += 1
end
puts "  (the job: each run's LKP stats, as lkp ncompare compares them; #{rows} rows#{zero > 0 ? ", #{zero} more keys 0 in every run of every side" : ''})"
puts
doc['points'].each do |p|
  next unless p['compared']
  axes = { 'testcase' => 'cgscale', 'test' => p['test'], 'mode' => p['mode'], 'nr_task' => p['tasks'].to_s }
  axes['cgroup'] = p['cgroup'].tr(' ', ':') if p['cgroup']
  axes['options'] = p['workload_options'].tr(' ', ':') unless p['workload_options'].to_s.empty?
  metrics = p['sides'][labels[0]]['metrics'].keys.select do |m|
    labels.all? { |l| (p['sides'][l]['metrics'][m] || {})['values'].to_a.any? }
  end
  # a metric 0 in every run of every side: counted, not shown
  zeros, metrics = metrics.partition { |m| labels.all? { |l| p['sides'][l]['metrics'][m]['values'].all?(&:zero?) } }
  next if metrics.empty?
  Compare.show_group_header Group.new(axes, cas, [])
  Compare.show_perf_header labels.size - 1
  metrics.each do |m|
    # the LKP stats' names: cgscale.per_process_ops (one mode here)
    key = m == 'per_task_ops' ? "per_#{p['mode']}_ops" : m
    stat = { Compare::STAT_KEY => "cgscale.#{key}",
             Compare::VALUES => labels.map { |l| p['sides'][l]['metrics'][m]['values'] } }
    Compare.calc_stat_change stat
    Compare.show_perf_change stat
    Compare.show_stat stat
  end
  puts "  (#{zeros.size} more keys are 0 in every run of every side: not shown)" unless zeros.empty?
  puts
end
RUBY
diff -u lkp-ref.txt ours.txt >d.txt || fail "compare -f lkp differs from lkp-tests' lib/compare.rb: $(head -n 30 d.txt)"
echo "PASS: compare -f lkp is byte for byte lkp-tests' lib/compare.rb layout ($(wc -l <ours.txt) lines)"
