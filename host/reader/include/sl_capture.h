/*
** sl_capture.h — the joined, microsecond-domain model of one chip swimlane
** capture, and the readers that build it.
**
** The on-disk capture (chip_swimlane_records.json, either the current format with
** scheduler_tasks / scheduler_records or the reference's older one with
** aicpu_tasks / aicpu_scheduler_phases, or the protobuf capture) is streamed,
** joined on (core_id, reg_task_id) and converted from cycles to microseconds
** exactly like the reference's read_perf_data (docs/reader.md). Every
** consumer (convert, sched-overhead, tests) reads this model, never the file.
**
** Layout: struct-of-records arrays with interned strings, so a 1M-task capture
** stays around 100 bytes per task. 64-bit ids are kept exact (uint64_t); only
** times are doubles, computed once as the reference does:
**   us(c) = c <= 0 ? 0.0 : (double)(c - base_cycles) * (1e6 / clock_freq_hz)
**
** Ownership: everything hangs off one sl_capture and is freed by
** sl_capture_free. Strings returned by sl_str_get live as long as the capture.
*/
#ifndef SL_CAPTURE_H
#define SL_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#include "sl_err.h"
#include "sl_intern.h"
#include "sl_read_fields.h"

/* ---- interned strings --------------------------------------------------------- */

/* Index into the capture's string table. SL_STR_NONE means "absent" (JSON null
** or key missing); sl_str_get returns NULL for it. */
typedef uint32_t sl_str;
#define SL_STR_NONE ((sl_str)0)

/* The capture's strings: the base library's interner (strs[id], n = 1 + count;
** SL_STR_NONE is SL_INTERN_NONE). */
typedef sl_intern sl_strtab;

/* ---- tasks (one per joined AICore row) ------------------------------------------ */

enum sl_task_flags {
  SL_TASK_HAS_SCHED = 1u << 0,       /* dispatch/finish came from a scheduler row (level >= 2) */
  SL_TASK_HAS_PROPAGATION = 1u << 1, /* propagation_us is meaningful (absent at level 1) */
  SL_TASK_HAS_R2S = 1u << 2,         /* the AICore row had the 6th receive_to_start column */
};

/* 72 bytes a row: what follows from other fields (duration, local setup, propagation,
** ring) is computed by the sl_task_* functions below, the same doubles as stored ones. */
typedef struct sl_task {
  uint64_t task_id;        /* task_token_raw, exact */
  int64_t func_id;         /* -1 until sl_capture_resolve_func_ids */
  double start_us;         /* AICore execution window */
  double end_us;
  double dispatch_us;      /* 0.0 at level 1 */
  double finish_us;        /* 0.0 at level 1; 0.0 also means "absent" */
  double receive_us;       /* us(start_cycles - receive_to_start) */
  uint32_t core_id;
  sl_str core_type;        /* "aic" / "aiv" (core_types[core_id]) */
  uint32_t extra_first;    /* [extra_first .. +n_extra) (one byte count keeps the task small) */
  uint8_t flags;           /* enum sl_task_flags */
  uint8_t member;          /* 1 + the task's kernel_ids slot this row ran; 0 = unknown */
  uint8_t n_extra;         /* extras of its AICore and scheduler rows: capture->extras */
} sl_task;

static inline double sl_task_duration_us(const sl_task *t) { return t->end_us - t->start_us; }
static inline double sl_task_local_setup_us(const sl_task *t) { return t->start_us - t->receive_us; }
/* receive_us - dispatch_us with flag SL_TASK_HAS_PROPAGATION, else 0.0 */
static inline double sl_task_propagation_us(const sl_task *t) {
  return (t->flags & SL_TASK_HAS_PROPAGATION) ? t->receive_us - t->dispatch_us : 0.0;
}
/* (task_id >> 32) & 0xFFFFFFFF */
static inline uint32_t sl_task_ring_id(const sl_task *t) { return (uint32_t)(t->task_id >> 32); }

/* ---- scheduler phase records ---------------------------------------------------- */

