#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 08-sizes.sh - the house's sizes (check/sizes.py): no C file over 500
# lines and no function over 60 in our tree; and on a scratch tree, a
# file of 501 lines and a function of 61 are named, while a function of
# 60 and a struct initializer of any length pass.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "python3 is missing (scripts/deps.sh test installs it)"
S="$REPO/check/sizes.py"
out=$(python3 "$S" --root "$REPO" 2>&1) || fail "our tree: $out"
echo "$out"

mkdir -p tree/lib
{
	echo 'int long_one(void)'
	echo '{'
	i=0; while [ $i -lt 61 ]; do echo '	x++;'; i=$((i + 1)); done
	echo '}'
	echo 'int just_so(void)'
	echo '{'
	i=0; while [ $i -lt 60 ]; do echo '	x++;'; i=$((i + 1)); done
	echo '}'
	echo 'static const int table[] = {'
	i=0; while [ $i -lt 80 ]; do echo '	1,'; i=$((i + 1)); done
	echo '};'
} >tree/lib/a.c
i=0; while [ $i -lt 501 ]; do echo '/* a line */'; i=$((i + 1)); done >tree/lib/b.h
out=$(python3 "$S" --root tree) && fail "a 61-line function and a 501-line file passed: $out"
echo "$out" | grep -q 'lib/a.c:2: a function of 61 lines .*long_one' || fail "the 61-line function was not named: $out"
echo "$out" | grep -q 'just_so' && fail "a 60-line function was named: $out"
echo "$out" | grep -q 'table' && fail "a struct initializer was taken for a function: $out"
echo "$out" | grep -q 'lib/b.h: 501 lines' || fail "the 501-line file was not named: $out"
echo "ok: the check names a 61-line function and a 501-line file, and passes 60 lines and an initializer"
