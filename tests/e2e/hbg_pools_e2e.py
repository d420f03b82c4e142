#!/usr/bin/env python3
"""hbg_pools_e2e.py SWIMLANE WORKDIR — host_build_graph's host records as reconciled pools
(issue 14 item 4): metadata.capture.pools lists host_orchestrator_phases and
host_device_uploads next to the device pools with collected + dropped == total, in the JSON
and the .pb alike (the same health line from both); tiny host pools (--pool-records N) really
drop, and the drops reach the health line and the trace's "records dropped" counter; a TMR
capture has no host pools; an HBG run interrupted (SIGINT, stalled collector) while the host
orchestrates leaves a readable capture marked truncated whose pools still balance."""
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import time

from e2e_util import SWL, WORK, check, finish, sh

HOST_POOLS = ("host_orchestrator_phases", "host_device_uploads")


def run(name, *extra):
    out = os.path.join(WORK, name)
    rc, log = sh("run", "vector_example", "--enable-chip-swimlane", "4", "--no-convert", "-q", "-o", out, *extra)
    check(rc == 0, f"{name}: run rc {rc}: {log[-300:]}")
    caps = glob.glob(os.path.join(out, "*", "chip_swimlane_records.json"))
    return caps[0] if caps else None, log


def health_line(path):
    """convert's health line for a capture, and the trace it wrote."""
    out = path + ".trace.json"
    rc, log = sh("convert", path, "-o", out)
    check(rc == 0, f"convert {os.path.basename(path)}: rc {rc}: {log[-300:]}")
    line = next((l for l in log.splitlines() if ": capture " in l), "")
    return line.split(": capture ", 1)[-1], (json.load(open(out)) if rc == 0 else None)


