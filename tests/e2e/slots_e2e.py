#!/usr/bin/env python3
"""slots_e2e.py SWIMLANE WORKDIR — selective task-timing slots end to end (issue 13 item 5):
`run` prints device_wall.task_slot_<N>; the capture carries them as metadata.task_timing_slots
in both formats (the same cycles, the same spans `run` printed); `convert` of either format
draws one lane per slot in the Task Timing Slots view with the slot's window and prints them
in the summary (text and --summary-json); at level 1, under host_build_graph and on a5sim too;
nothing of it for a workload without tagged tasks; at --enable-chip-swimlane 0 and with
--rounds 3 the spans are printed and no capture is written."""
import glob
import json
import os
import re
import shutil

from e2e_util import SWL, WORK, check, finish, sh

SPAN = re.compile(r"^swimlane: device_wall\.task_slot_(\d+) = ([0-9.]+) us \(dispatch -> finish\)$", re.M)


def run(name, workload, *extra):
    out = os.path.join(WORK, name)
    rc, log = sh("run", workload, "--no-convert", "-o", out, *extra)
    check(rc == 0, f"{name}: run rc {rc}: {log[-300:]}")
    caps = glob.glob(os.path.join(out, "*", "chip_swimlane_records.json"))
    return (caps[0] if caps else None), {int(n): v for n, v in SPAN.findall(log)}, out


def slots_of(capture):
    return {s["slot"]: s for s in json.load(open(capture))["metadata"].get("task_timing_slots", [])}


def convert(capture, suffix):
    out = capture + suffix + ".trace.json"
    summary = capture + suffix + ".summary.json"
    rc, log = sh("convert", capture, "-o", out, "--summary-json", summary)
    check(rc == 0, f"convert {os.path.basename(capture)}: rc {rc}: {log[-300:]}")
    if rc:
        return None, log, None
    return json.load(open(out)), log, json.load(open(summary))


def timing_view(trace):
    ev = trace["traceEvents"]
    pids = [e["pid"] for e in ev if e.get("name") == "process_name" and e["args"]["name"] == "Task Timing Slots"]
    if len(pids) != 1:
        return None, {}, {}
    pid = pids[0]
    lanes = {e["tid"]: e["args"]["name"] for e in ev if e.get("pid") == pid and e.get("name") == "thread_name"}
    bars = {e["args"]["slot"]: e for e in ev if e.get("pid") == pid and e.get("ph") == "X"}
    return pid, lanes, bars


def json_host(trace):
    return "clock_aligned" in json.dumps(trace.get("metadata", {}))


def check_capture(name, capture, printed):
    """The capture's slots: the tagged slots 0 and 1, each span the one `run` printed."""
    slots = slots_of(capture)
    check(sorted(slots) == [0, 1], f"{name}: capture slots {sorted(slots)} (want [0, 1])")
    freq = json.load(open(capture))["metadata"]["clock_freq_hz"]
    for n, s in slots.items():
        check(0 < s["dispatch_cycles"] <= s["finish_cycles"], f"{name}: slot {n} window {s}")
        span = (s["finish_cycles"] - s["dispatch_cycles"]) * 1e6 / freq
        if printed:
            check(f"{span:.3f}" == printed.get(n), f"{name}: slot {n} capture span {span:.3f} != run's {printed.get(n)}")
    return slots, freq


