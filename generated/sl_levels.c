/*
** generated from schema/levels.lua, schema/records.lua by codegen/main.lua; do not edit.
** Perf levels and what each gates.
** Regenerate: cmake --build <build dir> --target regen
*/

#include "sl_levels.h"

#include <stddef.h>
#include <string.h>

const sl_level_info sl_level_table[SL_LEVEL_COUNT] = {
    {0, "disabled",
     "nothing",
     "no profiling code runs (the region handle is NULL)",
     "no shared region, no collector threads, no output",
     "default when --enable-chip-swimlane is absent"},
    {1, "aicore_timing",
     "AICore task timing (start, end, receive_to_start, task id)",
     "AICore writes one aicore_task_record per task; AICPU rotates AICore buffers",
     "AICore pools; exports aicore_tasks",
     "no scheduler timestamps"},
    {2, "aicpu_timing",
     "+ scheduler per-task dispatch / finish times",
     "the scheduler writes one aicpu_task_record per completed dispatch; A5 HBG lifecycle records",
     "+ AICPU-task pools; exports scheduler_tasks (and aicpu_lifecycle_records)",
     "producer is aicpu or aicore"},
    {3, "sched_phases",
     "+ scheduler phase records",
     "scheduler threads write sched_phase_records; core_to_thread is published",
     "+ sched-phase pools; exports scheduler_records and metadata.core_to_thread",
     "no orchestrator records"},
    {4, "orch_phases",
     "+ orchestrator submit records",
     "the orchestrator writes one orch_phase_record per submit_task() / alloc_tensors()",
     "+ orch-phase pool; exports aicpu_orchestrator_phases",
     "full collection; a bare --enable-chip-swimlane means this level"},
};

const sl_level_info *sl_level_by_value(unsigned value) {
  return value < SL_LEVEL_COUNT ? &sl_level_table[value] : NULL;
}

const sl_level_info *sl_level_by_name(const char *name) {
  for (unsigned i = 0; name && i < SL_LEVEL_COUNT; i++)
    if (strcmp(sl_level_table[i].name, name) == 0) return &sl_level_table[i];
  return NULL;
}
