#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 40's path cases, under both builds:
#  3. recover removes the journal through the directory it read it in:
#     the directory swapped for a link to another while recover waits at
#     its unlink (strace delays it) leaves the other directory's file;
#  4. a journal in a fallback place that is not ours alone (mode 0755)
#     is recovered beside itself, never to the output it records; in a
#     place that is (0700, ours) to that output;
#  5. the output's directory mounted over or renamed mid-run: the result
#     goes to the fallback place, said, exit 1, and not into the hidden or
#     moved directory ("results in" names where it is).
# (Case 4's walk of the fallback place is in 84-faults.sh, fallback_safe.)
# Root only (mounts, strace).
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip "needs root (bind mounts, strace of root's cgscale)"
command -v strace >/dev/null || fail "strace is needed (scripts/deps.sh test)"
command -v jq >/dev/null || fail "jq is needed (scripts/deps.sh test)"
NOLEAK="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"    # no LeakSanitizer under ptrace
trap 'umount "$T"/b*/g 2>/dev/null; rm -rf "$T"' EXIT
SHORT="run -q -m process -t 1 -w 0 -d 0.2 -i 0.1 --cgroup-depth 0"
passed=0 failed=0 names=

# journal DIR NAME: DIR/NAME.json.partial, the journal of a finished run
# whose final rename failed (EROFS injected): every point in it.
journal() {
	mkdir -p "$1"
	# shellcheck disable=SC2086
	ASAN_OPTIONS=$NOLEAK strace -f -o /dev/null -e trace=rename,renameat,renameat2 \
		-e inject=rename,renameat,renameat2:error=EROFS "$C" $SHORT -o "$1/$2.json" \
		page_fault1 >/dev/null 2>journal.err
	[ $? -eq 1 ] && [ -s "$1/$2.json.partial" ] && [ ! -e "$1/$2.json" ] ||
		{ bad "no journal left in $1: $(cat journal.err)"; return 1; }
}

# the syscall numbers of unlink and unlinkat on this machine
case $(uname -m) in
x86_64) UNLINKS="87 263" ;;
aarch64) UNLINKS="35" ;;
*) UNLINKS= ;;
esac
at_unlink() {
	n=$(cut -d' ' -f1 "/proc/$1/syscall" 2>/dev/null)
	for u in $UNLINKS; do [ "$n" = "$u" ] && return 0; done
	return 1
}

# 3: the journal's directory swapped for a link while recover is held at
# its unlink: the journal it read is removed, the look-alike is not
swap_at_unlink() {
	d=$T/$B.3
	journal "$d/d" x || return 1
	mkdir "$d/victim"
	cp "$d/d/x.json.partial" "$d/victim/x.json.partial"
	ASAN_OPTIONS=$NOLEAK strace -f -o /dev/null -e trace=unlink,unlinkat \
		-e inject=unlink,unlinkat:delay_enter=3000000 "$C" recover "$d/d/x.json.partial" \
		>/dev/null 2>"$d.err" &
	st=$!
	wait_until 120 sh -c "pgrep -P $st >/dev/null" || { bad "recover did not start"; return 1; }
	pid=$(pgrep -P $st)
	wait_until 120 at_unlink "$pid" || { bad "recover never reached an unlink: $(cat "$d.err")"; return 1; }
	mv "$d/d" "$d/real" && ln -s "$d/victim" "$d/d" || { bad "cannot swap"; return 1; }
	wait $st || { bad "recover: $(cat "$d.err")"; return 1; }
	[ -f "$d/victim/x.json.partial" ] || { bad "the look-alike in the other directory was removed"; return 1; }
	[ ! -e "$d/real/x.json.partial" ] || { bad "the journal recover read is left"; return 1; }
	jq -e '(.points | length) == 1' "$d/real/x.json" >/dev/null ||
		{ bad "the result: $(ls -A "$d/real")"; return 1; }
}

