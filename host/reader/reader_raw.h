/*
** reader_raw.h — the cycle-domain rows a format parser (JSON or protobuf)
** collects before the join. The parser fills an sl_raw and the capture's
** streams / phase / orch / lifecycle arrays (with cycles in the parallel
** *_cycles arrays); sl_raw_finish validates, joins and converts to µs.
** Allocation never fails (sl_mem.h): an error result always means bad input.
*/
#ifndef SL_READER_RAW_H
#define SL_READER_RAW_H

#include <stdio.h>
#include <string.h>

#include "sl_capture.h"
#include "sl_read_fields.h"

typedef struct sl_raw_aicore {
  uint64_t core, token, reg, start, end, r2s;
  size_t row;          /* index in its JSON array, for error paths */
  uint8_t ncols;
  sl_extra_span extra;
} sl_raw_aicore;

typedef struct sl_raw_sched_task {
  uint64_t core, reg, dispatch, finish;
  uint64_t member; /* 1 + kernel_ids slot; 0 = not recorded (4-column rows) */
  size_t row;
  sl_extra_span extra;
} sl_raw_sched_task;

typedef struct sl_raw {
  const char *name;              /* file name for messages */
  sl_err *err;                   /* the first error is kept here (sl_err.h); the reader prints none */
  int has_level;
  int64_t level;
  int has_clock;
  int64_t clock;
  int has_core_types;
  const char *sched_tasks_key;   /* "aicpu_tasks" or "scheduler_tasks.records" (paths) */
  size_t n_aicore, cap_aicore;
  sl_raw_aicore *aicore;
  size_t n_stask, cap_stask;
  sl_raw_sched_task *stask;
  /* the cycles of capture->phases and ->orch wait in their records (sl_raw_put_cycles) */
  size_t cap_phases, cap_streams, cap_orch, cap_orch_threads, cap_lc, cap_ct, cap_c2t;
  uint64_t (*lc_cycles)[SL_LC_FIELD_COUNT];
  size_t cap_lc_cycles;
  int host_mode;                 /* host-orchestrated capture */
  /* host sections (ns) and the clock anchors, read by reader_host.c after the join */
  size_t n_host, cap_host, cap_host_threads, n_host_threads;
  sl_orch_rec *host_orch;        /* host_orchestrator_phases records */
  uint64_t *host_ns;             /* [2i] start, [2i+1] end */
  size_t cap_host_ns;
  sl_orch_thread *host_threads;
  size_t cap_uploads, cap_upload_ns;
  uint64_t *upload_ns;           /* [2i] start, [2i+1] end of capture->uploads[i] */
  size_t n_samples, cap_samples;
  sl_clock_sample *samples;
  int has_anchors, anchors_not_object, has_samples_list;
  int dev_unit_bad, raw_unit;    /* raw_unit: 0 syscnt_cycles, 1 device_uptime_us, -1 unknown */
  int has_origin, has_quant;
  int64_t origin, quant;
  sl_str fingerprint, layout;    /* the writer's SL_SCHEMA_FINGERPRINT / SL_SCHEMA_LAYOUT */
} sl_raw;

/* Until sl_raw_finish converts them, a phase or orchestrator record's start_us / end_us hold
** its start / end cycles (the uint64 in the double's bytes): no second array of cycles. */
static inline void sl_raw_put_cycles(double *us, uint64_t cycles) { memcpy(us, &cycles, sizeof cycles); }
static inline uint64_t sl_raw_cycles(const double *us) {
  uint64_t v;
  memcpy(&v, us, sizeof v);
  return v;
}

/* Look a scheduler phase name up: sets rec->phase_id, ->phase (renamed) and flags. */
void sl_phase_classify(sl_capture *c, sl_phase_rec *rec, const char *name, size_t len);
/* An orchestrator record's kind, identically for both formats (reader_phase.c): by its JSON
** name (NULL = the default kind) or its .pb id; renamed kinds carry their current name, retired
** ones are flagged SL_ORCH_RETIRED, a .pb id this build does not know reads as orch_kind_<n>. */
void sl_orch_classify(sl_capture *c, sl_orch_rec *rec, const char *name, size_t len);
void sl_orch_classify_id(sl_capture *c, sl_orch_rec *rec, uint32_t id);

