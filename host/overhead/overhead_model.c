/*
** overhead_model.c — the numbers of the scheduler-overhead report.
**
** In order (sl_oh_compute, each part described in docs/sched-overhead.md): fold the
** rows into logical task ids (an SPMD task has a row per block) and give each its ready
** time (the latest end of its predecessors in deps.json, else its own dispatch);
** Part 1 sweeps the sorted start / end / ready events per engine type over the
** makespan, summing the time an idle core and a ready, undispatched task coexist;
** Part 2 the per-core gaps of tasks dispatched before the previous one ended;
** Parts 3/4 every task's head (start - dispatch, or - previous end) and tail
** (finish - end); Part 5 each scheduler thread's loop budget from its records in
** start order, the gaps between them counted as idle; Part 6 the critical path back
** from the task finishing last through the predecessor with the latest end.
** Invariant: every id has one ready time and one final (latest finish) row.
**
** Float sums follow the reference's accumulation order (per-core groups in
** first-appearance order, records in time order) so the printed figures agree
** with it digit for digit.
*/
#include <stdlib.h>
#include <string.h>

#include "overhead_model.h"
#include "reader_util.h"
#include "sl_base.h"
#include "sl_map.h"
#include "sl_mem.h"
#include "sl_phases.h"
#include "sl_vec.h"

/* ---- per-task-id folding ------------------------------------------------------------ */

typedef struct idrow {
  uint64_t id;
  double disp_min, start_min, end_max, finish_max;
  uint32_t type_mask;
  size_t first_row;
} idrow;

typedef struct ids {
  size_t n;
  idrow *rows;
  sl_map index;
} ids;

static int type_index(const sl_oh_overhead *oh, sl_str s) {
  for (size_t i = 0; i < oh->n_types; i++)
    if (oh->types[i] == s) return (int)i;
  return -1;
}

static const sl_capture *g_cap; /* for sorting type names */
static int cmp_type(const void *a, const void *b) {
  return strcmp(sl_str_get(g_cap, *(const sl_str *)a), sl_str_get(g_cap, *(const sl_str *)b));
}

static int build_types(const sl_capture *c, sl_oh_overhead *oh) {
  for (size_t i = 0; i < c->n_tasks; i++) {
    sl_str t = c->tasks[i].core_type;
    const char *s = sl_str_get(c, t);
    if (!s || !*s || type_index(oh, t) >= 0) continue;
    if (oh->n_types == SL_OH_MAX_TYPES) return -1;
    oh->types[oh->n_types++] = t;
  }
  g_cap = c;
  qsort(oh->types, oh->n_types, sizeof oh->types[0], cmp_type);
  return 0;
}

static void build_ids(const sl_capture *c, const sl_oh_overhead *oh, ids *out) {
  size_t cap = 0;
  for (size_t i = 0; i < c->n_tasks; i++) {
    const sl_task *t = &c->tasks[i];
    uint64_t k;
    int ti = type_index(oh, t->core_type);
    if (sl_map_u64_get(&out->index, t->task_id, &k)) {
      idrow *r = &out->rows[k];
      if (t->dispatch_us < r->disp_min) r->disp_min = t->dispatch_us;
      if (t->start_us < r->start_min) r->start_min = t->start_us;
      if (t->end_us > r->end_max) r->end_max = t->end_us;
      if (t->finish_us > r->finish_max) r->finish_max = t->finish_us;
      if (ti >= 0) r->type_mask |= 1u << ti;
      continue;
    }
    idrow *r = sl_array_push(out->rows, out->n, cap);
    sl_map_u64_put(&out->index, t->task_id, out->n - 1);
    r->id = t->task_id;
    r->disp_min = t->dispatch_us;
    r->start_min = t->start_us;
    r->end_max = t->end_us;
    r->finish_max = t->finish_us;
    r->type_mask = ti >= 0 ? 1u << ti : 0;
    r->first_row = i;
  }
}

/* ready(id) = max end of its timed predecessors (self-edges dropped), else own dispatch */
static double ready_of(const ids *I, const sl_deps *d, const idrow *r, int *has_pred, size_t *gate) {
  size_t n;
  const uint64_t *p = sl_deps_preds(d, r->id, &n);
  double best = 0;
  int found = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t k;
    if (p[i] == r->id || !sl_map_u64_get(&I->index, p[i], &k)) continue;
    const idrow *q = &I->rows[k];
    /* max over (end, id): ties on end go to the larger id (Part 6's tuple max) */
    if (!found || q->end_max > best || (q->end_max == best && q->id > I->rows[*gate].id)) {
      best = q->end_max;
      *gate = k;
    }
    found = 1;
  }
  *has_pred = found;
  return found ? best : r->disp_min;
}