# 4: the same journal, its recorded output $d/out/y.json, recovered from
# a fallback place of mode 0755 (beside it), then of 0700 (to the output)
fallback_trust() {
	d=$T/$B.4
	journal "$d/out" y || return 1
	fb=$XDG_STATE_HOME/cgscale
	mkdir -p "$fb"
	for mode in 755 700; do
		chmod $mode "$fb"
		cp "$d/out/y.json.partial" "$fb/y.json.partial"
		"$C" recover "$fb/y.json.partial" >/dev/null 2>"$d.err" ||
			{ bad "$mode: recover: $(cat "$d.err")"; return 1; }
		if [ $mode = 755 ]; then
			[ ! -e "$d/out/y.json" ] || { bad "recovered to the output a 0755 place's journal names"; return 1; }
			grep -q "not this user's alone" "$d.err" || { bad "755: not said: $(cat "$d.err")"; return 1; }
			jq -e '(.points | length) == 1' "$fb/y.json" >/dev/null ||
				{ bad "755: not recovered beside the journal: $(ls -A "$fb")"; return 1; }
			rm "$fb/y.json"
		else
			jq -e '(.points | length) == 1' "$d/out/y.json" >/dev/null ||
				{ bad "700: not recovered to its output: $(cat "$d.err")"; return 1; }
		fi
		[ ! -e "$fb/y.json.partial" ] || { bad "$mode: the journal left"; return 1; }
	done
	rm -rf "$fb"
}

# 5: the output's directory mounted over (or renamed) once the first
# point is in the journal: exit 1, said, the result in the fallback place
dir_changed() {
	d=$T/$B.5$1
	mkdir -p "$d/g" "$d/other"
	"$C" run -q -m process -t 1,2 -r 2 -w 0 -d 0.5 -i 0.25 --cgroup-depth 0 -o "$d/g/r.json" \
		page_fault1 >/dev/null 2>"$d.err" &
	pid=$!
	wait_until 120 sh -c "[ -s '$d/g/r.json.partial' ] && [ \$(wc -l <'$d/g/r.json.partial') -ge 2 ]" ||
		{ bad "no point in the journal"; return 1; }
	if [ "$1" = mount ]; then
		mount --bind "$d/other" "$d/g" || { bad "cannot bind-mount"; return 1; }
	else
		mv "$d/g" "$d/moved" || { bad "cannot rename"; return 1; }
	fi
	wait $pid
	rc=$?
	[ "$1" = mount ] && umount "$d/g"
	[ $rc -eq 1 ] || { bad "$1: exit $rc, expected 1: $(cat "$d.err")"; return 1; }
	grep -q "is no longer the one this run started in" "$d.err" || { bad "$1: not said: $(cat "$d.err")"; return 1; }
	out=$(sed -n 's/^cgscale: results in //p' "$d.err")
	case "$out" in
	"$XDG_STATE_HOME"/cgscale/r-*.json) ;;
	*) bad "$1: results in '$out', not the fallback place: $(cat "$d.err")"; return 1 ;;
	esac
	jq -e '(.points | length) == 4' "$out" >/dev/null || { bad "$1: $out lacks points"; return 1; }
	left=$(find "$d" -name 'r.json*')
	[ -z "$left" ] || { bad "$1: written where it is not seen: $left"; return 1; }
	rm -rf "$XDG_STATE_HOME/cgscale"
}
mounted() { dir_changed mount; }
renamed() { dir_changed rename; }

for B in rel san; do
	C=$CGSCALE
	[ $B = san ] && C=${CGSCALE_SAN:-}
	[ -n "$C" ] || continue
	[ $B = san ] && [ "$C" = "$CGSCALE" ] && continue
	if [ -n "$UNLINKS" ]; then
		subcase "$B: 3, the journal's directory swapped at recover's unlink" swap_at_unlink
	else
		not_here "case 3: no unlink syscall numbers known for $(uname -m)"
	fi
	subcase "$B: 4, a journal in a 0755 fallback place not recovered to the output it names" fallback_trust
	subcase "$B: 5, a mount over the output's directory mid-run" mounted
	subcase "$B: 5, the output's directory renamed mid-run" renamed
done
subcases_done "safe path" || exit 1
done_here
