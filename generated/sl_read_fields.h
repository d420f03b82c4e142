/*
** generated from schema/records.lua by codegen/main.lua; do not edit.
** Read side of the capture records: JSON keys / columns and .pb field numbers per field.
** Regenerate: cmake --build <build dir> --target regen
*/

#ifndef SL_READ_FIELDS_H
#define SL_READ_FIELDS_H

#include <stddef.h>
#include <stdint.h>

/* One capture field of a record kind. */
typedef struct sl_read_field {
  const char *name;      /* capture field name (proto name; arrays: <field>_<element>) */
  const char *key;       /* JSON key in an object record / its metrics; NULL: none */
  const char *compose;   /* composite JSON key this field is one half of (task_id), or NULL */
  int8_t column;         /* JSON column of a row record (context columns counted), -1 */
  int8_t element;        /* element index of an array field, -1 for a scalar */
  int8_t variant;        /* union variant (enum sl_phase_variant) the field belongs to, -1 */
  uint8_t is_signed;     /* C type signed (sint on the wire) */
  uint8_t bytes;         /* C type size */
  uint8_t metrics;       /* JSON: written in the metrics object, not the record */
  uint8_t compose_hi;    /* the high 32 bits of the composite */
  uint8_t named;         /* JSON writes the id's schema name (a phase kind), .pb the id */
  uint32_t pb;           /* proto field number */
} sl_read_field;

typedef struct sl_read_record {
  const char *name;      /* record name (aicore_task_record) */
  const char *proto;     /* capture message (AicoreTaskRecord) */
  const sl_read_field *fields;
  uint32_t n_fields;
  uint8_t n_columns;     /* row records: JSON columns written (0 for object records) */
} sl_read_record;

/* Most fields of one record kind (a reader's per-record bitmask fits in 64 bits). */
#define SL_READ_MAX_FIELDS 64

/* aicpu_task_record (AicpuTaskRecord) */
enum {
  SL_RF_AICPU_TASK_RECORD_DISPATCH_TIME = 0,
  SL_RF_AICPU_TASK_RECORD_FINISH_TIME = 1,
  SL_RF_AICPU_TASK_RECORD_REG_TASK_ID = 2,
  SL_RF_AICPU_TASK_RECORD_MEMBER = 3,
  SL_RF_AICPU_TASK_RECORD_COUNT = 4
};

/* aicore_task_record (AicoreTaskRecord) */
enum {
  SL_RF_AICORE_TASK_RECORD_START_TIME = 0,
  SL_RF_AICORE_TASK_RECORD_END_TIME = 1,
  SL_RF_AICORE_TASK_RECORD_TASK_TOKEN_RAW = 2,
  SL_RF_AICORE_TASK_RECORD_REG_TASK_ID = 3,
  SL_RF_AICORE_TASK_RECORD_RECEIVE_TO_START_CYCLES = 4,
  SL_RF_AICORE_TASK_RECORD_COUNT = 5
};

/* sched_phase_record (SchedPhaseRecord) */
enum {
  SL_RF_SCHED_PHASE_RECORD_START_TIME = 0,
  SL_RF_SCHED_PHASE_RECORD_END_TIME = 1,
  SL_RF_SCHED_PHASE_RECORD_LOOP_ITER = 2,
  SL_RF_SCHED_PHASE_RECORD_KIND = 3,
  SL_RF_SCHED_PHASE_RECORD_TASKS_PROCESSED = 4,
  SL_RF_SCHED_PHASE_RECORD_POP_HIT = 5,
  SL_RF_SCHED_PHASE_RECORD_POP_MISS = 6,
  SL_RF_SCHED_PHASE_RECORD_LOCAL_ID = 7,
  SL_RF_SCHED_PHASE_RECORD_RING_ID = 8,
  SL_RF_SCHED_PHASE_RECORD_SHARED_DEPTH_AT_START_AIC = 9,
  SL_RF_SCHED_PHASE_RECORD_SHARED_DEPTH_AT_START_AIV = 10,
  SL_RF_SCHED_PHASE_RECORD_SHARED_DEPTH_AT_START_MIX = 11,
  SL_RF_SCHED_PHASE_RECORD_SHARED_DEPTH_AT_END_AIC = 12,
  SL_RF_SCHED_PHASE_RECORD_SHARED_DEPTH_AT_END_AIV = 13,
  SL_RF_SCHED_PHASE_RECORD_SHARED_DEPTH_AT_END_MIX = 14,
  SL_RF_SCHED_PHASE_RECORD_COUNT = 15
};

