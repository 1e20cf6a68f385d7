#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The CPUs a run may use: its cpuset's that the affinity mask it was
# started with allows. Under `taskset -c C` (C the last CPU this shell may
# use, so never the CPU a whole-machine run would pick first) the task
# runs on C in both modes, -t all and 50% count only C, the results say
# which CPUs and what narrowed them, and a sampler or stat-reader CPU
# outside is refused with exit 2. With two CPUs allowed, the sampler goes
# on the one the task leaves. Foreign load is judged on the allowed CPUs
# only (busy loops of ours inside and outside them). Then, as root where a cpuset controller is
# mounted, the same inside a one-CPU cpuset cgroup made under a scratch
# cgroup of ours (skipped loudly where there is none).
. "$(dirname "$0")/lib.sh"

command -v taskset >/dev/null || skip "needs taskset (util-linux)"
cpus=$(taskset -c -p $$ | sed 's/.*: //' | tr ',' '\n' | while IFS=- read -r a b; do
	seq "$a" "${b:-$a}"
done)
n=$(echo "$cpus" | wc -l)
[ "$n" -ge 2 ] || skip "needs 2 CPUs this shell may use, has $n"
c=$(echo "$cpus" | tail -n 1)
o=$(echo "$cpus" | head -n 1)
base="-q -w 0 -i 0.1 --cgroup-depth 0"
short="$base -d 0.3"

# shellcheck disable=SC2086
taskset -c "$c" "$CGSCALE" run $short -t 1,all,50% -m both -o a.json page_fault1 >/dev/null 2>a.err ||
	fail "taskset -c $c: exit $?: $(cat a.err)"
jq_check a.json "([.points[] | .status == \"ok\" and .tasks == 1 and .tasks_detail[0].cpuset == \"$c\"] | all)
	and (.points | length) == 2" "taskset -c $c: one task in each mode, on CPU $c: $(jq -c '[.points[] | [.mode, .tasks, .tasks_detail[0].cpuset]]' a.json)"
jq_check a.json ".machine.allowed == {\"cpus\": \"$c\", \"by\": \"affinity\", \"cut_cores\": 0} and .machine.topology.pus == 1" \
	"the allowed set and its source recorded: $(jq -c .machine.allowed a.json)"
jq_check a.json '.options.tasks_resolved == [1]' "all and 50% are of the allowed CPUs: $(jq -c .options.tasks_resolved a.json)"

# shellcheck disable=SC2086
taskset -c "$c" "$CGSCALE" run $short -t 1 --sampler-cpu "$o" -o b.json page_fault1 >/dev/null 2>b.err
rc=$?
[ $rc = 2 ] || fail "--sampler-cpu $o outside the allowed CPUs: exit $rc, expected 2"
grep -q "sampler-cpu $o is not a CPU the runner may use (those are $c, by the affinity mask)" b.err ||
	fail "--sampler-cpu $o: the message does not name the allowed CPUs: $(cat b.err)"
# shellcheck disable=SC2086
taskset -c "$c" "$CGSCALE" run $short -t 1 --stat-reader 10 --stat-reader-cpu "$o" -o b.json page_fault1 >/dev/null 2>b.err
rc=$?
[ $rc = 2 ] || fail "--stat-reader-cpu $o outside the allowed CPUs: exit $rc, expected 2"
grep -q "stat-reader-cpu $o is not a CPU the runner may use" b.err || fail "--stat-reader-cpu $o: $(cat b.err)"
[ -e b.json ] && fail "a refused run wrote its result"

# two CPUs allowed: the task on the first, the sampler on the other
# shellcheck disable=SC2086
taskset -c "$o,$c" "$CGSCALE" run $short -t 1 -m process -o c.json page_fault1 >/dev/null 2>c.err ||
	fail "taskset -c $o,$c: $(cat c.err)"
jq_check c.json ".points[0] | .tasks_detail[0].cpuset == \"$o\" and .harness.sampler_cpu == $c" \
	"taskset -c $o,$c: task on $o, sampler on $c: $(jq -c '.points[0] | [.tasks_detail[0].cpuset, .harness.sampler_cpu]' c.json)"
if [ "$n" = 2 ]; then
	jq_check c.json '.machine.allowed.by == "all" or .machine.allowed.by == "cpuset"' "nothing narrowed by the mask of all CPUs"
fi

# Foreign load is judged on the CPUs the run may use. A busy loop of ours
# pinned to $o, outside `taskset -c $c`, is none of the run's: its idle
# figure is of CPU $c alone (harness.idle_cpus), where 1 task leaves none
# idle; a whole-machine figure would read ~0% where 1 task of 2 CPUs
# leaves 50% and flag it. The same busy loop on a CPU the run may use
# ($c, beside its task on $o) is foreign load: the task and the loop keep
# both CPUs busy, idle ~0% against the 50% one task leaves. Both effects
# are whole CPUs, not small differences: other load only lowers idle.
busy=
stop_busy() {
	[ -n "$busy" ] || return 0
	kill "$busy" 2>/dev/null
	wait "$busy" 2>/dev/null
	busy=
}
spin() { taskset -c "$1" sh -c 'while :; do :; done' & busy=$!; }
trap 'stop_busy; rm -rf "$T"' EXIT
spin "$o"
# shellcheck disable=SC2086
taskset -c "$c" "$CGSCALE" run $base -d 1 -t 1 -o e.json page_fault1 >/dev/null 2>e.err ||
	fail "taskset -c $c, busy loop on $o: $(cat e.err)"
