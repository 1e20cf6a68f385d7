#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 92-why-profile.sh - compare's profile in ns/op on a known injection:
# page_fault1 against page_fault1 --pf1-spin 500 (tests/spin.h: a busy
# wait of 500 ns per op, paid 64 ops at a time, timed with the vDSO's
# clock), 4 runs a side, both profiled at 499 Hz (at 1999 Hz an AMD PVM
# guest's cpu-clock samples leaned toward user mode, perf's own alike:
# the spin's frames read +840 ns/op; at 499 Hz +504).
#   - the spin's frames (the clock it reads: __vdso_clock_gettime, the
#     vDSO's unnamed helpers as [vdso], libc's clock_gettime; pf1_loop,
#     where cgs_spin is inlined) together changed by 500 ns/op within 150 +
#     4 sampling errors of their sum (the profile's own Poisson error of
#     each frame, combined); where that is too wide to tell 500 from 0,
#     the test says so. Why 500: the spin burns CPU until the clock says
#     64 x 500 ns have passed, so it adds 500 ns/op of user time unless a
#     spin is preempted (150 allows for that on a loaded machine), and a
#     user-mode sample is never moved by a clock event's skew (user mode
#     runs with interrupts on);
#   - the profile's split of the user change against the kernel's, both
#     ways on these runs (each run's user-mode samples set to the kernel's
#     user share: they agree; half as many again: the block warns that the
#     samples lean and stops preferring them); where the real runs' samples
#     lean (an AMD PVM guest at 1999 Hz: 24-39% of the samples in user
#     mode per run where the ticks said 21-26%, perf's own samples at that
#     rate leaning alike, at 499 Hz not), the frames' and
#     the fault path's ns/op checks are said not to be checkable here;
#   - the "where the time went" block ranks no function at 4 runs a side
#     (Mann-Whitney over ~40 functions cannot be significant after BH) and
#     says so; with --welch the first function it lists, when it lists
#     any, is a spin frame, no interrupt-enable site of a skewed profile
#     is listed, and the first spin frame's CI lies above +100 ns/op where
#     its change is over 4 sampling errors;
#   - the user part of the change is +300..+800 ns/op (or 500 +- 3
#     errors, the wider) where the split can see it (its error of the
#     change, the split's or the runs', at most 125 ns/op): the profile's split by its user-mode samples where the block
#     prefers it (finer than the kernel's), else the account's; else the
#     block names the split's source and its error
#     (CONFIG_TICK_CPU_ACCOUNTING: a user change within about two errors
#     of 0 is not seen) and the test says so;
#   - the self times of all the functions add up to the CPU time's
#     change (the runner drops symbols under 0.1% of the samples: 5% of
#     the base's CPU time allowed), and the explaining line says it;
#   - the kernel's page fault handling with all it calls (children of
#     asm_exc_page_fault), work the spin does not touch: its share of the
#     samples did not rise beyond 3 errors of the runs' spread, and fell
#     where the spin's expected fall is over 3 of them; its time per op
#     moved by at most 15% (or 3 sampling errors), and it is not SHRANK;
#   - compare --html: the ranked table and the flame graph in ns/op;
#   - against perf: `perf record -e cpu-clock -F 499 -g` (the rate of the
#     runs: on a guest whose samples lean, they lean with the rate) of the
#     new side's first run; perf's self share (`perf script`: the leaf
#     frames of the task's samples, an unnamed vDSO address as [vdso]) of
#     each of compare's 3 biggest functions is cgscale's own share in
#     that run within 3 percentage points, or 4 binomial errors of the two
#     samplers where wider (perf also samples the warm-up and the task's
#     start and end; the shares of a skewed profile move from run to run,
#     so the mean of the 4 is not perf's run). Skips that part loudly where
#     perf cannot record.
# The runs use $CGSCALE; compare, its HTML and export run under
# $CGSCALE_SAN too (the sanitizers over the analysis).
. "$(dirname "$0")/lib.sh"
d=$T
[ -r /proc/sys/kernel/perf_event_paranoid ] || skip "this kernel has no perf_event support"
[ "$(id -u)" = 0 ] || skip "needs root for kernel samples"
command -v jq >/dev/null || skip "jq missing"
SAN=${CGSCALE_SAN:-$CGSCALE}

