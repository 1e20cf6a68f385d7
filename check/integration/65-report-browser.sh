#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The report in a real browser: headless Chromium (Debian's chromium)
# renders the page of a real small run and of a comparison of two, and
# the page without gnuplot, driven over the DevTools protocol
# on a pipe by check/browser-check.py; no console error, no exception, no
# request but the page itself, no script but the flame graphs' one inline
# script (search and click-to-zoom, both tried), every chart laid out with a
# non-zero size and drawn content, every <use> reference resolved, ids
# unique; the same for the page without gnuplot, and for the pages of
# profiled runs (a flame graph per point, a differential one per point
# compared, each a chart with its frames drawn). At a 1400x900 viewport the
# answer is in the first screen: the top of the summary table (also of a
# busy page with three warnings), of compare's headline and verdict
# counts; the environment and harness internals are folded; flame graphs
# are as wide as the page with labels of 12 px or more. A full-page and a
# first-screen screenshot are taken; set CGSCALE_SHOTS=DIR to keep them. Chromium (about 120 MB) is
# installed here, as root, when missing; where it cannot be, the test
# skips and says so loudly.
. "$(dirname "$0")/lib.sh"

if ! command -v chromium >/dev/null || ! command -v python3 >/dev/null; then
	if [ "$(id -u)" = 0 ]; then
		echo "installing chromium for the browser test (about 120 MB)..."
		"$REPO/scripts/deps.sh" browser >deps.log 2>&1 || true
	fi
	if ! command -v chromium >/dev/null || ! command -v python3 >/dev/null; then
		echo "**********************************************************************"
		echo "* THE BROWSER TEST DID NOT RUN: chromium or python3 is missing and   *"
		echo "* could not be installed (need root and apt). Install them with:     *"
		echo "*     apt-get install chromium python3                               *"
		echo "**********************************************************************"
		skip "BROWSER TEST NOT RUN: no chromium/python3 (apt-get install chromium python3)"
	fi
fi
command -v gnuplot >/dev/null || skip "gnuplot missing: apt-get install gnuplot-nox (make check installs it)"
command -v jq >/dev/null || skip "jq missing"

"$CGSCALE" run -q -t 1,2 -r 2 -w 0.2 -d 0.4 -i 0.1 -o r.json page_fault2 \
	>/dev/null 2>run.err || fail "run: $(cat run.err)"
"$CGSCALE" run -q -t 1,2 -r 2 -w 0.2 -d 0.4 -i 0.1 -o r2.json page_fault2 \
	>/dev/null 2>run.err || fail "second run: $(cat run.err)"
"$CGSCALE" report -o rep.html r.json 2>/dev/null || fail "report"
# --keep-disturbed: this checks the page, not the disturbance filter, which
# on a busy shared box may leave out every run of a point (fewer figures)
"$CGSCALE" compare --keep-disturbed --html cmp.html r.json r2.json >/dev/null 2>cmp.err
rc=$?
[ $rc -le 1 ] || fail "compare --html: exit $rc: $(cat cmp.err)"
[ -s cmp.html ] || fail "compare --html wrote nothing: $(cat cmp.err)"
"$CGSCALE" report --gnuplot /nonexistent -o nogp.html r.json 2>/dev/null || fail "report without gnuplot"

# profiled runs: a flame graph per point, a differential one per compared point
"$CGSCALE" run -q -t 1 -m process -r 2 -w 0.2 -d 0.5 -i 0.1 --profile -o p1.json page_fault2 \
	>/dev/null 2>run.err || fail "profiled run: $(cat run.err)"
"$CGSCALE" run -q -t 1 -m process -r 2 -w 0.2 -d 0.5 -i 0.1 --profile -o p2.json page_fault2 \
	>/dev/null 2>run.err || fail "second profiled run: $(cat run.err)"
