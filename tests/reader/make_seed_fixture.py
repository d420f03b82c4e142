#!/usr/bin/env python3
"""make_seed_fixture.py — rewrite the anchor-l4 capture (reference's older on-disk
format) in the seed's format (scheduler_tasks / scheduler_records with metrics
joined by record_index). The reader test checks both files give the same model.

Usage: python3 make_seed_fixture.py ../fixtures/anchor-l4/chip_swimlane_records.json data/anchor_l4_seed.json
"""
import json
import sys

src, dst = sys.argv[1], sys.argv[2]
old = json.load(open(src))
new = {"chip_swimlane_level": old["chip_swimlane_level"], "metadata": old["metadata"],
       "aicore_tasks": old["aicore_tasks"],
       "scheduler_tasks": {"schema_version": 1, "producer": "aicpu", "records": old["aicpu_tasks"]}}
streams = []
for tid, recs in enumerate(old["aicpu_scheduler_phases"]):
    records, metrics = [], []
    for i, r in enumerate(recs):
        rec = {"start_cycles": r["start_cycles"], "end_cycles": r["end_cycles"],
               "loop_iter": r["loop_iter"], "kind": r["kind"]}
        if "tasks_processed" in r:
            rec["tasks_processed"] = r["tasks_processed"]
        rec["task_id"] = r.get("task_id")
        records.append(rec)
        m = {"record_index": i}
        for k in ("pop_hit", "pop_miss", "shared_at_start", "shared_at_end"):
            if k in r:
                m[k] = r[k]
        if len(m) > 1:
            metrics.append(m)
    stream = {"platform": "a2a3", "runtime": "tensormap_and_ringbuffer", "producer": "aicpu",
              "scheduler_id": tid, "worker_id": tid, "core_type": "aicpu", "physical_core_id": None,
              "capture": {"committed": len(records), "dropped": 0, "truncated": False}}
    # the second stream lists its metrics before its records: the join must not care
    if tid == 1:
        stream["metrics"] = metrics
        stream["records"] = records
    else:
        stream["records"] = records
        stream["metrics"] = metrics
    streams.append(stream)
# streams in reverse order: placement is by scheduler_id
new["scheduler_records"] = {"schema_version": 1, "streams": streams[::-1]}
new["aicpu_orchestrator_phases"] = old["aicpu_orchestrator_phases"]
with open(dst, "w") as f:
    json.dump(new, f, indent=1)
    f.write("\n")
