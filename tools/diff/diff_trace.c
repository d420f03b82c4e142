/*
** diff_trace.c — the diff trace: both runs on one time axis (each from its own
** capture start) as sibling process groups "base / ..." and "new / ...", a flow from
** each matched task's slice to its partner, and a counter of (new - base) busy cores.
** Written through the converter's trace sinks, so JSON and protobuf come for free.
*/
#include <stdlib.h>
#include <string.h>

#include "convert_labels.h"
#include "sl_diff.h"
#include "sl_lanes.h"
#include "sl_mem.h"
#include "sl_phases.h"
#include "sl_vec.h"
#include "ts_shift.h"

/* the Worker View task slices' category, which the matched flows carry too */
static const char TASK_CAT[] = "task";

enum { PID_WORKER = 1, PID_SCHED = 2, PID_ORCH = 3, PID_STRIDE = 10, PID_DIFF = 30 };

/* Greedy lane packing: a slice goes on the first sub-lane that is free by its start,
** so slices that overlap in the data never overlap on a lane. */
typedef struct lanes {
  double *last_end;
  size_t n, cap;
} lanes;

/* The sub-lane the slice [start, end) goes on (a new one when none is free). */
static size_t lane_for(lanes *l, double start, double end) {
  for (size_t i = 0; i < l->n; i++)
    if (l->last_end[i] <= start) {
      l->last_end[i] = end;
      return i;
    }
  *sl_array_push(l->last_end, l->n, l->cap) = end;
  return l->n - 1;
}

/* 1-based tid of sub-lane k of lane `base` (k above 0 sits in a block after every base lane) */
static int64_t sub_tid(size_t base, size_t k) { return (int64_t)(k * 1000 + base + 1); }

static void name_lane(sl_trace_sink *s, int64_t pid, int64_t tid, const char *base, size_t k) {
  char name[192]; /* base names are at most 160 bytes (the callers' buffers) */
  if (k) snprintf(name, sizeof name, "%s.%zu", base, k);
  else snprintf(name, sizeof name, "%s", base);
  sl_sink_thread_name(s, pid, tid, name);
  sl_sink_thread_sort(s, pid, tid, tid);
}

static uint64_t slice_id(int side, size_t row) { return ((uint64_t)side << 40) + row + 1; }

/* "AIC_0", "AIV_3": the core's type upper-cased, numbered within its type. */
static void core_lane_name(const sl_capture *c, uint32_t core, char *buf, size_t n) {
  sl_str ty = core < c->n_core_types ? c->core_types[core] : SL_STR_NONE;
  const char *t = sl_str_get(c, ty);
  uint32_t idx = 0;
  for (uint32_t i = 0; i < core && i < c->n_core_types; i++) idx += c->core_types[i] == ty;
  size_t k = 0;
  for (; t && t[k] && k + 12 < n; k++) buf[k] = (char)(t[k] >= 'a' && t[k] <= 'z' ? t[k] - 32 : t[k]);
  snprintf(buf + k, n - k, "%s_%u", k ? "" : "CORE", t ? idx : core);
}

/* Worker View: one slice per task row on its core (tid kept in row_tid for the flows). */
static void emit_workers(sl_trace_sink *s, const sl_diff_run *r, int side, int64_t pid,
                         int64_t *row_tid) {
  const sl_capture *c = r->cap;
  size_t ncores = 0;
  for (size_t i = 0; i < c->n_tasks; i++)
    if (c->tasks[i].core_id + 1u > ncores) ncores = c->tasks[i].core_id + 1u;
  lanes *per = sl_mem_calloc(ncores ? ncores : 1, sizeof *per);
  for (size_t i = 0; i < c->n_tasks; i++) {
    const sl_task *t = &c->tasks[i];
    size_t before = per[t->core_id].n, k = lane_for(&per[t->core_id], t->start_us, t->end_us);
    row_tid[i] = sub_tid(t->core_id, k);
    if (per[t->core_id].n != before) {
      char lane[64];
      core_lane_name(c, t->core_id, lane, sizeof lane);
      name_lane(s, pid, row_tid[i], lane, k);
    }
    char fname[64];
    char *label = sl_task_label(sl_diff_func_name(r, t->func_id, fname), t->task_id, 0);
    sl_arg args[] = {SL_ARG_I("func_id", t->func_id), SL_ARG_U("task_id", t->task_id)};
    sl_slice ev = {.pid = pid, .tid = row_tid[i], .ts = t->start_us, .dur = sl_task_duration_us(t),
                   .name = label, .cat = TASK_CAT, .has_id = 1,
                   .id = slice_id(side, i), .args = args, .nargs = 2};
    sl_sink_slice(s, &ev);
    sl_mem_free(label);
  }
  for (size_t i = 0; i < ncores; i++) sl_mem_free(per[i].last_end);
  sl_mem_free(per);
}

