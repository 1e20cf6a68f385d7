#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cgscale report: from a real small run (2 tests, 2 modes, 1 and 2 tasks,
# 2 runs) a well-formed XHTML page (xmllint) with one inline SVG per figure,
# no script and no outside reference; the answer first (summary before the
# contents and the folded environment, a long kernel command line folded,
# harness internals folded, peak memory in MiB with the bytes in a tooltip);
# a disturbed run said in the summary's notes, a warning and its section,
# an unmarked file marked by the same rules; without gnuplot or with a failing
# one, the tables and a note; hostile strings in a result file (markup,
# quotes, control bytes, invalid UTF-8, a gnuplot command after a newline)
# stay text; extra sections (perf, cgroup) are shown; bad input exits 2
# and writes nothing; the sanitizer build is clean.
. "$(dirname "$0")/lib.sh"

command -v xmllint >/dev/null || skip "xmllint missing: apt-get install libxml2-utils"
command -v gnuplot >/dev/null || skip "gnuplot missing: apt-get install gnuplot-nox (make check installs it)"

# wellformed FILE: parses as XML, no script, no URL but XML namespaces
wellformed() {
	xmllint --noout "$1" 2>xml.err || fail "$1 is not well-formed XML: $(head -n 5 xml.err)"
	grep -qi '<script' "$1" && fail "$1 has a script element"
	urls=$(grep -o 'https\?://[^"'"'"' <]*' "$1" | sort -u |
		grep -v -x -e 'http://www.w3.org/2000/svg' -e 'http://www.w3.org/1999/xlink' \
			-e 'http://www.w3.org/1999/xhtml')
	[ -z "$urls" ] || fail "$1 refers outside itself: $urls"
}
count() { grep -o "$1" "$2" | wc -l; }

"$CGSCALE" run -q -t 1,2 -r 2 -w 0.2 -d 0.4 -i 0.1 -o r.json page_fault1 fallocate2 \
	>/dev/null 2>run.err || fail "run: $(cat run.err)"

# the page, with charts
"$CGSCALE" report -o rep.html r.json 2>rep.err || fail "report exit $?: $(cat rep.err)"
grep -q "report in rep.html" rep.err || fail "report path not printed: $(cat rep.err)"
wellformed rep.html
figs=$(count '<figure' rep.html)
svgs=$(count '<svg class="chart"' rep.html)
# 2 tests x (1 curve + 2 modes x 2 task counts x 2 charts) = 18
[ "$figs" -eq 18 ] || fail "expected 18 figures, got $figs"
[ "$svgs" -eq "$figs" ] || fail "$figs figures but $svgs charts drawn"
grep -q 'class="nochart"' rep.html && fail "a chart was not drawn: $(grep -o 'No chart[^<]*' rep.html | head -n 3)"
dups=$(grep -o ' id="[^"]*"' rep.html | sort | uniq -d | head -n 3)
[ -z "$dups" ] || fail "ids not unique: $dups"
grep -q '<?xml' rep.html && fail "an XML prolog inside the page"
for t in 'page_fault1: total ops/s against tasks' 'fallocate2, thread, 2 tasks: ops/s of each task' \
	'page_fault1, process, 1 task: total ops/s over time' 'process linear' 'Dotted: linear scaling from 1 task' \
	'warm-up' 'THP enabled' 'tmpfs' 'Anonymous memory page fault; one op = one page touched' \
	'run 2' '>tasks<' 'total ops/s (all tasks)'; do
	grep -qF "$t" rep.html || fail "the page lacks '$t'"
done
# the summary has the run table's columns; rcov % is the CoV of total
# ops/s across the runs (sample stddev), as `cgscale run` prints it
for h in 'min task' 'max task' 'icov %' 'rcov %' 'idle %' 'steal %'; do
	grep -qF "<th>$h</th>" rep.html || fail "the summary lacks the column '$h'"
done
row=$(grep -o '<tr[^>]*><td><a href="#p[0-9]*">page_fault1</a></td><td>process</td><td class="n">2</td>.*' rep.html |
	sed 's/<[^>]*>/|/g; s/||*/|/g')
