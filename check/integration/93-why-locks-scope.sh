#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 93-why-locks-scope.sh - two answers to "why": lock waits (--trace locks)
# and work outside the tasks (--profile-scope), on this machine's kernel.
#   - bad input exits 2 with nothing written: an unknown scope, and
#     --profile-scope system as nobody (every CPU needs CAP_PERFMON);
#   - --trace locks on page_fault2 with 2 threads (one mm: they contend),
#     under the sanitizer build: lock:contention_begin/_end are supported
#     here, or the section says <not supported> with the tracepoint's
#     reason and the test skips the figures; where the tasks waited (in
#     one of two runs: whether they contend is the box's, and where they
#     never did, run's table must say so and the test ends as a SKIP
#     naming it) wait per op is their wait over the point's ops and its
#     distribution is whole; their waits are a part of everyone's, each listed lock is named (symbol, caller
#     or address) with a kind and a distribution whose count is its waits,
#     listed by the tasks' wait, and run's table has the locks line;
#   - --profile-scope system on page_fault1 with a reader of level 1's
#     memory.stat at 20 and at 2000 reads a second (the latter under the
#     sanitizer build): every sample goes to one "who", ns = samples x
#     period, ns/op = ns / ops, the reader is found by its thread name and
#     has more samples at 2000 than at 20 (100 times the reads; the bound
#     is loose for a starved reader), its time is in reading files, and
#     run's table has the who line;
#   - --profile-scope cgroup either samples the run's cgroup (then the
#     reader, outside it, has no samples) or says <not supported> with the
#     reason, never an empty section; the default adds no section;
#   - compare has verdict rows for lock_wait_ns_per_op and who.stat_reader.
# Exit 0 pass, 1 fail, 77 skip.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "jq missing"
SAN=${CGSCALE_SAN:-$CGSCALE}

"$CGSCALE" run -q -t 1 --profile-scope everything -o bad.json page_fault1 >out.txt 2>err.txt
rc=$?
[ $rc = 2 ] || fail "unknown scope: exit $rc, want 2"
grep -q "tasks|cgroup|system" err.txt || fail "unknown scope: message $(cat err.txt)"
[ ! -e bad.json ] || fail "unknown scope: a result was written"
"$CGSCALE" run --help | grep -q "locks = lock:contention_begin, lock:contention_end" ||
	fail "--help does not name the tracepoints of locks"
"$CGSCALE" run --help | grep -q -- "--profile-scope WHICH" || fail "--help has no --profile-scope"

[ "$(id -u)" = 0 ] || skip "--trace and --profile-scope system need root"
if command -v setpriv >/dev/null &&
   [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -gt 0 ]; then
	nb=$(mktemp -d /tmp/cgscale-it-nb.XXXXXX) || fail "mktemp"
	trap 'rm -rf "$T" "$nb"' EXIT
	chown 65534:65534 "$nb" || fail "chown $nb"
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$CGSCALE" run -q -t 1 --profile-scope system -o "$nb/r.json" --tmpdir "$nb" \
		--cgroup-depth 0 page_fault1 >"$nb/out" 2>"$nb/err"
	rc=$?
	if [ $rc = 126 ] || [ $rc = 127 ]; then
		echo "nobody cannot run $CGSCALE: non-root check left out"
	else
		[ $rc = 2 ] || fail "as nobody: exit $rc, want 2 ($(cat "$nb/err"))"
		grep -q "needs root, CAP_PERFMON" "$nb/err" || fail "as nobody: message $(cat "$nb/err")"
		[ ! -e "$nb/r.json" ] || fail "as nobody: a result was written"
	fi
fi

# ---- --trace locks ----
for k in 1 2; do
	"$SAN" run -t 2 -m thread -w 0.5 -d 2 -i 0.5 --trace locks -o locks$k.json page_fault2 \
		>locks$k.txt 2>err.txt || fail "locks run $k: $(cat err.txt)"
done
L='.points[0].trace.locks'
if jq -e "$L.supported == false" locks1.json >/dev/null; then
	jq_check locks1.json "($L.reason | length) > 0 and ($L.tracepoint | startswith(\"lock:\"))" \
		"<not supported> without a reason: $(jq -c "$L" locks1.json)"
	grep -q "locks: <not supported> (" locks1.txt || fail "no <not supported> line in run's table"
	skip "lock tracepoints not supported here: $(jq -r "$L.reason" locks1.json)"
fi
jq_check locks1.json ".points[0].status == \"ok\" and $L.error == null and .points[0].trace.error == null" \
	"locks: point ok, no error ($(jq -c "$L.error" locks1.json))"
