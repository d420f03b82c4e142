/*
** generated from schema/levels.lua, schema/records.lua by codegen/main.lua; do not edit.
** Perf levels and what each gates.
** Regenerate: cmake --build <build dir> --target regen
*/

#ifndef SL_LEVELS_H
#define SL_LEVELS_H

enum sl_level {
  SL_LEVEL_DISABLED = 0, /* nothing */
  SL_LEVEL_AICORE_TIMING = 1, /* AICore task timing (start, end, receive_to_start, task id) */
  SL_LEVEL_AICPU_TIMING = 2, /* + scheduler per-task dispatch / finish times */
  SL_LEVEL_SCHED_PHASES = 3, /* + scheduler phase records */
  SL_LEVEL_ORCH_PHASES = 4, /* + orchestrator submit records */
};
#define SL_LEVEL_COUNT 5u
#define SL_LEVEL_MAX 4u

/* Minimum level at which each record kind is written (device writers test it). */
#define SL_MIN_LEVEL_AICPU_TASK 2u /* sl_aicpu_task_record */
#define SL_MIN_LEVEL_AICORE_TASK 1u /* sl_aicore_task_record */
#define SL_MIN_LEVEL_SCHED_PHASE 3u /* sl_sched_phase_record */
#define SL_MIN_LEVEL_ORCH_PHASE 4u /* sl_orch_phase_record */
#define SL_MIN_LEVEL_LIFECYCLE 2u /* sl_aicpu_lifecycle_record */

typedef struct sl_level_info {
  unsigned value;
  const char *name;
  const char *collects;
  const char *device;   /* what the device does at this level        */
  const char *host;     /* what the host allocates / exports          */
  const char *notes;
} sl_level_info;

extern const sl_level_info sl_level_table[SL_LEVEL_COUNT]; /* index = value */

/* NULL when out of range / unknown. */
const sl_level_info *sl_level_by_value(unsigned value);
const sl_level_info *sl_level_by_name(const char *name);

#endif /* SL_LEVELS_H */