/* ---- Part 1: overhead sweep ------------------------------------------------------------ */

/* The sweep's events, one sorted list of times per (type, running / ready-waiting, +1 / -1)
** plus the window markers: 8 bytes an event, and each list sorted on its own, so the sort's
** buffer is one list, not every event. Walking the lists' heads in time order, all events at
** one time together, is the sweep over every event sorted by time. */
typedef struct tlist {
  double *t;
  size_t n, cap, at;
  int type, kind, delta; /* type -1: window marker; kind 0 running, 1 ready-waiting */
} tlist;
#define N_TLISTS (4 * SL_OH_MAX_TYPES + 1)

static double clamp(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The earliest unconsumed time over every list into *t; 0 when all are consumed. */
static int next_time(const tlist *ls, size_t nl, double *t) {
  int any = 0;
  for (size_t k = 0; k < nl; k++)
    if (ls[k].at < ls[k].n && (!any || ls[k].t[ls[k].at] < *t)) {
      *t = ls[k].t[ls[k].at];
      any = 1;
    }
  return any;
}

/* Consume every event at time a, adding their deltas to rc / wc when given. */
static void take_time(tlist *ls, size_t nl, double a, int64_t *rc, int64_t *wc) {
  for (size_t k = 0; k < nl; k++)
    for (; ls[k].at < ls[k].n && ls[k].t[ls[k].at] == a; ls[k].at++)
      if (rc && ls[k].type >= 0) (ls[k].kind == 0 ? rc : wc)[ls[k].type] += ls[k].delta;
}

static void tlists_fill(const sl_capture *c, const ids *I, const double *ready, const sl_oh_overhead *oh,
                        tlist *ls, size_t nl) {
  double w0 = oh->w0, w1 = oh->w1;
  for (size_t k = 0; k + 1 < nl; k++) ls[k] = (tlist){NULL, 0, 0, 0, (int)(k / 4), (int)(k / 2 % 2), k % 2 ? -1 : 1};
  tlist *mk = &ls[nl - 1];
  *mk = (tlist){NULL, 0, 0, 0, -1, 0, 0};
  *sl_array_push(mk->t, mk->n, mk->cap) = w0;
  *sl_array_push(mk->t, mk->n, mk->cap) = w1;
  for (size_t i = 0; i < c->n_tasks; i++) {
    int ti = type_index(oh, c->tasks[i].core_type);
    if (ti < 0) continue;
    double s = clamp(c->tasks[i].start_us, w0, w1), en = clamp(c->tasks[i].end_us, w0, w1);
    if (en > s) {
      tlist *up = &ls[4 * ti], *down = &ls[4 * ti + 1];
      *sl_array_push(up->t, up->n, up->cap) = s;
      *sl_array_push(down->t, down->n, down->cap) = en;
    }
  }
  for (size_t k = 0; k < I->n; k++) {
    double r = clamp(ready[k], w0, w1), dd = clamp(I->rows[k].disp_min, w0, w1);
    if (dd > r)
      for (size_t ti = 0; ti < oh->n_types; ti++)
        if (I->rows[k].type_mask & (1u << ti)) {
          tlist *up = &ls[4 * ti + 2], *down = &ls[4 * ti + 3];
          *sl_array_push(up->t, up->n, up->cap) = r;
          *sl_array_push(down->t, down->n, down->cap) = dd;
        }
  }
  for (size_t k = 0; k < nl; k++)
    if (ls[k].n > 1) qsort(ls[k].t, ls[k].n, sizeof *ls[k].t, cmp_double);
}

static void compute_overhead(const sl_capture *c, const ids *I, const double *ready, sl_oh_overhead *oh) {
  /* k_T */
  for (size_t ti = 0; ti < oh->n_types; ti++) {
    sl_map seen = {0};
    for (size_t i = 0; i < c->n_tasks; i++)
      if (c->tasks[i].core_type == oh->types[ti]) sl_map_u64_put(&seen, c->tasks[i].core_id, 0);
    oh->cores[ti] = seen.n;
    sl_map_free(&seen);
  }
  tlist ls[N_TLISTS];
  size_t nl = 4 * oh->n_types + 1;
  tlists_fill(c, I, ready, oh, ls, nl);
  /* distinct times */
  size_t nd = 0;
  double a = 0, b = 0;
  while (next_time(ls, nl, &a)) {
    take_time(ls, nl, a, NULL, NULL);
    nd++;
  }
  for (size_t k = 0; k < nl; k++) ls[k].at = 0;
  oh->n_steps = nd ? nd - 1 : 0;
  oh->times = sl_mem_array(NULL, oh->n_steps + 1, sizeof *oh->times);
  for (size_t ti = 0; ti < oh->n_types; ti++) oh->cum[ti] = sl_mem_array(NULL, oh->n_steps + 1, sizeof *oh->cum[ti]);
  int64_t rc[SL_OH_MAX_TYPES] = {0}, wc[SL_OH_MAX_TYPES] = {0};
  size_t step = 0;
  while (next_time(ls, nl, &a)) {
    take_time(ls, nl, a, rc, wc);
    if (!next_time(ls, nl, &b)) break; /* the last time opens no interval */
    oh->times[step] = a;
    for (size_t ti = 0; ti < oh->n_types; ti++) oh->cum[ti][step] = (int32_t)wc[ti];
    step++;
    double len = b - a;
    int all = oh->n_types > 0, any_work = 0, has = 1;
    for (size_t ti = 0; ti < oh->n_types; ti++) {
      int idle = (int64_t)oh->cores[ti] - rc[ti] > 0;
      int ov = idle && wc[ti] > 0;
      if (ov) oh->overhead_us[ti] += len;
      if (!ov) all = 0;
      if (wc[ti] > 0) {
        any_work = 1;
        if (!idle) has = 0;
      }
    }
    if (all) oh->all_overhead_us += len;
    if (any_work && has) oh->has_overhead_us += len;
  }
  for (size_t k = 0; k < nl; k++) sl_mem_free(ls[k].t);
}

/* count of undispatched-ready tasks of a type at time t (step function lookup) */
static int32_t ready_at(const sl_oh_overhead *oh, size_t ti, double t) {
  if (!oh->n_steps || t < oh->times[0]) return 0;
  size_t lo = 0, hi = oh->n_steps; /* first index with times > t */
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (oh->times[mid] <= t)
      lo = mid + 1;
    else
      hi = mid;
  }
  return oh->cum[ti][lo - 1];
}

