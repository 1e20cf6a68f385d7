#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 48-profile-flamegraph.sh - the folded stacks of `export --folded` in a
# real consumer: Brendan Gregg's flamegraph.pl (FLAMEGRAPH=path to it, from
# https://github.com/brendangregg/FlameGraph, fetched into a temp folder,
# never committed). It must draw them: an SVG with the loop at its root and
# exc_page_fault with exactly the samples cgscale counted for it. Skips
# loudly without FLAMEGRAPH or perl.
. "$(dirname "$0")/lib.sh"
d=$T
[ -n "${FLAMEGRAPH:-}" ] && [ -r "$FLAMEGRAPH" ] ||
	skip "FLAMEGRAPH not set: give the path of flamegraph.pl (git clone https://github.com/brendangregg/FlameGraph)"
command -v perl >/dev/null || skip "no perl for flamegraph.pl"
[ "$(id -u)" = 0 ] || skip "needs root for kernel samples"
grep -q ' exc_page_fault$' /proc/kallsyms || skip "no exc_page_fault in /proc/kallsyms"

"$CGSCALE" run -q -t 1 -m process -r 2 -w 300ms -d 1s -i 250ms --profile page_fault1 \
	-o "$d/r.json" >/dev/null 2>"$d/err" || { cat "$d/err"; fail "run exited $?"; }
"$CGSCALE" export --folded "$d/r.json" >"$d/r.folded" || fail "export --folded"
perl "$FLAMEGRAPH" "$d/r.folded" >"$d/r.svg" 2>"$d/fg.err" || fail "flamegraph.pl: $(cat "$d/fg.err")"
# exc_page_fault's inclusive samples in the export, and in flamegraph.pl's title
want=$(awk '{ n = split($1, f, ";"); for (i = 1; i <= n; i++) if (f[i] == "exc_page_fault") { s += $NF; break } } END { print s + 0 }' "$d/r.folded")
got=$(grep -o '<title>exc_page_fault ([0-9,]* samples' "$d/r.svg" | head -n 1 | tr -dc 0-9)
echo "exc_page_fault: $want samples in the export, $got in flamegraph.pl's SVG"
[ "$want" -gt 0 ] && [ "$got" = "$want" ] || fail "flamegraph.pl drew $got samples of exc_page_fault, want $want"
grep -q '<title>pf1_loop (' "$d/r.svg" || fail "no pf1_loop frame in flamegraph.pl's SVG"
