/*
** diff_report.c — the numbers of the diff report. Per-function averages come from
** the converter's summary (sl_convert_func_stats), the critical path from the
** sched-overhead model (sl_oh_compute); this file only lines the two sides up.
**
** "Contribution to the makespan": the makespan-determining path of a run splits the
** makespan into pieces: each task's execution, the scheduling wait before it, and what
** lies off the path (lead-in, tail). A function's contribution is the execution of its
** tasks on the path; the waits are the scheduler's, reported on their own row (a wait
** grows when the scheduler is slow, not when the task is). The makespan delta is
** exactly the sum of the contribution deltas, the waits delta and the off-path delta.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "convert_labels.h"
#include "overhead_model.h"
#include "sl_base.h"
#include "sl_convert.h"
#include "sl_diff.h"
#include "sl_levels.h"
#include "sl_mem.h"
#include "sl_vec.h"

const char *const sl_func_metric_names[SL_FM_COUNT] = {"contribution", "exec", "latency", "head",
                                                        "tail"};

/* ---- per-run helpers -------------------------------------------------------------- */

static int run_level(const sl_diff_run *r, size_t n) {
  int lv = r[0].cap->level;
  for (size_t i = 1; i < n; i++)
    if (r[i].cap->level < lv) lv = r[i].cap->level;
  return lv;
}

/* The row of `id` that ends last (the kernel that gates the task), or NULL. */
static const sl_task *gating_row(const sl_capture *c, uint64_t id) {
  size_t lo = 0, hi = c->n_tasks; /* tasks are sorted by task_id */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (c->tasks[mid].task_id < id) lo = mid + 1;
    else hi = mid;
  }
  const sl_task *best = NULL;
  for (size_t i = lo; i < c->n_tasks && c->tasks[i].task_id == id; i++)
    if (!best || c->tasks[i].end_us > best->end_us) best = &c->tasks[i];
  return best;
}

static size_t find_task(const sl_diff_run *r, int64_t func, uint64_t id) {
  size_t lo = 0, hi = r->n_tasks;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const sl_diff_task *t = &r->tasks[mid];
    if (t->func_id < func || (t->func_id == func && t->task_id < id)) lo = mid + 1;
    else hi = mid;
  }
  return lo < r->n_tasks && r->tasks[lo].func_id == func && r->tasks[lo].task_id == id ? lo
                                                                                      : SIZE_MAX;
}

/* Critical path of one run (the overhead model's Part 6). */
typedef struct run_path {
  sl_oh_report oh;
  double exec, waits; /* sums over the path's steps */
} run_path;

static int path_of(const sl_diff_run *r, run_path *p) {
  memset(p, 0, sizeof *p);
  sl_err err = SL_ERR_INIT;
  if (sl_oh_compute(r->cap, r->deps, &p->oh, &err) != SL_OK) return sl_err_report(&err), -1;
  for (size_t i = 0; i < p->oh.cp.n_steps; i++) {
    p->exec += p->oh.cp.steps[i].exec;
    p->waits += p->oh.cp.steps[i].sched;
  }
  return 0;
}

static double contribution(const sl_diff_run *r, const run_path *p, int64_t func) {
  double s = 0;
  for (size_t i = 0; i < p->oh.cp.n_steps; i++) {
    const sl_task *t = gating_row(r->cap, p->oh.cp.steps[i].task_id);
    if (t && t->func_id == func) s += p->oh.cp.steps[i].exec;
  }
  return s;
}

/* ---- per-function rows -------------------------------------------------------------- */

/* One metric value of a row; NAN when the row has no scheduler timing. */
static double row_metric(const sl_task *t, int metric) {
  int timed = (t->flags & SL_TASK_HAS_SCHED) != 0;
  switch (metric) {
  case SL_FM_EXEC: return sl_task_duration_us(t);
  case SL_FM_LATENCY: return timed ? t->finish_us - t->dispatch_us : NAN;
  case SL_FM_HEAD: return timed ? t->start_us - t->dispatch_us : NAN;
  case SL_FM_TAIL: return timed ? t->finish_us - t->end_us : NAN;
  default: return NAN;
  }
}

