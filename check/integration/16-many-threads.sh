#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 16-many-threads.sh - thousands of runnable threads must not make the
# sampler late. 2048 fallocate2 threads on this 2-vCPU machine (1024 x
# oversubscribed; at normal priority the sampler was seconds late at 1024)
# with the sampler at SCHED_FIFO: every instant on time within 100 ms
# (measured here: well under 1 ms), every task ok, spawn and stop recorded,
# nothing left behind. 2048 rather than 8192 so that the test stays short
# on a machine shared with others and cannot run into their pid use.
# Also: --sampler-priority normal is recorded as such; a user who may not
# use SCHED_FIFO (nobody) is told why, and the results say so; a bad value
# exits 2 with nothing written.
. "$(dirname "$0")/lib.sh"
N=2048
# limit NAME: the soft limit from /proc/self/limits of the reading process
limit() { awk -v n="$1" 'index($0, n) == 1 { sub(n, ""); print $1 }' /proc/self/limits; }
nproc_lim=$(limit "Max processes")
[ "$nproc_lim" = unlimited ] || [ "$nproc_lim" -gt $((N + 512)) ] ||
	skip "RLIMIT_NPROC $nproc_lim is too low for $N threads"
[ "$(cat /proc/sys/kernel/threads-max)" -gt $((N * 4)) ] || skip "kernel.threads-max too low"

# bad input first: exit 2, nothing written
"$CGSCALE" run -q -t 1 --sampler-priority fast -o bad.json page_fault1 2>err.txt
rc=$?
[ $rc -eq 2 ] || fail "--sampler-priority fast: exit $rc, want 2"
grep -q 'sampler-priority' err.txt || fail "message does not name the option: $(cat err.txt)"
[ ! -e bad.json ] || fail "a result was written for bad input"

# normal priority asked for: recorded, with the reason
"$CGSCALE" run -q -t 2 -m thread -w 0 -d 300ms -i 100ms --tmpdir "$T" \
	--sampler-priority normal -o normal.json fallocate2 >/dev/null 2>err.txt ||
	fail "normal-priority run failed: $(cat err.txt)"
jq_check normal.json '.environment.sampler == {"policy": "normal", "reason": "--sampler-priority normal"}' \
	"normal priority recorded in the environment"
jq_check normal.json '.points[0].harness.sampler_policy == "normal"' "normal priority recorded in the point"

# the default: real-time where allowed
"$CGSCALE" run -q -t $N -m thread -w 200ms -d 1s -i 100ms --tmpdir "$T" \
	-o many.json fallocate2 >out.txt 2>err.txt || fail "$N threads: $(cat err.txt)"
pol=$(jq -r '.environment.sampler.policy' many.json)
[ "$pol" = SCHED_FIFO ] ||
	skip "no real-time priority here ($(jq -r .environment.sampler.reason many.json)): the lag bound needs it"
jq_check many.json '.points[0].status == "ok" and .points[0].tasks == '$N "the point ran"
jq_check many.json '[.points[0].tasks_detail[] | .status == "ok"] | (length == '$N') and all' "every task ok"
jq_check many.json '.points[0].harness.sampler_policy == "SCHED_FIFO"' "policy recorded per point"
lag=$(jq '.points[0].timing.sampler_lag_max_ms' many.json)
echo "$N threads: sampler lag $lag ms, harness $(jq -c .points[0].harness many.json)"
jq_check many.json '.points[0].timing.sampler_lag_max_ms < 100' "sampler lag $lag ms >= 100 ms"
# no instant was dropped for lateness: 1 start + 2 warm-up + 10 measured
jq_check many.json '.points[0].samples.t_ns | length == 13' "all 13 instants taken"
jq_check many.json '.points[0].harness | (.spawn_ms > 0) and (.stop_ms > 0) and (.sample_instants == 13) and (.sample_max_us > 0)' \
	"spawn, stop and sampler cost recorded"
grep -q "sampler late" out.txt && fail "the table flags a late sampler"
left=$(our_procs)
[ -z "$left" ] || fail "processes left behind: $left"

# a user who may not use SCHED_FIFO is told, and the results say normal
[ "$(id -u)" = 0 ] && command -v setpriv >/dev/null || { echo "no setpriv: nobody case not run"; exit 0; }
asnobody() { setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$@"; }
asnobody test -x "$CGSCALE" || { echo "nobody cannot run $CGSCALE: nobody case not run"; exit 0; }
[ "$(asnobody awk '/^Max realtime priority/ { print $4 }' /proc/self/limits)" = 0 ] || { echo "nobody has RLIMIT_RTPRIO: nobody case not run"; exit 0; }
chown 65534:65534 "$T" || exit 1
asnobody "$CGSCALE" run -q -t 1 -m thread -w 0 -d 200ms -i 100ms --tmpdir "$T" \
	-o "$T/nobody.json" fallocate2 >/dev/null 2>err.txt || fail "run as nobody: $(cat err.txt)"
grep -q 'sampler runs at normal priority: SCHED_FIFO refused' err.txt ||
	fail "no warning for nobody: $(cat err.txt)"
jq_check nobody.json '.environment.sampler.policy == "normal" and (.environment.sampler.reason | test("CAP_SYS_NICE"))' \
	"refusal recorded"
exit 0
