#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 09-run-sh.sh - a newcomer's first run: ./run.sh --quick in a copy of the
# tree (tracked files, plus this build so that make has little to do)
# installs or finds gnuplot-nox (scripts/deps.sh run lists it), runs the
# default suite and writes a report whose charts are there: one inline
# SVG scalability chart per test at least. Exit 0 pass, 1 fail, 77 skip.
. "$(dirname "$0")/lib.sh"
"$REPO/scripts/deps.sh" --list run | grep -qx gnuplot-nox || fail "scripts/deps.sh run lacks gnuplot-nox"
grep -q '^scripts/deps.sh run$' "$REPO/run.sh" || fail "run.sh does not install the run packages"
command -v git >/dev/null && git -C "$REPO" rev-parse --git-dir >/dev/null 2>&1 ||
	skip "not a git checkout: cannot tell the tracked files"
"$REPO/scripts/deps.sh" --check-only run >/dev/null 2>&1 || [ "$(id -u)" = 0 ] ||
	skip "gnuplot-nox or a build package missing and not root: scripts/deps.sh run would stop"

mkdir tree
(cd "$REPO" && git ls-files -z | xargs -0 tar -cf -) | tar -xf - -C tree || fail "copy the tree"
[ -d "$REPO/build/rel" ] && cp -a "$REPO/build" tree/ && cp -a "$REPO/cgscale" tree/ 2>/dev/null
(cd tree && ./run.sh --quick) >out.txt 2>err.txt || fail "./run.sh --quick exit $?: $(tail -n 5 err.txt)"
rep=$(sed -n 's/^report:  //p' out.txt)
[ -n "$rep" ] && [ -s "tree/$rep" ] || fail "run.sh wrote no report: $(head -n 5 out.txt) $(tail -n 3 err.txt)"
grep -qi "gnuplot" err.txt && fail "run.sh complained about gnuplot: $(grep -i gnuplot err.txt)"
svgs=$(grep -o '<svg' "tree/$rep" | wc -l)
[ "$svgs" -ge 4 ] || fail "the report has $svgs charts, want one per test at least"
echo "PASS: ./run.sh --quick wrote a report with $svgs charts"