static double stat_metric(const sl_func_stat *f, int metric) {
  if (!f) return NAN;
  switch (metric) {
  case SL_FM_EXEC: return f->count ? f->sum_exec / (double)f->count : NAN;
  case SL_FM_LATENCY: return f->n_head ? f->sum_latency / (double)f->n_head : NAN;
  case SL_FM_HEAD: return f->n_head ? f->sum_head / (double)f->n_head : NAN;
  case SL_FM_TAIL: return f->n_head ? f->sum_tail / (double)f->n_head : NAN;
  default: return NAN;
  }
}

typedef struct side {
  sl_diff_run *runs;
  size_t n;
  sl_func_stat **stats;   /* [n] per capture */
  size_t *n_stats;
  run_path *paths;        /* [n] when has_deps */
} side;

static const sl_func_stat *stat_of(const side *s, size_t i, int64_t func) {
  for (size_t k = 0; k < s->n_stats[i]; k++)
    if (s->stats[i][k].func_id == func) return &s->stats[i][k];
  return NULL;
}

/* Samples of one metric of one function on one side: a value per capture, or per
** row when each side is a single capture (per_row). NANs (missing) are dropped. */
static size_t samples(const side *s, int64_t func, int metric, int has_deps, int per_row,
                      double *out) {
  size_t n = 0;
  if (metric != SL_FM_CONTRIB && per_row) {
    const sl_capture *c = s->runs[0].cap;
    for (size_t i = 0; i < c->n_tasks; i++)
      if (c->tasks[i].func_id == func) {
        double v = row_metric(&c->tasks[i], metric);
        if (!isnan(v)) out[n++] = v;
      }
    return n;
  }
  for (size_t i = 0; i < s->n; i++) {
    double v = metric == SL_FM_CONTRIB
                   ? (has_deps ? contribution(&s->runs[i], &s->paths[i], func) : NAN)
                   : stat_metric(stat_of(s, i, func), metric);
    if (!isnan(v)) out[n++] = v;
  }
  return n;
}

/* Sort key: the contribution delta, or the total Exec delta without a DAG. */
static double sort_key(const sl_diff_func_row *r) {
  if (!isnan(r->m[SL_FM_CONTRIB].delta)) return r->m[SL_FM_CONTRIB].delta;
  double b = isnan(r->m[SL_FM_EXEC].base) ? 0 : r->m[SL_FM_EXEC].base * (double)r->count_base;
  double c = isnan(r->m[SL_FM_EXEC].cur) ? 0 : r->m[SL_FM_EXEC].cur * (double)r->count_cur;
  return c - b;
}

static int cmp_func_rows(const void *a, const void *b) {
  const sl_diff_func_row *p = a, *q = b;
  double x = sort_key(p), y = sort_key(q);
  if (x != y) return x > y ? -1 : 1; /* largest first */
  return p->func_id < q->func_id ? -1 : p->func_id > q->func_id;
}

static void add_func_id(int64_t **ids, size_t *n, size_t *cap, int64_t id) {
  for (size_t i = 0; i < *n; i++)
    if ((*ids)[i] == id) return;
  *sl_array_push(*ids, *n, *cap) = id;
}

static void build_funcs(const side *b, const side *n, int has_deps, sl_diff_report *rep) {
  int64_t *ids = NULL;
  size_t nid = 0, capid = 0;
  for (int s = 0; s < 2; s++) {
    const side *sd = s ? n : b;
    for (size_t i = 0; i < sd->n; i++)
      for (size_t k = 0; k < sd->n_stats[i]; k++)
        add_func_id(&ids, &nid, &capid, sd->stats[i][k].func_id);
  }
  size_t most = b->runs[0].cap->n_tasks > n->runs[0].cap->n_tasks ? b->runs[0].cap->n_tasks
                                                                   : n->runs[0].cap->n_tasks;
  if (b->n > most) most = b->n;
  if (n->n > most) most = n->n;
  double *xb = sl_mem_alloc((most + 1) * sizeof *xb), *xn = sl_mem_alloc((most + 1) * sizeof *xn);
  rep->funcs = sl_mem_calloc(nid ? nid : 1, sizeof *rep->funcs);
  rep->n_funcs = nid;
  for (size_t f = 0; f < nid; f++) {
    sl_diff_func_row *row = &rep->funcs[f];
    row->func_id = ids[f];
    sl_diff_func_name(&b->runs[0], ids[f], row->name);
    const sl_func_stat *sb = stat_of(b, 0, ids[f]), *sn = stat_of(n, 0, ids[f]);
    row->count_base = sb ? sb->count : 0;
    row->count_cur = sn ? sn->count : 0;
    for (int m = 0; m < SL_FM_COUNT; m++) {
      int per_row = b->n == 1 && n->n == 1;
      size_t kb = samples(b, ids[f], m, has_deps, per_row, xb);
      size_t kn = samples(n, ids[f], m, has_deps, per_row, xn);
      row->m[m] = sl_diff_delta(xb, kb, xn, kn);
      if (!kb && !kn) row->m[m].delta = row->m[m].base = row->m[m].cur = NAN;
    }
  }
  sl_mem_free(xb);
  sl_mem_free(xn);
  sl_mem_free(ids);
  qsort(rep->funcs, rep->n_funcs, sizeof *rep->funcs, cmp_func_rows);
}