/* phase_id is an `enum sl_phase_kind` value from generated/sl_phases.h
** (legacy aliases already renamed: fanout -> resolve, prestage -> early_dispatch),
** or SL_PHASE_ID_UNKNOWN for retired (scan/poll/idle) and unknown names; those are
** kept (the name is in `phase`) but flagged, and are never rendered. */
#define SL_PHASE_ID_UNKNOWN (-1)

enum sl_phase_flags {
  SL_PH_HAS_TASKS_PROCESSED = 1u << 0,
  SL_PH_HAS_POP = 1u << 1,          /* pop_hit / pop_miss present (dispatch) */
  SL_PH_HAS_TASK_ID = 1u << 2,      /* task_id present and not null */
  SL_PH_HAS_SHARED = 1u << 3,       /* both shared_at_start and shared_at_end are 3-element lists */
  SL_PH_HAS_LOOP_ITER = 1u << 4,
  SL_PH_RETIRED = 1u << 5,          /* legacy name no longer emitted (scan, poll, idle, ...) */
  SL_PH_UNKNOWN = 1u << 6,          /* name not in the phase table (or kind missing) */
  SL_PH_RENAMED = 1u << 7,          /* legacy alias was renamed (fanout, prestage) */
};

/* A record field the reader does not interpret (one added to schema/records.lua after the
** reader's code was written, of any record kind): its capture name and integer value, shown in
** the trace's args. Every record carries a span of capture->extras. */
typedef struct sl_extra_field {
  sl_str key;
  int64_t value;
} sl_extra_field;
typedef struct sl_extra_span {
  uint32_t first, n;           /* capture->extras[first .. first + n) */
} sl_extra_span;
#define SL_PH_MAX_EXTRA 8u /* per record; more are dropped */

/* The integer fields of a scheduler phase record, by index: read them with sl_phase_value
** (or the named accessors after struct sl_capture), never from sl_phase_rec's own fields. */
enum sl_phase_value {
  SL_PV_LOOP_ITER = 0,         /* 0 when absent (flag SL_PH_HAS_LOOP_ITER) */
  SL_PV_TASKS_PROCESSED = 1,   /* 0 when absent (flag SL_PH_HAS_TASKS_PROCESSED) */
  SL_PV_POP_HIT = 2,           /* flag SL_PH_HAS_POP */
  SL_PV_POP_MISS = 3,
  SL_PV_SHARED_AT_START = 4,   /* [4..7): queue depths [AIC, AIV, MIX], flag SL_PH_HAS_SHARED */
  SL_PV_SHARED_AT_END = 7,     /* [7..10) */
  SL_PV_COUNT = 10
};

/* 64 bytes a record (a 1M-task capture has ~2.6M): loop_iter is 32-bit here and the nine
** counts and queue depths 16-bit, exact; a record with any value outside its width keeps
** all ten, 64-bit, in capture->phase_wide[wide - 1] (wide == 0: the values are here). */
typedef struct sl_phase_rec {
  double start_us;
  double end_us;
  uint64_t task_id;            /* flag SL_PH_HAS_TASK_ID; normalized to unsigned */
  int32_t iter;                /* SL_PV_LOOP_ITER, when wide == 0 */
  int16_t small[SL_PV_COUNT - 1]; /* value k = small[k - 1] for the others, when wide == 0 */
  sl_str phase;                /* lowercase name after renames; "unknown" if kind missing */
  uint32_t extra_first;        /* fields the reader has no meaning for, into the trace args: */
  uint32_t wide;               /* 0, or 1 + index into capture->phase_wide */
  int16_t phase_id;            /* enum sl_phase_kind or SL_PHASE_ID_UNKNOWN */
  uint8_t flags;               /* enum sl_phase_flags */
  uint8_t n_extra;             /* capture->extras[extra_first .. +n_extra) (sl_phase_extra) */
} sl_phase_rec;

/* A phase record's ten integer fields at full width (capture->phase_wide). */
typedef struct sl_phase_wide {
  int64_t v[SL_PV_COUNT];
} sl_phase_wide;

static inline sl_extra_span sl_phase_extra(const sl_phase_rec *p) {
  return (sl_extra_span){p->extra_first, p->n_extra};
}

