#!/usr/bin/env python3
"""mutate.py — generic operator mutations of C sources (tests/mutation/run.sh drives it).

  mutate.py list SRC_ROOT N SEED      print N mutants, one a line: id<TAB>file<TAB>line<TAB>col<TAB>old<TAB>new
  mutate.py apply SRC_ROOT FILE LINE COL OLD NEW   rewrite that one site in place
  mutate.py equivalent SRC_ROOT FILE LINE COL OLD NEW   print why the mutant is listed as
                                      equivalent in equivalent.txt (exit 1: not listed)
  mutate.py entry SRC_ROOT FILE LINE COL OLD NEW WHY   the equivalent.txt line for a mutant

Sites: comparisons (< <= > >= == !=), arithmetic (+ -, * /), boolean (&& ||, a dropped !),
integer constants +-1, and dropped statements (a simple `x = ...;` / call statement becomes
`;`; not free() / fclose() / close() / closedir(), whose loss only a leak checker sees). Comments, strings, preprocessor lines,
top-level tables (a block opened by `= {`), declarations' initializers, the declared sizes of local arrays and the constants of sleeps and
timed waits are skipped (the last two are equivalent by construction: margin and timing only). The choice is seeded: the same SEED gives the same mutants on the same sources.
"""
import random
import re
import sys

FILES_GLOBS = [
    "runtime/core/*.c", "runtime/profiler/*.c", "host/collector/*.c", "host/reader/*.c",
    "host/convert/*.c", "host/trace/*.c", "tools/convert/*.c", "host/overhead/*.c", "tools/overhead/*.c", "runtime/pipe/*.c",
]

SWAP = {"<": ["<=", ">"], "<=": ["<", ">"], ">": [">=", "<"], ">=": [">", "<"],
        "==": ["!="], "!=": ["=="], "&&": ["||"], "||": ["&&"], "+": ["-"], "-": ["+"],
        "/": ["*"]}  # no * -> /: a * is too often a dereference or declarator
OP_RE = re.compile(r"<<=?|>>=?|->|\+\+|--|\+=|-=|\*=|/=|<=|>=|==|!=|&&|\|\||[<>+\-*/]")
INT_RE = re.compile(r"(?<![\w.])(\d+)(u|U|ull|ULL|ul|UL|ll|LL)?(?![\w.])")
STMT_RE = re.compile(r"^\s*([A-Za-z_][\w.\->\[\]]*\s*(=|\+=|-=|\|=|&=)\s*[^=].*|[A-Za-z_]\w*\(.*\));\s*$")
DECL_RE = re.compile(r"^\s*(static\s+|const\s+|unsigned\s+|struct\s+)*(u?int\w*|size_t|double|float|char|int|long|bool|sl_\w+|uint\w+)\s*\**\s*\w+\s*(\[.*\])?\s*=")
# a local buffer's declared size (`char buf[40];`): one more or one less byte than a
# bound already chosen with margin changes nothing a test can see
ARRAY_DECL_RE = re.compile(r"^\s*(static\s+|const\s+|unsigned\s+|struct\s+)*\w+\s+\**\s*\w+\s*\[[^\]]*\]\s*(;|=|,)")
# releasing a resource (memory, a FILE, a descriptor): dropping it leaks, which only a
# leak checker sees
LEAK_ONLY_RE = re.compile(r"\b(free|fclose|close|closedir)\s*\(")
# timed waits and sleeps: their constants change timing only, never a result
TIMING_RE = re.compile(r"\b(usleep|nanosleep|sleep|sl_sleep\w*|\w*timedwait\w*|\w*_wait_ms)\s*\(|\btv_nsec\s*\+=")


def strip(line):
    """The line with string/char literals and // comments blanked (same length)."""
    out, i, n = [], 0, len(line)
    while i < n:
        c = line[i]
        if c in "\"'":
            q, j = c, i + 1
            while j < n and line[j] != q:
                j += 2 if line[j] == "\\" else 1
            out.append(" " * (min(j, n - 1) - i + 1))
            i = j + 1
            continue
        if line.startswith("//", i):
            out.append(" " * (n - i))
            break
        out.append(c)
        i += 1
    return "".join(out)[:n]


