#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# run.sh - run cgscale's default suite: page_fault1-3 and fallocate2, in
# process and thread mode, with 1 task and with one task per CPU.
#
#   ./run.sh                 2 s warm-up, 5 s measured per point
#   ./run.sh --quick         the same in under a minute
#   ./run.sh [--quick] OPTS  extra options go to `cgscale run` (e.g. -r 3)
#
# It installs the Debian packages it needs, gnuplot-nox for the report's
# charts included (as root; otherwise it names them and stops), builds
# cgscale, runs, writes an HTML report beside the results, prints
# where the results and the report went, then the summary table.
set -eu
cd "$(dirname "$0")"
scripts/deps.sh run
make -s cgscale >/dev/null

timing=""
if [ "${1:-}" = "--quick" ]; then
	timing="-w 0.5 -d 1 -i 0.5"
	shift
fi
dir="results/runs/$(date +%Y%m%d-%H%M%S)"
mkdir -p "$dir"
rc=0
# shellcheck disable=SC2086
./cgscale run -t 1,all $timing -o "$dir/result.json" "$@" \
	page_fault1 page_fault2 page_fault3 fallocate2 >"$dir/summary.txt" || rc=$?
if [ -s "$dir/result.json" ]; then
	echo "results: $dir/result.json"
	echo "table:   $dir/summary.txt"
	msg=$(./cgscale report -o "$dir/report.html" "$dir/result.json" 2>&1) || true
	printf '%s\n' "$msg" | grep -v -e '^cgscale: report in ' -e '^$' >&2 || true
	[ -s "$dir/report.html" ] && echo "report:  $dir/report.html"
	cat "$dir/summary.txt"
else
	rmdir "$dir" 2>/dev/null || true
fi
exit $rc
