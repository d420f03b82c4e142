#!/usr/bin/env python3
"""a5_e2e.py SWIMLANE WORKDIR — a5 end to end: `run --platform a5sim --runtime hbg` on a
fan-out workload -> the capture names the host-shadow transport, its scheduler streams are
AICore Scheduler streams (producer aicore, an AIV physical core, only the seed's phases,
task-bound ones with a task id), one lifecycle record per AICPU thread with ordered spans
and topology on the leader only, and its pools balance -> `convert` draws one
Scheduler_<physical AIV id> lane per stream with StateProbe / Dispatch / Worksteal / Refill
bars labelled by task, the AICPU Lifecycle view (pid 6) -> `sched-overhead` reads it; the
a2a3sim capture of the same workload keeps the shared-memory transport and AICPU streams;
a5sim TMR is host-shadow too but has AICPU streams and no lifecycle records; a task kind
the AICore Scheduler has no path for is refused with a message."""
import glob
import json
import os
import shutil
import subprocess
import sys

SWL, WORK = sys.argv[1], sys.argv[2]
FAILS = []
AICORE_PHASES = {"bootstrap", "state_probe", "dispatch", "worksteal", "refill", "complete", "resolve"}
PUBLISH = {"dispatch": "Dispatch", "worksteal": "Worksteal", "refill": "Refill"}


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL:", what)


