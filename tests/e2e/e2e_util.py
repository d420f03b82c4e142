"""e2e_util.py — what the Python end-to-end tests share: the swimlane binary and work folder
from argv, a check that records failures instead of stopping, running a subcommand, and the
exit that reports them."""
import subprocess
import sys

SWL, WORK = sys.argv[1], sys.argv[2]
FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL:", what)


def sh(*args):
    """swimlane ARGS: (exit code, stdout + stderr)."""
    p = subprocess.run([SWL, *args], capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout + p.stderr


def finish(ok_message):
    if FAILS:
        print(f"{len(FAILS)} failures")
        sys.exit(1)
    print(ok_message)