# A and B interleaved, one run each at a time, 4 a side: the box's drift
# between sittings (its load, the host's) falls within each side, where
# the errors see it, instead of between them
run="-q -t 1 -m process -r 1 -w 300ms -d 3s -i 500ms --profile=499 page_fault1"
mkdir "$d/A" "$d/B" || fail "mkdir"
perfok=
for i in 1 2 3 4; do
	# shellcheck disable=SC2086
	"$CGSCALE" run $run -o "$d/A/$i.json" >/dev/null 2>"$d/err" || { cat "$d/err"; fail "base run exited $?"; }
	if [ "$i" = 1 ] && command -v perf >/dev/null && perf record -q -e cpu-clock -F 499 -g -o "$d/p.data" -- \
		"$CGSCALE" run $run --pf1-spin 500 -o "$d/B/$i.json" >/dev/null 2>"$d/err"; then
		perfok=1
		continue
	fi
	[ "$i" = 1 ] && echo "perf record did not work here: $(tail -n 2 "$d/err" | tr '\n' ' ')" >&2
	rm -f "$d/B/$i.json"
	# shellcheck disable=SC2086
	"$CGSCALE" run $run --pf1-spin 500 -o "$d/B/$i.json" >/dev/null 2>"$d/err" ||
		{ cat "$d/err"; fail "spin run exited $?"; }
done
# each side's runs in one document, for the figures read here with jq
jq -s '{points: map(.points[])}' "$d"/A/*.json >"$d/a.json"
jq -s '{points: map(.points[])}' "$d"/B/*.json >"$d/b.json"
# --keep-disturbed: a busy machine may mark runs; the injection is large
for b in "$CGSCALE" "$SAN"; do
	"$b" compare --keep-disturbed --axis workload -f json "$d/A" "$d/B" >"$d/c.json"
	[ $? -le 1 ] || fail "$b compare -f json failed"
done
"$SAN" compare --keep-disturbed --axis workload "$d/A" "$d/B" >"$d/c.txt"
"$SAN" compare --keep-disturbed --axis workload --html "$d/c.html" "$d/A" "$d/B" \
	>/dev/null 2>"$d/html.err"
[ $? -le 1 ] || fail "compare --html: $(cat "$d/html.err")"
jq_check "$d/c.json" '.profile_ns.points | length == 1' "no point in ns/op: $(jq -c '.profile_ns' "$d/c.json" | head -c 300)"
P='.profile_ns.points[0]'
w='.points[0].where_the_time_went[0]'
jq -r "$P | \"CPU \\(.base.cpu_ns_per_op) -> \\(.new.cpu_ns_per_op), user \\(.base.user_ns_per_op) -> \\(.new.user_ns_per_op)\"" "$d/c.json"
jq -r "$P.functions[0:6][] | \"\\(.self.change_ns_per_op) +-\\(.self.sampling_se) \\(.self.verdict) \\(.function)\"" "$d/c.json"
spin='^(__vdso_clock_gettime|clock_gettime|__clock_gettime.*|pf1_loop|\[vdso\])$'
skewed=$(jq "[.points[].profile.skew.skewed] | any" "$d/b.json")
sites=$(jq -c "[.points[].profile.skew.sites[]] | unique" "$d/b.json")

# 0. the two splits of the user change checked against each other, both
# ways on these runs whatever the box: each run's user-mode samples set
# to its kernel's user share, they agree; half as many again on the new
# side, the block says the samples lean and no longer prefers them
share='.points |= map(.profile.samples as $s | ($s.user + $s.kernel) as $n |
	(.account.user_ns_per_op / (.account.user_ns_per_op + .account.sys_ns_per_op)) as $u |
	.profile.samples.user = (($n * $u * $k) | round) | .profile.samples.kernel = $n - .profile.samples.user)'
for v in A:1 B:1 L:1.5; do
	mkdir -p "$d/${v%%:*}2"
	for f in "$d/$( [ "${v%%:*}" = A ] && echo A || echo B)"/*.json; do
		jq --argjson k "${v#*:}" "$share" "$f" >"$d/${v%%:*}2/${f##*/}" || fail "jq $f"
	done
