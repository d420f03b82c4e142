/*
** convert_flows.c — the arrows (docs/convert.md): dependency / hb_violation
** flows from deps.json on the Worker View and its Scheduler View mirror, complete
** arrows, complete→ready, dispatch and submit→dispatch, in that order.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert_ctx.h"
#include "convert_labels.h"
#include "sl_base.h"
#include "sl_mem.h"
#include "sl_vec.h"
#include "sl_phases.h"

/* Flow names are schema data (lanes.lua flows). */
#define FLOW(id) (sl_flow_table[id].name)

/* One endpoint candidate of a logical task in one view. */
typedef struct endpoint {
  double start;     /* the view's slice start */
  double end;       /* pred end time (hb test) */
  int64_t tid;
  uint64_t bind;
  int has_bind;
  size_t row;       /* task row, or SIZE_MAX for an AICPU anchor */
} endpoint;

typedef struct eplist {
  endpoint *v;
  size_t n, cap;
} eplist;

static void ep_push(eplist *l, endpoint e) { sl_vec_push(l, e); }

enum view { WORKER, SCHED };

static int sched_covers(const sl_ctx *x, int64_t thread, double t);

static double view_start(const sl_task *t, enum view v) {
  if (v == WORKER) return t->receive_us;
  return (t->dispatch_us >= 0 && t->finish_us > 0) ? t->dispatch_us : INFINITY;
}

/* Anchor rows of a logical task for a view. with_aicpu: fall back to
** AICPU anchors (Worker View dependency flows only). Returns the count. */
static size_t anchors_of(sl_ctx *x, uint64_t id, enum view v, int with_aicpu, eplist *out) {
  out->n = 0;
  const sl_capture *c = x->c;
  const sl_group *g = sl_ctx_group(x, id);
  if (g) {
    if (!g->spmd) {
      for (uint32_t k = 0; k < g->count; k++) {
        size_t i = g->first + k;
        const sl_task *t = &c->tasks[i];
        endpoint e = {view_start(t, v), t->end_us,
                      v == WORKER ? sl_core_tid(x, t->core_id) : x->row_sv_tid[i],
                      v == WORKER ? x->row_bind[i] : x->row_sv_eid[i],
                      v == WORKER ? 1 : x->row_sv_eid[i] != SL_NO_EVENT, i};
        ep_push(out, e);
      }
      return out->n;
    }
    /* SPMD: per function (first-appearance order) the earliest slice, core id
    ** breaking ties, the first row winning full ties */
    for (uint32_t k = 0; k < g->count; k++) {
      const sl_task *t = &c->tasks[g->first + k];
      int seen = 0;
      for (uint32_t j = 0; j < k; j++)
        if (c->tasks[g->first + j].func_id == t->func_id) seen = 1;
      if (seen) continue;
      size_t best = g->first + k;
      for (uint32_t j = k + 1; j < g->count; j++) {
        size_t i = g->first + j;
        const sl_task *u = &c->tasks[i];
        if (u->func_id != t->func_id) continue;
        double su = view_start(u, v), sb = view_start(&c->tasks[best], v);
        if (su < sb || (su == sb && u->core_id < c->tasks[best].core_id)) best = i;
      }
      const sl_task *b = &c->tasks[best];
      endpoint e = {view_start(b, v), b->end_us,
                    v == WORKER ? sl_core_tid(x, b->core_id) : x->row_sv_tid[best],
                    v == WORKER ? x->row_bind[best] : x->row_sv_eid[best],
                    v == WORKER ? 1 : x->row_sv_eid[best] != SL_NO_EVENT, best};
      ep_push(out, e);
    }
    return out->n;
  }
  if (!with_aicpu) return 0;
  size_t first, n = sl_ctx_anchors(x, id, &first);
  int spmd = x->d && sl_deps_block_num(x->d, id) > 1;
  size_t best = first;
  for (size_t k = 0; k < n; k++) {
    const sl_anchor *a = &x->anchors[first + k];
    if (spmd) {
      if (a->start < x->anchors[best].start) best = first + k;
      continue;
    }
    endpoint e = {a->start, a->end, a->tid, a->event_id, 1, SIZE_MAX};
    ep_push(out, e);
  }
  if (spmd && n > 0) {
    const sl_anchor *a = &x->anchors[best];
    endpoint e = {a->start, a->end, a->tid, a->event_id, 1, SIZE_MAX};
    ep_push(out, e);
  }
  return out->n;
}

