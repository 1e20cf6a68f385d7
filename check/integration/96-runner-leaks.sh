#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# check/run-integration.sh's leak check judges only what a test started:
# a copy of it runs a made-up test that leaves a cgscale run behind, and
# the leak is reported and ended, while a run of the same binary started
# outside it (by hand, a helper, another session) is neither reported nor
# killed and finishes on its own.
. "$(dirname "$0")/lib.sh"

mkdir -p ri/check/integration
cp "$REPO/check/run-integration.sh" ri/check/
short="-q -w 0 -i 1 -t 1 -m process --cgroup-depth 0 page_fault1"
cat >ri/check/integration/01-leak.sh <<EOT
#!/bin/sh
setsid "\$CGSCALE" run -d 30 -o $T/leak.json $short >/dev/null 2>$T/leak.err &
# until the leak runs our binary (10 s at most, however loaded the box)
i=0
while [ "\$(readlink /proc/\$!/exe)" != "\$CGSCALE" ] && [ \$i -lt 100 ]; do
	sleep 0.1
	i=\$((i + 1))
done
EOT
chmod +x ri/check/integration/01-leak.sh
# shellcheck disable=SC2086
"$CGSCALE" run -d 4 -o foreign.json $short >/dev/null 2>foreign.err &
f=$!
wait_until 10 test -e "/proc/$f" || fail "the outside run did not start"
CHECK_LOAD= sh ri/check/run-integration.sh "$CGSCALE" >ri.out 2>&1    # no busy loops of its own
rc=$?
[ $rc = 1 ] || fail "the runner should fail the leaking test: exit $rc: $(cat ri.out)"
grep -q '^FAILED  check/integration/01-leak.sh left cgscale processes behind: [0-9]' ri.out ||
	fail "the leak was not reported: $(cat ri.out)"
# the outside run ends on its own, however long the runner took: killed
# (by the runner's SIGKILL) its status would be 137, not 0
wait "$f"
rc=$?
[ $rc != 137 ] || fail "the runner killed a cgscale run it did not start: $(cat ri.out)"
[ $rc = 0 ] || fail "the outside run failed (exit $rc): $(cat foreign.err)"
jq_check foreign.json '.points[0].status == "ok"' "the outside run finished its point"
# SIGKILL is not instant on a loaded box: the leak must be gone within
# 10 s (a zombie not yet reaped counts as gone), and never write
for p in $(grep 'left cgscale processes behind' ri.out | sed 's/.*behind: //'); do
	wait_until 10 gone "$p" || fail "leaked process $p still alive 10 s after the runner killed it"
done
[ -e leak.json ] && fail "the leaked run was not ended: it wrote its result"
exit 0
