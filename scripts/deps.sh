#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# deps.sh - install the Debian packages cgscale needs, or say which.
#
#   scripts/deps.sh build      what `make all` needs
#   scripts/deps.sh run        what ./run.sh needs: build, and gnuplot-nox
#                              so that its first report has charts
#   scripts/deps.sh test       what `make check` needs on top
#   scripts/deps.sh browser    what the report's browser test needs (the
#                              test installs it itself; about 120 MB)
#   scripts/deps.sh lkp        what lkp-tests' tools need to run cgscale's
#                              LKP program (docs/lkp-and-ci.md): Ruby and the
#                              gems its lib/ loads, as Debian packages, and
#                              its makepkg's tools (bsdtar, fakeroot, ...);
#                              the LKP tests install it when LKP_SRC is set
#   scripts/deps.sh kernel     what scripts/known-kernels.sh needs to build its
#                              two kernels: Debian's linux-source-6.1 and
#                              the kernel's build tools
#   scripts/deps.sh --check-only build|run|test|browser|lkp|kernel   only report, never install
#   scripts/deps.sh --list build|run|runtime|test|browser|lkp|kernel  print the names, one a line
#                              (integrations/lkp/programs/cgscale/pkg/ copies
#                              build and runtime; its test checks they agree)
#
# As root, missing packages are installed with apt-get. Otherwise the exact
# package names are printed with the command to install them, and the
# script exits 1. The package lists below are the only place they live.
set -eu

BUILD_PKGS="gcc libc6-dev make pkg-config libhwloc-dev libjson-c-dev libpfm4-dev libcgroup-dev libelf-dev zlib1g-dev r-mathlib"
TEST_PKGS="libcmocka-dev python3 jq strace qemu-system-x86 busybox-static cpio xz-utils gnuplot-nox libxml2-utils python3-pandas python3-yaml hwloc groff man-db dpkg-dev debhelper lintian zsh bash-completion"
BROWSER_PKGS="chromium python3"
RUN_PKGS="gnuplot-nox"
# lkp-tests: ruby and the gems of lib/job.rb, lib/compare.rb, lib/stats.rb;
# programs/makepkg/pkg/depends (bsdtar is libarchive-tools); unshare for
# the recipe test's private /lkp
LKP_PKGS="ruby ruby-activesupport ruby-git ruby-tty-command libarchive-tools fakeroot binutils bzip2 curl gettext gnupg ncurses-bin openssl util-linux"
# scripts/known-kernels.sh: the source and what Kbuild runs
KERNEL_PKGS="linux-source-6.1 bc bison flex libelf-dev libssl-dev cpio xz-utils kmod"
# the shared libraries the built binary links (for an install without -dev)
RUNTIME_PKGS="libhwloc15 libjson-c5 libpfm4 libcgroup2 libelf1 zlib1g r-mathlib"

if [ "${1:-}" = "--list" ]; then
	case "${2:-}" in
	build) list="$BUILD_PKGS" ;;
	run) list="$BUILD_PKGS $RUN_PKGS" ;;
	runtime) list="$RUNTIME_PKGS" ;;
	test) list="$TEST_PKGS" ;;
	browser) list="$BROWSER_PKGS" ;;
	lkp) list="$LKP_PKGS" ;;
	kernel) list="$KERNEL_PKGS" ;;
	*) echo "usage: $0 --list build|run|runtime|test|browser|lkp|kernel" >&2; exit 2 ;;
	esac
	printf '%s\n' $list
	exit 0
fi
install=1
if [ "${1:-}" = "--check-only" ]; then
	install=0
	shift
fi
case "${1:-build}" in
build) want="$BUILD_PKGS" ;;
run) want="$BUILD_PKGS $RUN_PKGS" ;;
test) want="$BUILD_PKGS $TEST_PKGS" ;;
browser) want="$BROWSER_PKGS" ;;
lkp) want="$BUILD_PKGS $LKP_PKGS" ;;
kernel) want="$BUILD_PKGS $KERNEL_PKGS" ;;
*) echo "usage: $0 [--check-only] build|run|test|browser|lkp|kernel, or $0 --list build|run|runtime|test|browser|lkp|kernel" >&2; exit 2 ;;
esac

missing=""
for p in $want; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*"install ok installed"*) ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0

if [ "$install" = 1 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	echo "cgscale: installing missing Debian packages:$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	# shellcheck disable=SC2086
	if ! apt-get install -y --no-install-recommends $missing >/dev/null; then
		apt-get update >/dev/null
		# shellcheck disable=SC2086
		apt-get install -y --no-install-recommends $missing >/dev/null
	fi
	exit 0
fi
echo "cgscale: missing Debian packages:$missing" >&2
echo "cgscale: install them as root with: apt-get install$missing" >&2
exit 1