/* An orchestrator record's label stem: its kind's schema display (submit for the default), a
** kind the schema lacks by its name without the orch_ prefix. */
static const char *orch_stem(const sl_capture *c, const sl_orch_rec *o) {
  const char *ph = sl_str_get(c, o->phase);
  const sl_orch_phase_info *k = sl_orch_phase_by_name(ph ? ph : SL_ORCH_PHASE_DEFAULT);
  if (k || !ph) return k ? k->display : "?";
  return !strncmp(ph, "orch_", 5) ? ph + 5 : ph;
}

/* Scheduler phases per thread and orchestrator records per thread, packed. */
static void emit_stream(sl_trace_sink *s, int64_t pid, size_t lane, const char *lane_name,
                        const sl_capture *c, size_t first, size_t count, int orch) {
  lanes l = {0};
  for (size_t i = first; i < first + count; i++) {
    double a = orch ? c->orch[i].start_us : c->phases[i].start_us;
    double b = orch ? c->orch[i].end_us : c->phases[i].end_us;
    if (!orch && (c->phases[i].flags & (SL_PH_RETIRED | SL_PH_UNKNOWN))) continue;
    if (orch && (c->orch[i].flags & SL_ORCH_RETIRED)) continue;
    if (b < a) b = a;
    size_t before = l.n, k = lane_for(&l, a, b);
    if (l.n != before) name_lane(s, pid, sub_tid(lane, k), lane_name, k);
    char tl[32], name[64];
    if (orch) snprintf(name, sizeof name, "%s(%s)", orch_stem(c, &c->orch[i]), sl_tdisp(tl, c->orch[i].task_id));
    const char *nm = orch ? name : sl_str_get(c, c->phases[i].phase);
    sl_slice ev = {.pid = pid, .tid = sub_tid(lane, k), .ts = a, .dur = sl_ts_fit_dur(a, b),
                   .name = nm ? nm : "phase", .cat = orch ? "orchestrator" : "scheduler"};
    sl_sink_slice(s, &ev);
  }
  sl_mem_free(l.last_end);
}

static void emit_run(sl_trace_sink *s, const sl_diff_run *r, int side, int64_t *row_tid) {
  const char *tag = side ? "new" : "base";
  int64_t base = side * PID_STRIDE;
  char name[160];
  /* the groups are the schema's views of the same records (lanes.lua process names) */
  const char *views[] = {sl_view_table[SL_VIEW_WORKER_VIEW].process_name, sl_view_table[SL_VIEW_SCHEDULER].process_name,
                         sl_view_table[SL_VIEW_ORCHESTRATOR].process_name};
  const sl_capture *c = r->cap;
  int present[3] = {1, c->n_streams > 0, c->n_orch_threads > 0};
  for (int v = 0; v < 3; v++) {
    if (!present[v]) continue;
    snprintf(name, sizeof name, "%s / %s (%s)", tag, views[v], r->path);
    sl_sink_process_name(s, base + PID_WORKER + v, name);
    sl_sink_process_sort(s, base + PID_WORKER + v, base + PID_WORKER + v);
  }
  emit_workers(s, r, side, base + PID_WORKER, row_tid);
  for (size_t t = 0; t < c->n_streams; t++) {
    snprintf(name, sizeof name, "Sched_%zu", t);
    emit_stream(s, base + PID_SCHED, t, name, c, c->streams[t].first, c->streams[t].count, 0);
  }
  for (size_t t = 0; t < c->n_orch_threads; t++) {
    snprintf(name, sizeof name, "Orch_%zu", t);
    emit_stream(s, base + PID_ORCH, t, name, c, c->orch_threads[t].first, c->orch_threads[t].count, 1);
  }
}

/* One end of a matched-task flow: the start of the task's first row. Chrome DevTools binds
** a flow event only to a slice with exactly its ts (and pid, tid, cat); Perfetto binds one
** at a slice's start to that slice too. */
typedef struct flow_end {
  int side;
  size_t row;
  double at;
} flow_end;