/* One scheduler thread's stream. In the older format this is one inner list of
** aicpu_scheduler_phases (index = thread); in the current format the stream with
** scheduler_id == index (gaps are empty streams with has_meta == 0). */
typedef struct sl_sched_stream {
  size_t first, count;         /* records: capture->phases[first .. first+count) in file order */
  int has_meta;                /* the new format's stream metadata below is present */
  sl_str platform, runtime, producer, core_type;   /* "a2a3", "tensormap_and_ringbuffer", "aicpu", "aicpu" */
  int64_t scheduler_id, worker_id;
  int64_t physical_core_id;    /* -1 when null */
  int has_capture;
  uint64_t committed, dropped;
  int truncated;
} sl_sched_stream;

/* ---- orchestrator records ----------------------------------------------------- */

enum sl_orch_flags {
  SL_ORCH_HAS_TASK_ID = 1u << 0,
  SL_ORCH_HAS_SUBMIT_IDX = 1u << 1,
  SL_ORCH_RENAMED = 1u << 2,  /* named by a renamed kind's old name (phases.lua orch_aliases) */
  SL_ORCH_RETIRED = 1u << 3,  /* a retired kind (orch_retired): read, never drawn */
  SL_ORCH_UNKNOWN = 1u << 4,  /* a kind the schema does not have: drawn under its own name */
};

typedef struct sl_orch_rec {
  double start_us;
  double end_us;
  uint64_t task_id;            /* normalized to unsigned (a negative id reads back as >= 2^63) */
  int64_t task_id_signed;      /* the id as written, for "task_id >= 0" tests */
  int64_t submit_idx;          /* 0 when absent */
  sl_str phase;                /* the kind's schema name: SL_ORCH_PHASE_DEFAULT when the record */
                               /* names none, renamed kinds' old names already renamed      */
  uint32_t flags;              /* enum sl_orch_flags */
  sl_extra_span extra;
} sl_orch_rec;

typedef struct sl_orch_thread {
  size_t first, count;         /* capture->orch[first .. first+count) */
} sl_orch_thread;

/* ---- a5 HBG AICPU lifecycle records -------------------------------------------- */

/* The span fields of a lifecycle record are the fields of the generated read table from
** handshake_start_cycles to exit_wait_end_cycles (schema/records.lua aicpu_lifecycle_record),
** in table order: us[i] / present bit i is table field SL_LC_FIRST_RF + i. A field the schema
** adds after them is an extra of the record (shown in the trace args). */
#define SL_LC_FIRST_RF SL_RF_AICPU_LIFECYCLE_RECORD_HANDSHAKE_START_CYCLES
/* The span index of a field by its generated name: SL_LC_FIELD(EXIT_WAIT_END). */
#define SL_LC_FIELD(F) (SL_RF_AICPU_LIFECYCLE_RECORD_##F##_CYCLES - SL_LC_FIRST_RF)
enum { SL_LC_FIELD_COUNT = SL_LC_FIELD(EXIT_WAIT_END) + 1 };
_Static_assert(SL_LC_FIELD_COUNT > 0 && SL_LC_FIELD_COUNT <= 32, "lifecycle presence is a 32-bit mask");
/* On-disk key of span field i, e.g. "handshake_start_cycles" (from the generated table). */
static inline const char *sl_lifecycle_key(int i) {
  return sl_read_records[SL_READ_AICPU_LIFECYCLE_RECORD].fields[SL_LC_FIRST_RF + i].key;
}

typedef struct sl_lifecycle_rec {
  int64_t aicpu_thread_id;
  double us[SL_LC_FIELD_COUNT];  /* span fields (SL_LC_FIELD), converted; 0.0 when absent or zero */
  uint32_t present;              /* bit i set: field i was in the record */
  sl_extra_span extra;
} sl_lifecycle_rec;

/* ---- host-orchestrated captures (host_build_graph) ------------------------------- */

/* One host -> device upload (host_device_uploads), on the host axis. */
typedef struct sl_upload_rec {
  sl_str phase;                /* NONE when absent ("upload" in the trace) */
  double start_us, end_us;     /* (ns - host origin) / 1000 */
  uint64_t bytes;              /* detail (0 when absent) */
} sl_upload_rec;

