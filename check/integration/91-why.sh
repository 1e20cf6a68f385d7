#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 91-why.sh - where the time went: the account of each op's time and the
# block at the top of each compared point, on two known changes.
#   - a known injection: page_fault1 against page_fault1 --pf1-spin 4000,
#     four invocations a side in the order ABBAABBA
#     (a busy-wait of 4000 ns of wall clock per op, 64 x 4 us after every
#     64th op, tests/spin.h). The spin is user time, and a 256 us spin is
#     cut by a preemption only rarely, so the user time per op grows by
#     nearly 4000 ns however busy the machine is. How well the kernel's
#     split of run time into user and sys shows it is the box's: each
#     run's account says how the kernel splits ("split": by the tick at
#     CONFIG_HZ, or exactly) and the user part's sampling error; the user
#     part of the change must lie within 4000 +- (10% + 4 errors), the
#     error being that or the runs' own spread, the larger. The bound
#     fails for a part that is missing, in the wrong unit (4 or 4000000)
#     or given to sys; where the errors make it too wide to tell the spin
#     from no spin (a loaded box), the test says so and skips that one
#     assertion. The wall change itself depends on the load (a task that
#     waits half the time waits longer for a longer op; foreign load that
#     slows A more than B can even make it negative), so neither its size
#     nor its sign is bounded; but the four parts must add up to it, as
#     the runs' 1e9 / per-task ops/s give it, within 5%. The
#     parts are real: page_fault1 never sleeps, so the median run's
#     blocked part is under 5% of its wall (schedstat's run and run-queue
#     time cover it), and user + sys is the stat ticks' CPU time within 5%;
#   - reclaim: page_fault2 on a loop-mounted ext4 (tmpfs cannot drop its
#     pages) under a 192 MiB memory limit (each task maps a 128 MiB file
#     privately: its anon copy fits, the page cache does not) against
#     the same without a limit: the block must name the limit hits
#     (v1 memcg.failcnt, v2 memcg.events.max) among the point's own top
#     3 counters and a pgscan_/pgsteal_ counter among the system-wide
#     top 3, all of them 0 without the limit: counts, not speeds;
#   - the account in thread mode, by the sanitizer build: the four parts
#     add up to the wall time per op, which is 1e9 / per-task ops/s; the
#     sanitizer build's compare gives the same block.
# Root only (cgroups, a loop mount). Exit 0 pass, 1 fail, 77 skip.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "jq missing"
[ "$(id -u)" = 0 ] || skip "needs root (cgroups of our own, a loop mount)"
SAN=${CGSCALE_SAN:-$CGSCALE}
run() { "$CGSCALE" run -q -t 1 -m process -w 0.5 -r 4 "$@" >/dev/null 2>err.txt ||
	fail "run $*: $(cat err.txt)"; }

# ---- the known injection ----
# Four runs a side, one an invocation, in the order ABBAABBA: the box's
# drift (a VM's vCPUs change speed from minute to minute, and its tick
# split with them) then hits both sides alike and shows in each side's
# spread, which the error below takes; A's four then B's four put it
# between the sides, where no error sees it. a.json and b.json: each
# side's runs in one file, for the checks of its points.
mkdir A B
i=0
for side in A B B A A B B A; do
	i=$((i + 1))
	spin=
	[ $side = B ] && spin="--pf1-spin 4000"
	# shellcheck disable=SC2086
	"$CGSCALE" run -q -t 1 -m process -w 0.5 -d 1.5 $spin -o $side/$i.json page_fault1 \
		</dev/null >/dev/null 2>err.txt || fail "run $side $i: $(cat err.txt)"
