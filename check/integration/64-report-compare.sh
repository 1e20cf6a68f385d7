#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cgscale compare --html: from two real small runs (an A/A comparison) and
# a copy of one made 25% slower at 2 tasks, a well-formed page that opens
# with the headline (per point the primary metric's change, CI and
# verdict, compare's own) beside the verdict counts, then the environment diff, a forest plot per metric and the sides
# per test and mode, every chart drawn; the exit status is compare's own;
# incomparable inputs still get a page that says why; names with markup
# and % stay text and draw; no gnuplot gives tables; an unwritable --html
# is bad input (exit 2) before anything is read; the sanitizer build is
# clean.
. "$(dirname "$0")/lib.sh"

command -v xmllint >/dev/null || skip "xmllint missing: apt-get install libxml2-utils"
command -v gnuplot >/dev/null || skip "gnuplot missing: apt-get install gnuplot-nox (make check installs it)"

wellformed() {
	xmllint --noout "$1" 2>xml.err || fail "$1 is not well-formed XML: $(head -n 5 xml.err)"
	grep -qi '<script' "$1" && fail "$1 has a script element"
	dups=$(grep -o ' id="[^"]*"' "$1" | sort | uniq -d | head -n 3)
	[ -z "$dups" ] || fail "$1: ids not unique: $dups"
}
count() { grep -o "$1" "$2" | wc -l; }

for s in a b; do
	"$CGSCALE" run -q -r 3 -t 1,2 -m process -w 0.1 -d 0.3 -i 0.1 -o $s.json page_fault3 \
		>/dev/null 2>run.err || fail "run $s: $(cat run.err)"
done

# A/A: the exit status is compare's, with or without --html
"$CGSCALE" compare a.json b.json >plain.txt 2>/dev/null
want=$?
"$CGSCALE" compare --html aa.html a.json b.json >aa.txt 2>aa.err
rc=$?
[ $rc -eq $want ] || fail "--html changed the exit status: $rc, not $want"
cmp -s plain.txt aa.txt || fail "--html changed the text output"
grep -q "HTML page in aa.html" aa.err || fail "page path not said: $(cat aa.err)"
wellformed aa.html
grep -q '&lt;th&gt;' aa.html && fail "markup printed as text: $(grep -o '.\{40\}&lt;th&gt;.\{40\}' aa.html | head -n 1)"
grep -q 'class="nochart"' aa.html && fail "a chart was not drawn: $(grep -o 'No chart[^<]*' aa.html | head -n 2)"
# 3 metrics with values at 2 tasks (per_task_ops, min_task_ops, scalability),
# one forest each, and one sides chart for page_fault3 process
[ "$(count '<svg class="chart"' aa.html)" -ge 4 ] || fail "fewer than 4 charts"
[ "$(count '<figure' aa.html)" -eq "$(count '<svg class="chart"' aa.html)" ] || fail "figures without charts"
for t in 'Verdicts, all points and metrics' 'Environment' 'kernel.release' \
	'per_task_ops (ops/s, higher is better): change of B against A' \
	'page_fault3, process, 2 tasks' 'of each side, a dot per run' 'runs for T'; do
	grep -qF "$t" aa.html || fail "the compare page lacks '$t'"
done
# its tables hold compare's numbers: the mean of A at 1 task, as compare
# computed it (of the clean runs: on a busy box it leaves disturbed ones
# out), and that mean is the file's own clean runs' mean
"$CGSCALE" compare -f json a.json b.json >aa.json 2>/dev/null
m=$(jq '.points[] | select(.tasks == 1) | .sides.A.metrics.per_task_ops.mean | floor' aa.json)
[ -n "$m" ] && [ "$m" != null ] || fail "compare's JSON has no mean of A at 1 task"
mf=$(jq '[.points[] | select(.tasks == 1 and .status == "ok" and (.disturbed | length) == 0)
	| .summary.per_task_ops_per_sec] | if length > 0 then add / length | floor else null end' a.json)
[ "$mf" = null ] || [ "$mf" = "$m" ] || fail "compare's mean of A at 1 task $m is not the file's clean runs' $mf"
grep -qE "<td class=\"n\">($m|$((m + 1))|$((m - 1)))</td>" aa.html || fail "A's mean $m at 1 task not in a table"

# a regression made by hand: B 25% slower at 2 tasks
jq '.points |= map(if .tasks == 2 then (.samples.ops |= map(map(. * 3 / 4 | floor))) else . end)' \
	b.json >slow.json