cell() { printf '%s\n' "$row" | awk -F'|' -v i="$1" '{ print $(i + 1) }'; }
rcov=$(jq '[.points[] | select(.test=="page_fault1" and .mode=="process" and .tasks==2)
	| .summary.total_ops_per_sec] | (add / length) as $m
	| ((map(. - $m | . * .) | add / (length - 1)) | sqrt) / $m * 100' r.json)
awk -v a="$(cell 10)" -v b="$rcov" 'BEGIN { exit !(a - b < 0.051 && b - a < 0.051) }' ||
	fail "summary rcov % is $(cell 10), the runs' CoV is $rcov (row: $row)"
mn=$(jq '[.points[] | select(.test=="page_fault1" and .mode=="process" and .tasks==2)
	| .summary.min_task_ops_per_sec] | min | round' r.json)
[ "$(cell 7)" = "$mn" ] || fail "summary min task $(cell 7), the slowest task of any run is $mn"
# the answer first: the summary table comes before the contents and the
# environment, which is folded (the first screen is checked in a browser
# by 65-report-browser.sh); the title's line names host, kernel and CPUs
order=$(grep -o -e '<table id="summary-table">' -e '<nav>' -e '<h2 id="env">' rep.html | tr -d '\n')
[ "$order" = '<table id="summary-table"><nav><h2 id="env">' ] || fail "the page's order: $order"
grep -q '<h2 id="env">Environment</h2>' rep.html && grep -A1 '<h2 id="env">' rep.html | grep -q '^<details><summary>' ||
	fail "the environment is not folded"
host=$(jq -r .machine.hostname r.json)
kern=$(jq -r .kernel.release r.json)
grep -qF "host $host, kernel $kern, $(jq -r .machine.online_cpus r.json) online CPUs" rep.html ||
	fail "the title's line does not name host, kernel and CPUs"
# harness internals folded, also in the first run of a point
if jq -e '.points[0].harness' r.json >/dev/null; then
	grep -q '<details><summary>harness internals' rep.html || fail "no harness section"
	grep -q '<details open="open"><summary>harness' rep.html && fail "harness internals unfolded"
fi
# peak memory for people (257 MiB), the bytes in the tooltip
peak=$(jq '[.points[].cgroup.events[]?.peak_bytes | numbers][0] // empty' r.json)
if [ -n "$peak" ]; then
	human=$(awk -v b="$peak" 'BEGIN { split("B KiB MiB GiB TiB", u, " "); i = 1
		while (b >= 1000 && i < 5) { b /= 1024; i++ }
		printf (i > 1 && b < 9.95 ? "%.1f %s" : "%.0f %s"), b, u[i] }')
	grep -qF "<th>peak memory</th>" rep.html || fail "no peak memory column"
	grep -qF "title=\"$peak bytes\">$human</td>" rep.html || fail "peak $peak not shown as $human with the bytes in its title"
	grep -qF ">$peak<" rep.html && fail "peak memory shown in raw bytes"
	echo "peak memory $peak bytes shown as $human"
fi
# a long kernel command line is folded to its start, whole on demand
long=$(awk 'BEGIN { for (i = 0; i < 40; i++) printf "option%d=value%d ", i, i }')
jq --arg c "$long" '.kernel.cmdline = $c' r.json >long.json
"$CGSCALE" report -o long.html long.json 2>/dev/null || fail "report of a long command line"
wellformed long.html
grep -qF '<td class="mono"><details class="long"><summary>option0=value0 ' long.html ||
	fail "a long kernel command line is not folded"
grep -qF "($(printf %s "$long" | wc -c) characters: show all)</summary>$long</details>" long.html ||
	fail "the whole command line is not behind its fold"

# a disturbed run, as the runner marks it: the summary's notes say so in
# the words of cgscale run's table, the row is marked, a warning counts
# it, its section says why; show counts the same run. Other notes may
# follow (a task that did no op on a busy machine), so only the start is fixed
jq '.points |= map(.disturbed = [])
  | (.points[] | select(.test == "page_fault1" and .mode == "process" and .tasks == 2 and .run == 1)
     | .disturbed) = ["steal 5.0% (above 1%)"]' r.json >dist.json
