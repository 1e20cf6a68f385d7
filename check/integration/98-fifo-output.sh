#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `run -o FIFO` (issue 40, case 7): a FIFO is written in place; with no
# reader the open waits 10 s at most (O_NONBLOCK, retried: "No such
# device or address") and the run says the result was not written,
# instead of an open() that waits forever with SIGTERM blocked; with a
# reader, the reader gets the whole result. A terminal (/dev/pts/N) is
# written in place too (case 10). Both builds.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "jq missing"
command -v python3 >/dev/null || skip "python3 missing (scripts/deps.sh test installs it)"
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
	# a terminal (issue 40, case 10): /dev/pts takes no new file, and the
	# result written in place needs none; a reader on the other side of
	# the pty gets the whole result
	python3 - "$C" $short >pty.txt 2>&1 <<'PY' || fail "run -o /dev/pts/N: $(cat pty.txt)"
import json, os, pty, subprocess, sys, threading, tty
m, s = pty.openpty()
tty.setraw(s)
got = bytearray()
def read():
    while True:
        try:
            b = os.read(m, 65536)
        except OSError:
            return
        if not b:
            return
        got.extend(b)
t = threading.Thread(target=read, daemon=True)
t.start()
p = subprocess.run([sys.argv[1], "run"] + sys.argv[2:] + ["-o", os.ttyname(s), "page_fault1"],
                   capture_output=True, text=True, timeout=120)
os.close(s)
t.join(10)
if p.returncode:
    sys.exit("exit %d: %s" % (p.returncode, p.stderr.strip()))
r = json.loads(bytes(got))
if r["points"][0]["status"] != "ok":
    sys.exit("the point: %s" % r["points"][0]["status"])
print("%s: the whole result through a pty" % sys.argv[1])
PY
	cat pty.txt
done
exit 0
