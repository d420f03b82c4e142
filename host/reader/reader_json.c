/*
** reader_json.c — streaming parser of chip_swimlane_records.json (yajl).
**
** A stack of frames mirrors the JSON nesting; each frame knows which part of
** the capture it is (its "context"), so every scalar is routed by (context,
** key or index) straight into the raw cycle-domain rows, with no document tree.
** Unknown keys are skipped whatever their shape. Integers are parsed from the
** number text, so 64-bit ids and cycle counts never pass through a double.
*/
#include <stdio.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "reader_raw.h"
#include "reader_util.h"
#include "sl_base.h"
#include "sl_fingerprint.h"
#include "sl_phases.h"

enum ctx {
  C_ROOT, C_META, C_CORE_TYPES, C_C2T, C_HOST_CAPTURE,
  C_AICORE, C_AICORE_ROW, C_STASKS, C_STASK_ROW, C_SCHED_TASKS,
  C_OLD_PHASES, C_OLD_THREAD, C_PHASE, C_SHARED,
  C_SCHED_RECORDS, C_STREAMS, C_STREAM, C_CAPTURE, C_STREAM_RECS, C_METRICS, C_METRIC,
  C_ORCH, C_ORCH_THREAD, C_ORCH_REC, C_LIFECYCLE, C_LC, C_HOST_ORCH, C_HOST_THREAD, C_HOST_REC,
  C_UPLOADS, C_UPLOAD, C_ANCHORS, C_SAMPLES, C_SAMPLE, C_SKIP
};

enum { T_NULL, T_BOOL, T_NUM, T_STR };

/* the fewest columns a row may have: the reference's older rows lack the last one */
#define ROW_MIN_AICORE 5u
#define ROW_MIN_STASK 4u

#define MAX_DEPTH 64
#define KEY_MAX 64

typedef struct frame {
  uint8_t ctx;
  uint8_t is_map;
  size_t idx;             /* array: index of the next element */
  char key[KEY_MAX];      /* map: current key (truncated for paths) */
  size_t keylen;          /* full length of the current key */
} frame;

typedef struct metric {
  uint64_t record_index;
  int has_index, has_pop, shared_bits;
  int64_t pop_hit, pop_miss, s_start[3], s_end[3];
  size_t pos;
  sl_extra_span extra;    /* fields only the metrics object carries: extras of the record */
} metric;

typedef struct pending_stream {
  sl_sched_stream s;
  int64_t idx;
} pending_stream;

typedef struct parser {
  sl_raw *raw;
  sl_capture *c;
  int failed;
  int at_container;
  size_t offset;          /* bytes fed to yajl before the current chunk */       /* errors name the container being closed, not its last slot */
  int depth;
  frame st[MAX_DEPTH];
  /* root/metadata duplicate-key guard */
  uint32_t seen_root, seen_meta;
  /* row accumulators */
  uint64_t row[SL_READ_MAX_FIELDS];
  sl_extra_span row_extra;
  size_t ncols;
  sl_phase_in ph;
  uint64_t ph_start, ph_end;
  int64_t sh[3];
  size_t sh_n;
  int sh_bits;            /* 1 = shared_at_start ok, 2 = shared_at_end ok */
  metric mt;
  int metric_mode;        /* shared arrays belong to a metric, not a phase */
  sl_orch_rec orch;
  uint64_t orch_start, orch_end;
  sl_lifecycle_rec lc;
  uint64_t lc_cyc[SL_LC_FIELD_COUNT];
  sl_upload_rec up;       /* host sections: an upload, a clock sample */
  sl_clock_sample smp;
  uint32_t smp_bits;      /* sample fields read as integers (before, cycles, after, idx) */
  /* streams */
  pending_stream cur;
  metric *metrics;
  size_t n_metrics, cap_metrics;
  pending_stream *pend;
  size_t n_pend, cap_pend;
  int seen_new_phases, seen_old_phases;
  int seen_new_tasks, seen_old_tasks;
} parser;

/* ---- errors ---------------------------------------------------------------------- */

static void path_of(const parser *p, char *buf, size_t cap) {
  size_t n = (size_t)snprintf(buf, cap, "$");
  if (p->st[0].ctx == C_SKIP) return; /* nothing read yet, or a top-level scalar */
  int last = p->depth - (p->at_container ? 1 : 0);
  for (int i = 0; i <= last && n < cap; i++) {
    const frame *f = &p->st[i];
    if (f->is_map) {
      if (f->keylen) n += (size_t)snprintf(buf + n, cap - n, ".%s%s", f->key, f->keylen >= KEY_MAX ? "..." : "");
    } else {
      n += (size_t)snprintf(buf + n, cap - n, "[%zu]", f->idx);
    }
  }
}

__attribute__((format(printf, 2, 3))) static int fail(parser *p, const char *fmt, ...) {
  if (p->failed) return 0;
  char path[512], msg[512];
  path_of(p, path, sizeof path);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  (void)sl_err_set(p->raw->err, p->raw->name, "%s: %s", path, msg);
  p->failed = 1;
  return 0;
}

static const char *type_name(int t) {
  switch (t) {
  case T_NULL: return "null";
  case T_BOOL: return "a boolean";
  case T_NUM: return "a number";
  default: return "a string";
  }
}

/* ---- value helpers ---------------------------------------------------------------- */

typedef struct scalar {
  int t;
  const char *s;
  size_t len;
  int b;
} scalar;

/* A signed 64-bit integer. */
static int want_i64(parser *p, const scalar *v, int64_t *out) {
  if (v->t != T_NUM) return fail(p, "expected an integer, got %s", type_name(v->t));
  int neg;
  uint64_t mag;
  int r = sl_parse_int(v->s, v->len, &neg, &mag);
  if (r == -1) return fail(p, "expected an integer, got %.*s", (int)(v->len > 40 ? 40 : v->len), v->s);
  if (r == -2 || (!neg && mag > INT64_MAX) || (neg && mag > (uint64_t)INT64_MAX + 1))
    return fail(p, "integer %.*s out of range", (int)(v->len > 40 ? 40 : v->len), v->s);
  *out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
  return 1;
}

/* A cycle count / uint64 value: negative values read as 0 ("absent"). */
static int want_u64(parser *p, const scalar *v, uint64_t *out) {
  if (v->t != T_NUM) return fail(p, "expected an integer, got %s", type_name(v->t));
  int neg;
  uint64_t mag;
  int r = sl_parse_int(v->s, v->len, &neg, &mag);
  if (r == -1) return fail(p, "expected an integer, got %.*s", (int)(v->len > 40 ? 40 : v->len), v->s);
  if (r == -2) return fail(p, "integer %.*s out of range", (int)(v->len > 40 ? 40 : v->len), v->s);
  *out = neg ? 0 : mag;
  return 1;
}

/* A task id: integer (or integer string), negative wrapped to uint64; null -> *present = 0. */
static int want_id(parser *p, const scalar *v, uint64_t *out, int64_t *sgn, int *present) {
  *present = 0;
  if (v->t == T_NULL) return 1;
  if (v->t != T_NUM && v->t != T_STR) return fail(p, "expected a task id, got %s", type_name(v->t));
  if (sl_normalize_id(v->s, v->len, out) != 0)
    return fail(p, "expected a task id, got %.*s", (int)(v->len > 40 ? 40 : v->len), v->s);
  if (sgn) *sgn = (int64_t)*out;
  *present = 1;
  return 1;
}

