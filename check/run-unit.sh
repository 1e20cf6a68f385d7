#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# run-unit.sh - run each unit test binary given (normal and ASan+UBSan
# builds); print one line per binary and fail if any failed.
fail=0
pass=0
for t in "$@"; do
	out=$("$t" 2>&1)
	rc=$?
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1))
		echo "ok      unit $t"
	else
		fail=$((fail + 1))
		echo "FAILED  unit $t (exit $rc)"
		printf '%s\n' "$out" | sed 's/^/        /'
	fi
done
echo "unit tests: $pass passed, $fail failed"
[ $fail -eq 0 ]
