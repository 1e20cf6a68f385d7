#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 61-compare-bad-input.sh - bad input never crashes compare: a truncated,
# corrupt or foreign JSON file, a newer schema_version, a file with no
# measured point, a missing file each get one line on stderr that names
# the file, and exit 2; sides with no point in common exit 3; with
# --bisect both become 125 (skip). Exit 0 pass, 1 fail, 77 skip.
set -e
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "jq missing"
tmp=$T

"$CGSCALE" run -q -t 1 -m process -r 2 -w 0 -d 0.2 -i 0.1 page_fault1 \
	-o "$tmp/good.json" >/dev/null 2>&1 || fail "run"
[ "$(jq '[.points[] | select(.status == "ok")] | length' "$tmp/good.json")" = 2 ] ||
	skip "page_fault1 did not run here"

head -c 700 "$tmp/good.json" >"$tmp/truncated.json"
sed 's/"points"/"poi\x01nts"/' "$tmp/good.json" >"$tmp/corrupt.json"
printf '{"name": "not a result", "points": 3}\n' >"$tmp/foreign.json"
printf '\x00\x01binary\xff' >"$tmp/binary.json"
jq '.schema_version = 99' "$tmp/good.json" >"$tmp/newer.json"
jq '.points[].status = "failed"' "$tmp/good.json" >"$tmp/nomeasured.json"
jq '.points = []' "$tmp/good.json" >"$tmp/nopoints.json"
jq '.points[0].samples.ops[0] = "many"' "$tmp/good.json" >"$tmp/badtype.json"

# check FILE WANT-STATUS WORD: one stderr line naming FILE, containing WORD;
# the sanitizer build too, where there is one
check() {
	set +e
	"${CGSCALE_SAN:-$CGSCALE}" compare "$tmp/good.json" "$tmp/$1" >/dev/null 2>"$tmp/err"
	st=$?
	[ "$st" = "$2" ] || fail "$1: the sanitizer build exits $st: $(cat "$tmp/err")"
	"$CGSCALE" compare "$tmp/good.json" "$tmp/$1" >"$tmp/out" 2>"$tmp/err"
	st=$?
	set -e
	[ "$st" = "$2" ] || fail "$1: exit $st, want $2: $(cat "$tmp/err")"
	[ "$(wc -l <"$tmp/err")" = 1 ] || fail "$1: stderr is not one line: $(cat "$tmp/err")"
	grep -q "$tmp/$1" "$tmp/err" || fail "$1: message does not name the file: $(cat "$tmp/err")"
	grep -qi "$3" "$tmp/err" || fail "$1: message lacks '$3': $(cat "$tmp/err")"
	[ -s "$tmp/out" ] && fail "$1: printed a report anyway"
	set +e
	"$CGSCALE" compare --bisect "$tmp/good.json" "$tmp/$1" >/dev/null 2>&1
	st=$?
	set -e
	[ "$st" = 125 ] || fail "$1 --bisect: exit $st, want 125"
}
check truncated.json 2 "truncated"
check corrupt.json 2 "json"
check foreign.json 2 "not a cgscale result"
check binary.json 2 "json"
check newer.json 2 "newer"
check nomeasured.json 2 "no measured points"
check nopoints.json 2 "no measured points"
check badtype.json 2 "samples.ops"
check missing.json 2 "cannot read"

# no point in common: another test
"$CGSCALE" run -q -t 1 -m process -r 1 -w 0 -d 0.2 -i 0.1 page_fault3 \
	-o "$tmp/other.json" >/dev/null 2>&1 || fail "run page_fault3"
set +e
"$CGSCALE" compare "$tmp/good.json" "$tmp/other.json" >/dev/null 2>"$tmp/err"
st=$?
set -e
[ "$st" = 3 ] || fail "no common point: exit $st, want 3"
grep -q "no point in common" "$tmp/err" || fail "no common point: $(cat "$tmp/err")"

# a critical environment field that differs: exit 3 naming it
jq '.machine.cpu_model = "Another CPU"' "$tmp/good.json" >"$tmp/othercpu.json"
set +e
"$CGSCALE" compare "$tmp/good.json" "$tmp/othercpu.json" >/dev/null 2>"$tmp/err"
st=$?
set -e
[ "$st" = 3 ] || fail "other CPU: exit $st, want 3"
grep -q "machine.cpu_model" "$tmp/err" || fail "other CPU: $(cat "$tmp/err")"
"$CGSCALE" compare --allow-env-diff "$tmp/good.json" "$tmp/othercpu.json" >"$tmp/out" ||
	fail "--allow-env-diff exit $?"
grep -q "machine.cpu_model" "$tmp/out" || fail "the env header does not show the CPU"

# usage
set +e
"$CGSCALE" compare "$tmp/good.json" >/dev/null 2>&1; st1=$?
"$CGSCALE" compare --format nope "$tmp/good.json" "$tmp/good.json" >/dev/null 2>&1; st2=$?
"$CGSCALE" compare --help >"$tmp/help"; st3=$?
set -e
[ "$st1" = 2 ] && [ "$st2" = 2 ] && [ "$st3" = 0 ] || fail "usage exits $st1 $st2 $st3"
grep -q "exit status" "$tmp/help" || fail "--help lacks the exit codes"
echo "PASS: bad input gives one line and exit 2/3 (125 with --bisect)"