/* ---- scheduler phases and orchestrator submits ---------------------------------------- */

/* Total µs and record count of the phase `name` (NULL: every orchestrator record). */
static void phase_total(const sl_capture *c, const char *name, double *total, double *count) {
  *total = *count = 0;
  if (!name) {
    for (size_t i = 0; i < c->n_orch; i++) {
      *total += c->orch[i].end_us - c->orch[i].start_us;
      *count += 1;
    }
    return;
  }
  for (size_t i = 0; i < c->n_phases; i++) {
    const sl_phase_rec *p = &c->phases[i];
    const char *pn = sl_str_get(c, p->phase);
    if (!(p->flags & (SL_PH_RETIRED | SL_PH_UNKNOWN)) && pn && !strcmp(pn, name)) {
      *total += p->end_us - p->start_us;
      *count += 1;
    }
  }
}

static void named_delta(const side *b, const side *n, const char *name, sl_diff_named_row *row) {
  double tb[SL_DIFF_MAX_RUNS], cb[SL_DIFF_MAX_RUNS], tn[SL_DIFF_MAX_RUNS], cn[SL_DIFF_MAX_RUNS];
  size_t kb = b->n, kn = n->n;
  for (size_t i = 0; i < kb; i++) phase_total(b->runs[i].cap, name, &tb[i], &cb[i]);
  for (size_t i = 0; i < kn; i++) phase_total(n->runs[i].cap, name, &tn[i], &cn[i]);
  snprintf(row->name, sizeof row->name, "%s", name ? name : "orchestrator submit");
  row->total = sl_diff_delta(tb, kb, tn, kn);
  row->count = sl_diff_delta(cb, kb, cn, kn);
}

/* Phase names seen in any capture, in first-seen order. */
static void build_phases(const side *b, const side *n, sl_diff_report *rep) {
  const char **names = NULL;
  size_t nn = 0, capnames = 0;
  for (int s = 0; s < 2; s++) {
    const side *sd = s ? n : b;
    for (size_t r = 0; r < sd->n; r++) {
      const sl_capture *c = sd->runs[r].cap;
      for (size_t i = 0; i < c->n_phases; i++) {
        const char *pn = sl_str_get(c, c->phases[i].phase);
        if (!pn || (c->phases[i].flags & (SL_PH_RETIRED | SL_PH_UNKNOWN))) continue;
        size_t k = 0;
        while (k < nn && strcmp(names[k], pn) != 0) k++;
        if (k < nn) continue;
        *sl_array_push(names, nn, capnames) = pn;
      }
    }
  }
  rep->phases = sl_mem_calloc(nn, sizeof *rep->phases);
  rep->n_phases = nn;
  for (size_t k = 0; k < nn; k++) named_delta(b, n, names[k], &rep->phases[k]);
  sl_mem_free(names);
}

/* ---- critical paths ------------------------------------------------------------------- */

