#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""layers.py - keep cgscale's layers pointing one way.

  lib/                                   the plumbing; includes nothing of ours
  tests/  cgroup-setup/                  each on lib/ only
  results/ROOM/                          stats <- model <- compare <- export, report
  runner/ROOM/                           on all of the above: core <- point <- image <- cgroups
                                         <- observe <- run <- ab <- cmd (the binary)

A room is one folder (runner/ and results/ hold one sub-folder a room); it
may use itself and the rooms named for it in BELOW, never one above it or
beside it.

Three checks, each failing with the file and line (or the pair) at fault:
  1. every #include "..." in a room's .c/.h names a file of its own room
     or of a room below it: never upward, never sideways; includes are
     root-relative ("results/model/result.h"), never "../";
  2. no .c file calls a function defined in a room above or beside its
     own (from the objects' symbol tables, nm), except the interfaces in
     UP_CALLS that a lower room declares and a higher one implements;
  3. no files include each other (a.h -> b.h -> a.h), and no .c files
     call each other, through such an interface too. Cycles of any
     length count.

usage: layers.py [--root DIR] [--objs DIR]   (objs: e.g. build/rel)
Exit 0 when the layers hold, 1 when not, 2 on bad usage.
"""
import os
import re
import subprocess
import sys

def _rooms():
    res = ["results/stats", "results/model", "results/compare"]
    run = ["runner/core", "runner/point", "runner/image", "runner/cgroups", "runner/observe",
           "runner/run", "runner/ab", "runner/cmd"]
    below = {"lib": set(), "tests": {"lib"}, "cgroup-setup": {"lib"}}
    for i, r in enumerate(res):
        below[r] = {"lib"} | set(res[:i])
    for r in ("results/export", "results/report"):
        below[r] = {"lib"} | set(res)
    lower = {"lib", "tests", "cgroup-setup"} | {r for r in below if r.startswith("results/")}
    for i, r in enumerate(run):
        below[r] = lower | set(run[:i])
    return below


BELOW = _rooms()
# Interfaces a lower room declares and a higher one implements: the
# workload API of these headers, which the runner's task code defines. A
# call from the room into a function these declare is not against the
# direction (a cycle through it still is).
UP_CALLS = {"tests": ("tests/workload.h", "tests/partner.h")}
DECL = re.compile(r"\b(cgs_\w+)\s*[(\[]")


def up_call_names(root):
    names = {}
    for room, headers in UP_CALLS.items():
        for h in headers:
            path = os.path.join(root, h)
            if os.path.exists(path):
                with open(path, encoding="utf-8", errors="replace") as f:
                    names.setdefault(room, set()).update(DECL.findall(f.read()))
    return names


def room_of(rel):
    """The room of a path relative to the root, or None."""
    parts = rel.split(os.sep)
    for n in (2, 1):
        r = "/".join(parts[:n])
        if len(parts) > n and r in BELOW:
            return r
    return None


INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def sources(root):
    for top in ("lib", "tests", "cgroup-setup", "results", "runner"):
        for dirpath, dirs, names in os.walk(os.path.join(root, top)):
            dirs.sort()
            for name in sorted(names):
                if name.endswith((".c", ".h")):
                    rel = os.path.relpath(os.path.join(dirpath, name), root)
                    yield room_of(rel), rel


def allowed(src, dst):
    """Whether room src may use room dst."""
    return src == dst or dst in BELOW[src]


def against(src, dst):
    how = "upward" if src in BELOW.get(dst, set()) else "sideways"
    return f"{how}: {src}/ may use {', '.join(sorted(BELOW[src])) or 'nothing of ours'}"


def include_errors(root):
    errs, edges = [], {}
    for room, rel in sources(root):
        if room is None:
            errs.append(f"{rel}: not in a room (runner/ and results/ hold their files "
                        f"in one sub-folder a room: {', '.join(r for r in BELOW if '/' in r)})")
            continue
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            for ln, line in enumerate(f, 1):
                m = INC.match(line)
                if not m:
                    continue
                inc = m.group(1)
                if inc.startswith(("../", "./")):
                    errs.append(f'{rel}:{ln}: includes "{inc}" (includes are root-relative: no ../)')
                    inc = os.path.normpath(os.path.join(os.path.dirname(rel), inc))
                if not os.path.exists(os.path.join(root, inc)):
                    continue  # generated (build/gen) or a system header
                tr = room_of(inc)
                if tr is not None and not allowed(room, tr):
                    errs.append(f"{rel}:{ln}: includes {inc} ({against(room, tr)})")
                if inc != rel:
                    edges.setdefault(rel, set()).add(inc)
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
            if room_of(rel + ".c") is None:
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
                edges.setdefault(f, {}).setdefault(defs[s], set()).add(s)
    return edges


def call_errors(edges, root):
    """Calls from a room into one above or beside it, but UP_CALLS."""
    errs, ok = [], up_call_names(root)
    for f in sorted(edges):
        for g, syms in sorted(edges[f].items()):
            a, b = room_of(f + ".c"), room_of(g + ".c")
            bad = sorted(syms - ok.get(a, set()))
            if a and b and not allowed(a, b) and bad:
                sym = bad[0]
                errs.append(f"{f}.c calls {sym}() of {g}.c ({against(a, b)})")
    return errs


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
        calls = call_edges(objs)
        errs += call_errors(calls, root)
        for comp in cycles(calls):
            errs.append("files call each other: " + " <-> ".join(c + ".c" for c in comp))
    for e in errs:
        print("layers: " + e, file=sys.stderr)
    if not errs:
        print(f"layers: ok ({len(BELOW)} rooms, lib <- tests, cgroup-setup, results/* <- runner/*; no file cycles)")
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
