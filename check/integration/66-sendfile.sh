#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 66-sendfile.sh - the sendfile workload (netperf TCP_SENDFILE) in both
# modes at 1 and 2 tasks, over IPv6 and IPv4: every point ok, every byte
# sent received, Mbit/s > 0, the family used recorded. Then a receiver
# that dies (test knob in both modes, and a real SIGKILL of the receiver
# process) must give a failed point, quickly, never a hang.
. "$(dirname "$0")/lib.sh"
set -e
tmp=$T
bg=
trap '[ -n "$bg" ] && kill "$bg" 2>/dev/null; rm -rf "$T"' EXIT

# ::1 on lo, as the kernel lists it
ipv6=ipv4
grep -q '^00000000000000000000000000000001 .* lo$' /proc/net/if_inet6 2>/dev/null && ipv6=ipv6

for net in 6 4; do
	want=ipv4
	[ $net = 6 ] && want=$ipv6
	out=$tmp/r$net.json
	"$CGSCALE" run -m both -t 1,2 -w 0 -d 1 -i 0.5 -q --net $net -o "$out" \
		sendfile >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "--net $net run failed: $(jq -c \
		'[.points[] | select(.status != "ok") | .reason]' "$out" 2>/dev/null)"; }
	jq -e --arg want "$want" '
		(.points | length) == 4 and
		all(.points[]; .status == "ok" and .workload.family == $want and
		    .workload.partner == "same" and
		    (if $want == "ipv4" and .workload_options.net == "6"
		     then .workload.fallback != null else .workload.fallback == null end) and
		    .summary.aux.rx_bytes.rate > 0 and
		    .summary.aux.rx_bytes.per_task_rate > 0 and
		    .summary.aux.rx_bytes.unit == "Mbit/s" and
		    all(.tasks_detail[]; .aux.tx_bytes == .aux.rx_bytes and
			.ops > 0 and .aux.tx_bytes >= .ops * 10240))' "$out" >/dev/null ||
		{ jq -c '.points[] | {mode, tasks, status, reason, workload,
			  t: [.tasks_detail[] | {ops, aux}]}' "$out"; fail "--net $net: results"; }
	# netperf's ring (tcp_wmem's default / 10240 + 1 entries, at least 2) and
	# file (an entry is 10240 + 4 bytes), and netserver's receive size (the
	# socket's SO_RCVBUF before the connection: tcp_rmem's default)
	rmem=$(awk '{ print $2 }' /proc/sys/net/ipv4/tcp_rmem)
	w=$(awk '{ w = int($2 / 10240) + 1; print w < 2 ? 2 : w }' /proc/sys/net/ipv4/tcp_wmem)
	jq -e --argjson r "$rmem" --argjson w "$w" 'all(.points[]; .workload.ring_entries == $w and
		.workload.file_bytes == $w * 10244 and .workload.recv_size == $r)' "$out" >/dev/null ||
		fail "--net $net: ring/file/recv: $(jq -c '[.points[].workload | {ring_entries, file_bytes, recv_size}]' "$out"), want $w/$((w * 10244))/$rmem"
	[ "$want" = ipv4 ] && [ $net = 6 ] && echo "note: ::1 is not available here; IPv4 fallback checked"
	# the table shows the Mbit/s lines
	grep -q 'Mbit/s (rx_bytes' "$tmp/log" || fail "no Mbit/s line in the table"
done

# the fallback, for real: a network namespace of our own without ::1
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null && command -v ip >/dev/null &&
	unshare -n true 2>/dev/null; then
	unshare -n sh -c 'ip link set lo up && sysctl -qw net.ipv6.conf.lo.disable_ipv6=1 &&
		exec "$0" run -m process -t 1 -w 0 -d 0.5 -i 0.25 -q -o "$1" sendfile' \
		"$CGSCALE" "$tmp/fb.json" >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "fallback run"; }
	jq -e '.points[0].status == "ok" and .points[0].workload.family == "ipv4" and
		(.points[0].workload.fallback | test("::1 is not available"))' \
		"$tmp/fb.json" >/dev/null || fail "the IPv4 fallback is not recorded"