static void fill_step(const sl_diff_run *own, const sl_diff_run *other, const sl_diff_match *m,
                      int in_new, const sl_oh_cp_step *cs, sl_diff_path_step *st) {
  const sl_task *row = gating_row(own->cap, cs->task_id);
  int64_t func = row ? row->func_id : -1;
  char name[64];
  char *label = sl_task_label(sl_diff_func_name(own, func, name), cs->task_id, 0);
  snprintf(st->label, sizeof st->label, "%s", label);
  sl_mem_free(label);
  st->func_id = func;
  st->task_id = cs->task_id;
  st->in_new = in_new;
  st->sched = cs->sched;
  st->exec = cs->exec;
  size_t i = find_task(own, func, cs->task_id);
  size_t j = i == SIZE_MAX ? SIZE_MAX : in_new ? m->cur_to_base[i] : m->base_to_cur[i];
  st->matched = j != SIZE_MAX;
  if (!st->matched) return;
  const sl_diff_task *a = &own->tasks[i], *o = &other->tasks[j];
  double sign = in_new ? 1.0 : -1.0;
  st->d_start = sign * ((a->start - own->t0) - (o->start - other->t0));
  st->d_exec = sign * (a->exec - o->exec);
}

static void build_path(const sl_diff_run *own, const sl_diff_run *other, const sl_diff_match *m,
                       int in_new, const run_path *rp, sl_diff_path *out) {
  const sl_oh_critical *cp = &rp->oh.cp;
  out->steps = sl_mem_calloc(cp->n_steps ? cp->n_steps : 1, sizeof *out->steps);
  out->n = cp->n_steps;
  out->span = cp->span;
  for (size_t i = 0; i < cp->n_steps; i++) /* the model walks back from the end: root first here */
    fill_step(own, other, m, in_new, &cp->steps[cp->n_steps - 1 - i], &out->steps[i]);
}

static double moved_key(const sl_diff_path_step *s) { return fabs(s->d_exec) + fabs(s->d_start) * 1e-6; }

static int cmp_moved(const void *a, const void *b) {
  double x = moved_key(a), y = moved_key(b);
  return x > y ? -1 : x < y;
}

/* Matched tasks of either path, each once, by how much their Exec changed. */
static void build_moved(sl_diff_report *rep) {
  size_t cap = rep->path_base.n + rep->path_cur.n;
  rep->moved = sl_mem_calloc(cap ? cap : 1, sizeof *rep->moved);
  for (int s = 0; s < 2; s++) {
    const sl_diff_path *p = s ? &rep->path_cur : &rep->path_base;
    for (size_t i = 0; i < p->n; i++) {
      if (!p->steps[i].matched) continue;
      int dup = 0;
      for (size_t k = 0; k < rep->n_moved && !dup; k++)
        dup = rep->moved[k].func_id == p->steps[i].func_id &&
              rep->moved[k].task_id == p->steps[i].task_id && rep->moved[k].in_new != s;
      if (!dup) rep->moved[rep->n_moved++] = p->steps[i];
    }
  }
  qsort(rep->moved, rep->n_moved, sizeof *rep->moved, cmp_moved);
  if (rep->n_moved > 5) rep->n_moved = 5;
}

/* Waits and off-path time per capture, each side. */
static void path_deltas(const side *b, const side *n, sl_diff_report *rep) {
  double wb[SL_DIFF_MAX_RUNS], wn[SL_DIFF_MAX_RUNS], ob[SL_DIFF_MAX_RUNS], on[SL_DIFF_MAX_RUNS];
  for (size_t i = 0; i < b->n; i++) {
    wb[i] = b->paths[i].waits;
    ob[i] = b->runs[i].makespan - b->paths[i].exec - b->paths[i].waits;
  }
  for (size_t i = 0; i < n->n; i++) {
    wn[i] = n->paths[i].waits;
    on[i] = n->runs[i].makespan - n->paths[i].exec - n->paths[i].waits;
  }
  rep->waits = sl_diff_delta(wb, b->n, wn, n->n);
  rep->off_path = sl_diff_delta(ob, b->n, on, n->n);
}

/* ---- driver ------------------------------------------------------------------------------ */

static void side_free(side *s) {
  for (size_t i = 0; i < s->n; i++) {
    if (s->stats) sl_mem_free(s->stats[i]);
    if (s->paths) sl_oh_report_free(&s->paths[i].oh);
  }
  sl_mem_free(s->stats);
  sl_mem_free(s->n_stats);
  sl_mem_free(s->paths);
}

