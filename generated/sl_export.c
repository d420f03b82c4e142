/*
** generated from schema/records.lua, schema/phases.lua, schema/platforms.lua by codegen/main.lua; do not edit.
** Host-side decode / export tables and JSON writers.
** Regenerate: cmake --build <build dir> --target regen
*/

#include "sl_export.h"

#include <inttypes.h>

#include "sl_phases.h"

void sl_json_write_aicpu_task(FILE *f, const sl_aicpu_task_record *r, uint32_t core_id) {
  fputc('[', f);
  fprintf(f, "%" PRIu32, (uint32_t)core_id);
  fprintf(f, ", %" PRIu32, (uint32_t)r->reg_task_id);
  fprintf(f, ", %" PRIu64, (uint64_t)r->dispatch_time);
  fprintf(f, ", %" PRIu64, (uint64_t)r->finish_time);
  fprintf(f, ", %" PRIu32, (uint32_t)r->member);
  fputc(']', f);
}

static void sl_json_write_aicpu_task_any(FILE *f, const void *record, const sl_export_ctx *ctx) {
  sl_json_write_aicpu_task(f, (const sl_aicpu_task_record *)record, ctx ? ctx->core_id : 0);
}

void sl_json_write_aicore_task(FILE *f, const sl_aicore_task_record *r, uint32_t core_id) {
  fputc('[', f);
  fprintf(f, "%" PRIu32, (uint32_t)core_id);
  fprintf(f, ", %" PRIu64, (uint64_t)r->task_token_raw);
  fprintf(f, ", %" PRIu32, (uint32_t)r->reg_task_id);
  fprintf(f, ", %" PRIu64, (uint64_t)r->start_time);
  fprintf(f, ", %" PRIu64, (uint64_t)r->end_time);
  fprintf(f, ", %" PRIu32, (uint32_t)r->receive_to_start_cycles);
  fputc(']', f);
}

static void sl_json_write_aicore_task_any(FILE *f, const void *record, const sl_export_ctx *ctx) {
  sl_json_write_aicore_task(f, (const sl_aicore_task_record *)record, ctx ? ctx->core_id : 0);
}

void sl_json_write_sched_phase_for(FILE *f, const sl_sched_phase_record *r, unsigned producer) {
  const enum sl_phase_variant v = sl_phase_variant_for(r->kind, producer);
  fputc('{', f);
  fprintf(f, "\"start_cycles\": %" PRIu64, (uint64_t)r->start_time);
  fprintf(f, ", \"end_cycles\": %" PRIu64, (uint64_t)r->end_time);
  fprintf(f, ", \"loop_iter\": %" PRIu32, (uint32_t)r->loop_iter);
  { const sl_phase_info *p = sl_phase_by_id(r->kind); fprintf(f, ", \"kind\": \"%s\"", p ? p->name : "unknown"); }
  fprintf(f, ", \"tasks_processed\": %" PRIu32, (uint32_t)r->tasks_processed);
  if (v == SL_PHASE_VARIANT_TASK)
    fprintf(f, ", \"task_id\": %" PRIu64, ((uint64_t)r->phase_data.task.ring_id << 32) | r->phase_data.task.local_id);
  else
    fprintf(f, ", \"task_id\": null");
  fputc('}', f);
}

void sl_json_write_sched_phase(FILE *f, const sl_sched_phase_record *r) {
  sl_json_write_sched_phase_for(f, r, SL_PRODUCER_AICPU);
}

static void sl_json_write_sched_phase_any(FILE *f, const void *record, const sl_export_ctx *ctx) {
  (void)ctx;
  sl_json_write_sched_phase(f, (const sl_sched_phase_record *)record);
}

void sl_json_write_sched_phase_metrics_for(FILE *f, const sl_sched_phase_record *r, uint64_t record_index, unsigned producer) {
  const enum sl_phase_variant v = sl_phase_variant_for(r->kind, producer);
  fputc('{', f);
  fprintf(f, "\"record_index\": %" PRIu64, (uint64_t)record_index);
  int first = 0;
  if (v == SL_PHASE_VARIANT_DISPATCH) {
    fprintf(f, "%s\"pop_hit\": %" PRIu32, first ? "" : ", ", (uint32_t)r->phase_data.dispatch.pop_hit);
    first = 0;
  }
  if (v == SL_PHASE_VARIANT_DISPATCH) {
    fprintf(f, "%s\"pop_miss\": %" PRIu32, first ? "" : ", ", (uint32_t)r->phase_data.dispatch.pop_miss);
    first = 0;
  }
  fprintf(f, "%s\"shared_at_start\": [%" PRId32 ",%" PRId32 ",%" PRId32 "]", first ? "" : ", ", (int32_t)r->shared_depth_at_start[0], (int32_t)r->shared_depth_at_start[1], (int32_t)r->shared_depth_at_start[2]);
  first = 0;
  fprintf(f, "%s\"shared_at_end\": [%" PRId32 ",%" PRId32 ",%" PRId32 "]", first ? "" : ", ", (int32_t)r->shared_depth_at_end[0], (int32_t)r->shared_depth_at_end[1], (int32_t)r->shared_depth_at_end[2]);
  first = 0;
  fputc('}', f);
}

void sl_json_write_sched_phase_metrics(FILE *f, const sl_sched_phase_record *r, uint64_t record_index) {
  sl_json_write_sched_phase_metrics_for(f, r, record_index, SL_PRODUCER_AICPU);
}