def check_trace(name, trace, log, summary, slots, freq):
    """The trace draws each slot on its own lane with the capture's window; the summary lists it."""
    pid, lanes, bars = timing_view(trace)
    check(pid is not None, f"{name}: no single 'Task Timing Slots' process")
    check(sorted(lanes.values()) == [f"task_slot_{n}" for n in sorted(slots)], f"{name}: lanes {lanes}")
    check(sorted(bars) == sorted(slots), f"{name}: bars for slots {sorted(bars)}")
    for n, b in bars.items():
        s = slots[n]
        check(lanes.get(b["tid"]) == f"task_slot_{n}" and b["name"] == f"task_slot_{n}", f"{name}: bar {b}")
        check(b["args"]["dispatch_cycles"] == s["dispatch_cycles"] and b["args"]["finish_cycles"] == s["finish_cycles"],
              f"{name}: slot {n} bar args {b['args']} != capture {s}")
        span = (s["finish_cycles"] - s["dispatch_cycles"]) * 1e6 / freq
        # on a host-orchestrated capture's axis both ends are placed on host ns (1 ns steps)
        tol = 0.002 + 1e-4 * span if json_host(trace) else 1e-6
        check(abs(b["dur"] - span) <= tol and abs(b["args"]["span_us"] - span) < 1e-6,
              f"{name}: slot {n} bar dur {b['dur']} span {span}")
        check(f"  device_wall.task_slot_{n} = {span:.3f} us (dispatch -> finish)" in log, f"{name}: summary line {n}")
    js = {s["slot"]: s for s in summary.get("task_timing_slots", [])}
    check(sorted(js) == sorted(slots), f"{name}: --summary-json slots {sorted(js)}")
    for n, s in js.items():
        check(s["dispatch_cycles"] == slots[n]["dispatch_cycles"], f"{name}: --summary-json slot {n}")
    # the bar lies inside the trace's device timeline: after the first and before the last task bar
    tasks = [e for e in trace["traceEvents"] if e.get("ph") == "X" and e.get("pid") != pid]
    lo, hi = min(e["ts"] for e in tasks), max(e["ts"] + e["dur"] for e in tasks)
    for n, b in bars.items():
        check(lo - 1e-6 <= b["ts"] and b["ts"] + b["dur"] <= hi + 1e-6, f"{name}: slot {n} bar outside [{lo}, {hi}]")


def both_formats(name, workload, *extra):
    capture, printed, _ = run(name, workload, *extra)
    if not capture:
        return
    slots, freq = check_capture(name, capture, printed)
    pb = capture[:-len(".json")] + ".pb"
    check(os.path.exists(pb), f"{name}: no .pb capture")
    traces = []
    for path in (capture, pb):
        trace, log, summary = convert(path, "")
        if trace:
            check_trace(f"{name} {os.path.basename(path)}", trace, log, summary, slots, freq)
            traces.append(trace)
    if len(traces) == 2:
        check(timing_view(traces[0])[2] == timing_view(traces[1])[2], f"{name}: JSON and .pb draw different slot bars")
        rc, log = sh("check-trace", capture + ".trace.json")
        check(rc == 0, f"{name}: check-trace rc {rc}: {log[-300:]}")


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    both_formats("l4", "vector_example", "--enable-chip-swimlane", "4")
    both_formats("l1", "vector_example", "--enable-chip-swimlane", "1")
    both_formats("hbg", "vector_example", "--enable-chip-swimlane", "4", "--runtime", "hbg")
    both_formats("a5", "vector_example", "--enable-chip-swimlane", "2", "--platform", "a5sim", "--runtime", "hbg")

    # no tagged task: no slots in the capture, no view in the trace
    capture, printed, _ = run("untagged", "fanout", "--enable-chip-swimlane", "4")
    if capture:
        check(not printed and "task_timing_slots" not in json.load(open(capture))["metadata"],
              "untagged: slots printed or in the capture")
        trace, log, summary = convert(capture, "")
        if trace:
            check(timing_view(trace)[0] is None and "task_slot" not in log and "task_timing_slots" not in summary,
                  "untagged: a Task Timing Slots view or summary line")

    # swimlane off: the spans printed, nothing captured; rounds: per-round statistics, no capture
    capture, printed, out = run("off", "vector_example", "--enable-chip-swimlane", "0")
    check(sorted(printed) == [0, 1], f"off: printed slots {sorted(printed)}")
    check(not glob.glob(os.path.join(out, "*", "chip_swimlane_records.*")), "off: a capture was written")
    rc, log = sh("run", "vector_example", "--rounds", "3", "--no-convert", "-o", os.path.join(WORK, "rounds"))
    check(rc == 0 and re.search(r"device_wall\.task_slot_0: min [0-9.]+ us, median [0-9.]+ us, max [0-9.]+ us "
                                r"over 3 rounds", log), f"rounds: rc {rc}: {log[-300:]}")
    check(not glob.glob(os.path.join(WORK, "rounds", "*", "chip_swimlane_records.*")), "rounds: a capture was written")

    finish("task-timing slots: run, capture (JSON + .pb), trace, summary")


main()