/* ---- per-core grouping ----------------------------------------------------------------- */

typedef struct core_groups {
  size_t n_cores;
  uint32_t *core;     /* first-appearance order */
  size_t *off;        /* rows of core i: row[off[i] .. off[i+1]) */
  size_t *row;
} core_groups;

static void group_by_core(const sl_capture *c, core_groups *g) {
  sl_map idx = {0};
  size_t cap = 0;
  size_t *cnt = NULL, capc = 0;
  memset(g, 0, sizeof *g);
  for (size_t i = 0; i < c->n_tasks; i++) {
    uint64_t k;
    if (!sl_map_u64_get(&idx, c->tasks[i].core_id, &k)) {
      k = g->n_cores;
      *sl_array_push(g->core, g->n_cores, cap) = c->tasks[i].core_id;
      sl_map_u64_put(&idx, c->tasks[i].core_id, k);
      cnt = sl_array_grow(cnt, &capc, g->n_cores, sizeof *cnt);
      cnt[k] = 0;
    }
    cnt[k]++;
  }
  g->off = sl_mem_array(NULL, g->n_cores + 1, sizeof *g->off);
  g->row = sl_mem_array(NULL, c->n_tasks ? c->n_tasks : 1, sizeof *g->row);
  g->off[0] = 0;
  for (size_t i = 0; i < g->n_cores; i++) g->off[i + 1] = g->off[i] + cnt[i];
  for (size_t i = 0; i < g->n_cores; i++) cnt[i] = g->off[i];
  for (size_t i = 0; i < c->n_tasks; i++) {
    uint64_t k = 0;
    sl_map_u64_get(&idx, c->tasks[i].core_id, &k);
    g->row[cnt[k]++] = i;
  }
  sl_mem_free(cnt);
  sl_map_free(&idx);
}