void sl_json_write_orch_phase(FILE *f, const sl_orch_phase_record *r) {
  fputc('{', f);
  fprintf(f, "\"submit_idx\": %" PRIu32, (uint32_t)r->submit_idx);
  fprintf(f, ", \"task_id\": %" PRIu64, (uint64_t)r->task_id);
  fprintf(f, ", \"start_cycles\": %" PRIu64, (uint64_t)r->start_time);
  fprintf(f, ", \"end_cycles\": %" PRIu64, (uint64_t)r->end_time);
  { const sl_orch_phase_info *o = sl_orch_phase_by_id(r->kind); fprintf(f, ", \"phase\": \"%s\"", o ? o->name : "unknown"); }
  fputc('}', f);
}

static void sl_json_write_orch_phase_any(FILE *f, const void *record, const sl_export_ctx *ctx) {
  (void)ctx;
  sl_json_write_orch_phase(f, (const sl_orch_phase_record *)record);
}

void sl_json_write_lifecycle(FILE *f, const sl_aicpu_lifecycle_record *r) {
  fputc('{', f);
  fprintf(f, "\"aicpu_thread_id\": %" PRIu32, (uint32_t)r->aicpu_thread_id);
  fprintf(f, ", \"handshake_start_cycles\": %" PRIu64, (uint64_t)r->handshake_start_cycles);
  fprintf(f, ", \"handshake_complete_cycles\": %" PRIu64, (uint64_t)r->handshake_complete_cycles);
  fprintf(f, ", \"config_start_cycles\": %" PRIu64, (uint64_t)r->config_start_cycles);
  fprintf(f, ", \"topology_complete_cycles\": %" PRIu64, (uint64_t)r->topology_complete_cycles);
  fprintf(f, ", \"context_publish_start_cycles\": %" PRIu64, (uint64_t)r->context_publish_start_cycles);
  fprintf(f, ", \"context_publish_complete_cycles\": %" PRIu64, (uint64_t)r->context_publish_complete_cycles);
  fprintf(f, ", \"bootstrap_wait_start_cycles\": %" PRIu64, (uint64_t)r->bootstrap_wait_start_cycles);
  fprintf(f, ", \"bootstrap_complete_cycles\": %" PRIu64, (uint64_t)r->bootstrap_complete_cycles);
  fprintf(f, ", \"register_release_start_cycles\": %" PRIu64, (uint64_t)r->register_release_start_cycles);
  fprintf(f, ", \"register_release_end_cycles\": %" PRIu64, (uint64_t)r->register_release_end_cycles);
  fprintf(f, ", \"exit_signal_start_cycles\": %" PRIu64, (uint64_t)r->exit_signal_start_cycles);
  fprintf(f, ", \"exit_signal_end_cycles\": %" PRIu64, (uint64_t)r->exit_signal_end_cycles);
  fprintf(f, ", \"exit_wait_start_cycles\": %" PRIu64, (uint64_t)r->exit_wait_start_cycles);
  fprintf(f, ", \"exit_wait_end_cycles\": %" PRIu64, (uint64_t)r->exit_wait_end_cycles);
  fputc('}', f);
}

const sl_buffer_kind_info sl_buffer_kind_table[SL_BUF_KIND_COUNT] = {
    {SL_BUF_AICPU_TASK, "AICPU_TASK", "sl_aicpu_task_record", sizeof(sl_aicpu_task_record), _Alignof(sl_aicpu_task_record), 2u, "core", "scheduler_tasks.records", "AicpuTaskRecord", sl_json_write_aicpu_task_any},
    {SL_BUF_SCHED_PHASE, "SCHED_PHASE", "sl_sched_phase_record", sizeof(sl_sched_phase_record), _Alignof(sl_sched_phase_record), 3u, "thread", "scheduler_records.streams[].records", "SchedPhaseRecord", sl_json_write_sched_phase_any},
    {SL_BUF_ORCH_PHASE, "ORCH_PHASE", "sl_orch_phase_record", sizeof(sl_orch_phase_record), _Alignof(sl_orch_phase_record), 4u, "thread", "aicpu_orchestrator_phases[]", "OrchPhaseRecord", sl_json_write_orch_phase_any},
    {SL_BUF_AICORE_TASK, "AICORE_TASK", "sl_aicore_task_record", sizeof(sl_aicore_task_record), _Alignof(sl_aicore_task_record), 1u, "core", "aicore_tasks", "AicoreTaskRecord", sl_json_write_aicore_task_any},
};

unsigned sl_buffer_capacity(const sl_platform_info *p, enum sl_buffer_kind kind) {
  switch (kind) {
  case SL_BUF_AICPU_TASK: return p->prof_buffer_size;
  case SL_BUF_SCHED_PHASE: return p->phase_records_per_thread;
  case SL_BUF_ORCH_PHASE: return p->phase_records_per_thread;
  case SL_BUF_AICORE_TASK: return p->aicore_buffer_size;
  default: return 0;
  }
}

unsigned sl_buffers_per_pool(const sl_platform_info *p, enum sl_buffer_kind kind) {
  switch (kind) {
  case SL_BUF_AICPU_TASK: return p->prof_buffers_per_core;
  case SL_BUF_SCHED_PHASE: return p->sched_buffers_per_thread;
  case SL_BUF_ORCH_PHASE: return p->orch_buffers_per_thread;
  case SL_BUF_AICORE_TASK: return p->aicore_buffers_per_core;
  default: return 0;
  }
}

size_t sl_buffer_count_offset(enum sl_buffer_kind kind, unsigned capacity) {
  if ((unsigned)kind >= SL_BUF_KIND_COUNT) return 0;
  return sl_buffer_kind_table[kind].record_size * capacity;
}

size_t sl_buffer_bytes(enum sl_buffer_kind kind, unsigned capacity) {
  size_t end = sl_buffer_count_offset(kind, capacity) + sizeof(uint32_t);
  return (end + 63u) / 64u * 64u;
}