"$CGSCALE" report -o dist.html dist.json 2>/dev/null || fail "report of a disturbed run"
wellformed dist.html
row=$(grep -o '<tr class="disturbed"><td><a href="#p[0-9]*">page_fault1</a></td><td>process</td><td class="n">2</td>.*' dist.html)
[ -n "$row" ] || fail "the disturbed point's row is not marked"
printf '%s' "$row" | grep -qF '<td>1 of 2 runs disturbed (compare leaves them out), e.g. steal 5.0% (above 1%)' ||
	fail "the summary's notes do not say the run was disturbed: $row"
[ "$(count 'class="disturbed"' dist.html)" -eq 1 ] || fail "more rows marked disturbed than one"
grep -qF '<p class="warn">1 run was disturbed' dist.html || fail "no warning of the disturbed run"
grep -qF '<p class="warn">run 2 disturbed (compare leaves it out): steal 5.0% (above 1%)</p>' dist.html ||
	fail "the disturbed run's section does not say why"
"$CGSCALE" show dist.json >show.txt 2>&1 || fail "show of the disturbed file"
[ "$(grep -c '1 disturbed' show.txt)" -eq 1 ] || fail "show does not count the one disturbed run: $(cat show.txt)"
# a file no runner marked (an older one) is marked by the same rules as
# compare marks it: the same summary as the file the runner marked
jq '.points |= map(del(.disturbed))' r.json >unmarked.json
"$CGSCALE" report -o unmarked.html unmarked.json 2>/dev/null || fail "report of an unmarked file"
sed -n '/<table id="summary-table">/,/<\/table>/p' rep.html >sum1.txt
sed -n '/<table id="summary-table">/,/<\/table>/p' unmarked.html >sum2.txt
[ -s sum1.txt ] && cmp -s sum1.txt sum2.txt || fail "an unmarked file's summary differs: $(diff sum1.txt sum2.txt | head -n 5)"

# the table behind the curve has every point's mean total ops/s
for m in process thread; do
	v=$(jq -r --arg m "$m" '[.points[] | select(.test=="page_fault1" and .mode==$m and .tasks==2)
		| .summary.total_ops_per_sec] | add / length | floor' r.json)
	grep -qE "<td class=\"n\">($v|$((v + 1)))</td>" rep.html ||
		fail "mean total ops/s $v of page_fault1 $m 2 not in a table"
done

# a real run with perf counters (software events count on any kernel):
# page_fault1's page-faults per op is 1, as SCHEMA.md says of minflt
if "$CGSCALE" run -q -m process -e default -w 0.2 -d 0.4 -i 0.2 -o perf.json page_fault1 \
	>/dev/null 2>perf.err && jq -e '.points[0].perf.totals["page-faults"]' perf.json >/dev/null; then
	"$CGSCALE" report -o perf.html perf.json 2>/dev/null || fail "report of a perf run"
	wellformed perf.html
	td() { xmllint --xpath "string(//*[local-name()='tr'][*[local-name()='td'][1]='$1']/*[local-name()='td'][$2])" perf.html; }
	per_op=$(td page-faults 4)
	awk -v v="$per_op" 'BEGIN { exit !(v > 0.9 && v < 1.1) }' ||
		fail "page-faults per op of page_fault1 is '$per_op', not 1"
	[ "$(td page-faults 2)" = "user+kernel" ] || [ "$(td page-faults 2)" = "user" ] ||
		fail "page-faults: counting mode missing"
else
	echo "note: no perf counters here ($(head -n 1 perf.err)); perf table checked on synthetic data only"
fi

# -o DIR, -o -, several files and a directory of them
mkdir out d d/sub
"$CGSCALE" report -o out r.json 2>/dev/null || fail "-o DIR"
[ -s out/report.html ] || fail "-o DIR: no out/report.html"
"$CGSCALE" report -o - r.json >stdout.html 2>/dev/null || fail "-o -"
wellformed stdout.html
cp r.json d/a.json
cp r.json d/sub/b.json
echo 'not a result' >d/notes.txt
"$CGSCALE" report -o dir.html d 2>dir.err || fail "directory: $(cat dir.err)"
grep -q '<th>file 2</th>' dir.html || fail "two files: no column per file"
grep -qF 'd/sub/b.json' dir.html || fail "directory not searched recursively"
grep -qF "file 2 run 2" dir.html || fail "runs of two files: no label file 2 run 2"
[ "$(count '<svg class="chart"' dir.html)" -eq 18 ] || fail "pooled runs: not 18 charts"

