--[[
** levels.lua — chip-swimlane perf levels 0..4 and what each gates.
**
** Data only. Shape:
**   levels = list of {
**     value     the integer passed as --enable-chip-swimlane N / written as chip_swimlane_level
**     name      lowercase name (C: SL_LEVEL_<NAME>)
**     collects  what this level adds
**     device    what the device side does at this level
**     host      what the host side allocates / exports at this level
**     notes     anything else
**   }
** A record kind's minimum level is `min_level` in records.lua (a level name).
--]]
return {
  levels = {
    { value = 0, name = "disabled", collects = "nothing",
      device = "no profiling code runs (the region handle is NULL)",
      host = "no shared region, no collector threads, no output",
      notes = "default when --enable-chip-swimlane is absent" },
    { value = 1, name = "aicore_timing", collects = "AICore task timing (start, end, receive_to_start, task id)",
      device = "AICore writes one aicore_task_record per task; AICPU rotates AICore buffers",
      host = "AICore pools; exports aicore_tasks",
      notes = "no scheduler timestamps" },
    { value = 2, name = "aicpu_timing", collects = "+ scheduler per-task dispatch / finish times",
      device = "the scheduler writes one aicpu_task_record per completed dispatch; A5 HBG lifecycle records",
      host = "+ AICPU-task pools; exports scheduler_tasks (and aicpu_lifecycle_records)",
      notes = "producer is aicpu or aicore" },
    { value = 3, name = "sched_phases", collects = "+ scheduler phase records",
      device = "scheduler threads write sched_phase_records; core_to_thread is published",
      host = "+ sched-phase pools; exports scheduler_records and metadata.core_to_thread",
      notes = "no orchestrator records" },
    { value = 4, name = "orch_phases", collects = "+ orchestrator submit records",
      device = "the orchestrator writes one orch_phase_record per submit_task() / alloc_tensors()",
      host = "+ orch-phase pool; exports aicpu_orchestrator_phases",
      notes = "full collection; a bare --enable-chip-swimlane means this level" },
  },
}
