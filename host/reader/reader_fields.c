/*
** reader_fields.c — what both capture parsers share about record fields: which fields of
** each record kind the reader interprets (everything else of the generated read table,
** generated/sl_read_fields.h, is carried on the record as an "extra" and shown in the trace
** args), and the extras store itself.
*/
#include <string.h>

#include "reader_raw.h"
#include "reader_util.h"

#define BIT(x) (1ull << (x))

/* The fields the join and the capture model give a meaning to, per record kind. A field the
** schema adds is not here, so it becomes an extra in both formats with no edit. */
const uint64_t sl_read_used[SL_READ_KIND_COUNT] = {
  [SL_READ_AICPU_TASK_RECORD] = BIT(SL_RF_AICPU_TASK_RECORD_DISPATCH_TIME) | BIT(SL_RF_AICPU_TASK_RECORD_FINISH_TIME) |
                                BIT(SL_RF_AICPU_TASK_RECORD_REG_TASK_ID) | BIT(SL_RF_AICPU_TASK_RECORD_MEMBER),
  [SL_READ_AICORE_TASK_RECORD] = BIT(SL_RF_AICORE_TASK_RECORD_START_TIME) | BIT(SL_RF_AICORE_TASK_RECORD_END_TIME) |
                                 BIT(SL_RF_AICORE_TASK_RECORD_TASK_TOKEN_RAW) |
                                 BIT(SL_RF_AICORE_TASK_RECORD_REG_TASK_ID) |
                                 BIT(SL_RF_AICORE_TASK_RECORD_RECEIVE_TO_START_CYCLES),
  [SL_READ_SCHED_PHASE_RECORD] =
      BIT(SL_RF_SCHED_PHASE_RECORD_START_TIME) | BIT(SL_RF_SCHED_PHASE_RECORD_END_TIME) |
      BIT(SL_RF_SCHED_PHASE_RECORD_LOOP_ITER) | BIT(SL_RF_SCHED_PHASE_RECORD_KIND) |
      BIT(SL_RF_SCHED_PHASE_RECORD_TASKS_PROCESSED) | BIT(SL_RF_SCHED_PHASE_RECORD_POP_HIT) |
      BIT(SL_RF_SCHED_PHASE_RECORD_POP_MISS) | BIT(SL_RF_SCHED_PHASE_RECORD_LOCAL_ID) |
      BIT(SL_RF_SCHED_PHASE_RECORD_RING_ID) | BIT(SL_RF_SCHED_PHASE_RECORD_SHARED_DEPTH_AT_START_AIC) |
      BIT(SL_RF_SCHED_PHASE_RECORD_SHARED_DEPTH_AT_START_AIV) | BIT(SL_RF_SCHED_PHASE_RECORD_SHARED_DEPTH_AT_START_MIX) |
      BIT(SL_RF_SCHED_PHASE_RECORD_SHARED_DEPTH_AT_END_AIC) | BIT(SL_RF_SCHED_PHASE_RECORD_SHARED_DEPTH_AT_END_AIV) |
      BIT(SL_RF_SCHED_PHASE_RECORD_SHARED_DEPTH_AT_END_MIX),
  [SL_READ_ORCH_PHASE_RECORD] = BIT(SL_RF_ORCH_PHASE_RECORD_START_TIME) | BIT(SL_RF_ORCH_PHASE_RECORD_END_TIME) |
                                BIT(SL_RF_ORCH_PHASE_RECORD_TASK_ID) | BIT(SL_RF_ORCH_PHASE_RECORD_SUBMIT_IDX) |
                                BIT(SL_RF_ORCH_PHASE_RECORD_KIND),
  /* aicpu_thread_id and the SL_LC_FIELD_COUNT span fields (sl_capture.h) */
  [SL_READ_AICPU_LIFECYCLE_RECORD] = BIT(SL_RF_AICPU_LIFECYCLE_RECORD_AICPU_THREAD_ID) |
                                     ((BIT(SL_LC_FIELD_COUNT) - 1) << SL_LC_FIRST_RF),
};

int sl_read_is_extra(enum sl_read_kind kind, int field) {
  return field < 0 || !(sl_read_used[kind] & BIT(field));
}

void sl_extra_add(sl_capture *c, sl_extra_span *sp, const char *key, size_t klen, int64_t value) {
  if (sp->n >= SL_PH_MAX_EXTRA) return; /* more are dropped */
  sl_str k = sl_intern_add(&c->strings, key, klen);
  sl_extra_field *e = sl_array_push(c->extras, c->n_extras, c->cap_extras);
  e->key = k;
  e->value = value;
  if (sp->n++ == 0) sp->first = (uint32_t)(c->n_extras - 1);
}

sl_extra_span sl_extra_join(sl_capture *c, sl_extra_span a, sl_extra_span b) {
  if (!b.n || !a.n) return a.n ? a : b;
  sl_extra_span j = {0, 0};
  for (int part = 0; part < 2; part++) {
    sl_extra_span s = part ? b : a;
    for (uint32_t k = 0; k < s.n && j.n < SL_PH_MAX_EXTRA; k++) {
      sl_extra_field e = c->extras[s.first + k]; /* copied: the push may move the array */
      *sl_array_push(c->extras, c->n_extras, c->cap_extras) = e;
      if (j.n++ == 0) j.first = (uint32_t)(c->n_extras - 1);
    }
  }
  return j;
}
