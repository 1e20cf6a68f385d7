# SPDX-License-Identifier: GPL-2.0-or-later
# vm-lib.sh - boot a throw-away VM for the cgroup v2 tests (sourced).
#
#   vm_kernel              Debian's kernel, as an uncompressed vmlinux in
#                          $VM_CACHE (build/vm-cache; delete it to refetch;
#                          used as it is when apt cannot resolve the package)
#   vm_initramfs OUT BIN   busybox, BIN (as /bin/cgscale), its ldd libraries
#                          and check/vm/init, as an uncompressed cpio
#   vm_boot KERNEL INITRD SCENARIO DATA LOG [qemu args]
#                          boot, run SCENARIO, write what the guest sent on
#                          ttyS1 to DATA and the console to LOG; qemu gets
#                          VM_TIMEOUT seconds (300)
#
# The kernel package is fetched with `apt-get download` of the package
# linux-image-amd64 depends on and unpacked with `dpkg-deb -x`: it is never
# installed. Booting the vmlinux from the bzImage's XZ payload skips ~5 s
# of emulated decompression. TCG unless /proc/cpuinfo shows vmx or svm
# (a paravirtual /dev/kvm such as PVM cannot boot a stock kernel).
# On failure the functions return 1 with the reason in $VM_WHY.

VM_CACHE=${VM_CACHE:-$REPO/build/vm-cache}
# Step S4's check (75-cgroup-v2-vm.sh, check/vm/s4-repeat.sh), a jq filter
# of a point: the leaf's pgfault grew by at least half the ops, never null
VM_S4_GREW='.status == "ok" and .stat_reader.content.delta.pgfault >= 0.5 * .summary.ops'

# The versioned kernel package linux-image-amd64 depends on, or nothing.
vm_kernel_pkg() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		awk '/Depends: linux-image-[0-9]/ {print $2; exit}'
}

vm_kernel() {
	mkdir -p "$VM_CACHE" || { VM_WHY="cannot create $VM_CACHE"; return 1; }
	pkg=$(vm_kernel_pkg)
	if [ -z "$pkg" ] && [ "$(id -u)" = 0 ] &&
	   [ -z "$(ls -t "$VM_CACHE"/vmlinux-* 2>/dev/null)" ]; then
		# a fresh Debian image has no package lists yet
		apt-get update >/dev/null 2>&1
		pkg=$(vm_kernel_pkg)
	fi
	if [ -z "$pkg" ]; then
		# offline, or the package lists are being rebuilt: a kernel
		# fetched before will do
		VM_KERNEL=$(ls -t "$VM_CACHE"/vmlinux-* 2>/dev/null | head -n 1)
		[ -n "$VM_KERNEL" ] && return 0
		VM_WHY="apt-cache knows no linux-image-amd64 (no Debian package lists? apt-get update)"
		return 1
	fi
	ver=${pkg#linux-image-}
	VM_KERNEL="$VM_CACHE/vmlinux-$ver"
	[ -s "$VM_KERNEL" ] && return 0
	work=$(mktemp -d "$VM_CACHE/fetch.XXXXXX")
	if ! (cd "$work" && apt-get download "$pkg") >"$work/log" 2>&1; then
		VM_WHY="apt-get download $pkg failed: $(grep -v '^W:' "$work/log" | tail -n 1)"
		rm -rf "$work"
		return 1
	fi
	if ! dpkg-deb -x "$work"/*.deb "$work/x" 2>"$work/log"; then
		VM_WHY="dpkg-deb -x of $pkg failed: $(tail -n 1 "$work/log")"
		rm -rf "$work"
		return 1
	fi
	bz="$work/x/boot/vmlinuz-$ver"
	off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$bz" 2>/dev/null | head -n 1 | cut -d: -f1)
	if [ -z "$off" ]; then
		VM_WHY="no XZ payload in $bz"
		rm -rf "$work"
		return 1
	fi
	tail -c +$((off + 1)) "$bz" | xz -dc --single-stream >"$work/vmlinux" 2>/dev/null
	if [ "$(head -c 4 "$work/vmlinux" | od -An -c | tr -d ' \n')" != '177ELF' ]; then
		VM_WHY="the XZ payload of $bz is not an ELF vmlinux"
		rm -rf "$work"
		return 1
	fi
	mv "$work/vmlinux" "$VM_KERNEL"
	rm -rf "$work"
	return 0
}

vm_initramfs() {
	out=$1
	bin=$2
	bb=$(command -v busybox) || { VM_WHY="no busybox (Debian: busybox-static)"; return 1; }
	command -v cpio >/dev/null || { VM_WHY="no cpio"; return 1; }
	root=$(mktemp -d /tmp/cgscale-vmroot.XXXXXX)
	mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev" "$root/tmp"
	cp "$bb" "$root/bin/busybox"
	cp "$bin" "$root/bin/cgscale"
	cp "$REPO/check/vm/init" "$root/init"
	chmod 755 "$root/init"
	# one ldd per file: with several it prints "file:" headers
	for lib in $( (ldd "$bin"; ldd "$bb") 2>/dev/null |
		      awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// && $2 ~ /^\(/ {print $1}' |
		      sort -u); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
	(cd "$root" && find . | cpio -o -H newc --quiet) >"$out"
	rc=$?
	rm -rf "$root"
	[ $rc -eq 0 ] || VM_WHY="cpio failed"
	return $rc
}

vm_boot() {
	kernel=$1 initrd=$2 scenario=$3 data=$4 log=$5
	shift 5
	accel=tcg
	if grep -qwE 'vmx|svm' /proc/cpuinfo && [ -w /dev/kvm ]; then
		accel=kvm
	fi
	# a TCG guest with more vCPUs than the host has CPUs has hung at
	# "Booting from ROM.." until the timeout, once in several boots of
	# the same image on a quiet 2-CPU box: a boot that times out is tried
	# once more, and says so; a second timeout is the failure
	for try in 1 2; do
		: >"$data"
		timeout "${VM_TIMEOUT:-300}" qemu-system-x86_64 -accel $accel -machine pc -m 1G -nographic -no-reboot \
			-serial mon:stdio -serial "file:$data" "$@" \
			-kernel "$kernel" -initrd "$initrd" \
			-append "console=ttyS0 panic=-1 transparent_hugepage=never quiet cgvm=$scenario" \
			</dev/null >"$log" 2>&1
		rc=$?
		[ $rc -eq 124 ] && [ $try -eq 1 ] && [ ! -s "$data" ] || break
		echo "vm_boot: $scenario timed out after ${VM_TIMEOUT:-300} s before the guest wrote anything: booting it once more" >&2
	done
	tr -d '\r' <"$data" >"$data.tmp" && mv "$data.tmp" "$data"
	[ $rc -eq 0 ] || VM_WHY="qemu exited $rc: $(tail -n 3 "$log")"
	return $rc
}

# vm_block DATA NAME: the "=== NAME" ... "=== end" block the guest sent
vm_block() {
	awk -v n="=== $2" '$0 == "=== end" {p = 0} p {print} $0 == n {p = 1}' "$1"
}

# vm_value DATA KEY: the value of a "KEY: value" line the guest sent
vm_value() {
	sed -n "s/^$2: //p" "$1" | head -n 1
}