/* Fan degree of a logical task (input/output_task_count). */
static int64_t fan_of(const sl_ctx *x, uint64_t id) {
  const sl_group *g = sl_ctx_group(x, id);
  int64_t bn = x->d ? sl_deps_block_num(x->d, id) : 0;
  int spmd = g ? g->spmd : bn > 1;
  if (!spmd) return 1;
  if (bn > 0) return bn;
  return g ? g->count : 1;
}

static void dep_flows(sl_ctx *x, enum view v) {
  const sl_deps *d = x->d;
  eplist ps = {0}, ss = {0};
  int64_t pid = v == WORKER ? x->pid_worker : x->pid_sv;
  char a[32], b[32];
  for (size_t pi = 0; pi < d->n_preds && !x->failed; pi++) {
    uint64_t pred = d->preds[pi];
    if (!anchors_of(x, pred, v, v == WORKER, &ps)) continue;
    int64_t out_cnt = fan_of(x, pred);
    for (size_t si = d->succ_off[pi]; si < d->succ_off[pi + 1]; si++) {
      uint64_t succ = d->succs[si];
      if (!anchors_of(x, succ, v, v == WORKER, &ss)) {
        if (v == WORKER && x->o->verbose)
          sl_ctx_warn(x, d->path, "task %s (raw %llu) references non-existent successor %s (raw %llu)",
                      sl_tdisp(a, pred), (unsigned long long)pred, sl_tdisp(b, succ),
                      (unsigned long long)succ);
        continue;
      }
      int64_t in_cnt = fan_of(x, succ);
      for (size_t i = 0; i < ps.n; i++) {
        const endpoint *p = &ps.v[i];
        for (size_t j = 0; j < ss.n; j++) {
          const endpoint *s = &ss.v[j];
          const char *name;
          if (v == WORKER) {
            name = FLOW(p->end > s->start ? SL_FLOW_HB_VIOLATION : SL_FLOW_DEPENDENCY);
          } else {
            const sl_task *pt = &x->c->tasks[p->row], *st = &x->c->tasks[s->row];
            if (pt->dispatch_us < 0 || pt->finish_us <= 0 || st->dispatch_us < 0 ||
                st->finish_us <= 0)
              continue;
            name = FLOW(pt->finish_us > st->dispatch_us ? SL_FLOW_HB_VIOLATION : SL_FLOW_DEPENDENCY);
          }
          sl_arg counts[] = {SL_ARG_I("input_task_count", in_cnt),
                             SL_ARG_I("output_task_count", out_cnt)};
          uint64_t id = x->flow_id++;
          sl_flow fs = {.phase = 's', .id = id, .name = name, .cat = "flow", .pid = pid,
                        .tid = p->tid, .ts = p->start, .has_bind_id = p->has_bind,
                        .bind_id = p->bind, .extra = counts, .nextra = 2};
          sl_flow ff = {.phase = 'f', .id = id, .name = name, .cat = "flow", .pid = pid,
                        .tid = s->tid, .ts = s->start, .bp_enclosing = 1,
                        .has_bind_id = s->has_bind, .bind_id = s->bind, .extra = counts,
                        .nextra = 2};
          sl_ctx_flow_pair(x, &fs, &ff);
          if (v == WORKER) {
            x->res->dep_pairs++;
            if (name[0] == 'h') x->res->hb_pairs++;
          }
        }
      }
    }
  }
  sl_mem_free(ps.v);
  sl_mem_free(ss.v);
}

/* Per logical task, the complete record that observed its last finish. */
typedef struct completion {
  long comp;        /* phase index or -1 */
  int64_t thread;
  double finish;    /* last finish */
} completion;

