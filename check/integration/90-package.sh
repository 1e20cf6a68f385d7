#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian package as a lab builds it: dpkg-buildpackage -us -uc -b on a
# copy of this tree in $T (it writes ../*.deb, so never in the checkout),
# lintian with no errors, the runtime dependencies, then the installed
# files, unpacked into a scratch root with dpkg -x: --version as the
# binary under test reports it, `cgscale list`, one short point (its
# tasks in the plain image of /usr/libexec/cgscale/), the man
# pages through man(1), the bash and zsh completion, the kernel-bisection
# script, the docs, and the files cgscale(1) names. All of it in $T.
. "$(dirname "$0")/lib.sh"

for t in dpkg-buildpackage dh lintian dpkg-checkbuilddeps; do
	command -v $t >/dev/null ||
		skip "$t is missing (Debian packages dpkg-dev debhelper lintian; as root 'scripts/deps.sh test' installs them)"
done
start=$(date +%s)
# the tools' own temporary files (lintian leaves its ELF caches,
# mldbm-elf-*, behind in $TMPDIR) go in $T, which is removed on exit
mkdir src root tmp
TMPDIR=$T/tmp
export TMPDIR
if git -C "$REPO" rev-parse --git-dir >/dev/null 2>&1; then
	# what a fresh clone of this tree holds: tracked and new, not ignored
	(cd "$REPO" && git ls-files -z -co --exclude-standard | xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh) >files
	(cd "$REPO" && tar --null -cf - -T "$T/files") | tar -xf - -C src
else
	(cd "$REPO" && tar --exclude=./build --exclude=./cgscale --exclude=./cgscale-tasks -cf - .) | tar -xf - -C src
fi
# the commit the binary under test was built from, as results record it
git=$("$CGSCALE" --version | sed -n 's/.*(git \(.*\))$/\1/p')
[ -n "$git" ] || fail "cgscale --version names no git commit: $("$CGSCALE" --version)"
cd src || exit 1
dpkg-checkbuilddeps 2>checkdeps.txt ||
	skip "build dependencies missing: $(cat checkdeps.txt); as root 'scripts/deps.sh test' installs them"
CGS_GIT=$git DEB_BUILD_OPTIONS="parallel=$(nproc) nocheck" dpkg-buildpackage -us -uc -b >"$T/build.log" 2>&1 ||
	fail "dpkg-buildpackage failed: $(tail -n 30 "$T/build.log")"
cd "$T" || exit 1
deb=$(ls cgscale_*_*.deb)
[ -f "$deb" ] || fail "no cgscale .deb was built"
echo "ok: built $deb in $(( $(date +%s) - start ))s"
leaks_before=$(ls /tmp/mldbm-* 2>/dev/null | wc -l)
lintian --fail-on error cgscale_*.changes >lintian.txt 2>&1 ||
	fail "lintian reports errors: $(cat lintian.txt)"
[ "$(ls /tmp/mldbm-* 2>/dev/null | wc -l)" = "$leaks_before" ] ||
	fail "lintian left temporary files in /tmp: $(ls -t /tmp/mldbm-* | head -3)"
[ -n "$(ls tmp)" ] || echo "note: lintian wrote nothing in \$TMPDIR this time"
grep -q '^E:' lintian.txt && fail "lintian errors: $(grep '^E:' lintian.txt)"
echo "ok: lintian: $(grep -c '^[WIP]:' lintian.txt) warnings/notes, no error"
dep=$(dpkg-deb -f "$deb" Depends)
for p in libhwloc15 libcgroup2 libpfm4 libjson-c5 libelf1 r-mathlib; do
	echo "$dep" | grep -q "\\b$p\\b" || fail "Depends lacks $p: $dep"
done
[ "$(dpkg-deb -f "$deb" Recommends)" = gnuplot-nox ] || fail "Recommends: $(dpkg-deb -f "$deb" Recommends)"
ver=$(dpkg-deb -f "$deb" Version)
"$CGSCALE" --version | grep -q "^cgscale $ver " || fail "package version $ver is not cgscale's: $("$CGSCALE" --version)"

# `apt install ./cgscale_*.deb` resolves its dependencies here
if command -v apt-get >/dev/null; then
	apt-get -s install "./$deb" >apt.txt 2>&1 || fail "apt-get -s install ./$deb fails: $(tail -n 5 apt.txt)"
	grep -q -e '^Inst cgscale ' -e 'cgscale is already the newest' apt.txt || fail "apt would not install cgscale: $(tail -n 5 apt.txt)"
fi