/* One clock anchor sample as written (metadata.clock_anchors.samples[]). */
enum { SL_ANCHOR_PRE = 0, SL_ANCHOR_POST = 1, SL_ANCHOR_OTHER = 2 };
typedef struct sl_clock_sample {
  int position;                /* SL_ANCHOR_* */
  int valid;                   /* ints parsed, before > 0, cycles > 0, after >= before, idx >= 0, no error */
  int64_t idx, before_ns, cycles, after_ns;
} sl_clock_sample;

/* The device-to-host clock alignment (as the reference's clock_correlation). */
typedef struct sl_clock_alignment {
  int calibrated;
  const char *reason;          /* static text; NULL when calibrated */
  int64_t anchor_uncertainty_ns; /* max of the two selected samples (calibrated only) */
  int64_t quantization_ns;     /* metadata.host_timestamp_quantization_ns (0 when absent) */
  int64_t device_quantization_ns;
  int64_t sel_pre, sel_post;   /* selected sample_idx per position (calibrated only) */
  int64_t s_cycles, s_mid, e_cycles, e_mid;
} sl_clock_alignment;

/* metadata.host_capture and the reader's verdict on it. */
/* sl_host_capture.seen: the keys the object holds (whatever their value), in the order
** the trace's copy of it lists them */
enum {
  SL_HC_STATUS = 1, SL_HC_EXPECTED = 2, SL_HC_RECORDED = 4, SL_HC_POOL = 8, SL_HC_DROPPED = 16, SL_HC_ERROR = 32,
  SL_HC_ALL = 63
};
typedef struct sl_host_capture {
  int present;                 /* the object was in the metadata */
  unsigned seen;               /* SL_HC_* bits: the trace copies these keys, omits the others */
  sl_str status, error;        /* NONE when absent / null */
  int has_expected, has_recorded, has_pool, has_dropped;
  int64_t expected, recorded, pool, dropped;
  int complete;                /* status complete, nothing dropped, counts match */
  int n_validation;
  const char *validation[2];   /* converter_validation_errors, static text */
} sl_host_capture;

/* metadata.capture: the collector's loss accounting, from JSON and .pb alike
** (present == 0 for captures written without it). */
#define SL_HEALTH_MAX_POOLS 8
typedef struct sl_pool_health {
  sl_str name;                 /* "aicore_task", ... as written */
  uint64_t total, collected, dropped;
} sl_pool_health;
typedef struct sl_capture_health {
  int present, truncated;
  size_t n_pools;
  sl_pool_health pools[SL_HEALTH_MAX_POOLS];
} sl_capture_health;

/* metadata.task_timing_slots: one tagged slot's window (`run` prints it as
** device_wall.task_slot_<N>), in device cycles as written and on the trace's axis. */
typedef struct sl_task_slot {
  uint32_t slot;               /* N of set_task_timing_slot(N) */
  uint64_t dispatch_cycles, finish_cycles;
  double start_us, end_us;     /* placed like every other device timestamp */
} sl_task_slot;

/* ---- warnings ------------------------------------------------------------------ */

/* Unmatched scheduler rows (no AICore record with the same (core, reg_task_id)),
** per core in first-drop order. The reader also formats the reference's warning
** into capture->warnings. */
typedef struct sl_unmatched {
  uint32_t core_id;
  uint64_t count;
} sl_unmatched;

/* ---- the capture --------------------------------------------------------------- */

typedef enum sl_capture_format {
  SL_FORMAT_JSON_LEGACY = 0,  /* aicpu_tasks / aicpu_scheduler_phases */
  SL_FORMAT_JSON_SEED = 1,    /* scheduler_tasks / scheduler_records */
  SL_FORMAT_PROTOBUF = 2,
} sl_capture_format;

