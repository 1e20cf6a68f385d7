#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The man pages and the bash completion that `make` generates from the
# command and option tables: every command of `cgscale --help` has its
# page, built and installed, its line on cgscale(1), its --help and its
# completion (a new row of the command table shows up everywhere, or this
# fails); every page renders without a warning (groff -ww, man -l), every
# line of `cgscale --help` and `cgscale CMD --help` (the usage, the text,
# each option with its default, the metrics, the exit codes) is on its
# page, the pages in build/man are what the binary under test makes, and
# the completion parses and completes workloads, enum values and events
# (perf::NAME, their lowercase aliases, after a comma, after --events=),
# with bash-completion's helpers and without them. 89-zsh-completion.sh
# tries the zsh completion.
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
# The lines of --help (ARGS... --help) that page TXT lacks: each line, its
# runs of blanks one space, "usage: " and a last ':' dropped, must be in
# the page as man renders it, all of it on one line, case aside.
help_missing() {
	txt=$1
	shift
	tr '\n' ' ' <"$txt" | norm >page.one
	"$CGSCALE" "$@" --help 2>/dev/null | norm | while IFS= read -r l; do
		[ -z "$l" ] || grep -qF -- "$l" page.one || echo "$l"
	done
}
norm() { sed 's/^usage: //; s/[[:space:]]\{1,\}/ /g; s/^ //; s/ $//; s/:$//' | tr 'A-Z' 'a-z'; }
for page in $(cat pagelist); do
	LC_ALL=C MANWIDTH=3000 man -l "pages/$page.1" 2>/dev/null >"pages/$page.ascii"
done
m=$(help_missing pages/cgscale.ascii)
[ -z "$m" ] || fail "cgscale(1) lacks lines of 'cgscale --help': $m"
# Every command: on cgscale(1) (COMMANDS, SEE ALSO), with a --help of its
# own (or, taking nothing, a refusal), every line of which is on its page.
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
	m=$(help_missing "pages/cgscale-$cmd.ascii" "$cmd")
	[ -z "$m" ] || fail "cgscale-$cmd(1) lacks lines of '$cmd --help': $m"
	echo "ok: $cmd: on cgscale(1), --help, cgscale-$cmd(1) has its $(wc -l <help.txt) lines"
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
# ... and one without what follows the options (compare's metrics table)
sed '/^\.SH METRICS/,/^\.SH EXIT STATUS/{/^\.SH EXIT STATUS/!d}' pages/cgscale-compare.1 >cut.1
LC_ALL=C MANWIDTH=3000 man -l cut.1 2>/dev/null >cut.txt
help_missing cut.txt compare | grep -q "^per_task_ops .*ops/s .*primary .*higher is better" ||
	fail "a page without compare's metrics passed the check"
# What the pages say beyond --help: sweep, the bisection, the installed docs
grep -q "sweep .*1, one LLC's cores" pages/cgscale-run.ascii || fail "cgscale-run(1) does not say what -t sweep is"
tr -s '\n ' '  ' <pages/cgscale-run.ascii >run.one
grep -q -- "--cgroup-set LEVEL:KNOB=VALUE write a knob at a level, 1 = the top; repeatable" run.one || fail "cgscale-run(1): --cgroup-set is not repeatable"
[ "$(grep -c -i "repeatable" pages/cgscale-run.ascii)" = 1 ] || fail "cgscale-run(1) says repeatable $(grep -c -i repeatable pages/cgscale-run.ascii) times"
for o in sndbuf rcvbuf; do
	awk -v o="--$o SIZE" '$1 " " $2 == o { getline; print; exit }' pages/cgscale-run.ascii | grep -q "(default 0)$" || fail "cgscale-run(1) gives --$o no default"
done
grep -q "cgscale export --folded \[--point" pages/cgscale-export.ascii || fail "the export synopsis lacks --folded"
grep -q "git bisect run /usr/share/cgscale/kernel-bisect-step.sh" pages/cgscale-compare.ascii ||
	fail "cgscale-compare(1) does not show a kernel bisection"
