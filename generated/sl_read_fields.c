/*
** generated from schema/records.lua by codegen/main.lua; do not edit.
** Read side of the capture records: JSON keys / columns and .pb field numbers per field.
** Regenerate: cmake --build <build dir> --target regen
*/

#include "sl_read_fields.h"

#include <string.h>

#include "sl_phases.h"

static const sl_read_field f_aicpu_task_record[] = {
  {"dispatch_time", NULL, NULL, 2, -1, -1, 0, 8, 0, 0, 0, 1},
  {"finish_time", NULL, NULL, 3, -1, -1, 0, 8, 0, 0, 0, 2},
  {"reg_task_id", NULL, NULL, 1, -1, -1, 0, 4, 0, 0, 0, 3},
  {"member", NULL, NULL, 4, -1, -1, 0, 4, 0, 0, 0, 4},
};

static const sl_read_field f_aicore_task_record[] = {
  {"start_time", NULL, NULL, 3, -1, -1, 0, 8, 0, 0, 0, 1},
  {"end_time", NULL, NULL, 4, -1, -1, 0, 8, 0, 0, 0, 2},
  {"task_token_raw", NULL, NULL, 1, -1, -1, 0, 8, 0, 0, 0, 3},
  {"reg_task_id", NULL, NULL, 2, -1, -1, 0, 4, 0, 0, 0, 4},
  {"receive_to_start_cycles", NULL, NULL, 5, -1, -1, 0, 4, 0, 0, 0, 5},
};

static const sl_read_field f_sched_phase_record[] = {
  {"start_time", "start_cycles", NULL, -1, -1, -1, 0, 8, 0, 0, 0, 1},
  {"end_time", "end_cycles", NULL, -1, -1, -1, 0, 8, 0, 0, 0, 2},
  {"loop_iter", "loop_iter", NULL, -1, -1, -1, 0, 4, 0, 0, 0, 3},
  {"kind", "kind", NULL, -1, -1, -1, 0, 4, 0, 0, 1, 4},
  {"tasks_processed", "tasks_processed", NULL, -1, -1, -1, 0, 4, 0, 0, 0, 5},
  {"pop_hit", "pop_hit", NULL, -1, -1, SL_PHASE_VARIANT_DISPATCH, 0, 4, 1, 0, 0, 6},
  {"pop_miss", "pop_miss", NULL, -1, -1, SL_PHASE_VARIANT_DISPATCH, 0, 4, 1, 0, 0, 7},
  {"local_id", NULL, "task_id", -1, -1, SL_PHASE_VARIANT_TASK, 0, 4, 0, 0, 0, 8},
  {"ring_id", NULL, "task_id", -1, -1, SL_PHASE_VARIANT_TASK, 0, 4, 0, 1, 0, 9},
  {"shared_depth_at_start_aic", "shared_at_start", NULL, -1, 0, -1, 1, 2, 1, 0, 0, 10},
  {"shared_depth_at_start_aiv", "shared_at_start", NULL, -1, 1, -1, 1, 2, 1, 0, 0, 11},
  {"shared_depth_at_start_mix", "shared_at_start", NULL, -1, 2, -1, 1, 2, 1, 0, 0, 12},
  {"shared_depth_at_end_aic", "shared_at_end", NULL, -1, 0, -1, 1, 2, 1, 0, 0, 13},
  {"shared_depth_at_end_aiv", "shared_at_end", NULL, -1, 1, -1, 1, 2, 1, 0, 0, 14},
  {"shared_depth_at_end_mix", "shared_at_end", NULL, -1, 2, -1, 1, 2, 1, 0, 0, 15},
};

static const sl_read_field f_orch_phase_record[] = {
  {"start_time", "start_cycles", NULL, -1, -1, -1, 0, 8, 0, 0, 0, 1},
  {"end_time", "end_cycles", NULL, -1, -1, -1, 0, 8, 0, 0, 0, 2},
  {"task_id", "task_id", NULL, -1, -1, -1, 0, 8, 0, 0, 0, 3},
  {"submit_idx", "submit_idx", NULL, -1, -1, -1, 0, 4, 0, 0, 0, 4},
  {"kind", "phase", NULL, -1, -1, -1, 0, 4, 0, 0, 1, 5},
};