static void groups_free(core_groups *g) {
  sl_mem_free(g->core);
  sl_mem_free(g->off);
  sl_mem_free(g->row);
}

static const sl_task *g_tasks;
/* stable by start (row index breaks ties) */
static int cmp_start(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  double sx = g_tasks[x].start_us, sy = g_tasks[y].start_us;
  if (sx != sy) return sx < sy ? -1 : 1;
  return x < y ? -1 : x > y;
}
/* tuple (start, end, dispatch) */
static int cmp_tuple(const void *a, const void *b) {
  const sl_task *x = &g_tasks[*(const size_t *)a], *y = &g_tasks[*(const size_t *)b];
  if (x->start_us != y->start_us) return x->start_us < y->start_us ? -1 : 1;
  if (x->end_us != y->end_us) return x->end_us < y->end_us ? -1 : 1;
  if (x->dispatch_us != y->dispatch_us) return x->dispatch_us < y->dispatch_us ? -1 : 1;
  return 0;
}

/* ---- Part 2 --------------------------------------------------------------------------- */

static void compute_switch(const sl_capture *c, const core_groups *g, const sl_oh_overhead *oh, sl_oh_switch *sw) {
  double w0 = oh->w0, w1 = oh->w1;
  int have_lower = 0;
  g_tasks = c->tasks;
  for (size_t ci = 0; ci < g->n_cores; ci++) {
    size_t *rows = g->row + g->off[ci], n = g->off[ci + 1] - g->off[ci];
    int ti = type_index(oh, c->tasks[rows[0]].core_type); /* the core's first row in task order */
    qsort(rows, n, sizeof *rows, cmp_tuple);
    double tot = 0.0;
    for (size_t i = 0; i + 1 < n; i++) {
      const sl_task *a = &c->tasks[rows[i]], *b = &c->tasks[rows[i + 1]];
      double ga = a->end_us > w0 ? a->end_us : w0, gb = b->start_us < w1 ? b->start_us : w1;
      double gap = gb - ga;
      if (gap <= 0 || !(b->dispatch_us < a->end_us)) continue;
      tot += gap;
      if (ti < 0) continue;
      sw->n_events[ti]++;
      sw->event_sum[ti] += gap;
      /* split [ga, gb] at the ready-count steps strictly inside it */
      size_t lo = 0, hi = oh->n_steps;
      while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (oh->times[mid] <= ga)
          lo = mid + 1;
        else
          hi = mid;
      }
      double prev = ga;
      for (size_t k = lo; k <= oh->n_steps; k++) {
        double next = (k < oh->n_steps && oh->times[k] < gb) ? oh->times[k] : gb;
        if (ready_at(oh, (size_t)ti, prev) > 0)
          sw->split_overhead[ti] += next - prev;
        else
          sw->split_independent[ti] += next - prev;
        if (next == gb) break;
        prev = next;
      }
    }
    if (ti < 0) continue;
    if (sw->n_cores[ti] == 0 || tot < sw->core_min[ti]) sw->core_min[ti] = tot;
    if (sw->n_cores[ti] == 0 || tot > sw->core_max[ti]) sw->core_max[ti] = tot;
    sw->core_sum[ti] += tot;
    sw->n_cores[ti]++;
    if (!have_lower || tot < sw->lower) sw->lower = tot;
    have_lower = 1;
  }
  sw->upper = 0.0;
  for (size_t ti = 0; ti < oh->n_types; ti++)
    if (sw->n_cores[ti]) sw->upper += sw->core_min[ti];
}

/* ---- Parts 3/4 -------------------------------------------------------------------------- */

static void compute_head_tail(const sl_capture *c, const core_groups *g, double *heads, double *tails) {
  size_t k = 0;
  g_tasks = c->tasks;
  for (size_t ci = 0; ci < g->n_cores; ci++) {
    size_t *rows = g->row + g->off[ci], n = g->off[ci + 1] - g->off[ci];
    qsort(rows, n, sizeof *rows, cmp_start);
    int have_last = 0;
    double last_end = 0;
    for (size_t i = 0; i < n; i++) {
      const sl_task *t = &c->tasks[rows[i]];
      double head = t->start_us - t->dispatch_us;
      if (have_last && t->start_us - last_end < head) head = t->start_us - last_end;
      heads[k] = head > 0.0 ? head : 0.0;
      double tail = t->finish_us - t->end_us;
      tails[k] = tail > 0.0 ? tail : 0.0;
      k++;
      last_end = t->end_us;
      have_last = 1;
    }
  }
}