def sh(*args):
    p = subprocess.run([SWL, *args], capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout + p.stderr


def capture(name, *extra):
    out = os.path.join(WORK, name)
    rc, log = sh("run", "fanout", "--enable-chip-swimlane", "4", "--enable-dep-gen", "-q", "--no-convert",
                 "-o", out, *extra)
    check(rc == 0, f"run {' '.join(extra)}: rc {rc}: {log[-300:]}")
    path = glob.glob(os.path.join(out, "*", "chip_swimlane_records.json"))[0]
    return path, json.load(open(path))


def check_a5_hbg(path, cap):
    md = cap["metadata"]
    check(md.get("transport") == "host_shadow", f"a5 transport: {md.get('transport')}")
    check(md["capture"]["balanced"], "a5 HBG pools do not balance")
    check(cap["scheduler_tasks"]["producer"] == "aicore", "scheduler_tasks.producer is not aicore")
    aiv = {i for i, t in enumerate(md["core_types"]) if t == "aiv"}
    streams = cap["scheduler_records"]["streams"]
    check(len(streams) == 2, f"{len(streams)} scheduler streams, want one per scheduler (2)")
    kinds = set()
    for s in streams:
        check(s["producer"] == "aicore" and s["core_type"] == "aiv", f"stream {s['scheduler_id']}: {s['producer']}")
        check(s["physical_core_id"] in aiv, f"stream {s['scheduler_id']}: core {s['physical_core_id']} is no AIV")
        recs = s["records"]
        check(recs and recs[0]["kind"] == "bootstrap" and recs[0]["task_id"] is None, "stream starts without bootstrap")
        for a, b in zip(recs, recs[1:]):
            check(b["start_cycles"] >= a["end_cycles"], f"overlapping {a['kind']} / {b['kind']}")
            if a["kind"] == "state_probe":
                check(b["kind"] in PUBLISH and b["task_id"] == a["task_id"], "state_probe not followed by its publication")
        for r in recs:
            kinds.add(r["kind"])
            check(r["kind"] in AICORE_PHASES, f"phase {r['kind']} on an AICore Scheduler")
            check((r["task_id"] is None) == (r["kind"] == "bootstrap"), f"{r['kind']} task identity")
    check({"state_probe", "complete", "resolve"} <= kinds, f"phases seen: {sorted(kinds)}")
    check(any(k in kinds for k in PUBLISH), "no publication phase")
    lc = cap.get("aicpu_lifecycle_records", [])
    check([r["aicpu_thread_id"] for r in lc] == [0, 1], f"lifecycle threads {[r['aicpu_thread_id'] for r in lc]}")
    order = ["handshake_start", "handshake_complete", "context_publish_start", "context_publish_complete",
             "bootstrap_wait_start", "bootstrap_complete", "register_release_start", "register_release_end",
             "exit_signal_start", "exit_signal_end", "exit_wait_start", "exit_wait_end"]
    for r in lc:
        v = [r[k + "_cycles"] for k in order]
        check(all(x > 0 for x in v) and v == sorted(v), f"thread {r['aicpu_thread_id']}: spans out of order")
        leader = r["aicpu_thread_id"] == 0
        check((r["config_start_cycles"] > 0) == leader and (r["topology_complete_cycles"] > 0) == leader,
              f"thread {r['aicpu_thread_id']}: topology on a non-leader or missing on the leader")

    out = path + ".trace.json"
    rc, log = sh("convert", path, "-o", out)
    check(rc == 0, f"convert: {log[-300:]}")
    ev = json.load(open(out))["traceEvents"]
    lanes = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e.get("ph") == "M" and e["name"] == "thread_name"}
    procs = {e["pid"]: e["args"]["name"] for e in ev if e.get("ph") == "M" and e["name"] == "process_name"}
    for s in streams:
        tid = [t for (p, t), n in lanes.items() if p == 2 and n == "Scheduler_%d" % s["physical_core_id"]]
        check(len(tid) == 1, f"no Scheduler_{s['physical_core_id']} lane")
        bars = [e["name"] for e in ev if e.get("ph") == "X" and e["pid"] == 2 and tid and e["tid"] == tid[0]]
        check(len(bars) == len(s["records"]), f"Scheduler_{s['physical_core_id']}: {len(bars)} bars, "
                                               f"{len(s['records'])} records")
        for r in s["records"]:
            if r["kind"] in ("state_probe", *PUBLISH):
                want = {"state_probe": "StateProbe", **PUBLISH}[r["kind"]]
                check(any(b.startswith(want + "(t") for b in bars), f"no {want}(t..) bar")
    check(procs.get(6) == "AICPU Lifecycle", f"pid 6 is {procs.get(6)}")
    life = {(e["tid"], e["name"]) for e in ev if e.get("ph") == "X" and e["pid"] == 6}
    check(any(n == "TopologyConfig" for t, n in life) and all(n != "TopologyConfig" or t == min(t for t, _ in life)
                                                               for t, n in life), "TopologyConfig not on the leader only")
    check(len({t for t, _ in life}) == 2, "lifecycle lanes != AICPU threads")
    deps = os.path.join(os.path.dirname(path), "deps.json")
    rc, log = sh("sched-overhead", path, "--deps-json", deps)
    check(rc == 0 and "StateProbe" in log, f"sched-overhead on the AICore capture: rc {rc}: {log[-300:]}")


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    check_a5_hbg(*capture("a5hbg", "--platform", "a5sim", "--runtime", "hbg"))
    _, a2 = capture("a2hbg", "--platform", "a2a3sim", "--runtime", "hbg")
    check(a2["metadata"].get("transport") == "shared_memory", "a2a3sim capture is not shared-memory")
    check(all(s["producer"] == "aicpu" for s in a2["scheduler_records"]["streams"]), "a2a3 HBG has AICore streams")
    check(not a2.get("aicpu_lifecycle_records"), "a2a3 HBG carries lifecycle records")
    _, t5 = capture("a5tmr", "--platform", "a5sim")
    check(t5["metadata"].get("transport") == "host_shadow", "a5sim TMR is not host-shadow")
    check(t5["metadata"]["capture"]["balanced"], "a5sim TMR pools do not balance")
    check(all(s["producer"] == "aicpu" for s in t5["scheduler_records"]["streams"]), "a5 TMR has AICore streams")
    rc, log = sh("run", "sync_start", "--platform", "a5sim", "--runtime", "hbg", "-q", "--no-convert",
                 "-o", os.path.join(WORK, "refused"))
    check(rc == 1 and "runs no sync-start task" in log, f"sync-start under the AICore Scheduler: rc {rc}: {log[-200:]}")
    if FAILS:
        sys.exit(1)
    print("a5 e2e: ok")


main()
