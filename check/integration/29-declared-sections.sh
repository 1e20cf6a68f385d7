#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 29-declared-sections.sh - an observer's section declared as data
# (results/model/sections.h) reaches compare and the report with no line
# of its own in results/:
#   - the psi observer (--psi) writes its declaration into the result's
#     "sections" and its figures into each point; on a kernel without
#     /proc/pressure/memory, --psi is refused with the reason (exit 2);
#   - a section that this cgscale has never heard of (a newer observer's,
#     planted in two files with jq) is judged by compare (its declared
#     direction: a rise of a lower-is-better cost is a REGRESSION), named
#     in the LKP stats, and drawn by the report as its declared view;
#   - a declaration that is bad input (a path outside its section, a
#     name with markup) is not taken, and compare says so in a note.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "no jq"

# psi: what this box can give
if head -n 1 /proc/pressure/memory 2>/dev/null | grep -q '^some .*total='; then
	"$CGSCALE" run -q -t 1 -r 2 -w 0 -d 0.3 -i 0.1 --psi -o psi.json page_fault1 >/dev/null 2>err.txt ||
		fail "run --psi: $(cat err.txt)"
	jq -e '.sections.psi.metrics | map(.name) == ["psi.some_ns_per_op", "psi.full_ns_per_op"]' psi.json >/dev/null ||
		fail "the result declares no psi section: $(jq -c .sections psi.json)"
	jq -e '[.points[] | select(.status == "ok") | .psi.some.stall_us >= 0 and (.psi.some.pct | type) == "number"
		and .psi.source == "/proc/pressure/memory, system-wide"] | length > 0 and all' psi.json >/dev/null ||
		fail "the points lack the psi section: $(jq -c '.points[0].psi' psi.json)"
	echo "ok: --psi recorded /proc/pressure/memory (some $(jq '.points[0].psi.some.stall_us' psi.json) us)"
else
	"$CGSCALE" run -q -t 1 -d 0.3 --psi -o psi.json page_fault1 >out.txt 2>err.txt; rc=$?
	[ $rc = 2 ] && grep -q "^cgscale: --psi: cannot read /proc/pressure/memory" err.txt ||
		fail "--psi without PSI: exit $rc, $(cat err.txt)"
	[ ! -e psi.json ] || fail "--psi refused, yet a result was written"
	echo "ok: no /proc/pressure/memory here: --psi refused with the reason"
fi

# a section this cgscale does not know, in two files: B costs 50% more
"$CGSCALE" run -q -t 1 -m process -r 4 -w 0 -d 0.2 -i 0.1 -o base.json page_fault1 >/dev/null 2>err.txt ||
	fail "run: $(cat err.txt)"
decl='{"zzz": {"title": "a newer observer", "metrics": [{"name": "zzz.cost_ns_per_op",
	"unit": "ns/op", "desc": "what zzz costs an op", "better": "lower", "class": "secondary",
	"path": "zzz.cost"}], "view": [{"label": "zzz cost", "path": "zzz.cost", "unit": "ns/op"}]}}'
for s in a:100 b:150; do
	jq --argjson d "$decl" --argjson c "${s#*:}" '.sections = $d
		| .points |= (to_entries | map(.value.zzz = {"cost": ($c + .key)} | .value.disturbed = [])
		| map(.value))' base.json >"${s%:*}.json"
done
"$CGSCALE" compare --metrics zzz.cost_ns_per_op a.json b.json >cmp.txt 2>&1; rc=$?
[ $rc = 1 ] || fail "compare of the declared metric: exit $rc, not 1: $(grep -i zzz cmp.txt | head -n 5)"
grep -q 'zzz.cost_ns_per_op.*REGRESSION' cmp.txt || fail "no REGRESSION row for zzz.cost_ns_per_op: $(grep -i zzz cmp.txt)"
"$CGSCALE" compare --metrics zzz.cost_ns_per_op b.json a.json >/dev/null 2>&1; rc=$?
[ $rc = 0 ] || fail "a declared cost that fell: exit $rc, not 0"
"$CGSCALE" export -f lkp-stats --keep-disturbed b.json | grep -q '^zzz.cost_ns_per_op: 15[01]' ||
	fail "the LKP stats lack the declared metric: $("$CGSCALE" export -f lkp-stats b.json | grep zzz)"
"$CGSCALE" report -o r.html b.json >/dev/null 2>err.txt || fail "report: $(cat err.txt)"
grep -q '<summary>a newer observer, ' r.html && grep -q '<td>zzz cost</td>' r.html ||
	fail "the report does not draw the declared view: $(grep -o 'zzz[^<]*' r.html | head -n 3)"

# bad declarations are not taken, and said
bad='{"zzz": {"title": "t", "metrics": [{"name": "zzz.x", "unit": "u", "desc": "d", "better": "lower",
	"class": "secondary", "path": "summary.per_task_ops_per_sec"}, {"name": "zzz.<b>", "unit": "u",
	"desc": "d", "better": "lower", "class": "secondary", "path": "zzz.cost"}]}}'
jq --argjson d "$bad" '.sections = $d' a.json >bad.json
"$CGSCALE" compare bad.json b.json >bad.txt 2>&1
grep -q "2 metrics that the files' sections declare not compared: section zzz: path summary.per_task_ops_per_sec: outside section zzz" bad.txt ||
	fail "no note on the refused declarations: $(grep -i 'declare' bad.txt)"
grep -q 'zzz\.x\|zzz\.<b>' bad.txt && fail "a refused metric was compared: $(grep 'zzz\.' bad.txt | head -n 3)"
echo "PASS: a declared section is judged by compare, named in the LKP stats and drawn by the report; bad declarations are refused"
