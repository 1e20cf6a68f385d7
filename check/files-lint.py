#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""files-lint.py - every file cgscale creates, removes or renames goes
through its one safe path, lib/safefile.c and lib/safedir.c (directory
descriptors, O_EXCL|O_NOFOLLOW, renames never over what is not ours).

It reads the shipped C sources (lib/, tests/, cgroup-setup/, results/,
runner/) with comments blanked and fails, with the file and line, on a
call of mkdir, mkdirat, rmdir, unlink, unlinkat, remove, rename, renameat,
renameat2, link, linkat, symlink, symlinkat, creat, mkfifo, mkfifoat,
mknod, mknodat, on open/openat/open64 with O_CREAT, and on fopen/freopen
with a mode that writes ("w", "a", "+") or that is not a string literal.
mkdtemp, mkstemp and O_TMPFILE make new, unguessable names and are fine.

A call that must stay (the cgroup file system, where only root makes
directories and there are no links) carries a waiver with its reason on
its line or the line above: /* safe-path: REASON */ with at least three
words of reason.

usage: files-lint.py [--root DIR]
Exit 0 when clean, 1 on a finding, 2 on bad usage.
"""
import os
import re
import sys

DIRS = ["lib", "tests", "cgroup-setup", "results", "runner"]
MODULE = {"lib/safefile.c", "lib/safedir.c"}
CALLS = ("mkdir mkdirat rmdir unlink unlinkat remove rename renameat renameat2 "
         "link linkat symlink symlinkat creat mkfifo mkfifoat mknod mknodat").split()
CALL_RE = re.compile(r"(?<![\w.>])(%s)\s*\(" % "|".join(CALLS))
OPEN_RE = re.compile(r"(?<![\w.>])(open|openat|open64)\s*\(")
FOPEN_RE = re.compile(r"(?<![\w.>])(fopen|freopen)\s*\(")
WAIVER_RE = re.compile(r"/\*\s*safe-path:\s*(.*?)\*/")


def blank_comments(text):
    """The text with comments turned to spaces (newlines kept); string
    and character literals kept as they are."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def blank_strings(code):
    """@code with the inside of each string and character literal turned
    to spaces (the same length, so positions hold)."""
    return re.sub(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'',
                  lambda m: m.group(0)[0] + " " * (len(m.group(0)) - 2) + m.group(0)[-1], code)


def args_of(code, start):
    """The text between the parenthesis at @start and its match."""
    depth, i = 0, start
    while i < len(code):
        if code[i] == "(":
            depth += 1
        elif code[i] == ")":
            depth -= 1
            if not depth:
                return code[start + 1:i]
        elif code[i] in "\"'":
            q, i = code[i], i + 1
            while i < len(code) and code[i] != q:
                i += 2 if code[i] == "\\" else 1
        i += 1
    return code[start + 1:]


def split_args(args):
    parts, depth, cur = [], 0, ""
    for ch in args:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and not depth:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    parts.append(cur.strip())
    return parts


def waived(lines, lineno):
    for ln in (lineno, lineno - 1):
        if 1 <= ln <= len(lines):
            m = WAIVER_RE.search(lines[ln - 1])
            if m and len(m.group(1).split()) >= 3:
                return True
    return False


def findings(path, rel):
    text = open(path, encoding="utf-8", errors="replace").read()
    code, lines, found = blank_comments(text), text.split("\n"), []
    bare = blank_strings(code)

    def add(pos, what):
        ln = code.count("\n", 0, pos) + 1
        if not waived(lines, ln):
            found.append("%s:%d: %s outside lib/safefile.c and lib/safedir.c; "
                         "use cgs_out_begin, cgs_create_at or a cgs_*_at of lib/safedir.h"
                         % (rel, ln, what))

    for m in CALL_RE.finditer(bare):
        # a declaration or definition of ours by that name is not a call
        before = bare[max(0, m.start() - 40):m.start()]
        if re.search(r"\b(int|void|static)\s*\**\s*$", before):
            continue
        add(m.start(), m.group(1) + "()")
    for m in OPEN_RE.finditer(bare):
        if "O_CREAT" in args_of(bare, m.end() - 1):
            add(m.start(), m.group(1) + "() with O_CREAT")
    for m in FOPEN_RE.finditer(bare):
        a = split_args(args_of(code, m.end() - 1))
        mode = a[1] if len(a) > 1 else ""
        if not re.fullmatch(r'"[^"]*"', mode):
            add(m.start(), "%s() with a mode that is not a literal" % m.group(1))
        elif re.search(r"[wa+]", mode):
            add(m.start(), "%s(..., %s)" % (m.group(1), mode))
    return sorted(found, key=lambda f: int(f.split(":")[1]))


def main(argv):
    root = "."
    if argv[1:2] == ["--root"] and len(argv) == 3:
        root = argv[2]
    elif len(argv) != 1:
        print(__doc__.strip().split("\n\n")[-2], file=sys.stderr)
        return 2
    bad, n = [], 0
    for d in DIRS:
        for dirpath, _, names in sorted(os.walk(os.path.join(root, d))):
            for name in sorted(names):
                if not name.endswith((".c", ".h")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                n += 1
                if rel not in MODULE:
                    bad += findings(path, rel)
    for b in bad:
        print(b)
    if bad:
        print("files-lint: %d call(s) that create, remove or rename files off the safe path"
              % len(bad))
        return 1
    print("files-lint: %d files, every file made through lib/safefile.c and lib/safedir.c" % n)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