# no gnuplot: tables and a note naming the package, exit 0
"$CGSCALE" report --gnuplot /nonexistent/gnuplot -o nogp.html r.json 2>nogp.err ||
	fail "without gnuplot: exit $?"
grep -q "gnuplot-nox" nogp.err || fail "without gnuplot: stderr does not name the package"
wellformed nogp.html
grep -q 'apt-get install gnuplot-nox' nogp.html || fail "without gnuplot: the page does not say what to install"
[ "$(count '<details open="open"><summary>table' nogp.html)" -eq 18 ] || fail "without gnuplot: the tables are not unfolded"
grep -q '<details open="open"><summary>table' rep.html && fail "with charts: a table unfolded"
[ "$(count 'class="nochart"' nogp.html)" -eq 18 ] || fail "without gnuplot: not 18 notes"
[ "$(count '<table' nogp.html)" -ge 20 ] || fail "without gnuplot: tables missing"
PATH=/nonexistent "$CGSCALE" report -o nogp2.html r.json 2>/dev/null || fail "gnuplot not in PATH: exit $?"
grep -q 'gnuplot-nox' nogp2.html || fail "gnuplot not in PATH: no note"
"$CGSCALE" report --no-charts -o nc.html r.json 2>/dev/null || fail "--no-charts"
grep -q -- '--no-charts' nc.html || fail "--no-charts: not said"

# a gnuplot that fails: the page is written, with what it said; exit 1
printf '#!/bin/sh\necho "fake gnuplot: cannot draw" >&2\nexit 1\n' >fakegp
chmod +x fakegp
"$CGSCALE" report --gnuplot ./fakegp -o fake.html r.json 2>fake.err
[ $? -eq 1 ] || fail "failing gnuplot: exit status not 1"
wellformed fake.html
grep -q 'fake gnuplot: cannot draw' fake.html || fail "failing gnuplot: its message is not in the page"

# hostile strings everywhere a result file has one
jq '.kernel.release = "6.1<script>alert(1)</script> & \"q\" '"'"'s'"'"'"
  | .kernel.cmdline = "a\u0001b\u001b[31m \u00e9\u65e5 ]]> end"
  | .machine.cpu_model = "CPU\u007f\u0085"
  | .points |= map(.test = "pf<i>&\"'"'"'x'"'"'\nsystem(\"touch PWNED\")\n]]>")
  | .points[0].status = "failed" | .points[0].reason = "<b>died</b>\u0007 of SIGSEGV"
  | .points[1].perf = {"events": [{"name": "cycles<u>", "pfm": "x"}],
      "totals": {"cycles<u>": {"count": 1e9, "per_op": 2.5}, "instructions": {"count": 2e9}},
      "metrics": {"ipc": 2.0}, "note": "user-only & <counting>"}
  | .points[1].cgroup = {"layout": "cgscale.slice/a<b>/leaf", "memory.max": "max",
      "flagged": true, "flags": ["oom_kill +1 in /sys/fs/cgroup/x<y>"],
      "knobs": [{"level": 1, "knob": "memory.high", "value": "1G&", "read_back": "1073741824"}]}' \
	r.json >bad.json || fail "jq could not make the hostile file"
"$CGSCALE" report -o bad.html bad.json 2>bad.err || fail "hostile strings: exit $?: $(cat bad.err)"
wellformed bad.html
[ -e PWNED ] && fail "a test name ran a gnuplot command"
grep -qF '6.1&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot; &#39;s&#39;' bad.html ||
	fail "kernel release not escaped as expected"
