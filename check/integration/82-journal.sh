#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The journal: every finished point is in <output>.partial as it finishes;
# after a SIGKILL of the runner `cgscale recover` (or the next run into the
# same output) makes a normal result marked incomplete that show, compare
# and report read; a torn last line is dropped with a warning; a full disk
# at the final write still prints the table, names the journal, exits 1.
. "$(dirname "$0")/lib.sh"

RUN="run -q -m process -t 1,2 -w 0.1 -d 0.4 -i 0.2"

# wait_lines FILE N: until FILE has N complete lines (10 s at most)
wait_lines() {
	for i in $(seq 100); do
		[ -f "$1" ] && [ "$(wc -l <"$1")" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

# 1. SIGKILL mid-run, then recover: as many points as the journal held
"$CGSCALE" $RUN -o k.json page_fault1 page_fault3 >/dev/null 2>err.txt &
pid=$!
wait_lines k.json.partial 3 || fail "no journal with two points: $(cat err.txt)"
kill -KILL $pid
wait $pid 2>/dev/null
n=$(($(wc -l <k.json.partial) - 1))
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
wait_lines n.json.partial 2 || fail "no journal"
kill -KILL $pid
wait $pid 2>/dev/null
n=$(($(wc -l <n.json.partial) - 1))
"$CGSCALE" run -q -m thread -t 1 -w 0 -d 0.2 -i 0.1 -o n.json page_fault1 >/dev/null 2>next.txt ||
	fail "next run: $(cat next.txt)"
grep -q "earlier run into n.json did not finish: its $n finished point(s) are now in n-recovered.json" next.txt ||
	fail "next run did not say so: $(cat next.txt)"
jq_check n-recovered.json ".complete == false and (.points | length) == $n" "recovered by the next run"
jq_check n.json '.complete == true and (.points | length) == 1' "the next run's own result"

# 3. a torn last line is dropped with a warning, not a parse error
"$CGSCALE" $RUN -o t.json page_fault1 page_fault3 >/dev/null 2>&1 &
pid=$!
wait_lines t.json.partial 3 || fail "no journal"
kill -KILL $pid
wait $pid 2>/dev/null
head -n 3 t.json.partial >t2.json.partial
sed -n 3p t.json.partial | head -c 500 >>t2.json.partial
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
wait_lines live.json.partial 1 || fail "no journal"
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

# 7. a full filesystem at the final write: table printed, journal named,
# exit 1; the journal keeps the points written before the disk filled
[ "$(id -u)" -eq 0 ] || skip "a tmpfs for the full-disk case needs root"
mkdir m
mount -t tmpfs -o size=256k cgscale-it m || skip "cannot mount a tmpfs"
trap 'umount "$T/m" 2>/dev/null; rm -rf "$T"' EXIT
"$CGSCALE" $RUN -o m/r.json page_fault1 page_fault3 >full.txt 2>err.txt &
pid=$!
wait_lines m/r.json.partial 2 || fail "no journal on the tmpfs"
dd if=/dev/zero of=m/fill bs=4k 2>/dev/null
wait $pid
rc=$?
[ $rc -eq 1 ] || fail "full disk: exit $rc, expected 1: $(cat err.txt)"
grep -q "page_fault3" full.txt || fail "full disk: no table printed: $(cat full.txt)"
grep -q "cgscale recover m/r.json.partial" err.txt || fail "full disk: journal not named: $(cat err.txt)"
ls -A m | grep -q '^\.r\.json' && fail "full disk: a temporary file left"
n=$(($(wc -l <m/r.json.partial) - 1))
[ $n -ge 1 ] || fail "full disk: no point in the journal"
rm m/fill
"$CGSCALE" recover m/r.json.partial 2>/dev/null || fail "recover after the disk was freed"
jq_check m/r.json ".complete == false and (.points | length) == $n" "points of the full-disk run"
exit 0
