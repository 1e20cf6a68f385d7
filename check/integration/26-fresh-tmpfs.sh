#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Without --tmpdir, as root, the tasks' files go to a tmpfs of the point's
# own (issue 42): each worker moves into a mount namespace of its own and
# mounts a tmpfs over /dev/shm there, sized from the workload (page_fault3:
# 128 MiB a task + 16), recorded in the result. The box never sees the
# mount (its /proc/mounts and the runner's have none while the worker's
# has it), nothing lands in the box's /dev/shm, and a SIGKILL of the
# runner leaves nothing. The runner stays in the box's namespace, so an
# -o under /dev/shm is written where the user sees it. Not root: the
# shared default, and the result and stderr say why. --tmpdir: as given.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root"
[ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] || skip "/dev/shm is not a tmpfs here"
unshare -m true 2>/dev/null || skip "no mount namespaces here (unshare -m)"
ls -A /dev/shm | sort >shm.before

# the worker of PID (the runner): its pid, once it has one
worker_of() {
	for c in $(ps -o pid= --ppid "$1"); do
		[ "$(cat /proc/$c/comm 2>/dev/null)" = cgs:worker ] && { echo $c; return 0; }
	done
	return 1
}

"$CGSCALE" run -q -t 2 -m process -r 1 -w 0 -d 3 -i 0.5 --cgroup-depth 0 -o r.json page_fault3 \
	>out.txt 2>err.txt &
pid=$!
wait_until 20 sh -c "w=\$(ps -o pid= --ppid $pid); for c in \$w; do grep -q ' /dev/shm tmpfs .*size=278528k' /proc/\$c/mounts 2>/dev/null && exit 0; done; exit 1" ||
	fail "no worker of the run has a tmpfs of 272 MiB over /dev/shm"
grep -q cgscale-tmp /proc/self/mounts && fail "the point's tmpfs is seen outside it: $(grep cgscale-tmp /proc/self/mounts)"
grep -q cgscale-tmp /proc/$pid/mounts && fail "the runner itself left the box's mount namespace"
wait $pid || fail "run: $(cat err.txt)"
jq_check r.json '.environment.tmpdir | .fresh == true and .fstype == "tmpfs" and .path == "/dev/shm" and .size_bytes == 285212672' \
	"the result records the point's own tmpfs and its size"
jq_check r.json '[.points[] | .status == "ok"] | all' "every point ok on it"
[ "$(ls -A /dev/shm | sort)" = "$(cat shm.before)" ] || fail "the box's /dev/shm changed: $(ls -A /dev/shm)"

# a SIGKILL of the runner: its workers end, and the kernel takes the mount
"$CGSCALE" run -q -t 1 -m process -w 0 -d 30 -i 1 --cgroup-depth 0 -o k.json page_fault3 \
	>/dev/null 2>&1 &
pid=$!
wait_until 20 sh -c "w=\$(ps -o pid= --ppid $pid); for c in \$w; do grep -q cgscale-tmp /proc/\$c/mounts 2>/dev/null && exit 0; done; exit 1" ||
	fail "no tmpfs in a worker to kill"
w=$(worker_of $pid) || fail "no worker"
ns=$(readlink /proc/$w/ns/mnt)
kill -KILL $pid
wait $pid 2>/dev/null
wait_until 10 sh -c "! ls -l /proc/[0-9]*/ns/mnt 2>/dev/null | grep -qF '$ns'" ||
	fail "a process is still in the killed run's mount namespace"
[ "$(ls -A /dev/shm | sort)" = "$(cat shm.before)" ] || fail "the box's /dev/shm changed after a SIGKILL: $(ls -A /dev/shm)"

# -o under /dev/shm: the runner writes it in the box's /dev/shm
d=$(mktemp -d /dev/shm/cgscale-it-XXXXXX)
"$CGSCALE" run -q -t 1 -m process -w 0 -d 0.3 -i 0.1 --cgroup-depth 0 -o "$d/r.json" page_fault3 \
	>/dev/null 2>err.txt || { rm -rf "$d"; fail "run -o under /dev/shm: $(cat err.txt)"; }
jq -e '.environment.tmpdir.fresh == true' "$d/r.json" >/dev/null ||
	{ rm -rf "$d"; fail "-o under /dev/shm: $(jq -c .environment.tmpdir "$d/r.json" 2>&1)"; }
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
	grep -q "shared with the box: not root" nb/err.txt || fail "as nobody, not said: $(cat nb/err.txt)"
	jq -e '.environment.tmpdir | .fresh == false and (.not_fresh | test("not root"))' nb/r.json >/dev/null ||
		fail "as nobody, the result does not say why: $(jq -c .environment.tmpdir nb/r.json)"
else
	echo "nobody cannot run $CGSCALE here: the not-root case not run"
fi
exit 0