static flow_end end_of(const sl_diff_run *r, int side, size_t task) {
  size_t row = r->tasks[task].first_row;
  return (flow_end){side, row, r->cap->tasks[row].start_us};
}

/* A flow between the two slices of each matched task, from the earlier to the later. */
static void emit_flows(sl_trace_sink *s, const sl_diff_run *b, const sl_diff_run *n,
                       const sl_diff_match *m, int64_t *const tids[2]) {
  for (size_t i = 0; i < m->n_pairs; i++) {
    flow_end e[2] = {end_of(b, 0, m->pairs[i][0]), end_of(n, 1, m->pairs[i][1])};
    int first = e[1].at < e[0].at;
    const flow_end *src = &e[first], *dst = &e[!first];
    /* the category of the task slices both ends sit on, so DevTools pairs and binds them */
    sl_flow fs = {.phase = 's', .id = i + 1, .name = "matched", .cat = TASK_CAT,
                  .pid = src->side * PID_STRIDE + PID_WORKER, .tid = tids[src->side][src->row],
                  .ts = src->at, .has_bind_id = 1, .bind_id = slice_id(src->side, src->row)};
    sl_flow ff = {.phase = 'f', .id = i + 1, .name = "matched", .cat = TASK_CAT,
                  .pid = dst->side * PID_STRIDE + PID_WORKER, .tid = tids[dst->side][dst->row],
                  .ts = dst->at, .bp_enclosing = 1, .has_bind_id = 1,
                  .bind_id = slice_id(dst->side, dst->row)};
    sl_sink_flow(s, &fs);
    sl_sink_flow(s, &ff);
  }
}

/* Busy-core step function of both runs on the shared axis. */
typedef struct busy_ev {
  double t;
  int side, step;
} busy_ev;

static int cmp_busy(const void *a, const void *b) {
  const busy_ev *p = a, *q = b;
  if (p->t != q->t) return p->t < q->t ? -1 : 1;
  return p->step - q->step; /* ends before starts at one instant */
}

static void emit_busy(sl_trace_sink *s, const sl_diff_run *b, const sl_diff_run *n) {
  size_t total = 2 * (b->cap->n_tasks + n->cap->n_tasks), k = 0;
  busy_ev *ev = sl_mem_alloc((total ? total : 1) * sizeof *ev);
  for (int side = 0; side < 2; side++) {
    const sl_capture *c = side ? n->cap : b->cap;
    for (size_t i = 0; i < c->n_tasks; i++) {
      ev[k++] = (busy_ev){c->tasks[i].start_us, side, +1};
      ev[k++] = (busy_ev){c->tasks[i].end_us, side, -1};
    }
  }
  qsort(ev, k, sizeof *ev, cmp_busy);
  sl_sink_process_name(s, PID_DIFF, "diff / busy cores");
  sl_sink_process_sort(s, PID_DIFF, PID_DIFF);
  int64_t busy[2] = {0, 0};
  for (size_t i = 0; i < k; i++) {
    busy[ev[i].side] += ev[i].step;
    if (i + 1 < k && ev[i + 1].t == ev[i].t) continue; /* one sample per instant */
    sl_arg args[] = {SL_ARG_I("new - base", busy[1] - busy[0]), SL_ARG_I("base", busy[0]),
                     SL_ARG_I("new", busy[1])};
    sl_counter c = {.pid = PID_DIFF, .tid = PID_DIFF, .ts = ev[i].t, .name = "busy cores",
                    .cat = "diff", .args = args, .nargs = 3};
    sl_sink_counter(s, &c);
  }
  sl_mem_free(ev);
}

void sl_diff_trace_emit(sl_trace_sink *sink, const sl_diff_run *base, const sl_diff_run *cur,
                        const sl_diff_match *m) {
  int64_t *tids[2] = {sl_mem_alloc((base->cap->n_tasks + 1) * sizeof(int64_t)),
                      sl_mem_alloc((cur->cap->n_tasks + 1) * sizeof(int64_t))};
  emit_run(sink, base, 0, tids[0]);
  emit_run(sink, cur, 1, tids[1]);
  emit_flows(sink, base, cur, m, tids);
  emit_busy(sink, base, cur);
  sl_mem_free(tids[0]);
  sl_mem_free(tids[1]);
}
