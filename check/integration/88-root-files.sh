#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Files written as root (issue 25, cases 1, 2, 3 and 12), under both
# builds: a symbolic link planted at a name cgscale makes (the journal,
# the -o DIR/ claim, even in a race; the old predictable --csv-dir temp
# name) never steers a write, and one at the final name is refused, not
# replaced; a char device or FIFO given as the output is written into,
# never replaced; a run or recover killed at its final rename leaves a
# temporary file that the next write into that directory removes, while
# a live writer's (locked, or with a live pid), a link and another user's
# file are kept. Every victim lives in the scratch folder.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip "planting device nodes and other owners' files needs root"
V="$T/victim"
mkdir "$V"
RUN="run -q -m process -t 1 -w 0 -d 0.3 -i 0.1"
# LeakSanitizer cannot run under ptrace: no leak check under strace
NOLEAK="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
# untouched FILE: a victim that must still be the empty file made for it
untouched() {
	[ -f "$1" ] && [ ! -L "$1" ] && [ ! -s "$1" ] || { bad "$1 was written: $(ls -l "$1")"; return 1; }
}
# no_temps DIR: no temporary file of an atomic write left in DIR
no_temps() {
	t=$(find "$1" -maxdepth 1 \( -name '.*.cgs-*' -o -name '.*.??????' -o -name '*.tmp[0-9]*' \) ! -name '.live*' ! -name '.link*' ! -name '.other*')
	[ -z "$t" ] || { bad "temporary files left in $1: $t"; return 1; }
}
# a dead pid: a child that has exited
dead_pid() { sh -c 'echo $$'; }

# 1: a link at the journal's name o/NAME.partial, to a new file and to
# an existing empty one; a link at the final name
journal_link() {
	d=$T/j$B
	mkdir "$d"
	: >"$V/j-empty$B"
	ln -s "$V/j-new$B" "$d/a.json.partial"
	ln -s "$V/j-empty$B" "$d/b.json.partial"
	ln -s "$V/j-final$B" "$d/c.json"
	for n in a b c; do
		"$C" $RUN -o "$d/$n.json" page_fault1 >/dev/null 2>e.txt
		rc=$?
		[ $rc -eq 2 ] || { bad "$n: exit $rc, expected 2 (refused before the first point): $(cat e.txt)"; return 1; }
		grep -q "symbolic link" e.txt || { bad "$n: the message does not name the link: $(cat e.txt)"; return 1; }
	done
	[ ! -e "$V/j-new$B" ] || { bad "the journal's link was followed: $V/j-new$B made"; return 1; }
	untouched "$V/j-empty$B" || return 1
	[ ! -e "$V/j-final$B" ] && [ -L "$d/c.json" ] || { bad "the link at the final name was followed or replaced"; return 1; }
	[ -L "$d/a.json.partial" ] && [ -L "$d/b.json.partial" ] || { bad "a planted link was removed"; return 1; }
	no_temps "$d"
}