static int want_str(parser *p, const scalar *v, sl_str *out, int allow_null) {
  if (v->t == T_NULL && allow_null) {
    *out = SL_STR_NONE;
    return 1;
  }
  if (v->t != T_STR) return fail(p, "expected a string, got %s", type_name(v->t));
  *out = sl_intern_add(&p->c->strings, v->s, v->len);
  return 1;
}

/* A numeric field of a record the reader has no meaning for: kept for the trace args. */
static int add_extra(parser *p, sl_extra_span *sp, const char *key, size_t klen, const scalar *v) {
  int64_t val = 0;
  if (!want_i64(p, v, &val)) return 0;
  sl_extra_add(p->c, sp, key, klen, val);
  return 1;
}

static int key_is(const frame *f, const char *k) {
  return f->keylen == strlen(k) && strcmp(f->key, k) == 0;
}

static int field_of(const frame *f, enum sl_read_kind kind);
/* shared_at_start / shared_at_end: the depth arrays of a phase record or its metrics */
static int is_shared_key(const frame *f) {
  int fi = field_of(f, SL_READ_SCHED_PHASE_RECORD);
  return fi == SL_RF_SCHED_PHASE_RECORD_SHARED_DEPTH_AT_START_AIC || fi == SL_RF_SCHED_PHASE_RECORD_SHARED_DEPTH_AT_END_AIC;
}

/* The generated read table's field for the frame's key in a record of `kind`, or -1. */
static int field_of(const frame *f, enum sl_read_kind kind) {
  return sl_read_field_by_key(&sl_read_records[kind], f->key, f->keylen);
}

/* A key with no meaning for this reader in a record of `kind` (a field of the table the
** reader does not interpret, or one newer than this build): a number becomes an extra. */
static int maybe_extra(parser *p, const frame *f, enum sl_read_kind kind, int fi, sl_extra_span *sp,
                       const scalar *v) {
  if (v->t != T_NUM || !sl_read_is_extra(kind, fi)) return 1;
  const char *key = fi >= 0 ? sl_read_records[kind].fields[fi].name : f->key;
  return add_extra(p, sp, key, strlen(key), v);
}

/* A lifecycle record's span field (SL_LC_FIELD, sl_capture.h), or -1. */
static int lc_field(const frame *f) {
  int fi = field_of(f, SL_READ_AICPU_LIFECYCLE_RECORD);
  int i = fi - SL_LC_FIRST_RF;
  return fi >= 0 && i >= 0 && i < SL_LC_FIELD_COUNT ? i : -1;
}

/* ---- host sections (host_build_graph) ------------------------------------------------ */

static int is_str(const scalar *v, const char *s) { return v->t == T_STR && v->len == strlen(s) && !memcmp(v->s, s, v->len); }

/* An anchor sample's integer field: a value that does not parse makes the sample
** invalid (the reference skips it), it is not a read error. */
static void sample_int(parser *p, const scalar *v, int64_t *out, uint32_t bit) {
  int neg;
  uint64_t mag;
  if (v->t == T_NUM && sl_parse_int(v->s, v->len, &neg, &mag) == 0 && mag <= INT64_MAX) {
    *out = neg ? -(int64_t)mag : (int64_t)mag;
    p->smp_bits |= bit;
  }
}

static int host_scalar(parser *p, const frame *f, const scalar *v) {
  sl_raw *raw = p->raw;
  sl_host_capture *hc = &p->c->host_capture;
  int present;
  switch (f->ctx) {
  case C_HOST_REC:
    if (key_is(f, "submit_idx")) {
      p->orch.flags |= SL_ORCH_HAS_SUBMIT_IDX;
      return v->t == T_NULL ? 1 : want_i64(p, v, &p->orch.submit_idx);
    }
    if (key_is(f, "task_id")) {
      if (!want_id(p, v, &p->orch.task_id, &p->orch.task_id_signed, &present)) return 0;
      if (present) p->orch.flags |= SL_ORCH_HAS_TASK_ID;
      return 1;
    }
    if (key_is(f, "start_host_ns")) return v->t == T_NULL ? 1 : want_u64(p, v, &p->orch_start);
    if (key_is(f, "end_host_ns")) return v->t == T_NULL ? 1 : want_u64(p, v, &p->orch_end);
    return 1;
  case C_UPLOAD:
    if (key_is(f, "phase")) return v->t == T_NULL ? 1 : want_str(p, v, &p->up.phase, 0);
    if (key_is(f, "start_host_ns")) return v->t == T_NULL ? 1 : want_u64(p, v, &p->orch_start);
    if (key_is(f, "end_host_ns")) return v->t == T_NULL ? 1 : want_u64(p, v, &p->orch_end);
    if (key_is(f, "detail")) return v->t != T_NUM ? 1 : want_u64(p, v, &p->up.bytes);
    return 1;
  case C_HOST_CAPTURE:
    if (key_is(f, "status")) {
      hc->seen |= SL_HC_STATUS;
      return v->t != T_STR ? 1 : want_str(p, v, &hc->status, 0);
    }
    if (key_is(f, "error")) {
      hc->seen |= SL_HC_ERROR;
      return v->t != T_STR ? 1 : want_str(p, v, &hc->error, 0);
    }
#define HC_INT(k, bit, has, val)                        \
    if (key_is(f, k)) {                                 \
      hc->seen |= bit;                                  \
      if (v->t == T_NULL) return 1;                     \
      hc->has = 1;                                      \
      return want_i64(p, v, &hc->val);                  \
    }
    HC_INT("expected_records", SL_HC_EXPECTED, has_expected, expected)
    HC_INT("recorded_records", SL_HC_RECORDED, has_recorded, recorded)
    HC_INT("pool_records", SL_HC_POOL, has_pool, pool)
    HC_INT("dropped_records", SL_HC_DROPPED, has_dropped, dropped)
#undef HC_INT
    return 1;
  case C_ANCHORS:
    if (key_is(f, "device_timestamp_unit")) raw->dev_unit_bad = !is_str(v, "syscnt_cycles");
    if (key_is(f, "raw_device_timestamp_unit"))
      raw->raw_unit = is_str(v, "syscnt_cycles") ? 0 : is_str(v, "device_uptime_us") ? 1 : -1;
    return 1;
  default: /* C_SAMPLE */
    if (key_is(f, "position"))
      p->smp.position = is_str(v, "pre_host_orchestration") ? SL_ANCHOR_PRE
                        : is_str(v, "post_device_execution") ? SL_ANCHOR_POST : SL_ANCHOR_OTHER;
    if (key_is(f, "sample_idx")) sample_int(p, v, &p->smp.idx, 1);
    if (key_is(f, "host_before_ns")) sample_int(p, v, &p->smp.before_ns, 2);
    if (key_is(f, "device_cycles")) sample_int(p, v, &p->smp.cycles, 4);
    if (key_is(f, "host_after_ns")) sample_int(p, v, &p->smp.after_ns, 8);
    if (key_is(f, "error") && !(v->t == T_NULL || is_str(v, "") || is_str(v, "0") ||
                                (v->t == T_NUM && v->len == 1 && v->s[0] == '0')))
      p->smp_bits |= 16; /* an error reported by the sampler */
    return 1;
  }
}

/* ---- scalars -------------------------------------------------------------------- */

