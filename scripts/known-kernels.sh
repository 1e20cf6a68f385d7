#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# known-kernels.sh - build the two kernels of bench/known-effects' "built"
# row from Debian's linux-source-6.1: A as Debian ships the source, B the
# same with one change of known place and size, a chain of LOOPS
# dependent multiply-adds at the top of __mod_memcg_lruvec_state() (the
# memcg statistics update that every page added to or taken from an LRU
# or an rmap goes through: about four calls per page_fault1 op). The
# config is tinyconfig plus what `cgscale ab` boots and measures with
# (serial console, initramfs, cgroups and memcg, perf events, kallsyms,
# tracepoints, THP, NUMA); no modules, no network, no debug info.
#
#   scripts/known-kernels.sh [-o DIR] [--loops N] [-j JOBS]
#
# DIR (default build/known-kernels) gets HASH/A and HASH/B, each with
# bzImage and config; HASH is of the source package's version, this
# script and LOOPS, so a second call with the same inputs builds
# nothing. It prints the two paths as `A=... B=...` on its last line
# (what bench/known-effects' KE_BUILT takes is HASH's folder) and says
# how long each build took (also in HASH/build.txt). Needs root to
# install what is missing (scripts/deps.sh kernel), about 2 GiB free in
# DIR while it builds, and no network beyond the package mirror. The
# source tree is removed when the build ends, on a signal too.
set -eu

die() { echo "known-kernels: $*" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
out=build/known-kernels
loops=64
jobs=$(nproc)
while [ $# -gt 0 ]; do
	case "$1" in
	-o) [ $# -ge 2 ] || die "-o needs a folder"; out=$2; shift 2 ;;
	--loops) [ $# -ge 2 ] || die "--loops needs a number"; loops=$2; shift 2 ;;
	-j) [ $# -ge 2 ] || die "-j needs a number"; jobs=$2; shift 2 ;;
	-h|--help) sed -n '3,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
done
case "$loops" in ''|*[!0-9]*) die "--loops '$loops' is not a whole number: give e.g. --loops 64" ;; esac
[ "$loops" -ge 1 ] && [ "$loops" -le 100000 ] || die "--loops $loops is out of range: give 1 to 100000"
case "$jobs" in ''|*[!0-9]*|0) die "-j '$jobs' is not a positive number" ;; esac

"$here/deps.sh" kernel >&2 || die "missing packages (above): install them, or run as root"
tarball=$(ls /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -n 1)
[ -n "$tarball" ] || die "no /usr/src/linux-source-6.1.tar.*: install linux-source-6.1"
version=$(dpkg-query -W -f='${Version}' linux-source-6.1)
hash=$( { echo "$version"; echo "$loops"; cat "$0"; } | sha256sum | cut -c1-12)
mkdir -p "$out"
out=$(cd "$out" && pwd)
dst="$out/$hash"
if [ -s "$dst/A/bzImage" ] && [ -s "$dst/B/bzImage" ]; then
	echo "known-kernels: cached in $dst (linux-source-6.1 $version, --loops $loops)" >&2
	cat "$dst/build.txt" >&2 2>/dev/null || true
	echo "A=$dst/A/bzImage B=$dst/B/bzImage"
	exit 0
