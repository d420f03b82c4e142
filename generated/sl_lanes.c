/*
** generated from schema/lanes.lua by codegen/main.lua; do not edit.
** Perfetto views and lanes.
** Regenerate: cmake --build <build dir> --target regen
*/

#include "sl_lanes.h"

#include <stddef.h>
#include <string.h>

const sl_view_info sl_view_table[SL_VIEW_TABLE_LEN] = {
    {1, "orchestrator", "AICPU Orchestrator", 1, "orchestrator phases present (level 4)", 0},
    {2, "scheduler", "AICPU Scheduler", 2, "scheduler phases present (level 3)", 0},
    {3, "scheduler_view", "Scheduler View", 3, "any task has dispatch and finish times (level 2)", 0},
    {4, "worker_view", "Worker View", 4, "always", 0},
    {5, "graph_execution", "Graph Execution", 1, "graph_prepare records present", 0},
    {6, "aicpu_lifecycle", "AICPU Lifecycle", 6, "aicpu_lifecycle_records present (A5 HBG, level 2)", 0},
    {7, "task_timing", "Task Timing Slots", 7, "metadata.task_timing_slots present (a task tagged with set_task_timing_slot)", 0},
    {10, "l3_dispatcher", "L3 Scheduler (pid {pid})", -1, "L3 DFX dir: one per l3_scheduler host log", 1},
    {40, "l3_rank_host", "rank{rank} / Host (pid {pid})", -1, "L3 DFX dir: one per rank", 1},
};

const sl_lane_info sl_lane_table[SL_LANE_TABLE_LEN] = {
    {"orch", SL_VIEW_ORCHESTRATOR, 1, 4000, 1, "Orch_{index}", -1, "orchestrator thread"},
    {"host_orch", SL_VIEW_ORCHESTRATOR, 1, 4000, 1, "Host_{index}", -1, "host orchestrator thread"},
    {"host_h2d", SL_VIEW_ORCHESTRATOR, 1, 4100, 0, "H2D", -1, "none (one lane)"},
    {"sched", SL_VIEW_SCHEDULER, 2, 30000, 10, "Sched_{index}", -1, "scheduler thread"},
    {"sched_sub", SL_VIEW_SCHEDULER, 2, 30001, 10, "Sched_{index}", -1, "scheduler thread (TMR nested resolve)"},
    {"hbg_p", SL_VIEW_SCHEDULER, 2, 30000, 10, "Sched_{index}", -1, "scheduler thread (the HBG P thread's main lane)"},
    {"aicore_sched", SL_VIEW_SCHEDULER, 2, 31000, 1, "Scheduler_{index}", -1, "physical AIV core id of the A5 HBG AICore Scheduler"},
    {"shared_ready_queue", SL_VIEW_SCHEDULER, 2, 3999, 0, "shared_ready_queue (global)", 100, "none (one counter track)"},
    {"overhead_counters", SL_VIEW_SCHEDULER, 2, 9101, 1, "{name}", -1, "overhead counter track (--overhead)"},
    {"sched_view_core", SL_VIEW_SCHEDULER_VIEW, 3, 10000, 10, "{TYPE}_{index}", -1, "core id (+1.. overflow lanes)"},
    {"worker_core", SL_VIEW_WORKER_VIEW, 4, 10000, 10, "{TYPE}_{index}", -1, "core id"},
    {"worker_aicpu", SL_VIEW_WORKER_VIEW, 4, 19000, 1, "AICPU_{index}", -1, "scheduler thread, then orchestrator threads"},
    {"graph", SL_VIEW_GRAPH_EXECUTION, 5, 5000, 1, "Graph_{index}", -1, "graph lane (greedy)"},
    {"lifecycle", SL_VIEW_AICPU_LIFECYCLE, 6, 6000, 1, "AICPU_{index}", -1, "AICPU thread id"},
    {"task_slot", SL_VIEW_TASK_TIMING, 7, 7000, 1, "task_slot_{index}", -1, "task-timing slot N (device_wall.task_slot_<N>)"},
    {"custom", SL_VIEW_SCHEDULER, 2, 32000, 1, "{name}", -1, "lanes a rules script names (route \"lane:<name>\"), in order of use"},
    {"l3_node_run", SL_VIEW_L3_DISPATCHER, 10, 1, 0, "node.run", -1, "none (the L3 scheduler's node.run spans)"},
    {"l3_node_dispatch", SL_VIEW_L3_DISPATCHER, 10, 2, 0, "node.dispatch", -1, "none (its other node.* spans)"},
    {"l3_node_task", SL_VIEW_L3_DISPATCHER, 10, 10, 1, "node.task rank{index}", -1, "chip rank of a node.task span"},
    {"l3_chip_run", SL_VIEW_L3_RANK_HOST, 40, 1, 0, "chip.run", -1, "none (the rank's host-clock chip.run spans)"},
    {"l3_clk_dev", SL_VIEW_L3_RANK_HOST, 40, 2, 0, "clk=dev phases", -1, "none (chip.run spans on the device clock, placed)"},
    {"l3_placement", SL_VIEW_L3_RANK_HOST, 40, 3, 0, "Placement Bound", -1, "none (device block, slack, uncertainty)"},
};

const sl_flow_info sl_flow_table[SL_FLOW_TABLE_LEN] = {
    {"dependency", "dependency"},
    {"hb_violation", "hb_violation"},
    {"complete", "complete"},
    {"complete_ready", "complete\342\206\222ready"},
    {"dispatch", "dispatch"},
    {"orch_dispatch", "{display}\342\206\222dispatch"},
};

const char *const sl_pipe_lane_names[SL_PIPE_LANE_COUNT] = {"SCALAR", "MTE1", "MTE2", "MTE3", "CUBE", "VECTOR", "FIXP", "ALL"};

const sl_view_info *sl_view_by_key(const char *key) {
  for (int i = 0; key && i < SL_VIEW_TABLE_LEN; i++)
    if (strcmp(sl_view_table[i].key, key) == 0) return &sl_view_table[i];
  return NULL;
}

const sl_lane_info *sl_lane_by_key(const char *key) {
  for (int i = 0; key && i < SL_LANE_TABLE_LEN; i++)
    if (strcmp(sl_lane_table[i].key, key) == 0) return &sl_lane_table[i];
  return NULL;
}

const sl_lane_info *sl_lane_for_producer(const char *producer) {
  if (!producer) return NULL;
  if (strcmp(producer, "aicore") == 0) return &sl_lane_table[SL_LANE_AICORE_SCHED];
  return NULL;
}
