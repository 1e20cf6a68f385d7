#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A sampler that wakes late (here: the runner stopped for 1.5 s during the
# warm-up, as on a starved machine) must not shorten the measurement:
# measurement instants count from the real start of the window, missed
# instants merge into one longer interval, and the lag is recorded.
. "$(dirname "$0")/lib.sh"

"$CGSCALE" run -q -m process -t 1 -w 1 -d 2 -i 0.25 -o r.json page_fault1 \
	>out.txt 2>err.txt &
pid=$!
sleep 0.5
kill -STOP $pid
sleep 1.5
kill -CONT $pid
wait $pid || fail "run failed: $(cat err.txt)"
jq_check r.json '.points[0].status == "ok"' "point ok"
jq_check r.json '.points[0].summary.elapsed_s >= 1.95 and .points[0].summary.elapsed_s < 2.6' \
	"measured the full 2 s (got $(jq .points[0].summary.elapsed_s r.json))"
jq_check r.json '.points[0].timing.sampler_lag_max_ms > 500' "lag recorded"
# the late warm-up instants were merged, not taken back to back
jq_check r.json '.points[0].samples as $s | [range(1; $s.t_ns | length) | $s.t_ns[.] - $s.t_ns[. - 1]] | min > 100000000' \
	"no burst of back-to-back samples"
grep -q "sampler late" out.txt || fail "table does not flag the late sampler"
exit 0
