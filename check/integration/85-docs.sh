#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The man pages and the bash completion that `make` generates from the
# command and option tables: every command of `cgscale --help` has its
# page, built and installed, its line on cgscale(1), its --help and its
# completion (a new row of the command table shows up everywhere, or this
# fails); every page renders without a warning (groff -ww, man -l), every
# option that `cgscale CMD --help` lists (from the same tables) is on its
# page, the pages in build/man are what the binary under test makes, and
# the completion parses and completes workloads, enum values and events.
. "$(dirname "$0")/lib.sh"

command -v groff >/dev/null || skip "groff is missing (Debian package groff; scripts/deps.sh test installs it)"
command -v man >/dev/null || skip "man is missing (Debian package man-db)"
MAN=$REPO/build/man
[ -f "$MAN/cgscale.1" ] || fail "no $MAN/cgscale.1: 'make' builds the pages"

# The commands, as `cgscale --help` lists them from the command table.
"$CGSCALE" --help | awk '/^commands:$/ { on = 1; next } on && /^  [a-z]/ { print $1 }' >cmds
[ "$(wc -l <cmds)" -ge 9 ] || fail "cgscale --help lists only $(wc -l <cmds) commands"
# Fresh pages from the binary under test (the sanitizer build): the pages
# it names are cgscale(1) and one per command, and each is the one built.
mkdir pages
"$CGSCALE_SAN" --gen-man --list >pagelist || fail "--gen-man --list failed"
{ echo cgscale; sed 's/^/cgscale-/' cmds; } | diff - pagelist >/dev/null ||
	fail "the pages ($(tr '\n' ' ' <pagelist)) are not cgscale(1) and one per command of --help ($(tr '\n' ' ' <cmds))"
ls "$MAN" | sed -n 's/\.1$//p' | sort >built
sort pagelist | diff - built >/dev/null || fail "make built the pages $(tr '\n' ' ' <built), not $(tr '\n' ' ' <pagelist)"
while read -r page; do
	"$CGSCALE_SAN" --gen-man "$page" </dev/null >"pages/$page.1" || fail "--gen-man $page failed"
	cmp -s "pages/$page.1" "$MAN/$page.1" || fail "$MAN/$page.1 differs from what the binary makes now"
	w=$(LC_ALL=C.UTF-8 groff -ww -z -man "pages/$page.1" 2>&1)
	[ -z "$w" ] || fail "groff warns on $page: $w"
	w=$(MANWIDTH=80 man --warnings -l "pages/$page.1" 2>&1 >/dev/null)
	[ -z "$w" ] || fail "man -l warns on $page: $w"
	MANWIDTH=3000 man -l "pages/$page.1" 2>/dev/null >"pages/$page.txt"
	[ -s "pages/$page.txt" ] || fail "man -l rendered nothing for $page"
done <pagelist
n=$(wc -l <pagelist)
"$CGSCALE" --gen-man cgscale-nosuch </dev/null >/dev/null 2>&1 && fail "--gen-man accepted an unknown page"

