#!/usr/bin/env python3
"""circles.py BUILD_DIR SOURCE_ROOT [ALLOWED] -- file-level call circles in product code.

A file A "calls into" file B when A's object file has an undefined symbol that
B's object file defines (nm). A circle is a set of two or more files that reach
each other along these edges (a strongly connected component): A -> B -> A, or
longer. Product code is every object built from a source outside tests/ (the
list comes from BUILD_DIR/compile_commands.json). Prints each circle with one
edge per pair that closes it and exits 1 when there is any; exits 0 otherwise.

ALLOWED (optional) lists circles still waiting to be taken apart, one per line
(the files of the circle, space-separated; # starts a comment). A circle passes
only when all its files are one allowed line's: a new circle, or one that grows,
fails.
"""
import json
import os
import subprocess
import sys


def objects(build, root):
    with open(os.path.join(build, "compile_commands.json")) as f:
        cmds = json.load(f)
    out = {}
    for c in cmds:
        src = os.path.relpath(os.path.normpath(c["file"]), root)
        if src.startswith("tests/") or src.startswith(".."):
            continue
        obj = c.get("output")
        if obj is None:  # older CMake: take it from the -o argument
            args = c["command"].split()
            obj = args[args.index("-o") + 1]
        obj = os.path.join(c["directory"], obj)
        if os.path.exists(obj):
            out[src] = obj
    return out


def symbols(obj):
    defined, undefined = set(), set()
    nm = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
    for line in nm.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TDBRCGSV":
            defined.add(parts[2])
        elif len(parts) == 2 and parts[0] == "U":
            undefined.add(parts[1])
    return defined, undefined


def graph(objs):
    owner, needs = {}, {}
    for src, obj in objs.items():
        d, u = symbols(obj)
        for s in d:
            owner[s] = src
        needs[src] = u
    edges = {src: {} for src in objs}
    for src, u in needs.items():
        for s in sorted(u):
            dst = owner.get(s)
            if dst and dst != src:
                edges[src].setdefault(dst, s)
    return edges


def components(edges):
    """Tarjan's strongly connected components, iterative."""
    index, low, on, stack, out, n = {}, {}, set(), [], [], 0
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = n; n += 1
        stack.append(root); on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = n; n += 1
                    stack.append(w); on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop(); on.discard(w); comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def allowed_sets(path):
    out = []
    if path:
        with open(path) as f:
            for line in f:
                files = line.split("#", 1)[0].split()
                if files:
                    out.append(set(files))
    return out


def main():
    if len(sys.argv) < 3:
        sys.stderr.write("usage: circles.py BUILD_DIR SOURCE_ROOT [ALLOWED]\n")
        return 2
    build, root = sys.argv[1], os.path.abspath(sys.argv[2])
    allowed = allowed_sets(sys.argv[3] if len(sys.argv) > 3 else None)
    edges = graph(objects(build, root))
    if not edges:
        sys.stderr.write("circles.py: %s: no product object files (not built?)\n" % build)
        return 1
    circles = components(edges)
    bad = 0
    for comp in circles:
        ok = any(set(comp) <= a for a in allowed)
        bad += not ok
        print("circle of %d files%s:" % (len(comp), " (allowed for now)" if ok else ""))
        for a in comp:
            for b in comp:
                if b in edges[a]:
                    print("  %s -> %s (%s)" % (a, b, edges[a][b]))
    print("%d circles among %d product files, %d not allowed" % (len(circles), len(edges), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
