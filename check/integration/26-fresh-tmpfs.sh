#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Without --tmpdir, as root, the tasks' files go to a tmpfs of the run's
# own (issue 42): mounted over /dev/shm in the runner's own mount
# namespace, sized from the workload (page_fault3: 128 MiB a task + 16),
# recorded in the result; the box never sees the mount (its /proc/mounts
# has none while the run is on, the runner's has one), nothing lands in
# the box's /dev/shm, and a SIGKILL of the runner leaves nothing. Where
# it cannot (an -o under /dev/shm, not root), the shared default is used
# and the result and stderr say why. --tmpdir is used as given.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root"
[ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] || skip "/dev/shm is not a tmpfs here"
unshare -m true 2>/dev/null || skip "no mount namespaces here (unshare -m)"
ls -A /dev/shm | sort >shm.before

"$CGSCALE" run -q -t 1,2 -m process -r 1 -w 0 -d 2 -i 0.5 --cgroup-depth 0 -o r.json page_fault3 \
	>out.txt 2>err.txt &
pid=$!
wait_until 20 sh -c "grep -q ' /dev/shm tmpfs .*size=278528k' /proc/$pid/mounts 2>/dev/null" ||
	fail "the runner has no tmpfs of 272 MiB over /dev/shm: $(grep /dev/shm /proc/$pid/mounts 2>&1)"
grep -q cgscale-tmp /proc/self/mounts && fail "the run's tmpfs is seen outside it: $(grep cgscale-tmp /proc/self/mounts)"
wait $pid || fail "run: $(cat err.txt)"
jq_check r.json '.environment.tmpdir | .fresh == true and .fstype == "tmpfs" and .path == "/dev/shm" and .size_bytes == 285212672' \
	"the result records the run's own tmpfs and its size"
jq_check r.json '[.points[] | .status == "ok"] | all' "every point ok on it"
[ "$(ls -A /dev/shm | sort)" = "$(cat shm.before)" ] || fail "the box's /dev/shm changed: $(ls -A /dev/shm)"

# a SIGKILL of the runner: the kernel takes the mount with the namespace
"$CGSCALE" run -q -t 1 -m process -w 0 -d 30 -i 1 --cgroup-depth 0 -o k.json page_fault3 \
	>/dev/null 2>&1 &
pid=$!
wait_until 20 sh -c "grep -q cgscale-tmp /proc/$pid/mounts 2>/dev/null" || fail "no tmpfs in the runner to kill"
ns=$(readlink /proc/$pid/ns/mnt)
kill -KILL $pid
wait $pid 2>/dev/null
wait_until 10 sh -c "! ls -l /proc/[0-9]*/ns/mnt 2>/dev/null | grep -qF '$ns'" ||
	fail "a process is still in the killed run's mount namespace"
grep -q cgscale-tmp /proc/self/mounts && fail "the killed run's tmpfs is left"
[ "$(ls -A /dev/shm | sort)" = "$(cat shm.before)" ] || fail "the box's /dev/shm changed after a SIGKILL: $(ls -A /dev/shm)"

# -o under /dev/shm: the run's tmpfs would hide it; the shared default, said
d=$(mktemp -d /dev/shm/cgscale-it-XXXXXX)
"$CGSCALE" run -q -t 1 -m process -w 0 -d 0.3 -i 0.1 --cgroup-depth 0 -o "$d/r.json" page_fault3 \
	>/dev/null 2>err.txt || { rm -rf "$d"; fail "run -o under /dev/shm: $(cat err.txt)"; }
grep -q "shared with the box: .*under /dev/shm" err.txt || { rm -rf "$d"; fail "the reason is not said: $(cat err.txt)"; }
jq -e '.environment.tmpdir | .fresh == false and (.not_fresh | test("under /dev/shm"))' "$d/r.json" >/dev/null ||
	{ rm -rf "$d"; fail "the result does not say why: $(jq -c .environment.tmpdir "$d/r.json")"; }
rm -rf "$d"

# --tmpdir: as given, no tmpfs of our own
"$CGSCALE" run -q -t 1 -m process -w 0 -d 0.3 -i 0.1 --cgroup-depth 0 --tmpdir "$T" -o g.json page_fault3 \
	>/dev/null 2>err.txt || fail "run --tmpdir: $(cat err.txt)"
jq_check g.json ".environment.tmpdir | .fresh == false and .path == \"$T\" and .not_fresh == null" "--tmpdir used as given"

# not root: the shared default, said
asnobody() { setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$@"; }
if asnobody test -x "$CGSCALE" && mkdir nb && chown 65534 nb; then
	(cd nb && asnobody "$CGSCALE" run -q -t 1 -m process -w 0 -d 0.3 -i 0.1 --cgroup-depth 0 -o r.json page_fault1 \
		>/dev/null 2>err.txt) || fail "run as nobody: $(cat nb/err.txt)"
	jq -e '.environment.tmpdir | .fresh == false and (.not_fresh | test("not root"))' nb/r.json >/dev/null ||
		fail "as nobody, the result does not say why: $(jq -c .environment.tmpdir nb/r.json)"
else
	echo "nobody cannot run $CGSCALE here: the not-root case not run"
fi
exit 0