static completion *find_completions(sl_ctx *x) {
  const sl_capture *c = x->c;
  completion *cp = sl_mem_calloc(x->ngroups ? x->ngroups : 1, sizeof *cp);
  for (size_t g = 0; g < x->ngroups; g++) {
    const sl_group *gr = &x->groups[g];
    cp[g].comp = -1;
    size_t last = SIZE_MAX;
    for (uint32_t k = 0; k < gr->count; k++) {
      size_t i = gr->first + k;
      if (c->tasks[i].finish_us < 0) continue;
      if (last == SIZE_MAX || c->tasks[i].finish_us > c->tasks[last].finish_us) last = i;
    }
    if (last == SIZE_MAX) continue;
    uint32_t core = c->tasks[last].core_id;
    if (core >= c->n_core_to_thread) continue;
    int64_t th = c->core_to_thread[core];
    cp[g].comp = sl_ctx_complete_lookup(x, th, c->tasks[last].finish_us); /* -1 off the streams */
    cp[g].thread = th;
    cp[g].finish = c->tasks[last].finish_us;
  }
  return cp;
}

static void complete_flows(sl_ctx *x, const completion *cp) {
  const sl_capture *c = x->c;
  eplist eps = {0};
  for (size_t g = 0; g < x->ngroups && !x->failed; g++) {
    if (cp[g].comp < 0) continue;
    const sl_phase_rec *p = &c->phases[cp[g].comp];
    double dst = (p->start_us <= cp[g].finish && cp[g].finish <= p->end_us) ? cp[g].finish
                                                                           : p->start_us;
    int64_t dtid = sl_sched_tid(x, cp[g].thread);
    uint64_t tid_g = x->groups[g].task_id;
    for (int v = WORKER; v <= SCHED; v++) {
      anchors_of(x, tid_g, (enum view)v, 0, &eps);
      for (size_t i = 0; i < eps.n; i++) {
        const sl_task *t = &c->tasks[eps.v[i].row];
        if (v == SCHED && !(t->finish_us > 0)) continue;
        uint64_t id = x->flow_id++;
        sl_flow fs = {.phase = 's', .id = id, .name = FLOW(SL_FLOW_COMPLETE), .cat = "flow",
                      .pid = v == WORKER ? x->pid_worker : x->pid_sv, .tid = eps.v[i].tid,
                      .ts = (v == WORKER ? t->end_us : t->finish_us) - 0.01,
                      .has_bind_id = eps.v[i].has_bind, .bind_id = eps.v[i].bind};
        sl_flow ff = {.phase = 'f', .id = id, .name = FLOW(SL_FLOW_COMPLETE), .cat = "flow",
                      .pid = x->pid_sched, .tid = dtid, .ts = dst, .bp_enclosing = 1};
        sl_ctx_flow_pair(x, &fs, &ff);
      }
    }
  }
  sl_mem_free(eps.v);
}

/* 12 bytes (a 1M-task capture has ~1M complete records, and qsort copies them once more):
** phase and group indices fit 32 bits (ready_flows checks). */
typedef struct comp_order {
  uint32_t phase;
  uint32_t thread;
  uint32_t seq;
} comp_order;

static int comp_order_cmp(const void *a, const void *b, const sl_phase_rec *ph) {
  const comp_order *p = a, *q = b;
  double ea = ph[p->phase].end_us, eb = ph[q->phase].end_us;
  if (ea != eb) return ea < eb ? -1 : 1;
  if (p->thread != q->thread) return p->thread < q->thread ? -1 : 1;
  return p->seq < q->seq ? -1 : p->seq > q->seq;
}

static const sl_phase_rec *g_sort_phases; /* qsort has no context argument */
static int comp_order_qcmp(const void *a, const void *b) {
  return comp_order_cmp(a, b, g_sort_phases);
}