# The options --help lists for CMD (its option lines, "  -x, --name" or
# "      --name"; SECTION: only under that heading), missing from page TXT.
missing() {
	"$CGSCALE" $1 --help 2>/dev/null | awk -v sec="${3:-}" '
		/^[^ ].*:$/ { insec = (sec == "" || $0 == sec ":") }
		insec && /^  (-[A-Za-z0-9], |    )--[a-z0-9]/ { sub(/^  (-[A-Za-z0-9], |    )/, ""); sub(/\[.*/, "", $1); print $1 }' |
	sort -u | while read -r o; do
		grep -q -- "$o\\b" "$2" || echo "$o"
	done
}
# Every command: on cgscale(1) (COMMANDS, SEE ALSO), with a --help of its
# own (or, taking nothing, a refusal), every option of which is on its page.
withopts=0
while read -r cmd; do
	grep -q "; see cgscale-$cmd(1)\.$" pages/cgscale.txt || fail "cgscale(1) does not list $cmd"
	sed -n '/^SEE ALSO/,$p' pages/cgscale.txt | grep -q "cgscale-$cmd(1)" ||
		fail "cgscale(1) does not refer to cgscale-$cmd(1)"
	"$CGSCALE" "$cmd" --help >help.txt 2>help.err
	rc=$?
	if [ $rc -eq 0 ]; then
		grep -q "^usage: cgscale $cmd" help.txt || fail "'$cmd --help' has no usage line: $(head -n 2 help.txt)"
	else
		[ $rc -eq 2 ] && grep -q "$cmd takes no arguments" help.err ||
			fail "'$cmd --help' exited $rc: $(cat help.err)"
	fi
	grep -q -- "^  .*--" help.txt && withopts=$((withopts + 1))
	m=$(missing "$cmd" "pages/cgscale-$cmd.txt")
	[ -z "$m" ] || fail "cgscale-$cmd(1) lacks options of '$cmd --help':" $m
	echo "ok: $cmd: on cgscale(1), --help, cgscale-$cmd(1) has its options"
done <cmds
[ "$withopts" -ge 6 ] || fail "only $withopts commands list options in --help"
# cgroup show takes the run options; cleanup has its own
m=$(missing run pages/cgscale-cgroup.txt "run options")
[ -z "$m" ] || fail "cgscale-cgroup(1) lacks run options:" $m
for o in --dry-run --force; do
	grep -q -- "$o" pages/cgscale-cgroup.txt || fail "cgscale-cgroup(1) lacks cleanup's $o"
done
# The check can fail: a page without its generated part lacks them.
sed '/^\.SH OPTIONS/,/^\.SH WORKLOADS/{/^\.SH WORKLOADS/!d}' pages/cgscale-run.1 >cut.1
MANWIDTH=3000 man -l cut.1 2>/dev/null >cut.txt
[ -n "$(missing run cut.txt)" ] || fail "a page without its options passed the check"
# Every workload is on cgscale(1) and cgscale-run(1).
"$CGSCALE" list | awk 'NR > 1 && /^[a-z]/ { print $1 }' >workloads
[ -s workloads ] || fail "cgscale list named no workload"
while read -r w; do
	grep -q "^ *$w\\b" pages/cgscale.txt || fail "cgscale(1) lacks workload $w"
	grep -q "^ *$w\\b" pages/cgscale-run.txt || fail "cgscale-run(1) lacks workload $w"
done <workloads

# Completion.
comp=$REPO/build/completion/cgscale
[ -f "$comp" ] || fail "no $comp: 'make' builds it"
bash -n "$comp" || fail "bash -n $comp failed"
"$CGSCALE_SAN" --gen-completion bash | cmp -s - "$comp" || fail "$comp differs from what the binary makes now"
# complete WORD...: what bash offers after the words (the last is the prefix).
complete_words() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _cgscale; printf "%s\n" "${COMPREPLY[@]}"' \
		sh "$comp" "$CGSCALE" "$@" | sort
}
complete_words run "" >got
sort workloads | diff - got >/dev/null || fail "run TEST completes to $(tr '\n' ' ' <got), cgscale list has $(tr '\n' ' ' <workloads)"
complete_words cgroup show page_ | grep -qx page_fault1 || fail "cgroup show does not complete workloads"
complete_words "" >got
sort cmds | while read -r cmd; do
	grep -qx "$cmd" got || echo "$cmd"
done >uncompleted
[ ! -s uncompleted ] || fail "commands not completed: $(tr '\n' ' ' <uncompleted)"
complete_words cgroup cleanup --d | grep -qx -- --dry-run || fail "cgroup cleanup --dry-run is not completed"
modes=$("$CGSCALE" run --help | sed -n 's/.*--mode .*\[\([^]]*\)\].*/\1/p' | tr '|' '\n' | sort)
[ -n "$modes" ] || fail "run --help shows no --mode choices"
[ "$(complete_words run --mode "")" = "$modes" ] || fail "--mode completes to $(complete_words run --mode "" | tr '\n' ' ')"
complete_words run --partner "" | grep -qx next || fail "--partner (a workload's enum) is not completed"
complete_words compare --format "" | grep -qx json || fail "compare --format is not completed"
complete_words run --stat-reader-t | grep -qx -- --stat-reader-target || fail "run options are not completed"
# Events come from `cgscale events` on this machine.
ev=$("$CGSCALE" events | awk '/^Events/ { on = 1; next } on && /^  [^ ]/ { print $1 }' | head -n 1)
if [ -n "$ev" ]; then
	complete_words run -e "cycles,$ev" | grep -qx -- "cycles,$ev" || fail "-e does not complete event $ev after a comma"
	echo "ok: -e completes $ev"
fi
# make install puts them in their FHS places under PREFIX and DESTDIR
make -s -C "$REPO" install DESTDIR="$T/inst" PREFIX=/opt/cgs >install.txt 2>&1 ||
	fail "make install failed: $(tail -n 5 install.txt)"
for f in bin/cgscale share/man/man1/cgscale.1 share/man/man1/cgscale-run.1 \
	 share/bash-completion/completions/cgscale share/doc/cgscale/README.md \
	 share/doc/cgscale/SCHEMA.md share/doc/cgscale/COMPARE.md share/doc/cgscale/CHANGELOG.md; do
	[ -f "inst/opt/cgs/$f" ] || fail "make install did not install /opt/cgs/$f"
done
# the manual's pages, docs/*.md, go to share/doc/cgscale/docs/ (README.md links them there)
pages=0
for f in "$REPO"/docs/*.md; do
	[ -f "inst/opt/cgs/share/doc/cgscale/docs/${f##*/}" ] || fail "make install did not install docs/${f##*/}"
	pages=$((pages + 1))
done
[ "$pages" -ge 9 ] || fail "only $pages pages in docs/"
[ "$(find inst -type f | wc -l)" -eq "$(( n + 6 + pages ))" ] || fail "make install wrote other files: $(find inst -type f)"
echo "ok: $n pages render cleanly; completion lists $(wc -l <workloads) workloads; make install"
