#!/usr/bin/env python3
"""signals_e2e.py SWIMLANE WORKDIR — Ctrl-C and kill during `run` and `convert` (issue 12,
deliverable 3), each signal sent at a point the test waits for, not after a sleep:

- run (tensormap runtime) with SIGINT and SIGTERM, sent once the workload's first task
  has run (the workload then writes a marker file and submits forever): exit 128 + signal; the run
  folder holds the capture in both formats and no temporary; the capture is marked
  truncated and every pool balances (collected + dropped == total); convert reads the JSON
  and the .pb alike, prints the TRUNCATED health line with exactly the capture's counts,
  and writes a trace whose "records dropped" counter says truncated, with the drops; an
  interrupted run is not auto-converted.
- convert with SIGINT, SIGTERM and SIGHUP, sent while the trace's temporary exists (rules
  that spin forever keep it there): killed by that signal, and neither the trace, the
  --summary-json file nor any temporary is left."""
import glob
import json
import os
import shutil
import signal
import subprocess
import time

from e2e_util import SWL, WORK, check, finish

HOME = os.environ["SWIMLANE_HOME"]


def wait_for(pred, proc, what, limit=120):
    """Poll for a condition the command makes true itself (a file appears)."""
    deadline = time.time() + limit
    while time.time() < deadline and proc.poll() is None:
        if pred():
            return True
        time.sleep(0.02)
    check(False, f"{what}: never happened (exit {proc.poll()})")
    return False


def health_counts(pools):
    """The pool list of convert's health line, from metadata.capture.pools."""
    parts = []
    for name, a in pools.items():
        if a["dropped"]:
            parts.append(f"{name} {a['dropped']} dropped of {a['total']}")
        else:
            parts.append(f"{name} {a['collected']} of {a['total']}")
    return ", ".join(parts)


