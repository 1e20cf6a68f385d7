#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 05-layers.sh - the layer check (check/layers.py) passes on our tree,
# and fails, naming the file and line or the pair, on a tree with an
# upward include, a sideways include, two headers that include each
# other, and two objects that call each other.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "python3 is missing (scripts/deps.sh test installs it)"
L="$REPO/check/layers.py"

out=$(python3 "$L" --root "$REPO" --objs "$REPO/build/rel" 2>&1) ||
	fail "our own tree breaks the layers: $out"

# A bad tree: lib/ including results/, results/ including runner/,
# tests/ including cgroup-setup/ (sideways), two lib headers including
# each other.
mkdir -p bad/lib bad/results bad/runner bad/tests bad/cgroup-setup objs/lib
printf '#include "../results/res.h"\n' > bad/lib/util.c
printf '/* a comment */\n#include "../runner/run.h"\n' > bad/results/res.h
: > bad/runner/run.h
printf '#include "../cgroup-setup/cg.h"\n' > bad/tests/w.c
: > bad/cgroup-setup/cg.h
printf '#include "b.h"\n' > bad/lib/a.h
printf '#include "a.h"\n' > bad/lib/b.h
# Two objects that call each other (no include between them).
printf 'int g(void); int f(void) { return g(); }\n' > f.c
printf 'int f(void); int g(void) { return f() + 1; }\n' > g.c
cc -c -o objs/lib/f.o f.c && cc -c -o objs/lib/g.o g.c || fail "cc failed"

python3 "$L" --root bad --objs objs > out.txt 2>&1
rc=$?
[ $rc -eq 1 ] || fail "a bad tree gave exit $rc, not 1: $(cat out.txt)"
for want in 'lib/util.c:1: includes results/res.h (upward' \
	    'results/res.h:2: includes runner/run.h (upward' \
	    'tests/w.c:1: includes cgroup-setup/cg.h (sideways' \
	    'files include each other: lib/a.h <-> lib/b.h' \
	    'files call each other: lib/f.c <-> lib/g.c'; do
	grep -qF "$want" out.txt || fail "missing '$want' in: $(cat out.txt)"
done
# No objects given: the include rules still hold, the call check is off.
python3 "$L" --root bad > out2.txt 2>&1 && fail "the include check alone passed a bad tree"
grep -q 'call each other' out2.txt && fail "calls checked without objects"
echo "layers: ok on our tree, and 5 faults found in a bad one"