# Whether the tasks contend is the box's: two threads of one mm need not
# (page faults take per-VMA locks; munmap holds mmap_lock for writing
# only briefly), so the figures of the tasks' waits are checked in the
# run (of the two) where they waited, and where neither did, the test
# says so and checks that run's table says so too, never a silent pass.
lf=locks1
jq -e "$L.tasks.waits >= 1" locks1.json >/dev/null || lf=locks2
if jq -e "$L.tasks.waits >= 1" $lf.json >/dev/null; then
	jq_check $lf.json "($L.tasks.wait_ns / .points[0].summary.ops - $L.tasks.wait_ns_per_op | fabs) <= 1e-6 * $L.tasks.wait_ns_per_op" \
		"wait per op is not the tasks' wait over the point's ops"
	jq_check $lf.json "$L.tasks as \$t | \$t.wait | .count == \$t.waits and .min_ns <= .p50_ns and .p50_ns <= .p99_ns and .p99_ns <= .max_ns" \
		"the tasks' wait distribution is not whole"
	grep -q "locks: tasks waited .* ns/op" $lf.txt || fail "no locks line in run's table: $(cat $lf.txt)"
else
	jq_check locks1.json "$L.tasks | .waits == 0 and .wait_ns == 0 and .wait_ns_per_op == 0 and .wait.count == 0" \
		"no waits, but figures: $(jq -c "$L.tasks" locks1.json)"
	grep -q "locks: the tasks never waited on a contended lock (0 waits: no contention to show)" locks1.txt ||
		fail "run's table does not say the tasks never waited: $(grep locks: locks1.txt)"
	not_here "the tasks' lock waits: the two threads of one mm never waited in two 2 s windows ($(jq "$L.all.waits" locks1.json) and $(jq "$L.all.waits" locks2.json) waits by everyone)"
fi
jq_check $lf.json "$L.all.waits >= $L.tasks.waits and $L.all.wait_ns >= $L.tasks.wait_ns" \
	"the tasks' waits are not a part of everyone's"
jq_check $lf.json "[$L.by_lock[] | (.named_by | IN(\"symbol\", \"caller\", \"address\")) and
	(.kind | IN(\"spinlock\", \"rwlock\", \"mutex\", \"rwsem\", \"percpu-rwsem\", \"rt-mutex\", \"other\"))
	and (.name | length) > 0 and .waits >= .task_waits and .wait.count == .waits] | all" \
	"a listed lock lacks a name, a kind or its distribution"
jq_check $lf.json "[$L.by_lock[].task_wait_ns] as \$w | \$w == (\$w | sort | reverse) and ((\$w | add) // 0) <= $L.tasks.wait_ns" \
	"the locks are not listed by the tasks' wait, or add up to more than it"
jq_check $lf.json "$L.naming | length > 0" "how locks were named is not said"
echo "locks: $(grep -A1 'locks: ' $lf.txt | tr -s ' ' | head -2 | tr '\n' ' ')"

# ---- --profile-scope system ----
for hz in 20 2000; do
	b=$CGSCALE
	[ $hz = 2000 ] && b=$SAN
	"$b" run -t 1 -m process -w 0.5 -d 3 -i 0.5 --cgroup-depth 3 --stat-reader $hz \
		--profile-scope system -o s$hz.json page_fault1 >s$hz.txt 2>err.txt ||
		fail "scope run at $hz Hz: $(cat err.txt)"
done
S='.points[0].profile_scope'
for hz in 20 2000; do
	f=s$hz.json
	jq_check $f ".points[0].status == \"ok\" and $S.supported and $S.error == null and $S.scope == \"system\"" \
		"$hz Hz: scope ok ($(jq -c "$S | {supported, reason, error}" $f))"
	jq_check $f "$S.cpus >= 1 and $S.reader_tid != null" "$hz Hz: CPUs sampled, the reader found"
	jq_check $f "([$S.who[].samples] | add) == $S.samples.received" "$hz Hz: a sample without a who, or in two"
	jq_check $f "$S.period_ns as \$p | [$S.who[] | .ns == .samples * \$p] | all" "$hz Hz: ns is not samples x period"
	jq_check $f ".points[0].summary.ops as \$ops | [$S.who[] | (.ns / \$ops - .ns_per_op | fabs) <= 1e-6 * (.ns_per_op + 1)] | all" \
		"$hz Hz: ns/op is not ns over ops"
	jq_check $f "$S.who.tasks.samples > 0 and ($S.who.tasks.top_children | length) > 0" "$hz Hz: no samples of the tasks"
	grep -q "who (system, cpu-clock every .* ns/op: tasks .*, stat_reader" s$hz.txt ||
		fail "$hz Hz: no who line in run's table: $(cat s$hz.txt)"
done
r20=$(jq "$S.who.stat_reader.samples" s20.json)
r2000=$(jq "$S.who.stat_reader.samples" s2000.json)
echo "stat reader samples: 20 Hz $r20, 2000 Hz $r2000 ($(jq "$S.who.stat_reader.ns_per_op" s2000.json) ns/op)"
[ "$r2000" -ge 5 ] && [ "$r2000" -gt "$r20" ] ||
	fail "the reader's share did not grow with its rate: 20 Hz $r20, 2000 Hz $r2000 samples"
# where its time went is the box's to show: a cpu-clock sample taken with
# interrupts off lands where they come back on, and then cgscale must say
# the reader's samples are skewed (in the file and run's table), and the
# test cannot check the functions
jq_check s2000.json "$S.who.stat_reader as \$w | \$w.skew | (.samples <= \$w.samples) and .timer_sampled
	and (.skewed == (.pct >= 10))" "the reader's skew figure: $(jq -c "$S.who.stat_reader.skew" s2000.json)"
if jq -e "$S.who.stat_reader.skew.skewed" s2000.json >/dev/null; then
	grep -q "^    stat_reader: WARNING skewed profile: [0-9.]*% of the samples land where interrupts are turned back on" s2000.txt ||
		fail "the reader's samples are skewed, and run's table does not say so: $(cat s2000.txt)"
	not_here "the reader's time in reading files: $(jq -r "$S.who.stat_reader.skew.pct | floor" s2000.json)% of its samples land where interrupts come back on ($(jq -r "$S.who.stat_reader.skew.sites | join(\", \")" s2000.json)), as cgscale says"