stop_busy
jq_check e.json "([.points[] | .status == \"ok\" and .harness.idle_cpus == \"$c\"] | all)" \
	"the idle figure is of CPU $c only: $(jq -c '[.points[] | .harness.idle_cpus]' e.json)"
jq_check e.json '[.points[].disturbed[] | select(test("foreign load"))] == []' \
	"a busy loop outside the run's CPU is not its foreign load: $(jq -c '[.points[] | [.summary.idle_pct, .disturbed]]' e.json)"
spin "$c"
# shellcheck disable=SC2086
taskset -c "$o,$c" "$CGSCALE" run $base -d 1 -t 1 -m process -o f.json page_fault1 >/dev/null 2>f.err ||
	fail "taskset -c $o,$c, busy loop on $c: $(cat f.err)"
stop_busy
jq_check f.json ".points[0] | .tasks_detail[0].cpuset == \"$o\" and .summary.idle_pct < 25 and
	any(.disturbed[]; test(\"^foreign load: idle .* the task count leaves 50.0%\"))" \
	"a busy loop on a CPU the run may use is foreign load: $(jq -c '.points[0] | [.tasks_detail[0].cpuset, .harness.idle_cpus, .summary.idle_pct, .disturbed]' f.json)"

# a one-CPU cpuset cgroup of our own, under a scratch parent of ours
loud() { echo "!!! cpuset part of $(basename "$0") not run: $* !!!" >&2; exit 0; }
[ "$(id -u)" = 0 ] || loud "not root"
v1=$(awk '$9 == "cgroup" && $NF ~ /(^|,)cpuset(,|$)/ {print $5; exit}' /proc/self/mountinfo)
v2=$(awk '$9 == "cgroup2" {print $5; exit}' /proc/self/mountinfo)
if [ -n "$v1" ]; then
	base=$v1$(awk -F: '$2 ~ /(^|,)cpuset(,|$)/ {print $3}' /proc/self/cgroup)
elif [ -n "$v2" ] && grep -qw cpuset "$v2/cgroup.controllers" 2>/dev/null; then
	base=$v2$(awk -F: '$1 == 0 {print $3}' /proc/self/cgroup)
	grep -qw cpuset "$base/cgroup.subtree_control" 2>/dev/null ||
		loud "the cpuset controller is not enabled below $base (we do not change it)"
else
	loud "no cpuset controller mounted"
fi
scratch=${base%/}/cgscale-it-cpus-$$
cleanup_cg() { rmdir "$scratch/one" "$scratch" 2>/dev/null; }
trap 'stop_busy; cleanup_cg; rm -rf "$T"' EXIT
mkdir "$scratch" || loud "cannot make $scratch"
if [ -n "$v1" ]; then
	cat "${base%/}/cpuset.cpus" >"$scratch/cpuset.cpus" && cat "${base%/}/cpuset.mems" >"$scratch/cpuset.mems" &&
		mkdir "$scratch/one" && echo "$c" >"$scratch/one/cpuset.cpus" &&
		cat "$scratch/cpuset.mems" >"$scratch/one/cpuset.mems" || fail "cannot set up the v1 cpuset $scratch/one"
	procs=tasks
else
	echo "+cpuset" >"$scratch/cgroup.subtree_control" && mkdir "$scratch/one" &&
		echo "$c" >"$scratch/one/cpuset.cpus" || fail "cannot set up the v2 cpuset $scratch/one"
	procs=cgroup.procs
fi
# shellcheck disable=SC2086
sh -c 'echo $$ >"$1/one/$2" && shift 2 && exec "$@"' sh "$scratch" "$procs" \
	"$CGSCALE" run $short -t all -m process -o d.json page_fault1 >/dev/null 2>d.err ||
	fail "in the cpuset $scratch/one: $(cat d.err)"
jq_check d.json ".points[0] | .tasks == 1 and .tasks_detail[0].cpuset == \"$c\"" \
	"cpuset of CPU $c: -t all is one task, on $c: $(jq -c '.points[0] | [.tasks, .tasks_detail[0].cpuset]' d.json)"
jq_check d.json ".machine.allowed.cpus == \"$c\" and .machine.allowed.by == \"cpuset\"" \
	"the cpuset recorded as the source: $(jq -c .machine.allowed d.json)"
echo "taskset and cpuset ($scratch/one) both honoured"
