/*
** convert_ctx.h — state shared by the engine's passes (views, flows, overhead).
** Internal to tools/convert.
*/
#ifndef SL_CONVERT_CTX_H
#define SL_CONVERT_CTX_H

#include <stdint.h>

#include "sl_convert.h"
#include "ts_shift.h"

#define SL_NO_EVENT UINT64_MAX

/* A Worker View slice on an AICPU lane standing for a DAG node without an AICore
** row: dummy / predicated_skip markers and alloc bars. */
typedef struct sl_anchor {
  uint64_t task_id;
  double start, end;
  int64_t tid;
  uint64_t event_id;
  uint32_t seq;      /* registration order (stable lookups) */
} sl_anchor;

/* One logical task: its rows are tasks[first .. first+count) (sorted by id). */
typedef struct sl_group {
  uint64_t task_id;
  uint32_t first, count;
  uint8_t spmd;
} sl_group;

typedef struct sl_ctx {
  const sl_capture *c;
  const sl_deps *d;
  const sl_namemap *m;
  sl_rules *r;
  sl_trace_sink *s;
  struct sl_flow_place *place; /* NULL with --reference-flows */
  sl_trace_sink *shift;        /* time origin (ts_shift.h); NULL with --reference-flows */
  double origin_us;            /* what shift adds to every ts (0 without it)       */
  const sl_convert_opts *o;
  sl_convert_result *res;

  int64_t pid_orch, pid_sched, pid_sv, pid_worker, pid_graph, pid_life;
  int64_t core_base, core_stride;     /* worker / scheduler-view core lanes */
  int64_t aicpu_base, sched_base, sched_stride, hbg_base, orch_base, queue_tid;
  int64_t graph_base, life_base;

  /* per task row */
  uint64_t *row_eid;     /* Worker View bar id                                 */
  uint64_t *row_bind;    /* id of the last bar of (task, core): flow binding    */
  int64_t *row_sv_tid;   /* Scheduler View lane                                */
  uint64_t *row_sv_eid;  /* Scheduler View bar id, SL_NO_EVENT if none         */

  /* logical tasks */
  size_t ngroups;
  sl_group *groups;

  /* cores */
  uint32_t ncores;       /* max core id + 1 over tasks and core_types            */
  const char **core_lane_name; /* NULL = hidden                                 */

  /* scheduler */
  size_t nthreads;       /* AICPU lanes for scheduler threads (S)               */
  int has_aicpu_data;
  int64_t *core_thread;  /* core -> scheduler thread or -1 (size ncores)        */
  /* complete records per thread, sorted by start: indices into c->phases */
  size_t *comp_off;      /* [n_streams + 1] */
  size_t *comp_idx;

  /* scheduler records drawn on their thread's main lane (1 per phase record) */
  uint8_t *phase_main;
  /* per thread, main-lane bars sorted by start with running max end: a flow end
  ** on a Sched lane is only written where a bar encloses it */
  size_t *cover_off;
  double *cover_start, *cover_maxend;

  /* AICPU anchors, sorted by (task_id, seq) after emission */
  sl_anchor *anchors;
  size_t nanchors, capanchors;

  uint64_t event_id, flow_id;
  int failed;            /* a rules error (already reported) */
} sl_ctx;

static inline int64_t sl_core_tid(const sl_ctx *x, uint32_t core) {
  return x->core_base + (int64_t)core * x->core_stride;
}
static inline int64_t sl_sched_tid(const sl_ctx *x, int64_t thread) {
  return x->sched_base + thread * x->sched_stride;
}

/* A slice's dur from its start and end (µs). Under --reference-flows the reference's
** end - start (its bytes); else the duration with ts + dur == end exactly, or the double
** just below when none reaches it (sl_ts_fit_dur): end - start carries the subtraction's
** rounding, and a slice whose ts + dur then lands an ulp past the next slice's ts on its
** lane — the same ns — is one Chrome DevTools drops from the tree (check-trace warns). */
static inline double sl_slice_dur(const sl_ctx *x, double start, double end) {
  return x->o->reference_flows ? end - start : sl_ts_fit_dur(start, end);
}

/* Logical task of an id, NULL if it has no task rows. */
const sl_group *sl_ctx_group(const sl_ctx *x, uint64_t task_id);
/* AICPU anchors of an id: first and count (0 if none). */
size_t sl_ctx_anchors(const sl_ctx *x, uint64_t task_id, size_t *first);
/* Complete record of a thread observing time t (the one whose window holds t), or -1 (also
** for a thread with no stream: unassigned, -1, or past the last). */
long sl_ctx_complete_lookup(const sl_ctx *x, int64_t thread, double t);

/* Task label (name, SPMD suffix) of a row: never NULL; sl_mem_free it. */
char *sl_ctx_task_label(sl_ctx *x, int64_t func_id, uint64_t task_id, int spmd);
/* Keep a warning about file on the result, for the command to print. */
void sl_ctx_warn(sl_ctx *x, const char *file, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Flow passes (convert_flows.c). */
void sl_emit_flows(sl_ctx *x);
/* Host-orchestrated captures (convert_host.c): the Host Prepare / H2D bars, and the
** trace's top-level metadata object (JSON, never NULL; sl_mem_free it). */
void sl_emit_host_prepare(sl_ctx *x);
/* convert_slots.c: the Task Timing Slots view (metadata.task_timing_slots). */
void sl_emit_task_slots(sl_ctx *x);
char *sl_host_timeline_json(const sl_capture *c);
/* Are host and device on one axis with every host record present (the metadata's
** cross_domain_latency_available)? Always 1 for a device-orchestrated capture. */
int sl_host_cross_domain(const sl_capture *c);
/* --overhead counters (convert_overhead.c). */
void sl_emit_overhead(sl_ctx *x);

/* Emit one flow pair unless an end is on a hidden lane. */
void sl_ctx_flow_pair(sl_ctx *x, const sl_flow *s, const sl_flow *f);

#endif
