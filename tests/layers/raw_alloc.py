#!/usr/bin/env python3
"""raw_alloc.py — no raw malloc/calloc/realloc/free/strdup in the folders on the base allocator.

Every allocation of the host side goes through host/base/sl_mem (one out-of-memory
policy: the failure path removes temporaries and exits 1). This check reads
raw_alloc.txt next to it:

    dir   FOLDER   a folder (relative to the source root) whose .c/.h files are checked
    file  FILE     one converted file of a folder that is not converted as a whole
    allow FILE     a file of those folders that may call the C allocator (the allocator itself)

and fails, naming file:line, on every call of malloc, calloc, realloc, free,
strdup or strndup in a checked file that is not allowed. Comments and string
literals do not count; member calls (ops->free(...)) and prefixed names
(cJSON_free, sl_mem_free) are not calls of the C allocator.

    raw_alloc.py SOURCE_ROOT LIST      check the tree
    raw_alloc.py --self-test           the scanner finds what it must (and nothing else)
"""
import os
import re
import sys
import tempfile

CALL = re.compile(r'(?<![\w.>])(malloc|calloc|realloc|free|strdup|strndup)\s*\(')


def code_only(text):
    """text with comments and string/char literals blanked (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
        elif text[i] in '"\'':
            q, j = text[i], i + 1
            while j < n and text[j] != q and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            j += 1
        else:
            out.append(text[i])
            i += 1
            continue
        out.append(re.sub(r'[^\n]', ' ', text[i:j]))
        i = j
    return ''.join(out)


def raw_calls(text):
    """[(line, name)] of the C allocator's calls in C source text."""
    code = code_only(text)
    return [(code.count('\n', 0, m.start()) + 1, m.group(1)) for m in CALL.finditer(code)]


def read_list(path):
    """(dirs, allow, files) of a raw_alloc.txt."""
    dirs, allow, files = [], set(), []
    with open(path) as f:
        for raw in f:
            line = raw.split('#', 1)[0].split()
            if not line:
                continue
            if len(line) != 2 or line[0] not in ('dir', 'allow', 'file'):
                sys.exit(f"raw_alloc: {path}: bad line: {raw.strip()}")
            if line[0] == 'dir':
                dirs.append(line[1])
            elif line[0] == 'file':
                files.append(line[1])
            else:
                allow.add(line[1])
    return dirs, allow, files


def check_file(root, rel):
    """The raw allocator calls of one file, as messages."""
    with open(os.path.join(root, rel), encoding='utf-8', errors='replace') as f:
        return [f"{rel}:{line}: {fn}() — use sl_mem_* (host/base/include/sl_mem.h)"
                for line, fn in raw_calls(f.read())]


def check(root, dirs, allow, files=()):
    found = []
    for rel in files:
        if not os.path.isfile(os.path.join(root, rel)):
            sys.exit(f"raw_alloc: no file {rel}")
        found += check_file(root, rel)
    for d in dirs:
        top = os.path.join(root, d)
        if not os.path.isdir(top):
            sys.exit(f"raw_alloc: no folder {d}")
        for base, subdirs, files in os.walk(top):
            subdirs.sort()
            for name in sorted(files):
                if not name.endswith(('.c', '.h')):
                    continue
                path = os.path.join(base, name)
                rel = os.path.relpath(path, root)
                if rel not in allow:
                    found += check_file(root, rel)
    return found


def self_test():
    sample = ('#include <stdlib.h>\n'
              '/* free(x) in a comment */ char *s = "malloc(1)";\n'
              'void f(ops *o, char *p) {\n'
              '  o->free(p); cJSON_free(p); sl_mem_free(p);\n'
              '  p = realloc(p, 2);\n'
              '  free (p);\n'
              '}\n')
    got = raw_calls(sample)
    want = [(5, 'realloc'), (6, 'free')]
    if got != want:
        print(f"raw_alloc self-test: found {got}, want {want}")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, 'lib'))
        for name in ('a.c', 'b.c'):
            with open(os.path.join(tmp, 'lib', name), 'w') as f:
                f.write(sample)
        found = check(tmp, ['lib'], {'lib/b.c'})
        if len(found) != 2 or not all(x.startswith('lib/a.c:') for x in found):
            print(f"raw_alloc self-test: tree check gave {found}")
            return 1
        found = check(tmp, [], set(), ['lib/b.c'])
        if len(found) != 2 or not all(x.startswith('lib/b.c:') for x in found):
            print(f"raw_alloc self-test: file check gave {found}")
            return 1
    print("raw_alloc self-test: ok")
    return 0


def main(argv):
    if argv[1:] == ['--self-test']:
        return self_test()
    if len(argv) != 3:
        sys.exit(__doc__)
    dirs, allow, files = read_list(argv[2])
    found = check(argv[1], dirs, allow, files)
    for x in found:
        print(x)
    if found:
        print(f"raw_alloc: {len(found)} raw allocator call(s) in folders on the base allocator")
        return 1
    print(f"raw_alloc: {len(dirs)} folders and {len(files)} files, no raw allocator calls")
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