def interrupted_run(sig):
    tag = signal.Signals(sig).name
    root = os.path.join(WORK, f"run_{tag}")
    os.makedirs(root)
    wl = os.path.join(WORK, f"forever_{tag}.lua")
    marker = os.path.join(root, ".started")
    with open(wl, "w") as f:
        f.write(f"""local w = dofile({json.dumps(HOME + '/lua/workloads/bench_flat.lua')})
w.orchestrate = function(rt, p)
  local c = rt:tensor{{ shape = {{ 1 }}, dtype = 'int64', init = 'zeros' }}
  rt:submit{{ func = 0, args = {{ c }}, scalars = {{ 1 }} }}
  while c:get(0) < 1 do end -- the first task ran: the capture has a task to show
  io.open({json.dumps(marker)}, 'w'):close()
  while true do rt:submit{{ func = 0, args = {{ c }}, scalars = {{ 1 }} }} end
end
w.check = nil
return w
""")
    proc = subprocess.Popen([SWL, "run", wl, "--enable-chip-swimlane", "-o", root],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if wait_for(lambda: os.path.exists(marker), proc, f"run {tag}: the workload's marker"):
        proc.send_signal(sig)
    log = proc.communicate(timeout=300)[0].decode()
    check(proc.returncode == 128 + sig, f"run {tag}: exit {proc.returncode}, want {128 + sig}: {log[-300:]}")
    check("interrupted: the capture holds what was collected and is marked truncated" in log,
          f"run {tag}: no interruption message: {log[-300:]}")
    dirs = [d for d in glob.glob(os.path.join(root, "*")) if os.path.isdir(d)]
    check(len(dirs) == 1, f"run {tag}: run folders {dirs}")
    if len(dirs) != 1:
        return
    files = sorted(os.listdir(dirs[0]))
    check("chip_swimlane_records.json" in files and "chip_swimlane_records.pb" in files,
          f"run {tag}: the capture is not in both formats: {files}")
    check(not [f for f in files if ".tmp" in f or f.startswith(".")], f"run {tag}: temporaries left: {files}")
    check("merged_swimlane.json" not in files, f"run {tag}: an interrupted run was converted")
    rec = os.path.join(dirs[0], "chip_swimlane_records.json")
    if not os.path.exists(rec):
        return
    meta = json.load(open(rec))["metadata"]["capture"]
    check(meta["truncated"] is True, f"run {tag}: capture not marked truncated: {meta}")
    pools = meta["pools"]
    check(sorted(pools) == sorted(["aicore_task", "aicpu_task", "sched_phase", "orch_phase"]),
          f"run {tag}: pools {sorted(pools)}")
    for p, a in pools.items():
        check(a["collected"] + a["dropped"] == a["total"], f"run {tag}: {p} {a} does not balance")
    check(pools.get("aicore_task", {}).get("total", 0) > 0, f"run {tag}: no task was captured: {pools}")
    want = f"capture TRUNCATED (interrupted): {health_counts(pools)}"
    for cap in (rec, rec[:-5] + ".pb"):
        out = os.path.join(WORK, f"trace_{tag}_{os.path.basename(cap)}.json")
        p = subprocess.run([SWL, "convert", cap, "-o", out, "-q"], capture_output=True, text=True, timeout=300)
        check(p.returncode == 0, f"run {tag}: convert {os.path.basename(cap)}: exit {p.returncode}: {p.stderr[-300:]}")
        check(f"swimlane: {cap}: {want}\n" in p.stderr,
              f"run {tag}: {os.path.basename(cap)}: health line\n  got:  {p.stderr.strip()}\n  want: {want}")
        if p.returncode != 0:
            continue
        trace = json.load(open(out))
        counters = [e for e in trace["traceEvents"] if e.get("name") == "records dropped" and e.get("ph") == "C"]
        check(len(counters) == 1 and counters[0]["args"].get("truncated") == 1,
              f"run {tag}: {os.path.basename(cap)}: records dropped counter {counters}")
        if counters:
            got = {k: v for k, v in counters[0]["args"].items() if k != "truncated"}
            check(got == {p: a["dropped"] for p, a in pools.items()},
                  f"run {tag}: counter {got} vs the capture's drops")


def killed_convert(rec, sig):
    tag = signal.Signals(sig).name
    d = os.path.join(WORK, f"convert_{tag}")
    os.makedirs(d)
    rules = os.path.join(d, "spin.lua")
    with open(rules, "w") as f:
        f.write('local R = require("convert.default")\nR.func_name = function() while true do end end\nreturn R\n')
    out, summary = os.path.join(d, "killed.json"), os.path.join(d, "summary.json")
    env = dict(os.environ, SWIMLANE_LUA_LIMIT="0")  # no budget: the rules spin until the signal
    proc = subprocess.Popen([SWL, "convert", rec, "--rules", rules, "-o", out, "--summary-json", summary, "-q"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if wait_for(lambda: glob.glob(out + ".tmp.*"), proc, f"convert {tag}: the trace's temporary"):
        proc.send_signal(sig)
    err = proc.communicate(timeout=120)[1].decode()
    check(proc.returncode == -sig, f"convert {tag}: exit {proc.returncode}, want killed by {tag}: {err[-300:]}")
    left = sorted(set(os.listdir(d)) - {"spin.lua"})
    check(not left, f"convert {tag}: left {left}")


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    for sig in (signal.SIGINT, signal.SIGTERM):
        interrupted_run(sig)
    root = os.path.join(WORK, "complete")
    p = subprocess.run([SWL, "run", "mixed_example", "--enable-chip-swimlane", "--no-convert", "-q", "-o", root],
                       capture_output=True, text=True, timeout=300)
    check(p.returncode == 0, f"run mixed_example: exit {p.returncode}: {p.stderr[-300:]}")
    recs = glob.glob(os.path.join(root, "*", "chip_swimlane_records.json"))
    if recs:
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            killed_convert(recs[0], sig)
    finish("signals: run keeps a truncated, balanced capture; convert leaves nothing")


main()
