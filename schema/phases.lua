--[[
** phases.lua — every scheduler phase kind: its stable id, how it is drawn and what it counts.
**
** Data only. Shape:
**   phases  = list of {
**     id              stable numeric id (written into sl_sched_phase_record.kind); never reused
**     name            lowercase JSON string ("kind" on disk, "phase" after the reader)
**     display         bar label stem in Perfetto (label = display .. "(" .. n .. ")")
**     aicore_display  label stem when an A5 HBG AICore Scheduler emits it (default: display)
**     role            "outer"  mutually time-exclusive bar on its lane
**                     "inner"  time-contained by a parent bar (see parent)
**                     "marker" zero-width record drawn on a different lane (Worker View)
**     producers       list of "aicpu" | "aicore": which scheduler kind emits it
**     runtimes        list of "tmr" (tensormap_and_ringbuffer) | "hbg" (host_build_graph)
**     lane            key of schema/lanes.lua `lanes` the converter routes the bar to
**     parent          inner phases: the phase name(s) whose bar contains this one
**     cname           Perfetto colour name of the bar (markers: nil)
**     variant         nil | a variant name of sl_sched_phase_record.phase_data
**                     ("dispatch": pop_hit/pop_miss, "task": local_id/ring_id -> task_id)
**     aicore_variant  the variant when an A5 HBG AICore Scheduler emits it (default: variant);
**                     its task-bound bars carry the task id
**     render_as       draw with another phase's name (HBG resolve_standalone -> resolve)
**     lane_by_runtime optional { runtime = lane key }: the lane under that runtime instead of `lane`
**     tasks_processed what the record's tasks_processed counts
**   }
**   orch_phases = list of { id (stable number written into orch_phase_record.kind; never
**             reused; the default's is 0, what a capture without the field reads as),
**             name ("orch_<x>"), display (label stem), lane (a lane of the orchestrator view),
**             cname, default = true on exactly one (unnamed records), dispatch_flow =
**             optional rank: records of ranked kinds anchor a task's "<display>→dispatch"
**             arrow, the lowest rank present for a task wins, and the convert summary
**             counts submitted tasks by the lowest rank present }
**   orch_aliases = { old_name = current_name } -- renamed orchestrator kinds (the id stays):
**             a JSON capture naming the old kind reads as the current one, as a .pb does by id
**   orch_retired = list of { id = n, name = "orch_<x>", why } -- orchestrator kinds no longer
**             written: read in old captures (JSON by name, .pb by id), never drawn; their ids
**             and names must never be given to a new kind
**   host_phases = list of { name, display, lane (orchestrator view), cname, bytes (what the
**             upload's byte count counts) } -- HBG host -> device upload steps
**   aliases = { legacy_name = current_name }  -- renamed phases; readers map them
**   retired = list of { id = n } / { name = s } -- parsed in old captures, never drawn;
**             retired ids and names must never be given to a new phase;
**             aicore_display / aicore_variant: how an A5 HBG AICore Scheduler lane still draws it
**
** To add a phase: append an entry with the next free id (see docs/schema.md), then
** `cmake --build <build> --target regen`.
--]]
return {
  phases = {
    { id = 0, name = "complete", display = "complete", aicore_display = "Completion", role = "outer",
      producers = { "aicpu", "aicore" }, runtimes = { "tmr", "hbg" }, lane = "sched",
      cname = "good", aicore_variant = "task",
      tasks_processed = "FIN'd subtasks + SPMD sub-block retires this iteration" },
    { id = 1, name = "dispatch", display = "dispatch", aicore_display = "Dispatch", role = "outer",
      producers = { "aicpu", "aicore" }, runtimes = { "tmr", "hbg" }, lane = "sched",
      cname = "terrible", variant = "dispatch", aicore_variant = "task",
      tasks_processed = "subtasks published this iteration" },
    { id = 2, name = "release", display = "release", role = "outer",
      producers = { "aicpu" }, runtimes = { "tmr" }, lane = "sched",
      cname = "olive",
      tasks_processed = "deferred-release slots drained this iteration" },
    { id = 4, name = "dummy", display = "dummy", role = "outer",
      producers = { "aicpu" }, runtimes = { "tmr", "hbg" }, lane = "sched",
      cname = "grey",
      tasks_processed = "dummy_ready_queue entries handled (explicit dummies and false-predicate tasks)" },
    { id = 5, name = "early_dispatch", display = "early_dispatch", role = "outer",
      producers = { "aicpu" }, runtimes = { "tmr", "hbg" }, lane = "sched",
      cname = "rail_animation",
      tasks_processed = "blocks staged by speculative early dispatch this pass" },
    { id = 6, name = "resolve", display = "resolve", aicore_display = "Resolve", role = "inner", parent = { "complete", "dummy" },
      producers = { "aicpu", "aicore" }, runtimes = { "tmr", "hbg" }, lane = "sched_sub",
      lane_by_runtime = { hbg = "sched" },
      cname = "vsync_highlight_color", aicore_variant = "task",
      tasks_processed = "consumers visited after completion (walks under 1 us are not emitted)" },
    { id = 7, name = "dummy_task", display = "dummy", role = "marker",
      producers = { "aicpu" }, runtimes = { "tmr", "hbg" }, lane = "worker_aicpu",
      variant = "task",
      tasks_processed = "always 1: one dummy entering on_task_complete(); identity in task_id" },
    { id = 8, name = "drain", display = "drain", role = "outer",
      producers = { "aicpu" }, runtimes = { "tmr", "hbg" }, lane = "sched",
      cname = "cq_build_running",
      tasks_processed = "blocks staged by this thread's global sync-start drain pass" },
    { id = 9, name = "drain_prepare", display = "drain_prepare", role = "inner", parent = { "drain" },
      producers = { "aicpu" }, runtimes = { "tmr", "hbg" }, lane = "sched",
      cname = "cq_build_attempt_runnable",
      tasks_processed = "subtasks prepared for global sync-start publication" },
    { id = 10, name = "drain_publish", display = "drain_publish", role = "inner", parent = { "drain" },
      producers = { "aicpu" }, runtimes = { "tmr", "hbg" }, lane = "sched",
      cname = "cq_build_attempt_passed",
      tasks_processed = "subtasks published during global sync-start staging" },
    { id = 11, name = "async_poll", display = "async_poll", role = "outer",
      producers = { "aicpu" }, runtimes = { "tmr", "hbg" }, lane = "sched",
      cname = "yellow",
      tasks_processed = "async-wait completions resolved; 0 = polling consumed CPU without completing work" },
    { id = 12, name = "predicated_skip", display = "task", role = "marker",
      producers = { "aicpu" }, runtimes = { "tmr", "hbg" }, lane = "worker_aicpu",
      variant = "task",
      tasks_processed = "always 1: a real task retired inline after its dispatch predicate was false" },
    { id = 13, name = "graph_prepare", display = "graph_prepare", role = "outer",
      producers = { "aicpu" }, runtimes = { "tmr", "hbg" }, lane = "sched",
      cname = "rail_animation", variant = "task",
      tasks_processed = "Graph Definition nodes expanded this pass (task_id = outer ring-0 graph task)" },
    -- ids from 14 on are swimlane's own (the reference enum stops at 13)
    { id = 14, name = "resolve_standalone", display = "resolve", role = "outer",
      producers = { "aicpu" }, runtimes = { "hbg" }, lane = "hbg_p",
      cname = "vsync_highlight_color", render_as = "resolve",
      tasks_processed = "completed SPSC slots resolved on the HBG P thread" },
    { id = 15, name = "bootstrap", display = "Bootstrap", role = "outer",
      producers = { "aicore" }, runtimes = { "hbg" }, lane = "aicore_sched",
      cname = "startup",
      tasks_processed = "initial executable tasks classified and published before normal scheduling" },
    { id = 16, name = "state_probe", display = "StateProbe", role = "outer",
      producers = { "aicore" }, runtimes = { "hbg" }, lane = "aicore_sched",
      cname = "rail_idle", variant = "task",
      tasks_processed = "Cluster Slot / Ready state checked, a Ready task acquired, placement decided" },
    { id = 17, name = "worksteal", display = "Worksteal", role = "outer",
      producers = { "aicore" }, runtimes = { "hbg" }, lane = "aicore_sched",
      cname = "rail_load", variant = "task",
      tasks_processed = "a task acquired from another non-empty Inbox is published" },
    { id = 18, name = "refill", display = "Refill", role = "outer",
      producers = { "aicore" }, runtimes = { "hbg" }, lane = "aicore_sched",
      cname = "rail_response", variant = "task",
      tasks_processed = "completed Slot reused for one replacement task" },
  },

  aliases = {
    fanout = "resolve",
    prestage = "early_dispatch",
  },

  retired = {
    { id = 3, why = "unused value in the reference enum" },
    { name = "scan", why = "PR #1079 debug overlay, removed" },
    { name = "poll", why = "PR #1079 debug overlay, removed" },
    { name = "idle", why = "idle is the gap between records", aicore_display = "Idle" },
    { name = "fanin", why = "old A5 HBG capture name", aicore_display = "Fanin", aicore_variant = "task" },
    { name = "ready_claim", why = "old A5 HBG capture name", aicore_display = "StateProbe", aicore_variant = "task" },
    { name = "ready_steal", why = "old A5 HBG capture name", aicore_display = "StateProbe", aicore_variant = "task" },
    { name = "direct_refill", why = "old A5 HBG capture name", aicore_display = "Refill", aicore_variant = "task" },
  },

  -- what an orchestrator record (orch_phase_record) is drawn as on its lane: label stem,
  -- colour. A record names its kind (JSON "phase": "orch_<x>", .pb kind = id); one without
  -- a name is `default`.
  orch_phases = {
    { id = 0, name = "orch_submit", display = "submit", lane = "orch", cname = "rail_animation", default = true,
      dispatch_flow = 0 },
    { id = 1, name = "orch_sync", display = "sync", lane = "orch", cname = "thread_state_iowait" },
    { id = 2, name = "orch_alloc", display = "alloc", lane = "orch", cname = "terrible" },
    { id = 3, name = "orch_params", display = "params", lane = "orch", cname = "good", dispatch_flow = 2 },
    { id = 4, name = "orch_lookup", display = "lookup", lane = "orch", cname = "thread_state_running" },
    { id = 5, name = "orch_insert", display = "insert", lane = "orch", cname = "olive" },
    { id = 6, name = "orch_fanin", display = "fanin", lane = "orch", cname = "rail_animation", dispatch_flow = 1 },
  },

  -- renamed orchestrator kinds, old name -> current name (none yet)
  orch_aliases = {
  },

  -- orchestrator kinds no longer written (none yet): { id = n, name = "orch_<x>", why = "..." }
  orch_retired = {
  },

  -- host_build_graph upload steps (host_device_uploads[].phase, host monotonic ns), in
  -- the order the runtime runs them; `bytes` says what the record's detail counts.
  host_phases = {
    { name = "arena_h2d", display = "arena_h2d", lane = "host_h2d", cname = "thread_state_iowait",
      bytes = "the device image allocated and zeroed (graph + tensors)" },
    { name = "graph_upload", display = "graph_upload", lane = "host_h2d", cname = "thread_state_iowait",
      bytes = "task records and tensor descriptors copied" },
    { name = "tensor_h2d", display = "tensor_h2d", lane = "host_h2d", cname = "thread_state_iowait",
      bytes = "buffer contents copied" },
  },
}