fi
# a work folder of our own (mktemp: made new, 0700), removed on any end
work=$(mktemp -d "$out/.work-XXXXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "known-kernels: unpacking $tarball ($version)" >&2
tar -C "$work" -xf "$tarball"
src="$work/linux-source-6.1"
[ -d "$src" ] || die "$tarball did not hold linux-source-6.1/"

# what ab's initramfs and cgscale's run need of the guest kernel
cat >"$work/frag.config" <<'EOF'
CONFIG_64BIT=y
CONFIG_SMP=y
CONFIG_NR_CPUS=64
CONFIG_NUMA=y
CONFIG_ACPI=y
CONFIG_X86_64_ACPI_NUMA=y
CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=y
CONFIG_PRINTK=y
CONFIG_BUG=y
CONFIG_MULTIUSER=y
CONFIG_SYSFS_SYSCALL=y
CONFIG_FHANDLE=y
CONFIG_POSIX_TIMERS=y
CONFIG_FUTEX=y
CONFIG_EPOLL=y
CONFIG_SIGNALFD=y
CONFIG_TIMERFD=y
CONFIG_EVENTFD=y
CONFIG_SHMEM=y
CONFIG_AIO=y
CONFIG_ADVISE_SYSCALLS=y
CONFIG_MEMBARRIER=y
CONFIG_FILE_LOCKING=y
CONFIG_BLK_DEV_INITRD=y
CONFIG_BINFMT_ELF=y
CONFIG_BINFMT_SCRIPT=y
CONFIG_TTY=y
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y
CONFIG_PROC_FS=y
CONFIG_PROC_SYSCTL=y
CONFIG_PROC_PAGE_MONITOR=y
CONFIG_SYSFS=y
CONFIG_DEVTMPFS=y
CONFIG_TMPFS=y
CONFIG_HIGH_RES_TIMERS=y
CONFIG_NO_HZ_IDLE=y
CONFIG_HZ_250=y
CONFIG_CGROUPS=y
CONFIG_MEMCG=y
CONFIG_CGROUP_SCHED=y
CONFIG_FAIR_GROUP_SCHED=y
CONFIG_CFS_BANDWIDTH=y
CONFIG_CPUSETS=y
CONFIG_CGROUP_CPUACCT=y
CONFIG_CGROUP_PIDS=y
CONFIG_CGROUP_FREEZER=y
CONFIG_PERF_EVENTS=y
CONFIG_KALLSYMS=y
CONFIG_KALLSYMS_ALL=y
CONFIG_FTRACE=y
CONFIG_ENABLE_DEFAULT_TRACERS=y
CONFIG_TRANSPARENT_HUGEPAGE=y
CONFIG_TRANSPARENT_HUGEPAGE_MADVISE=y
CONFIG_PCI=y
CONFIG_MODULES=n
CONFIG_DEBUG_INFO_NONE=y
EOF

# B's one change: LOOPS dependent multiply-adds that the compiler must
# keep (the asm takes the result), at the top of the function's body
patch_b() {
	f="$src/mm/memcontrol.c"
	awk -v n="$loops" '
		/^void __mod_memcg_lruvec_state\(/ { fn = 1 }
		fn && /^{/ {
			print
			print "\t{\t/* cgscale known-effects: a change of known place and size */"
			print "\t\tunsigned long cgs_x = (unsigned long)val;"
			print "\t\tint cgs_i;"
			print ""
			print "\t\tfor (cgs_i = 0; cgs_i < " n "; cgs_i++)"
			print "\t\t\tcgs_x = cgs_x * 6364136223846793005UL + 1442695040888963407UL;"
			print "\t\tasm volatile(\"\" : : \"r\"(cgs_x));"
			print "\t}"
			fn = 0; done = 1; next
		}
		{ print }
		END { if (!done) exit 1 }' "$f" >"$f.new" ||
		die "mm/memcontrol.c of $version has no __mod_memcg_lruvec_state() to patch"
	mv "$f.new" "$f"
}

build() { # $1: A or B
	t0=$(date +%s)
	make -C "$src" -s -j"$jobs" bzImage >"$work/make-$1.log" 2>&1 ||
		{ tail -n 30 "$work/make-$1.log" >&2; die "the build of $1 failed (above)"; }
	mkdir -p "$work/out/$1"
	cp "$src/arch/x86/boot/bzImage" "$work/out/$1/bzImage"
	cp "$src/.config" "$work/out/$1/config"
	echo "$1: $(( $(date +%s) - t0 )) s ($(make -C "$src" -s kernelrelease))" >>"$work/out/build.txt"
	echo "known-kernels: $1 built in $(( $(date +%s) - t0 )) s" >&2
}

echo "known-kernels: configuring (tinyconfig + ab's needs)" >&2
make -C "$src" -s tinyconfig >/dev/null
( cd "$src" && scripts/kconfig/merge_config.sh -m .config "$work/frag.config" >/dev/null )
make -C "$src" -s olddefconfig >/dev/null
# every option asked for must have survived olddefconfig's dependencies
lost=$(grep -v '=n$' "$work/frag.config" | while read -r l; do grep -qx "$l" "$src/.config" || echo "$l"; done)
[ -z "$lost" ] || die "the config lost $(echo $lost) (a dependency is missing from the fragment)"
echo "known-kernels: building A with -j$jobs (the first build takes longest)" >&2
build A
patch_b
echo "--loops $loops in __mod_memcg_lruvec_state() (mm/memcontrol.c)" >>"$work/out/build.txt"
echo "known-kernels: building B (only mm/memcontrol.c changed)" >&2
build B
echo "linux-source-6.1 $version, tinyconfig + scripts/known-kernels.sh's fragment" >>"$work/out/build.txt"
rm -rf "$dst"
mv "$work/out" "$dst"
cat "$dst/build.txt" >&2
echo "A=$dst/A/bzImage B=$dst/B/bzImage"
