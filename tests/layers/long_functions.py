#!/usr/bin/env python3
"""long_functions.py — no function in product code is longer than the limit.

A function is a top-level definition: a line at column 0 that names a function
and is followed by its body in braces; its length runs from that line to the
closing brace. Braces inside comments and string literals do not count.

    long_functions.py SOURCE_ROOT LIMIT ALLOWED DIR...
        fails naming file:line function length for every function over LIMIT
        lines in DIR... (relative to SOURCE_ROOT) that ALLOWED does not list
        (lines "FILE FUNCTION", '#' starts a comment; a listed function that is
        no longer too long is reported too, so the list only shrinks)
    long_functions.py --self-test
"""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from raw_alloc import code_only  # noqa: E402  (the same comment/string blanking)

HEAD = re.compile(r'^[A-Za-z_][\w \*]*?\b([A-Za-z_]\w*)\s*\([^;]*$')


def functions(text):
    """[(first line, name, length in lines)] of the top-level function definitions."""
    lines = code_only(text).split('\n')
    found, i = [], 0
    while i < len(lines):
        m = HEAD.match(lines[i])
        if not m or lines[i].startswith(('typedef', 'static const', 'struct', 'enum', 'union')):
            i += 1
            continue
        j = i
        while j < len(lines) and '{' not in lines[j] and ';' not in lines[j]:
            j += 1
        if j == len(lines) or '{' not in lines[j] or ';' in lines[j].split('{')[0]:
            i += 1
            continue
        depth, k = 0, j
        while k < len(lines):
            depth += lines[k].count('{') - lines[k].count('}')
            if depth <= 0:
                break
            k += 1
        found.append((i + 1, m.group(1), k - i + 1))
        i = k + 1
    return found


def too_long(root, limit, dirs):
    out = []
    for d in dirs:
        for base, subdirs, files in os.walk(os.path.join(root, d)):
            subdirs.sort()
            for name in sorted(files):
                if name.endswith('.c'):
                    path = os.path.join(base, name)
                    rel = os.path.relpath(path, root)
                    with open(path, encoding='utf-8', errors='replace') as f:
                        out += [(rel, ln, fn, n) for ln, fn, n in functions(f.read()) if n > limit]
    return out


def read_allowed(path):
    allowed = set()
    with open(path) as f:
        for raw in f:
            words = raw.split('#', 1)[0].split()
            if words:
                if len(words) != 2:
                    sys.exit(f"long_functions: {path}: bad line: {raw.strip()}")
                allowed.add(tuple(words))
    return allowed


def self_test():
    body = '\n'.join(f'  x += {i}; /* }} */' for i in range(8))
    sample = (f'static int short_one(int x) {{\n  return x; /* {{ */\n}}\n'
              f'int long_one(int x)\n{{\n  const char *s = "}}";\n{body}\n  return x;\n}}\n'
              'int declared(int x);\n')
    got = functions(sample)
    want = [(1, 'short_one', 3), (4, 'long_one', 13)]
    if got != want:
        print(f"long_functions self-test: found {got}, want {want}")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, 'lib'))
        with open(os.path.join(tmp, 'lib', 'a.c'), 'w') as f:
            f.write(sample)
        if too_long(tmp, 10, ['lib']) != [('lib/a.c', 4, 'long_one', 13)]:
            print("long_functions self-test: the tree scan missed long_one")
            return 1
    print("long_functions self-test: ok")
    return 0


def main(argv):
    if argv[1:] == ['--self-test']:
        return self_test()
    if len(argv) < 5:
        sys.exit(__doc__)
    root, limit, allowed = argv[1], int(argv[2]), read_allowed(argv[3])
    bad = 0
    long_ones = too_long(root, limit, argv[4:])
    for rel, ln, fn, n in long_ones:
        if (rel, fn) not in allowed:
            print(f"{rel}:{ln}: {fn} is {n} lines (limit {limit}): split it along its steps")
            bad += 1
    still = {(rel, fn) for rel, _, fn, _ in long_ones}
    for rel, fn in sorted(allowed - still):
        print(f"{rel}: {fn} is allowed in {argv[3]} but no longer over {limit} lines: drop the line")
        bad += 1
    if bad:
        return 1
    print(f"long_functions: no function over {limit} lines ({len(allowed)} allowed)")
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