/* Complete -> ready, when a consumer's last predecessor completes. */
static void ready_flows(sl_ctx *x, const completion *cp) {
  const sl_capture *c = x->c;
  size_t ncomp = x->comp_off[c->n_streams];
  if (c->n_phases >= UINT32_MAX || x->ngroups >= UINT32_MAX) sl_mem_fail(SIZE_MAX); /* 32-bit indices */
  comp_order *ord = sl_mem_calloc(ncomp ? ncomp : 1, sizeof *ord);
  uint32_t *bucket_off = sl_mem_calloc(c->n_phases + 1, sizeof *bucket_off);
  uint32_t *bucket = sl_mem_calloc(x->ngroups ? x->ngroups : 1, sizeof *bucket);
  uint32_t *satisfied = sl_mem_calloc(x->ngroups ? x->ngroups : 1, sizeof *satisfied);
  size_t k = 0;
  for (size_t t = 0; t < c->n_streams; t++)
    for (size_t i = x->comp_off[t]; i < x->comp_off[t + 1]; i++)
      ord[k] = (comp_order){(uint32_t)x->comp_idx[i], (uint32_t)t, (uint32_t)k}, k++;
  g_sort_phases = c->phases;
  qsort(ord, ncomp, sizeof *ord, comp_order_qcmp);
  /* tasks per complete, in task order (counting sort on the phase index) */
  for (size_t g = 0; g < x->ngroups; g++)
    if (cp[g].comp >= 0) bucket_off[cp[g].comp + 1]++;
  for (size_t i = 0; i < c->n_phases; i++) bucket_off[i + 1] += bucket_off[i];
  {
    uint32_t *fill = sl_mem_calloc(c->n_phases + 1, sizeof *fill);
    for (size_t g = 0; g < x->ngroups; g++)
      if (cp[g].comp >= 0) bucket[bucket_off[cp[g].comp] + fill[cp[g].comp]++] = (uint32_t)g;
    sl_mem_free(fill);
  }
  for (size_t o = 0; o < ncomp && !x->failed; o++) {
    const sl_phase_rec *p = &c->phases[ord[o].phase];
    for (size_t b = bucket_off[ord[o].phase]; b < bucket_off[ord[o].phase + 1]; b++) {
      size_t ns;
      const uint64_t *succ = sl_deps_succs(x->d, x->groups[bucket[b]].task_id, &ns);
      for (size_t s = 0; s < ns; s++) {
        const sl_group *cg = sl_ctx_group(x, succ[s]);
        if (!cg) continue; /* no rows: never dispatched */
        size_t gi = (size_t)(cg - x->groups);
        size_t total;
        sl_deps_preds(x->d, succ[s], &total);
        if (++satisfied[gi] != total) continue;
        /* earliest dispatch row of the consumer */
        size_t best = SIZE_MAX;
        for (uint32_t r = 0; r < cg->count; r++) {
          size_t i = cg->first + r;
          if (c->tasks[i].dispatch_us < 0) continue;
          if (best == SIZE_MAX || c->tasks[i].dispatch_us < c->tasks[best].dispatch_us) best = i;
        }
        if (best == SIZE_MAX) continue;
        uint32_t core = c->tasks[best].core_id;
        int64_t dth = core < c->n_core_to_thread ? c->core_to_thread[core] : -1;
        if (dth < 0) continue;
        if (c->tasks[best].dispatch_us < p->end_us) continue;
        if (!sched_covers(x, ord[o].thread, p->end_us - 0.01) ||
            !sched_covers(x, dth, c->tasks[best].dispatch_us))
          continue;
        uint64_t id = x->flow_id++;
        sl_flow fs = {.phase = 's', .id = id, .name = FLOW(SL_FLOW_COMPLETE_READY), .cat = "flow",
                      .pid = x->pid_sched, .tid = sl_sched_tid(x, ord[o].thread),
                      .ts = p->end_us - 0.01};
        sl_flow ff = {.phase = 'f', .id = id, .name = FLOW(SL_FLOW_COMPLETE_READY), .cat = "flow",
                      .pid = x->pid_sched, .tid = sl_sched_tid(x, dth),
                      .ts = c->tasks[best].dispatch_us, .bp_enclosing = 1};
        sl_ctx_flow_pair(x, &fs, &ff);
      }
    }
  }
  sl_mem_free(ord);
  sl_mem_free(bucket_off);
  sl_mem_free(bucket);
  sl_mem_free(satisfied);
}