done
"$CGSCALE" compare --keep-disturbed --axis workload -f json "$d/A2" "$d/B2" >"$d/s1.json"
"$CGSCALE" compare --keep-disturbed --axis workload -f json "$d/A2" "$d/L2" >"$d/s2.json"
"$CGSCALE" compare --keep-disturbed --axis workload "$d/A2" "$d/L2" >"$d/s2.txt"
jq_check "$d/s1.json" "$w.user_sys_split.profile | .biased == false and .apart_errors < 0.5" \
	"samples spread as the kernel's split were called biased: $(jq -c "$w.user_sys_split" "$d/s1.json")"
jq_check "$d/s2.json" "$w.user_sys_split.profile | .biased and .preferred == false and .apart_errors > 3" \
	"user-mode samples 1.5 times the kernel's share were not called biased: $(jq -c "$w.user_sys_split" "$d/s2.json")"
grep -q "WARNING: [0-9.]* errors from the kernel's split .*user-mode functions read high" "$d/s2.txt" ||
	fail "the text does not warn of the leaning samples: $(grep 'by the profile' "$d/s2.txt")"

# 1. the spin's frames hold the spin's time, within the profile's error,
# where the samples are spread as the CPU time is (said by 0's check on
# the real runs; where they are not, the block warns of it)
sum=$(jq --arg re "$spin" "[$P.functions[] | select(.function | test(\$re)) | .self.change_ns_per_op] | add" "$d/c.json")
se=$(jq --arg re "$spin" "[$P.functions[] | select(.function | test(\$re)) | .self.sampling_se | . * .] | add | sqrt" "$d/c.json")
echo "the spin's frames: $sum +- $se ns/op of self time (1 sampling error); profile skewed: $skewed $sites"
biased=$(jq "$w.user_sys_split.profile.biased" "$d/c.json")
lean=$(jq -r "if $w.user_sys_split.profile.user_change_ns_per_op > $w.parts[0].change then \"user\" else \"kernel\" end" "$d/c.json")
if [ "$biased" = true ]; then
	grep -q "WARNING: [0-9.]* errors from the kernel's split" "$d/c.txt" ||
		fail "the samples lean ($(jq -c "$w.user_sys_split.profile" "$d/c.json")) but the text does not warn"
	not_here "the spin's 500 ns/op in its frames: this box's samples lean ($(jq -c "$w.user_sys_split.profile | [.user_change_ns_per_op, .apart_errors]" "$d/c.json"), the kernel's split $(jq "$w.parts[0].change" "$d/c.json")): the frames hold $sum"
elif awk -v se="$se" 'BEGIN { exit !(150 + 4 * se < 500) }'; then
	awk -v s="$sum" -v se="$se" 'BEGIN { d = s - 500; if (d < 0) d = -d; exit !(d <= 150 + 4 * se) }' ||
		fail "the spin's frames changed by $sum ns/op, want 500 +- (150 + 4 x $se)"
else
	not_here "the spin's 500 ns/op in its frames: the profile's error of their sum is $se ns/op at these samples, too wide to tell it from none"
fi
# the block ranks a function only where its change is significant over
# the functions (BH): at 4 runs a side Mann-Whitney's p (0.029 at best)
# cannot be, over ~40 functions, so the block says none holds; with
# --welch the spin's frames can
"$SAN" compare --keep-disturbed --axis workload --welch -f json "$d/A" "$d/B" >"$d/w.json"
jq_check "$d/c.json" "$w.functions | length == 0" \
	"at 4 runs a side (Mann-Whitney) the block ranks functions: $(jq -c "[$w.functions[].name]" "$d/c.json")"
