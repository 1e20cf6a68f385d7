#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 05-layers.sh - the layer check (check/layers.py) passes on our tree,
# and fails, naming the file and line or the pair, on a tree with an
# upward include, a sideways include (between top-level layers and between
# the rooms of results/), a "../" include, a file outside any room, two
# headers that include each other, a call against a room's direction and
# two objects that call each other.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "python3 is missing (scripts/deps.sh test installs it)"
L="$REPO/check/layers.py"

out=$(python3 "$L" --root "$REPO" --objs "$REPO/build/rel" 2>&1) ||
	fail "our own tree breaks the layers: $out"

# A bad tree: lib/ including results/ (upward), results/model/ including
# runner/ and results/compare/ (upward), results/export/ including
# results/report/ (sideways between rooms), tests/ including
# cgroup-setup/ (sideways), a "../" include, a file outside any room, two
# lib headers including each other.
mkdir -p bad/lib bad/results/model bad/results/compare bad/results/export \
	bad/results/report bad/results/stats bad/runner/run bad/tests bad/cgroup-setup \
	objs/lib objs/results/stats objs/results/model
printf '#include "results/model/result.h"\n' > bad/lib/util.c
printf '/* a comment */\n#include "runner/run/run.h"\n#include "results/compare/model.h"\n' \
	> bad/results/model/result.h
: > bad/runner/run/run.h
: > bad/results/compare/model.h
: > bad/results/report/document.h
printf '#include "results/compare/model.h"\n#include "results/report/document.h"\n' \
	> bad/results/export/export.c
printf '#include "cgroup-setup/cg.h"\n#include "../lib/a.h"\n' > bad/tests/w.c
: > bad/cgroup-setup/cg.h
: > bad/results/loose.c
printf '#include "lib/b.h"\n' > bad/lib/a.h
printf '#include "lib/a.h"\n' > bad/lib/b.h
# Two objects that call each other (no include between them), and a
# statistics object that calls up into the model.
printf 'int g(void); int f(void) { return g(); }\n' > f.c
printf 'int f(void); int g(void) { return f() + 1; }\n' > g.c
printf 'int res_up(void); int st_x(void) { return res_up(); }\n' > st.c
printf 'int res_up(void) { return 1; }\n' > res.c
cc -c -o objs/lib/f.o f.c && cc -c -o objs/lib/g.o g.c &&
	cc -c -o objs/results/stats/st.o st.c && cc -c -o objs/results/model/res.o res.c ||
	fail "cc failed"

python3 "$L" --root bad --objs objs > out.txt 2>&1
rc=$?
[ $rc -eq 1 ] || fail "a bad tree gave exit $rc, not 1: $(cat out.txt)"
for want in 'lib/util.c:1: includes results/model/result.h (upward' \
	    'results/model/result.h:2: includes runner/run/run.h (upward' \
	    'results/model/result.h:3: includes results/compare/model.h (upward' \
	    'results/export/export.c:2: includes results/report/document.h (sideways' \
	    'tests/w.c:1: includes cgroup-setup/cg.h (sideways' \
	    'tests/w.c:2: includes "../lib/a.h" (includes are root-relative' \
	    'results/loose.c: not in a room' \
	    'files include each other: lib/a.h <-> lib/b.h' \
	    'results/stats/st.c calls res_up() of results/model/res.c (upward' \
	    'files call each other: lib/f.c <-> lib/g.c'; do
	grep -qF "$want" out.txt || fail "missing '$want' in: $(cat out.txt)"
done
grep -q 'export.c:1:' out.txt && fail "export/ may include compare/, but was flagged: $(cat out.txt)"
# No objects given: the include rules still hold, the call check is off.
python3 "$L" --root bad > out2.txt 2>&1 && fail "the include check alone passed a bad tree"
grep -q 'call each other' out2.txt && fail "calls checked without objects"
echo "layers: ok on our tree, and 10 faults found in a bad one"