/* Sched lane -> Worker bar (kernel start) and -> Scheduler View bar. */
static void dispatch_flows(sl_ctx *x) {
  const sl_capture *c = x->c;
  for (size_t i = 0; i < c->n_tasks; i++) {
    const sl_task *t = &c->tasks[i];
    if (t->dispatch_us < 0) continue;
    int64_t th = t->core_id < x->ncores ? x->core_thread[t->core_id] : -1;
    if (th < 0 || !sched_covers(x, th, t->dispatch_us)) continue;
    int64_t stid = sl_sched_tid(x, th);
    uint64_t id = x->flow_id++;
    sl_flow s1 = {.phase = 's', .id = id, .name = FLOW(SL_FLOW_DISPATCH), .cat = "flow", .pid = x->pid_sched,
                  .tid = stid, .ts = t->dispatch_us};
    sl_flow f1 = {.phase = 'f', .id = id, .name = FLOW(SL_FLOW_DISPATCH), .cat = "flow", .pid = x->pid_worker,
                  .tid = sl_core_tid(x, t->core_id), .ts = t->start_us, .bp_enclosing = 1};
    sl_ctx_flow_pair(x, &s1, &f1);
    id = x->flow_id++;
    sl_flow s2 = s1, f2 = {.phase = 'f', .id = id, .name = FLOW(SL_FLOW_DISPATCH), .cat = "flow",
                           .pid = x->pid_sv, .tid = x->row_sv_tid[i], .ts = t->dispatch_us,
                           .bp_enclosing = 1};
    s2.id = id;
    if (x->row_sv_eid[i] != SL_NO_EVENT) {
      f2.has_bind_id = 1;
      f2.bind_id = x->row_sv_eid[i];
    }
    sl_ctx_flow_pair(x, &s2, &f2);
  }
}

/* The orchestrator arrow's name: its pattern with "{display}" = the kind's label. */
static void orch_flow_name(char *out, size_t n, const char *display) {
  const char *pat = FLOW(SL_FLOW_ORCH_DISPATCH), *at = strstr(pat, "{display}");
  if (!at) {
    snprintf(out, n, "%s", pat);
    return;
  }
  snprintf(out, n, "%.*s%s%s", (int)(at - pat), pat, display, at + strlen("{display}"));
}

typedef struct submit_anchor {
  uint64_t task_id;
  int prio;          /* the kind's dispatch_flow rank (phases.lua orch_phases) */
  const char *display;
  size_t seq;
  double start, end;
  int64_t thread;
} submit_anchor;

static int submit_cmp(const void *a, const void *b) {
  const submit_anchor *p = a, *q = b;
  if (p->task_id != q->task_id) return p->task_id < q->task_id ? -1 : 1;
  if (p->prio != q->prio) return p->prio - q->prio;
  return p->seq < q->seq ? -1 : p->seq > q->seq;
}

/* Orchestrator submit end -> the dispatch on the Sched lane. */
static void submit_flows(sl_ctx *x) {
  const sl_capture *c = x->c;
  submit_anchor *sa = sl_mem_calloc(c->n_orch ? c->n_orch : 1, sizeof *sa);
  size_t n = 0;
  for (size_t th = 0; th < c->n_orch_threads; th++) {
    const sl_orch_thread *ot = &c->orch_threads[th];
    for (size_t i = ot->first; i < ot->first + ot->count; i++) {
      const sl_orch_rec *o = &c->orch[i];
      if (!(o->flags & SL_ORCH_HAS_TASK_ID) || o->task_id_signed < 0) continue;
      const char *ph = sl_str_get(c, o->phase);
      const sl_orch_phase_info *k = ph ? sl_orch_phase_by_name(ph) : sl_orch_phase_by_name(SL_ORCH_PHASE_DEFAULT);
      if (!k || k->dispatch_flow < 0) continue;
      sa[n++] = (submit_anchor){o->task_id, k->dispatch_flow, k->display, i, o->start_us, o->end_us, (int64_t)th};
    }
  }
  qsort(sa, n, sizeof *sa, submit_cmp);
  for (size_t i = 0; i < c->n_tasks && n > 0; i++) {
    const sl_task *t = &c->tasks[i];
    if (t->dispatch_us < 0) continue;
    int64_t th = t->core_id < x->ncores ? x->core_thread[t->core_id] : -1;
    if (th < 0 || !sched_covers(x, th, t->dispatch_us)) continue;
    size_t lo = 0, hi = n;
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (sa[mid].task_id < t->task_id)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (lo == n || sa[lo].task_id != t->task_id) continue;
    const submit_anchor *a = &sa[lo];
    /* The scheduler may dispatch a task before its submit call returns: then start
    ** the arrow at the dispatch, still inside the submit bar, instead of drawing a
    ** reverse-time flow Perfetto cannot show (the reference always uses the end). */
    double src_ts = a->end;
    if (t->dispatch_us < a->end) {
      if (t->dispatch_us < a->start) continue;
      src_ts = t->dispatch_us;
    }
    uint64_t id = x->flow_id++;
    char name[96];
    orch_flow_name(name, sizeof name, a->display);
    sl_flow fs = {.phase = 's', .id = id, .name = name, .cat = "flow",
                  .pid = x->pid_orch, .tid = x->orch_base + a->thread, .ts = src_ts};
    sl_flow ff = {.phase = 'f', .id = id, .name = name, .cat = "flow",
                  .pid = x->pid_sched, .tid = sl_sched_tid(x, th), .ts = t->dispatch_us,
                  .bp_enclosing = 1};
    sl_ctx_flow_pair(x, &fs, &ff);
  }
  sl_mem_free(sa);
}

