# SPDX-License-Identifier: GPL-2.0-or-later
# wis-pair.sh - sourced by bench/vs-will-it-scale and bench/launch-order:
# one pair of 1-task runs at the same time, each side cgscale or
# will-it-scale, the method of bench/pairs.sh. Each side:
#   - is started stopped and bound to its CPU (taskset: cgscale honours
#     it; will-it-scale runs with -n, so its task inherits the mask
#     instead of binding itself to core 0), and both are released by one
#     signal, so their windows start together;
#   - has a private mount namespace with a fresh tmpfs on /tmp (will-it-
#     scale writes its files and its counter area there; cgscale gets
#     --tmpdir /tmp), the caller's cgroup (cgscale --cgroup-depth 0) and
#     ASLR off (setarch -R; cgscale turns it off itself);
#   - runs 2 s past its window, so that neither is ever alone on a shared
#     CPU during the other's window: will-it-scale -s D+2, of whose
#     per-second totals the D after its 6 s of warm-up are averaged (its
#     own "average:" for -s D), and cgscale -w 6 -d D+2 -i 1, of whose
#     measured intervals the first D are taken;
#   - has its tasks' CPU time read from schedstat (bench/pairs.sh
#     pair_cpu_ns) from 6.5 s to D + 5.5 s after the release: ns per op
#     is that CPU time over its wall time, over the side's ops/s.
# Needs $tmp (the working folder; the caller cds there), $WIS (the
# will-it-scale build), $CGSCALE, $DURATION, and bench/pairs.sh sourced.

# Copy the binaries into $tmp/bin, run by relative path: the fresh /tmp
# would hide them when they live under /tmp. wp_setup TEST...
wp_setup() {
	mkdir -p "$tmp/bin"
	cp "$CGSCALE" "$tmp/bin/cgscale"
	# its plain image beside it, or its tasks run in forks of cgscale
	_img=$(dirname "$(readlink -f "$CGSCALE")")/cgscale-tasks
	[ ! -x "$_img" ] || cp "$_img" "$tmp/bin/cgscale-tasks"
	for _t in "$@"; do
		cp "$WIS/${_t}_processes" "$WIS/${_t}_threads" "$tmp/bin/"
	done
}

# The command line of one side: wp_cmd TOOL TEST MODE TAG, where TOOL is
# c (cgscale) or w (will-it-scale); $WP_CG (more cgscale options) and
# $WP_SETARCH (default -R) change one thing at a time.
wp_cmd() {
	_wp_n=$((DURATION + 2))
	if [ "$1" = c ]; then
		echo "./bin/cgscale run -q -m $3 -t 1 --placement cores --cgroup-depth 0 --tmpdir /tmp -w 6 -d $_wp_n -i 1 ${WP_CG:-} -o $4.json $2"
	else
		_wp_s=processes
		[ "$3" = thread ] && _wp_s=threads
		echo "setarch $(uname -m) ${WP_SETARCH--R} ./bin/$2_$_wp_s -n -t 1 -s $_wp_n"
	fi
}

# ops/s of the first $DURATION seconds of a side's window: wp_ops TOOL TAG.
# A cgscale side counts only when its tasks ran as asked: in the plain
# image and with ASLR off, as will-it-scale's (WP_IMAGE=runner when
# --task-process runner is in WP_CG, WP_ASLR=on when --aslr is).
wp_ops() {
	if [ "$1" = c ]; then
		jq -r --argjson d "$DURATION" --arg img "${WP_IMAGE:-plain}" --arg aslr "${WP_ASLR:-off}" '. as $r | .points[0] |
			if (.harness.task_process.image // "runner") != $img then "failed: tasks in \(.harness.task_process.image // "runner")"
			elif ($r.environment.aslr // "" | startswith($aslr) | not) then "failed: ASLR \($r.environment.aslr)" else empty end,
			(if .status != "ok" then "failed" else
			.samples as $s | ($s.phase | index("measure")) as $m |
			([$s.ops[] | .[$m:$m + $d][]] | add) / (($s.t_ns[$m - 1 + $d] - $s.t_ns[$m - 1]) / 1e9)
			end)' "$2.json" 2>/dev/null | head -n 1 | grep . || echo failed
	else
		awk -v d="$DURATION" '/^min:/ { k++; sub(/.*total:/, ""); if (k > 6 && k <= 6 + d) { s += $1; n++ } }
			END { if (n == d) printf "%.0f\n", s / n; else print "failed" }' "$2.out"
	fi
}

# One pair: wp_pair TEST MODE TOOL_X CPU_X TOOL_Y CPU_Y FIRST [GAP]
# (FIRST x or y is released first; GAP seconds later the other, 0 by
# default: one signal for both). Prints "X_ops Y_ops X_ns Y_ns", or
# "failed ..." with the reason.
wp_pair() {
	_t=$1 _m=$2 _tx=$3 _cx=$4 _ty=$5 _cy=$6 _f=$7 _gap=${8:-0}
	rm -f x.json y.json x.out y.out
	# shellcheck disable=SC2046
	pair_spawn "$_cx" x.out x.err unshare -m --propagation private sh -c \
		'mount -t tmpfs -o size=1g cgs-bench /tmp && exec "$@"' sh $(wp_cmd "$_tx" "$_t" "$_m" x) ||
		{ echo "failed: cannot start x: $(cat x.err)"; return; }
	_px=$PAIR_PID
	# shellcheck disable=SC2046
	pair_spawn "$_cy" y.out y.err unshare -m --propagation private sh -c \
		'mount -t tmpfs -o size=1g cgs-bench /tmp && exec "$@"' sh $(wp_cmd "$_ty" "$_t" "$_m" y) ||
		{ kill -KILL "$_px"; echo "failed: cannot start y: $(cat y.err)"; return; }
	_py=$PAIR_PID
	if [ "$_f" = x ]; then _p1=$_px _p2=$_py; else _p1=$_py _p2=$_px; fi
	if [ "$_gap" = 0 ]; then
		pair_release "$_p1" "$_p2"
	else
		pair_release "$_p1"; sleep "$_gap"; pair_release "$_p2"
	fi
	sleep 6.5
	_t1=$(date +%s%N) _ux=$(pair_cpu_ns "$_px") _uy=$(pair_cpu_ns "$_py")
	sleep $((DURATION - 1))
	_t2=$(date +%s%N) _vx=$(pair_cpu_ns "$_px") _vy=$(pair_cpu_ns "$_py")
	wait "$_px" "$_py" || true
	_ox=$(wp_ops "$_tx" x) _oy=$(wp_ops "$_ty" y)
	case "$_ox $_oy" in
	*failed*) echo "failed: x $_ox ($(tail -n 1 x.err)), y $_oy ($(tail -n 1 y.err))"; return ;;
	esac
	echo "$_ox $_oy $_ux $_vx $_uy $_vy $_t1 $_t2" | awk '{ dt = ($8 - $7) / 1e9
		if ($4 <= $3 || $6 <= $5) { print "failed: a side ended before its CPU time was read"; exit }
		printf "%.0f %.0f %.1f %.1f\n", $1, $2, ($4 - $3) / dt / $1, ($6 - $5) / dt / $2 }'
}
