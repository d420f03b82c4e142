#!/usr/bin/env python3
"""acid_edit.py KIND SRC — the schema edits of the acid tests, applied to a copy of the
tree at SRC (schema/ only, plus the one runtime call site a rename needs).

  additive    phase acid_probe on the existing lane sched; a new per-thread lane
              acid_lane (scheduler view, tid base 33000) with phase acid_lane_probe;
              release renamed to reclaim with the alias release -> reclaim; a new
              sched_phase_record field acid_extra (exported, written as 7); a new
              aicpu_task_record field acid_task_extra (a record other than the phase:
              exported as a 6th scheduler-task column, written as 11); a new
              orch_phase_record field acid_orch_extra (the record grows from 32 to 40
              bytes, written as 13); a new aicpu_lifecycle_record field acid_life_extra
              (its spare bytes, written as 17); a new orchestrator phase orch_acid
              (id 100, label "acid", colour yellow); the orchestrator kind orch_sync
              renamed orch_wait (label "wait") with the alias orch_sync -> orch_wait;
              a retired orchestrator kind (id 7, orch_acid_gone)
  typechange  sched_phase_record.loop_iter u32 -> i32 (uint32 -> sint32 on the wire), and
              proto number 17 of SchedPhaseRecord reserved (a removed field)
"""
import re
import sys

kind, src = sys.argv[1], sys.argv[2]


def edit(rel, old, new, count=1):
    path = f"{src}/{rel}"
    text = open(path).read()
    if old not in text:
        sys.exit(f"acid_edit: {rel}: '{old}' not found")
    open(path, "w").write(text.replace(old, new, count))


PHASE = ('    {{ id = {id}, name = "{name}", display = "{name}", role = "outer",\n'
         '      producers = {{ "aicpu" }}, runtimes = {{ "tmr" }}, lane = "{lane}", cname = "olive",\n'
         '      tasks_processed = "acid test" }},\n')