def sites(root, rel):
    text = open(f"{root}/{rel}").read().split("\n")
    in_comment, depth, in_table, prev = False, 0, False, ""
    for ln, raw in enumerate(text, 1):
        line = strip(raw)
        if in_comment:
            end = line.find("*/")
            if end < 0:
                continue
            line = " " * (end + 2) + line[end + 2:]
            in_comment = False
        while "/*" in line:
            a = line.find("/*")
            b = line.find("*/", a + 2)
            if b < 0:
                line = line[:a]
                in_comment = True
                break
            line = line[:a] + " " * (b + 2 - a) + line[b + 2:]
        s = line.strip()
        opened = line.count("{") - line.count("}")
        if depth == 0 and opened > 0:  # a top-level block opens: a function body or a table
            in_table = re.search(r"=\s*\{", line) is not None or (s.startswith("{") and prev.endswith("="))
        if s:
            prev = s
        if not s or s.startswith("#") or depth == 0 or in_table:  # outside functions: tables, prototypes
            depth += opened
            continue
        depth += opened
        for m in OP_RE.finditer(line):
            op = m.group(0)
            if op not in SWAP:
                continue
            if op in "+-" and re.search(r"[\w)\]]\s*$", line[:m.start()]) is None:
                continue  # unary
            if op in "<>" and re.match(r"\s*#\s*include", raw):
                continue
            for new in SWAP[op]:
                yield (rel, ln, m.start() + 1, op, new)
        if not DECL_RE.match(line) and not ARRAY_DECL_RE.match(line) and not TIMING_RE.search(line):
            for m in INT_RE.finditer(line):
                v = int(m.group(1))
                suf = m.group(2) or ""
                yield (rel, ln, m.start() + 1, m.group(0), f"{v + 1}{suf}")
                if v > 0:
                    yield (rel, ln, m.start() + 1, m.group(0), f"{v - 1}{suf}")
        if re.search(r"(^|[^!=])!\s*[A-Za-z_(]", line) and "!=" not in line:
            k = re.search(r"(^|[^!=])(!)\s*[A-Za-z_(]", line)
            yield (rel, ln, k.start(2) + 1, "!", "")
        if STMT_RE.match(line) and not DECL_RE.match(line) and "return" not in line and not LEAK_ONLY_RE.search(line):
            body = line.strip()
            at = line.index(body)
            yield (rel, ln, at + 1, raw[at:at + len(body)], ";")  # with its string literals


def list_mutants(root, n, seed):
    import glob
    import os
    files = sorted(os.path.relpath(p, root) for g in FILES_GLOBS for p in glob.glob(f"{root}/{g}"))
    all_sites = [s for f in files for s in sites(root, f)]
    rng = random.Random(seed)
    rng.shuffle(all_sites)
    for i, (f, ln, col, old, new) in enumerate(all_sites[:n], 1):
        print(f"{i}\t{f}\t{ln}\t{col}\t{old}\t{new}")


def equivalent(root, rel, ln, col, old, new):
    """The documented reason when this mutant is listed in equivalent.txt (else None).

    equivalent.txt: file<TAB>old<TAB>new<TAB>column<TAB>source line<TAB>why, where the line is
    stripped of its indentation and the column counts from its first character. Keyed by
    the line's text, not its number, so an entry survives edits elsewhere in the file."""
    import os
    line = open(f"{root}/{rel}").read().split("\n")[ln - 1]
    code, at = line.strip(), col - (len(line) - len(line.lstrip()))
    listed = os.path.join(os.path.dirname(os.path.abspath(__file__)), "equivalent.txt")
    for raw in open(listed):
        if raw.startswith("#") or not raw.strip():
            continue
        parts = raw.rstrip("\n").split("\t")
        if len(parts) == 6 and parts[:3] == [rel, old, new] and parts[3] == str(at) and parts[4] == code:
            return parts[5]
    return None


def entry(root, rel, ln, col, old, new, why):
    """The equivalent.txt line for this mutant (to append after checking the reason)."""
    line = open(f"{root}/{rel}").read().split("\n")[ln - 1]
    at = col - (len(line) - len(line.lstrip()))
    return "\t".join([rel, old, new, str(at), line.strip(), why])


def apply(root, rel, ln, col, old, new):
    path = f"{root}/{rel}"
    lines = open(path).read().split("\n")
    line = lines[ln - 1]
    c = col - 1
    if line[c:c + len(old)] != old:
        sys.exit(f"mutate.py: {rel}:{ln}:{col}: '{old}' not found")
    lines[ln - 1] = line[:c] + new + line[c + len(old):]
    open(path, "w").write("\n".join(lines))


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "list":
        list_mutants(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif len(sys.argv) == 8 and sys.argv[1] == "equivalent":
        why = equivalent(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6], sys.argv[7])
        print(why or "")
        sys.exit(0 if why else 1)
    elif len(sys.argv) == 9 and sys.argv[1] == "entry":
        print(entry(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6], sys.argv[7], sys.argv[8]))
    elif len(sys.argv) == 8 and sys.argv[1] == "apply":
        apply(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6], sys.argv[7])
    else:
        sys.exit(__doc__)
