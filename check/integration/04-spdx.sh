#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every source file names its license in an SPDX line within its first
# three lines: C sources and headers, shell and Python, the other scripts
# (a #! line), the Makefile, debian/rules and the man page templates.
# Fails naming each file that lacks one; and the check fails on a tree
# with such a file.
. "$(dirname "$0")/lib.sh"

# The files under $1 that should carry the line and do not.
missing() {
	(
	cd "$1" || exit 1
	if git rev-parse --git-dir >/dev/null 2>&1; then
		git ls-files -co --exclude-standard
	else
		find . -type f ! -path './build/*' ! -path './.git/*' | sed 's|^\./||'
	fi | while read -r f; do
		[ -f "$f" ] || continue
		case "$f" in
		check/fuzz/corpus/*) continue ;;
		*.c | *.h | *.sh | *.py | *.in | Makefile | debian/rules) ;;
		*) head -c 2 "$f" | grep -q '^#!' || continue ;;
		esac
		head -n 3 "$f" | grep -q 'SPDX-License-Identifier: GPL-2.0-or-later' || echo "$f"
	done
	)
}

m=$(missing "$REPO")
[ -z "$m" ] || fail "no SPDX-License-Identifier line in:" $m
n=$(cd "$REPO" && git ls-files 2>/dev/null | grep -c -e '\.[ch]$' -e '\.sh$' -e '\.py$')
echo "ok: every source file has its SPDX line ($n .c/.h/.sh/.py files)"

# The check can fail.
mkdir -p tree/sub
printf '/* SPDX-License-Identifier: GPL-2.0-or-later */\nint a;\n' >tree/a.c
printf '/*\n * b.c - no license line\n */\nint b;\n' >tree/sub/b.c
printf '#!/bin/sh\necho hi\n' >tree/tool
printf '#!/bin/sh\n# SPDX-License-Identifier: GPL-2.0-or-later\necho hi\n' >tree/ok.sh
printf 'no line, not a source file\n' >tree/notes.txt
[ "$(missing tree | sort | tr '\n' ' ')" = "sub/b.c tool " ] ||
	fail "on a test tree the check found '$(missing tree | tr '\n' ' ')', not 'sub/b.c tool'"
