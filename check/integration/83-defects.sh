#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The defects an adversarial test found, each refused or fixed: outputs
# checked before any work (run -o, report -o, compare --junit/--html), a
# failed write never reported as written, garbled or raw messages, and a
# reader that refuses what parses but makes no sense. Bad input: exit 2,
# nothing written, nothing printed on stdout.
. "$(dirname "$0")/lib.sh"
# every defect is checked, each failure counted: on a build that has them
# all, the output lists each one
nfail=0
fail() { echo "FAIL: $*" >&2; nfail=$((nfail + 1)); return 1; }

# bad2 WHAT CMD...: exit 2, one line on stderr, nothing on stdout
bad2() {
	what=$1
	shift
	"$CGSCALE" "$@" >out.txt 2>err.txt
	rc=$?
	[ $rc -eq 2 ] || { fail "$what: exit $rc, expected 2: $(head -c 300 err.txt)"; return 1; }
	[ -s out.txt ] && { fail "$what: printed on stdout before failing: $(head -n 3 out.txt)"; return 1; }
	[ "$(wc -l <err.txt)" -eq 1 ] || { fail "$what: $(wc -l <err.txt) lines: $(cat err.txt)"; return 1; }
	echo "ok: $what -> $(cat err.txt)"
}

"$CGSCALE" run -q -m process -t 1,2 -w 0 -d 0.3 -i 0.1 -o a.json page_fault1 >/dev/null 2>&1 || {
	fail "a short run"
	exit 1
}
start=$(date +%s)
long=$(printf 'a%.0s' $(seq 300))
bad2 "run -o ''" run -q -t 1 -d 5 -i 1 -o '' page_fault1
bad2 "run -o 300 characters" run -q -t 1 -d 5 -i 1 -o "$long.json" page_fault1
bad2 "run -o missing dir/" run -q -t 1 -d 5 -i 1 -o nodir/ page_fault1
[ $(($(date +%s) - start)) -lt 4 ] || fail "a bad -o ran the benchmark first"
[ -e "$long.json" ] || [ -e nodir ] && fail "a bad -o wrote something"
mkdir d
"$CGSCALE" run -q -m thread -t 1 -w 0 -d 0.2 -i 0.1 -o d/ page_fault1 >/dev/null 2>e.txt || fail "-o d/"
grep -q '//' e.txt && fail "double slash in the path printed: $(cat e.txt)"

bad2 "report -o ''" report --no-charts -o '' a.json
bad2 "report -o missing dir" report --no-charts -o nodir/r.html a.json
bad2 "report -o long name" report --no-charts -o "$long.html" a.json
bad2 "compare --junit ''" compare --junit '' a.json a.json
bad2 "compare --junit missing dir" compare --junit nodir/j.xml a.json a.json
bad2 "compare --html ''" compare --html '' a.json a.json
bad2 "compare --metrics ''" compare --metrics '' a.json a.json
bad2 "compare --metrics ','" compare --metrics , a.json a.json
bad2 "--cgroup-parent //" run -q --cgroup-parent // page_fault1
grep -q -- '--cgroup-parent.*--cgroup-parent' err.txt && fail "garbled --cgroup-parent message"
bad2 "control characters" run -q -t "$(printf '1\033[31m')" -d 0.2 -i 0.1 page_fault1
grep -q "$(printf '\033')" err.txt && fail "a raw escape character in the message"
grep -q 'x1b' err.txt || fail "the escape character not shown: $(cat err.txt)"
bad2 "control characters in a file name" show "$(printf 'a\nb\033[31m.json')"
grep -q 'a\\nb\\x1b' err.txt || fail "show: the name not escaped: $(cat err.txt)"
bad2 "control characters in compare" compare --metrics "$(printf 'x\ty')" a.json a.json

# report of a result without points (interrupted in its first point)
jq '.points = [] | .complete = false' a.json >empty.json
bad2 "report with no points" report --no-charts -o e.html empty.json &&
grep -q "no points" err.txt || fail "report with no points: $(cat err.txt)"
[ -e e.html ] && fail "report with no points wrote a page"

# the reader: not a result, or values that make no sense
printf 'null' >null.json
bad2 "null" show null.json
grep -q "not a cgscale result" err.txt || fail "null: $(cat err.txt)"
printf '42' >n42.json
bad2 "42" show n42.json
grep -q "not a cgscale result" err.txt || fail "42: $(cat err.txt)"
refuse() {
	jq "$1" a.json >m.json || fail "jq $1"
	bad2 "reader: $1" show m.json &&
	grep -q "$2" err.txt || fail "reader: $1: message lacks '$2': $(cat err.txt)"
}
refuse '.points[0].tasks = -1' "'tasks' is -1"
refuse '.points[0].mode = "sideways"' "not process or thread"
refuse '.points[1].tasks = 3' "tasks_detail lists 2"
refuse '.points[0].samples.t_ns[1] = -5' "negative"
refuse '.points[0].samples.t_ns[2] = .points[0].samples.t_ns[1]' "does not increase"
sed 's/"ops":\([0-9]*\),"minflt"/"ops":18446744073709551000,"minflt"/' a.json >m.json
bad2 "reader: count beyond 2^63" show m.json
grep -q "beyond 2^63" err.txt || fail "count beyond 2^63: $(cat err.txt)"

# export: a corrupt file prints nothing, not a header then an error
head -c 300 a.json >cut.json
bad2 "export with a corrupt file" export --tsv a.json cut.json
# export --tsv: a tab or newline inside a string never splits a row
jq '.points[0].test = "page\tfault\n1"' a.json >"$(printf 'tab\tfile.json')"
"$CGSCALE" export --tsv "$(printf 'tab\tfile.json')" >tab.tsv 2>e.txt || fail "export: $(cat e.txt)"
awk -F'\t' 'NR == 1 { n = NF } NF != n { bad = 1 } END { exit bad }' tab.tsv || fail "export: a row with a split field"
grep -q 'page\\tfault\\n1' tab.tsv || fail "export: the tab and newline not escaped"
[ $nfail -eq 0 ] || { echo "$nfail defect check(s) failed" >&2; exit 1; }
exit 0