# 1, the race: the empty journal that claims a name in -o DIR/ is swapped
# for a link right after it is made. strace holds the claim's openat for
# 2 s (only the paths it can have in the next seconds), so the swap lands
# between the claim and anything the run does next; the run measures for
# 2 s, so a build that keeps the claim open has it swapped too.
claim_race() {
	command -v strace >/dev/null || { echo "  (no strace: the race variant not run)"; return 0; }
	d=$T/r$B
	mkdir "$d"
	: >"$V/race$B"
	now=$(date +%s) P=
	for s in 0 1 2 3 4 5 6 7; do
		P="$P -P $d/cgscale-$(date -d "@$((now + s))" +%Y%m%d-%H%M%S).json.partial"
	done
	(
		for i in $(seq 400); do
			for f in "$d"/*.partial; do
				[ -f "$f" ] && [ ! -L "$f" ] && { rm -f "$f"; ln -s "$V/race$B" "$f"; exit 0; }
			done
			sleep 0.05
		done
		exit 1
	) &
	w=$!
	ASAN_OPTIONS=$NOLEAK strace -o /dev/null $P -e trace=openat -e inject=openat:delay_exit=2000000 \
		"$C" run -q -m process -t 1 -w 0 -d 2 -i 0.5 -o "$d/" page_fault1 >/dev/null 2>e.txt
	rc=$?
	wait $w || { bad "the claim was never seen to swap it"; return 1; }
	[ $rc -eq 0 ] || { bad "exit $rc: $(cat e.txt)"; return 1; }
	untouched "$V/race$B" || return 1
	r=$(find "$d" -name 'cgscale-*.json' -type f)
	[ -n "$r" ] && jq -e '(.points | length) == 1' $r >/dev/null || { bad "no result in $d"; return 1; }
	no_temps "$d"
}

# 2: --csv-dir with links at the old predictable temporary name (the
# runner's pid, planted for the next pids before it starts and for its
# own pid after) and at the final name
csv_links() {
	d=$T/csv$B d2=$T/csv2$B
	mkdir "$d" "$d2"
	: >"$V/csv$B"
	last=$(cat /proc/sys/kernel/ns_last_pid)
	for p in $(seq $((last + 1)) $((last + 300))); do
		ln -s "$V/csv$B" "$d/page_fault1.csv.tmp$p"
	done
	"$C" $RUN --csv-dir "$d" -o "$T/csv$B.json" page_fault1 >/dev/null 2>e.txt &
	pid=$!
	ln -s "$V/csv$B" "$d/page_fault1.csv.tmp$pid" 2>/dev/null
	wait $pid || { bad "exit $?: $(cat e.txt)"; return 1; }
	untouched "$V/csv$B" || return 1
	[ -f "$d/page_fault1.csv" ] && [ ! -L "$d/page_fault1.csv" ] ||
		{ bad "$d/page_fault1.csv is not a regular file: $(ls -l "$d/page_fault1.csv")"; return 1; }
	grep -q '^tasks,processes' "$d/page_fault1.csv" || { bad "no CSV written"; return 1; }
	rm "$d"/page_fault1.csv.tmp*         # the links planted
	ln -s "$V/csv2-final$B" "$d2/page_fault1.csv"
	"$C" $RUN --csv-dir "$d2" -o "$T/csv2$B.json" page_fault1 >/dev/null 2>e.txt
	[ $? -eq 2 ] || { bad "a link at the final CSV name: not refused before the run: $(cat e.txt)"; return 1; }
	[ ! -e "$V/csv2-final$B" ] && [ -L "$d2/page_fault1.csv" ] ||
		{ bad "the link at the final CSV name was followed or replaced"; return 1; }
	no_temps "$d" && no_temps "$d2"
}

# reader FIFO OUT: read FIFO into OUT in the background; read_end: wait
# for it (bounded: it only ends when a writer opened and closed FIFO)
reader() { cat "$1" >"$2" & rpid=$!; }
read_end() {
	for i in $(seq 100); do
		kill -0 $rpid 2>/dev/null || break
		sleep 0.1
	done
	kill -9 $rpid 2>/dev/null
	wait $rpid 2>/dev/null
}
is_dev() { [ -c "$1" ] && [ "$(stat -c %t,%T "$1")" = 1,3 ] || { bad "$1 is no longer the char device: $(ls -l "$1")"; return 1; }; }

# 3: a char device (a mknod copy of /dev/null) and a FIFO as outputs
devices() {
	d=$T/dev$B
	mkdir "$d"
	"$C" $RUN -o "$d/a.json" page_fault1 >/dev/null 2>e.txt || { bad "run: $(cat e.txt)"; return 1; }
	mknod "$d/n1" c 1 3 && mknod "$d/n2" c 1 3 && mknod "$d/n3" c 1 3 && mkfifo "$d/f1" "$d/f2" ||
		{ bad "cannot make device nodes in $d"; return 1; }
	"$C" report -o "$d/n1" "$d/a.json" >/dev/null 2>e.txt || { bad "report -o device: $(cat e.txt)"; return 1; }
	is_dev "$d/n1" || return 1
	"$C" compare --junit "$d/n2" "$d/a.json" "$d/a.json" >/dev/null 2>e.txt ||
		{ bad "compare --junit device: $(cat e.txt)"; return 1; }
	is_dev "$d/n2" || return 1
	"$C" $RUN -o "$d/n3" page_fault1 >/dev/null 2>e.txt || { bad "run -o device: $(cat e.txt)"; return 1; }
	is_dev "$d/n3" || return 1
	reader "$d/f1" "$d/got1"
	"$C" $RUN -o "$d/f1" page_fault1 >/dev/null 2>e.txt
	rc=$?
	read_end
	[ $rc -eq 0 ] || { bad "run -o FIFO: exit $rc: $(cat e.txt)"; return 1; }
	[ -p "$d/f1" ] || { bad "run -o: the FIFO was replaced: $(ls -l "$d/f1")"; return 1; }
	jq -e '(.points | length) == 1' "$d/got1" >/dev/null || { bad "run -o FIFO: the reader got no result"; return 1; }
	reader "$d/f2" "$d/got2"
	"$C" compare --junit "$d/f2" "$d/a.json" "$d/a.json" >/dev/null 2>e.txt
	rc=$?
	read_end
	[ $rc -eq 0 ] && [ -p "$d/f2" ] && grep -q '<testsuite' "$d/got2" ||
		{ bad "compare --junit FIFO: exit $rc, $(ls -l "$d/f2"), got $(head -c 80 "$d/got2")"; return 1; }
	[ ! -e "$d/n3.partial" ] && [ ! -e "$d/f1.partial" ] || { bad "a journal was made beside a device"; return 1; }
	no_temps "$d"
}

KILL_RENAME="-e trace=rename,renameat,renameat2 -e inject=rename,renameat,renameat2:signal=KILL"
# 12: killed at the final rename, the run leaves its temporary file; the
# next run into that directory removes it. The same for recover. Kept: a
# dead pid's temp still locked, a live pid's temp, a link, another user's.
leftovers() {
	command -v strace >/dev/null || { echo "  (no strace: cannot kill at the rename)"; return 0; }
	d=$T/k$B
	mkdir "$d"
	ASAN_OPTIONS=$NOLEAK strace -o /dev/null $KILL_RENAME "$C" $RUN -o "$d/t.json" page_fault1 >/dev/null 2>&1
	[ $? -eq 137 ] || { bad "the run was not killed at its rename"; return 1; }
	[ -n "$(find "$d" -name '.t.json.*')" ] || { bad "no temporary file left by the kill (nothing to test)"; return 1; }
	dp=$(dead_pid)
	: >"$d/.live1.json.cgs-$dp-abcdefghij01"
	: >"$d/.live2.json.cgs-$$-abcdefghij02"
	: >"$d/.other.json.cgs-$dp-abcdefghij03"
	chown 12345:12345 "$d/.other.json.cgs-$dp-abcdefghij03"
	: >"$V/k$B"
	ln -s "$V/k$B" "$d/.link.json.cgs-$dp-abcdefghij04"
	# the live writer takes its lock waiting (flock, not -n): the check
	# below holds it for an instant, and a -n that met it gave up, left
	# the file unlocked, and the sweep rightly took it for a dead one's
	( exec 9>"$d/.live1.json.cgs-$dp-abcdefghij01"; flock 9 && exec sleep 120 ) &
	lpid=$!
	held=
	for i in $(seq 100); do      # until the lock is held
		flock -n "$d/.live1.json.cgs-$dp-abcdefghij01" true || { held=1; break; }
		sleep 0.1
	done
	[ -n "$held" ] || { bad "the live writer never held its lock"; kill $lpid; return 1; }
	"$C" $RUN -o "$d/u.json" page_fault1 >/dev/null 2>e.txt || { bad "the next run: $(cat e.txt)"; kill $lpid; return 1; }
	kill $lpid
	wait $lpid 2>/dev/null
	[ -z "$(find "$d" -name '.t.json.*')" ] || { bad "the killed run's temporary file is still there: $(ls -a "$d")"; return 1; }
	for f in .live1.json.cgs-$dp-abcdefghij01 .live2.json.cgs-$$-abcdefghij02 \
		.other.json.cgs-$dp-abcdefghij03 .link.json.cgs-$dp-abcdefghij04; do
		[ -e "$d/$f" ] || [ -L "$d/$f" ] || { bad "$f was removed"; return 1; }
	done
	untouched "$V/k$B" || return 1
	# recover killed at its rename, then recover again
	[ -s "$d/t.json.partial" ] || { bad "no journal of the killed run"; return 1; }
	ASAN_OPTIONS=$NOLEAK strace -o /dev/null $KILL_RENAME "$C" recover "$d/t.json.partial" >/dev/null 2>&1
	[ $? -eq 137 ] || { bad "recover was not killed at its rename"; return 1; }
	[ -n "$(find "$d" -name '.t.json.*')" ] || { bad "no temporary file left by recover's kill"; return 1; }
	"$C" recover "$d/t.json.partial" >/dev/null 2>e.txt || { bad "recover: $(cat e.txt)"; return 1; }
	[ -z "$(find "$d" -name '.t.json.*')" ] || { bad "recover left the killed recover's temporary file: $(ls -a "$d")"; return 1; }
	jq -e '(.points | length) == 1' "$d/t.json" >/dev/null || { bad "recovered result"; return 1; }
	no_temps "$d"
}

for B in rel san; do
	C=$CGSCALE
	[ $B = san ] && C=${CGSCALE_SAN:-}
	[ -n "$C" ] || continue
	[ $B = san ] && [ "$C" = "$CGSCALE" ] && continue
	subcase "$B: 1, a link at the journal's or the final name" journal_link
	subcase "$B: 1, the -o DIR/ claim swapped for a link" claim_race
	subcase "$B: 2, --csv-dir links at the temporary and final names" csv_links
	subcase "$B: 3, a char device and a FIFO as outputs" devices
	subcase "$B: 12, a dead writer's temporary file removed, a live one's kept" leftovers
done
subcases_done "root file"