/* Top-level scalars: the level; a section written as null is an absent one. */
static int sc_root(parser *p, const frame *f, const scalar *v) {
  sl_raw *raw = p->raw;
  if (key_is(f, "chip_swimlane_level")) {
    raw->has_level = 1;
    char lv[64];
    if (v->t != T_NUM)
      return fail(p, "unsupported chip_swimlane_level: %s (expected %s)", type_name(v->t), sl_levels_accepted(lv, sizeof lv));
    return want_i64(p, v, &raw->level);
  }
  if (key_is(f, "aicore_tasks") || key_is(f, "aicpu_tasks") || key_is(f, "scheduler_tasks") ||
      key_is(f, "aicpu_scheduler_phases") || key_is(f, "scheduler_records") ||
      key_is(f, "aicpu_orchestrator_phases") || key_is(f, "aicpu_lifecycle_records") ||
      key_is(f, "metadata")) {
    if (v->t == T_NULL) return 1; /* a section written as null is an absent section */
    return fail(p, "expected %s, got %s", key_is(f, "metadata") || key_is(f, "scheduler_tasks") ||
                key_is(f, "scheduler_records") ? "an object" : "an array", type_name(v->t));
  }
  return 1;
}

/* metadata.* scalars. */
static int sc_meta(parser *p, const frame *f, const scalar *v) {
  sl_raw *raw = p->raw;
  sl_capture *c = p->c;
  if (key_is(f, "clock_freq_hz")) {
    if (v->t == T_NULL) return 1;
    raw->has_clock = 1;
    return want_i64(p, v, &raw->clock);
  }
  if (key_is(f, "num_cores")) return v->t == T_NULL ? 1 : want_i64(p, v, &c->num_cores);
  /* identity only: a non-string value is ignored, not an error */
  if (key_is(f, "platform")) return v->t != T_STR || want_str(p, v, &c->platform, 0);
  if (key_is(f, "schema_fingerprint")) {
    if (!want_str(p, v, &raw->fingerprint, 1)) return 0;
    c->schema_fingerprint = raw->fingerprint;
    return 1;
  }
  if (key_is(f, "schema_layout")) {
    if (!want_str(p, v, &raw->layout, 1)) return 0;
    c->schema_layout = raw->layout;
    return 1;
  }
  if (key_is(f, "orchestrator_source")) {
    if (v->t == T_STR && v->len == 4 && memcmp(v->s, "host", 4) == 0) raw->host_mode = 1;
    return 1;
  }
  if (key_is(f, "timeline_relation")) return v->t != T_STR || want_str(p, v, &c->timeline_relation, 0);
  if (key_is(f, "host_orchestration_origin_ns")) {
    if (v->t == T_NULL) return 1;
    raw->has_origin = 1;
    return want_i64(p, v, &raw->origin);
  }
  if (key_is(f, "host_timestamp_quantization_ns")) {
    if (v->t == T_NULL) return 1;
    raw->has_quant = 1;
    return want_i64(p, v, &raw->quant);
  }
  if (key_is(f, "core_types") || key_is(f, "core_to_thread")) {
    if (v->t == T_NULL) return 1;
    return fail(p, "expected an array, got %s", type_name(v->t));
  }
  return 1;
}

/* A scheduler phase record's fields, routed by the generated read table. */
static int sc_phase(parser *p, const frame *f, const scalar *v) {
  sl_capture *c = p->c;
  sl_phase_in *in = &p->ph;
  sl_phase_rec *r = &in->r;
  int fi = field_of(f, SL_READ_SCHED_PHASE_RECORD);
  if (v->t == T_NULL && fi != SL_RF_SCHED_PHASE_RECORD_LOCAL_ID) return 1;
  switch (fi) {
  case SL_RF_SCHED_PHASE_RECORD_KIND:
    if (v->t != T_STR) return fail(p, "expected a phase name, got %s", type_name(v->t));
    sl_phase_classify(c, r, v->s, v->len);
    return 1;
  case SL_RF_SCHED_PHASE_RECORD_START_TIME: return want_u64(p, v, &p->ph_start);
  case SL_RF_SCHED_PHASE_RECORD_END_TIME: return want_u64(p, v, &p->ph_end);
  case SL_RF_SCHED_PHASE_RECORD_LOOP_ITER:
    r->flags |= SL_PH_HAS_LOOP_ITER;
    return want_i64(p, v, &in->v[SL_PV_LOOP_ITER]);
  case SL_RF_SCHED_PHASE_RECORD_TASKS_PROCESSED:
    r->flags |= SL_PH_HAS_TASKS_PROCESSED;
    return want_i64(p, v, &in->v[SL_PV_TASKS_PROCESSED]);
  case SL_RF_SCHED_PHASE_RECORD_POP_HIT:
  case SL_RF_SCHED_PHASE_RECORD_POP_MISS:
    r->flags |= SL_PH_HAS_POP;
    return want_i64(p, v, &in->v[fi == SL_RF_SCHED_PHASE_RECORD_POP_HIT ? SL_PV_POP_HIT : SL_PV_POP_MISS]);
  case SL_RF_SCHED_PHASE_RECORD_LOCAL_ID: { /* the composite task_id (ring << 32 | local) */
    int present;
    if (!want_id(p, v, &r->task_id, NULL, &present)) return 0;
    if (present) r->flags |= SL_PH_HAS_TASK_ID;
    return 1;
  }
  case SL_RF_SCHED_PHASE_RECORD_SHARED_DEPTH_AT_START_AIC:
  case SL_RF_SCHED_PHASE_RECORD_SHARED_DEPTH_AT_END_AIC:
    return 1; /* a scalar shared_at_*: "not a list", the depths are simply not valid */
  default:
    return maybe_extra(p, f, SL_READ_SCHED_PHASE_RECORD, fi, &in->extra, v);
  }
}

/* A field of a phase's metrics object (the seed format's second object per record),
** routed by the generated read table like the record's own keys: the ones the reader knows
** merge into the record, every other integer is an extra of it. */
static int sc_metric(parser *p, const frame *f, const scalar *v) {
  if (key_is(f, "record_index")) { /* the metrics writer's context column: the join key */
    p->mt.has_index = 1;
    return want_u64(p, v, &p->mt.record_index);
  }
  if (v->t == T_NULL) return 1;
  int fi = field_of(f, SL_READ_SCHED_PHASE_RECORD);
  if (fi == SL_RF_SCHED_PHASE_RECORD_POP_HIT || fi == SL_RF_SCHED_PHASE_RECORD_POP_MISS) {
    p->mt.has_pop = 1;
    return want_i64(p, v, fi == SL_RF_SCHED_PHASE_RECORD_POP_HIT ? &p->mt.pop_hit : &p->mt.pop_miss);
  }
  return maybe_extra(p, f, SL_READ_SCHED_PHASE_RECORD, fi, &p->mt.extra, v);
}

/* A scheduler stream's identity fields. */
static int sc_stream(parser *p, const frame *f, const scalar *v) {
  sl_sched_stream *s = &p->cur.s;
  if (key_is(f, "platform")) return want_str(p, v, &s->platform, 1);
  if (key_is(f, "runtime")) return want_str(p, v, &s->runtime, 1);
  if (key_is(f, "producer")) return want_str(p, v, &s->producer, 1);
  if (key_is(f, "core_type")) return want_str(p, v, &s->core_type, 1);
  if (key_is(f, "scheduler_id")) {
    if (!want_i64(p, v, &s->scheduler_id)) return 0;
    p->cur.idx = s->scheduler_id;
    if (s->scheduler_id < 0 || s->scheduler_id > 65535)
      return fail(p, "scheduler_id %lld out of range", (long long)s->scheduler_id);
    return 1;
  }
  if (key_is(f, "worker_id")) return v->t == T_NULL ? 1 : want_i64(p, v, &s->worker_id);
  if (key_is(f, "physical_core_id")) {
    if (v->t == T_NULL) return 1;
    int present;
    uint64_t u;
    if (!want_id(p, v, &u, &s->physical_core_id, &present)) return 0;
    return 1;
  }
  if (key_is(f, "records") || key_is(f, "metrics")) {
    if (v->t == T_NULL) return 1;
    return fail(p, "expected an array, got %s", type_name(v->t));
  }
  return 1;
}

