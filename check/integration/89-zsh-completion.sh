#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 89-zsh-completion.sh - the zsh completion `make` generates from the
# command and option tables (`cgscale --gen-completion zsh`): it parses
# (zsh -n), it is what the binary under test makes, and in a real
# interactive zsh (driven through zsh/zpty, TAB pressed at the end of each
# line) it offers the commands of --help, every long option each
# command's --help lists, enum values, workloads, cgroup's subcommands and
# cleanup's options, and -e's events: perf::NAME whole, after a comma, and
# the lowercase aliases. The matches are caught by a compadd wrapper, so
# nothing depends on how the terminal draws them.
. "$(dirname "$0")/lib.sh"
command -v zsh >/dev/null || skip "zsh is missing (Debian package zsh; as root 'scripts/deps.sh test' installs it)"
zsh -f -c 'zmodload zsh/zpty' 2>/dev/null || skip "zsh has no zsh/zpty module here"
comp=$REPO/build/completion/_cgscale
[ -f "$comp" ] || fail "no $comp: 'make' builds it"
zsh -n "$comp" || fail "zsh -n $comp failed"
"$CGSCALE_SAN" --gen-completion zsh | cmp -s - "$comp" || fail "$comp differs from what the binary makes now"
head -n 1 "$comp" | grep -qx '#compdef cgscale' || fail "$comp does not start with #compdef cgscale"

mkdir fpath bin
cp "$comp" fpath/_cgscale
ln -s "$CGSCALE" bin/cgscale
# drive.zsh LINE...: for each LINE, "LINE<TAB>match" for each match zsh's
# completion offers at its end, and "LINE<TAB>ERROR ..." for a complaint
cat >drive.zsh <<'EOF'
zmodload zsh/zpty || exit 3
zpty z zsh -f -i
zpty -w z "unsetopt autolist; LISTMAX=100000; PATH=${(q)PWD}/bin:\$PATH"
zpty -w z "fpath=(${(q)PWD}/fpath \$fpath); autoload -U compinit; compinit -u -D"
zpty -w z 'compadd() { if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi; local -a __h; builtin compadd -A __h "$@"; local h; for h in $__h; do print -r -- "<HIT>$h</HIT>"; done; builtin compadd "$@"; }'
zpty -w z '_zt() { zle complete-word; print -r -- "<<DONE>>"; zle kill-whole-line; }; zle -N _zt; bindkey "^I" _zt'
zpty -w z 'print READY'
zpty -r z out '*READY*'
for line in "$@"; do
	zpty -w -n z "$line"$'\t'
	zpty -r z out '*<<DONE>>*'
	out=${out//$'\r'/}
	print -r -- "$out" | grep -i -e '_arguments:' -e 'command not found' -e 'parse error' -e 'bad pattern' |
		sed "s|^|$line	ERROR |"
	print -r -- "$out" | grep -o '<HIT>[^<]*</HIT>' | sed "s|<HIT>\(.*\)</HIT>|$line	\1|"
done
zpty -d z
EOF

"$CGSCALE" --help | awk '/^commands:$/ { on = 1; next } on && /^  [a-z]/ { print $1 }' >cmds
"$CGSCALE" list | awk 'NR > 1 && /^$/ { exit } NR > 1 && /^[a-z]/ { print $1 }' | sort >workloads
"$CGSCALE" events | awk '/^Events/ { on = 1; next } on && /^  perf::[A-Z]/ && !/perf::PERF_COUNT_/ { print $1 }' |
	sort | awk '$1 == "perf::CYCLES" { print; next } { rest = rest $1 "\n" } END { printf "%s", rest }' >perf_events
ev=$(head -n 1 perf_events)
pre=$(printf '%s' "${ev#perf::}" | cut -c1-2)
alias=$(printf '%s' "${ev#perf::}" | tr 'A-Z' 'a-z')
set -- "cgscale " "cgscale run --mode " "cgscale run " "cgscale compare --format " \
	"cgscale cgroup " "cgscale cgroup cleanup --" "cgscale cgroup show --cgroup-l" "cgscale cgroup show page_"
withopts=""
while read -r cmd; do
	"$CGSCALE" "$cmd" --help 2>/dev/null | grep -q '^  .*--[a-z]' || continue
	[ "$cmd" = cgroup ] && continue   # its --help lists no options: show takes run's
	withopts="$withopts $cmd"
	set -- "$@" "cgscale $cmd --"
done <cmds
[ -n "$ev" ] && set -- "$@" "cgscale run -e perf::$pre" "cgscale run -e cycles,perf::$pre" \
	"cgscale run -e $(printf '%s' "$alias" | cut -c1-3)" "cgscale run --events=perf::$pre"
timeout 300 zsh -f drive.zsh "$@" >hits 2>drive.err || fail "driving zsh failed: $(tail -n 5 drive.err)"
! grep -q "	ERROR" hits || fail "zsh complains: $(grep "	ERROR" hits | head -n 3)"
# hits LINE: what zsh offered at the end of LINE, sorted
hits() { awk -F '\t' -v l="$1" '$1 == l { print $2 }' hits | sort -u; }
# has LINE WORD...: each WORD is among the hits of LINE
has() {
	l=$1
	shift
	for w; do
		hits "$l" | grep -qxF -- "$w" || fail "zsh: '$l<TAB>' does not offer '$w': $(hits "$l" | head -n 8 | tr '\n' ' ')"
	done
}
has "cgscale " $(cat cmds)
has "cgscale run --mode " $("$CGSCALE" run --help | sed -n 's/.*--mode .*\[\([^]]*\)\].*/\1/p' | tr '|' ' ')
has "cgscale run " $(cat workloads)
has "cgscale compare --format " text json lkp
has "cgscale cgroup " show cleanup
has "cgscale cgroup cleanup --" --dry-run --force
has "cgscale cgroup show --cgroup-l" --cgroup-leaf
has "cgscale cgroup show page_" page_fault1
# every long option of each command's --help, from the same tables
for cmd in $withopts; do
	has "cgscale $cmd --" $("$CGSCALE" "$cmd" --help | sed -n 's/^  \(-[A-Za-z0-9], \|    \)\(--[a-z0-9-]*\).*/\2/p' | sort -u)
	echo "ok: zsh completes the $(hits "cgscale $cmd --" | wc -l) options of $cmd"
done
if [ -n "$ev" ]; then
	has "cgscale run -e perf::$pre" "$ev"
	has "cgscale run -e cycles,perf::$pre" "$ev"
	has "cgscale run --events=perf::$pre" "$ev"
	has "cgscale run -e $(printf '%s' "$alias" | cut -c1-3)" "$alias"
	echo "ok: zsh completes -e perf::$pre to $ev, after a comma and after --events=, and the alias $alias"
else
	echo "note: cgscale events lists no perf:: event here: -e perf::NAME is not tried"
fi
echo "ok: zsh -n, and a scripted zsh completes commands, options, values, workloads and events"
