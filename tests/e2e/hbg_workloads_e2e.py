#!/usr/bin/env python3
"""hbg_workloads_e2e.py SWIMLANE WORKDIR — every shipped workload, every case, on every
platform its case lists, runs on both runtimes (issue: "every shipped workload that can runs
on both"): `run --runtime tmr` and `run --runtime hbg` at level 4 both pass the workload's
result check (its `check` function, the same for both runtimes), and the two captures hold
the same work — the same AICore task tokens and the same orchestrator records (task ids in
submit order), AICPU ones under TMR, host ones under HBG with a complete host_capture.
The one thing allowed to differ: on a5sim the AICore Scheduler (HBG's producer there)
refuses sync-start, graph and async-wait tasks with its own message (docs/a5.md).
A workload whose check fails under HBG makes run fail: the check really runs."""
import glob
import json
import os
import re
import shutil
import subprocess
import sys

SWL, WORK = sys.argv[1], sys.argv[2]
FAILS = []
# bench_flat's default case is the 100k-task benchmark: its small and tiny cases stand for it
SKIP = {("bench_flat", "default")}
A5_REFUSAL = re.compile(r"the A5 AICore Scheduler \(--runtime hbg on a5\) runs no (sync-start|graph|async-wait) task")


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL:", what)


def run(*args):
    p = subprocess.run([SWL, "run", *args], capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout + p.stderr


def listing():
    """[(workload, case, [platforms])] from run --list."""
    rc, out = run("--list")
    check(rc == 0, f"run --list: rc {rc}")
    cases, in_wl = [], False
    for line in out.splitlines():
        if line.startswith("workloads"):
            in_wl = True
            continue
        if line.startswith("platforms"):
            break
        m = re.match(r"^  (\S+) +\S+: (.*)$", line) if in_wl else None
        if m:
            for name, plats in re.findall(r"([^\s,]+) \[([^\]]*)\]", m.group(2)):
                cases.append((m.group(1), name, plats.split()))
    return cases


def capture(out):
    recs = glob.glob(os.path.join(out, "*", "chip_swimlane_records.json"))
    return json.load(open(recs[0])) if len(recs) == 1 else None


def work(cap, host):
    """The AICore task tokens (sorted) and the orchestrator records' task ids in order."""
    orch = cap.get("host_orchestrator_phases" if host else "aicpu_orchestrator_phases") or []
    return sorted(r[1] for r in cap["aicore_tasks"]), [r.get("task_id") for t in orch for r in t]


def schema_runtimes():
    """phase name -> the runtimes the schema says emit it (swimlane schema's phases table)."""
    p = subprocess.run([SWL, "schema"], capture_output=True, text=True, timeout=60)
    rows = re.findall(r"^ +\d+ (\S+) +\S+ +\S+ +((?:tmr|hbg)(?:\+(?:tmr|hbg))*) ", p.stdout, re.M)
    check(p.returncode == 0 and len(rows) > 10, f"swimlane schema: rc {p.returncode}, {len(rows)} phase rows")
    return {name: set(rts.split("+")) for name, rts in rows}


def kinds(cap):
    return {r["kind"] for st in cap.get("scheduler_records", {}).get("streams", []) for r in st["records"]}


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
RUNTIMES = schema_runtimes()
cases = listing()
check(len({w for w, _, _ in cases}) >= 12 and len(cases) >= 27, f"run --list: only {len(cases)} cases")
both = refused = pairs = 0
for w, case, plats in cases:
    if (w, case) in SKIP:
        continue
    for plat in plats:
        pairs += 1
        tag = f"{w}:{case} on {plat}"
        caps = {}
        for rt in ("tmr", "hbg"):
            out = os.path.join(WORK, f"{w}-{case}-{plat}-{rt}")
            rc, log = run(w, "--case", case, "-p", plat, "--runtime", rt, "--enable-chip-swimlane", "4",
                          "--no-convert", "-q", "-o", out)
            if rt == "hbg" and plat == "a5sim" and rc == 1 and A5_REFUSAL.search(log):
                refused += 1
                continue
            check(rc == 0, f"{tag} --runtime {rt}: rc {rc}: {log[-400:]}")
            caps[rt] = capture(out) if rc == 0 else None
        if not caps.get("tmr") or not caps.get("hbg"):
            continue
        t, h = caps["tmr"], caps["hbg"]
        # the schema says which runtimes emit each phase: the captures agree
        for rt, cap in (("tmr", t), ("hbg", h)):
            bad = sorted(k for k in kinds(cap) if rt not in RUNTIMES.get(k, set()))
            check(not bad, f"{tag} --runtime {rt}: phases the schema does not list for {rt}: {bad}")
        check(t["metadata"].get("runtime") == "tensormap_and_ringbuffer" and
              h["metadata"].get("runtime") == "host_build_graph", f"{tag}: metadata.runtime")
        hc = h["metadata"].get("host_capture", {})
        check(hc.get("status") == "complete" and hc.get("dropped_records") == 0, f"{tag}: host_capture {hc}")
        (tt, to), (ht, ho) = work(t, False), work(h, True)
        check(tt == ht and len(tt) > 0, f"{tag}: AICore task tokens differ ({len(tt)} TMR, {len(ht)} HBG)")
        check(to == ho and len(to) > 0, f"{tag}: orchestrator records differ ({len(to)} TMR, {len(ho)} HBG)")
        both += 1
# every a2a3sim case runs on both; only the a5 refusals above may be missing
check(both + refused == pairs and both >= 26 + 16, f"only {both} of {pairs} case/platform pairs ran on both runtimes")
check(refused <= 7, f"{refused} a5sim HBG refusals (sync_start x3, graph_exec x2, async_dma x2 expected)")

# HBG has no task ring (the ring_id of its task ids is an id space): with --ring 1 the host
# still builds the whole graph before the device starts, where TMR's submits wait for releases
out = os.path.join(WORK, "ring1")
rc, log = run("scopes", "--runtime", "hbg", "--ring", "1", "--enable-chip-swimlane", "4", "--no-convert", "-q", "-o", out)
check(rc == 0, f"scopes --runtime hbg --ring 1: rc {rc}: {log[-300:]}")
r1 = capture(out) if rc == 0 else None
if r1:
    hrecs = [r for t in r1["host_orchestrator_phases"] for r in t]
    check(len(hrecs) == 8 and len({r["task_id"] >> 32 for r in hrecs}) == 3 and
          max(r["end_host_ns"] for r in hrecs) <= r1["host_device_uploads"][0]["start_host_ns"],
          "--ring 1: the graph (8 records, 3 id spaces) is not built whole before the upload")

# the result check runs under HBG: a workload expecting the wrong result fails there
src = open(os.path.join(os.environ.get("SWIMLANE_HOME", "."), "lua/workloads/vector_example.lua")).read()
bad = os.path.join(WORK, "wrong_check.lua")
wrong = src.replace('ref.expect("g", t.g, g)', 'ref.expect("g", t.g, f)')
check(wrong != src, "vector_example.lua no longer checks g")
open(bad, "w").write(wrong)
rc, log = run(bad, "--runtime", "hbg", "--enable-chip-swimlane", "4", "--no-convert", "-q", "-o",
              os.path.join(WORK, "wrong"))
check(rc == 1 and "result check failed" in log, f"a wrong result under HBG: rc {rc}: {log[-300:]}")

print("hbg workloads e2e: %d pairs on both runtimes, %d a5 refusals, %d failure(s)" % (both, refused, len(FAILS)))
sys.exit(1 if FAILS else 0)