/* ---- Part 5 ----------------------------------------------------------------------------- */

static const sl_phase_rec *g_ph;
static int cmp_phase_start(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  double sx = g_ph[x].start_us, sy = g_ph[y].start_us;
  if (sx != sy) return sx < sy ? -1 : 1;
  return x < y ? -1 : x > y;
}

static int64_t thread_of_core(const sl_capture *c, uint32_t core) {
  if (core < c->n_core_to_thread && c->core_to_thread[core] >= 0) return c->core_to_thread[core];
  return -1;
}

/* Resolve record i lies inside a complete or dummy record of its stream (TMR's
** nested resolve: already counted by its parent). Parents are written next to
** their inner records, so only neighbours are looked at. */
static int nested_resolve(const sl_capture *c, const sl_sched_stream *s, size_t i) {
  const sl_phase_rec *r = &c->phases[i];
  size_t lo = i > s->first + 16 ? i - 16 : s->first, hi = i + 16 < s->first + s->count ? i + 16 : s->first + s->count;
  for (size_t k = lo; k < hi; k++) {
    const sl_phase_rec *q = &c->phases[k];
    if ((q->phase_id == SL_PHASE_COMPLETE || q->phase_id == SL_PHASE_DUMMY) && q->start_us <= r->start_us &&
        r->end_us <= q->end_us)
      return 1;
  }
  return 0;
}

/* Does record i count in the scheduler budget (docs/sched-overhead.md): every mutually exclusive
** outer phase, and resolve unless nested in a TMR complete / dummy. */
static int in_budget(const sl_capture *c, const sl_sched_stream *s, size_t i) {
  const sl_phase_rec *p = &c->phases[i];
  if (p->phase_id < 0) return 0;
  const sl_phase_info *info = sl_phase_by_id((uint32_t)p->phase_id);
  if (!info) return 0;
  if (info->role == SL_PHASE_ROLE_OUTER) return 1;
  return info->id == SL_PHASE_RESOLVE && !nested_resolve(c, s, i);
}

/* The capture's string ids of the three work phases part 5 names. */
typedef struct work_strs {
  sl_str complete, async, dispatch;
} work_strs;

static work_strs find_work_strs(const sl_strtab *st) {
  work_strs w = {SL_STR_NONE, SL_STR_NONE, SL_STR_NONE};
  for (uint32_t i = 1; i < st->n; i++) {
    if (!strcmp(st->strs[i], sl_phase_by_id(SL_PHASE_COMPLETE)->name)) w.complete = i;
    if (!strcmp(st->strs[i], sl_phase_by_id(SL_PHASE_ASYNC_POLL)->name)) w.async = i;
    if (!strcmp(st->strs[i], sl_phase_by_id(SL_PHASE_DISPATCH)->name)) w.dispatch = i;
  }
  return w;
}

/* Logical tasks per scheduler thread: each id counted on the thread of its final
** (latest finish) row. *any_final: some row had a thread. */
static int64_t *logical_per_thread(const sl_capture *c, const ids *I, int *any_final) {
  size_t nthr = c->n_streams;
  int64_t *logical = sl_mem_calloc(nthr ? nthr : 1, sizeof *logical);
  double *fin = sl_mem_array(NULL, I->n ? I->n : 1, sizeof *fin);
  int64_t *fin_thr = sl_mem_array(NULL, I->n ? I->n : 1, sizeof *fin_thr);
  *any_final = 0;
  for (size_t k = 0; k < I->n; k++) fin_thr[k] = -1;
  for (size_t i = 0; i < c->n_tasks; i++) {
    const sl_task *t = &c->tasks[i];
    int64_t th = thread_of_core(c, t->core_id);
    if (th < 0) continue;
    uint64_t k = 0;
    sl_map_u64_get(&I->index, t->task_id, &k);
    if (fin_thr[k] < 0 || t->finish_us > fin[k]) {
      fin[k] = t->finish_us;
      fin_thr[k] = th;
    }
    *any_final = 1;
  }
  for (size_t k = 0; k < I->n; k++)
    if (fin_thr[k] >= 0 && (size_t)fin_thr[k] < nthr) logical[fin_thr[k]]++;
  sl_mem_free(fin);
  sl_mem_free(fin_thr);
  return logical;
}

