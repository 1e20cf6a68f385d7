#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `run -o FIFO` (issue 40, case 7): a FIFO is written in place; with no
# reader the open waits 10 s at most (O_NONBLOCK, retried: "No such
# device or address") and the run says the result was not written,
# instead of an open() that waits forever with SIGTERM blocked; with a
# reader, the reader gets the whole result. Both builds.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "jq missing"
mkfifo f || fail "mkfifo"
short="-q -m process -t 1 -w 0 -d 0.2 -i 0.1 --cgroup-depth 0"
for C in "$CGSCALE" "${CGSCALE_SAN:-$CGSCALE}"; do
	# shellcheck disable=SC2086
	timeout 60 "$C" run $short -o f page_fault1 >/dev/null 2>err.txt
	rc=$?
	[ $rc != 124 ] || fail "run -o FIFO with no reader hung"
	[ $rc = 1 ] || fail "run -o FIFO with no reader: exit $rc, want 1: $(cat err.txt)"
	grep -q "cannot write f: No such device or address" err.txt ||
		fail "run -o FIFO with no reader did not say so: $(cat err.txt)"
	[ -p f ] || fail "the FIFO was replaced"
	cat f >got.json &
	reader=$!
	# until the reader waits in its open() of the FIFO (cat, asleep)
	wait_until 30 sh -c "[ \"\$(cat /proc/$reader/comm)\" = cat ] && sed 's/.*) //' /proc/$reader/stat | grep -q '^S'" ||
		fail "the reader did not start"
	# shellcheck disable=SC2086
	timeout 60 "$C" run $short -o f page_fault1 >/dev/null 2>err.txt || fail "run -o FIFO with a reader: $(cat err.txt)"
	wait $reader
	jq -e '.points[0].status == "ok"' got.json >/dev/null || fail "the reader did not get the result: $(head -c 200 got.json)"
	echo "$C: no reader: refused within 10 s; a reader: the whole result"
done
exit 0