def check_pools(name, capture, want_drops):
    """Every pool balances; the host pools hold exactly the capture's host sections; each host
    pool dropped something when want_drops, nothing when False (None: not checked)."""
    cap = json.load(open(capture))
    pools = cap["metadata"]["capture"]["pools"]
    check(cap["metadata"]["capture"]["balanced"] is True, f"{name}: capture not balanced")
    for p, a in pools.items():
        check(a["collected"] + a["dropped"] == a["total"], f"{name}: {p} {a} does not balance")
    check(all(p in pools for p in HOST_POOLS), f"{name}: host pools missing from {sorted(pools)}")
    if not all(p in pools for p in HOST_POOLS):
        return None
    recs = sum(len(t) for t in cap.get("host_orchestrator_phases", []))
    check(pools["host_orchestrator_phases"]["collected"] == recs, f"{name}: {recs} host records in the capture, "
          f"pool says {pools['host_orchestrator_phases']}")
    check(pools["host_device_uploads"]["collected"] == len(cap.get("host_device_uploads", [])),
          f"{name}: upload records vs pool {pools['host_device_uploads']}")
    hc = cap["metadata"]["host_capture"]
    check(hc["dropped_records"] == pools["host_orchestrator_phases"]["dropped"] and hc["recorded_records"] == recs,
          f"{name}: host_capture {hc} disagrees with the pool")
    for p in HOST_POOLS if want_drops is not None else ():
        check((pools[p]["dropped"] > 0) == want_drops, f"{name}: {p} dropped {pools[p]['dropped']} (drops wanted: "
              f"{want_drops})")
    # both formats: the same health line, naming the host pools
    lj, tj = health_line(capture)
    lp, tp = health_line(capture[:-len(".json")] + ".pb")
    check(lj == lp and all(p in lj for p in HOST_POOLS), f"{name}: health lines differ or lack host pools:\n {lj}\n {lp}")
    for p in HOST_POOLS:
        a = pools[p]
        want = f"{p} {a['dropped']} dropped of {a['total']}" if a["dropped"] else f"{p} {a['collected']} of {a['total']}"
        check(want in lj, f"{name}: health line lacks '{want}': {lj}")
    for t in (tj, tp):
        if not t:
            continue
        ctr = [e for e in t["traceEvents"] if e.get("name") == "records dropped" and e.get("ph") == "C"]
        if want_drops or cap["metadata"]["capture"]["truncated"]:
            check(len(ctr) == 1 and all(ctr[0]["args"].get(p) == pools[p]["dropped"] for p in HOST_POOLS),
                  f"{name}: records dropped counter {ctr}")
        else:
            check(not ctr, f"{name}: a records dropped counter without drops")
    return pools


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    capture, _ = run("full", "--runtime", "hbg")
    full = check_pools("full", capture, False) if capture else None
    if full:
        hc = json.load(open(capture))["metadata"]["host_capture"]
        check(full["host_orchestrator_phases"]["total"] == hc["expected_records"], f"full: host pool total vs {hc}")

    # tiny host pools and a stalled collector: drops on both host pools, still balanced
    n = 2
    capture, log = run("tiny", "--runtime", "hbg", "--pool-records", str(n), "--stall-collector")
    tiny = check_pools("tiny", capture, True) if capture else None
    if tiny and full:
        for p in HOST_POOLS:
            check(tiny[p]["total"] == full[p]["total"] and tiny[p]["collected"] == min(n, full[p]["total"]),
                  f"tiny: {p} {tiny[p]} (pool of {n}, {full[p]['total']} attempted)")
            check(re.search(rf"{p}: {tiny[p]['dropped']} of {tiny[p]['total']} records dropped on the host", log),
                  f"tiny: no drop warning for {p}")

    # TMR keeps host records out: no host pools
    capture, _ = run("tmr")
    if capture:
        pools = json.load(open(capture))["metadata"]["capture"]["pools"]
        check(not any(p in pools for p in HOST_POOLS), f"tmr: host pools in a TMR capture: {sorted(pools)}")

    # interrupted while the host orchestrates (collector stalled, tiny pools): truncated, readable
    out = os.path.join(WORK, "int")
    os.makedirs(out)
    wl = os.path.join(WORK, "forever.lua")
    open(wl, "w").write(
        "local w = dofile(os.getenv('SWIMLANE_HOME') .. '/lua/workloads/bench_flat.lua')\n"
        "w.orchestrate = function(rt, p)\n"
        "  local c = rt:tensor{ shape = { 1 }, dtype = 'int64' }\n"
        "  rt:submit{ func = 0, args = { c }, scalars = { 1 } }\n"
        f"  io.open('{out}/.started', 'w'):close()\n"
        "  while true do rt:submit{ func = 0, args = { c }, scalars = { 1 } } end\n"
        "end\nw.check = nil\nreturn w\n")
    proc = subprocess.Popen([SWL, "run", wl, "--runtime", "hbg", "--enable-chip-swimlane", "4", "--pool-records", "4",
                             "--stall-collector", "--no-convert", "-q", "-o", out],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.time() + 120
    while not os.path.exists(os.path.join(out, ".started")) and time.time() < deadline and proc.poll() is None:
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    ilog = proc.communicate(timeout=120)[0].decode()
    check(proc.returncode == 130, f"interrupted: rc {proc.returncode}: {ilog[-300:]}")
    caps = glob.glob(os.path.join(out, "*", "chip_swimlane_records.json"))
    check(len(caps) == 1, "interrupted: no capture")
    if caps:
        cap = json.load(open(caps[0]))
        check(cap["metadata"]["capture"]["truncated"] is True and cap["metadata"]["host_capture"]["status"] == "truncated",
              f"interrupted: not marked truncated: {cap['metadata']['capture']} {cap['metadata']['host_capture']}")
        pools = check_pools("interrupted", caps[0], None) or {}
        if pools:
            check(pools["host_orchestrator_phases"]["dropped"] > 0, "interrupted: the 4-record host pool dropped nothing")
        line, trace = health_line(caps[0])
        check(line.startswith("TRUNCATED"), f"interrupted: health line {line}")
        check(trace and trace["metadata"].get("trace_status") == "partial", "interrupted: trace not partial")

    finish("host pools: balanced in both formats, tiny pools drop, interrupted run truncated")


main()
