#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 07-files-lint.sh - the safe-path check (check/files-lint.py) passes on
# our tree, and fails, naming the file and line, on a scratch copy of it
# with a planted fopen(..., "w"), an open() with O_CREAT, an unlink(), a
# rename(), a mkdir() and a waiver without a reason; a waiver with its
# reason, a read-only fopen and calls in comments and strings pass.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "python3 is missing (scripts/deps.sh test installs it)"
L="$REPO/check/files-lint.py"

out=$(python3 "$L" --root "$REPO" 2>&1) || fail "our own tree breaks the safe path: $out"
echo "$out"

for d in lib tests cgroup-setup results runner; do
	cp -r "$REPO/$d" "$T/$d" || fail "cannot copy $d"
done
cat >>"$T/results/export/export.c" <<'C'
static int planted(const char *p)
{
	FILE *f = fopen(p, "w");
	int fd = open(p,
		      O_WRONLY | O_CREAT, 0644);

	unlink(p);
	rename(p, "x");
	mkdir(p, 0700);   /* safe-path: */
	fclose(f);
	return fd;
}
static int fine(const char *p)
{
	FILE *f = fopen(p, "re");   /* unlink(p) in a comment */
	const char *s = "rename(a, b) in a string";

	mkdir(p, 0700);   /* safe-path: a reason given in words */
	return f && s ? 0 : -1;
}
C
n=$(wc -l <"$REPO/results/export/export.c")
python3 "$L" --root "$T" >out.txt 2>&1
rc=$?
[ $rc -eq 1 ] || fail "a planted tree gave exit $rc, not 1: $(cat out.txt)"
for want in "results/export/export.c:$((n + 3)): fopen(..., \"w\")" \
	    "results/export/export.c:$((n + 4)): open() with O_CREAT" \
	    "results/export/export.c:$((n + 7)): unlink()" \
	    "results/export/export.c:$((n + 8)): rename()" \
	    "results/export/export.c:$((n + 9)): mkdir()" \
	    "files-lint: 5 call(s)"; do
	grep -qF "$want" out.txt || fail "missing '$want' in: $(cat out.txt)"
done
[ "$(grep -c "^results/export/export.c:" out.txt)" -eq 5 ] ||
	fail "the fine calls were flagged too: $(cat out.txt)"
echo "files-lint: ok on our tree, and 5 planted calls found in a scratch copy"