grep -q "functions (sampled on [^)]*): no function's change holds across the runs at this noise" "$d/c.txt" ||
	fail "the block does not say that no function's change holds"
first=$(jq -r "$w.functions[0].name // empty" "$d/w.json")
if [ -n "$first" ]; then
	echo "$first" | grep -Eq "$spin" || fail "with --welch the block lists $first first, not a frame of the spin loop"
else
	not_here "with --welch the block ranks no function (none of their changes is significant over the functions)"
fi
if [ "$skewed" = true ]; then
	jq -e --argjson s "$sites" "[$w.functions[]?.name] - (\$s) == [$w.functions[]?.name]" "$d/w.json" >/dev/null ||
		fail "an interrupt-enable site of a skewed profile ($sites) is ranked as a cause"
	grep -q "skew" "$d/c.txt" || fail "the profile is skewed ($sites) but compare's text does not say so"
fi
top=$(jq -r --arg re "$spin" "[$P.functions[] | select(.function | test(\$re))] | sort_by(-.self.change_ns_per_op) | .[0].function" "$d/c.json")
awk -v t="$top" '$1 ~ /^[-+]?[0-9]/ && $NF == t { f = 1 } END { exit !f }' "$d/c.txt" ||
	fail "the text has no row of $top"

# the verdict's interval, from the per-run ns/op, lies well above 0 (with
# Welch's t: 4 runs a side are too few for Mann-Whitney's p over ~60
# functions, and the text says so) where its change is over 4 errors
fs="$P.functions[] | select(.function == \"$top\") | .self"
if jq -e "$fs | .change_ns_per_op > 100 + 4 * .sampling_se" "$d/w.json" >/dev/null; then
	jq_check "$d/w.json" "$fs | .ci[0] > 100 and (.verdict == \"GREW\" or .verdict == \"INCONCLUSIVE\")" \
		"with --welch the spin's frame $top has no CI above +100 ns/op: $(jq -c "$fs" "$d/w.json")"
else
	not_here "the CI of $top under --welch: its change is within 4 sampling errors of +100 ($(jq -c "$fs | [.change_ns_per_op, .sampling_se]" "$d/w.json"))"
fi
grep -q "^  (with 4 and 4 runs Mann-Whitney's p is at least 0.029" "$d/c.txt" ||
	fail "no note that 4 runs a side cannot decide: $(grep -A16 '^page_fault1' "$d/c.txt" | tail -n 3)"

# the user part: seen where the split can see it, else said; the
# profile's split (its user-mode samples) where the block prefers it
user=$(jq "$w.parts[] | select(.name == \"user\") | .change" "$d/c.json")
use=$(user_change_se "$d/a.json" "$d/b.json")
by=$(jq -r '.points[0].account.split | "\(.by) (\(.config))"' "$d/a.json")
jq_check "$d/c.json" "$w.user_sys_split.profile | .user_change_se_ns_per_op > 0 and (.preferred | type) == \"boolean\"" \
	"both sides were profiled, but the block gives no split by the profile's samples: $(jq -c "$w.user_sys_split" "$d/c.json")"
grep -q "user/sys by the profile's samples (their user-mode share x the CPU time): user change [-+]" "$d/c.txt" ||
	fail "the text block has no line of the profile's split"
if jq -e "$w.user_sys_split.profile.preferred" "$d/c.json" >/dev/null; then
	user=$(jq "$w.user_sys_split.profile.user_change_ns_per_op" "$d/c.json")
	use=$(jq "$w.user_sys_split.profile.user_change_se_ns_per_op" "$d/c.json")
	by="the profile's samples, finer than the kernel's $by"
fi
echo "the user part of the change: $user +- $use ns/op (split by $by)"
if awk -v se="$use" 'BEGIN { exit !(se <= 125) }'; then
	awk -v u="$user" -v se="$use" 'BEGIN { lo = 500 - 3 * se; hi = 500 + 3 * se
		if (lo > 300) lo = 300; if (hi < 800) hi = 800; exit !(u >= lo && u <= hi) }' ||
		fail "the user part of the change is $user ns/op, not +300..+800 (or 500 +- 3 x $use) (split by $by)"
