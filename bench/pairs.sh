# SPDX-License-Identifier: GPL-2.0-or-later
# pairs.sh - sourced by the benches that compare two runs at the same time
# (the cost benches, bench/vs-will-it-scale, bench/launch-order). Whatever
# else a shared machine does in a round then hits both sides alike, which
# run-after-run interleaving cannot give on a box whose throughput drifts
# by 10% from one run to the next. The method, in pieces:
#
#   pair_cpus                   the first two CPUs this shell may use
#   pair_spawn CPU OUT ERR CMD  start CMD under `taskset -c CPU` (cgscale
#                               honours the mask; run will-it-scale with
#                               -n so that its tasks inherit it), stopped
#                               before it runs; PAIR_PID is its pid
#   pair_release PID PID        one `kill -CONT` for both, in that order:
#                               their windows start together
#   pair_cpu_ns PID             CPU time (ns) of PID, its threads and its
#                               descendants, from /proc/PID/task/*/schedstat
#   PAIR_AWK                    awk functions: sort, med, and ci (the
#                               distribution-free 95% CI of the median from
#                               order statistics; "[no CI]" below 6) and
#                               flag (a CI wholly outside 1.00 +- 0.02)
#
#   pair_compare ROUNDS TEST "COMMON OPTIONS" NAME_A "OPTIONS_A" NAME_B "OPTIONS_B"
# runs two variants of one 1-task cgscale run at the same time, one bound
# to each of two CPUs (checked in each result: tasks_detail[0].cpuset),
# both released by one signal; the CPUs swap every two rounds and the
# launch order every round, so neither lines up with a side. Each side is
# in the caller's cgroup, its sampler unbound on its own CPU (the only
# one it may use). It prints every round and "NAME_B / NAME_A: median
# ratio [95% CI] range" of ops/s and of the tasks' CPU time per op
# (schedstat, over the measured window less 0.5 s, or a quarter of it, at
# each end), and the
# launch order's own effect (first-released / second-released ops/s). For
# a cost of the tasks' own path (counters, events); not for the sampler's
# placement, which needs the CPU the other side takes.
# PAIR_BIN_A and PAIR_BIN_B, where set, are the binaries of each side
# (two builds of cgscale; default $CGSCALE for both).
# Needs $CGSCALE, jq, taskset and 2 CPUs (else says why and returns 1).

PAIR_AWK='
function sort(v, k,   i, j, x) { for (i = 2; i <= k; i++) { x = v[i]
	for (j = i - 1; j >= 1 && v[j] > x; j--) v[j+1] = v[j]; v[j+1] = x } }
function med(v, k) { sort(v, k); return k % 2 ? v[(k+1)/2] : (v[k/2] + v[k/2+1]) / 2 }
# the largest j with P(Binomial(k, 1/2) < j) <= 0.025: [v_j, v_(k+1-j)]
function cij(k,   j, p, cum) { cum = 0; j = 0; p = 0.5 ^ k
	while (cum + p <= 0.025) { cum += p; j++; p = p * (k - j + 1) / j }
	return j }
function ci(v, k,   j) { sort(v, k); j = cij(k)
	return j >= 1 ? sprintf("[CI %.4f-%.4f]", v[j], v[k + 1 - j]) : "[no CI]" }
# "*" when the CI lies wholly outside 1.00 +- 0.02
function flag(v, k,   j) { sort(v, k); j = cij(k)
	return j >= 1 && (v[j] > 1.02 || v[k + 1 - j] < 0.98) ? "*" : "" }
'

pair_cpus() {   # the first two CPUs this shell may use
	taskset -c -p $$ | sed 's/.*: //' | tr ',' '\n' | while IFS=- read -r a b; do
		seq "$a" "${b:-$a}"
	done | head -n 2 | tr '\n' ' '
}