static const sl_read_field f_aicpu_lifecycle_record[] = {
  {"aicpu_thread_id", "aicpu_thread_id", NULL, -1, -1, -1, 0, 4, 0, 0, 0, 1},
  {"handshake_start_cycles", "handshake_start_cycles", NULL, -1, -1, -1, 0, 8, 0, 0, 0, 2},
  {"handshake_complete_cycles", "handshake_complete_cycles", NULL, -1, -1, -1, 0, 8, 0, 0, 0, 3},
  {"config_start_cycles", "config_start_cycles", NULL, -1, -1, -1, 0, 8, 0, 0, 0, 4},
  {"topology_complete_cycles", "topology_complete_cycles", NULL, -1, -1, -1, 0, 8, 0, 0, 0, 5},
  {"context_publish_start_cycles", "context_publish_start_cycles", NULL, -1, -1, -1, 0, 8, 0, 0, 0, 6},
  {"context_publish_complete_cycles", "context_publish_complete_cycles", NULL, -1, -1, -1, 0, 8, 0, 0, 0, 7},
  {"bootstrap_wait_start_cycles", "bootstrap_wait_start_cycles", NULL, -1, -1, -1, 0, 8, 0, 0, 0, 8},
  {"bootstrap_complete_cycles", "bootstrap_complete_cycles", NULL, -1, -1, -1, 0, 8, 0, 0, 0, 9},
  {"register_release_start_cycles", "register_release_start_cycles", NULL, -1, -1, -1, 0, 8, 0, 0, 0, 10},
  {"register_release_end_cycles", "register_release_end_cycles", NULL, -1, -1, -1, 0, 8, 0, 0, 0, 11},
  {"exit_signal_start_cycles", "exit_signal_start_cycles", NULL, -1, -1, -1, 0, 8, 0, 0, 0, 12},
  {"exit_signal_end_cycles", "exit_signal_end_cycles", NULL, -1, -1, -1, 0, 8, 0, 0, 0, 13},
  {"exit_wait_start_cycles", "exit_wait_start_cycles", NULL, -1, -1, -1, 0, 8, 0, 0, 0, 14},
  {"exit_wait_end_cycles", "exit_wait_end_cycles", NULL, -1, -1, -1, 0, 8, 0, 0, 0, 15},
};

const sl_read_record sl_read_records[SL_READ_KIND_COUNT] = {
  {"aicpu_task_record", "AicpuTaskRecord", f_aicpu_task_record, 4, 5},
  {"aicore_task_record", "AicoreTaskRecord", f_aicore_task_record, 5, 6},
  {"sched_phase_record", "SchedPhaseRecord", f_sched_phase_record, 15, 0},
  {"orch_phase_record", "OrchPhaseRecord", f_orch_phase_record, 5, 0},
  {"aicpu_lifecycle_record", "AicpuLifecycleRecord", f_aicpu_lifecycle_record, 15, 0},
};

int sl_read_field_by_key(const sl_read_record *r, const char *key, size_t len) {
  for (uint32_t i = 0; i < r->n_fields; i++) {
    const sl_read_field *f = &r->fields[i];
    const char *k = f->key ? f->key : f->compose;
    if (f->element > 0 || (f->compose && f->compose_hi)) continue;
    if (k && strlen(k) == len && !memcmp(k, key, len)) return (int)i;
  }
  return -1;
}

int sl_read_field_by_column(const sl_read_record *r, unsigned column) {
  for (uint32_t i = 0; i < r->n_fields; i++)
    if (r->fields[i].column >= 0 && (unsigned)r->fields[i].column == column) return (int)i;
  return -1;
}

int sl_read_field_by_pb(const sl_read_record *r, uint32_t pb) {
  for (uint32_t i = 0; i < r->n_fields; i++)
    if (r->fields[i].pb == pb) return (int)i;
  return -1;
}