/* An orchestrator record's fields, routed by the generated read table. */
static int sc_orch(parser *p, const frame *f, const scalar *v) {
  sl_orch_rec *r = &p->orch;
  int fi = field_of(f, SL_READ_ORCH_PHASE_RECORD);
  if (fi == SL_RF_ORCH_PHASE_RECORD_KIND || key_is(f, "kind")) {
    /* legacy per-sub-step records name themselves orch_* (key "kind"); anything else stays
    ** the default kind */
    if (v->t == T_STR && v->len > 5 && memcmp(v->s, "orch_", 5) == 0) return want_str(p, v, &r->phase, 0);
    return 1;
  }
  if (v->t == T_NULL && fi != SL_RF_ORCH_PHASE_RECORD_TASK_ID) return 1;
  switch (fi) {
  case SL_RF_ORCH_PHASE_RECORD_SUBMIT_IDX:
    r->flags |= SL_ORCH_HAS_SUBMIT_IDX;
    return want_i64(p, v, &r->submit_idx);
  case SL_RF_ORCH_PHASE_RECORD_TASK_ID: {
    int present;
    if (!want_id(p, v, &r->task_id, &r->task_id_signed, &present)) return 0;
    if (present) r->flags |= SL_ORCH_HAS_TASK_ID;
    return 1;
  }
  case SL_RF_ORCH_PHASE_RECORD_START_TIME: return want_u64(p, v, &p->orch_start);
  case SL_RF_ORCH_PHASE_RECORD_END_TIME: return want_u64(p, v, &p->orch_end);
  default:
    return maybe_extra(p, f, SL_READ_ORCH_PHASE_RECORD, fi, &r->extra, v);
  }
}

/* A lifecycle record's fields. */
static int sc_lifecycle(parser *p, const frame *f, const scalar *v) {
  int fi = field_of(f, SL_READ_AICPU_LIFECYCLE_RECORD);
  if (fi == SL_RF_AICPU_LIFECYCLE_RECORD_AICPU_THREAD_ID) return want_i64(p, v, &p->lc.aicpu_thread_id);
  int i = lc_field(f);
  if (i < 0) return maybe_extra(p, f, SL_READ_AICPU_LIFECYCLE_RECORD, fi, &p->lc.extra, v);
  if (v->t == T_NULL) return 1;
  p->lc.present |= 1u << i;
  return want_u64(p, v, &p->lc_cyc[i]);
}

/* The capture names a schema fingerprint other than this build's (metadata comes first). */
static int foreign_schema(const parser *p) {
  const char *fp = sl_str_get(p->c, p->raw->fingerprint);
  return fp && *fp && strcmp(fp, SL_SCHEMA_FINGERPRINT) != 0;
}

/* "5 or 6" / "5 to 7": the column counts a row of `kind` may have. */
static const char *cols_expected(char *buf, size_t cap, enum sl_read_kind kind) {
  unsigned min = kind == SL_READ_AICORE_TASK_RECORD ? ROW_MIN_AICORE : ROW_MIN_STASK;
  unsigned max = sl_read_records[kind].n_columns;
  snprintf(buf, cap, "%u%s%u", min, max == min + 1 ? " or " : " to ", max);
  return buf;
}

/* One column of an AICore or scheduler-task row: its field by position in the generated
** table (context columns such as core_id count); columns past the schema's are refused. */
static int sc_row(parser *p, const frame *f, const scalar *v) {
  enum sl_read_kind kind = f->ctx == C_AICORE_ROW ? SL_READ_AICORE_TASK_RECORD : SL_READ_AICPU_TASK_RECORD;
  const sl_read_record *rr = &sl_read_records[kind];
  char exp[32];
  if (f->idx >= rr->n_columns) {
    /* a capture of another schema (a newer writer's column): carried under the name the
    ** capture's own layout gives it (as a .pb field number is), else by position */
    if (!foreign_schema(p)) return fail(p, "too many columns (expected %s)", cols_expected(exp, sizeof exp, kind));
    char nm[64];
    size_t n = sl_layout_column_name(sl_str_get(p->c, p->raw->layout), rr->proto, f->idx, nm, sizeof nm);
    if (!n) n = (size_t)snprintf(nm, sizeof nm, "column_%zu", f->idx);
    return add_extra(p, &p->row_extra, nm, n, v);
  }
  if (!want_u64(p, v, &p->row[f->idx])) return 0;
  int fi = sl_read_field_by_column(rr, (unsigned)f->idx);
  if (fi < 0 || !sl_read_is_extra(kind, fi)) return 1;
  const char *key = rr->fields[fi].name;
  sl_extra_add(p->c, &p->row_extra, key, strlen(key), (int64_t)p->row[f->idx]);
  return 1;
}

static int on_scalar(parser *p, const scalar *v) {
  frame *f = &p->st[p->depth];
  sl_raw *raw = p->raw;
  sl_capture *c = p->c;
  switch (f->ctx) {
  case C_ROOT:
    return sc_root(p, f, v);
  case C_META:
    return sc_meta(p, f, v);
  case C_CORE_TYPES: {
    sl_str s = SL_STR_NONE;
    if (!want_str(p, v, &s, 0)) return 0;
    *sl_array_push(c->core_types, c->n_core_types, raw->cap_ct) = s;
    return 1;
  }
  case C_C2T: {
    int64_t t;
    if (!want_i64(p, v, &t)) return 0;
    *sl_array_push(c->core_to_thread, c->n_core_to_thread, raw->cap_c2t) = t;
    return 1;
  }
  case C_AICORE_ROW:
  case C_STASK_ROW:
    return sc_row(p, f, v);
  case C_SCHED_TASKS:
    if (key_is(f, "producer")) return want_str(p, v, &c->task_producer, 1);
    if (key_is(f, "records")) {
      if (v->t == T_NULL) return 1;
      return fail(p, "expected an array, got %s", type_name(v->t));
    }
    return 1;
  case C_PHASE:
    return sc_phase(p, f, v);
  case C_METRIC:
    return sc_metric(p, f, v);
  case C_SHARED:
    if (f->idx < 3 && !want_i64(p, v, &p->sh[f->idx])) return 0;
    p->sh_n = f->idx + 1;
    return 1;
  case C_STREAM:
    return sc_stream(p, f, v);
  case C_CAPTURE: {
    sl_sched_stream *s = &p->cur.s;
    if (key_is(f, "committed")) return want_u64(p, v, &s->committed);
    if (key_is(f, "dropped")) return want_u64(p, v, &s->dropped);
    if (key_is(f, "truncated")) {
      if (v->t != T_BOOL) return fail(p, "expected a boolean, got %s", type_name(v->t));
      s->truncated = v->b;
    }
    return 1;
  }
  case C_ORCH_REC:
    return sc_orch(p, f, v);
  case C_LC:
    return sc_lifecycle(p, f, v);
  case C_STASKS:
  case C_AICORE:
    return fail(p, "expected a row (array), got %s", type_name(v->t));
  case C_OLD_PHASES:
  case C_ORCH:
    return fail(p, "expected a per-thread array, got %s", type_name(v->t));
  case C_OLD_THREAD:
  case C_STREAM_RECS:
  case C_ORCH_THREAD:
  case C_METRICS:
  case C_LIFECYCLE:
  case C_STREAMS:
    return fail(p, "expected an object, got %s", type_name(v->t));
  case C_SCHED_RECORDS:
    if (key_is(f, "streams") && v->t != T_NULL) return fail(p, "expected an array, got %s", type_name(v->t));
    return 1;
  case C_HOST_ORCH:
  case C_HOST_THREAD:
  case C_UPLOADS:
    return fail(p, "expected %s, got %s", f->ctx == C_HOST_ORCH ? "a per-thread array" : "an object",
                type_name(v->t));
  case C_HOST_REC:
  case C_UPLOAD:
  case C_HOST_CAPTURE:
  case C_ANCHORS:
  case C_SAMPLE:
    return host_scalar(p, f, v);
  default:
    return 1;
  }
}