/* One thread's budget from its budget records work[0..nw) in start order: each phase's
** time, the gaps between them as idle, FINs, pops, loops. */
static void thread_budget(const sl_capture *c, const work_strs *ws, const size_t *work, size_t nw,
                          sl_oh_thread *t, sl_oh_report *r) {
  int have_prev = 0;
  double prev_end = 0;
  for (size_t w = 0; w < nw; w++) {
    const sl_phase_rec *p = &c->phases[work[w]];
    int is_work = p->phase == ws->complete || p->phase == ws->async || p->phase == ws->dispatch;
    if (have_prev && p->start_us > prev_end) t->idle_us += p->start_us - prev_end;
    double dur = p->end_us - p->start_us;
    if (dur > 0) {
      if (p->phase == ws->complete)
        t->complete_us += dur;
      else if (p->phase == ws->async)
        t->async_poll_us += dur;
      else if (p->phase == ws->dispatch)
        t->dispatch_us += dur;
      else
        t->other_us[p->phase_id] += dur;
    }
    if (!is_work) r->other_records[p->phase_id]++;
    if (p->phase == ws->complete) t->finishes += sl_phase_tasks_processed(c, p);
    if (p->phase == ws->dispatch && (p->flags & SL_PH_HAS_POP)) {
      t->pop_hit += sl_phase_pop_hit(c, p);
      t->pop_miss += sl_phase_pop_miss(c, p);
    }
    int64_t loops = sl_phase_loop_iter(c, p);
    if (loops > t->loops) t->loops = loops;
    if (!have_prev || p->end_us > prev_end) prev_end = p->end_us;
    have_prev = 1;
  }
  t->total_us = t->complete_us + t->async_poll_us + t->dispatch_us + t->idle_us;
  for (uint32_t k = 0; k < SL_PHASE_ID_LIMIT; k++) t->total_us += t->other_us[k];
}

/* DAG stats per thread: the first row of each id decides its thread. */
static void thread_dag_stats(const sl_capture *c, const ids *I, const sl_deps *d, sl_oh_report *r) {
  for (size_t k = 0; k < I->n; k++) {
    int64_t th = thread_of_core(c, c->tasks[I->rows[k].first_row].core_id);
    if (th < 0) continue;
    sl_oh_thread *t = NULL;
    for (size_t j = 0; j < r->n_threads; j++)
      if ((int64_t)r->threads[j].index == th) t = &r->threads[j];
    if (!t) continue;
    size_t out, in;
    sl_deps_succs(d, I->rows[k].id, &out);
    sl_deps_preds(d, I->rows[k].id, &in);
    t->fanout_edges += (int64_t)out;
    if ((int64_t)out > t->fanout_max) t->fanout_max = (int64_t)out;
    t->fanin_edges += (int64_t)in;
    if ((int64_t)in > t->fanin_max) t->fanin_max = (int64_t)in;
  }
}

static void compute_threads(const sl_capture *c, const ids *I, const sl_deps *d, sl_oh_report *r) {
  work_strs ws = find_work_strs(&c->strings);
  size_t nthr = c->n_streams;
  int any_final;
  int64_t *logical = logical_per_thread(c, I, &any_final);
  size_t *work = NULL;
  size_t capw = 0;
  r->threads = sl_mem_calloc(nthr ? nthr : 1, sizeof *r->threads);
  for (size_t tix = 0; tix < nthr; tix++) {
    const sl_sched_stream *s = &c->streams[tix];
    size_t nw = 0;
    for (size_t i = s->first; i < s->first + s->count; i++) {
      sl_str p = c->phases[i].phase;
      if ((p != SL_STR_NONE && (p == ws.complete || p == ws.async || p == ws.dispatch)) || in_budget(c, s, i))
        *sl_array_push(work, nw, capw) = i;
    }
    if (!nw) continue;
    g_ph = c->phases;
    qsort(work, nw, sizeof *work, cmp_phase_start);
    sl_oh_thread *t = &r->threads[r->n_threads++];
    t->index = tix;
    thread_budget(c, &ws, work, nw, t, r);
    t->logical_tasks = any_final ? logical[tix] : t->finishes;
  }
  thread_dag_stats(c, I, d, r);
  sl_mem_free(work);
  sl_mem_free(logical);
}

