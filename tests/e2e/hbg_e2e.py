#!/usr/bin/env python3
"""hbg_e2e.py SWIMLANE WORKDIR — host_build_graph end to end: `run --runtime hbg` ->
capture content (host records, uploads, clock anchors, the P thread's phases) ->
`convert` (clock_aligned layout, Host Prepare / H2D and Host Orchestrator lanes, resolve
and async_poll on the P lane) -> `check-trace` -> `sched-overhead`; the same capture
without anchors (causal_composite); edited captures for every bad-input rule; the
reference's worked clock-alignment example; run's option errors."""
import copy
import glob
import json
import os
import re
import shutil
import subprocess
import sys

SWL, WORK = sys.argv[1], sys.argv[2]
FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL:", what)


def sh(*args):
    p = subprocess.run([SWL, *args], capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout + p.stderr


def run_capture(name, *extra):
    out = os.path.join(WORK, name)
    rc, log = sh("run", "vector_example", "--enable-chip-swimlane", "4", "--enable-dep-gen", "-q", "-o", out, *extra)
    check(rc == 0, f"run {' '.join(extra)}: rc {rc}: {log[-300:]}")
    return glob.glob(os.path.join(out, "*", "chip_swimlane_records.json"))[0]


def convert(path, expect_rc=0):
    out = path + ".trace.json"
    rc, log = sh("convert", path, "-o", out)
    check(rc == expect_rc, f"convert {os.path.basename(path)}: rc {rc} (want {expect_rc}): {log[-300:]}")
    return (json.load(open(out)) if rc == 0 else None), log, out


def edited(src, name, edit):
    cap = json.load(open(src))
    edit(cap)
    path = os.path.join(WORK, name + ".json")
    json.dump(cap, open(path, "w"))
    return path


def procs(trace):
    return [(e["pid"], e["args"]["name"]) for e in trace["traceEvents"] if e.get("name") == "process_name"]


def threads(trace):
    return {(e["pid"], e["tid"]): e["args"]["name"] for e in trace["traceEvents"] if e.get("name") == "thread_name"}


def flows(trace, name):
    return [e for e in trace["traceEvents"] if e.get("ph") == "s" and e.get("name") == name]


def slices(trace, pid=None):
    return [e for e in trace["traceEvents"] if e.get("ph") == "X" and (pid is None or e["pid"] == pid)]


# ---- the capture ------------------------------------------------------------------------
shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
rec = run_capture("hbg", "--runtime", "hbg")
cap = json.load(open(rec))
md = cap["metadata"]
check(md.get("orchestrator_source") == "host" and md.get("runtime") == "host_build_graph", "host metadata")
hop = cap["host_orchestrator_phases"]
nrec = sum(len(t) for t in hop)
hc = md["host_capture"]
# vector_example submits 6 tasks (5 kernels + 1 predicated off): one record per submit
check(nrec == 6 and hc["expected_records"] == 6 and hc["recorded_records"] == 6 and hc["dropped_records"] == 0
      and hc["status"] == "complete", f"host_capture {hc} vs {nrec} records")
check([r["submit_idx"] for r in hop[0]] == list(range(6)), "submit_idx in order")
check(all(r["start_host_ns"] <= r["end_host_ns"] for r in hop[0]), "host records ordered")
up = cap["host_device_uploads"]
check([u["phase"] for u in up] == ["arena_h2d", "graph_upload", "tensor_h2d"], f"upload phases {up}")
# 8 tensors of 4 x 128 float32 (the default case's params)
check(up[2]["detail"] == 8 * 4 * 128 * 4, f"tensor_h2d bytes {up[2]['detail']}")
check(up[0]["detail"] == up[1]["detail"] + up[2]["detail"], "arena = graph + tensors")
check(hop[0][-1]["end_host_ns"] <= up[0]["start_host_ns"], "the graph is built before the upload")
anc = md["clock_anchors"]
pre = [s for s in anc["samples"] if s["position"] == "pre_host_orchestration"]
post = [s for s in anc["samples"] if s["position"] == "post_device_execution"]
check(len(pre) == 3 and len(post) == 3 and anc["samples_per_position"] == 3, "3 anchor samples per position")
check([s["sample_idx"] for s in pre] == [0, 1, 2] and [s["sample_idx"] for s in post] == [0, 1, 2],
      "anchor samples numbered 0..2 within each position")
check(all(s["host_before_ns"] <= s["host_after_ns"] and s["uncertainty_ns"] == (s["rtt_ns"] + 1) // 2
          for s in anc["samples"]), "anchor round-trip bounds")
check(max(s["device_cycles"] for s in pre) < min(s["device_cycles"] for s in post), "anchors bracket the run")
check(max(s["host_after_ns"] for s in pre) <= hop[0][0]["start_host_ns"], "opening anchor before host orchestration")
streams = {s["scheduler_id"]: s["records"] for s in cap["scheduler_records"]["streams"]}
P = 2  # run's default: 2 scheduler threads, the P thread is index 2
p_kinds = {r["kind"] for r in streams.get(P, [])}
check(p_kinds <= {"resolve_standalone", "async_poll", "dummy", "dummy_task", "predicated_skip"} and
      {"resolve_standalone", "async_poll", "dummy"} <= p_kinds, f"P thread phases {p_kinds}")
outer = [r for r in streams[P] if r["kind"] in ("resolve_standalone", "async_poll", "dummy")]
check(all(a["end_cycles"] <= b["start_cycles"] for a, b in zip(outer, outer[1:])), "P phases mutually exclusive")
check(not any(a["kind"] == b["kind"] == "async_poll" and a["tasks_processed"] == b["tasks_processed"] == 0
              for a, b in zip(outer, outer[1:])), "consecutive empty polls compacted")
check(sum(r["tasks_processed"] for r in outer if r["kind"] == "resolve_standalone") == 5,
      "resolve_standalone resolves the 5 kernel tasks")
for s, recs in streams.items():
    if s != P:
        check(not {r["kind"] for r in recs} & {"resolve", "resolve_standalone", "dummy"},
              f"scheduler {s} leaves resolve and dummy to P")

# ---- convert, check-trace, sched-overhead ---------------------------------------------
trace, _, tpath = convert(rec)
tm = trace["metadata"]
check(tm["layout"] == "clock_aligned" and tm["trace_status"] == "complete" and
      tm["clock_alignment"]["status"] == "calibrated" and tm["cross_domain_latency_available"] is True,
      f"timeline metadata {tm}")
# device timestamps in whole microseconds (device_uptime_us) are 1000 ns coarser: the
# anchors' uncertainty grows by exactly that (the reference's device quantization)
us_cap = edited(rec, "uptime_us", lambda c: c["metadata"]["clock_anchors"].update(
    raw_device_timestamp_unit="device_uptime_us"))
t_us, _, _ = convert(us_cap)
if t_us:
    check(t_us["metadata"]["clock_alignment"]["anchor_uncertainty_ns"] ==
          tm["clock_alignment"]["anchor_uncertainty_ns"] + 1000,
          f"device_uptime_us: uncertainty {t_us['metadata']['clock_alignment']} vs {tm['clock_alignment']}")
else:
    check(False, "device_uptime_us capture did not convert")
# every Worker View bar sits where the reference's mapping puts its AICore receive time
# (integer math truncating toward zero, best (rtt, idx) sample per position)
def tdiv(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def best(pos):
    return min((x for x in anc["samples"] if x["position"] == pos),
               key=lambda x: (x["host_after_ns"] - x["host_before_ns"], x["sample_idx"]))


def mid(x):
    return x["host_before_ns"] + (x["host_after_ns"] - x["host_before_ns"]) // 2


def ref_us(cyc):
    a, b, f = best("pre_host_orchestration"), best("post_device_execution"), md["clock_freq_hz"]
    delta, span = cyc - a["device_cycles"], b["device_cycles"] - a["device_cycles"]
    corr = tdiv((mid(b) - (mid(a) + tdiv(span * 10**9, f))) * delta, span)
    return (mid(a) + tdiv(delta * 10**9, f) + corr - md["host_orchestration_origin_ns"]) / 1000.0


want_ts = sorted(ref_us(r[3] - r[5]) for r in cap["aicore_tasks"])
got_ts = sorted(e["ts"] for e in slices(trace, 4) if e["tid"] < 19000)
check(want_ts == got_ts and len(got_ts) == 5, f"calibrated Worker View bars {got_ts} vs the reference mapping {want_ts}")
# a host timestamp quantization adds to the bound, not to the anchors' own uncertainty
q_cap = edited(rec, "quant250", lambda c: c["metadata"].update(host_timestamp_quantization_ns=250))
t_q, _, _ = convert(q_cap)
al, alq = tm["clock_alignment"], (t_q["metadata"]["clock_alignment"] if t_q else {})
check(alq.get("anchor_uncertainty_ns") == al["anchor_uncertainty_ns"] and alq.get("host_timestamp_quantization_ns") == 250
      and alq.get("max_uncertainty_ns") == al["anchor_uncertainty_ns"] + 250, f"quantization 250: {alq} vs {al}")
pn, tn = procs(trace), threads(trace)
check((1, "Host Orchestrator") in pn and (1, "Host Prepare") in pn, f"host processes {pn}")
check(tn.get((1, 4000)) == "Host_0" and tn.get((1, 4100)) == "H2D", "Host_0 and H2D lanes")
p_lane = [e for e in slices(trace, 2) if e["tid"] == 30000 + 10 * P]
check(any(e["name"].startswith("resolve(") for e in p_lane) and any(e["name"].startswith("async_poll(")
      for e in p_lane), "resolve and async_poll on the P thread's main lane")
host_end = max(e["ts"] + e["dur"] for e in slices(trace, 1))
dev_start = min(e["ts"] for e in slices(trace) if e["pid"] != 1)
check(host_end <= dev_start, f"host timeline ({host_end}) before the device timeline ({dev_start})")
# calibrated and complete: the host submit and the device dispatch share one axis, so
# each dispatched kernel task gets its submit→dispatch arrow
check(len(flows(trace, "submit\u2192dispatch")) == 5, f"submit→dispatch arrows: {len(flows(trace, 'submit→dispatch'))}")
h2d = [e for e in slices(trace, 1) if e["tid"] == 4100]
check([e["args"]["bytes"] for e in h2d] == [u["detail"] for u in up], "H2D bars carry the bytes")
# the .pb capture carries the host sections and the anchors: the same trace, both formats
pb = rec[:-len(".json")] + ".pb"
for fmt, ext in (("json", ".json"), ("proto", ".pftrace")):
    outs = []
    for src in (rec, pb):
        out = src + ".same" + ext
        rc, log = sh("convert", src, "--format", fmt, "-o", out)
        check(rc == 0, f"convert {os.path.basename(src)} --format {fmt}: {log[-300:]}")
        outs.append(open(out, "rb").read() if rc == 0 else b"")
    check(outs[0] == outs[1] and outs[0], f"--format {fmt}: the .pb capture's trace differs from the JSON capture's")
for tr in (tpath, rec + ".same.pftrace"):
    rc, log = sh("check-trace", tr)
    check(rc == 0 and "warning" not in log, f"check-trace {os.path.basename(tr)}: {log[-300:]}")
rc, log = sh("sched-overhead", rec)
# the P thread's standalone phases are in the budget: resolve_standalone as
# "resolve (outer phase)", with its summed time, and dummy
res_us = sum(r["end_cycles"] - r["start_cycles"] for r in outer if r["kind"] == "resolve_standalone") * 1e6 / md["clock_freq_hz"]
m = re.search(r"^  resolve \(outer phase\) +([0-9.]+) ", log, re.M)
check(rc == 0 and m and abs(float(m.group(1)) - res_us) <= 0.05 + 1e-9 and "  dummy (outer phase)" in log,
      f"sched-overhead on the HBG capture: rc {rc}, resolve {m and m.group(1)} vs {res_us:.2f} us: {log[-300:]}")

# ---- no anchors: causal composite -----------------------------------------------------
noanc = edited(rec, "noanchors", lambda c: c["metadata"].pop("clock_anchors"))
t2, _, _ = convert(noanc)
m2 = t2["metadata"]
check(m2["layout"] == "causal_composite" and m2["clock_alignment"]["reason"] == "missing_clock_anchors" and
      m2["cross_domain_gap_unknown"] is True, f"no anchors: {m2}")
check(not flows(t2, "submit\u2192dispatch"), "uncalibrated: a submit→dispatch arrow across the unknown gap")
seam = m2["logical_seam_us"]
check(min(e["ts"] for e in slices(t2) if e["pid"] != 1) >= seam, "uncalibrated: device block after the seam")


# ---- unaligned reasons ------------------------------------------------------------------
def swap_positions(c):
    for s in c["metadata"]["clock_anchors"]["samples"]:
        s["position"] = {"pre_host_orchestration": "post_device_execution",
                         "post_device_execution": "pre_host_orchestration"}[s["position"]]


def shrink_coverage(c):
    for s in c["metadata"]["clock_anchors"]["samples"]:
        if s["position"] == "post_device_execution":
            s["device_cycles"] = max(x["device_cycles"] for x in c["metadata"]["clock_anchors"]["samples"]
                                     if x["position"] == "pre_host_orchestration") + 1


def negative_quant(c):
    c["metadata"]["host_timestamp_quantization_ns"] = -1


def bad_samples(c):
    for s in c["metadata"]["clock_anchors"]["samples"]:
        if s["position"] == "pre_host_orchestration":
            s["host_after_ns"] = s["host_before_ns"] - 1


def anchors(c):
    return c["metadata"]["clock_anchors"]


def bad_post_samples(c):
    for s in anchors(c)["samples"]:
        if s["position"] == "post_device_execution":
            s["error"] = "read_failed"


def post_without_idx(c):  # every field of a sample must be an integer, sample_idx too
    for s in anchors(c)["samples"]:
        if s["position"] == "post_device_execution":
            del s["sample_idx"]


def device_backwards(c):  # the device counter at the closing anchor below the opening one
    pre = min(s["device_cycles"] for s in anchors(c)["samples"] if s["position"] == "pre_host_orchestration")
    for s in anchors(c)["samples"]:
        if s["position"] == "post_device_execution":
            s["device_cycles"] = pre - 1


def receive_before_coverage(c):  # only one AICore receive time before the opening anchor
    pre = min(s["device_cycles"] for s in anchors(c)["samples"] if s["position"] == "pre_host_orchestration")
    row = c["aicore_tasks"][0]  # [core, token, task, start, end, receive_to_start]
    row[5] = row[3] - (pre - 1)


def set_key(where, key, value):
    def edit(c):
        where(c)[key] = value
    return edit


for name, edit, reason in [("order", swap_positions, "host_anchor_order_invalid"),
                           ("coverage", shrink_coverage, "device_timestamps_outside_anchor_coverage"),
                           ("coverage_aicore", receive_before_coverage, "device_timestamps_outside_anchor_coverage"),
                           ("quant", negative_quant, "invalid_host_timestamp_quantization"),
                           ("samples", bad_samples, "no_valid_pre_host_orchestration_anchor"),
                           ("post", bad_post_samples, "no_valid_post_device_execution_anchor"),
                           ("noidx", post_without_idx, "no_valid_post_device_execution_anchor"),
                           ("devorder", device_backwards, "device_anchor_order_invalid"),
                           ("nosamples", lambda c: anchors(c).pop("samples"), "missing_clock_anchor_samples"),
                           ("unit", set_key(anchors, "device_timestamp_unit", "ticks"),
                            "unsupported_device_timestamp_unit"),
                           ("rawunit", set_key(anchors, "raw_device_timestamp_unit", "ticks"),
                            "unsupported_raw_device_timestamp_unit")]:
    t3, _, _ = convert(edited(rec, name, edit))
    al = t3["metadata"]["clock_alignment"] if t3 else {}
    check(al.get("status") == "unaligned" and al.get("reason") == reason, f"{name}: {al} (want {reason})")


# ---- refused captures ------------------------------------------------------------------
def both_orch(c):
    c["aicpu_orchestrator_phases"] = [[{"submit_idx": 0, "task_id": 0, "start_cycles": 5, "end_cycles": 6}]]


def before_origin(c):
    c["host_orchestrator_phases"][0][0]["start_host_ns"] = c["metadata"]["host_orchestration_origin_ns"] - 1


def count_mismatch(c):
    c["metadata"]["host_capture"]["expected_records"] = 7


# a zero device frequency is refused before alignment (so invalid_device_frequency never shows)
for name, edit, msg in [("both", both_orch, "both AICPU and host orchestrator phases are present"),
                        ("freq", set_key(lambda c: c["metadata"], "clock_freq_hz", 0),
                         "$.metadata.clock_freq_hz: metadata missing/zero clock_freq_hz"),
                        ("origin", before_origin, "invalid host orchestrator phase: origin=")]:
    path = edited(rec, name, edit)
    _, log, out = convert(path, expect_rc=1)
    check(msg in log and log.startswith("swimlane: " + path), f"{name}: message {log[-300:]}")
    check(not os.path.exists(out), f"{name}: no half-written trace")
def upload_backwards(c):
    u = c["host_device_uploads"][0]
    u["end_host_ns"] = u["start_host_ns"] - 1


path = edited(rec, "upload", upload_backwards)
_, log, out = convert(path, expect_rc=1)
check("$.host_device_uploads[0]: invalid host device upload: origin=" in log and log.startswith("swimlane: " + path),
      f"upload: message {log[-300:]}")
check(not os.path.exists(out), "upload: no half-written trace")
def edited_hc(name, edit):
    c = json.load(open(rec))
    edit(c)
    return c["metadata"]["host_capture"]


def only_error(c):  # the writer's error alone, then the converter's findings
    c["metadata"]["host_capture"] = {"error": "record_allocation_failed"}


for name, edit, errs in [("mismatch", count_mismatch, ["expected_record_count_mismatch"]),
                         ("only_error", only_error, ["expected_record_count_missing"]),
                         ("nostatus", lambda c: c["metadata"]["host_capture"].pop("status"), None),
                         ("nullcounts", lambda c: c["metadata"]["host_capture"].update(dropped_records=None), None),
                         ("recorded", set_key(lambda c: c["metadata"]["host_capture"], "recorded_records", 2),
                          ["recorded_record_count_mismatch"]),
                         ("noexpected", lambda c: c["metadata"]["host_capture"].pop("expected_records"),
                          ["expected_record_count_missing"])]:
    t4, _, _ = convert(edited(rec, name, edit))
    hc4 = t4["metadata"]["host_capture"]
    # the capture's object copied, key for key, plus the converter's findings
    want4 = edited_hc(name, edit)
    check({k: v for k, v in hc4.items() if k != "converter_validation_errors"} == want4 and
          list(hc4)[:len(want4)] == list(want4), f"{name}: host_capture {hc4} is not a copy of {want4}")
    check(t4["metadata"]["trace_status"] == "partial" and hc4.get("converter_validation_errors") == errs,
          f"{name}: {hc4} (want {errs})")
    check(t4["metadata"]["cross_domain_latency_available"] is False and not flows(t4, "submit\u2192dispatch"),
          f"{name}: partial host records, yet submit→dispatch arrows")

# ---- host mode from any one of its three signs -----------------------------------------
def only_source(c):  # orchestrator_source alone: no host records at all
    c["metadata"].pop("host_capture")
    c.pop("host_orchestrator_phases")
    c.pop("host_device_uploads")


def only_records(c):  # the host records alone (a legacy capture: no host_capture status)
    c["metadata"].pop("host_capture")
    c["metadata"].pop("orchestrator_source")


def only_status(c):  # metadata.host_capture alone
    c["metadata"].pop("orchestrator_source")
    c.pop("host_orchestrator_phases")
    c.pop("host_device_uploads")


legacy = {"status": "unknown", "recorded_records": 6, "dropped_records": None, "error": "legacy_capture_status_missing"}
for name, edit, want_hc, missing in [("only_source", only_source, dict(legacy, recorded_records=0), True),
                                     ("only_records", only_records, legacy, False),
                                     ("only_status", only_status, None, True)]:
    t6, _, _ = convert(edited(rec, name, edit))
    m6 = t6["metadata"] if t6 else {}
    hc6 = m6.get("host_capture", {})
    check(m6.get("layout") == "clock_aligned" and m6.get("trace_status") == "partial" and
          m6.get("host_records_complete") is False and m6.get("host_records_missing", False) is missing,
          f"{name}: not read as host mode, or not partial: {m6}")
    if want_hc:
        check(hc6 == want_hc, f"{name}: host_capture {hc6} (want {want_hc})")
    else:  # the status says 6 records; none are there
        check(hc6.get("converter_validation_errors") == ["recorded_record_count_mismatch", "expected_record_count_mismatch"],
              f"{name}: host_capture {hc6}")
    has_host_lanes = any(p == 1 for p, _ in procs(t6)) if t6 else None
    check(has_host_lanes is not missing, f"{name}: host lanes {procs(t6) if t6 else None}")

# ---- the reference's worked example -------------------------------------------------
worked = {"chip_swimlane_level": 1,
          "metadata": {"clock_freq_hz": 1000000000, "num_cores": 1, "core_types": ["aiv"],
                       "orchestrator_source": "host", "host_orchestration_origin_ns": 1500,
                       "clock_anchors": {"device_timestamp_unit": "syscnt_cycles", "samples": [
                           {"position": "pre_host_orchestration", "sample_idx": 0, "host_before_ns": 990,
                            "device_cycles": 100, "host_after_ns": 1010, "error": None},
                           {"position": "post_device_execution", "sample_idx": 0, "host_before_ns": 5080,
                            "device_cycles": 4100, "host_after_ns": 5120, "error": None}]}},
          "aicore_tasks": [[0, 1, 1, 2000, 3000, 0]], "aicpu_tasks": []}
wpath = os.path.join(WORK, "worked.json")
json.dump(worked, open(wpath, "w"))
t5, _, _ = convert(wpath)
bar = [e for e in slices(t5, 4)][0]
check(bar["ts"] == 1.447 and t5["metadata"]["clock_alignment"]["anchor_uncertainty_ns"] == 20,
      f"worked example: ts {bar['ts']}, {t5['metadata']['clock_alignment']}")

# ---- TMR with --clock-anchors: anchors, no host mode -----------------------------------
tmr = json.load(open(run_capture("tmr", "--clock-anchors")))
check(len(tmr["metadata"]["clock_anchors"]["samples"]) == 6 and "orchestrator_source" not in tmr["metadata"],
      "TMR --clock-anchors: anchors only")
# TMR opens before kernel launch (and the orchestrator thread): every device timestamp,
# the orchestrator's included, lies inside the anchors' interval
ts = [v for r in tmr["aicore_tasks"] for v in (r[3] - r[5], r[3], r[4])]
ts += [v for r in tmr["scheduler_tasks"]["records"] for v in r[2:4]]
ts += [r[k] for st in tmr["scheduler_records"]["streams"] for r in st["records"] for k in ("start_cycles", "end_cycles")]
ts += [r[k] for t in tmr["aicpu_orchestrator_phases"] for r in t for k in ("start_cycles", "end_cycles")]
tsm = tmr["metadata"]["clock_anchors"]["samples"]
lo = max(x["device_cycles"] for x in tsm if x["position"] == "pre_host_orchestration")
hi = min(x["device_cycles"] for x in tsm if x["position"] == "post_device_execution")
check(len(ts) > 40 and lo <= min(ts) and max(ts) <= hi, f"TMR anchors [{lo}, {hi}] vs device timestamps [{min(ts)}, {max(ts)}]")
check("clock_anchors" not in json.load(open(run_capture("tmr0")))["metadata"], "TMR: no anchors by default")

# ---- an interrupted HBG run: a readable capture marked truncated ----------------------
import signal
import time
iout = os.path.join(WORK, "int")
proc = subprocess.Popen([SWL, "run", "bench_flat", "--runtime", "hbg", "--enable-chip-swimlane", "4", "-q", "-o", iout],
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
time.sleep(0.3)
proc.send_signal(signal.SIGINT)
ilog = proc.communicate(timeout=120)[0].decode()
irec = glob.glob(os.path.join(iout, "*", "chip_swimlane_records.json"))
check(proc.returncode in (0, 130) and irec, f"interrupted run: rc {proc.returncode} {ilog[-300:]}")
if irec:
    ic = json.load(open(irec[0]))
    ti, _, _ = convert(irec[0])
    if proc.returncode == 130:  # the signal came while it ran
        check(ic["metadata"]["capture"]["truncated"] is True and ic["metadata"]["host_capture"]["status"] == "truncated"
              and ti["metadata"]["trace_status"] == "partial", "interrupted: truncated capture, partial trace")
    else:  # the machine finished first: a complete capture
        check(ti["metadata"]["trace_status"] == "complete", "uninterrupted bench_flat: complete trace")

# ---- option errors ----------------------------------------------------------------------
rc, log = sh("run", "vector_example", "--runtime", "xyz")
check(rc == 2 and "swimlane run: --runtime expects 'tmr' or 'hbg', got 'xyz'" in log, f"bad --runtime: {rc} {log}")
wl = os.path.join(WORK, "tmr_only.lua")
src = open(os.path.join(os.environ.get("SWIMLANE_HOME", "."), "lua/workloads/vector_example.lua")).read()
open(wl, "w").write(src.replace('orchestrator_name = "VectorOrch",', 'orchestrator_name = "VectorOrch", runtimes = { "tmr" },'))
rc, log = sh("run", wl, "--runtime", "hbg", "-o", os.path.join(WORK, "x"))
check(rc == 1 and "does not support --runtime hbg" in log, f"workload runtimes: {rc} {log}")

print("hbg e2e: %d failure(s)" % len(FAILS))
sys.exit(1 if FAILS else 0)
