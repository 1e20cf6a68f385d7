#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The documentation holds together: README.md stays short (at most 12 KiB)
# and names the two commands; every relative link of README.md, docs/*.md
# and bench/README.md names a file of the tree; and the word "seed" means
# only the bootstrap's random seed (compare --seed) or a random generator's
# seed. Fails naming each problem; and the check fails on a tree with one.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "python3 is missing (Debian package python3)"

# problems ROOT: one line per problem of the tree at ROOT.
problems() {
	(cd "$1" && if git rev-parse --git-dir >/dev/null 2>&1; then
		git ls-files -co --exclude-standard
	else
		find . -type f ! -path './build/*' ! -path './.git/*' | sed 's|^\./||'
	fi) | python3 -c '
import os, re, sys
root = sys.argv[1]
files = [f for f in sys.stdin.read().split("\n") if f and os.path.isfile(os.path.join(root, f))]
def text(f):
    with open(os.path.join(root, f), encoding="utf-8", errors="replace") as h:
        return h.read()
size = os.path.getsize(os.path.join(root, "README.md"))
if size > 12288:
    print(f"README.md: {size} bytes, more than 12288")
for cmd in ("./run.sh", "make check"):
    if cmd not in text("README.md"):
        print(f"README.md: does not name `{cmd}`")
# relative links: [text](target), outside code blocks and code spans
docs = [f for f in files if f == "README.md" or f == "bench/README.md"
        or (f.startswith("docs/") and f.endswith(".md"))]
link = re.compile(r"\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")
for f in sorted(docs):
    code = False
    for n, line in enumerate(text(f).split("\n"), 1):
        if line.lstrip().startswith("```"):
            code = not code
        if code:
            continue
        for t in link.findall(re.sub(r"`[^`]*`", "", line)):
            if re.match(r"[a-z]+:", t) or t.startswith("#"):
                continue
            p = os.path.normpath(os.path.join(os.path.dirname(f), t.split("#")[0]))
            if p.startswith("..") or not os.path.exists(os.path.join(root, p)):
                print(f"{f}:{n}: links to {t}, which is not a file of the tree")
# a code block marked <!-- quoted from PATH --> is PATH'"'"'s own text (its
# lines in a row, leading blanks aside): a quote that drifts from the
# code fails, as extending.md'"'"'s OPT_BOOL once did. A C block is always
# such a quote, of a file the build compiles: no C in the docs that no
# compiler sees (the skeletons in docs/skeletons/ are whole files)
for f in sorted(docs):
    lines = text(f).split("\n")
    for n, line in enumerate(lines, 1):
        if line.strip() == "```c" and (n < 2 or not re.match(r"\s*<!-- quoted from \S+ -->\s*$", lines[n - 2])):
            print(f"{f}:{n}: a C block that quotes no file (mark it <!-- quoted from PATH -->)")
        m = re.match(r"\s*<!-- quoted from (\S+) -->\s*$", line)
        if not m:
            continue
        src = m.group(1)
        if not os.path.isfile(os.path.join(root, src)):
            print(f"{f}:{n}: quotes {src}, which is not a file of the tree")
            continue
        if n >= len(lines) or not lines[n].lstrip().startswith("```"):
            print(f"{f}:{n}: the quote mark is not followed by a code block")
            continue
        block = []
        for l in lines[n + 1:]:
            if l.lstrip().startswith("```"):
                break
            block.append(l.strip())
        have = [l.strip() for l in text(src).split("\n")]
        if not any(have[i:i + len(block)] == block for i in range(len(have) - len(block) + 1)):
            print(f"{f}:{n}: the block quoted from {src} is not in it as written")
# "seed": numbered seeds anywhere; in prose (*.md) and in comments of code
# only on a line that says which random seed (bootstrap, --seed, random,
# a generator, R set.seed); a usage line placeholder SEED is allowed.
word = re.compile(r"\bseeds?\b", re.I)
numbered = re.compile(r"\bseeds?[\s-]*(?:0\d\d|\d{3})\b", re.I)
which = re.compile(r"bootstrap|--seed|random|\brng\b|generator|set\.seed", re.I)
me = "check/integration/86-doc-links.sh"
for f in files:
    kind = os.path.splitext(f)[1]
    if f == me or kind not in (".md", ".c", ".h", ".sh", ".py", ".yaml", ".yml", ".in"):
        continue
    for n, line in enumerate(text(f).split("\n"), 1):
        if not word.search(line):
            continue
        if numbered.search(line):
            print(f"{f}:{n}: a numbered seed: {line.strip()}")
            continue
        if kind == ".md":
            part = line
        elif kind in (".c", ".h"):
            m = re.search(r"/\*|//|^\s*\*", line)
            part = line[m.start():] if m else ""
        else:
            m = re.search(r"(?:^|\s)#", line)
            part = line[m.start():] if m else ""
        part = re.sub(r"\bSEED\b", "", part)
        if word.search(part) and not which.search(line):
            print(f"{f}:{n}: \"seed\" not the bootstrap'"'"'s or a generator'"'"'s: {line.strip()}")
' "$1"
}