grep -q "README.md.gz" pages/cgscale.ascii || fail "cgscale(1) FILES does not name README.md.gz"
# Every workload is on cgscale(1) and cgscale-run(1).
"$CGSCALE" list | awk 'NR > 1 && /^$/ { exit } NR > 1 && /^[a-z]/ { print $1 }' >workloads
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
bc=/usr/share/bash-completion/bash_completion
# complete_line LINE: what bash offers at the end of LINE (after a blank:
# for a new word), one a line, sorted. COMP_WORDS split as bash does: at
# blanks, and at ':' and '=' (COMP_WORDBREAKS), a run of them one word;
# with bash-completion's helpers when $BC is set, else without.
complete_line() {
	bash -c '
		[ -n "$BC" ] && . "$BC"
		. "$1"
		line=$2${3#cgscale}
		COMP_LINE=$line COMP_POINT=${#line}
		read -ra raw <<<"$line"
		[[ -z $line || $line == *" " ]] && raw+=("")
		COMP_WORDS=()
		for w in "${raw[@]}"; do
			o=$w
			while [[ $w =~ ^([^:=]*)([:=]+)(.*)$ ]]; do
				[ -n "${BASH_REMATCH[1]}" ] && COMP_WORDS+=("${BASH_REMATCH[1]}")
				COMP_WORDS+=("${BASH_REMATCH[2]}")
				w=${BASH_REMATCH[3]}
			done
			[ -n "$w" ] || [ -z "$o" ] && COMP_WORDS+=("$w")
		done
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_cgscale
		printf "%s\n" "${COMPREPLY[@]}"' sh "$comp" "$CGSCALE" "$1" | sort
}
# the generic perf:: events but the PERF_COUNT_* spellings; CYCLES first
"$CGSCALE" events | awk '/^Events/ { on = 1; next } on && /^  perf::[A-Z]/ && !/perf::PERF_COUNT_/ { print $1 }' |
	sort | awk '$1 == "perf::CYCLES" { print; next } { rest = rest $1 "\n" } END { printf "%s", rest }' >perf_events
modes=$("$CGSCALE" run --help | sed -n 's/.*--mode .*\[\([^]]*\)\].*/\1/p' | tr '|' '\n' | sort)
[ -n "$modes" ] || fail "run --help shows no --mode choices"
for BC in "$bc" ""; do
	[ -z "$BC" ] || [ -f "$BC" ] || { echo "note: no bash-completion ($bc; Debian package bash-completion): its helpers are not tried"; continue; }
	export BC
	how=${BC:+with bash-completion}
	how=${how:-without bash-completion}
	complete_line "cgscale run " >got
	sort workloads | diff - got >/dev/null || fail "$how: run TEST completes to $(tr '\n' ' ' <got), cgscale list has $(tr '\n' ' ' <workloads)"
	complete_line "cgscale cgroup show page_" | grep -qx page_fault1 || fail "$how: cgroup show does not complete workloads"
	complete_line "cgscale " >got
	sort cmds | while read -r cmd; do
		grep -qx "$cmd" got || echo "$cmd"
	done >uncompleted
	[ ! -s uncompleted ] || fail "$how: commands not completed: $(tr '\n' ' ' <uncompleted)"
	complete_line "cgscale cgroup cleanup --d" | grep -qx -- --dry-run || fail "$how: cgroup cleanup --dry-run is not completed"
	[ "$(complete_line "cgscale run --mode ")" = "$modes" ] || fail "$how: --mode completes to $(complete_line "cgscale run --mode " | tr '\n' ' ')"
	complete_line "cgscale run --partner " | grep -qx next || fail "$how: --partner (a workload's enum) is not completed"
	complete_line "cgscale compare --format " | grep -qx json || fail "$how: compare --format is not completed"
	complete_line "cgscale run --stat-reader-t" | grep -qx -- --stat-reader-target || fail "$how: run options are not completed"
	# --profile takes its value only after '=': the next word is a TEST
	complete_line "cgscale run --profile page_" | grep -qx page_fault2 || fail "$how: the word after --profile is not a TEST"
	[ -z "$(complete_line "cgscale run --profile=")" ] || fail "$how: --profile= completes to $(complete_line "cgscale run --profile=")"
	# -e: the events of `cgscale events` here; bash replaces what follows
	# the word's last ':', so perf::CY completes to CYCLES
	if [ -s perf_events ]; then
		ev=$(head -n 1 perf_events)
		name=${ev#perf::}
		pre=$(printf '%s' "$name" | cut -c1-2)
		complete_line "cgscale run -e perf::$pre" | grep -qx -- "$name" ||
			fail "$how: -e perf::$pre does not complete to $name: $(complete_line "cgscale run -e perf::$pre" | head -n 5 | tr '\n' ' ')"
		complete_line "cgscale run -e cycles,perf::$pre" | grep -qx -- "$name" || fail "$how: -e does not complete perf::$pre after a comma"
		complete_line "cgscale run --events=perf::$pre" | grep -qx -- "$name" || fail "$how: --events=perf::$pre does not complete"
		# the lowercase aliases --help shows (cycles,instructions:u,page-faults)
		alias=$(printf '%s' "$name" | tr 'A-Z' 'a-z')
		complete_line "cgscale run -e $(printf '%s' "$alias" | cut -c1-3)" | grep -qx -- "$alias" ||
			fail "$how: -e does not offer the alias $alias of $ev"
		complete_line "cgscale run -e cycles,page-f" | grep -qx -- "cycles,page-faults" ||
			fail "$how: -e cycles,page-f does not complete to cycles,page-faults"
		complete_line "cgscale run -e d" | grep -qx default || fail "$how: -e does not offer default"
		echo "ok: bash $how: -e perf::$pre completes to $name, aliases, commas, --events="
	else
		echo "note: cgscale events lists no perf:: event here: -e perf::NAME is not tried"
	fi
done
# make install puts them in their FHS places under PREFIX and DESTDIR
make -s -C "$REPO" install DESTDIR="$T/inst" PREFIX=/opt/cgs >install.txt 2>&1 ||
	fail "make install failed: $(tail -n 5 install.txt)"
for f in bin/cgscale share/man/man1/cgscale.1 share/man/man1/cgscale-run.1 \
	 share/bash-completion/completions/cgscale share/zsh/site-functions/_cgscale \
	 share/cgscale/kernel-bisect-step.sh share/doc/cgscale/README.md \
	 share/doc/cgscale/SCHEMA.md share/doc/cgscale/COMPARE.md share/doc/cgscale/CHANGELOG.md \
	 libexec/cgscale/cgscale-tasks; do
	[ -f "inst/opt/cgs/$f" ] || fail "make install did not install /opt/cgs/$f"
done
# the manual's pages, docs/*.md, go to share/doc/cgscale/docs/ (README.md links them there)
pages=0
for f in "$REPO"/docs/*.md; do
	[ -f "inst/opt/cgs/share/doc/cgscale/docs/${f##*/}" ] || fail "make install did not install docs/${f##*/}"
	pages=$((pages + 1))
done
[ "$pages" -ge 9 ] || fail "only $pages pages in docs/"
[ -x inst/opt/cgs/share/cgscale/kernel-bisect-step.sh ] || fail "the installed kernel-bisect-step.sh is not executable"
[ "$(find inst -type f | wc -l)" -eq "$(( n + 9 + pages ))" ] || fail "make install wrote other files: $(find inst -type f)"
# the installed cgscale finds its plain image in ../libexec/cgscale
inst/opt/cgs/bin/cgscale run -n -t 1 page_fault3 >plan.txt 2>&1 || fail "the installed cgscale's dry-run: $(tail -n 3 plan.txt)"
grep -q -F "tasks: in $T/inst/opt/cgs/libexec/cgscale/cgscale-tasks, the plain image" plan.txt ||
	fail "the installed cgscale does not find its image: $(grep '^tasks' plan.txt)"
echo "ok: $n pages render cleanly; completion lists $(wc -l <workloads) workloads; make install"
