#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The journal: every finished point is in <output>.partial as it finishes;
# after a SIGKILL of the runner `cgscale recover` (or the next run into the
# same output) makes a normal result marked incomplete that show, compare
# and report read; a torn last line is dropped with a warning; wrong or
# damaged lines are each named and dropped, the others kept; a result of
# the same run (its run id) makes recover and the next run make no second
# copy; a full disk still prints the table, names the journal that holds
# every point, exits 1 (issue 25, cases 10 and 11; 84-faults.sh has 7-9).
. "$(dirname "$0")/lib.sh"

RUN="run -q -m process -t 1,2 -w 0.1 -d 0.4 -i 0.2"

# points FILE: the point lines of a journal (the header is written twice)
points() { grep -c '"seq":' "$1"; }
# wait_points FILE N: until the journal FILE holds N points (10 s at most)
wait_points() {
	for i in $(seq 100); do
		[ -f "$1" ] && [ "$(points "$1")" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

# 1. SIGKILL mid-run, then recover: as many points as the journal held
"$CGSCALE" $RUN -o k.json page_fault1 page_fault3 >/dev/null 2>err.txt &
pid=$!
wait_points k.json.partial 2 || fail "no journal with two points: $(cat err.txt)"
kill -KILL $pid
wait $pid 2>/dev/null
n=$(points k.json.partial)
[ -e k.json ] && fail "a result file after SIGKILL"
"$CGSCALE" recover k.json.partial 2>rec.txt || fail "recover: $(cat rec.txt)"
grep -q "recovered $n point(s) into k.json" rec.txt || fail "recover said: $(cat rec.txt)"
[ -e k.json.partial ] && fail "journal left after recover"
jq_check k.json ".complete == false and (.points | length) == $n and (.interrupted | type) == \"string\"" \
	"recovered result"
jq_check k.json '[.points[] | .status == "ok" and (.samples.t_ns | length) > 2] | all' "recovered points whole"
"$CGSCALE" show k.json >/dev/null 2>&1 || fail "show reads the recovered result"
"$CGSCALE" report --no-charts -o k.html k.json >/dev/null 2>&1 || fail "report reads the recovered result"
"$CGSCALE" compare k.json k.json >/dev/null 2>cmp.txt
[ $? -le 1 ] || fail "compare reads the recovered result: $(cat cmp.txt)"

# 2. the next run into the same output recovers the journal beside it
"$CGSCALE" $RUN -o n.json page_fault1 >/dev/null 2>err.txt &
pid=$!
wait_points n.json.partial 1 || fail "no journal"
kill -KILL $pid
wait $pid 2>/dev/null
n=$(points n.json.partial)
"$CGSCALE" run -q -m thread -t 1 -w 0 -d 0.2 -i 0.1 -o n.json page_fault1 >/dev/null 2>next.txt ||
	fail "next run: $(cat next.txt)"
grep -q "earlier run into n.json did not finish: its $n finished point(s) are now in n-recovered.json" next.txt ||
	fail "next run did not say so: $(cat next.txt)"
jq_check n-recovered.json ".complete == false and (.points | length) == $n" "recovered by the next run"
jq_check n.json '.complete == true and (.points | length) == 1' "the next run's own result"

# 3. a torn last line is dropped with a warning, not a parse error
"$CGSCALE" $RUN -o t.json page_fault1 page_fault3 >/dev/null 2>&1 &
pid=$!
wait_points t.json.partial 2 || fail "no journal"
kill -KILL $pid
wait $pid 2>/dev/null
l2=$(grep -n '"seq":1,' t.json.partial | cut -d: -f1)     # the second point's line
head -n "$l2" t.json.partial >t2.json.partial
sed -n "${l2}p" t.json.partial | head -c 500 >>t2.json.partial
"$CGSCALE" recover -o t2.json t2.json.partial 2>torn.txt || fail "recover of a torn journal: $(cat torn.txt)"
grep -q "dropped a torn last line" torn.txt || fail "no warning about the torn line: $(cat torn.txt)"
jq_check t2.json '(.points | length) == 2' "torn journal: the whole lines kept"
rm -f t.json.partial

# 4. bad input to recover: exit 2, nothing written
echo '{"not":"a journal"}' >bad.partial
"$CGSCALE" recover bad.partial 2>e.txt; [ $? -eq 2 ] || fail "recover of a non-journal: not exit 2"
grep -q "not a cgscale journal" e.txt || fail "non-journal message: $(cat e.txt)"
[ -e bad ] && fail "recover of a non-journal wrote a file"
"$CGSCALE" recover nosuch.partial 2>e.txt; [ $? -eq 2 ] || fail "recover of a missing file: not exit 2"
"$CGSCALE" recover 2>e.txt; [ $? -eq 2 ] || fail "recover without a journal: not exit 2"

# 5. a live run's journal is neither recovered nor shared
"$CGSCALE" run -q -m process -t 1 -w 0 -d 3 -i 0.5 -o live.json page_fault1 >/dev/null 2>&1 &
pid=$!
wait_points live.json.partial 0 || fail "no journal"
"$CGSCALE" recover live.json.partial 2>e.txt; rc=$?
[ $rc -eq 2 ] && grep -q "still running" e.txt || fail "recover of a live journal: exit $rc, $(cat e.txt)"
"$CGSCALE" run -q -m thread -t 1 -w 0 -d 0.2 -i 0.1 -o live.json page_fault1 2>e.txt; rc=$?
[ $rc -eq 2 ] && grep -q "another cgscale run is writing this output" e.txt ||
	fail "second run into a live output: exit $rc, $(cat e.txt)"
wait $pid || fail "the live run failed"
[ -e live.json.partial ] && fail "journal left after a normal end"
jq_check live.json '.complete == true' "the live run's result"

# 6. runs into one directory in the same second: a file each. Six at
# once, so that two of them pick a name at the same moment (the claim must
# be atomic; checking that the name is free, then taking it, lost 1 in 4)
mkdir same
pids=
for i in 1 2 3 4 5 6; do
	"$CGSCALE" run -q -m thread -t 1 -w 0 -d 0.5 -i 0.25 -o same page_fault1 >/dev/null 2>"same-err.$i" &
	pids="$pids $!"
done
i=0
for p in $pids; do
	i=$((i + 1))
	wait "$p" || fail "run $i of 6 into same/: $(cat "same-err.$i")"
done
[ "$(ls same/*.json | wc -l)" -eq 6 ] || fail "six runs into one directory: $(ls same)"
[ -z "$(ls same | grep partial)" ] || fail "a claim was left behind: $(ls same)"
"$CGSCALE" run -q -m thread -t 1 -w 0 -d 0.5 -i 0.25 page_fault1 >/dev/null 2>&1 &
p1=$!
"$CGSCALE" run -q -m thread -t 1 -w 0 -d 0.5 -i 0.25 page_fault1 >/dev/null 2>&1 &
p2=$!
wait $p1 && wait $p2 || fail "default outputs"
[ "$(ls results/runs/*/result.json | wc -l)" -eq 2 ] || fail "two default runs: $(ls -R results)"

# Cases 7 and 8 run under both builds (the sanitizer one, when given, as
# well), each check on its own so that all of them are seen: a journal
# whose lines are wrong, and a kill between the final rename and the
# journal's unlink.
NOLEAK="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"    # LSan cannot run under ptrace
KILL_UNLINK="-e trace=unlink,unlinkat -e inject=unlink,unlinkat:signal=KILL:when=1"
command -v strace >/dev/null || fail "strace is needed (scripts/deps.sh test)"
command -v python3 >/dev/null || fail "python3 is needed (scripts/deps.sh test)"
# runs_of DIR: the finished/runs that `show DIR` counts for page_fault1,
# process, 1 task: its ok/runs, with the runs that foreign load disturbed
# (listed apart, "N disturbed, left out") counted as finished
runs_of() {
	"$C" show "$1" 2>/dev/null | sed -n 's/^ *page_fault1 process tasks=1 .* \([0-9][0-9]*\)\/\([0-9][0-9]*\) .*/\1 \2 &/p' |
		head -n 1 | awk '{ d = 0; if (match($0, /[0-9]+ disturbed, left out/)) d = substr($0, RSTART) + 0; print $1 + d "/" $2 }'
}
# killed_at_unlink DIR ARGS...: a run into DIR/t.json, killed at its first
# unlink: after the final rename, before the journal's removal
killed_at_unlink() {
	d=$1
	shift
	mkdir "$d"
	ASAN_OPTIONS=$NOLEAK strace -f -o /dev/null $KILL_UNLINK "$C" run -q -w 0 -d 0.2 -i 0.1 \
		"$@" -o "$d/t.json" page_fault1 >/dev/null 2>"$d.err"
	[ $? -eq 137 ] || fail "$d: the run was not killed at its unlink: $(cat "$d.err")"
	[ -s "$d/t.json" ] && [ -s "$d/t.json.partial" ] ||
		fail "$d: the kill did not land between the final rename and the journal's unlink: $(ls -A "$d")"
}
# The helper that changes journals: the line of a point, bad variants of
# it (with a valid checksum too, computed as the runner does: CRC-32 of
# the run id and the record), and bit flips at fixed random places.
cat >jtool.py <<'EOF'
import json, random, sys, zlib
def lines(p): return open(p, 'rb').read().split(b'\n')[:-1]
def save(p, ls): open(p, 'wb').write(b''.join(l + b'\n' for l in ls))
def rec_of(l): return l[l.index(b'"rec":') + 6:-1] if l.startswith(b'{"crc32":"') else l
def framed(ls, rec):
    if not ls[0].startswith(b'{"crc32":"'):
        return rec                       # an older journal: no checksums
    rid = json.loads(rec_of(ls[0]))['invocation']['id'].encode()
    return b'{"crc32":"%08x","rec":%s}' % (zlib.crc32(rid + rec), rec)
cmd, src = sys.argv[1], sys.argv[2]
ls = lines(src)
at = next(i for i, l in enumerate(ls) if b'"seq":4,' in l)     # the point seq 4
if cmd == 'line':
    print(at + 1)
elif cmd == 'variant':
    r, k = rec_of(ls[at]), sys.argv[3]
    v = {'empty': b'{}', 'x1': b'{"x":1}',
         'renamed': ls[at].replace(b'"tasks":', b'"taskz":', 1),
         'xmode': ls[at].replace(b'"mode":"', b'"mode":"x', 1),
         'empty-crc': framed(ls, b'{}'),
         'renamed-crc': framed(ls, r.replace(b'"tasks":', b'"taskz":', 1)),
         'xmode-crc': framed(ls, r.replace(b'"mode":"', b'"mode":"x', 1)),
         'dup': ls[at] + b'\n' + ls[at]}[k]
    save(sys.argv[4], ls[:at] + [v] + ls[at + 1:])
elif cmd == 'flips':
    data, rng = open(src, 'rb').read(), random.Random(25)
    for i in range(int(sys.argv[3])):
        pos, bit = rng.randrange(len(data)), rng.randrange(8)
        d = bytearray(data)
        d[pos] ^= 1 << bit
        open('%s.%d' % (sys.argv[4], i), 'wb').write(d)
        print(i, data[:pos].count(b'\n') + 1)
EOF
# the recovered result as sorted lines: the head, then each point (its
# scalability left out: it follows from the N=1 point, which may be lost)
doc_lines() { jq -S -c 'del(.points)' "$1" && jq -S -c '.points[] | del(.summary.scalability)' "$1" | sort; }

# 7. a journal with wrong lines ($J: 12 points, nothing else): valid JSON
# that is no point ({}, {"x":1}, a renamed key, "mode":"xprocess", each
# also with a valid checksum) is dropped and named by its line number and
# every other point recovered; a repeated line makes no point more; the
# next run into that output is not blocked; of 30 random bit flips each is
# caught and named, or changes nothing.
wrong_lines() {
	L=$(python3 jtool.py line "$J")
	for v in empty x1 renamed xmode empty-crc renamed-crc xmode-crc; do
		python3 jtool.py variant "$J" $v "$D/$v.partial"
		"$C" recover -o "$D/$v.json" "$D/$v.partial" 2>"$D/$v.err" ||
			{ bad "a journal with a wrong line ($v) is not recovered: $(cat "$D/$v.err")"; return 1; }
		[ "$(jq -c '[.points[].seq]' "$D/$v.json")" = "[0,1,2,3,5,6,7,8,9,10,11]" ] ||
			{ bad "$v: not the 11 other points: $(jq -c '[.points[].seq]' "$D/$v.json")"; return 1; }
		grep -q "line $L dropped" "$D/$v.err" || { bad "$v: line $L not named: $(cat "$D/$v.err")"; return 1; }
	done
}
repeated_line() {
	L=$(python3 jtool.py line "$J")
	python3 jtool.py variant "$J" dup "$D/dup.partial"
	"$C" recover -o "$D/dup.json" "$D/dup.partial" 2>"$D/dup.err" || { bad "recover: $(cat "$D/dup.err")"; return 1; }
	n=$(jq '.points | length' "$D/dup.json")
	[ "$n" -eq 12 ] || { bad "a repeated line: $n points of 12"; return 1; }
	grep -q "line $((L + 1)) dropped: repeats" "$D/dup.err" || { bad "the repeat not named: $(cat "$D/dup.err")"; return 1; }
}
next_run() {
	L=$(python3 jtool.py line "$J")
	mkdir "$D/nb"
	python3 jtool.py variant "$J" x1 "$D/nb/x.json.partial"
	"$C" run -q -m thread -t 1 -w 0 -d 0.2 -i 0.1 -o "$D/nb/x.json" page_fault1 >/dev/null 2>"$D/nb.err" ||
		{ bad "the next run into an output whose journal has a wrong line: $(cat "$D/nb.err")"; return 1; }
	grep -q "line $L dropped" "$D/nb.err" &&
		grep -q "its 11 finished point(s) are now in $D/nb/x-recovered.json" "$D/nb.err" ||
		{ bad "the next run did not say so: $(cat "$D/nb.err")"; return 1; }
	jq -e '.complete and (.points | length) == 1' "$D/nb/x.json" >/dev/null || { bad "the next run's result"; return 1; }
}
bit_flips() {
	python3 jtool.py flips "$J" 30 "$D/f" >"$D/flips" || { bad "jtool.py flips"; return 1; }
	cp "$J" "$D/base.partial"
	"$C" recover -o "$D/base.json" "$D/base.partial" 2>/dev/null || { bad "recover"; return 1; }
	doc_lines "$D/base.json" >"$D/base.lines"
	caught=0 same=0 silent=0 other=0 lost=0
	while read -r k line; do
		f=$D/f$k
		mv "$D/f.$k" "$f.json.partial"
		if ! "$C" recover -o "$f.json" "$f.json.partial" 2>"$f.err"; then
			lost=$((lost + 1))
			echo "  flip $k, line $line: every point lost: $(cat "$f.err")" >&2
			continue
		fi
		doc_lines "$f.json" >"$f.lines"
		if grep -q "line $line dropped" "$f.err" && [ -z "$(comm -13 "$D/base.lines" "$f.lines")" ] &&
			[ "$(jq '.points | length' "$f.json")" -ge 11 ]; then
			caught=$((caught + 1))
		elif grep -q dropped "$f.err"; then
			other=$((other + 1))       # a line dropped, but not that one, or more lost
		elif cmp -s "$D/base.lines" "$f.lines"; then
			same=$((same + 1))
		else
			silent=$((silent + 1))
		fi
	done <"$D/flips"
	echo "  $B: 30 bit flips: $caught caught and named, $same harmless, $silent taken silently, $other dropped but not as said, $lost lost everything"
	[ $((silent + other + lost)) -eq 0 ] || { bad "$((silent + other + lost)) of 30 bit flips"; return 1; }
}

# 8. killed between the final rename and the journal's unlink ($K): the
# next run, and recover, see that the result holds the journal's run (its
# run id) and make no t-recovered.json; show counts the runs once. The
# same when recover itself is killed there.
rename_recover() {
	d=$K.a
	cp -r "$K" "$d"
	"$C" recover "$d/t.json.partial" 2>"$d.rec" || { bad "recover: $(cat "$d.rec")"; return 1; }
	grep -q "nothing to recover: $d/t.json holds all 2 point(s)" "$d.rec" || { bad "recover said: $(cat "$d.rec")"; return 1; }
	[ ! -e "$d/t.json.partial" ] && [ ! -e "$d/t-recovered.json" ] || { bad "recover: $(ls -A "$d")"; return 1; }
	[ "$(runs_of "$d")" = 2/2 ] || { bad "show counts $(runs_of "$d") runs, not 2/2"; return 1; }
}
rename_next_run() {
	d=$K.b
	cp -r "$K" "$d"
	"$C" run -q -m process -t 1 -r 2 -w 0 -d 0.2 -i 0.1 -o "$d/t.json" page_fault1 >/dev/null 2>"$d.next" ||
		{ bad "the next run: $(cat "$d.next")"; return 1; }
	[ ! -e "$d/t-recovered.json" ] || { bad "the next run made t-recovered.json beside a complete t.json: $(cat "$d.next")"; return 1; }
	grep -q "left its journal behind" "$d.next" || { bad "the next run said: $(cat "$d.next")"; return 1; }
	# ... and that its own result replaces the one that held those points
	grep -qF "this run's result will replace $d/t.json as -o asks" "$d.next" ||
		{ bad "the replacing of $d/t.json not said: $(cat "$d.next")"; return 1; }
	[ "$(runs_of "$d")" = 2/2 ] || { bad "show counts $(runs_of "$d") runs, not 2/2"; return 1; }
}
recover_killed() {
	d=$K.c
	mkdir "$d"
	cp "$K/t.json.partial" "$d/"       # a dead journal alone: the result
	rm "$K/t.json"                      # its run wrote is gone
	ASAN_OPTIONS=$NOLEAK strace -o /dev/null $KILL_UNLINK "$C" recover "$d/t.json.partial" >/dev/null 2>&1
	[ $? -eq 137 ] && [ -s "$d/t.json" ] && [ -s "$d/t.json.partial" ] ||
		{ bad "recover was not killed between its rename and unlink: $(ls -A "$d")"; return 1; }
	"$C" recover "$d/t.json.partial" 2>"$d.rec" || { bad "recover again: $(cat "$d.rec")"; return 1; }
	[ ! -e "$d/t-recovered.json" ] && [ ! -e "$d/t.json.partial" ] || { bad "recover again: $(ls -A "$d"): $(cat "$d.rec")"; return 1; }
	grep -q "nothing to recover" "$d.rec" || { bad "recover again said: $(cat "$d.rec")"; return 1; }
	[ "$(runs_of "$d")" = 2/2 ] || { bad "show counts $(runs_of "$d") runs, not 2/2"; return 1; }
}

for B in rel san; do
	C=$CGSCALE
	[ $B = san ] && C=${CGSCALE_SAN:-}
	[ -n "$C" ] || continue
	[ $B = san ] && [ "$C" = "$CGSCALE" ] && continue
	D=$T/bad-$B
	killed_at_unlink "$D" -m both -t 1,2,3 -r 2
	rm "$D/t.json"
	J=$D/t.json.partial
	subcase "$B: 10, a wrong line named and dropped, the others kept" wrong_lines
	subcase "$B: 10, a repeated line: no thirteenth point" repeated_line
	subcase "$B: 10, the next run into that output not blocked" next_run
	subcase "$B: 10, 30 bit flips caught or harmless" bit_flips
	K=$T/ren-$B
	killed_at_unlink "$K" -m process -t 1 -r 2
	subcase "$B: 11, recover after a kill between rename and unlink" rename_recover
	subcase "$B: 11, the next run after that kill" rename_next_run
	subcase "$B: 11, recover killed between rename and unlink" recover_killed
done
subcases_done journal || exit 1

# 9. a full filesystem during the run: table printed, exit 1, and every
# point in the journal the message names: the one beside the output, or,
# when that one could not take a point, the one it moved to in the
# fallback place ($XDG_STATE_HOME/cgscale, in the scratch folder here)
[ "$(id -u)" -eq 0 ] || skip "a tmpfs for the full-disk case needs root"
mkdir m
mount -t tmpfs -o size=256k cgscale-it m || skip "cannot mount a tmpfs"
trap 'umount "$T/m" 2>/dev/null; rm -rf "$T"' EXIT
"$CGSCALE" $RUN -o m/r.json page_fault1 page_fault3 >full.txt 2>err.txt &
pid=$!
wait_points m/r.json.partial 1 || fail "no journal on the tmpfs"
dd if=/dev/zero of=m/fill bs=4k 2>/dev/null
wait $pid
rc=$?
[ $rc -eq 1 ] || fail "full disk: exit $rc, expected 1: $(cat err.txt)"
grep -q "page_fault3" full.txt || fail "full disk: no table printed: $(cat full.txt)"
j=$(sed -n "s/.*all 4 point(s) are in the journal .*: run 'cgscale recover \([^']*\)'.*/\1/p" err.txt)
case "$j" in
m/r.json.partial | "$XDG_STATE_HOME"/cgscale/r-*.json.partial) ;;
*) fail "full disk: not every point in a journal named, or not where said: $(cat err.txt)" ;;
esac
ls -A m | grep -q '^\.r\.json' && fail "full disk: a temporary file left"
rm m/fill
"$CGSCALE" recover -o m/r.json "$j" 2>/dev/null || fail "recover after the disk was freed"
jq_check m/r.json '.complete == false and (.points | length) == 4' "points of the full-disk run"
exit 0
