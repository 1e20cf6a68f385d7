#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 47-profile.sh - `run --profile`: sampled stacks of the measured tasks.
#   - page_fault1: the samples are the task's CPU time (task-clock) x the
#     rate, within -15%/+10%; the kernel's page fault handler (exc_page_fault, as
#     /proc/kallsyms lists it) is in the children of >= 20% of samples;
#     the own binary's loop resolves by name; the top kernel functions
#     and the kernel/user share are under the table row;
#   - fallocate2 on a tmpfs: shmem_fallocate is in the profile;
#   - the folded counts add up to the samples taken minus the lost ones,
#     and the folded stacks are bounded; export --folded writes them (one
#     point merged, or a file per run); compare lists the functions in
#     ns/op, LKP's perf-profile.* names (shares) with --format lkp;
#   - kallsyms with zero addresses (CGSCALE_KALLSYMS): said once, kernel
#     frames stay raw addresses;
#   - a rate above kernel.perf_event_max_sample_rate, or not a number, is
#     exit 2 naming the problem, nothing written;
#   - as nobody with perf_event_paranoid >= 2: one warning, a user-mode
#     profile that says so in the result and the table.
. "$(dirname "$0")/lib.sh"
d=$T
[ -r /proc/sys/kernel/perf_event_paranoid ] || skip "this kernel has no perf_event support"
[ "$(id -u)" = 0 ] || skip "needs root for kernel samples and to switch to nobody"
grep -q ' exc_page_fault$' /proc/kallsyms || skip "/proc/kallsyms lists no exc_page_fault"
[ "$(awk '$3 == "exc_page_fault" { print $1; exit }' /proc/kallsyms)" != 0000000000000000 ] ||
	skip "kallsyms hides addresses (kptr_restrict): cannot check kernel symbols by name"

# 1. page_fault1, both modes
"$CGSCALE_SAN" run -q -t 1 -m both -w 300ms -d 2s -i 500ms --profile -e task-clock \
	page_fault1 -o "$d/pf.json" >"$d/pf.out" 2>"$d/pf.err" ||
	{ rc=$?; cat "$d/pf.err"; fail "page_fault1 --profile exited $rc"; }
jq_check "$d/pf.json" '[.points[] | .status == "ok" and (.profile.event == "cpu-clock" or .profile.event == "cycles")] | all' \
	"a point failed or has no profile"
jq_check "$d/pf.json" '[.points[].profile | .rate_hz == 397 and .counting == "user+kernel" and .kernel_symbols == "kallsyms"] | all' \
	"rate, counting or symbols"
jq -r '.points[] | "\(.mode) \(.profile.samples.received) \(.profile.samples.lost) \(.profile.samples.taken) \([.profile.folded[][1]] | add) \(.profile.folded | length) \([.profile.symbols[] | select(.name == "exc_page_fault") | .children][0] // 0) \([.profile.symbols[] | select(.name == "pf1_loop") | .kernel][0])"' \
	"$d/pf.json" >"$d/pf.sum"
while read -r mode recv lost taken fsum nf pfc own; do
	echo "page_fault1 $mode: $taken taken, $lost lost, folded sum $fsum in $nf stacks, exc_page_fault children $pfc, pf1_loop kernel=$own"
	[ "$recv" -gt 80 ] || fail "$mode: only $recv samples in 2 s at 397 Hz"
	[ "$fsum" -eq $((taken - lost)) ] || fail "$mode: folded sum $fsum != taken $taken - lost $lost"
	[ "$nf" -le 2001 ] || fail "$mode: $nf folded stacks, bound is 2000 + [other]"
	awk -v c="$pfc" -v n="$recv" 'BEGIN { exit !(c >= 0.2 * n) }' ||
		fail "$mode: exc_page_fault in the children of $pfc of $recv samples (< 20%)"
	[ "$own" = false ] || fail "$mode: cgscale's own pf1_loop not resolved as a user symbol ($own)"
