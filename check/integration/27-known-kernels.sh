#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/known-kernels.sh (issue 38's built row) refuses bad input with
# one line and exit 2 before it installs, unpacks or builds anything
# (its build, about 11 minutes here, runs outside make check: bench/
# known-effects and the note measure it); --help prints its usage.
. "$(dirname "$0")/lib.sh"
S="$REPO/scripts/known-kernels.sh"
for args in "--loops abc" "--loops 0" "--loops 100001" "-j 0" "--nope" "-o"; do
	# shellcheck disable=SC2086
	sh "$S" $args -o "$T/kk" >out.txt 2>err.txt
	rc=$?
	[ $rc = 2 ] || fail "known-kernels.sh $args: exit $rc, want 2: $(cat err.txt)"
	[ "$(wc -l <err.txt)" = 1 ] || fail "known-kernels.sh $args: not one line: $(cat err.txt)"
	[ ! -e "$T/kk" ] || fail "known-kernels.sh $args made $T/kk"
	echo "ok: $args -> $(cat err.txt)"
done
sh "$S" --help >out.txt 2>&1 || fail "--help: exit $?"
grep -q "__mod_memcg_lruvec_state" out.txt && grep -q -- "--loops" out.txt || fail "--help: $(cat out.txt)"
exit 0
