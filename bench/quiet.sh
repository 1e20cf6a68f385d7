# SPDX-License-Identifier: GPL-2.0-or-later
# quiet.sh - sourced by the model comparisons: wait for a quiet machine.
#
# QUIET=CPUS (e.g. 0.1): before each run, wait until the whole machine was
# busy (user+nice+system+irq+softirq+steal in /proc/stat) with less than
# CPUS over 2 s, for at most QUIET_WAIT seconds (default 300); otherwise
# the run goes ahead and its row says "busy". Unset: no wait. Prints the
# busy CPUs it last saw.
busy_cpus() {
	a=$(head -n 1 /proc/stat)
	sleep 2
	b=$(head -n 1 /proc/stat)
	printf '%s\n%s\n' "$a" "$b" | awk -v n="$(nproc)" '
		{ busy = $2 + $3 + $4 + $7 + $8 + $9; all = busy + $5 + $6 }
		NR == 1 { b1 = busy; a1 = all }
		NR == 2 { printf "%.2f\n", (all > a1) ? n * (busy - b1) / (all - a1) : 0 }'
}

wait_quiet() {
	[ -n "${QUIET:-}" ] || { echo "-"; return 0; }
	end=$(( $(date +%s) + ${QUIET_WAIT:-300} ))
	while :; do
		b=$(busy_cpus)
		if awk -v b="$b" -v q="$QUIET" 'BEGIN { exit !(b < q) }'; then
			echo "$b"
			return 0
		fi
		[ "$(date +%s)" -lt "$end" ] || { echo "busy:$b"; return 0; }
	done
}