/* ---- Part 6 ------------------------------------------------------------------------------- */

static void compute_critical(const ids *I, const sl_deps *d, double w0, sl_oh_critical *cp) {
  if (!I->n) return;
  size_t cur = 0;
  for (size_t k = 1; k < I->n; k++)
    if (I->rows[k].finish_max > I->rows[cur].finish_max) cur = k;
  double makespan_end = I->rows[cur].finish_max;
  double path_start = I->rows[cur].start_min;
  uint8_t *seen = sl_mem_calloc(I->n, 1);
  size_t cap_steps = 0;
  for (;;) {
    const idrow *r = &I->rows[cur];
    seen[cur] = 1;
    sl_oh_cp_step *st = sl_array_push(cp->steps, cp->n_steps, cap_steps);
    double ex = r->end_max - r->start_min;
    *st = (sl_oh_cp_step){.task_id = r->id, .exec = ex > 0.0 ? ex : 0.0};
    cp->exec += st->exec;
    int has;
    size_t gate = 0;
    double pend = ready_of(I, d, r, &has, &gate);
    if (!has || seen[gate]) { /* root (a cycle in a malformed DAG also ends the walk) */
      double h = r->start_min - r->disp_min;
      st->sched = h > 0.0 ? h : 0.0;
      cp->sched += st->sched;
      if (r->start_min < path_start) path_start = r->start_min;
      break;
    }
    double s = r->start_min - pend;
    st->sched = s > 0.0 ? s : 0.0;
    cp->sched += st->sched;
    cp->hops++;
    cur = gate;
    if (I->rows[cur].start_min < path_start) path_start = I->rows[cur].start_min;
  }
  (void)w0;
  sl_mem_free(seen);
  cp->span = makespan_end - path_start;
  cp->found = 1;
}

/* ---- driver -------------------------------------------------------------------------------- */

sl_status sl_oh_compute(const sl_capture *c, const sl_deps *d, sl_oh_report *r, sl_err *err) {
  memset(r, 0, sizeof *r);
  ids I = {0};
  core_groups g = {0};
  double *ready = NULL;
  r->n_tasks = c->n_tasks;
  if (!c->n_tasks) return SL_OK;
  if (build_types(c, &r->oh) != 0) return sl_err_set(err, c->path, "more than %d core types", SL_OH_MAX_TYPES);
  r->oh.w0 = c->tasks[0].start_us;
  r->oh.w1 = c->tasks[0].end_us;
  for (size_t i = 1; i < c->n_tasks; i++) {
    if (c->tasks[i].start_us < r->oh.w0) r->oh.w0 = c->tasks[i].start_us;
    if (c->tasks[i].end_us > r->oh.w1) r->oh.w1 = c->tasks[i].end_us;
  }
  build_ids(c, &r->oh, &I);
  ready = sl_mem_array(NULL, I.n, sizeof *ready);
  r->heads = sl_mem_array(NULL, c->n_tasks, sizeof *r->heads);
  r->tails = sl_mem_array(NULL, c->n_tasks, sizeof *r->tails);
  for (size_t k = 0; k < I.n; k++) {
    int has;
    size_t gate = 0;
    ready[k] = ready_of(&I, d, &I.rows[k], &has, &gate);
  }
  compute_overhead(c, &I, ready, &r->oh);
  group_by_core(c, &g);
  compute_switch(c, &g, &r->oh, &r->sw);
  compute_head_tail(c, &g, r->heads, r->tails);
  compute_threads(c, &I, d, r);
  compute_critical(&I, d, r->oh.w0, &r->cp);
  sl_mem_free(ready);
  groups_free(&g);
  sl_mem_free(I.rows);
  sl_map_free(&I.index);
  return SL_OK;
}

void sl_oh_report_free(sl_oh_report *r) {
  sl_mem_free(r->oh.times);
  for (size_t i = 0; i < SL_OH_MAX_TYPES; i++) sl_mem_free(r->oh.cum[i]);
  sl_mem_free(r->heads);
  sl_mem_free(r->tails);
  sl_mem_free(r->threads);
  sl_mem_free(r->cp.steps);
  memset(r, 0, sizeof *r);
}