p=$(problems "$REPO")
[ -z "$p" ] || fail "the docs do not hold together:
$p"
# docs/extending.md (the walkthroughs) is written apart from these pages;
# README.md and docs/layout.md link it, and this line requires it.
[ -f "$REPO/docs/extending.md" ] || fail "no docs/extending.md (README.md and docs/layout.md link it)"
n=$(ls "$REPO"/docs/*.md | wc -l)
echo "ok: README.md is $(wc -c <"$REPO/README.md") bytes; the links of README.md, $n docs and bench/README.md resolve; \"seed\" is only a random seed"

# The check can fail: a copy of the docs with one fault at a time.
mkdir -p tree/docs tree/bench tree/results
cp "$REPO/README.md" tree/
cp "$REPO"/docs/*.md tree/docs/
cp "$REPO/bench/README.md" tree/bench/
# every file the copied pages link to, so that the copy itself passes
for f in results/SCHEMA.md results/COMPARE.md CHANGELOG.md cgroup-setup/README.md docs/extending.md; do
	mkdir -p "tree/$(dirname "$f")" && : >"tree/$f"
done
printf '/* SPDX-License-Identifier: GPL-2.0-or-later */\n/* the bootstrap seed */\nint seed;\n' >tree/a.c
p=$(problems tree)
[ -z "$p" ] || fail "a copy of the docs has problems: $p"
cp tree/README.md README.orig
head -c 13000 /dev/zero | tr '\0' x >>tree/README.md
problems tree | grep -q 'README.md: .* bytes, more than 12288' || fail "a 20 KB README.md passed"
cp README.orig tree/README.md
printf '\nSee [the gone page](docs/gone.md).\n' >>tree/README.md
problems tree | grep -q 'links to docs/gone.md' || fail "a link to a missing page passed"
cp README.orig tree/README.md
printf 'A question of seed 003.\n' >>tree/docs/running.md
problems tree | grep -q 'docs/running.md:.*numbered seed' || fail "a numbered seed in the docs passed"
printf '/* SPDX-License-Identifier: GPL-2.0-or-later */\nint x; /* the seed reports */\n' >tree/b.c
problems tree | grep -q 'b.c:2:' || fail "a seed that is no random seed in a comment passed"
mkdir -p tree/lib && printf 'int a_line(void);\nint another(void);\n' >tree/lib/util.h
printf '\n<!-- quoted from lib/util.h -->\n```c\nint a_line(void);\n  int another(void);\n```\n' >>tree/docs/running.md
p=$(problems tree | grep -v 'seed')
[ -z "$p" ] || fail "a quote as written (leading blanks aside) failed: $p"
printf '\n<!-- quoted from lib/util.h -->\n```c\nint a_line(void);\nint no_such_line(void);\n```\n' >>tree/docs/running.md
p=$(problems tree)
echo "$p" | grep -q 'docs/running.md:.*the block quoted from lib/util.h is not in it as written' ||
	fail "a quoted block that drifted from its file passed"
printf '\nA snippet:\n\n```c\nint nowhere(void);\n```\n' >>tree/docs/running.md
p=$(problems tree)
echo "$p" | grep -q 'docs/running.md:.*a C block that quotes no file' ||
	fail "a C block in the docs that quotes no file passed"
echo "ok: the check fails on a long README, a broken link, a stray seed, a quote that drifted and C that quotes no file"
