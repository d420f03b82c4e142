/*
** generated from schema/records.lua, schema/phases.lua by codegen/main.lua; do not edit.
** Glue between record structs and protobuf-c messages.
** Regenerate: cmake --build <build dir> --target regen
*/

#include "sl_proto_glue.h"

#include <stdint.h>
#include <string.h>

#include "sl_phases.h"

void sl_aicpu_task_record_to_pb(const sl_aicpu_task_record *r, Swimlane__AicpuTaskRecord *m) {
  swimlane__aicpu_task_record__init(m);
  m->dispatch_time = r->dispatch_time;
  m->finish_time = r->finish_time;
  m->reg_task_id = r->reg_task_id;
  m->member = r->member;
}

int sl_aicpu_task_record_from_pb(const Swimlane__AicpuTaskRecord *m, sl_aicpu_task_record *r) {
  memset(r, 0, sizeof *r);
  r->dispatch_time = (uint64_t)m->dispatch_time;
  r->finish_time = (uint64_t)m->finish_time;
  r->reg_task_id = (uint32_t)m->reg_task_id;
  r->member = (uint32_t)m->member;
  return 0;
}

void sl_aicore_task_record_to_pb(const sl_aicore_task_record *r, Swimlane__AicoreTaskRecord *m) {
  swimlane__aicore_task_record__init(m);
  m->start_time = r->start_time;
  m->end_time = r->end_time;
  m->task_token_raw = r->task_token_raw;
  m->reg_task_id = r->reg_task_id;
  m->receive_to_start_cycles = r->receive_to_start_cycles;
}

int sl_aicore_task_record_from_pb(const Swimlane__AicoreTaskRecord *m, sl_aicore_task_record *r) {
  memset(r, 0, sizeof *r);
  r->start_time = (uint64_t)m->start_time;
  r->end_time = (uint64_t)m->end_time;
  r->task_token_raw = (uint64_t)m->task_token_raw;
  r->reg_task_id = (uint32_t)m->reg_task_id;
  r->receive_to_start_cycles = (uint32_t)m->receive_to_start_cycles;
  return 0;
}

void sl_sched_phase_record_to_pb(const sl_sched_phase_record *r, Swimlane__SchedPhaseRecord *m) {
  swimlane__sched_phase_record__init(m);
  m->start_time = r->start_time;
  m->end_time = r->end_time;
  m->loop_iter = r->loop_iter;
  m->kind = r->kind;
  m->tasks_processed = r->tasks_processed;
  m->shared_depth_at_start_aic = r->shared_depth_at_start[0];
  m->shared_depth_at_start_aiv = r->shared_depth_at_start[1];
  m->shared_depth_at_start_mix = r->shared_depth_at_start[2];
  m->shared_depth_at_end_aic = r->shared_depth_at_end[0];
  m->shared_depth_at_end_aiv = r->shared_depth_at_end[1];
  m->shared_depth_at_end_mix = r->shared_depth_at_end[2];
  enum sl_phase_variant v = sl_phase_variant_of(r->kind);
  if (v == SL_PHASE_VARIANT_NONE) v = SL_PHASE_VARIANT_DISPATCH;
  switch (v) {
  case SL_PHASE_VARIANT_DISPATCH:
    m->pop_hit = r->phase_data.dispatch.pop_hit;
    m->pop_miss = r->phase_data.dispatch.pop_miss;
    break;
  case SL_PHASE_VARIANT_TASK:
    m->local_id = r->phase_data.task.local_id;
    m->ring_id = r->phase_data.task.ring_id;
    break;
  default:
    break;
  }
}

int sl_sched_phase_record_from_pb(const Swimlane__SchedPhaseRecord *m, sl_sched_phase_record *r) {
  memset(r, 0, sizeof *r);
  r->start_time = (uint64_t)m->start_time;
  r->end_time = (uint64_t)m->end_time;
  r->loop_iter = (uint32_t)m->loop_iter;
  r->kind = (uint32_t)m->kind;
  r->tasks_processed = (uint32_t)m->tasks_processed;
  if (m->shared_depth_at_start_aic < INT16_MIN || m->shared_depth_at_start_aic > INT16_MAX) return -1;
  r->shared_depth_at_start[0] = (int16_t)m->shared_depth_at_start_aic;
  if (m->shared_depth_at_start_aiv < INT16_MIN || m->shared_depth_at_start_aiv > INT16_MAX) return -1;
  r->shared_depth_at_start[1] = (int16_t)m->shared_depth_at_start_aiv;
  if (m->shared_depth_at_start_mix < INT16_MIN || m->shared_depth_at_start_mix > INT16_MAX) return -1;
  r->shared_depth_at_start[2] = (int16_t)m->shared_depth_at_start_mix;
  if (m->shared_depth_at_end_aic < INT16_MIN || m->shared_depth_at_end_aic > INT16_MAX) return -1;
  r->shared_depth_at_end[0] = (int16_t)m->shared_depth_at_end_aic;
  if (m->shared_depth_at_end_aiv < INT16_MIN || m->shared_depth_at_end_aiv > INT16_MAX) return -1;
  r->shared_depth_at_end[1] = (int16_t)m->shared_depth_at_end_aiv;
  if (m->shared_depth_at_end_mix < INT16_MIN || m->shared_depth_at_end_mix > INT16_MAX) return -1;
  r->shared_depth_at_end[2] = (int16_t)m->shared_depth_at_end_mix;
  enum sl_phase_variant v = sl_phase_variant_of(r->kind);
  if (v == SL_PHASE_VARIANT_NONE) v = SL_PHASE_VARIANT_DISPATCH;
  switch (v) {
  case SL_PHASE_VARIANT_DISPATCH:
    r->phase_data.dispatch.pop_hit = (uint32_t)m->pop_hit;
    r->phase_data.dispatch.pop_miss = (uint32_t)m->pop_miss;
    break;
  case SL_PHASE_VARIANT_TASK:
    r->phase_data.task.local_id = (uint32_t)m->local_id;
    r->phase_data.task.ring_id = (uint32_t)m->ring_id;
    break;
  default:
    break;
  }
  return 0;
}

