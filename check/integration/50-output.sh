#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Output forms: --csv gives runtest.py's columns (one test; several are
# refused, --csv-dir writes one file each), -o DIR names a file in
# it, the default goes under results/runs/, list and help work, and the
# sanitizer build runs a short point in each mode cleanly.
. "$(dirname "$0")/lib.sh"

"$CGSCALE" run -q --csv -t 1,2 -w 0 -d 0.5 -i 0.25 page_fault3 >out.csv 2>err.txt ||
	fail "csv run: $(cat err.txt)"
head -n 1 out.csv | grep -qx 'tasks,processes,processes_idle,threads,threads_idle,linear' ||
	fail "csv header: $(head -n 1 out.csv)"
sed -n 2p out.csv | grep -qx '0,0,100,0,100,0' || fail "csv zero row"
awk -F, 'NR==3 && ($1 != 1 || $2 <= 0 || $4 <= 0 || $6 <= 0) {exit 1}' out.csv || fail "csv row 1: $(sed -n 3p out.csv)"
awk -F, 'NR==4 && ($1 != 2 || $2 <= 0 || $4 <= 0) {exit 1}' out.csv || fail "csv row 2"
ls results/runs/*/result.json >/dev/null 2>&1 || fail "default output under results/runs/"
grep -q "results in results/runs/" err.txt || fail "path of the results not printed"

# --csv with two tests would be merged by LKP's parser: refused before
# any work (exit 2, nothing written); --csv-dir writes one file per test
"$CGSCALE" run -q --csv -t 1 -w 0 -d 0.2 -i 0.1 -o two.json page_fault1 page_fault3 >two.out 2>two.err
rc=$?
[ $rc = 2 ] || fail "--csv with two tests: exit $rc, want 2"
grep -q -- "--csv-dir" two.err || fail "--csv refusal does not name --csv-dir: $(cat two.err)"
[ -e two.json ] || [ -s two.out ] && fail "--csv refusal wrote something"
mkdir cdir
"$CGSCALE" run -q --csv-dir cdir -t 1,2 -w 0 -d 0.2 -i 0.1 -o two.json page_fault1 page_fault3 \
	>/dev/null 2>two.err || fail "--csv-dir run: $(cat two.err)"
[ "$(ls cdir)" = "$(printf 'page_fault1.csv\npage_fault3.csv')" ] || fail "--csv-dir files: $(ls cdir)"
for t in page_fault1 page_fault3; do
	head -n 1 cdir/$t.csv | grep -qx 'tasks,processes,processes_idle,threads,threads_idle,linear' ||
		fail "$t.csv header"
	[ "$(wc -l <cdir/$t.csv)" = 4 ] || fail "$t.csv has $(wc -l <cdir/$t.csv) lines, want 4"
	want=$(jq --arg t $t '[.points[] | select(.test == $t and .mode == "process" and .tasks == 2)
		| .summary.total_ops_per_sec] | add / length | round' two.json)
	awk -F, -v w="$want" 'NR == 4 && ($2 - w > 1 || w - $2 > 1) { exit 1 }' cdir/$t.csv ||
		fail "$t.csv: 2-task processes $(sed -n 4p cdir/$t.csv) is not the file's $want"
done
"$CGSCALE" run -q --csv-dir nonexistent -w 0 -d 0.2 -i 0.1 -o no.json page_fault1 >/dev/null 2>&1
rc=$?
[ $rc = 2 ] && [ ! -e no.json ] || fail "--csv-dir to a missing directory: exit $rc"

mkdir d
"$CGSCALE" run -q -m thread -w 0 -d 0.2 -i 0.1 -o d page_fault1 >/dev/null 2>&1 || fail "-o DIR"
ls d/cgscale-*.json >/dev/null 2>&1 || fail "-o DIR: no file inside"

# progress line on a terminal (script(1) gives the run a tty), none with -q
script -qec "$CGSCALE run -m process -w 0.2 -d 0.6 -i 0.2 -o tty.json page_fault1" /dev/null >tty.txt 2>&1 ||
	fail "run on a tty: $(tail -n 3 tty.txt)"
grep -q '\[1/1\] page_fault1 process 1 tasks, run 1/1' tty.txt || fail "no progress line on a tty"
grep -q 'left' tty.txt || fail "progress line lacks the time left"
script -qec "$CGSCALE run -q -m process -w 0 -d 0.2 -i 0.1 -o tty2.json page_fault1" /dev/null >tty2.txt 2>&1
grep -q '\[1/1\]' tty2.txt && fail "progress line despite -q"

# --governor: set and restored where cpufreq exists; said and ignored where not
"$CGSCALE" run -q -m thread --governor performance -w 0 -d 0.2 -i 0.1 -o gov.json page_fault1 \
	>/dev/null 2>gov.txt || fail "--governor run failed: $(cat gov.txt)"
if [ -e /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor ]; then
	jq_check gov.json '.environment.governor.status | test("restored")' "governor restored"
else
	grep -q "no cpufreq driver" gov.txt || fail "--governor without cpufreq: no message"
	jq_check gov.json '.environment.governor.status | test("no cpufreq driver")' "governor status recorded"
fi

# make install honours PREFIX and DESTDIR
make -s -C "$REPO" install DESTDIR="$T/inst" PREFIX=/usr >/dev/null 2>&1 || fail "make install"
"$T/inst/usr/bin/cgscale" --version | grep -q '^cgscale ' || fail "installed binary"

"$CGSCALE" list | grep -q '^fallocate2 *fallocate call' || fail "list"
"$CGSCALE" run --help | grep -q -- '--placement' || fail "run --help"
"$CGSCALE" --help | grep -q 'run' || fail "--help"

# ASan+UBSan build: a short point in each mode, no sanitizer report
if [ -n "${CGSCALE_SAN:-}" ] && [ "$CGSCALE_SAN" != "$CGSCALE" ]; then
	"$CGSCALE_SAN" run -q -t 2 -w 0.1 -d 0.3 -i 0.1 -o san.json page_fault2 fallocate2 \
		>/dev/null 2>san.txt || fail "sanitizer build: $(tail -n 20 san.txt)"
	grep -q "Sanitizer" san.txt && fail "sanitizer report: $(head -n 20 san.txt)"
	jq_check san.json '[.points[] | .status == "ok"] | all' "sanitizer build points ok"
fi
exit 0
