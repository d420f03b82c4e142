#!/usr/bin/env python3
"""acid_case.py CASE WORK ROOT — one acid test on the tree WORK/src built by acid_build.sh:
run -> (inject the new phase's records) -> convert -> check-trace, JSON and .pb captures,
and the trace's content checked.

  phase_existing_lane  acid_probe drawn on Sched_N (the lane the schema names)
  phase_new_lane       acid_lane_probe drawn on the new lane Acid_N at tid 33000 + 10 N
  orch_phase           orchestrator records of the new kind orch_acid drawn acid(...) in yellow
  record_field         the new fields shown in the trace args: acid_extra and the metrics-only
                       acid_metric (scheduler phase record) on every scheduler slice,
                       acid_task_extra (AICPU task record)
                       on every task slice of the worker and AICPU views
  record_field_orch    the new orchestrator record field acid_orch_extra (the record grew) on
                       every orchestrator slice
  record_field_lifecycle  the new lifecycle record field acid_life_extra on every AICPU
                       Lifecycle slice of an A5 HBG run
  rename_alias         reclaim drawn (never release) from fresh and old captures
  orch_rename_retired  records naming the renamed orchestrator kind's old name (JSON
                       "orch_sync", .pb kind 1) drawn as orch_wait, "wait(...)"; records of
                       the retired kind (JSON "orch_acid_gone", .pb kind 7) read, never drawn;
                       fresh and old captures
  old_captures_read    today's committed captures still read after the additive edit
  type_change          today's captures refused naming loop_iter; fresh captures read
"""
import glob
import json
import os
import subprocess
import sys

case, work, root = sys.argv[1], sys.argv[2], sys.argv[3]
swl = f"{work}/build/tools/cli/swimlane"
out = f"{work}/{case}"
env = dict(os.environ, SWIMLANE_HOME=f"{work}/src")
FIXTURES = f"{root}/tests/fixtures/evolution"


def fail(msg):
    sys.exit(f"FAIL {case}: {msg}")


def sh(args, ok=True):
    p = subprocess.run(args, env=env, capture_output=True, text=True)
    if ok and p.returncode != 0:
        fail(f"{' '.join(args)} exited {p.returncode}: {p.stderr.strip()[-600:]}")
    return p


def capture():
    sh([swl, "run", "mixed_example", "--enable-chip-swimlane", "4", "-q", "-o", f"{out}/cap"])
    recs = glob.glob(f"{out}/cap/*/chip_swimlane_records.json")
    if not recs:
        fail("the run wrote no capture")
    return recs[0], recs[0][:-4] + "pb"


IDS = {"acid_probe": 4000, "acid_lane_probe": 4001}  # the ids acid_edit.py gives them


def inject(js, pb, names):
    """The first dispatch records (in file order) get the kinds in `names`."""
    r = json.load(open(js))
    todo = list(names)
    for st in r["scheduler_records"]["streams"]:
        for rec in st["records"]:
            if todo and rec["kind"] == "dispatch":
                rec["kind"] = todo.pop(0)
    if todo:
        fail("not enough dispatch records to inject into")
    json.dump(r, open(f"{out}/injected.json", "w"))
    proto = glob.glob(f"{work}/src/generated/swimlane_capture.proto")[0]
    text = subprocess.run(["protoc", "--decode=swimlane.Capture", "-I", os.path.dirname(proto), proto],
                          stdin=open(pb, "rb"), capture_output=True, check=True).stdout.decode()
    for n in names:
        text = text.replace("kind: 1\n", "kind: %d\n" % IDS[n], 1)
    data = subprocess.run(["protoc", "--encode=swimlane.Capture", "-I", os.path.dirname(proto), proto],
                          input=text.encode(), capture_output=True, check=True).stdout
    open(f"{out}/injected.pb", "wb").write(data)
    return f"{out}/injected.json", f"{out}/injected.pb"


def convert(src, tag):
    dst = f"{out}/{tag}.trace.json"
    p = sh([swl, "convert", src, "-o", dst])
    sh([swl, "check-trace", dst])
    t = json.load(open(dst))
    return (t["traceEvents"] if isinstance(t, dict) else t), p.stderr


def protoc(data, encode):
    proto = f"{work}/src/generated/swimlane_capture.proto"
    args = ["protoc", ("--encode" if encode else "--decode") + "=swimlane.Capture", "-I", os.path.dirname(proto), proto]
    return subprocess.run(args, input=data, capture_output=True, check=True).stdout


