/*
** generated from schema/records.lua, schema/phases.lua, schema/platforms.lua by codegen/main.lua; do not edit.
** Host-side decode / export tables and JSON writers.
** Regenerate: cmake --build <build dir> --target regen
*/

#ifndef SL_EXPORT_H
#define SL_EXPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sl_phases.h"
#include "sl_platforms.h"
#include "sl_records.h"

/* Values a JSON writer needs besides the record (which core / which index). */
typedef struct sl_export_ctx {
  uint32_t core_id;
  uint64_t record_index;
} sl_export_ctx;

/* One buffer kind: what its records are and how a buffer of them is laid out
** (records[capacity], then a u32 count, the whole aligned to 64 bytes). */
typedef struct sl_buffer_kind_info {
  enum sl_buffer_kind kind;
  const char *name;          /* "AICPU_TASK", ...                      */
  const char *record_name;   /* C type of one record                    */
  size_t record_size;
  size_t record_align;
  unsigned min_level;        /* lowest perf level that produces it      */
  const char *pool;          /* "core" or "thread": what a pool serves */
  const char *json_section;  /* where its records go on disk            */
  const char *proto_message; /* its message in swimlane_capture.proto   */
  /* Write one record as its JSON row / object (no surrounding whitespace). */
  void (*write_json)(FILE *f, const void *record, const sl_export_ctx *ctx);
} sl_buffer_kind_info;

extern const sl_buffer_kind_info sl_buffer_kind_table[SL_BUF_KIND_COUNT];

/* Records per buffer / buffers per pool of a kind on a platform. */
unsigned sl_buffer_capacity(const sl_platform_info *p, enum sl_buffer_kind kind);
unsigned sl_buffers_per_pool(const sl_platform_info *p, enum sl_buffer_kind kind);
/* Offset of the u32 record count after records[capacity], and the buffer's size. */
size_t sl_buffer_count_offset(enum sl_buffer_kind kind, unsigned capacity);
size_t sl_buffer_bytes(enum sl_buffer_kind kind, unsigned capacity);

/* JSON writers (docs/capture-format.md on-disk schema). Rows print as [a, b, c], objects as
** {"key": value, ...}; 64-bit values exact; nothing before or after. The _for
** forms take the stream's producer (SL_PRODUCER_*): an A5 HBG AICore Scheduler's
** complete / dispatch / resolve records carry a task id instead of pop counts. */
/* scheduler_tasks.records: sl_aicpu_task_record */
void sl_json_write_aicpu_task(FILE *f, const sl_aicpu_task_record *r, uint32_t core_id);
/* aicore_tasks: sl_aicore_task_record */
void sl_json_write_aicore_task(FILE *f, const sl_aicore_task_record *r, uint32_t core_id);
/* scheduler_records.streams[].records: sl_sched_phase_record */
void sl_json_write_sched_phase(FILE *f, const sl_sched_phase_record *r);
void sl_json_write_sched_phase_for(FILE *f, const sl_sched_phase_record *r, unsigned producer);
/* scheduler_records.streams[].metrics: sl_sched_phase_record */
void sl_json_write_sched_phase_metrics(FILE *f, const sl_sched_phase_record *r, uint64_t record_index);
void sl_json_write_sched_phase_metrics_for(FILE *f, const sl_sched_phase_record *r, uint64_t record_index, unsigned producer);
/* aicpu_orchestrator_phases[]: sl_orch_phase_record */
void sl_json_write_orch_phase(FILE *f, const sl_orch_phase_record *r);
/* aicpu_lifecycle_records: sl_aicpu_lifecycle_record */
void sl_json_write_lifecycle(FILE *f, const sl_aicpu_lifecycle_record *r);

#endif /* SL_EXPORT_H */