typedef struct sl_capture {
  char *path;                  /* the file read */
  sl_capture_format format;
  int level;                   /* chip_swimlane_level, 1..4 */
  uint64_t clock_freq_hz;
  uint64_t base_cycles;        /* min strictly-positive timestamp (0 if none) */
  double us_per_cycle;         /* 1e6 / clock_freq_hz */

  sl_strtab strings;

  /* metadata */
  int64_t num_cores;           /* as written (-1 if absent) */
  size_t n_core_types;
  sl_str *core_types;          /* indexed by core_id */
  size_t n_core_to_thread;
  int64_t *core_to_thread;     /* hoisted; -1 = unassigned; empty if absent */
  sl_str task_producer;        /* scheduler_tasks.producer ("aicpu" for the old aicpu_tasks) */
  sl_str orchestrator_source;  /* "aicpu" when aicpu orchestrator phases exist, else NONE */

  /* tasks, stable-sorted by task_id */
  size_t n_tasks;
  sl_task *tasks;

  /* scheduler phases: has_sched_phases is 1 when there is at least one stream (even
  ** an empty one: [[]]), matching "aicpu_scheduler_phases present" in the reference. */
  int has_sched_phases;
  size_t n_streams;
  sl_sched_stream *streams;
  size_t n_phases;
  sl_phase_rec *phases;
  size_t n_phase_wide, cap_phase_wide;
  sl_phase_wide *phase_wide;   /* the records whose integers do not all fit 32 bits */
  size_t n_extras, cap_extras;
  sl_extra_field *extras;      /* the records' sl_extra_span point here */

  /* orchestrator phases (level >= 4) */
  size_t n_orch_threads;
  sl_orch_thread *orch_threads;
  size_t n_orch;
  sl_orch_rec *orch;

  /* host-orchestrated capture: orchestrator_source "host", a host_orchestrator_phases
  ** section or a host_capture object. The host records are in orch / orch_threads
  ** (drawn on Host_N); device timestamps are on the host axis when aligned. */
  int host_mode;
  int64_t host_origin_ns;      /* metadata value, else the earliest host timestamp */
  double host_composite_end_us; /* (latest host ns - origin) / 1000 */
  sl_str timeline_relation;    /* metadata.timeline_relation, NONE when absent */
  size_t n_host_records;       /* host orchestrator records */
  sl_clock_alignment align;
  sl_host_capture host_capture;
  sl_capture_health health;    /* metadata.capture */
  size_t n_task_slots;
  sl_task_slot *task_slots;    /* metadata.task_timing_slots, in slot order as written */
  size_t n_uploads;
  sl_upload_rec *uploads;

  /* a5 HBG AICPU lifecycle (level >= 2, optional) */
  size_t n_lifecycle;
  sl_lifecycle_rec *lifecycle;

  /* warnings */
  uint64_t unmatched_total;
  size_t n_unmatched;
  sl_unmatched *unmatched;     /* per core, first-drop order */
  size_t n_warnings;
  char **warnings;             /* formatted, without a "Warning: " prefix */

  /* identity from metadata (SL_STR_NONE when absent): lets a consumer refuse to
  ** compare captures of different platforms or schema layouts */
  sl_str platform;             /* metadata.platform, e.g. "a2a3sim" */
  sl_str schema_fingerprint;   /* the writer's SL_SCHEMA_FINGERPRINT */
  sl_str schema_layout;        /* the writer's SL_SCHEMA_LAYOUT (names fields newer than this build) */
} sl_capture;

/* Integer field k (enum sl_phase_value) of a scheduler phase record, exact. */
static inline int64_t sl_phase_value(const sl_capture *c, const sl_phase_rec *p, int k) {
  if (p->wide) return c->phase_wide[p->wide - 1].v[k];
  return k == SL_PV_LOOP_ITER ? (int64_t)p->iter : (int64_t)p->small[k - 1];
}
static inline int64_t sl_phase_loop_iter(const sl_capture *c, const sl_phase_rec *p) {
  return sl_phase_value(c, p, SL_PV_LOOP_ITER);
}
static inline int64_t sl_phase_tasks_processed(const sl_capture *c, const sl_phase_rec *p) {
  return sl_phase_value(c, p, SL_PV_TASKS_PROCESSED);
}
static inline int64_t sl_phase_pop_hit(const sl_capture *c, const sl_phase_rec *p) {
  return sl_phase_value(c, p, SL_PV_POP_HIT);
}
static inline int64_t sl_phase_pop_miss(const sl_capture *c, const sl_phase_rec *p) {
  return sl_phase_value(c, p, SL_PV_POP_MISS);
}
/* The three queue depths at the record's start (at_end 0) or end (at_end 1) into out[3]. */
static inline void sl_phase_shared(const sl_capture *c, const sl_phase_rec *p, int at_end, int64_t out[3]) {
  int k0 = at_end ? SL_PV_SHARED_AT_END : SL_PV_SHARED_AT_START;
  for (int k = 0; k < 3; k++) out[k] = sl_phase_value(c, p, k0 + k);
}

