#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bad input: a one-line error naming the problem, exit status 2, and
# nothing written (no results directory, no file).
. "$(dirname "$0")/lib.sh"

bad() {
	"$CGSCALE" "$@" >out.txt 2>err.txt
	rc=$?
	[ $rc -eq 2 ] || fail "'$*' exited $rc, expected 2"
	[ "$(wc -l <err.txt)" -eq 1 ] || fail "'$*' printed $(wc -l <err.txt) lines: $(cat err.txt)"
	[ -e results ] && fail "'$*' created results/"
	[ -z "$(ls -A out 2>/dev/null)" ] || fail "'$*' wrote into out/"
	echo "ok: $* -> $(cat err.txt)"
}
mkdir out
bad run nosuchtest
bad run
bad run -t 0 page_fault1
bad run -t 1-x page_fault1
bad run -t abc page_fault1
bad run -t 50%% page_fault1
bad run -d 0 page_fault1
bad run -d -1 page_fault1
bad run -w -2s page_fault1
bad run -d 1 -i 2 page_fault1
bad run --mode sideways page_fault1
bad run --placement everywhere page_fault1
bad run --tmpdir /nonexistent/dir page_fault1
bad run -o /nonexistent/dir/r.json page_fault1
bad run -o /proc/r.json page_fault1
bad run --bogus page_fault1
bad run -r 0 page_fault1
bad nosuchcommand
grep -q "unknown test 'nosuchtest'" err.txt 2>/dev/null || true
"$CGSCALE" run nosuchtest 2>&1 | grep -q "cgscale list" || fail "unknown test: no hint"
"$CGSCALE" run -d 1 -i 2 page_fault1 2>&1 | grep -q "interval" || fail "interval message"
exit 0
