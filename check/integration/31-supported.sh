#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 31-supported.sh - what this box can do, said before anything runs
# (the supported hooks of the workloads and observers):
#   - `cgscale list` gives each workload HERE yes or no, a no with the
#     reason on the next line, and each observer with what turns it on,
#     HERE and how or why not;
#   - what it says agrees with the box where the box can be read
#     directly: psi with /proc/pressure/memory;
#   - a workload it calls unsupported is named by `run --dry-run` with the
#     reason, and a run skips its points with that reason; one it calls
#     supported is not;
#   - the same in a network namespace of its own (unshare -n, as root),
#     where the loopback is down: a box on which sendfile cannot run, so
#     the skip is seen whatever this box is.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "no jq"
# check_box [PREFIX...]: list, dry-run and run under PREFIX agree;
# $skipped counts the tests they skip
check_box() {
	in="$*"
	skipped=0
	$in "$CGSCALE" list >list.txt 2>err.txt || fail "list: $(cat err.txt)"
	head -n 1 list.txt | grep -q '^TEST .* HERE DESCRIPTION$' || fail "list has no HERE column: $(head -n 1 list.txt)"
	# workload NAME HERE, and the reason of a no
	awk 'NR > 1 && /^$/ { exit } NR > 1 && /^[a-z]/ { name = $1; line = $0; next }
		name && /not here: / { sub(/^ *not here: /, ""); print name "\t" $0; name = ""; next }' list.txt >reasons.txt
	awk 'NR > 1 && /^$/ { exit } NR > 1 && /^[a-z]/ { print $1 }' list.txt >workloads.txt
	[ "$(wc -l <workloads.txt)" -ge 7 ] || fail "list names $(wc -l <workloads.txt) workloads"
	while read -r w; do
		here=$(awk -v w="$w" '$1 == w { for (i = 2; i <= NF; i++) if ($i == "yes" || $i == "no") { print $i; exit } }' list.txt)
		case $here in
		yes) grep -q "^$w	" reasons.txt && fail "$w is yes with a reason" ;;
		no) grep -q "^$w	." reasons.txt || fail "$w is not supported, and list gives no reason" ;;
		*) fail "$w has no HERE yes or no: $(grep "^$w " list.txt)" ;;
		esac
	done <workloads.txt
	# the observers: every one, HERE yes or no
	sed -n '/^OBSERVER /,$p' list.txt >obs.txt
	[ "$(wc -l <obs.txt)" -ge 9 ] || fail "list shows $(($(wc -l <obs.txt) - 1)) observers: $(cat obs.txt)"
	for o in "perf counters" profile vmstat psi account trace; do
		grep -q "^$o  *[^ ].* \(yes\|no\) " obs.txt || grep -q "^$o  *[^ ].* \(yes\|no\)$" obs.txt ||
			fail "observer $o has no HERE: $(grep "^$o" obs.txt)"
	done
	# psi against the box
	if head -n 1 /proc/pressure/memory 2>/dev/null | grep -q '^some .*total='; then want=yes; else want=no; fi
	grep -q "^psi  *--psi  *$want\b" obs.txt || fail "list says psi $(grep '^psi ' obs.txt), /proc/pressure/memory says $want"
	# each test: dry-run and a run say the same as list
	skipped=0
	while read -r w; do
		$in "$CGSCALE" run --dry-run -t 1 -d 0.2 -i 0.1 "$w" </dev/null >dry.txt 2>&1 || fail "dry-run $w: $(tail -n 3 dry.txt)"
		why=$(awk -F '\t' -v w="$w" '$1 == w { print $2 }' reasons.txt)
		if [ -z "$why" ]; then
			grep -q "is not supported here" dry.txt && fail "dry-run calls $w unsupported, list does not: $(grep 'not supported' dry.txt)"
			continue
		fi
		grep -q -F "$w is not supported here, so its points will be SKIPPED: $why" dry.txt ||
			fail "dry-run does not say that $w is not supported: $(grep -i support dry.txt)"
		$in "$CGSCALE" run -q -t 1 -d 0.2 -i 0.1 -o "$w.json" "$w" </dev/null >/dev/null 2>run.err
		jq -e --arg r "not supported here: $why" '[.points[] | .status == "skipped" and .reason == $r] | all' "$w.json" >/dev/null ||
			fail "$w's points are not skipped with the reason: $(jq -c '[.points[] | [.status, .reason]]' "$w.json")"
		skipped=$((skipped + 1))
	done <workloads.txt
}
check_box
[ $skipped = 0 ] || echo "ok: $skipped tests are not supported on this box, and their points were skipped with the reason"
if [ "$(id -u)" = 0 ] && unshare -n true 2>/dev/null; then
	check_box unshare -n
	grep -q '^sendfile	no usable loopback address' reasons.txt ||
		fail "with no loopback, list does not call sendfile unsupported: $(grep -A 1 '^sendfile' list.txt)"
	[ $skipped -gt 0 ] || fail "with no loopback, nothing was skipped"
	echo "ok: in a network namespace without loopback, sendfile is not supported, and its points were skipped with the reason"
else
	not_here "no unshare -n (not root?): a box without loopback was not tried"
fi
echo "ok: list, dry-run and run agree on what the box can run; psi is $want here"
done_here