/* Records dropped over every pool of capture->health. */
uint64_t sl_capture_dropped(const sl_capture *c);

static inline const char *sl_str_get(const sl_capture *c, sl_str s) {
  return s == SL_STR_NONE ? (const char *)0 : c->strings.strs[s];
}

/* ---- reading -------------------------------------------------------------------- */

typedef struct sl_read_opts {
  int quiet;   /* sl_capture_read*: don't print the warnings (they stay in capture->warnings) */
} sl_read_opts;

/* Read a capture: JSON (either format) or the protobuf capture (detected by content).
** On error returns NULL with the first error on *err (file = the capture, msg =
** "<JSON path>: <what>"; sl_err.h), prints nothing and leaves nothing behind; err may be
** NULL. Warnings (unmatched scheduler rows, a foreign schema fingerprint, unknown phase
** kinds) are kept on capture->warnings, not printed. opts may be NULL. */
sl_capture *sl_capture_load(const char *path, const sl_read_opts *opts, sl_err *err);
/* Same, from memory (used by the fuzz targets); `name` names the input in errors. */
sl_capture *sl_capture_load_mem(const char *name, const void *data, size_t len,
                                const sl_read_opts *opts, sl_err *err);
/* The forms for a command: the same, printing the error ("swimlane: <path>: <JSON path>:
** <what>") and, unless opts->quiet, each warning ("swimlane: warning: <path>: ...") to stderr. */
sl_capture *sl_capture_read(const char *path, const sl_read_opts *opts);
/* What the command forms print after a load: *err ("swimlane: <path>: ...", then cleared)
** and, unless opts->quiet, the capture's warnings. Returns c. */
sl_capture *sl_capture_report(sl_capture *c, sl_err *err, const sl_read_opts *opts);
sl_capture *sl_capture_read_mem(const char *name, const void *data, size_t len,
                                const sl_read_opts *opts);
void sl_capture_free(sl_capture *c);

/* Newest (by mtime) chip_swimlane_records.json in a subfolder of <dir>/outputs (free it with
** sl_mem_free); NULL if none. dir NULL = current directory. */
char *sl_find_latest_records(const char *dir);

/* Number of scheduler threads in the reference's sense:
** (max core_to_thread value >= 0, or max index of a non-empty phase stream) + 1,
** else n_streams. */
size_t sl_capture_sched_thread_count(const sl_capture *c);

/* ---- deps.json -------------------------------------------------------------------- */

/* The three maps the converter uses from dep_gen's deps.json (docs/reader.md).
** Each map is "None" (has_* == 0) under the reference's rules: file missing (all
** three, silently), unreadable/invalid JSON (all three, one warning), `edges` not an
** array (edges only, warning), no valid kernel_ids / no tasks (kernel / block). */
enum sl_deps_status {
  SL_DEPS_OK = 0,       /* parsed (individual maps may still be None) */
  SL_DEPS_MISSING = 1,  /* no such file: every map None */
  SL_DEPS_INVALID = 2,  /* unreadable or invalid JSON: every map None, `error` says why */
};

/* One id the maps name (a task or an edge end): 1 + its index in each map, 0 = not in it. */
typedef struct sl_deps_node {
  uint32_t pred, succ, kernel, block;  /* preds[], succ_keys[], kernel_task[], block_task[] */
} sl_deps_node;