else
	grep -q "stat_reader: WARNING skewed" s2000.txt && fail "a skew warning for a reader that is not skewed"
	jq_check s2000.json "[$S.who.stat_reader.top_children[].name | test(\"vfs_read|seq_read|memcg|mem_cgroup|openat|close\")] | any" \
		"the reader's time is not in reading files: $(jq -c "[$S.who.stat_reader.top_children[].name]" s2000.json)"
fi
grep -q "stat_reader, children ns/op:" s2000.txt || fail "no reader line in run's table"

# ---- --profile-scope cgroup, and the default ----
"$CGSCALE" run -q -t 1 -m process -w 0.3 -d 1 -i 0.5 --cgroup-depth 2 --stat-reader 200 \
	--profile-scope cgroup -o cg.json page_fault1 >cg.txt 2>err.txt || fail "cgroup scope: $(cat err.txt)"
if jq -e "$S.supported" cg.json >/dev/null; then
	jq_check cg.json "$S.error == null and ($S.cgroup | length) > 0 and $S.who.tasks.samples > 0 and $S.who.stat_reader.samples == 0" \
		"cgroup scope: no tasks' samples, or samples from outside the cgroup: $(jq -c "$S | del(.who[].top_self, .who[].top_children)" cg.json)"
	echo "cgroup scope: sampled $(jq -r "$S.cgroup" cg.json)"
else
	jq_check cg.json "$S.scope == \"cgroup\" and ($S.reason | length) > 20 and $S.error == null and ($S | has(\"who\") | not)" \
		"cgroup scope: not supported without a reason, or with figures: $(jq -c "$S" cg.json)"
	grep -q "who: cgroup scope <not supported> (" cg.txt || fail "cgroup scope: no <not supported> line"
	echo "cgroup scope: <not supported> ($(jq -r "$S.reason" cg.json))"
fi
jq_check locks1.json ".points[0] | has(\"profile_scope\") | not" "the default scope added a section"

# ---- compare ----
"$CGSCALE" compare --keep-disturbed -f json locks1.json locks2.json >cmp1.json 2>cmp.err
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || [ $rc = 3 ] || fail "compare of the locks runs exited $rc: $(cat cmp.err)"
jq -e '[.points[0].comparisons[] | select(.metric == "lock_wait_ns_per_op")] | length == 1' cmp1.json >/dev/null ||
	fail "compare has no row for lock_wait_ns_per_op"
# a count per op that never moved on either side has no row (compare.c)
nw=$(jq -s "[.[] | $L.tasks.waits] | add" locks1.json locks2.json)
jq -e --argjson w "$nw" '[.points[0].comparisons[] | select(.metric == "lock_waits_per_op")] | length == (if $w > 0 then 1 else 0 end)' \
	cmp1.json >/dev/null || fail "compare's row for lock_waits_per_op with $nw waits in all: $(jq -c '[.points[0].comparisons[].metric]' cmp1.json)"
"$CGSCALE" compare --keep-disturbed -f json s20.json s2000.json >cmp2.json 2>cmp.err
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || [ $rc = 3 ] || fail "compare of the scope runs exited $rc: $(cat cmp.err)"
# the block at the top keeps who ran apart from the lock time
jq -e '[.points[].where_the_time_went[] | (.locks | map(.name) | all(startswith("who.") | not))
	and (.who | map(.name) | all(startswith("who.")))] | all' cmp2.json >/dev/null ||
	fail "who.* rows under the lock time: $(jq -c '[.points[].where_the_time_went[] | {locks, who}]' cmp2.json | head -c 400)"
for m in who.tasks who.stat_reader who.kworker who.softirq who.others; do
	jq -e --arg m "$m" '[.points[0].comparisons[] | select(.metric == $m)] | length == 1' cmp2.json >/dev/null ||
		fail "compare has no row for $m"
done
done_here
