#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""layers.py - keep cgscale's layers pointing one way.

  lib/                                   the plumbing; includes nothing of ours
  tests/  cgroup-setup/  results/        each on lib/ only
  runner/                                on all of the above: the binary

Two checks, each failing with the file and line (or the pair) at fault:
  1. every #include "..." in a layer's .c/.h names a file of its own
     directory or of a layer below it: never upward, never sideways;
  2. no files include each other (a.h -> b.h -> a.h), and no .c files
     call each other: the calls come from the objects' symbol tables
     (nm), so a cycle through a header declared elsewhere (a workload API
     implemented by the runner) is seen too. Cycles of any length count.

usage: layers.py [--root DIR] [--objs DIR]   (objs: e.g. build/rel)
Exit 0 when the layers hold, 1 when not, 2 on bad usage.
"""
import os
import re
import subprocess
import sys

BELOW = {
    "lib": set(),
    "tests": {"lib"},
    "cgroup-setup": {"lib"},
    "results": {"lib"},
    "runner": {"lib", "tests", "cgroup-setup", "results"},
}
INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def sources(root):
    for d in BELOW:
        top = os.path.join(root, d)
        for name in sorted(os.listdir(top)) if os.path.isdir(top) else []:
            if name.endswith((".c", ".h")):
                yield d, os.path.join(d, name)


def include_errors(root):
    errs, edges = [], {}
    for layer, rel in sources(root):
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            for ln, line in enumerate(f, 1):
                m = INC.match(line)
                if not m:
                    continue
                target = os.path.normpath(os.path.join(os.path.dirname(rel), m.group(1)))
                tl = target.split(os.sep)[0]
                if not os.path.exists(os.path.join(root, target)):
                    continue  # generated (build/gen) or a system header
                if tl in BELOW and tl != layer and tl not in BELOW[layer]:
                    how = "upward" if layer in BELOW.get(tl, set()) else "sideways"
                    errs.append(f"{rel}:{ln}: includes {target} ({how}: {layer}/ may use "
                                f"{', '.join(sorted(BELOW[layer])) or 'nothing of ours'})")
                if target != rel:
                    edges.setdefault(rel, set()).add(target)
    return errs, edges


def call_edges(objs):
    """file -> files whose symbols it uses, from nm of every object."""
    defs, uses = {}, {}
    for dirpath, _, names in os.walk(objs):
        for n in names:
            if not n.endswith(".o"):
                continue
            path = os.path.join(dirpath, n)
            rel = os.path.splitext(os.path.relpath(path, objs))[0]
            if rel.split(os.sep)[0] not in BELOW:
                continue
            out = subprocess.run(["nm", path], capture_output=True, text=True).stdout
            for line in out.splitlines():
                parts = line.split()
                if len(parts) == 2 and parts[0] == "U":
                    uses.setdefault(rel, set()).add(parts[1])
                elif len(parts) == 3 and parts[1] in "TDBR":
                    defs[parts[2]] = rel
    edges = {}
    for f, syms in uses.items():
        for s in syms:
            if s in defs and defs[s] != f:
                edges.setdefault(f, set()).add(defs[s])
    return edges


def cycles(edges):
    """Strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]
    nodes = set(edges) | {t for v in edges.values() for t in v}

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main(argv):
    root, objs = ".", None
    args = list(argv)
    while args:
        a = args.pop(0)
        if a in ("--root", "--objs") and args:
            if a == "--root":
                root = args.pop(0)
            else:
                objs = args.pop(0)
        else:
            print(__doc__.split("\n\n")[-2], file=sys.stderr)
            return 2
    errs, edges = include_errors(root)
    for comp in cycles(edges):
        errs.append("files include each other: " + " <-> ".join(comp))
    if objs:
        if not os.path.isdir(objs):
            print(f"layers: {objs}: no such directory; build first (make)", file=sys.stderr)
            return 2
        for comp in cycles(call_edges(objs)):
            errs.append("files call each other: " + " <-> ".join(c + ".c" for c in comp))
    for e in errs:
        print("layers: " + e, file=sys.stderr)
    if not errs:
        print("layers: ok (lib <- tests, cgroup-setup, results <- runner; no file cycles)")
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