def orch_kinds(js, pb, kinds, tag):
    """The first orchestrator records (in file order) get the kinds in `kinds`, as
    (name, id) pairs: JSON by name ("phase"), .pb by id (kind)."""
    r = json.load(open(js))
    recs = [rec for thread in r["aicpu_orchestrator_phases"] for rec in thread]
    if len(recs) < len(kinds):
        fail(f"{js}: {len(recs)} orchestrator records, want at least {len(kinds)}")
    for rec, (name, _) in zip(recs, kinds):
        rec["phase"] = name
    json.dump(r, open(f"{out}/{tag}.json", "w"))
    head, sep, tail = protoc(open(pb, "rb").read(), False).decode().partition("orchestrator_phases {")
    if not sep:
        fail(f"{pb}: no orchestrator_phases")
    parts = tail.split("records {\n")
    if len(parts) <= len(kinds):
        fail(f"{pb}: fewer than {len(kinds)} orchestrator records")
    for i, (_, kid) in enumerate(kinds):  # (a record that names a kind already makes protoc fail)
        parts[i + 1] = f"kind: {kid}\n" + parts[i + 1]
    open(f"{out}/{tag}.pb", "wb").write(protoc((head + sep + "records {\n".join(parts)).encode(), True))
    return f"{out}/{tag}.json", f"{out}/{tag}.pb"


def lanes(ev):
    return {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e.get("ph") == "M" and e.get("name") == "thread_name"}


def slices(ev, stem):
    return [e for e in ev if e.get("ph") == "X" and e.get("name", "").split("(")[0] == stem]