/* ---- containers ----------------------------------------------------------------- */

/* child_ctx's checks: the container's kind (WANT) and a section given twice (ONCE). */
#define WANT(cond, what) \
  do { if (!(cond)) { fail(p, "expected %s, got %s", what, is_map ? "an object" : "an array"); return -1; } } while (0)
#define ONCE(mask, bit) \
  do { if ((mask) & (1u << (bit))) { fail(p, "duplicate key"); return -1; } (mask) |= 1u << (bit); } while (0)

/* A top-level section: which, and that it comes once and in the right shape. */
static int child_root(parser *p, const frame *f, int is_map) {
  sl_raw *raw = p->raw;
  if (key_is(f, "metadata")) { WANT(is_map, "an object"); ONCE(p->seen_root, 0); return C_META; }
  if (key_is(f, "aicore_tasks")) { WANT(!is_map, "an array"); ONCE(p->seen_root, 1); return C_AICORE; }
  if (key_is(f, "aicpu_tasks")) {
    WANT(!is_map, "an array");
    ONCE(p->seen_root, 2);
    if (p->seen_new_tasks) { fail(p, "both aicpu_tasks and scheduler_tasks are present"); return -1; }
    p->seen_old_tasks = 1;
    raw->sched_tasks_key = "aicpu_tasks";
    return C_STASKS;
  }
  if (key_is(f, "scheduler_tasks")) {
    WANT(is_map, "an object");
    ONCE(p->seen_root, 3);
    if (p->seen_old_tasks) { fail(p, "both aicpu_tasks and scheduler_tasks are present"); return -1; }
    p->seen_new_tasks = 1;
    raw->sched_tasks_key = "scheduler_tasks.records";
    return C_SCHED_TASKS;
  }
  if (key_is(f, "aicpu_scheduler_phases")) {
    WANT(!is_map, "an array");
    ONCE(p->seen_root, 4);
    if (p->seen_new_phases) { fail(p, "both aicpu_scheduler_phases and scheduler_records are present"); return -1; }
    p->seen_old_phases = 1;
    p->c->has_sched_phases = 1;
    return C_OLD_PHASES;
  }
  if (key_is(f, "scheduler_records")) {
    WANT(is_map, "an object");
    ONCE(p->seen_root, 5);
    if (p->seen_old_phases) { fail(p, "both aicpu_scheduler_phases and scheduler_records are present"); return -1; }
    p->seen_new_phases = 1;
    p->c->has_sched_phases = 1;
    return C_SCHED_RECORDS;
  }
  if (key_is(f, "aicpu_orchestrator_phases")) { WANT(!is_map, "an array"); ONCE(p->seen_root, 6); return C_ORCH; }
  if (key_is(f, "aicpu_lifecycle_records")) { WANT(!is_map, "an array"); ONCE(p->seen_root, 7); return C_LIFECYCLE; }
  if (key_is(f, "host_orchestrator_phases")) {
    WANT(!is_map, "an array");
    ONCE(p->seen_root, 8);
    raw->host_mode = 1;
    return C_HOST_ORCH;
  }
  if (key_is(f, "host_device_uploads")) { WANT(!is_map, "an array"); ONCE(p->seen_root, 9); return C_UPLOADS; }
  if (key_is(f, "chip_swimlane_level")) {
    char lv[64];
    fail(p, "unsupported chip_swimlane_level: %s (expected %s)", is_map ? "an object" : "an array",
         sl_levels_accepted(lv, sizeof lv));
    return -1;
  }
  return C_SKIP;
}

/* An object or array inside metadata. */
static int child_meta(parser *p, const frame *f, int is_map) {
  sl_raw *raw = p->raw;
  if (key_is(f, "core_types")) { WANT(!is_map, "an array"); ONCE(p->seen_meta, 0); raw->has_core_types = 1; return C_CORE_TYPES; }
  if (key_is(f, "core_to_thread")) { WANT(!is_map, "an array"); ONCE(p->seen_meta, 1); return C_C2T; }
  if (key_is(f, "host_capture")) {
    if (!is_map) return C_SKIP;
    ONCE(p->seen_meta, 2);
    raw->host_mode = 1;
    p->c->host_capture.present = 1;
    return C_HOST_CAPTURE;
  }
  if (key_is(f, "clock_anchors")) {
    if (!is_map) return C_SKIP; /* not an object: missing_clock_anchors */
    ONCE(p->seen_meta, 3);
    raw->has_anchors = 1;
    return C_ANCHORS;
  }
  if (key_is(f, "clock_freq_hz") || key_is(f, "num_cores")) WANT(0, "an integer");
  return C_SKIP;
}

/* A per-thread list of phases (old format) or of orchestrator records (AICPU or host:
** the same per-thread record lists): its stream or thread entry. */
static int child_thread(parser *p, const frame *f, int is_map) {
  sl_raw *raw = p->raw;
  WANT(!is_map, "a per-thread array");
  if (f->ctx == C_OLD_PHASES) {
    pending_stream *ps = sl_array_push(p->pend, p->n_pend, p->cap_pend);
    memset(ps, 0, sizeof *ps);
    ps->idx = (int64_t)f->idx;
    ps->s.first = p->c->n_phases;
    ps->s.physical_core_id = -1;
    return C_OLD_THREAD;
  }
  int host = f->ctx == C_HOST_ORCH;
  sl_orch_thread *t = host ? sl_array_push(raw->host_threads, raw->n_host_threads, raw->cap_host_threads)
                           : sl_array_push(p->c->orch_threads, p->c->n_orch_threads, raw->cap_orch_threads);
  t->first = host ? raw->n_host : p->c->n_orch;
  t->count = 0;
  return host ? C_HOST_THREAD : C_ORCH_THREAD;
}

/* A record of an orchestrator thread, the lifecycle list or the host sections: reset its
** accumulator. */
static int child_record(parser *p, frame *f, int is_map) {
  sl_raw *raw = p->raw;
  switch (f->ctx) {
  case C_ORCH_THREAD:
  case C_HOST_THREAD:
    WANT(is_map, "an object");
    memset(&p->orch, 0, sizeof p->orch);
    p->orch_start = p->orch_end = 0;
    return f->ctx == C_HOST_THREAD ? C_HOST_REC : C_ORCH_REC;
  case C_LIFECYCLE:
    WANT(is_map, "an object");
    memset(&p->lc, 0, sizeof p->lc);
    memset(p->lc_cyc, 0, sizeof p->lc_cyc);
    return C_LC;
  case C_UPLOADS:
    WANT(is_map, "an object");
    memset(&p->up, 0, sizeof p->up);
    p->up.phase = SL_STR_NONE;
    p->orch_start = p->orch_end = 0;
    return C_UPLOAD;
  case C_ANCHORS:
    if (key_is(f, "samples") && !is_map) { raw->has_samples_list = 1; return C_SAMPLES; }
    return C_SKIP;
  case C_SAMPLES:
    if (!is_map) return C_SKIP; /* not a sample object: ignored */
    memset(&p->smp, 0, sizeof p->smp);
    p->smp.position = SL_ANCHOR_OTHER;
    p->smp_bits = 0;
    return C_SAMPLE;
  default:
    return C_SKIP;
  }
}

