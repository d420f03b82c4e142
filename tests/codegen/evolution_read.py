#!/usr/bin/env python3
"""evolution_read.py SWIMLANE ROOT — this build reading captures of other schemas (JSON and .pb
of tests/fixtures/evolution, edited): same layout -> silent; captures of earlier schemas
(tests/fixtures/evolution/v*/) -> read with one note; a foreign fingerprint -> one note;
a field whose type changed -> refused naming it, no output; an unknown phase kind -> one
warning naming it and the record; a newer schema's capture (a field this build lacks: a
scheduler-task column, an orchestrator key) -> read with one note, the new values in the
trace args."""
import json
import os
import subprocess
import sys
import tempfile

swl, root = sys.argv[1], sys.argv[2]
fix = f"{root}/tests/fixtures/evolution/chip_swimlane_records.json"
tmp = tempfile.mkdtemp(prefix="sl_evolution_")


def fail(msg):
    sys.exit("FAIL: " + msg)


def convert(rec, name):
    path = f"{tmp}/{name}.json"
    json.dump(rec, open(path, "w"))
    out = f"{tmp}/{name}.trace.json"
    p = subprocess.run([swl, "convert", path, "-o", out], capture_output=True, text=True)
    return p.returncode, p.stderr, os.path.exists(out)


def fresh():
    return json.load(open(fix))


for fmt in ("json", "pb"):  # today's fixtures: silent about the schema
    p = subprocess.run([swl, "convert", fix[:-4] + fmt, "-o", f"{tmp}/same_{fmt}.trace.json"],
                       capture_output=True, text=True)
    if p.returncode != 0 or "fingerprint" in p.stderr:
        fail(f"today's {fmt} fixture: exit {p.returncode}, {p.stderr!r}")

# captures kept from earlier schemas (v1 = before aicpu_task_record.member, v2 = before the .pb
# host sections and clock anchors): read, one note
for old in sorted(os.listdir(f"{root}/tests/fixtures/evolution")):
    d = f"{root}/tests/fixtures/evolution/{old}"
    if not os.path.isdir(d):
        continue
    for fmt in ("json", "pb"):
        out = f"{tmp}/{old}_{fmt}.trace.json"
        p = subprocess.run([swl, "convert", f"{d}/chip_swimlane_records.{fmt}", "-o", out],
                           capture_output=True, text=True)
        if p.returncode != 0 or p.stderr.count("fingerprint") != 1 or not os.path.exists(out):
            fail(f"{old} {fmt} capture: exit {p.returncode}, {p.stderr!r}")

r = fresh()
r["metadata"]["schema_fingerprint"] = "0" * 16
rc, err, out = convert(r, "foreign")
if rc != 0 or err.count("fingerprint") != 1 or not out:
    fail(f"foreign fingerprint, same layout: exit {rc}, {err!r}")

r = fresh()
r["metadata"]["schema_fingerprint"] = "1" * 16
lay = r["metadata"]["schema_layout"]
r["metadata"]["schema_layout"] = lay.replace("SchedPhaseRecord.loop_iter=u32@3", "SchedPhaseRecord.loop_iter=i32@3")
if r["metadata"]["schema_layout"] == lay:
    fail("the fixture's layout has no SchedPhaseRecord.loop_iter=u32@3")
rc, err, out = convert(r, "typechange")
if rc == 0 or "field SchedPhaseRecord.loop_iter was i32@3 when captured, this build reads u32@3" not in err or out \
        or f"swimlane: {tmp}/typechange.json: " not in err:
    fail(f"a changed field type was not refused naming the field and both types: exit {rc}, {err!r}, output left {out}")

r = fresh()
r["scheduler_records"]["streams"][0]["records"][2]["kind"] = "acid_nope"
rc, err, out = convert(r, "unknown")
if rc != 0 or f"warning: {tmp}/unknown.json: " not in err or "'acid_nope' (stream 0, record 2)" not in err:
    fail(f"an unknown phase kind was not named: exit {rc}, {err!r}")
# a capture of a newer schema: one more AICPU task column and one more orchestrator key
r = fresh()
r["metadata"]["schema_fingerprint"] = "2" * 16
lay = r["metadata"]["schema_layout"]
cols = "columns.AicpuTaskRecord=core_id,reg_task_id,dispatch_time,finish_time,member"
if cols not in lay:
    fail(f"the fixture's layout does not describe its scheduler-task columns ({cols})")
# the newer writer appends its column and says so in its layout (as its .pb names field 5)
r["metadata"]["schema_layout"] = lay.replace(cols, cols + ",newer_col") + \
    ";AicpuTaskRecord.newer_col=u32@5;OrchPhaseRecord.newer_key=u32@6"
for row in r["scheduler_tasks"]["records"]:
    row.append(5)
for rec in r["aicpu_orchestrator_phases"][0]:
    rec["newer_key"] = 6
rc, err, out = convert(r, "newer")
if rc != 0 or err.count("fingerprint") != 1 or not out or "(first columns.AicpuTaskRecord, changed)" not in err \
        or f"warning: {tmp}/newer.json: " not in err:
    fail(f"a newer schema's capture did not read with one note naming its first difference: exit {rc}, {err!r}")
t = json.load(open(f"{tmp}/newer.trace.json"))
ev = t["traceEvents"] if isinstance(t, dict) else t
tasks = [e for e in ev if e.get("ph") == "X" and "taskId" in e.get("args", {})]
orch = [e for e in ev if e.get("ph") == "X" and e.get("cat") == "orchestrator"]
if not tasks or any(e["args"].get("newer_col") != 5 for e in tasks):
    fail("the newer task column is not in every task slice's args under the name the capture gives it")
# a newer capture whose layout does not describe its columns: the column by position
r["metadata"]["schema_layout"] = lay + ";AicpuTaskRecord.newer_col=u32@5"
rc, err, out = convert(r, "newer_undescribed")
t = json.load(open(f"{tmp}/newer_undescribed.trace.json")) if out else []
ev = t["traceEvents"] if isinstance(t, dict) else t
tasks = [e for e in ev if e.get("ph") == "X" and "taskId" in e.get("args", {})]
if rc != 0 or not tasks or any(e["args"].get("column_5") != 5 for e in tasks):
    fail(f"an undescribed newer column is not carried as column_5: exit {rc}, {err!r}")
# a writer whose columns are in another order would be misread by position: refused, named
r = fresh()
r["metadata"]["schema_fingerprint"] = "3" * 16
r["metadata"]["schema_layout"] = lay.replace(cols, "columns.AicpuTaskRecord=core_id,reg_task_id,finish_time,dispatch_time,member")
rc, err, out = convert(r, "reordered")
if rc == 0 or "JSON columns of AicpuTaskRecord" not in err or out:
    fail(f"reordered JSON columns were not refused by name: exit {rc}, {err!r}, output left {out}")
# (its .pb is read by field number: test_pb_columns_reordered, test_reader_pb)
if not orch or any(e["args"].get("newer_key") != 6 for e in orch):
    fail("the newer orchestrator key is not in every orchestrator slice's args")
# the same extra column under this build's own fingerprint is a malformed row, refused
r = fresh()
r["scheduler_tasks"]["records"][0].append(5)
rc, err, out = convert(r, "extra_column")
if rc == 0 or "records[0][5]: too many columns" not in err or out:
    fail(f"an extra column under this build's fingerprint was not refused: exit {rc}, {err!r}")
print("evolution read: ok")
