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
**     pid_stride     optional: pid step between instances of the view (pid = pid + index *
**                    pid_stride); "{pid}" / "{rank}" in process_name = the instance's
**                    process id / rank
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
**   rank_pid_stride  L3 multi-rank traces: rank r's chip view pid p becomes
**                    (r + 1) * rank_pid_stride + p (the host block's views stay below)
**   flows = list of { key (C: SL_FLOW_<KEY>), name (the flow event's name; "{display}" =
**                    the orchestrator kind's label), doc }: the arrows the converter draws
**   pipes = list of { id (enum sl_pipe value), name (the L0 lane's name), doc }: the AICore
**                    pipes of the L0 core swimlane (docs/l0.md), one lane each
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
    { pid = 7, key = "task_timing", process_name = "Task Timing Slots", sort_index = 7,
      when = "metadata.task_timing_slots present (a task tagged with set_task_timing_slot)" },
    { pid = 10, key = "l3_dispatcher", process_name = "L3 Scheduler (pid {pid})", pid_stride = 1,
      when = "L3 DFX dir: one per l3_scheduler host log" },
    { pid = 40, key = "l3_rank_host", process_name = "rank{rank} / Host (pid {pid})", pid_stride = 1,
      when = "L3 DFX dir: one per rank" },
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
    { key = "task_slot", view = "task_timing", tid_base = 7000, tid_stride = 1,
      name = "task_slot_{index}", indexed_by = "task-timing slot N (device_wall.task_slot_<N>)" },
    { key = "custom", view = "scheduler", tid_base = 32000, tid_stride = 1,
      name = "{name}", indexed_by = "lanes a rules script names (route \"lane:<name>\"), in order of use" },
    { key = "l3_node_run", view = "l3_dispatcher", tid_base = 1, tid_stride = 0,
      name = "node.run", indexed_by = "none (the L3 scheduler's node.run spans)" },
    { key = "l3_node_dispatch", view = "l3_dispatcher", tid_base = 2, tid_stride = 0,
      name = "node.dispatch", indexed_by = "none (its other node.* spans)" },
    { key = "l3_node_task", view = "l3_dispatcher", tid_base = 10, tid_stride = 1,
      name = "node.task rank{index}", indexed_by = "chip rank of a node.task span" },
    { key = "l3_chip_run", view = "l3_rank_host", tid_base = 1, tid_stride = 0,
      name = "chip.run", indexed_by = "none (the rank's host-clock chip.run spans)" },
    { key = "l3_clk_dev", view = "l3_rank_host", tid_base = 2, tid_stride = 0,
      name = "clk=dev phases", indexed_by = "none (chip.run spans on the device clock, placed)" },
    { key = "l3_placement", view = "l3_rank_host", tid_base = 3, tid_stride = 0,
      name = "Placement Bound", indexed_by = "none (device block, slack, uncertainty)" },
  },

  producer_lanes = {
    aicore = "aicore_sched",
  },

  rank_pid_stride = 100,

  flows = {
    { key = "dependency", name = "dependency", doc = "a task's predecessor to it (deps.json), Worker and Scheduler View" },
    { key = "hb_violation", name = "hb_violation", doc = "a dependency whose successor started before its predecessor ended" },
    { key = "complete", name = "complete", doc = "a task's finish to the scheduler's complete bar that retired it" },
    { key = "complete_ready", name = "complete\u{2192}ready", doc = "the complete bar to the dispatch of a successor it made ready" },
    { key = "dispatch", name = "dispatch", doc = "the scheduler's dispatch bar to the task's bars" },
    { key = "orch_dispatch", name = "{display}\u{2192}dispatch",
      doc = "an orchestrator record (a kind with dispatch_flow) to the task's dispatch" },
  },

  pipes = {
    { id = 0, name = "SCALAR", doc = "scalar unit (control, address arithmetic)" },
    { id = 1, name = "MTE1", doc = "L1 -> L0A/L0B" }, { id = 2, name = "MTE2", doc = "GM -> L1 / UB" },
    { id = 3, name = "MTE3", doc = "UB -> GM" }, { id = 4, name = "CUBE", doc = "matrix multiply" },
    { id = 5, name = "VECTOR", doc = "vector unit" }, { id = 6, name = "FIXP", doc = "L0C -> GM write-back" },
    { id = 7, name = "ALL", doc = "barriers across every pipe" },
  },
}