if kind == "additive":
    edit("schema/phases.lua", "  phases = {\n",
         "  phases = {\n" + PHASE.format(id=4000, name="acid_probe", lane="sched")
         + PHASE.format(id=4001, name="acid_lane_probe", lane="acid_lane"))
    edit("schema/lanes.lua", "  lanes = {\n",
         '  lanes = {\n    { key = "acid_lane", view = "scheduler", tid_base = 33000, tid_stride = 10,\n'
         '      name = "Acid_{index}", indexed_by = "scheduler thread" },\n')
    edit("schema/phases.lua", '{ id = 2, name = "release", display = "release"',
         '{ id = 2, name = "reclaim", display = "reclaim"')
    edit("schema/phases.lua", "  aliases = {\n", '  aliases = {\n    release = "reclaim",\n')
    # a new orchestrator phase
    edit("schema/phases.lua", "  orch_phases = {\n",
         '  orch_phases = {\n    { id = 100, name = "orch_acid", display = "acid", lane = "orch", cname = "yellow" },\n')
    # an orchestrator kind renamed (its id stays 1) and one retired: both are schema data
    edit("schema/phases.lua", '{ id = 1, name = "orch_sync", display = "sync"', '{ id = 1, name = "orch_wait", display = "wait"')
    edit("schema/phases.lua", "  orch_aliases = {\n", '  orch_aliases = {\n    orch_sync = "orch_wait",\n')
    edit("schema/phases.lua", "  orch_retired = {\n",
         '  orch_retired = {\n    { id = 7, name = "orch_acid_gone", why = "acid test" },\n')
    # the runtime names the renamed kind's enum once (its timed orchestrator steps)
    edit("runtime/core/sl_runtime.c", "SL_ORCH_PHASE_SYNC,", "SL_ORCH_PHASE_WAIT,")
    # the runtime call site of the renamed phase (its generated writer is sl_write_phase_reclaim)
    edit("runtime/core/sl_rt_sched.c", "emit_outer(pc, release,", "emit_outer(pc, reclaim,")
    # a new record field in the spare bytes, exported, written by the runtime as 7
    edit("schema/records.lua", '{ name = "_pad", type = "u32", count = 4, offset = 48 },',
         '{ name = "acid_extra", type = "u32", offset = 48, pb = 16 },\n'
         '        { name = "acid_metric", type = "u32", offset = 52, pb = 18 },\n'
         '        { name = "_pad", type = "u32", count = 2, offset = 56 },')
    # acid_metric is exported only in the phase's metrics object (the seed format's second
    # object per record), written by the runtime as 5
    edit("schema/records.lua", '{ key = "shared_at_end", field = "shared_depth_at_end" } } } },',
         '{ key = "shared_at_end", field = "shared_depth_at_end" },\n'
         '                              { key = "acid_metric", field = "acid_metric" } } } },')
    edit("schema/records.lua", '{ key = "task_id", compose = "task_id", when = "task" } } },',
         '{ key = "task_id", compose = "task_id", when = "task" },\n'
         '                             { key = "acid_extra", field = "acid_extra" } } },')
    # the runtime's call sites pass it: every per-phase writer call goes through SL_RT_PHASE
    # (the new scalar follows tasks_processed), and the generic profiler entry the tests use
    edit("runtime/core/sl_rt_phase.h", "(pc)->iter, (uint32_t)(n),", "(pc)->iter, (uint32_t)(n), 7u, 5u,")
    edit("runtime/profiler/sl_devprof.c", "depth_end ? depth_end : zeros);", "depth_end ? depth_end : zeros, 7u, 5u);")
    # a new field of the AICPU task record (its spare bytes), exported as a row column; the
    # one call site of its writer passes 11
    edit("schema/records.lua", '      },\n      export = { section = "scheduler_tasks.records"',
         '        { name = "acid_task_extra", type = "u32", pb = 5 },\n'
         '      },\n      export = { section = "scheduler_tasks.records"')
    edit("schema/records.lua", '{ field = "member" } } } },', '{ field = "member" }, { field = "acid_task_extra" } } } },')
    edit("runtime/profiler/sl_devprof.c", "reg_task_id, member);", "reg_task_id, member, 11u);")
    # a new field of the orchestrator record: no spare bytes, so the record grows to 40 bytes;
    # the one call site of its writer (sl_write_orch_submit) passes 13
    edit("schema/records.lua", '{ name = "orch_phase_record", size = 32,', '{ name = "orch_phase_record", size = 40,')
    edit("schema/records.lua", '{ name = "kind", type = "u32", pb = 5, doc = "orchestrator phase id (phases.lua orch_phases)" },\n',
         '{ name = "kind", type = "u32", pb = 5, doc = "orchestrator phase id (phases.lua orch_phases)" },\n'
         '        { name = "acid_orch_extra", type = "u32", pb = 6 },\n')
    edit("schema/records.lua", '{ key = "phase", orch_phase_name = "kind" } } } },',
         '{ key = "phase", orch_phase_name = "kind" },\n'
         '                             { key = "acid_orch_extra", field = "acid_orch_extra" } } } },')
    edit("runtime/profiler/sl_devprof.c", "task_id, submit_idx);", "task_id, submit_idx, 13u);")
    # a new field of the A5 HBG lifecycle record, in its spare bytes after the 14 spans; its
    # writer's one call site passes 17
    edit("schema/records.lua", '{ name = "exit_wait_end_cycles", type = "u64", pb = 15 },\n',
         '{ name = "exit_wait_end_cycles", type = "u64", pb = 15 },\n'
         '        { name = "acid_life_extra", type = "u32", pb = 16 },\n')
    edit("schema/records.lua", '{ key = "exit_wait_end_cycles", field = "exit_wait_end_cycles" } } },',
         '{ key = "exit_wait_end_cycles", field = "exit_wait_end_cycles" },\n'
         '                             { key = "acid_life_extra", field = "acid_life_extra" } } },')
    edit("runtime/core/sl_rt_aisched.c", "lc.exit_wait_end_cycles))", "lc.exit_wait_end_cycles, 17u))")
elif kind == "typechange":
    edit("schema/records.lua", '{ name = "loop_iter", type = "u32", pb = 3',
         '{ name = "loop_iter", type = "i32", pb = 3')
    # and a removed field's number stays reserved
    edit("schema/records.lua", 'min_level = "sched_phases", writer = "sched_phase", proto = "SchedPhaseRecord",',
         'min_level = "sched_phases", writer = "sched_phase", proto = "SchedPhaseRecord", reserved = { 17 },')
else:
    sys.exit("acid_edit: unknown kind " + kind)