/* orch_phase_record (OrchPhaseRecord) */
enum {
  SL_RF_ORCH_PHASE_RECORD_START_TIME = 0,
  SL_RF_ORCH_PHASE_RECORD_END_TIME = 1,
  SL_RF_ORCH_PHASE_RECORD_TASK_ID = 2,
  SL_RF_ORCH_PHASE_RECORD_SUBMIT_IDX = 3,
  SL_RF_ORCH_PHASE_RECORD_KIND = 4,
  SL_RF_ORCH_PHASE_RECORD_COUNT = 5
};

/* aicpu_lifecycle_record (AicpuLifecycleRecord) */
enum {
  SL_RF_AICPU_LIFECYCLE_RECORD_AICPU_THREAD_ID = 0,
  SL_RF_AICPU_LIFECYCLE_RECORD_HANDSHAKE_START_CYCLES = 1,
  SL_RF_AICPU_LIFECYCLE_RECORD_HANDSHAKE_COMPLETE_CYCLES = 2,
  SL_RF_AICPU_LIFECYCLE_RECORD_CONFIG_START_CYCLES = 3,
  SL_RF_AICPU_LIFECYCLE_RECORD_TOPOLOGY_COMPLETE_CYCLES = 4,
  SL_RF_AICPU_LIFECYCLE_RECORD_CONTEXT_PUBLISH_START_CYCLES = 5,
  SL_RF_AICPU_LIFECYCLE_RECORD_CONTEXT_PUBLISH_COMPLETE_CYCLES = 6,
  SL_RF_AICPU_LIFECYCLE_RECORD_BOOTSTRAP_WAIT_START_CYCLES = 7,
  SL_RF_AICPU_LIFECYCLE_RECORD_BOOTSTRAP_COMPLETE_CYCLES = 8,
  SL_RF_AICPU_LIFECYCLE_RECORD_REGISTER_RELEASE_START_CYCLES = 9,
  SL_RF_AICPU_LIFECYCLE_RECORD_REGISTER_RELEASE_END_CYCLES = 10,
  SL_RF_AICPU_LIFECYCLE_RECORD_EXIT_SIGNAL_START_CYCLES = 11,
  SL_RF_AICPU_LIFECYCLE_RECORD_EXIT_SIGNAL_END_CYCLES = 12,
  SL_RF_AICPU_LIFECYCLE_RECORD_EXIT_WAIT_START_CYCLES = 13,
  SL_RF_AICPU_LIFECYCLE_RECORD_EXIT_WAIT_END_CYCLES = 14,
  SL_RF_AICPU_LIFECYCLE_RECORD_COUNT = 15
};

enum sl_read_kind {
  SL_READ_AICPU_TASK_RECORD = 0,
  SL_READ_AICORE_TASK_RECORD = 1,
  SL_READ_SCHED_PHASE_RECORD = 2,
  SL_READ_ORCH_PHASE_RECORD = 3,
  SL_READ_AICPU_LIFECYCLE_RECORD = 4,
  SL_READ_KIND_COUNT = 5
};
extern const sl_read_record sl_read_records[SL_READ_KIND_COUNT];

/* Field index of a JSON key (object records; metrics keys too), the first element of an
** array key, or the low half of a composite key; -1 when the schema has no such key. */
int sl_read_field_by_key(const sl_read_record *r, const char *key, size_t len);
/* Field index of a JSON column of a row record, -1 past the schema's columns. */
int sl_read_field_by_column(const sl_read_record *r, unsigned column);
/* Field index of a proto field number, -1 when the schema has none (or it is reserved). */
int sl_read_field_by_pb(const sl_read_record *r, uint32_t pb);

#endif /* SL_READ_FIELDS_H */