os.makedirs(out, exist_ok=True)
if case in ("phase_existing_lane", "phase_new_lane"):
    js, pb = inject(*capture(), ["acid_probe", "acid_lane_probe"])
    for fmt, src in (("json", js), ("pb", pb)):
        ev, _ = convert(src, fmt)
        names = lanes(ev)
        if case == "phase_existing_lane":
            got = slices(ev, "acid_probe")
            if not got:
                fail(f"{fmt}: no acid_probe slice")
            for e in got:
                if not names.get((e["pid"], e["tid"]), "").startswith("Sched_") or e["args"].get("phase") != "acid_probe":
                    fail(f"{fmt}: acid_probe on lane {names.get((e['pid'], e['tid']))} / args {e['args']}")
        else:
            got = slices(ev, "acid_lane_probe")
            if not got:
                fail(f"{fmt}: no acid_lane_probe slice")
            for e in got:
                lane = names.get((e["pid"], e["tid"]))
                if e["pid"] != 2 or (e["tid"] - 33000) % 10 or lane != "Acid_%d" % ((e["tid"] - 33000) // 10):
                    fail(f"{fmt}: acid_lane_probe on pid {e['pid']} tid {e['tid']} lane {lane}")
elif case == "orch_phase":
    # the first two orchestrator records become orch_acid: JSON by name ("phase"), .pb by id (kind)
    js, pb = capture()
    r = json.load(open(js))
    thread = r["aicpu_orchestrator_phases"][0]
    if any(rec.get("phase") != "orch_submit" for rec in thread):
        fail("the runtime's orchestrator records do not name their kind orch_submit in the JSON")
    for rec in thread[:2]:
        rec["phase"] = "orch_acid"
    json.dump(r, open(f"{out}/orch.json", "w"))
    proto = f"{work}/src/generated/swimlane_capture.proto"
    text = subprocess.run(["protoc", "--decode=swimlane.Capture", "-I", os.path.dirname(proto), proto],
                          stdin=open(pb, "rb"), capture_output=True, check=True).stdout.decode()
    head, sep, tail = text.partition("orchestrator_phases {")
    if not sep:
        fail("the .pb capture has no orchestrator_phases")
    tail = tail.replace("records {\n", "records {\n    kind: 100\n", 2)
    data = subprocess.run(["protoc", "--encode=swimlane.Capture", "-I", os.path.dirname(proto), proto],
                          input=(head + sep + tail).encode(), capture_output=True, check=True).stdout
    open(f"{out}/orch.pb", "wb").write(data)
    for fmt in ("json", "pb"):
        ev, _ = convert(f"{out}/orch.{fmt}", fmt)
        names = lanes(ev)
        got = slices(ev, "acid")
        if len(got) != 2:
            fail(f"{fmt}: want 2 acid(...) orchestrator slices, got {len(got)}")
        for e in got:
            if e["pid"] != 1 or e.get("cname") != "yellow" or e["args"].get("phase") != "orch_acid" \
                    or not names.get((e["pid"], e["tid"]), "").startswith("Orch_"):
                fail(f"{fmt}: orch_acid drawn as {e}")
elif case == "record_field":
    js, pb = capture()
    for fmt, src in (("json", js), ("pb", pb)):
        ev, _ = convert(src, fmt)
        bars = [e for e in ev if e.get("ph") == "X" and e.get("cat") == "scheduler"]
        if not bars or any(e["args"].get("acid_extra") != 7 for e in bars):
            fail(f"{fmt}: scheduler slices without args.acid_extra = 7: "
                 f"{[e['args'] for e in bars if e['args'].get('acid_extra') != 7][:2]}")
        if any(e["args"].get("acid_metric") != 5 for e in bars):
            fail(f"{fmt}: scheduler slices without args.acid_metric = 5 (a metrics-only field): "
                 f"{[e['args'] for e in bars if e['args'].get('acid_metric') != 5][:2]}")
        tasks = [e for e in ev if e.get("ph") == "X" and e.get("cat") == "event" and "taskId" in e.get("args", {})]
        views = {e["pid"] for e in tasks}
        if len(views) < 2 or any(e["args"].get("acid_task_extra") != 11 for e in tasks):
            fail(f"{fmt}: task slices (views {sorted(views)}) without args.acid_task_extra = 11: "
                 f"{[e['args'] for e in tasks if e['args'].get('acid_task_extra') != 11][:2]}")
        # a rule may hide a field: R.hidden_args
        rules = f"{out}/hide.lua"
        open(rules, "w").write('local R = require("convert.default")\nR.hidden_args.acid_task_extra = true\nreturn R\n')
        dst = f"{out}/{fmt}.hidden.trace.json"
        sh([swl, "convert", src, "--rules", rules, "-o", dst])
        t = json.load(open(dst))
        ev = t["traceEvents"] if isinstance(t, dict) else t
        if any("acid_task_extra" in e.get("args", {}) for e in ev) or \
                not any(e.get("args", {}).get("acid_extra") == 7 for e in ev):
            fail(f"{fmt}: R.hidden_args.acid_task_extra did not hide only that field")
elif case == "record_field_orch":
    js, pb = capture()
    for fmt, src in (("json", js), ("pb", pb)):
        ev, _ = convert(src, fmt)
        orch = [e for e in ev if e.get("ph") == "X" and e.get("cat") == "orchestrator"]
        if not orch or any(e["args"].get("acid_orch_extra") != 13 for e in orch):
            fail(f"{fmt}: orchestrator slices without args.acid_orch_extra = 13: "
                 f"{[e['args'] for e in orch if e['args'].get('acid_orch_extra') != 13][:2]}")
elif case == "record_field_lifecycle":
    sh([swl, "run", "fanout", "--platform", "a5sim", "--runtime", "hbg", "--enable-chip-swimlane", "4", "-q",
        "--no-convert", "-o", f"{out}/cap"])
    js = glob.glob(f"{out}/cap/*/chip_swimlane_records.json")[0]
    if any(r.get("acid_life_extra") != 17 for r in json.load(open(js)).get("aicpu_lifecycle_records", [{}])):
        fail("the JSON lifecycle records do not carry acid_life_extra = 17")
    for fmt, src in (("json", js), ("pb", js[:-4] + "pb")):
        ev, _ = convert(src, fmt)
        life = [e for e in ev if e.get("ph") == "X" and e.get("pid") == 6]
        if not life or any(e["args"].get("acid_life_extra") != 17 for e in life):
            fail(f"{fmt}: AICPU Lifecycle slices without args.acid_life_extra = 17: "
                 f"{[e.get('args') for e in life if e['args'].get('acid_life_extra') != 17][:2]}")
elif case == "orch_rename_retired":
    # two records of the old name, two of the retired kind; the rest stay orch_submit
    kinds = [("orch_sync", 1), ("orch_sync", 1), ("orch_acid_gone", 7), ("orch_acid_gone", 7)]
    fresh = orch_kinds(*capture(), kinds, "fresh")
    old = orch_kinds(f"{FIXTURES}/chip_swimlane_records.json", f"{FIXTURES}/chip_swimlane_records.pb", kinds, "old")
    for fmt, src in (("json", fresh[0]), ("pb", fresh[1]), ("old_json", old[0]), ("old_pb", old[1])):
        n = sum(len(t) for t in json.load(open(fresh[0] if "old" not in fmt else old[0]))["aicpu_orchestrator_phases"])
        ev, err = convert(src, fmt)
        orch = [e for e in ev if e.get("ph") == "X" and e.get("cat") == "orchestrator"]
        wait = slices(ev, "wait")
        if len(wait) != 2 or any(e["args"].get("phase") != "orch_wait" or e["pid"] != 1 for e in wait):
            fail(f"{fmt}: want 2 wait(...) slices with args.phase orch_wait, got {[e['args'] for e in wait]}")
        if slices(ev, "sync") or any("acid_gone" in e["name"] or e["args"].get("phase") in ("orch_sync", "orch_acid_gone")
                                     for e in orch):
            fail(f"{fmt}: the old name or the retired kind was drawn")
        if len(orch) != n - 2:
            fail(f"{fmt}: {len(orch)} orchestrator slices, want {n - 2} (every record but the 2 retired)")
        if "acid_gone" in err or "orch_sync" in err:
            fail(f"{fmt}: a warning about a renamed or retired kind: {err!r}")
    # the diff trace labels orchestrator records by kind the same way
    dst = f"{out}/diff.trace.json"
    sh([swl, "diff", fresh[0], fresh[1], "-o", dst])
    t = json.load(open(dst))
    stems = sorted(e["name"].split("(")[0] for e in (t["traceEvents"] if isinstance(t, dict) else t)
                   if e.get("ph") == "X" and e.get("cat") == "orchestrator")
    if stems.count("wait") != 4 or "sync" in stems or any("acid_gone" in x for x in stems):
        fail(f"diff: orchestrator slices {stems}: want wait(...) twice per side and no retired kind")
elif case == "rename_alias":
    js, pb = capture()
    for fmt, src in (("json", js), ("pb", pb), ("old_json", f"{FIXTURES}/chip_swimlane_records.json"),
                     ("old_pb", f"{FIXTURES}/chip_swimlane_records.pb")):
        ev, err = convert(src, fmt)
        if not slices(ev, "reclaim") or slices(ev, "release"):
            fail(f"{fmt}: want reclaim(n) slices and no release(n): "
                 f"{len(slices(ev, 'reclaim'))} / {len(slices(ev, 'release'))}")
        if fmt.startswith("old") and "fingerprint" not in err:
            fail(f"{fmt}: an old capture read without a note: {err!r}")
elif case == "old_captures_read":
    for fmt in ("json", "pb"):
        ev, err = convert(f"{FIXTURES}/chip_swimlane_records.{fmt}", fmt)
        if err.count("fingerprint") != 1:
            fail(f"{fmt}: want exactly one fingerprint note, got {err!r}")
        if len(slices(ev, "dispatch")) < 1 or not [e for e in ev if e.get("pid") == 4 and e.get("ph") == "X"]:
            fail(f"{fmt}: the old capture lost its scheduler or worker slices")
elif case == "type_change":
    proto = open(f"{work}/src/generated/swimlane_capture.proto").read()
    if "reserved 17;" not in proto:
        fail("the removed field's number is not reserved in the .proto")
    for fmt in ("json", "pb"):
        dst = f"{out}/old_{fmt}.trace.json"
        p = sh([swl, "convert", f"{FIXTURES}/chip_swimlane_records.{fmt}", "-o", dst], ok=False)
        if p.returncode == 0 or "SchedPhaseRecord.loop_iter" not in p.stderr or os.path.exists(dst):
            fail(f"{fmt}: an old capture with loop_iter u32 was not refused by name "
                 f"(exit {p.returncode}, {p.stderr.strip()!r}, output left: {os.path.exists(dst)})")
    js, pb = capture()
    for fmt, src in (("json", js), ("pb", pb)):
        ev, err = convert(src, fmt)
        if "fingerprint" in err or not slices(ev, "dispatch"):
            fail(f"{fmt}: a fresh capture of the edited schema does not read cleanly: {err!r}")
else:
    fail("unknown case")
print(f"acid {case}: ok")