# installed files
dpkg -x "$deb" root
bin=$T/root/usr/bin/cgscale
[ "$("$bin" --version)" = "$("$CGSCALE" --version)" ] ||
	fail "installed --version '$("$bin" --version)' is not '$("$CGSCALE" --version)'"
"$bin" list >list.txt || fail "installed cgscale list failed"
grep -q '^page_fault1 ' list.txt || fail "installed cgscale list lacks page_fault1: $(cat list.txt)"
"$bin" run -q -w 0.1 -d 0.3 -i 0.1 --cgroup-depth 0 -o point.json page_fault1 >run.txt 2>&1 ||
	fail "installed cgscale run failed: $(cat run.txt)"
jq_check point.json '.complete == true and ([.points[] | .status == "ok" and .summary.ops > 0] | all)' \
	"the installed binary measured its points"
jq_check point.json ".tool.git == \"$git\"" "the result records the commit"
# its tasks ran in the plain image the package installs in /usr/libexec
img=$(readlink -f "$T/root/usr/libexec/cgscale/cgscale-tasks")
[ -x "$img" ] || fail "no /usr/libexec/cgscale/cgscale-tasks in the package"
jq -e --arg i "$img" '[.points[] | .harness.task_process.image == "plain" and .harness.task_process.exe == $i] | all' point.json >/dev/null ||
	fail "the installed cgscale's tasks did not run in $img: $(jq -c '.points[0].harness.task_process' point.json)"
man=$T/root/usr/share/man
# the pages are those the command table makes: cgscale(1) and one per command
"$CGSCALE" --gen-man --list >pages.txt || fail "cgscale --gen-man --list failed"
[ "$(wc -l <pages.txt)" -ge 10 ] || fail "cgscale --gen-man --list names $(wc -l <pages.txt) pages"
while read -r p; do
	[ -f "$man/man1/$p.1.gz" ] || fail "no $p(1) in the package"
done <pages.txt
sort pages.txt >pages.sorted
(cd "$man/man1" && ls) | sed 's/\.1\.gz$//' | sort | diff - pages.sorted >/dev/null ||
	fail "the package has the pages $(ls "$man/man1" | tr '\n' ' '), not $(tr '\n' ' ' <pages.txt)"
MANPATH=$man MANWIDTH=80 man cgscale-run >man.txt 2>man.err || fail "man cgscale-run failed: $(cat man.err)"
grep -q -- '--cgroup-depth' man.txt || fail "man cgscale-run lacks --cgroup-depth"
bash -n root/usr/share/bash-completion/completions/cgscale || fail "the installed completion does not parse"
zcomp=root/usr/share/zsh/vendor-completions/_cgscale
[ -f "$zcomp" ] || fail "no zsh completion in /usr/share/zsh/vendor-completions/"
if command -v zsh >/dev/null; then
	zsh -n "$zcomp" || fail "the installed zsh completion does not parse"
fi
step=root/usr/share/cgscale/kernel-bisect-step.sh
[ -x "$step" ] || fail "no executable /usr/share/cgscale/kernel-bisect-step.sh"
"$step" --help | grep -q "step=/usr/share/cgscale/kernel-bisect-step.sh" || fail "kernel-bisect-step.sh --help: $("$step" --help 2>&1 | head -n 3)"
# what cgscale(1) FILES names is in the package, as it is named (README.md.gz)
LC_ALL=C MANPATH=$man MANWIDTH=200 man cgscale 2>/dev/null | sed -n '/^FILES/,/^SEE ALSO/p' >files.txt
grep -q README.md.gz files.txt || fail "cgscale(1) FILES does not name README.md.gz: $(cat files.txt)"
grep -o '/usr/share/[^ ,;)]*' files.txt | sort -u | while read -r f; do
	[ -e "root$f" ] || echo "$f"
done >notinpkg
[ ! -s notinpkg ] || fail "cgscale(1) FILES names what the package lacks: $(tr '\n' ' ' <notinpkg)"
for d in README.md.gz SCHEMA.md.gz COMPARE.md.gz CHANGELOG.md copyright; do
	ls root/usr/share/doc/cgscale/$d* >/dev/null 2>&1 || fail "no /usr/share/doc/cgscale/$d"
done
# the manual's pages (dh_compress gzips those over 4 KiB)
for f in "$REPO"/docs/*.md; do
	ls root/usr/share/doc/cgscale/docs/"${f##*/}"* >/dev/null 2>&1 || fail "no /usr/share/doc/cgscale/docs/${f##*/}"
done
echo "ok: the installed package lists, measures, has its pages, completion and docs ($(( $(date +%s) - start ))s)"
