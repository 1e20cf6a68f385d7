#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""sizes.py - the house's sizes: no C file (source or header, the tests'
too) over MAX_LINES lines, and no function over MAX_FUNC lines between its
braces. A function is a '{' alone in column 0 after its signature, ended by
the first '}' in column 0. Prints each file and function at fault with its
size; exit 0 when none, 1 when some, 2 on bad usage.

usage: sizes.py [--root DIR]   (the files of DIR: git's, else every *.c/*.h
                                 below lib tests cgroup-setup results runner
                                 check docs/skeletons bench)
"""
import os
import re
import subprocess
import sys

MAX_LINES = 500
MAX_FUNC = 60
TOPS = ("lib", "tests", "cgroup-setup", "results", "runner", "check", "docs", "bench")
SIG = re.compile(r"^[A-Za-z_].*\(")


def files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-co", "--exclude-standard",
                              "*.c", "*.h"], capture_output=True, text=True, check=True).stdout
        names = [n for n in out.split("\n") if n and n.split("/")[0] in TOPS]
        if names:
            return names
    except (OSError, subprocess.CalledProcessError):
        pass
    found = []
    for top in TOPS:
        for d, _, ns in os.walk(os.path.join(root, top)):
            found += [os.path.relpath(os.path.join(d, n), root) for n in ns if n.endswith((".c", ".h"))]
    return sorted(found)


def problems(root):
    for rel in files(root):
        path = os.path.join(root, rel)
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        if len(lines) > MAX_LINES:
            yield f"{rel}: {len(lines)} lines (at most {MAX_LINES})"
        i = 0
        while i < len(lines):
            if lines[i] == "{":
                j = i - 1
                while j >= 0 and not SIG.match(lines[j]):
                    j -= 1
                k = i + 1
                while k < len(lines) and not lines[k].startswith("}"):
                    k += 1
                if k - i - 1 > MAX_FUNC:
                    name = lines[j].strip() if j >= 0 else "?"
                    yield f"{rel}:{i + 1}: a function of {k - i - 1} lines (at most {MAX_FUNC}): {name}"
                i = k
            i += 1


def main(argv):
    root = "."
    if len(argv) == 3 and argv[1] == "--root":
        root = argv[2]
    elif len(argv) != 1:
        print(__doc__.strip().split("\n\n")[-1], file=sys.stderr)
        return 2
    bad = list(problems(root))
    for p in bad:
        print(p)
    if not bad:
        print(f"sizes: ok ({len(files(root))} files: none over {MAX_LINES} lines, no function over {MAX_FUNC})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