typedef struct cover_item {
  double start, end;
} cover_item;

static int cover_cmp(const void *a, const void *b) {
  const cover_item *p = a, *q = b;
  return p->start < q->start ? -1 : p->start > q->start;
}

/* Index the main-lane bars of every scheduler thread (see sl_ctx.cover_*). */
static void build_cover(sl_ctx *x) {
  const sl_capture *c = x->c;
  size_t nt = c->n_streams;
  x->cover_off = sl_mem_calloc(nt + 1, sizeof *x->cover_off);
  x->cover_start = sl_mem_array(NULL, c->n_phases + 1, sizeof *x->cover_start);
  x->cover_maxend = sl_mem_array(NULL, c->n_phases + 1, sizeof *x->cover_maxend);
  cover_item *items = sl_mem_array(NULL, c->n_phases + 1, sizeof *items);
  size_t k = 0;
  for (size_t t = 0; t < nt; t++) {
    x->cover_off[t] = k;
    const sl_sched_stream *st = &c->streams[t];
    size_t first = k;
    for (size_t i = st->first; i < st->first + st->count; i++)
      if (x->phase_main && x->phase_main[i])
        items[k++] = (cover_item){c->phases[i].start_us, c->phases[i].end_us};
    qsort(items + first, k - first, sizeof *items, cover_cmp);
    double m = -INFINITY;
    for (size_t i = first; i < k; i++) {
      if (items[i].end > m) m = items[i].end;
      x->cover_start[i] = items[i].start;
      x->cover_maxend[i] = m;
    }
  }
  x->cover_off[nt] = k;
  sl_mem_free(items);
}

/* Does a bar on the main Sched lane of `thread` enclose t? (An arrow end outside
** every bar would be dropped by Perfetto: flow_no_enclosing_slice.) */
static int sched_covers(const sl_ctx *x, int64_t thread, double t) {
  if (thread < 0 || (size_t)thread >= x->c->n_streams || !x->cover_off) return 0;
  size_t lo = x->cover_off[thread], hi = x->cover_off[thread + 1], a = lo;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (x->cover_start[mid] <= t)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo > a && x->cover_maxend[lo - 1] >= t;
}

void sl_emit_flows(sl_ctx *x) {
  build_cover(x);
  if (x->failed) return;
  const sl_capture *c = x->c;
  int deps = x->d && x->d->has_edges;
  if (deps) dep_flows(x, WORKER);
  if (deps && x->has_aicpu_data && !x->failed) dep_flows(x, SCHED);
  int phases = c->n_streams > 0;
  if (phases && c->n_core_to_thread > 0 && !x->failed) {
    completion *cp = find_completions(x);
    complete_flows(x, cp);
    if (deps && !x->failed) ready_flows(x, cp);
    sl_mem_free(cp);
  }
  if (phases && x->has_aicpu_data && !x->failed) dispatch_flows(x);
  /* a host submit's end and a device dispatch are on one axis only when calibrated and
  ** every host record is present: otherwise no submit→dispatch arrow */
  if (phases && c->n_orch > 0 && x->has_aicpu_data && sl_host_cross_domain(c) && !x->failed) submit_flows(x);
}
