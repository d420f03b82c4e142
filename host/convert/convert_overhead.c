/*
** convert_overhead.c — the --overhead counter tracks (docs/convert.md):
** per engine type, idle cores, ready-but-undispatched tasks, and whether both
** happen at once (scheduler overhead), sampled at every change.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "convert_ctx.h"
#include "sl_mem.h"

typedef struct delta {
  double t;
  int8_t type;   /* 0 aic, 1 aiv */
  int8_t wait;   /* 0 running, 1 waiting */
  int8_t d;      /* +1 / -1 */
} delta;

static int delta_cmp(const void *a, const void *b) {
  const delta *p = a, *q = b;
  return p->t < q->t ? -1 : p->t > q->t;
}

static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

/* Python round(x, 3): correctly rounded through the decimal expansion. */
static double round3(double v) {
  char buf[64];
  snprintf(buf, sizeof buf, "%.3f", v);
  return strtod(buf, NULL);
}

static int type_of(const sl_capture *c, const sl_task *t) {
  const char *ty = sl_str_get(c, t->core_type);
  if (!ty) return -1;
  if (!strcmp(ty, "aic")) return 0;
  if (!strcmp(ty, "aiv")) return 1;
  return -1;
}

void sl_emit_overhead(sl_ctx *x) {
  const sl_capture *c = x->c;
  if (!x->d || !x->d->has_edges || x->d->n_edges == 0 || c->n_tasks == 0) {
    x->res->overhead_skipped = !x->d || !x->d->has_edges;
    return;
  }
  /* engines with cores */
  uint8_t *seen = sl_mem_calloc(x->ncores ? x->ncores : 1, 2);
  delta *dl = sl_mem_array(NULL, c->n_tasks * 2 + x->ngroups * 4 + 1, sizeof *dl);
  int64_t k[2] = {0, 0};
  double w0 = INFINITY, w1 = -INFINITY;
  for (size_t i = 0; i < c->n_tasks; i++) {
    const sl_task *t = &c->tasks[i];
    int ty = type_of(c, t);
    if (ty >= 0 && !seen[(size_t)t->core_id * 2 + ty]) {
      seen[(size_t)t->core_id * 2 + ty] = 1;
      k[ty]++;
    }
    if (t->start_us < w0) w0 = t->start_us;
    if (t->end_us > w1) w1 = t->end_us;
  }
  sl_mem_free(seen);
  size_t nd = 0;
  for (size_t i = 0; i < c->n_tasks; i++) {
    const sl_task *t = &c->tasks[i];
    int ty = type_of(c, t);
    double s = clampd(t->start_us, w0, w1), e = clampd(t->end_us, w0, w1);
    if (ty < 0 || !(e > s)) continue;
    dl[nd++] = (delta){s, (int8_t)ty, 0, 1};
    dl[nd++] = (delta){e, (int8_t)ty, 0, -1};
  }
  for (size_t g = 0; g < x->ngroups; g++) {
    const sl_group *gr = &x->groups[g];
    int types[2] = {0, 0};
    double disp = INFINITY;
    for (uint32_t r = 0; r < gr->count; r++) {
      const sl_task *t = &c->tasks[gr->first + r];
      int ty = type_of(c, t);
      if (ty >= 0) types[ty] = 1;
      if (t->dispatch_us < disp) disp = t->dispatch_us;
    }
    size_t np;
    const uint64_t *preds = sl_deps_preds(x->d, gr->task_id, &np);
    double ready = -INFINITY;
    int timed = 0;
    for (size_t p = 0; p < np; p++) {
      if (preds[p] == gr->task_id) continue;
      const sl_group *pg = sl_ctx_group(x, preds[p]);
      if (!pg) continue;
      for (uint32_t r = 0; r < pg->count; r++) {
        double e = c->tasks[pg->first + r].end_us;
        if (!timed || e > ready) ready = e;
        timed = 1;
      }
    }
    if (!timed) ready = disp;
    double rs = clampd(ready, w0, w1), ds = clampd(disp, w0, w1);
    if (!(ds > rs)) continue;
    for (int ty = 0; ty < 2; ty++) {
      if (!types[ty]) continue;
      dl[nd++] = (delta){rs, (int8_t)ty, 1, 1};
      dl[nd++] = (delta){ds, (int8_t)ty, 1, -1};
    }
  }
  qsort(dl, nd, sizeof *dl, delta_cmp);
  static const char *names[8] = {"oh_aic_idle", "oh_aic_ready", "oh_aic_overhead",
                                 "oh_aiv_idle", "oh_aiv_ready", "oh_aiv_overhead",
                                 "oh_all_overhead", "oh_has_overhead"};
  static const int64_t tids[8] = {9101, 9102, 9103, 9111, 9112, 9113, 9121, 9122};
  int64_t prev[8];
  int have_prev[8] = {0};
  int64_t running[2] = {0, 0}, waiting[2] = {0, 0};
  size_t i = 0;
  while (i < nd) {
    double a = dl[i].t;
    size_t j = i;
    while (j < nd && dl[j].t == a) {
      if (dl[j].wait)
        waiting[dl[j].type] += dl[j].d;
      else
        running[dl[j].type] += dl[j].d;
      j++;
    }
    if (j >= nd) break; /* the last time point is not sampled */
    int64_t val[8];
    int all = 1, any_ready = 0, ready_idle = 1, ntypes = 0;
    for (int ty = 0; ty < 2; ty++) {
      int64_t idle = k[ty] - running[ty];
      int64_t oh = idle > 0 && waiting[ty] > 0;
      val[ty * 3] = idle;
      val[ty * 3 + 1] = waiting[ty];
      val[ty * 3 + 2] = oh;
      if (k[ty] == 0) continue;
      ntypes++;
      if (!oh) all = 0;
      if (waiting[ty] > 0) {
        any_ready = 1;
        if (idle <= 0) ready_idle = 0;
      }
    }
    val[6] = ntypes > 0 && all;
    val[7] = any_ready && ready_idle;
    double ts = round3(a);
    for (int s = 0; s < 8; s++) {
      if (s < 6 && k[s / 3] == 0) continue;
      if (have_prev[s] && prev[s] == val[s]) continue;
      have_prev[s] = 1;
      prev[s] = val[s];
      sl_arg arg = SL_ARG_I(names[s], val[s]);
      sl_counter ce = {.pid = x->pid_sched, .tid = tids[s], .ts = ts, .name = names[s],
                       .cat = "overhead", .args = &arg, .nargs = 1};
      sl_sink_counter(x->s, &ce);
      x->res->overhead_points++;
    }
    i = j;
  }
  sl_mem_free(dl);
}