else
	jq_check "$d/c.json" "$w.user_sys_split | .by == \"$(jq -r '.points[0].account.split.by' "$d/a.json")\" and (.by == \"exact\" or .user_change_se_ns_per_op > 0)" \
		"the block does not name the split's source and error: $(jq -c "$w.user_sys_split" "$d/c.json")"
	grep -q "user/sys: split by " "$d/c.txt" || fail "the text block does not say how user and sys were split"
	not_here "the user part of a 500 ns/op spin: the split (by $by) has an error of $use ns/op here, and the block says so"
fi

# 2. the self times add up to the CPU time's change, and the line says it
jq_check "$d/c.json" "$P | ([.functions[].self.change_ns_per_op] | add) as \$s |
	(.new.cpu_ns_per_op - .base.cpu_ns_per_op) as \$c | (\$s - \$c | fabs) <= 0.05 * .base.cpu_ns_per_op" \
	"the functions' self times do not add up to the CPU time's change"
# (either sign: the vCPUs of a guest change speed between runs, so the
# CPU time's change, and the functions' with it, can read below 0)
grep -q "^  these [0-9]* functions' self time: [-+][0-9.]* +-[0-9.]* of the [-+][0-9.]* ns/op change of CPU time (user + sys)" "$d/c.txt" ||
	fail "no explaining line: $(grep "functions' self time" "$d/c.txt" || grep -A14 '^page_fault1' "$d/c.txt" | tail -n 4)"

# 3. the page fault handling: its share did not rise, its time per op did not move
# (where the samples do not lean: else a kernel function's ns/op is off)
pf=$(jq -r "[$P.functions[] | select(.function == \"asm_exc_page_fault\" or .function == \"exc_page_fault\") | .function][0] // empty" "$d/c.json")
[ -n "$pf" ] || fail "no asm_exc_page_fault or exc_page_fault in the profile"
jq -r "$P.functions[] | select(.function == \"$pf\") | \"$pf with what it calls: \\(.base.children_pct) -> \\(.new.children_pct) % of the samples, \\(.base.children_ns_per_op) -> \\(.new.children_ns_per_op) ns/op, \\(.children.verdict)\"" "$d/c.json"
# its share should fall by about base share x 500 / the new CPU time per
# op; each run's share moves with the vCPU's speed and the skew, so the
# runs' own spread (the SE of each side's mean) says what is a fall
shr='[.points[].profile | . as $p | [.symbols[] | select(.name == $f) | .children][0] // 0 | 100 * . / $p.samples.received]
	| length as $n | (add / $n) as $m | [$m, (map((. - $m) * (. - $m)) | add / ($n - 1)) / $n]'
sa=$(jq -c --arg f "$pf" "$shr" "$d/a.json")
sb=$(jq -c --arg f "$pf" "$shr" "$d/b.json")
cpub=$(jq "$P.new.cpu_ns_per_op" "$d/c.json")
echo "$pf's share per side (mean, variance of the mean): $sa -> $sb"
awk -v a="$sa" -v b="$sb" -v c="$cpub" 'BEGIN { gsub(/[][]/, "", a); gsub(/[][]/, "", b)
	split(a, x, ","); split(b, y, ","); se = sqrt(x[2] + y[2]); want = x[1] * 500 / c; d = y[1] - x[1]
	printf "  change %+.2f points, the spin alone %-.2f, 1 SE %.2f\n", d, -want, se
	if (d > 3 * se) exit 1; if (want > 3 * se && d >= 0) exit 1 }' ||
	fail "$pf: its share of the samples rose, or did not fall where the runs could show the spin's fall, though the spin added user time"
if [ "$biased" = true ]; then
	not_here "$pf's ns/op unmoved: this box's samples lean toward $lean mode (the check 0 saw), so a kernel function's ns/op is off by as much"
