#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 06-opt-types.sh - the option rows of lib/opt.h check their field's type
# at compile time: a one-row table whose field is not the row's type
# (a bool in OPT_INT, ...) fails to compile with the static assertion's
# text, and a table with the right type for every kind of row compiles,
# with $CC (default cc) and, where it is installed, with clang too, under
# the project's flags.
. "$(dirname "$0")/lib.sh"
CC=${CC:-cc}
command -v "$CC" >/dev/null || skip "no C compiler ($CC)"
compilers=$CC
[ "$CC" != clang ] && command -v clang >/dev/null && compilers="$CC clang"

cat >fields.h <<'H'
#include <stdbool.h>
#include <stdint.h>
#include "lib/opt.h"
struct o {
	bool b;
	int64_t i;
	int e;
	double d;
	char *s;
	struct cgs_strlist l;
};
#define TO struct o
static const char *const names[] = { "x", NULL };
static const struct cgs_opt_key keys[] = { { "auto", -1 }, { NULL, 0 } };
H
cat >good.c <<'C'
#include "fields.h"
const struct cgs_opt good[] = {
	OPT_BOOL("b", 'b', TO, b, .help = "h"),
	OPT_INT("i", 0, TO, i, .min = 0, .max = 9, .help = "h"),
	OPT_DURATION("t", 0, TO, i, .help = "h"),
	OPT_SIZE("z", 0, TO, i, .help = "h"),
	OPT_INT_OR("k", 0, TO, i, .keys = keys, .help = "h"),
	OPT_ENUM("e", 0, TO, e, .choices = names, .help = "h"),
	OPT_NUMBER("d", 0, TO, d, .dmax = 1, .help = "h"),
	OPT_STRING("s", 0, TO, s, .help = "h"),
	OPT_OPTSTR("p", 0, TO, s, .help = "h"),
	OPT_STRLIST("l", 0, TO, l, .help = "h"),
};
C
# ROW FIELD WANT: a row of kind ROW on a field of the wrong type
bad() {
	printf '#include "fields.h"\nconst struct cgs_opt bad[] = { %s("x", 0, TO, %s, .help = "h") };\n' \
		"$1" "$2" >bad.c
	for cc in $compilers; do
		$cc -std=gnu11 -Wall -Wextra -Werror -I"$REPO" -c -o bad.o bad.c 2>err.txt &&
			fail "$cc compiled $1 on field $2 (a $3 row)"
		grep -q "option field $2 is not $3" err.txt ||
			fail "$cc: $1 on $2 failed without the assertion's text: $(head -5 err.txt)"
	done
}
for cc in $compilers; do
	$cc -std=gnu11 -Wall -Wextra -Werror -I"$REPO" -c -o good.o good.c 2>err.txt ||
		fail "$cc: the right types do not compile: $(head -5 err.txt)"
done
bad OPT_INT b int64_t
bad OPT_BOOL i bool
bad OPT_ENUM i int
bad OPT_INT_OR e int64_t
bad OPT_NUMBER i double
bad OPT_STRING e "char \*"
bad OPT_STRLIST s "struct cgs_strlist"
bad OPT_DURATION d int64_t
exit 0