/* A container where a record's scalar belongs: a shape error for the fields the reader
** reads, skipped for the others. */
static int child_in_scalar(parser *p, frame *f, int is_map) {
  switch (f->ctx) {
  case C_AICORE_ROW:
  case C_STASK_ROW:
  case C_C2T:
    fail(p, "expected an integer, got %s", is_map ? "an object" : "an array");
    return -1;
  case C_CORE_TYPES:
    fail(p, "expected a string, got %s", is_map ? "an object" : "an array");
    return -1;
  case C_SHARED:
    fail(p, "expected an integer, got %s", is_map ? "an object" : "an array");
    return -1;
  case C_CAPTURE:
    if (key_is(f, "committed") || key_is(f, "dropped")) WANT(0, "an integer");
    if (key_is(f, "truncated")) WANT(0, "a boolean");
    return C_SKIP;
  case C_ORCH_REC: {
    int fi = field_of(f, SL_READ_ORCH_PHASE_RECORD);
    if (fi >= 0 && !sl_read_records[SL_READ_ORCH_PHASE_RECORD].fields[fi].named) WANT(0, "an integer");
    return C_SKIP;
  }
  case C_LC:
    if (field_of(f, SL_READ_AICPU_LIFECYCLE_RECORD) >= 0) WANT(0, "an integer");
    return C_SKIP;
  default:
    return C_SKIP;
  }
}

/* Which context a new container at the current position opens; C_SKIP for unknown
** places, -1 after reporting a shape error. */
static int child_ctx(parser *p, int is_map) {
  frame *f = &p->st[p->depth];
  switch (f->ctx) {
  case C_ROOT:
    return child_root(p, f, is_map);
  case C_META:
    return child_meta(p, f, is_map);
  case C_OLD_PHASES:
  case C_ORCH:
  case C_HOST_ORCH:
    return child_thread(p, f, is_map);
  case C_AICORE:
  case C_STASKS:
    WANT(!is_map, "a row (array)");
    /* the columns a row may have (sc_row refuses more) */
    memset(p->row, 0, sizeof *p->row *
                          sl_read_records[f->ctx == C_AICORE ? SL_READ_AICORE_TASK_RECORD : SL_READ_AICPU_TASK_RECORD].n_columns);
    p->row_extra = (sl_extra_span){0, 0};
    return f->ctx == C_AICORE ? C_AICORE_ROW : C_STASK_ROW;
  case C_SCHED_TASKS:
    if (key_is(f, "records")) { WANT(!is_map, "an array"); return C_STASKS; }
    return C_SKIP;
  case C_OLD_THREAD:
  case C_STREAM_RECS:
    WANT(is_map, "an object");
    memset(&p->ph, 0, sizeof p->ph);
    p->ph.r.phase_id = SL_PHASE_ID_UNKNOWN;
    p->ph_start = p->ph_end = 0;
    p->sh_bits = 0;
    p->metric_mode = 0;
    return C_PHASE;
  case C_PHASE:
  case C_METRIC:
    if (is_shared_key(f)) {
      if (is_map) return C_SKIP; /* not a list: the depths are simply not valid */
      p->sh_n = 0;
      return C_SHARED;
    }
    return C_SKIP;
  case C_SCHED_RECORDS:
    if (key_is(f, "streams")) { WANT(!is_map, "an array"); return C_STREAMS; }
    return C_SKIP;
  case C_STREAMS:
    WANT(is_map, "an object");
    memset(&p->cur, 0, sizeof p->cur);
    p->cur.idx = (int64_t)f->idx;
    p->cur.s.has_meta = 1;
    p->cur.s.physical_core_id = -1;
    p->cur.s.first = p->c->n_phases;
    p->n_metrics = 0;
    return C_STREAM;
  case C_STREAM:
    if (key_is(f, "capture")) { WANT(is_map, "an object"); p->cur.s.has_capture = 1; return C_CAPTURE; }
    if (key_is(f, "records")) {
      WANT(!is_map, "an array");
      if (p->c->n_phases != p->cur.s.first) { fail(p, "duplicate key"); return -1; }
      return C_STREAM_RECS;
    }
    if (key_is(f, "metrics")) { WANT(!is_map, "an array"); return C_METRICS; }
    return C_SKIP;
  case C_METRICS:
    WANT(is_map, "an object");
    memset(&p->mt, 0, sizeof p->mt);
    p->mt.pos = f->idx;
    p->metric_mode = 1;
    return C_METRIC;
  case C_ORCH_THREAD:
  case C_HOST_THREAD:
  case C_LIFECYCLE:
  case C_UPLOADS:
  case C_ANCHORS:
  case C_SAMPLES:
    return child_record(p, f, is_map);
  default:
    return child_in_scalar(p, f, is_map);
  }
#undef WANT
#undef ONCE
}

static int push_frame(parser *p, int is_map) {
  int ctx = child_ctx(p, is_map);
  if (ctx < 0) return 0;
  if (p->depth + 1 >= MAX_DEPTH) return fail(p, "nesting deeper than %d levels", MAX_DEPTH);
  frame *f = &p->st[++p->depth];
  f->ctx = (uint8_t)ctx;
  f->is_map = (uint8_t)is_map;
  f->idx = 0;
  f->keylen = 0;
  f->key[0] = 0;
  return 1;
}

/* After a value at the top frame: move an array to its next index. */
static void advance(parser *p) {
  frame *f = &p->st[p->depth];
  if (!f->is_map) f->idx++;
}

static int finish_stream(parser *p) {
  sl_capture *c = p->c;
  pending_stream *cur = &p->cur;
  cur->s.count = c->n_phases - cur->s.first;
  for (size_t i = 0; i < p->n_metrics; i++) {
    metric *m = &p->metrics[i];
    if (!m->has_index) return fail(p, "metrics[%zu]: missing record_index", m->pos);
    if (m->record_index >= cur->s.count)
      return fail(p, "metrics[%zu].record_index: %llu out of range (the stream has %zu records)", m->pos,
                  (unsigned long long)m->record_index, cur->s.count);
    sl_phase_rec *r = &c->phases[cur->s.first + m->record_index];
    if (m->has_pop) {
      sl_phase_set(c, r, SL_PV_POP_HIT, m->pop_hit);
      sl_phase_set(c, r, SL_PV_POP_MISS, m->pop_miss);
      r->flags |= SL_PH_HAS_POP;
    }
    if (m->shared_bits == 3) {
      for (int k = 0; k < 3; k++) {
        sl_phase_set(c, r, SL_PV_SHARED_AT_START + k, m->s_start[k]);
        sl_phase_set(c, r, SL_PV_SHARED_AT_END + k, m->s_end[k]);
      }
      r->flags |= SL_PH_HAS_SHARED;
    }
    if (m->extra.n) sl_phase_set_extra(r, sl_extra_join(c, sl_phase_extra(r), m->extra));
  }
  for (size_t i = 0; i < p->n_pend; i++)
    if (p->pend[i].idx == cur->idx) return fail(p, "duplicate scheduler_id %lld", (long long)cur->idx);
  *sl_array_push(p->pend, p->n_pend, p->cap_pend) = *cur;
  return 1;
}

