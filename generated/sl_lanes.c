/*
** generated from schema/lanes.lua by codegen/main.lua; do not edit.
** Perfetto views and lanes.
** Regenerate: cmake --build <build dir> --target regen
*/

#include "sl_lanes.h"

#include <stddef.h>
#include <string.h>

const sl_view_info sl_view_table[SL_VIEW_TABLE_LEN] = {
    {1, "orchestrator", "AICPU Orchestrator", 1, "orchestrator phases present (level 4)"},
    {2, "scheduler", "AICPU Scheduler", 2, "scheduler phases present (level 3)"},
    {3, "scheduler_view", "Scheduler View", 3, "any task has dispatch and finish times (level 2)"},
    {4, "worker_view", "Worker View", 4, "always"},
    {5, "graph_execution", "Graph Execution", 1, "graph_prepare records present"},
    {6, "aicpu_lifecycle", "AICPU Lifecycle", 6, "aicpu_lifecycle_records present (A5 HBG, level 2)"},
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
    {"custom", SL_VIEW_SCHEDULER, 2, 32000, 1, "{name}", -1, "lanes a rules script names (route \"lane:<name>\"), in order of use"},
};

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