done <"$d/pf.sum"
[ "$(wc -l <"$d/pf.sum")" -eq 2 ] || fail "want 2 points"
# cpu-clock samples the task's CPU time: samples ~ task-clock x rate
jq -r '.points[] | "\(.mode) \(.profile.samples.taken) \(.perf.totals["task-clock"].count)"' "$d/pf.json" |
while read -r mode n ns; do
	awk -v n="$n" -v ns="$ns" 'BEGIN { w = ns / 1e9 * 397; printf "%d samples for %.0f expected from task-clock\n", n, w; exit !(n >= 0.85 * w && n <= 1.1 * w) }' ||
		fail "$mode: $n samples is not task-clock x 397 Hz (task-clock $ns ns)"
done
grep -q '^  profile: \(cpu-clock\|cycles\) 397 Hz, [0-9]* samples (0 lost, [0-9]* throttled): kernel [0-9.]*%, user [0-9.]*%$' "$d/pf.out" ||
	fail "no profile line under the table row: $(cat "$d/pf.out")"
# the sampling error of a share, from a row's samples: 50/sqrt(n) at 50%
set -- $(sed -n 's/^  profile: sampling error of a share (+-, 1 standard error from \([0-9]*\) samples): \([0-9.]*\) points at 50%.*/\1 \2/p' "$d/pf.out" | head -n 1)
[ $# = 2 ] || fail "no sampling error line: $(cat "$d/pf.out")"
jq -e --argjson n "$1" '[.points[].profile.samples.received] | index($n) != null' "$d/pf.json" >/dev/null ||
	fail "the sampling error is not from a row's $1 samples"
awk -v n="$1" -v se="$2" 'BEGIN { w = 50 / sqrt(n); exit !(se > w - 0.006 && se < w + 0.006) }' ||
	fail "sampling error $2 at 50% is not 50/sqrt($1)"
[ "$(grep -c '^    *[0-9.]*% +-[0-9.]*  [A-Za-z_]' "$d/pf.out")" -ge 2 ] || fail "no top kernel functions (with their error) in the table"
# the skew (lib/irqsite.h): cpu-clock samples taken with interrupts off
# land where they come back on; the share at such sites is in each
# profile, and run's table and compare warn exactly when one is skewed
jq_check "$d/pf.json" '[.points[].profile | .skew as $k | .samples.received as $n
	| ($k.samples <= $n) and (($k.pct - 100 * $k.samples / $n) | fabs) < 1e-6
	and $k.skewed == ($k.timer_sampled and $k.pct >= 10)
	and ([$k.sites[] as $s | [.symbols[].name] | index($s) != null] | all)] | all' \
	"the skew figure: $(jq -c '[.points[].profile.skew]' "$d/pf.json")"
if jq -e '[.points[].profile.skew.skewed] | any' "$d/pf.json" >/dev/null; then
	echo "skewed here: $(jq -c '[.points[].profile.skew | {pct, sites}]' "$d/pf.json")"
	grep -q '^  profile: WARNING skewed profile: [0-9.]*% of the samples' "$d/pf.out" ||
		fail "a skewed profile without the warning under the table row: $(cat "$d/pf.out")"
	"$CGSCALE" report --no-charts -o "$d/pf.html" "$d/pf.json" >/dev/null 2>&1 || fail "report of the profiled run"
	grep -q '<p class="warn">WARNING skewed profile: [0-9.]*% of the samples' "$d/pf.html" ||
		fail "the report does not warn of the skewed profile"
else
	grep -q 'WARNING skewed' "$d/pf.out" && fail "a skew warning for profiles that are not skewed"
fi
# frames are root first: the loop, then the fault entry
jq_check "$d/pf.json" '[.points[0].profile.folded[][0] | select(startswith("pf1_loop;asm_exc_page_fault;exc_page_fault"))] | length > 0' \
	"no stack pf1_loop;asm_exc_page_fault;exc_page_fault..."

# export --format lkp-stats (the LKP program's parse): LKP's perf-profile
# keys named by the event sampled, per mode (the run has both), the fault
# handler's children share as in the result (all its runs: on a busy
# box they may be marked disturbed, which lkp-stats leaves out unasked)
"$CGSCALE_SAN" export --format lkp-stats --keep-disturbed "$d/pf.json" >"$d/pf.lkp" ||
	fail "export --format lkp-stats of a profiled run failed"