/* 0, or -1 when the overhead model refuses a capture's critical path (reported). */
static int side_init(side *s, sl_diff_run *runs, size_t n, int has_deps) {
  memset(s, 0, sizeof *s);
  s->runs = runs;
  s->n = n;
  s->stats = sl_mem_calloc(n, sizeof *s->stats);
  s->n_stats = sl_mem_calloc(n, sizeof *s->n_stats);
  s->paths = sl_mem_calloc(n, sizeof *s->paths);
  for (size_t i = 0; i < n; i++) {
    s->stats[i] = sl_convert_func_stats(runs[i].cap, &s->n_stats[i]);
    if (has_deps && path_of(&runs[i], &s->paths[i]) != 0) return -1;
  }
  return 0;
}

static int all_have_edges(const sl_diff_run *r, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!r[i].deps->has_edges) return 0;
  return 1;
}

/* Refuse the scheduler sections for a capture below the level that records them. */
static int check_phase_level(const sl_diff_run *r, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (r[i].cap->level < (int)SL_MIN_LEVEL_SCHED_PHASE) {
      sl_error(r[i].path, "a level-%d capture has no scheduler phases (--phases needs level >= %u)",
               r[i].cap->level, SL_MIN_LEVEL_SCHED_PHASE);
      return -1;
    }
  return 0;
}

int sl_diff_report_build(sl_diff_run *base, size_t nb, sl_diff_run *cur, size_t nn,
                         int want_phases, sl_diff_report *rep) {
  memset(rep, 0, sizeof *rep);
  if (nb > SL_DIFF_MAX_RUNS || nn > SL_DIFF_MAX_RUNS) {
    sl_error(NULL, "at most %d captures per side", SL_DIFF_MAX_RUNS);
    return -1;
  }
  if (want_phases && (check_phase_level(base, nb) != 0 || check_phase_level(cur, nn) != 0))
    return -1;
  rep->n_base = nb;
  rep->n_cur = nn;
  rep->level = run_level(base, nb) < run_level(cur, nn) ? run_level(base, nb) : run_level(cur, nn);
  rep->has_deps = all_have_edges(base, nb) && all_have_edges(cur, nn);
  side b = {0}, n = {0};
  int rc = -1;
  if (side_init(&b, base, nb, rep->has_deps) != 0 || side_init(&n, cur, nn, rep->has_deps) != 0)
    goto done;
  sl_match_rule rule = sl_diff_same_graph(base->tasks, base->n_tasks, base->deps, cur->tasks,
                                          cur->n_tasks, cur->deps)
                           ? SL_MATCH_ID
                           : SL_MATCH_POSITION;
  sl_diff_match_tasks(base->tasks, base->n_tasks, cur->tasks, cur->n_tasks, rule, &rep->match);
  double mb[SL_DIFF_MAX_RUNS], mn[SL_DIFF_MAX_RUNS];
  for (size_t i = 0; i < nb; i++) mb[i] = base[i].makespan;
  for (size_t i = 0; i < nn; i++) mn[i] = cur[i].makespan;
  rep->makespan = sl_diff_delta(mb, nb, mn, nn);
  build_funcs(&b, &n, rep->has_deps, rep);
  rep->has_phases = rep->level >= (int)SL_MIN_LEVEL_SCHED_PHASE;
  rep->has_orch = rep->level >= (int)SL_MIN_LEVEL_ORCH_PHASE;
  if (rep->has_phases) build_phases(&b, &n, rep);
  if (rep->has_orch) named_delta(&b, &n, NULL, &rep->orch);
  if (rep->has_deps) {
    path_deltas(&b, &n, rep);
    build_path(base, cur, &rep->match, 0, &b.paths[0], &rep->path_base);
    build_path(cur, base, &rep->match, 1, &n.paths[0], &rep->path_cur);
    build_moved(rep);
  }
  rc = 0;
done:
  side_free(&b);
  side_free(&n);
  return rc;
}

void sl_diff_report_free(sl_diff_report *rep) {
  sl_diff_match_free(&rep->match);
  sl_mem_free(rep->funcs);
  sl_mem_free(rep->phases);
  sl_mem_free(rep->path_base.steps);
  sl_mem_free(rep->path_cur.steps);
  sl_mem_free(rep->moved);
  memset(rep, 0, sizeof *rep);
}
