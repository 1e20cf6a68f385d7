#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 14-sampler-cost.sh - the sampler's own cost is kept off the tasks:
#   - /proc/vmstat is read twice a point (the window's edges), and
#     /proc/stat at the edges and at most every --cpustat-interval, not at
#     every sample (counted with strace at -i 50ms); --cpustat-interval 0
#     reads it at every sample, and either way every measured sample has
#     its idle figure;
#   - --sampler-cpu: auto binds the sampler to the last CPU no task is
#     bound to while it samples (read from /proc while it runs), none and
#     -t all leave it unbound, a number binds it there, and each is
#     recorded with its reason; bad values exit 2 with nothing written.
. "$(dirname "$0")/lib.sh"
command -v strace >/dev/null || skip "needs strace (scripts/deps.sh test)"

# bad input: exit 2, one line naming the option, nothing written
for bad in x 99999 -3; do
	"$CGSCALE" run -q -t 1 --sampler-cpu "$bad" -o bad.json page_fault1 2>err.txt
	rc=$?
	[ $rc -eq 2 ] || fail "--sampler-cpu $bad: exit $rc, want 2"
	[ "$(wc -l <err.txt)" -eq 1 ] && grep -q -- '--sampler-cpu' err.txt ||
		fail "--sampler-cpu $bad: not one line naming the option: $(cat err.txt)"
	[ ! -e bad.json ] || fail "--sampler-cpu $bad: a result was written"
done
"$CGSCALE" run -q -t 1 --cpustat-interval -1s -o bad.json page_fault1 2>err.txt
[ $? -eq 2 ] && [ ! -e bad.json ] || fail "--cpustat-interval -1s was not refused: $(cat err.txt)"

# reads of /proc/stat and /proc/vmstat in a 2 s window sampled every 50 ms
reads() {   # $1 = output, rest = options
	out=$1; shift
	strace -f -qq -o "$out.st" -e trace=pread64 -P /proc/stat -P /proc/vmstat \
		"$CGSCALE" run -q -t 1 -m process -w 0 -d 2s -i 50ms --tmpdir "$T" \
		--cgroup-depth 0 "$@" -o "$out.json" page_fault3 >/dev/null 2>"$out.err" ||
		fail "run $*: $(cat "$out.err")"
	jq_check "$out.json" '.points[0].status == "ok"' "run $*: the point ran"
	ns=$(grep -c '"cpu ' "$out.st")
	nv=$(grep -c 'nr_free_pages' "$out.st")
}
reads coarse
echo "default: /proc/stat read $ns times, /proc/vmstat $nv times, in 40 samples"
[ "$nv" -eq 2 ] || fail "/proc/vmstat read $nv times, want 2 (the window's edges)"
# the first read, then about one a second, and the last edge: 3 to 5
[ "$ns" -ge 3 ] && [ "$ns" -le 5 ] || fail "/proc/stat read $ns times at --cpustat-interval 1s, want 3-5"
jq_check coarse.json '.points[0].harness.cpustat_interval_ms == 1000' "cpustat interval recorded"
jq_check coarse.json '[.points[0].samples.idle_pct[1:][] | . != null] | all' \
	"every measured sample has its idle figure"
jq_check coarse.json '.points[0].summary.idle_pct | . >= 0 and . <= 100' "window idle figure"
jq_check coarse.json '.points[0].vmstat.delta | length > 0' "vmstat deltas still recorded"
reads every --cpustat-interval 0
echo "--cpustat-interval 0: /proc/stat read $ns times"
[ "$ns" -ge 35 ] || fail "/proc/stat read $ns times at --cpustat-interval 0, want one per sample"
jq_check every.json '.points[0].harness.cpustat_interval_ms == 0' "interval 0 recorded"

# the sampler's CPU: ask /proc which CPUs the runner's main thread may use
# while it samples (the warm-up is over at 0.8 s of 2 s)
allowed_while() {   # $1 = output, rest = options; prints Cpus_allowed_list
	out=$1; shift
	"$CGSCALE" run -q -w 0 -d 2s -i 100ms --tmpdir "$T" --cgroup-depth 0 "$@" \
		-o "$out.json" page_fault1 >/dev/null 2>"$out.err" &
	pid=$!
	sleep 0.8
	a=$(awk '/^Cpus_allowed_list/ { print $2 }' "/proc/$pid/task/$pid/status" 2>/dev/null)
	wait $pid || fail "run $*: $(cat "$out.err")"
	echo "$a"
}
all=$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status)
last=$(taskset -c -p $$ | sed 's/.*: //' | tr ',' '\n' | sed 's/.*-//' | sort -n | tail -1)
ncpu=$(nproc)
if [ "$ncpu" -ge 2 ]; then
	a=$(allowed_while auto -t 1 -m process --placement pus)
	jq_check auto.json ".points[0].harness.sampler_cpu == $last" "auto: the last free CPU ($last) recorded"
	jq_check auto.json '.points[0].harness.sampler_cpu_reason == "the last CPU no task is bound to"' "auto: reason"
	[ "$a" = "$last" ] || fail "auto: the sampler could use CPUs $a while sampling, want $last"
	a=$(allowed_while zero -t 1 -m process --placement pus --sampler-cpu 0)
	[ "$a" = 0 ] || fail "--sampler-cpu 0: the sampler could use CPUs $a, want 0"
	jq_check zero.json '.points[0].harness.sampler_cpu == 0' "--sampler-cpu 0 recorded"
fi
a=$(allowed_while none -t 1 -m process --sampler-cpu none)
[ "$a" = "$all" ] || fail "--sampler-cpu none: the sampler could use CPUs $a, want all ($all)"
jq_check none.json '.points[0].harness.sampler_cpu == null' "none: unbound recorded"
a=$(allowed_while full -t all -m process --placement pus)
[ "$a" = "$all" ] || fail "-t all: the sampler could use CPUs $a, want all ($all)"
jq_check full.json '.points[0].harness.sampler_cpu_reason | test("every CPU has a task")' \
	"-t all: unbound with the reason"
# after the run, the runner is unbound again: a second point in the same
# run starts its workers from an unbound runner (--placement none tasks
# would inherit a binding)
"$CGSCALE" run -q -t 1 -r 2 -m process --placement none -w 0 -d 300ms -i 100ms --tmpdir "$T" \
	--cgroup-depth 0 -o unb.json page_fault1 >/dev/null 2>err.txt || fail "unbound run: $(cat err.txt)"
jq_check unb.json '[.points[].harness.sampler_cpu_reason | test("placement none")] | all' \
	"--placement none: the sampler unbound, as the tasks"
echo "ok"