static int end_container_body(parser *p);
static int end_container(parser *p) {
  p->at_container = 1;
  int r = end_container_body(p);
  p->at_container = 0;
  return r;
}

/* The JSON column of field F of a row record K (generated read table). */
#define COL(K, F) sl_read_records[SL_READ_##K].fields[SL_RF_##K##_##F].column

/* The end of an AICore or scheduler-task row: the row into the raw rows. */
static int end_row(parser *p, const frame *f) {
  sl_raw *raw = p->raw;
  switch (f->ctx) {
  case C_AICORE_ROW: {
    char exp[32];
    if (f->idx < ROW_MIN_AICORE)
      return fail(p, "row has %zu columns (expected %s)", f->idx, cols_expected(exp, sizeof exp, SL_READ_AICORE_TASK_RECORD));
    sl_raw_aicore *r = sl_array_push(raw->aicore, raw->n_aicore, raw->cap_aicore);
    r->core = p->row[0]; /* the context column core_id comes first */
    r->token = p->row[COL(AICORE_TASK_RECORD, TASK_TOKEN_RAW)];
    r->reg = p->row[COL(AICORE_TASK_RECORD, REG_TASK_ID)];
    r->start = p->row[COL(AICORE_TASK_RECORD, START_TIME)];
    r->end = p->row[COL(AICORE_TASK_RECORD, END_TIME)];
    r->r2s = p->row[COL(AICORE_TASK_RECORD, RECEIVE_TO_START_CYCLES)]; /* 0 when absent */
    r->ncols = (uint8_t)f->idx;
    r->row = p->st[p->depth - 1].idx;
    r->extra = p->row_extra;
    break;
  }
  case C_STASK_ROW: {
    char exp[32];
    if (f->idx < ROW_MIN_STASK)
      return fail(p, "row has %zu columns (expected %s)", f->idx, cols_expected(exp, sizeof exp, SL_READ_AICPU_TASK_RECORD));
    sl_raw_sched_task *r = sl_array_push(raw->stask, raw->n_stask, raw->cap_stask);
    r->core = p->row[0];
    r->reg = p->row[COL(AICPU_TASK_RECORD, REG_TASK_ID)];
    r->dispatch = p->row[COL(AICPU_TASK_RECORD, DISPATCH_TIME)];
    r->finish = p->row[COL(AICPU_TASK_RECORD, FINISH_TIME)];
    r->member = p->row[COL(AICPU_TASK_RECORD, MEMBER)]; /* 0 when absent */
    r->row = p->st[p->depth - 1].idx;
    r->extra = p->row_extra;
    break;
  }
  default:
    break;
  }
  return 1;
}

/* The end of a host-section record (host_build_graph): into the raw host rows. */
static int end_host(parser *p, const frame *f) {
  sl_raw *raw = p->raw;
  sl_capture *c = p->c;
  switch (f->ctx) {
  case C_HOST_REC: {
    sl_orch_rec *r = sl_array_push(raw->host_orch, raw->n_host, raw->cap_host);
    if (!(p->orch.flags & SL_ORCH_HAS_TASK_ID)) p->orch.task_id_signed = -1;
    *r = p->orch;
    raw->host_ns = sl_array_grow(raw->host_ns, &raw->cap_host_ns, 2 * raw->n_host, sizeof *raw->host_ns);
    raw->host_ns[2 * (raw->n_host - 1)] = p->orch_start;
    raw->host_ns[2 * (raw->n_host - 1) + 1] = p->orch_end;
    break;
  }
  case C_HOST_THREAD:
    raw->host_threads[raw->n_host_threads - 1].count = raw->n_host - raw->host_threads[raw->n_host_threads - 1].first;
    break;
  case C_UPLOAD: {
    *sl_array_push(c->uploads, c->n_uploads, raw->cap_uploads) = p->up;
    raw->upload_ns = sl_array_grow(raw->upload_ns, &raw->cap_upload_ns, 2 * c->n_uploads, sizeof *raw->upload_ns);
    raw->upload_ns[2 * (c->n_uploads - 1)] = p->orch_start;
    raw->upload_ns[2 * (c->n_uploads - 1) + 1] = p->orch_end;
    break;
  }
  case C_SAMPLE: {
    sl_clock_sample *sm = sl_array_push(raw->samples, raw->n_samples, raw->cap_samples);
    *sm = p->smp;
    sm->valid = p->smp_bits == 15 && sm->before_ns > 0 && sm->cycles > 0 && sm->after_ns >= sm->before_ns &&
                sm->idx >= 0;
    break;
  }
  default:
    break;
  }
  return 1;
}

static int end_container_body(parser *p) {
  frame *f = &p->st[p->depth];
  sl_raw *raw = p->raw;
  sl_capture *c = p->c;
  switch (f->ctx) {
  case C_AICORE_ROW:
  case C_STASK_ROW:
    if (!end_row(p, f)) return 0;
    break;
  case C_SHARED: {
    int which = field_of(&p->st[p->depth - 1], SL_READ_SCHED_PHASE_RECORD) ==
                SL_RF_SCHED_PHASE_RECORD_SHARED_DEPTH_AT_START_AIC ? 1 : 2;
    if (p->sh_n == 3) {
      if (p->metric_mode) {
        memcpy(which == 1 ? p->mt.s_start : p->mt.s_end, p->sh, sizeof p->sh);
        p->mt.shared_bits |= which;
      } else {
        memcpy(&p->ph.v[which == 1 ? SL_PV_SHARED_AT_START : SL_PV_SHARED_AT_END], p->sh, sizeof p->sh);
        p->sh_bits |= which;
      }
    }
    break;
  }
  case C_PHASE: {
    if (p->ph.r.phase == SL_STR_NONE) sl_phase_classify(c, &p->ph.r, NULL, 0);
    if (p->sh_bits == 3) p->ph.r.flags |= SL_PH_HAS_SHARED;
    sl_phase_push(c, &raw->cap_phases, &p->ph);
    sl_raw_put_cycles(&c->phases[c->n_phases - 1].start_us, p->ph_start);
    sl_raw_put_cycles(&c->phases[c->n_phases - 1].end_us, p->ph_end);
    break;
  }
  case C_OLD_THREAD:
    p->pend[p->n_pend - 1].s.count = c->n_phases - p->pend[p->n_pend - 1].s.first;
    break;
  case C_METRIC: {
    *sl_array_push(p->metrics, p->n_metrics, p->cap_metrics) = p->mt;
    p->metric_mode = 0;
    break;
  }
  case C_STREAM:
    if (!finish_stream(p)) return 0;
    break;
  case C_ORCH_REC: {
    sl_orch_rec *r = sl_array_push(c->orch, c->n_orch, raw->cap_orch);
    const char *kind = sl_str_get(c, p->orch.phase);
    sl_orch_classify(c, &p->orch, kind, kind ? strlen(kind) : 0);
    if (!(p->orch.flags & SL_ORCH_HAS_TASK_ID)) p->orch.task_id_signed = -1;
    *r = p->orch;
    sl_raw_put_cycles(&r->start_us, p->orch_start);
    sl_raw_put_cycles(&r->end_us, p->orch_end);
    break;
  }
  case C_ORCH_THREAD:
    c->orch_threads[c->n_orch_threads - 1].count = c->n_orch - c->orch_threads[c->n_orch_threads - 1].first;
    break;
  case C_LC: {
    *sl_array_push(c->lifecycle, c->n_lifecycle, raw->cap_lc) = p->lc;
    raw->lc_cycles = sl_array_grow(raw->lc_cycles, &raw->cap_lc_cycles, c->n_lifecycle, sizeof *raw->lc_cycles);
    memcpy(raw->lc_cycles[c->n_lifecycle - 1], p->lc_cyc, sizeof p->lc_cyc);
    break;
  }
  case C_HOST_REC:
  case C_HOST_THREAD:
  case C_UPLOAD:
  case C_SAMPLE:
    if (!end_host(p, f)) return 0;
    break;
  default:
    break;
  }
  p->depth--;
  advance(p);
  return 1;
}

