#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# s4-repeat.sh - step S4 of 75-cgroup-v2-vm.sh (page_fault1 with -w 0 and
# a 50 reads/s reader of the depth-3 leaf's memory.stat) N times in one
# cgroup v2 VM while the host is kept busy, each run held to S4's own
# check: the leaf's pgfault delta >= half the ops, never null. Issue 28
# saw that step fail under load with a null delta (the reader's first
# read came after the window had begun).
#
#   CGSCALE=./cgscale check/vm/s4-repeat.sh
#
# N (20) runs; LOAD (default: `make -j2 cgscale` then `make clean`, over
# and over, in a scratch clone of this repository) is what keeps the host
# busy, or "none". Too slow for make check (several minutes); prints one
# line per run and exits 1 if any failed, 77 when no VM can be had.
. "$(dirname "$0")/../integration/lib.sh"
. "$REPO/check/vm/vm-lib.sh"
N=${N:-20}
command -v qemu-system-x86_64 >/dev/null && command -v busybox >/dev/null &&
	command -v cpio >/dev/null || skip "needs qemu-system-x86_64, busybox and cpio (see 75-cgroup-v2-vm.sh)"
vm_kernel || skip "$VM_WHY"
vm_initramfs initrd.cpio "$CGSCALE" || fail "initramfs: $VM_WHY"

lp=
stop_load() { [ -z "$lp" ] || { kill -TERM "-$lp" 2>/dev/null; wait "$lp" 2>/dev/null; lp=; }; }
trap 'stop_load; rm -rf "$T"' EXIT
trap "exit 130" INT TERM
if [ "${LOAD:-}" != none ]; then
	git clone -q "$REPO" load || fail "cannot clone $REPO for the load"
	LOAD=${LOAD:-cd load && while :; do make -j2 cgscale >/dev/null 2>&1; make clean >/dev/null 2>&1; done}
	# its own process group, which stop_load ends: only what we started
	setsid sh -c "$LOAD" &
	lp=$!
	echo "load: $LOAD (pid $lp)"
fi
VM_TIMEOUT=$((120 + 60 * N)) vm_boot "$VM_KERNEL" initrd.cpio "s4 cgvm_n=$N" s4.txt s4.log -smp 2 ||
	fail "boot: $VM_WHY"
stop_load
grep -q '^=== done$' s4.txt || fail "the VM did not finish: $(tail -n 20 s4.log)"
bad=0
i=1
while [ "$i" -le "$N" ]; do
	vm_block s4.txt "s4-$i.json" >"s4-$i.json"
	d=$(jq '.points[0].stat_reader.content.delta.pgfault' "s4-$i.json" 2>/dev/null)
	o=$(jq '.points[0].summary.ops' "s4-$i.json" 2>/dev/null)
	ok=$(jq ".points[0] | $VM_S4_GREW" "s4-$i.json" 2>/dev/null)
	rc=$(vm_value s4.txt "rc_s4_$i")
	if [ "$rc" = 0 ] && [ "$ok" = true ]; then r=ok; else r=FAILED bad=$((bad + 1)); fi
	echo "run $i: $r: exit $rc, pgfault delta $d for $o ops $(vm_block s4.txt "s4-$i.err" | head -n 1)"
	i=$((i + 1))
done
[ "$(vm_value s4.txt left_s4)" = 0 ] || fail "$(vm_value s4.txt left_s4) cgroups left in the VM"
echo "$((N - bad)) of $N runs passed S4's check"
[ "$bad" = 0 ]