else
	jq_check "$d/c.json" "$P.functions[] | select(.function == \"$pf\") |
		((.children.change_ns_per_op | fabs) <= ([0.15 * .base.children_ns_per_op, 3 * .children.sampling_se] | max)) and
		.children.verdict != \"SHRANK\"" "$pf: its ns/op moved, or it was called SHRANK"
fi

# 4. the page: the ranked table and the flame graph in ns/op
grep -qF "<td>$top</td>" "$d/c.html" || fail "no row of $top in the HTML table"
grep -q 'data-unit="ns"' "$d/c.html" || fail "the differential flame graph is not in ns/op"
grep -q "these [0-9]* functions&#39; self time" "$d/c.html" || fail "no explaining line in the HTML"

# 5. against perf
[ -n "$perfok" ] || skip "the ns/op checks passed; PERF CROSS-CHECK NOT RUN: perf record failed here"
if [ "$biased" = true ]; then
	not_here "the perf cross-check: this box's samples lean toward $lean mode, and by a different amount each run (user-mode share of the samples $(jq -c '[.points[].profile.samples | (100 * .user / (.user + .kernel) | floor)]' "$d/b.json") %), so the one run perf sampled cannot stand for the mean of the 4"
	done_here
fi
# each sample's leaf frame, counted per symbol over the task's samples (perf
# report's --percentage relative with --comm divides by another total); the
# first line is the task's sample count
perf script -i "$d/p.data" -F comm,tid,ip,sym,dso -G 2>/dev/null |
	awk '$1 == "cgs:page_fault1" { n++; k = $(NF-1); if (k == "[unknown]" && $NF ~ /vdso/) k = "[vdso]"; c[k]++ }
		END { if (n) print "#n", n; for (k in c) print k, 100 * c[k] / n }' >"$d/perf.txt"
pn=$(awk '$1 == "#n" { print $2 }' "$d/perf.txt")
[ -n "$pn" ] || skip "the ns/op checks passed; PERF CROSS-CHECK NOT RUN: perf script gave no samples of cgs:page_fault1"
# perf sampled one run, the first of the new side: it is checked against
# cgscale's own profile of that run (a share per run moves with the run's
# skew: pvm_irq_enable's by several points on a PVM guest, so the mean of
# the 4 is not that run's), each share x that run's CPU time per op. Two
# samplers of one run differ by their sampling alone: within 3 points of
# the CPU time, or 4 of their combined binomial errors where that is wider
r1="$d/B/1.json"
cpu=$(jq '.points[0].account | .user_ns_per_op + .sys_ns_per_op' "$r1")
cn=$(jq '.points[0].profile.samples.received' "$r1")
jq -r "$P.functions | sort_by(-.new.self_ns_per_op) | .[0:3][].function" "$d/c.json" |
while read -r f; do
	pp=$(awk -v f="$f" '$1 == f { print $2 }' "$d/perf.txt")
	[ -n "$pp" ] || fail "perf report has no $f"
	cp=$(jq --arg f "$f" '[.points[0].profile.symbols[] | select(.name == $f) | .self][0] // 0 |
		100 * . / $n' --argjson n "$cn" "$r1")
	awk -v f="$f" -v cp="$cp" -v pp="$pp" -v c="$cpu" -v n1="$cn" -v n2="$pn" 'BEGIN {
		p = (cp + pp) / 200; se = 100 * sqrt(p * (1 - p) * (1 / n1 + 1 / n2)); b = 4 * se; if (b < 3) b = 3
		printf "%s in the run perf sampled: cgscale %.2f%% of %d samples x %.1f = %.1f ns/op, perf %.2f%% of %d = %.1f ns/op (bound %.2f points)\n",
			f, cp, n1, c, cp * c / 100, pp, n2, pp * c / 100, b
		d = cp - pp; if (d < 0) d = -d; exit !(d <= b) }' ||
		fail "$f: cgscale's share of the run perf sampled is not perf's within 3 points or 4 sampling errors"
done || exit 1
done_here