/* ---- yajl callbacks ---------------------------------------------------------------- */

static int cb_null(void *ctx) {
  parser *p = ctx;
  scalar v = {.t = T_NULL, .s = "null", .len = 4};
  if (!on_scalar(p, &v)) return 0;
  advance(p);
  return 1;
}
static int cb_bool(void *ctx, int b) {
  parser *p = ctx;
  scalar v = {T_BOOL, b ? "true" : "false", b ? 4u : 5u, b};
  if (!on_scalar(p, &v)) return 0;
  advance(p);
  return 1;
}
static int cb_number(void *ctx, const char *s, size_t len) {
  parser *p = ctx;
  scalar v = {.t = T_NUM, .s = s, .len = len};
  if (!on_scalar(p, &v)) return 0;
  advance(p);
  return 1;
}
static int cb_string(void *ctx, const unsigned char *s, size_t len) {
  parser *p = ctx;
  scalar v = {T_STR, (const char *)s, len, 0};
  if (!on_scalar(p, &v)) return 0;
  advance(p);
  return 1;
}
static int cb_start_map(void *ctx) {
  parser *p = ctx;
  if (p->depth == 0 && p->st[0].ctx == C_SKIP) { /* the document itself */
    p->st[0].ctx = C_ROOT;
    p->st[0].is_map = 1;
    return 1;
  }
  return push_frame(p, 1);
}
static int cb_map_key(void *ctx, const unsigned char *k, size_t len) {
  parser *p = ctx;
  frame *f = &p->st[p->depth];
  size_t n = len < KEY_MAX - 1 ? len : KEY_MAX - 1;
  memcpy(f->key, k, n);
  f->key[n] = 0;
  f->keylen = memchr(k, 0, len) ? KEY_MAX + len : len; /* a NUL in a key never matches */
  return 1;
}
static int cb_end_map(void *ctx) {
  parser *p = ctx;
  if (p->depth == 0) return 1;
  return end_container(p);
}
static int cb_start_array(void *ctx) {
  parser *p = ctx;
  if (p->depth == 0 && p->st[0].ctx == C_SKIP) return fail(p, "expected a JSON object at the top level, got an array");
  return push_frame(p, 0);
}
static int cb_end_array(void *ctx) { return end_container(ctx); }

static const yajl_callbacks callbacks = {
  cb_null, cb_bool, NULL, NULL, cb_number, cb_string,
  cb_start_map, cb_map_key, cb_end_map, cb_start_array, cb_end_array,
};

/* Scalar at the top level: yajl calls the scalar callbacks with depth 0, ctx SKIP. */
static int top_is_scalar(parser *p) { return p->depth == 0 && p->st[0].ctx == C_SKIP; }

static int report_yajl(parser *p, yajl_handle h, const unsigned char *chunk, size_t len, int at_end) {
  if (p->failed) return -1;
  unsigned char *msg = yajl_get_error(h, 0, chunk, len);
  char path[512];
  path_of(p, path, sizeof path);
  const char *m = (const char *)msg;
  if (at_end && p->depth > 0)
    (void)sl_err_set(p->raw->err, p->raw->name, "%s: truncated JSON (the file ends inside this value)", path);
  else if (at_end && top_is_scalar(p))
    (void)sl_err_set(p->raw->err, p->raw->name, "$: empty or truncated JSON");
  else {
    char text[256];
    snprintf(text, sizeof text, "%s", m ? m : "parse error");
    text[strcspn(text, "\r\n")] = 0;
    (void)sl_err_set(p->raw->err, p->raw->name, "%s: invalid JSON at byte %zu: %s", path, p->offset + yajl_get_bytes_consumed(h), text);
  }
  if (msg) yajl_free_error(h, msg);
  return -1;
}

static void parser_free(parser *p) {
  sl_mem_free(p->metrics);
  sl_mem_free(p->pend);
  sl_mem_free(p);
}

/* Lay the collected streams out by thread index (gaps stay empty streams). */
static void build_streams(parser *p) {
  sl_capture *c = p->c;
  int64_t max = -1;
  for (size_t i = 0; i < p->n_pend; i++)
    if (p->pend[i].idx > max) max = p->pend[i].idx;
  c->n_streams = (size_t)(max + 1);
  if (!c->n_streams) return;
  c->streams = sl_mem_calloc(c->n_streams, sizeof *c->streams);
  for (size_t i = 0; i < c->n_streams; i++) {
    c->streams[i].physical_core_id = -1;
    c->streams[i].scheduler_id = (int64_t)i;
    c->streams[i].worker_id = (int64_t)i;
  }
  for (size_t i = 0; i < p->n_pend; i++) c->streams[p->pend[i].idx] = p->pend[i].s;
}

int sl_parse_json(sl_raw *raw, sl_capture *c, FILE *fp, const unsigned char *data, size_t len) {
  parser *p = sl_mem_calloc(1, sizeof *p);
  p->raw = raw;
  p->c = c;
  p->st[0].ctx = C_SKIP;
  c->num_cores = -1;
  yajl_handle h = yajl_alloc(&callbacks, NULL, p);
  if (!h) sl_mem_fail(0); /* yajl_alloc fails only when its allocator does */
  int rc = 0;
  size_t total = 0;
  if (fp) {
    enum { CHUNK = 1 << 18 };
    unsigned char *buf = sl_mem_alloc(CHUNK);
    while (rc == 0) {
      size_t n = fread(buf, 1, CHUNK, fp);
      if (n == 0) {
        if (ferror(fp)) {
          (void)sl_err_set(raw->err, raw->name, "read error");
          rc = -1;
        }
        break;
      }
      p->offset = total;
      total += n;
      if (yajl_parse(h, buf, n) != yajl_status_ok) rc = report_yajl(p, h, buf, n, 0);
    }
    sl_mem_free(buf);
  } else {
    total = len;
    if (len && yajl_parse(h, data, len) != yajl_status_ok) rc = report_yajl(p, h, data, len, 0);
  }
  if (rc == 0) {
    if (total == 0) {
      (void)sl_err_set(raw->err, raw->name, "$: empty file");
      rc = -1;
    } else if (yajl_complete_parse(h) != yajl_status_ok) {
      rc = report_yajl(p, h, (const unsigned char *)"", 0, 1);
    } else if (top_is_scalar(p)) {
      (void)sl_err_set(raw->err, raw->name, "$: expected a JSON object at the top level");
      rc = -1;
    }
  }
  if (rc == 0) build_streams(p);
  /* like the reference's "aicpu_scheduler_phases present": a non-empty outer list */
  if (rc == 0) c->has_sched_phases = c->n_streams > 0;
  if (rc == 0 && p->seen_new_tasks | p->seen_new_phases) c->format = SL_FORMAT_JSON_SEED;
  yajl_free(h);
  parser_free(p);
  return rc;
}