pair_spawn() {   # CPU OUT ERR CMD...
	_ps_cpu=$1 _ps_out=$2 _ps_err=$3
	shift 3
	sh -c 'kill -STOP $$; exec taskset -c "$0" "$@"' "$_ps_cpu" "$@" >"$_ps_out" 2>"$_ps_err" &
	PAIR_PID=$!
	until [ "$(sed 's/.*) //' "/proc/$PAIR_PID/stat" 2>/dev/null | cut -d' ' -f1)" = T ]; do
		kill -0 "$PAIR_PID" 2>/dev/null || return 1
		sleep 0.01
	done
}

pair_release() { kill -CONT "$@"; }

pair_cpu_ns() {   # PID
	# the tree under PID from every process's parent (no /proc/*/children here)
	_pc_tree=$(cat /proc/[0-9]*/stat 2>/dev/null |
		awk -v root="$1" '{ p = $1; sub(/.*\) /, ""); split($0, f, " "); if (p != "") up[p] = f[2] }
		END { in_[root] = 1; do { more = 0
			for (p in up) if (!(p in in_) && (up[p] in in_)) { in_[p] = 1; more = 1 } } while (more)
			for (p in in_) print p }')
	for _pc_p in $_pc_tree; do
		cat /proc/"$_pc_p"/task/*/schedstat 2>/dev/null
	done | awk '{ s += $1 } END { printf "%.0f\n", s }'
}

pair_secs() {   # a duration as cgscale takes it -> seconds
	case $1 in
	*ms) echo "${1%ms}" | awk '{ print $1 / 1000 }' ;;
	*us) echo "${1%us}" | awk '{ print $1 / 1e6 }' ;;
	*m) echo "${1%m}" | awk '{ print $1 * 60 }' ;;
	*s) echo "${1%s}" ;;
	*) echo "$1" ;;
	esac
}

# -w and -d of cgscale options -> "W D" seconds (defaults 2 and 5)
pair_window() {
	_pw_w=2 _pw_d=5
	while [ $# -gt 0 ]; do
		case $1 in
		-w | --warmup) _pw_w=$(pair_secs "$2"); shift ;;
		-d | --duration) _pw_d=$(pair_secs "$2"); shift ;;
		esac
		shift
	done
	echo "$_pw_w $_pw_d"
}

pair_compare() {
	_r=$1 _test=$2 _common=$3 _na=$4 _oa=$5 _nb=$6 _ob=$7
	command -v taskset >/dev/null || { echo "pairs: skipped: needs taskset (util-linux)"; return 1; }
	# shellcheck disable=SC2046
	set -- $(pair_cpus)
	[ $# -ge 2 ] || { echo "pairs: skipped: needs 2 CPUs, this shell may use $#"; return 1; }
	_c0=$1 _c1=$2
	# shellcheck disable=SC2046,SC2086
	set -- $(pair_window $_common)
	_w=$1 _dur=$2
	_d=$(mktemp -d)
	: >"$_d/rows"
	for _k in $(seq "$_r"); do
		# CPUs swap every two rounds, the launch order every round
		if [ $(((_k - 1) / 2 % 2)) = 0 ]; then _ca=$_c0 _cb=$_c1; else _ca=$_c1 _cb=$_c0; fi
		rm -f "$_d/a.json" "$_d/b.json"
		# shellcheck disable=SC2086
		pair_spawn "$_ca" /dev/null "$_d/a.err" "${PAIR_BIN_A:-$CGSCALE}" run -q -t 1 --cgroup-depth 0 $_common $_oa \
			-o "$_d/a.json" "$_test" || { cat "$_d/a.err"; rm -rf "$_d"; return 1; }
		_pa=$PAIR_PID
		# shellcheck disable=SC2086
		pair_spawn "$_cb" /dev/null "$_d/b.err" "${PAIR_BIN_B:-$CGSCALE}" run -q -t 1 --cgroup-depth 0 $_common $_ob \
			-o "$_d/b.json" "$_test" || { cat "$_d/b.err"; rm -rf "$_d"; return 1; }
		_pb=$PAIR_PID
		if [ $((_k % 2)) = 1 ]; then _first=a; pair_release "$_pa" "$_pb"
		else _first=b; pair_release "$_pb" "$_pa"; fi
		# the CPU time over the window less a margin at each end
		_e=$(echo "$_dur" | awk '{ print ($1 / 4 < 0.5 ? $1 / 4 : 0.5) }')
		sleep "$(echo "$_w $_e" | awk '{ print $1 + $2 }')"
		_t1=$(date +%s%N) _ua=$(pair_cpu_ns "$_pa") _ub=$(pair_cpu_ns "$_pb")
		sleep "$(echo "$_dur $_e" | awk '{ print $1 - 2 * $2 }')"
		_t2=$(date +%s%N) _va=$(pair_cpu_ns "$_pa") _vb=$(pair_cpu_ns "$_pb")
		wait "$_pa" || { cat "$_d/a.err"; rm -rf "$_d"; return 1; }
		wait "$_pb" || { cat "$_d/b.err"; rm -rf "$_d"; return 1; }
		_a=$(jq -r '.points[0].summary.total_ops_per_sec' "$_d/a.json")
		_b=$(jq -r '.points[0].summary.total_ops_per_sec' "$_d/b.json")
		[ "$(jq -r '.points[0].tasks_detail[0].cpuset' "$_d/a.json")" = "$_ca" ] &&
			[ "$(jq -r '.points[0].tasks_detail[0].cpuset' "$_d/b.json")" = "$_cb" ] ||
			{ echo "pairs: a side did not run on the CPU it was given: $(jq -r '.points[0].tasks_detail[0].cpuset' "$_d/a.json" "$_d/b.json" | tr '\n' ' ')"; rm -rf "$_d"; return 1; }
		# CPU ns per op: CPU share over the window / ops per second
		echo "$_k $_a $_b $_first $_ua $_va $_ub $_vb $_t1 $_t2" | awk '{ dt = ($10 - $9) / 1e9
			# a side gone before the second reading has no figure
			print $1, $2, $3, $4, ($6 > $5 ? ($6 - $5) / dt / $2 : "nan"),
				($8 > $7 ? ($8 - $7) / dt / $3 : "nan") }' >>"$_d/rows"
		tail -n 1 "$_d/rows" | awk -v na="$_na" -v nb="$_nb" -v ca="$_ca" -v cb="$_cb" '{
			printf "  round %2d: %s on CPU %s %10.0f ops/s %7s ns/op, %s on CPU %s %10.0f ops/s %7s ns/op, x%.4f (%s first)\n",
				$1, na, ca, $2, $5 == "nan" ? "-" : sprintf("%.1f", $5), nb, cb, $3,
				$6 == "nan" ? "-" : sprintf("%.1f", $6), $3 / $2, $4 == "a" ? na : nb }'
	done
	awk -v na="$_na" -v nb="$_nb" "$PAIR_AWK"'
	{ k++; r[k] = $3 / $2; o[k] = $4 == "a" ? $2 / $3 : $3 / $2
	  if ($5 != "nan" && $6 != "nan") c[++kc] = $6 / $5
	  lo = (k == 1 || r[k] < lo) ? r[k] : lo; hi = (k == 1 || r[k] > hi) ? r[k] : hi }
	END { for (i = 1; i <= k; i++) { r2[i] = r[i]; o2[i] = o[i] }
		for (i = 1; i <= kc; i++) c2[i] = c[i]
		printf "  %s / %s, side by side: ops/s median x%.4f %s%s, range %.4f-%.4f; CPU ns/op x%s %s (%d rounds)\n",
			nb, na, med(r, k), ci(r2, k), flag(r2, k), lo, hi,
			kc ? sprintf("%.4f", med(c, kc)) : "-", kc ? ci(c2, kc) : "", k
		printf "    launch order: first-released / second-released ops/s x%.4f %s\n", med(o, k), ci(o2, k) }' "$_d/rows"
	rm -rf "$_d"
}