else
	echo "note: not root or no unshare/ip: the IPv6 fallback in a namespace is not checked"
fi

# the other placements, under the sanitizers, with a non-default size
"$CGSCALE_SAN" run -m both -t 2 -w 0 -d 0.5 -i 0.25 -q --partner next \
	--msg-size 4K -o "$tmp/next.json" sendfile >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; fail "--partner next (sanitizers)"; }
"$CGSCALE_SAN" run -m both -t 1 -w 0 -d 0.5 -i 0.25 -q --partner free \
	--sndbuf 64K --rcvbuf 256K -o "$tmp/free.json" sendfile >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; fail "--partner free (sanitizers)"; }
jq -e -s 'all(.[].points[]; .status == "ok" and
	all(.tasks_detail[]; .aux.tx_bytes == .aux.rx_bytes and .aux.rx_bytes > 0))' \
	"$tmp/next.json" "$tmp/free.json" >/dev/null || fail "next/free results"
# --rcvbuf 256K and --sndbuf 64K: what netserver and netperf would read
# back (Linux doubles the value, capped by net.core.rmem_max/wmem_max):
# the receive size, and a ring of that SO_SNDBUF / 10240 + 1 entries;
# -m 4K: tcp_wmem's default / 4096 + 1 entries of 4096 + 4 bytes
rmax=$(cat /proc/sys/net/core/rmem_max)
want=$(( 2 * (rmax < 262144 ? rmax : 262144) ))
jq -e --argjson w "$want" 'all(.points[]; .workload.recv_size == $w)' "$tmp/free.json" >/dev/null ||
	fail "--rcvbuf 256K: recv_size $(jq -c '[.points[].workload.recv_size]' "$tmp/free.json"), want $want"
wmax=$(cat /proc/sys/net/core/wmem_max)
w=$(( 2 * (wmax < 65536 ? wmax : 65536) / 10240 + 1 ))
jq -e --argjson w "$w" 'all(.points[]; .workload.ring_entries == $w and .workload.file_bytes == $w * 10244)' \
	"$tmp/free.json" >/dev/null ||
	fail "--sndbuf 64K: ring $(jq -c '[.points[].workload | {ring_entries, file_bytes}]' "$tmp/free.json"), want $w entries"
w=$(awk '{ w = int($2 / 4096) + 1; print w < 2 ? 2 : w }' /proc/sys/net/ipv4/tcp_wmem)
jq -e --argjson w "$w" 'all(.points[]; .workload.ring_entries == $w and .workload.file_bytes == $w * 4100)' \
	"$tmp/next.json" >/dev/null ||
	fail "--msg-size 4K: ring $(jq -c '[.points[].workload | {ring_entries, file_bytes}]' "$tmp/next.json"), want $w entries"

# a receiver that dies after 50 MB: both modes fail, with the reason
start=$(date +%s)
rc=0
CGSCALE_TEST_RECV_DIE=50000000 timeout 60 "$CGSCALE" run -m both -t 1,2 -w 0 -d 5 \
	-q -o "$tmp/die.json" sendfile >"$tmp/log" 2>&1 || rc=$?
[ $rc = 1 ] || { cat "$tmp/log"; fail "receiver death: exit $rc, want 1"; }
jq -e '(.points | length) == 4 and all(.points[]; .status == "failed" and
	(.reason | test("partner cgs:sf-recv")))' "$tmp/die.json" >/dev/null ||
	{ jq -c '.points[] | {mode, tasks, status, reason}' "$tmp/die.json"; fail "receiver death results"; }
[ $(( $(date +%s) - start )) -lt 30 ] || fail "receiver death took too long"

