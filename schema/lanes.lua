--[[
** lanes.lua — the Perfetto views (processes) and the lanes (threads) inside them.
**
** Data only. Shape:
**   views = list of {
**     pid            Perfetto process id (the layout: Perfetto orders process groups by pid)
**     key            short name other tables use
**     process_name   process_name metadata
**     sort_index     process_sort_index metadata (nil = not emitted)
**     name_variants  optional { when = process name } alternatives chosen by the converter
**                    ("{name}" is replaced by the orchestrator's name)
**     when           when the converter emits the view
**   }
**   lanes = list of {
**     key            what phases.lua `lane` (and the converter) refer to
**     view           key of the view (pid) the lane lives in
**     tid_base       tid of instance 0
**     tid_stride     tid step between instances (tid = tid_base + index * tid_stride)
**     name           thread_name pattern: {index} = instance index, {TYPE} = core type upper-case
**     sort_index     thread_sort_index metadata (nil = not emitted)
**     indexed_by     what the instance index is
**   }
**   producer_lanes = { producer = lane key }: every phase record of a scheduler stream of
**                    that producer goes to this lane, whatever the phase's own lane says
--]]
return {
  views = {
    { pid = 1, key = "orchestrator", process_name = "AICPU Orchestrator", sort_index = 1,
      name_variants = { named = "AICPU {name}", host = "Host Orchestrator", prepare = "Host Prepare" },
      when = "orchestrator phases present (level 4)" },
    { pid = 2, key = "scheduler", process_name = "AICPU Scheduler", sort_index = 2,
      when = "scheduler phases present (level 3)" },
    { pid = 3, key = "scheduler_view", process_name = "Scheduler View", sort_index = 3,
      when = "any task has dispatch and finish times (level 2)" },
    { pid = 4, key = "worker_view", process_name = "Worker View", sort_index = 4,
      when = "always" },
    { pid = 5, key = "graph_execution", process_name = "Graph Execution", sort_index = 1,
      when = "graph_prepare records present" },
    { pid = 6, key = "aicpu_lifecycle", process_name = "AICPU Lifecycle", sort_index = 6,
      when = "aicpu_lifecycle_records present (A5 HBG, level 2)" },
  },

  lanes = {
    { key = "orch", view = "orchestrator", tid_base = 4000, tid_stride = 1,
      name = "Orch_{index}", indexed_by = "orchestrator thread" },
    { key = "host_orch", view = "orchestrator", tid_base = 4000, tid_stride = 1,
      name = "Host_{index}", indexed_by = "host orchestrator thread" },
    { key = "host_h2d", view = "orchestrator", tid_base = 4100, tid_stride = 0,
      name = "H2D", indexed_by = "none (one lane)" },
    { key = "sched", view = "scheduler", tid_base = 30000, tid_stride = 10,
      name = "Sched_{index}", indexed_by = "scheduler thread" },
    { key = "sched_sub", view = "scheduler", tid_base = 30001, tid_stride = 10,
      name = "Sched_{index}", indexed_by = "scheduler thread (TMR nested resolve)" },
    { key = "hbg_p", view = "scheduler", tid_base = 30000, tid_stride = 10,
      name = "Sched_{index}", indexed_by = "scheduler thread (the HBG P thread's main lane)" },
    { key = "aicore_sched", view = "scheduler", tid_base = 31000, tid_stride = 1,
      name = "Scheduler_{index}", indexed_by = "physical AIV core id of the A5 HBG AICore Scheduler" },
    { key = "shared_ready_queue", view = "scheduler", tid_base = 3999, tid_stride = 0,
      name = "shared_ready_queue (global)", sort_index = 100, indexed_by = "none (one counter track)" },
    { key = "overhead_counters", view = "scheduler", tid_base = 9101, tid_stride = 1,
      name = "{name}", indexed_by = "overhead counter track (--overhead)" },
    { key = "sched_view_core", view = "scheduler_view", tid_base = 10000, tid_stride = 10,
      name = "{TYPE}_{index}", indexed_by = "core id (+1.. overflow lanes)" },
    { key = "worker_core", view = "worker_view", tid_base = 10000, tid_stride = 10,
      name = "{TYPE}_{index}", indexed_by = "core id" },
    { key = "worker_aicpu", view = "worker_view", tid_base = 19000, tid_stride = 1,
      name = "AICPU_{index}", indexed_by = "scheduler thread, then orchestrator threads" },
    { key = "graph", view = "graph_execution", tid_base = 5000, tid_stride = 1,
      name = "Graph_{index}", indexed_by = "graph lane (greedy)" },
    { key = "lifecycle", view = "aicpu_lifecycle", tid_base = 6000, tid_stride = 1,
      name = "AICPU_{index}", indexed_by = "AICPU thread id" },
    { key = "custom", view = "scheduler", tid_base = 32000, tid_stride = 1,
      name = "{name}", indexed_by = "lanes a rules script names (route \"lane:<name>\"), in order of use" },
  },

  producer_lanes = {
    aicore = "aicore_sched",
  },
}
