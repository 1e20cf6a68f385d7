# SPDX-License-Identifier: GPL-2.0-or-later
# pairs.sh - sourced by the cost benches: two variants of one cgscale run
# at the same time, side by side, one bound to each of two CPUs, and swapped
# every round. Whatever else a shared machine does in a round then hits
# both alike, which run-after-run interleaving cannot give on a box whose
# throughput drifts by 10% from one run to the next; the swap cancels any
# difference between the two CPUs. Each side is a 1-task point with its
# sampler on its own CPU (every CPU it may use has a task), in the caller's
# cgroup. For a cost of the tasks' own path (counters, events); not for
# the sampler's placement, which needs the CPU the other side takes.
#
#   pair_compare ROUNDS TEST "COMMON OPTIONS" NAME_A "OPTIONS_A" NAME_B "OPTIONS_B"
# prints every round and "NAME_B / NAME_A: median ratio [95% CI] range"
# of ops/s (the CI from order statistics, none below 6 rounds).
# Needs $CGSCALE, jq, taskset and 2 CPUs (else says why and returns 1).

pair_cpus() {   # the first two CPUs this shell may use
	taskset -c -p $$ | sed 's/.*: //' | tr ',' '\n' | while IFS=- read -r a b; do
		seq "$a" "${b:-$a}"
	done | head -n 2 | tr '\n' ' '
}

pair_compare() {
	_r=$1 _test=$2 _common=$3 _na=$4 _oa=$5 _nb=$6 _ob=$7
	command -v taskset >/dev/null || { echo "pairs: skipped: needs taskset (util-linux)"; return 1; }
	set -- $(pair_cpus)
	[ $# -ge 2 ] || { echo "pairs: skipped: needs 2 CPUs, this shell may use $#"; return 1; }
	_c0=$1 _c1=$2
	_d=$(mktemp -d)
	: >"$_d/rows"
	for _k in $(seq "$_r"); do
		if [ $((_k % 2)) = 1 ]; then _ca=$_c0 _cb=$_c1; else _ca=$_c1 _cb=$_c0; fi
		# shellcheck disable=SC2086
		taskset -c "$_ca" "$CGSCALE" run -q -t 1 --cgroup-depth 0 $_common $_oa \
			-o "$_d/a.json" "$_test" >/dev/null 2>"$_d/a.err" &
		_pa=$!
		# shellcheck disable=SC2086
		taskset -c "$_cb" "$CGSCALE" run -q -t 1 --cgroup-depth 0 $_common $_ob \
			-o "$_d/b.json" "$_test" >/dev/null 2>"$_d/b.err" &
		_pb=$!
		wait $_pa || { cat "$_d/a.err"; rm -rf "$_d"; return 1; }
		wait $_pb || { cat "$_d/b.err"; rm -rf "$_d"; return 1; }
		_a=$(jq -r '.points[0].summary.total_ops_per_sec' "$_d/a.json")
		_b=$(jq -r '.points[0].summary.total_ops_per_sec' "$_d/b.json")
		echo "$_k $_a $_b" >>"$_d/rows"
		printf '  round %2d: %s on CPU %s %10.0f ops/s, %s on CPU %s %10.0f ops/s, x%.4f\n' \
			"$_k" "$_na" "$_ca" "$_a" "$_nb" "$_cb" "$_b" "$(echo "$_b $_a" | awk '{ print $1 / $2 }')"
	done
	awk -v na="$_na" -v nb="$_nb" '
	{ k++; r[k] = $3 / $2 }
	END { for (i = 2; i <= k; i++) { x = r[i]
			for (j = i - 1; j >= 1 && r[j] > x; j--) r[j+1] = r[j]; r[j+1] = x }
		med = k % 2 ? r[(k+1)/2] : (r[k/2] + r[k/2+1]) / 2
		# the largest j with P(Binomial(k, 1/2) < j) <= 0.025
		cum = 0; j = 0; p = 0.5 ^ k
		while (cum + p <= 0.025) { cum += p; j++; p = p * (k - j + 1) / j }
		ci = j >= 1 ? sprintf("[CI %.4f-%.4f]", r[j], r[k + 1 - j]) : "[no CI]"
		printf "  %s / %s, side by side: median x%.4f %s, range %.4f-%.4f (%d rounds)\n",
			nb, na, med, ci, r[1], r[k], k }' "$_d/rows"
	rm -rf "$_d"
}