# A real receiver process, sent signal $1 (found by comm, among the
# descendants of our own run only); the point must fail within $2 s with
# a reason matching $3. $EXTRA goes to cgscale run. The receiver must be in
# exactly the cgroups of its task (its parent), and with $LEAF set, its
# memory cgroup path must end with $LEAF.
EXTRA= LEAF=
receiver_signal() {
	# shellcheck disable=SC2086
	timeout 60 "$CGSCALE" run -m process -t 1 -w 0 -d 60 -q -o "$tmp/sig.json" \
		$EXTRA sendfile >"$tmp/log" 2>&1 &
	bg=$!
	victim=
	for _ in $(seq 100); do
		for d in /proc/[0-9]*; do
			[ "$(cat "$d/comm" 2>/dev/null)" = cgs:sf-recv ] || continue
			p=${d#/proc/}
			for _ in 1 2 3 4 5 6; do
				p=$(awk '{print $4}' "/proc/$p/stat" 2>/dev/null) || break
				[ "$p" = "$bg" ] && victim=${d#/proc/} && break 2
			done
		done
		[ -n "$victim" ] && break
		sleep 0.1
	done
	[ -n "$victim" ] || fail "no receiver process found"
	sleep 1
	task=$(awk '{print $4}' "/proc/$victim/stat")
	[ "$(cat "/proc/$victim/cgroup")" = "$(cat "/proc/$task/cgroup")" ] ||
		fail "the receiver's cgroups differ from its task's"
	if [ -n "$LEAF" ]; then
		grep -Eq "^[0-9]+:([^:]*,)?memory(,[^:]*)?:.*/$LEAF\$|^0::.*/$LEAF\$" "/proc/$victim/cgroup" ||
			fail "the receiver is not in the leaf $LEAF: $(cat "/proc/$victim/cgroup")"
	fi
	start=$(date +%s)
	kill -"$1" "$victim"
	rc=0
	wait "$bg" || rc=$?
	bg=
	[ $rc = 1 ] || { cat "$tmp/log"; fail "receiver SIG$1: exit $rc, want 1"; }
	[ $(( $(date +%s) - start )) -lt "$2" ] || fail "receiver SIG$1: the point took too long to fail"
	jq -e --arg re "$3" '.points[0].status == "failed" and (.points[0].reason | test($re))' \
		"$tmp/sig.json" >/dev/null ||
		{ jq -c '.points[] | {status, reason}' "$tmp/sig.json"; fail "receiver SIG$1: results"; }
}
# killed: noticed at once (the connection resets)
receiver_signal KILL 10 "partner cgs:sf-recv .*killed by signal 9"
# stopped: alive but reading nothing; the sender gives up after 10 s
receiver_signal STOP 30 "the receiver read nothing for 10 s"

# nested cgroups (as LKP's netperf jobs: netserver in the tasks' cgroup): both modes
# run in a 3-level hierarchy, and a receiver process sits in its task's leaf
if [ "$(id -u)" = 0 ] && grep -q 'memory' /proc/self/cgroup; then
	"$CGSCALE" run -m both -t 1,2 -w 0 -d 0.5 -i 0.25 -q --cgroup-depth 3 \
		-o "$tmp/cg.json" sendfile >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "depth 3 run"; }
	jq -e 'all(.points[]; .status == "ok" and (.cgroup.layout | startswith("depth=3")) and
		all(.tasks_detail[]; .aux.tx_bytes == .aux.rx_bytes and .aux.rx_bytes > 0))' \
		"$tmp/cg.json" >/dev/null || fail "depth 3 results"
	EXTRA="--cgroup-depth 3" LEAF=cgscale-l3
	receiver_signal KILL 10 "killed by signal 9"
	EXTRA="--cgroup-depth 2 --cgroup-leaf per-task" LEAF=cgscale-t0
	receiver_signal KILL 10 "killed by signal 9"
else
	echo "note: not root or no memory cgroup: nested cgroups are not checked"
fi
echo "sendfile: ok"