"$CGSCALE" compare -T 2 --html reg.html a.json slow.json >reg.txt 2>/dev/null
rc=$?
[ $rc -le 1 ] || fail "compare of a regression: exit $rc"
wellformed reg.html
# on a shared machine the noise may hide it: check the page says what
# compare decided, whichever verdict that is
"$CGSCALE" compare -T 2 -f json a.json slow.json >reg.json 2>/dev/null
for t in 1 2; do
	v=$(jq -r --argjson t $t '.points[] | select(.tasks == $t) | .comparisons[]
		| select(.metric == "per_task_ops") | .verdict' reg.json)
	[ -n "$v" ] || fail "no per_task_ops verdict at $t tasks in compare's JSON"
	c=$(jq -r --argjson t $t '.points[] | select(.tasks == $t) | .comparisons[]
		| select(.metric == "per_task_ops") | .change_pct * 10 | round / 10' reg.json)
	grep -qF "$t: $v " reg.html || fail "the verdict $v at $t tasks is not under its bars"
	cls=$(echo "$v" | tr 'A-Z' 'a-z')
	grep -qF "<td class=\"v-$cls\">$v</td>" reg.html || fail "verdict $v not marked in a table"
	# the headline, first on the page: per point the primary metric's
	# change, CI and verdict, compare's own
	hl() { xmllint --xpath "string(//*[@id='headline']//*[local-name()='tr'][*[local-name()='td'][1]='page_fault3, process, $t task$([ $t = 1 ] || echo s)']/*[local-name()='td'][$1])" reg.html; }
	want_c=$(jq -r --argjson t $t '.points[] | select(.tasks == $t) | .comparisons[]
		| select(.metric == "per_task_ops") | .change_pct' reg.json | awk '{ printf "%+.2f", $1 }')
	want_ci=$(jq -r --argjson t $t '.points[] | select(.tasks == $t) | .comparisons[]
		| select(.metric == "per_task_ops") | [.ci_low_pct, .ci_high_pct] | @tsv' reg.json |
		awk -F'\t' '$1 == "" { print "-"; next } { printf "[%+.2f, %+.2f]\n", $1, $2 }')
	[ "$(hl 4)" = "$want_c" ] || fail "headline at $t tasks: change '$(hl 4)', compare says $want_c"
	[ "$(hl 5)" = "$want_ci" ] || fail "headline at $t tasks: CI '$(hl 5)', compare says $want_ci"
	[ "$(hl 6)" = "$v" ] || fail "headline at $t tasks: verdict '$(hl 6)', compare says $v"
	echo "$t tasks: $v, $c %, CI $want_ci"
done
# the headline and the verdict counts come first, before the environment
# and the forest plots; the caption names the primary metric
hl_line=$(grep -n '<table id="headline">' reg.html | cut -d: -f1)
v_line=$(grep -n '<table id="verdicts">' reg.html | cut -d: -f1)
env_line=$(grep -n '<h2 id="env">' reg.html | cut -d: -f1)
[ -n "$hl_line" ] && [ -n "$v_line" ] && [ "$hl_line" -lt "$v_line" ] && [ "$v_line" -lt "$env_line" ] ||
	fail "headline ($hl_line), verdicts ($v_line), environment ($env_line) out of order"
grep -qF '<caption>per_task_ops (ops/s, higher is better), point by point: change against A, 95% CI</caption>' reg.html ||
	fail "the headline's caption does not name the primary metric"
[ "$(xmllint --xpath "count(//*[@id='headline']//*[local-name()='tr'])" reg.html)" = 3 ] ||
	fail "the headline has not one row per point (2) and its header"

# incomparable (no point in common): exit 3, and a page that says why
"$CGSCALE" run -q -t 1 -m thread -w 0.1 -d 0.2 -i 0.1 -o other.json fallocate2 >/dev/null 2>&1 ||
	fail "run other"
"$CGSCALE" compare --html inc.html a.json other.json >/dev/null 2>inc.err
[ $? -eq 3 ] || fail "incomparable inputs: exit not 3"
wellformed inc.html
grep -q 'These inputs cannot be compared' inc.html || fail "the page does not say why"

# names with markup, quotes and % on both sides: text, and still drawn
for s in a slow; do
	jq '.points |= map(.test = "pf<3>&\"q\" 50%s '"'"'x")' $s.json >h$s.json
done
"$CGSCALE" compare --html hostile.html ha.json hslow.json >/dev/null 2>h.err
[ $? -le 1 ] || fail "hostile names: $(cat h.err)"
wellformed hostile.html
grep -q 'class="nochart"' hostile.html && fail "hostile names: a chart not drawn: $(grep -o 'No chart[^<]*' hostile.html | head -n 1)"
grep -qF 'pf&lt;3&gt;&amp;&quot;q&quot; 50%s &#39;x' hostile.html || fail "hostile name not escaped"

# no gnuplot: tables, a note, the same exit status
PATH=/nonexistent "$CGSCALE" compare --html nogp.html a.json b.json >/dev/null 2>nogp.err
[ $? -eq $want ] || fail "without gnuplot: exit status changed"
grep -q gnuplot-nox nogp.err || fail "without gnuplot: the package is not named"
wellformed nogp.html
grep -q 'class="nochart"' nogp.html || fail "without gnuplot: no note in place of the charts"

# an unwritable --html: exit 2, said at once
"$CGSCALE" compare --html /nonexistent/dir/x.html a.json b.json >out.txt 2>err.txt
[ $? -eq 2 ] || fail "unwritable --html: exit not 2"
[ -s out.txt ] && fail "unwritable --html: compare ran anyway"
grep -q -- '--html' err.txt || fail "unwritable --html: the message does not name it"

if [ -n "${CGSCALE_SAN:-}" ] && [ "$CGSCALE_SAN" != "$CGSCALE" ]; then
	"$CGSCALE_SAN" compare --html san.html ha.json hslow.json >/dev/null 2>san.txt
	[ $? -le 1 ] || fail "sanitizer build: $(tail -n 20 san.txt)"
	grep -q "Sanitizer" san.txt && fail "sanitizer report: $(head -n 20 san.txt)"
	wellformed san.html
fi
exit 0
