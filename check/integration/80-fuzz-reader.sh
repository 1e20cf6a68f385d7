#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 80-fuzz-reader.sh - a short libFuzzer run of the result reader and of
# compare on what it accepts (check/fuzz/fuzz_res_read.c), seeded with the
# committed corpus; new inputs go to a temporary directory, so the corpus
# stays as committed. Without clang, the corpus is replayed through the
# same harness built with gcc and the sanitizers.
# CGS_FUZZ_SECONDS sets the time (default 15). Exit 0 pass, 1 fail, 77 skip.
CGSCALE=${CGSCALE:-unused}
. "$(dirname "$0")/lib.sh"
set -e
root=$REPO
secs=${CGS_FUZZ_SECONDS:-15}
tmp=$T
cd "$root"

if command -v "${FUZZ_CC:-clang}" >/dev/null; then
	make -s build/fuzz/fuzz_res_read >"$tmp/build.log" 2>&1 ||
		{ cat "$tmp/build.log"; fail "the fuzz harness does not build"; }
	mkdir "$tmp/new" "$tmp/crash"
	if ! build/fuzz/fuzz_res_read "$tmp/new" check/fuzz/corpus \
		-dict=check/fuzz/res.dict -max_total_time="$secs" -timeout=10 \
		-rss_limit_mb=1024 -malloc_limit_mb=512 \
		-artifact_prefix="$tmp/crash/" >"$tmp/fuzz.log" 2>&1; then
		tail -40 "$tmp/fuzz.log"
		for f in "$tmp"/crash/*; do
			[ -f "$f" ] && cp "$f" "$root/check/fuzz/" &&
				echo "FAIL: crashing input kept as check/fuzz/$(basename "$f")"
		done
		echo "FAIL: the fuzzer found a problem"
		exit 1
	fi
	echo "PASS: fuzzed ${secs}s, no crash: $(grep '^Done' "$tmp/fuzz.log" || tail -1 "$tmp/fuzz.log")"
	exit 0
fi
echo "note: no clang/libFuzzer here; replaying the corpus instead"
make -s build/san/fuzz-replay >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; exit 1; }
build/san/fuzz-replay check/fuzz/corpus/* || { echo "FAIL: replay"; exit 1; }
echo "PASS: corpus replayed"