done
jq -s '.[0] * {points: [.[].points[]]}' A/*.json >a.json
jq -s '.[0] * {points: [.[].points[]]}' B/*.json >b.json
# --keep-disturbed: on a busy box (make check CHECK_LOAD=2) every run is
# disturbed, and compare would leave them all out and give no block; the
# load is in each side's spread, which the bound below takes
"$CGSCALE" compare --keep-disturbed --axis workload A B >why.txt 2>err.txt
[ $? -le 1 ] || fail "compare: $(cat err.txt)"
"$CGSCALE" compare --keep-disturbed --axis workload --format json A B >why.json 2>err.txt
[ $? -le 1 ] || fail "compare --format json: $(cat err.txt)"
w='.points[0].where_the_time_went[0]'
user=$(jq "$w.parts[] | select(.name == \"user\") | .change" why.json)
sum=$(jq "$w.parts_change_ns_per_op" why.json)
wall=$(jq "$w.wall.change_from_ops_ns_per_op" why.json)
jq_check a.json '[.points[].account.split | (.by | IN("ticks", "exact", "unknown")) and (.config | length) > 0
	and (.by == "exact" or .user_se_ns_per_op == null or .user_se_ns_per_op > 0)] | all' \
	"the account does not say how user and sys were split: $(jq -c '.points[0].account.split' a.json)"
se=$(user_change_se a.json b.json)
by=$(jq -r '.points[0].account.split | "\(.by) (\(.config))"' a.json)
echo "spin 4000: user $user +- $se (1 SE, split by $by), parts $sum, wall (ops/s) $wall ns/op"
if awk -v se="$se" 'BEGIN { exit !(400 + 4 * se < 2000) }'; then
	awk -v u="$user" -v se="$se" 'BEGIN { d = u - 4000; if (d < 0) d = -d; exit !(d <= 400 + 4 * se) }' ||
		fail "user part of the change $user ns/op, want 4000 +- (400 + 4 x $se) (the spin is 4000 ns/op of user time; split by $by)"
else
	not_here "the user part of a 4000 ns/op spin: the kernel's split (by $by) has an error of $se ns/op in these runs (its tick sampling or the runs' spread, the larger), too coarse to tell the spin from none"
fi
# (blocked is the remainder floored at 0: the parts exceed the wall by
# what the floor added, the sides' mean of blocked - remainder)
floor_of() { jq '[.points[].account | .blocked_ns_per_op - .blocked_remainder_ns_per_op] | add / length' "$1"; }
fl=$(awk -v a="$(floor_of a.json)" -v b="$(floor_of b.json)" 'BEGIN { print a + b }')
awk -v s="$sum" -v w="$wall" -v f="$fl" 'BEGIN { d = s - w; if (d < 0) d = -d; if (w < 0) w = -w; exit !(d <= 0.05 * w + 1 + f) }' ||
	fail "the parts add up to $sum ns/op, the wall changed $wall ns/op (from ops/s): more than 5% (and the $fl ns/op the floor of blocked added) apart"
for part in user sys run-queue blocked; do
	jq -e "$w.parts | map(.name) | index(\"$part\")" why.json >/dev/null ||
		fail "no $part part in the block"
done
# the parts are real: page_fault1 never sleeps, so schedstat's run and
# run-queue time cover its wall time (the median run's blocked part is
# within 5% of it; one run may catch a stall), and the run time split
# into user + sys is the CPU time of the stat ticks (cputime's) within 5%
# over the runs (ticks are 10 ms: 1-2% of a 1.5 s window)
for f in a.json b.json; do
	jq -e '[.points[].account | .blocked_ns_per_op / .wall_ns_per_op | fabs] | sort
		| (.[1] + .[2]) / 2 < 0.05' $f >/dev/null ||
		fail "$f: the median run's blocked part is over 5% of its wall: $(jq -c '[.points[].account.blocked_ns_per_op]' $f)"
	jq -e '[.points[] | (.account.user_ns_per_op + .account.sys_ns_per_op) /
		(1000 * (.cputime.user_us_per_op + .cputime.sys_us_per_op))] | add / length
		| . > 0.95 and . < 1.05' $f >/dev/null ||
		fail "$f: the account's user + sys is not the stat ticks' CPU time within 5%"
done
# the block leads the point, before its metrics
blk=$(grep -n "where the time went, B against A" why.txt | cut -d: -f1)
met=$(grep -n "^  per_task_ops (ops/s" why.txt | cut -d: -f1)
[ -n "$blk" ] && [ -n "$met" ] && [ "$blk" -lt "$met" ] ||
	fail "the block is not at the top of the point: $(head -20 why.txt)"
grep -q "the four add up to" why.txt || fail "the text does not sum the parts"
# the block says how the kernel split user and sys, with its error
jq -e --arg by "$(jq -r '.points[0].account.split.by' a.json)" "$w.user_sys_split.by == \$by" why.json >/dev/null ||
	fail "compare's block does not say how user and sys were split: $(jq -c "$w.user_sys_split" why.json)"
case "$(jq -r '.points[0].account.split.by' a.json)" in
exact) grep -q "user/sys: split exactly" why.txt ;;
*) grep -q "user/sys: split by \(the scheduler tick\|a clock not known\) (" why.txt ;;
esac || fail "the text block does not say how user and sys were split: $(grep -A8 'where the time went' why.txt)"
# the sanitizer build's compare agrees
"$SAN" compare --keep-disturbed --axis workload --format json A B >why-san.json 2>err.txt
[ $? -le 1 ] || fail "sanitizer compare: $(cat err.txt)"
[ "$(jq "$w.parts" why.json)" = "$(jq "$w.parts" why-san.json)" ] ||
	fail "the sanitizer build's block differs"

# ---- the account in thread mode, sanitizer build ----
"$SAN" run -q -t 2 -m thread -w 0.3 -d 1 -o th.json page_fault1 >/dev/null 2>err.txt ||
	fail "sanitizer run, thread mode: $(cat err.txt)"
# user + sys + run-queue + the remainder is the wall exactly; blocked is
# the kernel's sleep time where it keeps it (schedstats), else the
# remainder floored at 0 with the reason, never a negative time
jq -e '.points[0].account | ((.user_ns_per_op + .sys_ns_per_op + .runq_ns_per_op
	+ .blocked_remainder_ns_per_op - .wall_ns_per_op) | fabs) < 0.000001 * .wall_ns_per_op
	and .blocked_ns_per_op >= 0 and .blocked_bound_ns_per_op > 0
	and (if (.blocked_source | startswith("measured")) then has("blocked_check_ns_per_op")
	     else .blocked_ns_per_op == ([.blocked_remainder_ns_per_op, 0] | max)
	     and (.blocked_source | test("remainder.*(schedstats|sched file)")) end)
	and ((.blocked_remainder_ns_per_op < -.blocked_bound_ns_per_op) == has("blocked_note"))' th.json >/dev/null ||
	fail "thread mode: the parts do not add up, or blocked is not the floored remainder: $(jq -c '.points[0].account' th.json)"
for f in a.json b.json th.json; do
	jq -e '[.points[].account | .blocked_ns_per_op >= 0 and .task_spread.blocked_ns_per_op.min >= 0] | all' $f >/dev/null ||
		fail "$f: a negative blocked time: $(jq -c '[.points[].account | [.blocked_ns_per_op, .blocked_remainder_ns_per_op]]' $f)"
done
jq -e '.points[0] | (.account.wall_ns_per_op * .summary.per_task_ops_per_sec / 1e9 - 1) | fabs < 0.01' \
	th.json >/dev/null ||
	fail "thread mode: wall ns/op is not 1e9 / per-task ops/s: $(jq -c '.points[0].account' th.json)"
jq -e '.points[0].account | .user_ns_per_op + .sys_ns_per_op > 0 and .runq_ns_per_op >= 0
	and .blocked_ns_per_op > -0.02 * .wall_ns_per_op and .task_spread.wall_ns_per_op.tasks == 2' \
	th.json >/dev/null || fail "thread mode: implausible account: $(jq -c '.points[0].account' th.json)"

# ---- reclaim under a limit, on a filesystem that can reclaim ----
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 missing: no reclaim case"
M="$T/mnt"
mkdir "$M" || fail "mkdir"
trap 'umount "$M" 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
truncate -s 400M "$T/img" && mkfs.ext4 -q -F "$T/img" >/dev/null 2>&1 ||
	fail "mkfs.ext4 of a 400 MiB image"
mount -o loop "$T/img" "$M" 2>err.txt || skip "no loop mount here: $(cat err.txt)"
if awk '$9 == "cgroup" && $NF ~ /(^|,)memory(,|$)/ {f = 1} END {exit !f}' /proc/self/mountinfo; then
	limit=1:memory.limit_in_bytes=192M hit=memcg.failcnt.per_op
else
	limit=1:memory.max=192M hit=memcg.events.max.per_op
fi
run -d 1 --tmpdir "$M" -o ra.json page_fault2
run -d 1 --tmpdir "$M" --cgroup-set "$limit" -o rb.json page_fault2
umount "$M"
"$CGSCALE" compare --keep-disturbed --axis cgroup ra.json rb.json >rwhy.txt 2>err.txt
[ $? -le 1 ] || fail "compare (reclaim): $(cat err.txt)"
"$SAN" compare --keep-disturbed --axis cgroup --format json ra.json rb.json >rwhy.json 2>err.txt
[ $? -le 1 ] || fail "compare --format json (reclaim): $(cat err.txt)"
own=$(jq -r "$w.counters[:3] | map(.name) | join(\" \")" rwhy.json)
sys=$(jq -r "$w.counters_system_wide[:3] | map(.name) | join(\" \")" rwhy.json)
echo "reclaim: own top 3: $own; system-wide top 3: $sys"
case " $own " in *" $hit "*) ;; *) fail "$hit not among the point's own top 3 counters: $own" ;; esac
echo " $sys " | grep -Eq ' proc-vmstat\.(pgscan|pgsteal)_[a-z]+\.per_op ' ||
	fail "no pgscan_/pgsteal_ counter among the system-wide top 3: $sys"
jq -e "$w.counters[] | select(.name == \"$hit\") | .base == 0 and .new > 0" rwhy.json >/dev/null ||
	fail "$hit is not 0 without the limit and above 0 with it"
# all or nothing at 4 a side is decided (Fisher's exact p 2/70, corrected
# among the counters that were 0 on some run): where the hits came on
# every limited run, the verdict is REGRESSION, not INCONCLUSIVE
hits() { jq "[.points[].cgroup.events_window.per_op.$1 // 0 | select(. > 0)] | length" "$2"; }
key=${hit#memcg.}; key=${key%.per_op}; key=${key#events.}
ha=$(hits "$key" ra.json) hb=$(hits "$key" rb.json)
echo "reclaim: $hit above 0 on $ha of 4 runs without the limit, $hb of 4 with it; verdict $(jq -r "$w.counters[] | select(.name == \"$hit\") | .verdict" rwhy.json)"
if [ "$ha" = 0 ] && [ "$hb" = 4 ]; then
	jq -e "$w.counters[] | select(.name == \"$hit\") | .verdict == \"REGRESSION\"" rwhy.json >/dev/null ||
		fail "$hit: 0 on every run without the limit, above 0 on all 4 with it, but not decided: $(jq -c ".points[0].metrics[]? | select(.metric == \"$hit\")" rwhy.json)"
else
	not_here "$hit was not all or nothing ($ha of 4 runs without the limit, $hb of 4 with it): the all-or-nothing verdict is not checked"
fi
sed -n '/where the time went/,/^  per_task_ops/p' rwhy.txt | grep -q "$hit" ||
	fail "the text block does not name $hit: $(head -30 rwhy.txt)"
done_here