/* A scheduler phase record as a parser reads it: the integers full width, the extras a span
** (sl_phase_push packs it into capture->phases). */
typedef struct sl_phase_in {
  sl_phase_rec r;              /* times, task id, name, flags; r.v / r.wide / extras unused */
  int64_t v[SL_PV_COUNT];      /* enum sl_phase_value */
  sl_extra_span extra;
} sl_phase_in;
/* Append `in` to capture->phases (*cap its capacity). */
void sl_phase_push(sl_capture *c, size_t *cap, const sl_phase_in *in);
/* Set integer field k of a stored record, exact (moves its integers to capture->phase_wide
** the first time one does not fit 32 bits). */
void sl_phase_set(sl_capture *c, sl_phase_rec *p, int k, int64_t v);
/* Replace a stored record's extras. */
void sl_phase_set_extra(sl_phase_rec *p, sl_extra_span sp);

/* reader_fields.c: the fields of each record kind (generated/sl_read_fields.h) the reader
** interprets; any other field, or one the table lacks (field < 0), is an extra. */
extern const uint64_t sl_read_used[SL_READ_KIND_COUNT];
int sl_read_is_extra(enum sl_read_kind kind, int field);
/* Append an extra to a record's span (at most SL_PH_MAX_EXTRA; more are dropped). */
void sl_extra_add(sl_capture *c, sl_extra_span *sp, const char *key, size_t klen, int64_t value);
/* One span holding a's then b's extras (copied when both are non-empty). */
sl_extra_span sl_extra_join(sl_capture *c, sl_extra_span a, sl_extra_span b);

/* Validate + join + convert; warnings into capture->warnings. 0 ok; -1 error (on raw->err). */
int sl_raw_finish(sl_raw *raw, sl_capture *c);
void sl_raw_free(sl_raw *raw);

/* Parsers: 0 ok, -1 error (on raw->err). */
/* JSON: `fp` is streamed in chunks when non-NULL, else data[0..len) is parsed. */
int sl_parse_json(sl_raw *raw, sl_capture *c, FILE *fp, const unsigned char *data, size_t len);
int sl_parse_pb(sl_raw *raw, sl_capture *c, const unsigned char *data, size_t len);
/* capture->health (reader_health.c): one pool, or metadata.capture of a JSON head / file. */
void sl_health_add_pool(sl_capture *c, const char *name, uint64_t total, uint64_t collected, uint64_t dropped);
void sl_health_from_json_head(sl_capture *c, const char *head, size_t n);
void sl_health_from_json_file(sl_capture *c, FILE *f);
/* One metadata.task_timing_slots entry (its _us placed later by the join). */
void sl_capture_add_task_slot(sl_capture *c, uint32_t slot, uint64_t dispatch_cycles, uint64_t finish_cycles);

/* reader_host.c: host mode after the device join: validate the host sections, align
** the clocks, convert the host records (0 ok, -1 error on raw->err). The alignment must be
** known before device timestamps are converted: sl_host_align runs first. */
int sl_host_align(sl_raw *raw, sl_capture *c);
int sl_host_finish(sl_raw *raw, sl_capture *c);
double sl_host_device_us(const sl_capture *c, uint64_t cycles); /* the calibrated map */

/* The capture's layout against this build's (reader_schema.c): 0 = read it (*note: at most
** one note for capture->warnings, an sl_mem string, or NULL), -1 = refused (the reason on *err).
** json: a JSON capture (its row columns are checked too). */
int sl_schema_check(const char *name, const char *fingerprint, const char *layout, int json, char **note,
                    sl_err *err);
/* The name a newer writer gave JSON column `col` of row record `proto`, from the capture's own
** layout ("columns.<proto>=a,b,..."); 0 when the layout does not say (out: NUL-terminated). */
size_t sl_layout_column_name(const char *layout, const char *proto, size_t col, char *out, size_t cap);

#endif