ev=$(jq -r '.points[0].profile.event' "$d/pf.json")
for mode in process thread; do
	want=$(jq --arg m $mode '[.points[] | select(.mode == $m) | ([.profile.symbols[] | select(.name == "exc_page_fault") | .children][0] // 0) * 100 / .profile.samples.received] | add / length' "$d/pf.json")
	got=$(sed -n "s/^$mode\.perf-profile\.children\.$ev\.exc_page_fault: //p" "$d/pf.lkp")
	[ -n "$got" ] || fail "no $mode.perf-profile.children.$ev.exc_page_fault in lkp-stats: $(head -20 "$d/pf.lkp")"
	awk -v g="$got" -v w="$want" 'BEGIN { exit !(g >= 20 && g - w < 0.01 && w - g < 0.01) }' ||
		fail "lkp-stats $mode exc_page_fault children $got, the result says $want"
	grep -q "^$mode\.perf-profile\.self\.$ev\.[A-Za-z_]*: [0-9.]*\$" "$d/pf.lkp" || fail "no $mode.perf-profile.self.$ev key"
done
grep -q 'cycles-pp' "$d/pf.lkp" && [ "$ev" != cycles-pp ] && fail "lkp-stats say cycles-pp for $ev samples"
# the skew in LKP's stats: the mean share at interrupt-enable sites
for mode in process thread; do
	want=$(jq --arg m $mode '[.points[] | select(.mode == $m) | .profile.skew.pct] | add / length' "$d/pf.json")
	got=$(sed -n "s/^$mode\.profile_skew_pct: //p" "$d/pf.lkp")
	if awk -v w="$want" 'BEGIN { exit !(w >= 0.5) }'; then
		awk -v g="$got" -v w="$want" 'BEGIN { exit !(g != "" && g - w < 0.01 && w - g < 0.01) }' ||
			fail "lkp-stats $mode.profile_skew_pct '$got', the result says $want"
	fi
done

# export --folded: the runs' stacks as folded text, summing to the samples
"$CGSCALE" export --folded --point page_fault1:process:1 pf.json >"$d/pf.folded" ||
	fail "export --folded exited $?"
n=$(jq '[.points[] | select(.mode == "process") | .profile.samples.received] | add' "$d/pf.json")
awk -v n="$n" '{ if ($NF !~ /^[0-9]+$/ || NF < 2) bad = 1; s += $NF } END { exit bad || s != n }' "$d/pf.folded" ||
	fail "export --folded: not folded lines summing to $n: $(head -n 3 "$d/pf.folded")"
"$CGSCALE" export --folded pf.json >/dev/null 2>"$d/ex.err" && fail "export --folded of 2 points without --point"
grep -q 'more than one profiled point' "$d/ex.err" || fail "export message: $(cat "$d/ex.err")"
mkdir "$d/fo" && "$CGSCALE" export --folded --out-dir "$d/fo" pf.json >/dev/null || fail "export --out-dir"
[ "$(ls "$d/fo" | wc -l)" -eq 2 ] || fail "export --out-dir: want 2 files, got $(ls "$d/fo")"
# compare: the profile keys, in LKP's names too (--keep-disturbed: on a
# shared machine compare may leave a run out as disturbed)
"$CGSCALE" compare --keep-disturbed pf.json pf.json >"$d/cmp.txt" || fail "compare of profiles exited $?"
grep -q '^Profile in time per op' "$d/cmp.txt" || fail "no profile section in compare"
if jq -e '[.points[] | select(.mode == "process") | .profile.skew.skewed] | any' "$d/pf.json" >/dev/null; then
	sed -n '/^page_fault1 process/,/^$/p' "$d/cmp.txt" | grep -q '^  WARNING skewed profile' ||
		fail "compare does not warn of the skewed profile: $(grep -A4 '^page_fault1 process' "$d/cmp.txt")"