grep -qF "a$(printf '\357\277\275')b" bad.html || fail "control byte not replaced by U+FFFD"
grep -qF 'é日 ]]&gt; end' bad.html || fail "non-ASCII or ]]> not kept as text"
grep -qF '&lt;b&gt;died&lt;/b&gt;' bad.html || fail "failure reason not escaped"
grep -qF 'perf counters, run 1' bad.html || fail "perf section not shown"
grep -qF 'cycles&lt;u&gt;' bad.html || fail "perf event name not escaped"
grep -qF 'Derived metrics' bad.html || fail "perf metrics not shown"
grep -qF 'instructions per cycle' bad.html || fail "perf metric not explained"
grep -qF 'user-only &amp; &lt;counting&gt;' bad.html || fail "perf note not shown, or not escaped"
grep -qF 'cgscale.slice/a&lt;b&gt;/leaf' bad.html || fail "cgroup layout not in the page"
grep -qF 'do not average it in.<br/>oom_kill +1 in /sys/fs/cgroup/x&lt;y&gt;' bad.html ||
	fail "an OOM-killed point is not flagged"
grep -qF '<td>memory.high</td><td>1G&amp;</td>' bad.html || fail "cgroup knobs not shown"
# a real run records its cgroup tree where cgroups can be made here
if jq -e '.points[0].cgroup.hierarchies' r.json >/dev/null 2>&1; then
	grep -qF '<caption>The tree</caption>' rep.html || fail "the real cgroup tree is not shown"
	grep -qF 'memory.stat, summed over' rep.html || fail "memory.stat not shown"
fi
# both tests got the same name, so they pool: 1 curve + 2 x 2 x 2 charts
[ "$(count '<svg class="chart"' bad.html)" -eq 9 ] || fail "hostile names: not 9 charts drawn"
grep -q 'class="nochart"' bad.html && fail "hostile names: a chart not drawn"
printf '{"x":"\377"}' >raw.json
"$CGSCALE" report -o raw.html raw.json 2>/dev/null
[ $? -eq 2 ] || fail "a JSON file that is not a result: exit status not 2"

# bad input: exit 2, one line, nothing written
for args in "nonexistent.json" "run.err" "emptydir" "-o /nonexistent/dir/x.html r.json" "--bogus r.json" ""; do
	mkdir -p emptydir
	# shellcheck disable=SC2086
	"$CGSCALE" report -o bad-out.html $args >/dev/null 2>err.txt
	rc=$?
	[ $rc -eq 2 ] || fail "report $args: exit $rc, not 2"
	[ "$(wc -l <err.txt)" -eq 1 ] || fail "report $args: not one line: $(cat err.txt)"
	[ -e bad-out.html ] && fail "report $args: wrote a page"
done
left=$(find . -name '.*.html.*')
[ -z "$left" ] || fail "temporary files left: $left"

# the sanitizer build, on the hostile file, with and without gnuplot
if [ -n "${CGSCALE_SAN:-}" ] && [ "$CGSCALE_SAN" != "$CGSCALE" ]; then
	"$CGSCALE_SAN" report -o san.html bad.json r.json 2>san.txt || fail "sanitizer build: $(tail -n 20 san.txt)"
	"$CGSCALE_SAN" report --gnuplot /nonexistent -o san2.html bad.json 2>>san.txt ||
		fail "sanitizer build without gnuplot: $(tail -n 20 san.txt)"
	grep -q "Sanitizer" san.txt && fail "sanitizer report: $(head -n 20 san.txt)"
	wellformed san.html
fi

# aux counters get their own scalability chart (remap's bogo-ops/s, the
# figure LKP reports for it); one task count draws points, no linear line
"$CGSCALE" run -q -t 1,2 -m process -w 0.1 -d 0.3 -i 0.1 -o aux.json remap >/dev/null 2>run.err ||
	fail "remap run: $(cat run.err)"
"$CGSCALE" report -o aux.html aux.json 2>rep.err || fail "report of remap exit $?"
wellformed aux.html
grep -qF 'remap: bogo-ops/s (passes) against tasks' aux.html || fail "no aux chart for remap"
[ "$(count '<svg class="chart"' aux.html)" -eq "$(count '<figure' aux.html)" ] || fail "an aux chart not drawn"
"$CGSCALE" run -q -t 2 -m process -w 0.1 -d 0.3 -i 0.1 -o one.json page_fault1 >/dev/null 2>&1 ||
	fail "one task count run"
"$CGSCALE" report -o one.html one.json 2>rep.err || fail "report of one task count exit $?"
grep -qF 'No linear line' one.html || fail "one task count: a linear line"
grep -qF 'process linear' one.html && fail "one task count: a linear series"
exit 0
