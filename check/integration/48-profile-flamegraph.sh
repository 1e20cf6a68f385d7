#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 48-profile-flamegraph.sh - the folded stacks of `export --folded` in a
# real consumer: Brendan Gregg's flamegraph.pl (FLAMEGRAPH=path to it, from
# https://github.com/brendangregg/FlameGraph, fetched into a temp folder,
# never committed). It must draw them: an SVG with the loop at its root and
# exc_page_fault with exactly the samples cgscale counted for it; with
# --weight ns-per-op the stacks add up to the CPU time per op and
# flamegraph.pl draws their ns/op; difffolded.pl (beside flamegraph.pl)
# reads two such exports and shows a 500 ns spin's clock reads grow.
# Skips loudly without FLAMEGRAPH or perl.
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

# --weight ns-per-op: each stack's time per op; they add up to the CPU
# time per op (user + sys, the runs averaged) within the three
# decimals written, and flamegraph.pl draws exc_page_fault's ns/op
"$CGSCALE" export --folded --weight ns-per-op "$d/r.json" >"$d/a.ns" || fail "export --weight ns-per-op"
# the CPU time compare uses: the account's (schedstat, ns) where the run
# has it, else cputime's utime + stime
cpu=$(jq '[.points[] | if .account.user_ns_per_op != null then .account.user_ns_per_op + .account.sys_ns_per_op
	else (.cputime.user_us_per_op + .cputime.sys_us_per_op) * 1000 end] | add / length' "$d/r.json")
awk -v c="$cpu" '{ if ($NF !~ /^[0-9]+\.[0-9][0-9][0-9]$/) bad = 1; s += $NF }
	END { printf "ns-per-op: stacks add up to %.3f ns/op, the CPU time per op is %.3f\n", s, c; exit bad || s - c > 0.01 * NR + 0.01 || c - s > 0.01 * NR + 0.01 }' "$d/a.ns" ||
	fail "export --weight ns-per-op: not stacks with ns/op adding up to $cpu: $(head -n 3 "$d/a.ns")"
perl "$FLAMEGRAPH" --countname ns "$d/a.ns" >"$d/a.svg" 2>"$d/fg.err" || fail "flamegraph.pl of ns/op: $(cat "$d/fg.err")"
want=$(awk '{ n = split($1, f, ";"); for (i = 1; i <= n; i++) if (f[i] == "exc_page_fault") { s += $NF; break } } END { print s + 0 }' "$d/a.ns")
got=$(grep -o '<title>exc_page_fault ([0-9,]* ns' "$d/a.svg" | head -n 1 | tr -dc 0-9)
echo "exc_page_fault: $want ns/op in the export, $got in flamegraph.pl's SVG"
awk -v w="$want" -v g="$got" 'BEGIN { exit !(w > 0 && g - w <= 1 && w - g <= 1) }' ||
	fail "flamegraph.pl drew $got ns/op of exc_page_fault, want $want"

# difffolded.pl (next to flamegraph.pl) of two sides in ns/op: a run with
# a 500 ns spin per op; its clock reads are a new frame with the spin's time
diffp=$(dirname "$FLAMEGRAPH")/difffolded.pl
[ -r "$diffp" ] || skip "no difffolded.pl beside $FLAMEGRAPH (the rest passed)"
"$CGSCALE" run -q -t 1 -m process -w 300ms -d 1s -i 250ms --profile --pf1-spin 500 page_fault1 \
	-o "$d/s.json" >/dev/null 2>"$d/err" || { cat "$d/err"; fail "spin run exited $?"; }
"$CGSCALE" export --folded --weight ns-per-op "$d/s.json" >"$d/b.ns" || fail "export of the spin run"
perl "$diffp" "$d/a.ns" "$d/b.ns" >"$d/ab.diff" 2>"$d/df.err" || fail "difffolded.pl: $(cat "$d/df.err")"
awk 'NF < 3 || $(NF-1) !~ /^[0-9.]+$/ || $NF !~ /^[0-9.]+$/ { bad = 1 } END { exit bad || NR == 0 }' "$d/ab.diff" ||
	fail "difffolded.pl did not read the ns/op weights: $(head -n 3 "$d/ab.diff")"
perl "$FLAMEGRAPH" --countname ns "$d/ab.diff" >"$d/ab.svg" 2>"$d/fg.err" || fail "flamegraph.pl of the diff: $(cat "$d/fg.err")"
vdso=$(awk '$1 ~ /(^|;)__vdso_clock_gettime($|;)/ { a += $(NF-1); b += $NF } END { printf "%.0f", b - a }' "$d/ab.diff")
echo "difffolded.pl: __vdso_clock_gettime changed by +$vdso ns/op"
[ "$vdso" -ge 100 ] || fail "the spin's clock reads (__vdso_clock_gettime) changed by only $vdso ns/op in difffolded.pl's output"
grep -q '<title>__vdso_clock_gettime (' "$d/ab.svg" || fail "no __vdso_clock_gettime frame in the differential SVG"