"$CGSCALE" report -o prof.html p1.json 2>/dev/null || fail "report of a profiled run"
"$CGSCALE" compare --keep-disturbed --html pcmp.html p1.json p2.json >/dev/null 2>cmp.err
[ $? -le 1 ] || fail "compare --html of profiled runs: $(cat cmp.err)"
[ "$(grep -c '<svg xmlns="http://www.w3.org/2000/svg" class="chart flame"' prof.html)" -eq 1 ] ||
	fail "no flame graph in the report of a profiled run"
[ "$(grep -c 'class="chart flame"' pcmp.html)" -eq 1 ] || fail "no differential flame graph in compare --html"
grep -q '<title>exc_page_fault ([0-9]* samples, [0-9.]*%)</title>' prof.html ||
	fail "no hover title with samples and % on the exc_page_fault frame"
grep -q '<title>exc_page_fault ([0-9]* samples, [0-9.]*%, [0-9.]* ns/op; base [0-9.]* ns/op, [-+][0-9.]* +-[0-9.]* ns/op\(, within the sampling error\)\?)</title>' pcmp.html ||
	fail "no base and change in ns/op in the differential frame titles"
grep -q 'Profiles: why it changed' pcmp.html || fail "no profile section in compare --html"

# a busy page: two files from different kernels, a failed point and a
# disturbed run (three warnings above the summary), a long command line
jq '.kernel.release = "6.99-other" | .points[0].status = "failed"
  | .points[0].reason = "synthetic failure" | .points |= map(.disturbed = [])
  | .points[1].disturbed = ["steal 5.0% (above 1%)"]
  | .kernel.cmdline = ([range(60)] | map("opt\(.)=val\(.)") | join(" "))' r2.json >busy.json
"$CGSCALE" report -o busy.html r.json busy.json 2>/dev/null || fail "report of the busy files"
[ "$(grep -c '<p class="warn">' busy.html)" -ge 3 ] || fail "the busy page has fewer than 3 warnings"

# check PAGE SHOT FIGURES CHARTS: render and judge
check() {
	timeout 120 python3 "$REPO/check/browser-check.py" "$1" "$2" "first-$2" >"$1.json" 2>"$1.err" ||
		fail "chromium could not render $1: $(tail -n 5 "$1.err")"
	res="$1.json"
	jq_check "$res" '.errors == []' "$1: console errors or exceptions: $(jq -c .errors "$res")"
	jq_check "$res" '.requests == []' "$1: requests outside the page: $(jq -c .requests "$res")"
	# a script only where there are flame graphs: one, inline
	jq_check "$res" '(.flames | length) == 0 and .scripts == 0 or (.flames | length) > 0 and .scripts == 1 and .flame_ui.inline_scripts == 1' \
		"$1: scripts other than the flame graphs' one inline script: $(jq -c '[.scripts, .flame_ui]' "$res")"
	jq_check "$res" '.missing_refs == [] and .duplicate_ids == 0' "$1: broken or duplicate ids"
	jq_check "$res" '.tables >= 5 and .text_len > 1000' "$1: tables or text missing"
	if [ "$3" = all ]; then   # as many charts as figures, at least $4
		jq_check "$res" ".figures >= $4 and (.charts | length) == .figures and .nochart == 0" \
			"$1: a chart per figure expected, got $(jq -c '[.figures, (.charts|length)]' "$res")"
	else
		jq_check "$res" ".figures == $3 and (.charts | length) == $4 and .nochart == $3 - $4" \
			"$1: $3 figures and $4 charts expected, got $(jq -c '[.figures, (.charts|length)]' "$res")"
	fi
	jq_check "$res" '[.charts[] | .w > 200 and .h > 100 and .drawn_w > 0 and .drawn_h > 0
		and .shapes > 20] | all' "$1: a chart has no size or nothing drawn: $(jq -c .charts "$res")"
	[ "$(head -c 8 "$2" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
		fail "$2 is not a PNG"
	[ "$(wc -c <"$2")" -gt 20000 ] || fail "$2 is nearly empty"
	if [ -n "${CGSCALE_SHOTS:-}" ]; then
		mkdir -p "$CGSCALE_SHOTS" && cp "$2" "first-$2" "$CGSCALE_SHOTS/" &&
			echo "screenshots: $CGSCALE_SHOTS/$(basename "$2") and first-$(basename "$2")"
	fi
}
# the answer in the first screen (1400x900): the top of the table and a
# row under it above the fold; what is folded by default is folded
first_screen() { # RESULT ID-KEY
	jq_check "$1" ".viewport_h == 900 and .$2 != null and .$2 + 60 <= .viewport_h" \
		"$1: $2 at $(jq ".$2" "$1") px, not in the first screen of 900 px"
	echo "$1: $2 at $(jq ".$2 | floor" "$1") px of 900"
}
report_page() { # RESULT
	first_screen "$1" summary_top
	jq_check "$1" '.env_folded == true' "$1: the environment is not folded"
	jq_check "$1" '.harness_sections > 0 and .harness_open == 0' \
		"$1: harness internals not there or not folded: $(jq -c '[.harness_sections, .harness_open]' "$1")"
}
# flame graphs: as wide as the page's content, labels of 12 px or more;
# each with a search box and click-to-zoom that work: the search for the
# widest frame above the root turns it magenta and says its share; a
# click on it makes it as wide as the graph, labelled, others hidden;
# reset puts every frame back
flames() { # RESULT
	jq_check "$1" '(.flames | length) > 0 and ([.flames[] | .w >= 0.95 * .content_w
		and .label_px >= 12 and .labels > 5] | all)' \
		"$1: a flame graph narrow or with small labels: $(jq -c .flames "$1")"
	echo "$1: flame graphs $(jq -c '[.flames[] | {w: (.w | floor), label_px: (.label_px * 10 | floor / 10)}]' "$1")"
	jq_check "$1" '(.flames | length) as $n | .flame_ui | .bars == $n and .magenta >= 1
		and (.hit | test("^[0-9]+ frames matched, [0-9.]+% of the samples"))
		and .zoom_w == .view_w and .w0 < .view_w and (.hidden > 0 or .outside == 0)
		and (.name[0:3] as $p | .label | startswith($p)) and .restored' \
		"$1: search or zoom of the flame graph: $(jq -c .flame_ui "$1")"
	echo "$1: flame search and zoom $(jq -c '.flame_ui | {name, hit, w0, zoom_w, hidden, restored}' "$1")"
}
# one test: its curve, and 2 modes x 2 task counts x 2 charts
check rep.html report.png 9 9
report_page rep.html.json
check nogp.html report-nognuplot.png 9 0
report_page nogp.html.json
check busy.html report-busy.png 9 9
report_page busy.html.json
# a comparison: a forest plot per metric, the sides per mode; the
# headline and the verdict counts in the first screen
check cmp.html compare.png all 4
first_screen cmp.html.json headline_top
first_screen cmp.html.json verdicts_top
# with profiles: every figure a chart, the flame graphs among them
check prof.html report-profile.png all 3
report_page prof.html.json
flames prof.html.json
check pcmp.html compare-profile.png all 3
first_screen pcmp.html.json headline_top
flames pcmp.html.json
exit 0
