#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cgscale ab (issue 27): two Debian kernels of one version, the generic and
# the PREEMPT_RT build (linux-image-VER-amd64 and -rt-amd64, fetched with
# apt-get download into build/vm-cache/ab once, never installed), given as
# the package files themselves, two boots each under TCG, a short
# page_fault1 point per boot. Checks: four result files, the ABBA order,
# compare with two invocations a side, the environment diff naming
# CONFIG_PREEMPT_RT, the TCG warning in the output and in every result,
# no qemu process and no temporary file left; and that an empty or a
# truncated kernel fails (exit 2) with a clear message before any boot.
. "$(dirname "$0")/lib.sh"
. "$REPO/check/vm/vm-lib.sh"

loud_skip() {
	echo "!!! SKIPPING THE cgscale ab TEST: $* !!!" >&2
	skip "!!! cgscale ab test not run: $* !!!"
}
command -v qemu-system-x86_64 >/dev/null || loud_skip "no qemu-system-x86_64 (Debian: qemu-system-x86)"
command -v busybox >/dev/null || loud_skip "no busybox (Debian: busybox-static)"
command -v dpkg-deb >/dev/null || loud_skip "no dpkg-deb"
command -v jq >/dev/null || loud_skip "no jq"

# lib.sh's scratch folder $T (removed on exit) holds everything

# bad kernels first: exit 2, a message naming the problem, no boot
: >"$T/empty"
printf 'not a kernel at all' >"$T/junk"
for bad in empty junk; do
	"$CGSCALE" ab --kernel A="$T/$bad" --kernel B="$T/$bad" -o "$T/bad" -- -t 1 page_fault1 \
		>"$T/bad.out" 2>"$T/bad.err"
	rc=$?
	[ $rc -eq 2 ] || fail "ab with a kernel that is $bad: exit $rc, want 2"
	grep -q "$T/$bad" "$T/bad.err" || fail "ab with a $bad kernel does not name it: $(cat "$T/bad.err")"
	[ ! -e "$T/bad/logs" ] || fail "ab with a $bad kernel went on to prepare boots"
done
grep -q 'is empty' "$T/bad.err" 2>/dev/null || grep -q 'neither a bzImage' "$T/bad.err" ||
	fail "the junk kernel's message: $(cat "$T/bad.err")"