typedef struct sl_deps {
  char *path;
  int status;              /* enum sl_deps_status */
  char *error;             /* SL_DEPS_INVALID: what went wrong (no file name) */
  sl_err warning;           /* what the reference warns about: unreadable or invalid
                           ** JSON, no 'edges' array; unset when there is nothing to say */
  /* every id any map names, numbered once: the maps below are arrays indexed through it
  ** (one hash map for all four; fewer than 2^32 ids) */
  sl_map node_index;       /* id -> node */
  size_t n_nodes;
  sl_deps_node *nodes;
  int has_edges;
  /* pred -> successors: preds in first-appearance order, succs in edge order,
  ** (pred, succ) pairs deduplicated keeping the first; self-edges kept. */
  size_t n_preds;
  uint64_t *preds;         /* [n_preds] */
  size_t *succ_off;        /* [n_preds + 1]: succs of preds[i] are succs[succ_off[i] .. succ_off[i+1]) */
  uint64_t *succs;
  size_t n_edges;          /* deduplicated pair count */
  /* inverted: succ -> preds in the order of iterating the edge map pred by pred */
  size_t n_succ_keys;
  uint64_t *succ_keys;
  size_t *pred_off;
  uint64_t *pred_list;

  int has_kernel_map;
  size_t n_kernel;
  uint64_t *kernel_task;   /* [n_kernel] first-appearance order */
  int64_t (*kernel_ids)[3];/* later duplicate entries overwrite the value */

  int has_block_map;
  size_t n_block;
  uint64_t *block_task;
  int64_t *block_num;      /* max(int(block_num or 1), 1) */
} sl_deps;

/* Load deps.json (streamed). Never fails and prints nothing: a missing file gives
** all-None maps silently; bad content gives None maps as the reference does, and
** d->warning says what is wrong (the caller prints it with sl_err_warn, as a warning
** or as its own error). Never NULL. */
sl_deps *sl_deps_load(const char *path);
sl_deps *sl_deps_load_mem(const char *name, const void *data, size_t len);
void sl_deps_free(sl_deps *d);

/* Successors of pred in edge order (NULL, *n = 0 if none). */
const uint64_t *sl_deps_succs(const sl_deps *d, uint64_t pred, size_t *n);
/* Predecessors of succ (NULL, *n = 0 if none). */
const uint64_t *sl_deps_preds(const sl_deps *d, uint64_t succ, size_t *n);
/* kernel_ids[3] of a task, NULL if not in the kernel map. */
const int64_t *sl_deps_kernel_ids(const sl_deps *d, uint64_t task_id);
/* block_num of a task, 0 if not in the block map. */
int64_t sl_deps_block_num(const sl_deps *d, uint64_t task_id);

/* Fill func_id of every task with func_id < 0 from the kernel map: aic ->
** kids[0] if >= 0; otherwise the first of kids[1], kids[2] that is >= 0. */
void sl_capture_resolve_func_ids(sl_capture *c, const sl_deps *d);
/* func_id for a task without an AICore row (predicated_skip marker): first
** non-negative of kids[0..2], else -1. */
int64_t sl_deps_first_func_id(const sl_deps *d, uint64_t task_id);

/* ---- name map (name_map_<case>.json) ---------------------------------------------- */

typedef struct sl_namemap {
  char *path;
  int64_t level;              /* -1 if absent */
  char *orchestrator_name;    /* NULL if absent or null */
  size_t n;
  char **keys;                /* "<id>" strings, file order */
  char **names;
  sl_map index;               /* key text -> i (keys borrowed from keys[]) */
} sl_namemap;

/* Load a name map; on error returns NULL with the first error on *err (err may be NULL),
** printing nothing. */
sl_namemap *sl_namemap_open(const char *path, sl_err *err);
sl_namemap *sl_namemap_open_mem(const char *name, const void *data, size_t len, sl_err *err);
/* The same for a command: the error printed ("swimlane: <path>: <what>"). */
sl_namemap *sl_namemap_load(const char *path);
sl_namemap *sl_namemap_load_mem(const char *name, const void *data, size_t len);
void sl_namemap_free(sl_namemap *m);
/* Name for func_id (looked up as str(func_id)), NULL if none. */
const char *sl_namemap_lookup(const sl_namemap *m, int64_t func_id);

/* Sibling discovery next to a records file: sorted name_map*.json regular files in
** its directory. Returns 1 and *out (free it with sl_mem_free) when exactly one; 0 when none;
** 0 and the reference's "multiple sibling name maps" warning on *warning (may be NULL;
** the caller prints it with sl_err_warn) when several. */
int sl_namemap_discover(const char *records_path, char **out, sl_err *warning);

#endif /* SL_CAPTURE_H */