void sl_orch_phase_record_to_pb(const sl_orch_phase_record *r, Swimlane__OrchPhaseRecord *m) {
  swimlane__orch_phase_record__init(m);
  m->start_time = r->start_time;
  m->end_time = r->end_time;
  m->task_id = r->task_id;
  m->submit_idx = r->submit_idx;
  m->kind = r->kind;
}

int sl_orch_phase_record_from_pb(const Swimlane__OrchPhaseRecord *m, sl_orch_phase_record *r) {
  memset(r, 0, sizeof *r);
  r->start_time = (uint64_t)m->start_time;
  r->end_time = (uint64_t)m->end_time;
  r->task_id = (uint64_t)m->task_id;
  r->submit_idx = (uint32_t)m->submit_idx;
  r->kind = (uint32_t)m->kind;
  return 0;
}

void sl_aicpu_lifecycle_record_to_pb(const sl_aicpu_lifecycle_record *r, Swimlane__AicpuLifecycleRecord *m) {
  swimlane__aicpu_lifecycle_record__init(m);
  m->aicpu_thread_id = r->aicpu_thread_id;
  m->handshake_start_cycles = r->handshake_start_cycles;
  m->handshake_complete_cycles = r->handshake_complete_cycles;
  m->config_start_cycles = r->config_start_cycles;
  m->topology_complete_cycles = r->topology_complete_cycles;
  m->context_publish_start_cycles = r->context_publish_start_cycles;
  m->context_publish_complete_cycles = r->context_publish_complete_cycles;
  m->bootstrap_wait_start_cycles = r->bootstrap_wait_start_cycles;
  m->bootstrap_complete_cycles = r->bootstrap_complete_cycles;
  m->register_release_start_cycles = r->register_release_start_cycles;
  m->register_release_end_cycles = r->register_release_end_cycles;
  m->exit_signal_start_cycles = r->exit_signal_start_cycles;
  m->exit_signal_end_cycles = r->exit_signal_end_cycles;
  m->exit_wait_start_cycles = r->exit_wait_start_cycles;
  m->exit_wait_end_cycles = r->exit_wait_end_cycles;
}

int sl_aicpu_lifecycle_record_from_pb(const Swimlane__AicpuLifecycleRecord *m, sl_aicpu_lifecycle_record *r) {
  memset(r, 0, sizeof *r);
  r->aicpu_thread_id = (uint32_t)m->aicpu_thread_id;
  r->handshake_start_cycles = (uint64_t)m->handshake_start_cycles;
  r->handshake_complete_cycles = (uint64_t)m->handshake_complete_cycles;
  r->config_start_cycles = (uint64_t)m->config_start_cycles;
  r->topology_complete_cycles = (uint64_t)m->topology_complete_cycles;
  r->context_publish_start_cycles = (uint64_t)m->context_publish_start_cycles;
  r->context_publish_complete_cycles = (uint64_t)m->context_publish_complete_cycles;
  r->bootstrap_wait_start_cycles = (uint64_t)m->bootstrap_wait_start_cycles;
  r->bootstrap_complete_cycles = (uint64_t)m->bootstrap_complete_cycles;
  r->register_release_start_cycles = (uint64_t)m->register_release_start_cycles;
  r->register_release_end_cycles = (uint64_t)m->register_release_end_cycles;
  r->exit_signal_start_cycles = (uint64_t)m->exit_signal_start_cycles;
  r->exit_signal_end_cycles = (uint64_t)m->exit_signal_end_cycles;
  r->exit_wait_start_cycles = (uint64_t)m->exit_wait_start_cycles;
  r->exit_wait_end_cycles = (uint64_t)m->exit_wait_end_cycles;
  return 0;
}