# the packages
pkg=$(vm_kernel_pkg)
[ -n "$pkg" ] || { [ "$(id -u)" = 0 ] && apt-get update >/dev/null 2>&1; pkg=$(vm_kernel_pkg); }
cache="$VM_CACHE/ab"
mkdir -p "$cache"
if [ -n "$pkg" ]; then
	ver=${pkg#linux-image-}
	ver=${ver%-amd64}
	for p in "linux-image-$ver-amd64" "linux-image-$ver-rt-amd64"; do
		ls "$cache/${p}_"*.deb >/dev/null 2>&1 && continue
		(cd "$cache" && apt-get download "$p") >"$T/dl.log" 2>&1 ||
			loud_skip "apt-get download $p failed: $(grep -v '^W:' "$T/dl.log" | tail -n 1)"
	done
	A=$(ls "$cache/linux-image-$ver-amd64_"*.deb | head -n 1)
	B=$(ls "$cache/linux-image-$ver-rt-amd64_"*.deb | head -n 1)
else
	# offline: packages fetched before will do
	B=$(ls -t "$cache"/linux-image-*-rt-amd64_*.deb 2>/dev/null | head -n 1)
	[ -n "$B" ] || loud_skip "apt-cache knows no linux-image-amd64 and nothing is cached in $cache"
	A=$(echo "$B" | sed 's/-rt-amd64_/-amd64_/')
	[ -f "$A" ] || loud_skip "no generic package beside $B"
fi
truncate_to=$(($(stat -c %s "$A") / 3))
dpkg-deb -x "$A" "$T/x" || fail "dpkg-deb -x $A"
head -c 3000000 "$T/x"/boot/vmlinuz-* >"$T/trunc"
"$CGSCALE" ab --kernel A="$T/trunc" --kernel B="$A" -o "$T/bad" -- -t 1 page_fault1 >"$T/bad.out" 2>"$T/bad.err"
rc=$?
[ $rc -eq 2 ] || fail "ab with a truncated bzImage: exit $rc, want 2"
grep -q 'truncated bzImage' "$T/bad.err" || fail "the truncated kernel's message: $(cat "$T/bad.err")"
head -c $truncate_to "$A" >"$T/trunc.deb"
"$CGSCALE" ab --kernel A="$T/trunc.deb" --kernel B="$A" -o "$T/bad" -- -t 1 page_fault1 >"$T/bad.out" 2>"$T/bad.err"
[ $? -eq 2 ] || fail "ab with a truncated .deb: not exit 2"
rm -rf "$T/x"

before=$(ls -d /tmp/cgscale-ab-* 2>/dev/null | wc -l)
"$CGSCALE" ab --boots 2 --boot-timeout 300s --kernel A="$A" --kernel B="$B" -o "$T/o" \
	-- -q -t 1 -w 0 -d 1 -r 2 page_fault1 >"$T/out" 2>"$T/err"
rc=$?
[ $rc -le 1 ] || fail "cgscale ab exit $rc: $(tail -n 20 "$T/err")"
for f in A/A-1 A/A-2 B/B-1 B/B-2; do
	[ -s "$T/o/$f.json" ] || fail "no result $f.json: $(tail -n 20 "$T/err")"
	jq_check "$T/o/$f.json" '.environment.vm.accel == "tcg" and (.environment.vm.warning | test("never for benchmark numbers"))' \
		"$f.json records the TCG warning"
	jq_check "$T/o/$f.json" '.kernel.config.hash | startswith("fnv1a64:")' "$f.json records the config hash"
	jq_check "$T/o/$f.json" '.kernel.vm.swappiness != null and .kernel.vm.overcommit_memory != null' \
		"$f.json records the vm sysctls"
	jq_check "$T/o/$f.json" '[.points[] | .harness.task_process.image == "plain" and .harness.task_process.exe == "/bin/cgscale-tasks"] | all' \
		"$f.json: the guest's tasks ran in the plain image the initramfs carries"
done
jq_check "$T/o/B/B-1.json" '.kernel.config.options.CONFIG_PREEMPT_RT == "y"' "the rt boot records PREEMPT_RT=y"
jq_check "$T/o/A/A-1.json" '.kernel.config.options.CONFIG_PREEMPT_RT == "n"' "the generic boot records PREEMPT_RT=n"
order=$(jq -r '[.boots[].name] | join(" ")' "$T/o/ab.json")
[ "$order" = "A-1 B-1 B-2 A-2" ] || fail "boot order '$order', want ABBA"
grep -q 'WARNING.*TCG figures are for checking the flow, never for benchmark numbers' "$T/err" ||
	fail "no TCG warning on stderr"
grep -q 'A = .*(2 files)' "$T/out" || fail "compare did not get 2 files for A: $(head -n 3 "$T/out")"
grep -q 'invocations: A 2 invocations.*B 2 invocations' "$T/out" ||
	fail "compare does not count two invocations a side: $(grep invocations "$T/out" | head -n 2)"
grep -q 'CONFIG_PREEMPT_RT .*A: n | B: y' "$T/out" || fail "the environment diff does not name CONFIG_PREEMPT_RT"
grep -q 'note: WARNING: results of a TCG' "$T/out" || fail "compare does not warn about TCG"
pgrep -f "qemu-system-x86_64.*$T/o" >/dev/null && fail "a qemu process is left"
ls -A "$T/o" | grep -q '^\.' && fail "a temporary file is left in -o: $(ls -A "$T/o")"
[ "$(ls -d /tmp/cgscale-ab-* 2>/dev/null | wc -l)" -le "$before" ] || fail "a temporary directory is left in /tmp"
echo "ok: ab booted $A and $B twice each, ABBA, and compared them"
exit 0