fi
# one run a side: no interval, so no verdict but INCONCLUSIVE; a run
# against itself changes by +0.0 ns/op. Ranked by self time (the
# default), the rows are the biggest functions by self, whichever they
# are on this box (where cpu-clock is skewed, the fault handler's self
# time lands where interrupts come back on): the process point's biggest
# kernel function by self has its row; ranked by children, the fault
# handler has its row (it is in >= 20% of the samples' children, above)
top=$(jq -r '[.points[] | select(.mode == "process") | .profile.symbols[] | select(.kernel)]
	| max_by(.self) | .name' "$d/pf.json")
grep -q "^ *[0-9.]* *[0-9.]* *+0\.0 *[0-9.]*  INCONCLUSIVE .* $top\$" "$d/cmp.txt" ||
	fail "no profile row for $top, the biggest kernel function by self: $(grep -A14 '^Profile' "$d/cmp.txt")"
# where the time went ranks only functions whose change holds across the
# runs (a CI that excludes 0): one run a side has no CI, so none is
# ranked, the block says so, and every function is summed as noise
sed -n '/^page_fault1 process/,/^  per_task_ops/p' "$d/cmp.txt" |
	grep -q "functions (sampled on [^)]*): no function's change holds across the runs at this noise" ||
	fail "the block ranks functions without a CI: $(sed -n '/where the time went/,/counters/p' "$d/cmp.txt" | head -20)"
"$CGSCALE" compare --keep-disturbed -f json pf.json pf.json >"$d/cmp.json" || fail "compare -f json exited $?"
jq_check "$d/cmp.json" '[.points[].where_the_time_went[0] | (.functions | length) == 0 and .functions_within_noise > 0] | all' \
	"the block's functions without a CI: $(jq -c '[.points[].where_the_time_went[0] | {functions, functions_within_noise}]' "$d/cmp.json")"
"$CGSCALE" compare --keep-disturbed --profile-rank children pf.json pf.json >"$d/cmpc.txt" ||
	fail "compare --profile-rank children exited $?"
grep -q '^ *[0-9.]* *[0-9.]* *+0\.0 *[0-9.]*  INCONCLUSIVE .* exc_page_fault$' "$d/cmpc.txt" ||
	fail "no profile row for exc_page_fault ranked by children: $(grep -A14 '^Profile' "$d/cmpc.txt")"
"$CGSCALE" compare --keep-disturbed -f lkp pf.json pf.json >"$d/cmp.lkp" || fail "compare -f lkp exited $?"
# the LKP stats' own names: cgscale.<mode>.perf-profile.<kind>.<event>.<sym>
grep -q "^ *[0-9.]* *+0.0 *[0-9.]* *cgscale\.process\.perf-profile\.children\.$ev\.exc_page_fault\$" "$d/cmp.lkp" ||
	fail "no LKP perf-profile.children line: $(grep perf-profile "$d/cmp.lkp" | head -n 3)"
grep -q "cgscale\.process\.perf-profile\.calltrace\.$ev\.exc_page_fault\.asm_exc_page_fault\.pf1_loop\$" "$d/cmp.lkp" ||
	fail "no LKP calltrace line: $(grep calltrace "$d/cmp.lkp" | head -n 3)"

# a result file is input: malformed profile sections are skipped, never a crash
jq '.points[0].profile.folded = [5, ["a;b"], ["x", "y"], [1, 2], ["ok;stack", 3], {"a": 1}] |
	.points[0].profile.symbols = [1, {"name": 5}, "s", {"name": "f", "self": "x"}] |
	.points[1].profile = 7' "$d/pf.json" >"$d/bad-prof.json"
"$CGSCALE_SAN" export --folded --point page_fault1:process:1 "$d/bad-prof.json" >"$d/bad.folded" ||
	fail "export --folded of malformed stacks exited $?"
[ "$(cat "$d/bad.folded")" = "ok;stack 3" ] || fail "malformed stacks not skipped: $(cat "$d/bad.folded")"
"$CGSCALE_SAN" compare "$d/bad-prof.json" "$d/pf.json" >/dev/null 2>"$d/bad.err"
[ $? -le 1 ] || fail "compare of malformed profiles: $(cat "$d/bad.err")"
"$CGSCALE_SAN" report -o "$d/bad.html" "$d/bad-prof.json" 2>"$d/bad.err" || fail "report: $(cat "$d/bad.err")"

# kallsyms that hides addresses (as for a user under kptr_restrict): said
# once, kernel frames kept as raw addresses, never an empty profile
awk '{ print "0000000000000000", $2, $3 }' /proc/kallsyms >"$d/ksyms0"
CGSCALE_KALLSYMS="$d/ksyms0" "$CGSCALE" run -q -t 1 -m process -w 0 -d 500ms -i 250ms --profile \
	page_fault1 -o "$d/k0.json" >"$d/k0.out" 2>"$d/k0.err" || fail "hidden kallsyms run: $(cat "$d/k0.err")"
[ "$(grep -c 'shows only zero addresses (kptr_restrict, not root): kernel frames stay raw addresses' "$d/k0.err")" -eq 1 ] ||
	fail "hidden kallsyms not said once: $(cat "$d/k0.err")"
jq_check "$d/k0.json" '.points[0].profile | .kernel_symbols == "raw addresses" and .samples.received > 0 and
	([.folded[][0] | select(test(";0xffff[0-9a-f]+"))] | length > 0)' "raw kernel addresses not kept"

# 2. fallocate2 on a tmpfs
shm=/dev/shm
[ "$(stat -f -c %T "$shm" 2>/dev/null)" = tmpfs ] || skip "/dev/shm is not a tmpfs"
grep -q ' shmem_fallocate$' /proc/kallsyms || skip "this kernel has no shmem_fallocate"
"$CGSCALE" run -q -t 1 -m thread -w 300ms -d 2s -i 500ms --profile=499 --tmpdir "$shm" \
	fallocate2 -o "$d/fa.json" >"$d/fa.out" 2>"$d/fa.err" ||
	{ rc=$?; cat "$d/fa.err"; fail "fallocate2 --profile exited $rc"; }
c=$(jq '[.points[0].profile.symbols[] | select(.name == "shmem_fallocate") | .children][0] // 0' "$d/fa.json")
n=$(jq '.points[0].profile.samples.received' "$d/fa.json")
echo "fallocate2: shmem_fallocate in the children of $c of $n samples at 499 Hz"
awk -v c="$c" -v n="$n" 'BEGIN { exit !(n > 100 && c >= 0.1 * n) }' ||
	fail "shmem_fallocate in $c of $n samples (< 10%)"
jq_check "$d/fa.json" '.points[0].profile.rate_hz == 499' "rate 499 not recorded"

# 3. bad input: exit 2, one line naming the limit, nothing written
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
"$CGSCALE" run -q -w 0 -d 200ms -i 100ms --profile=$((max + 1)) page_fault1 \
	-o "$d/bad.json" >/dev/null 2>"$d/bad.err"
rc=$?
[ $rc -eq 2 ] || fail "--profile=$((max + 1)): exit $rc, want 2"
grep -q "above kernel.perf_event_max_sample_rate ($max)" "$d/bad.err" || fail "message: $(cat "$d/bad.err")"
[ "$(wc -l <"$d/bad.err")" -eq 1 ] || fail "more than one line: $(cat "$d/bad.err")"
"$CGSCALE" run -q --profile=fast page_fault1 -o "$d/bad.json" >/dev/null 2>"$d/bad2.err"
[ $? -eq 2 ] || fail "--profile=fast: not exit 2"
grep -q 'profile=fast: the rate must be a whole number' "$d/bad2.err" || fail "message: $(cat "$d/bad2.err")"
[ ! -e "$d/bad.json" ] || fail "a result was written for bad input"

# 4. as nobody
command -v setpriv >/dev/null || skip "no setpriv (util-linux)"
par=$(cat /proc/sys/kernel/perf_event_paranoid)
[ "$par" -ge 2 ] || { echo "perf_event_paranoid=$par: nobody may sample the kernel; part 4 not run"; exit 0; }
asnobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
asnobody test -x "$CGSCALE" || skip "nobody cannot run $CGSCALE"
chown 65534:65534 "$d" || exit 1
asnobody "$CGSCALE" run -t 1 -m process -w 200ms -d 1s -i 250ms --profile --tmpdir "$d" \
	page_fault1 -o "$d/nb.json" >"$d/nb.out" 2>"$d/nb.err" ||
	{ rc=$?; cat "$d/nb.err"; fail "nobody --profile exited $rc"; }
[ "$(grep -c 'kernel samples are not allowed' "$d/nb.err")" -eq 1 ] || fail "not said once: $(cat "$d/nb.err")"
jq_check "$d/nb.json" ".points[0].profile | .counting == \"user\" and .samples.kernel == 0 and (.note | test(\"perf_event_paranoid is $par\"))" \
	"user-mode profile not recorded as such"
grep -q '^  profile: .* user mode only' "$d/nb.out" || fail "table does not say user mode only"
