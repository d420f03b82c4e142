/*
** convert_ctx.c — what every drawing step asks of the conversion context: the
** task group and SPMD anchors of a task id (binary search over the sorted
** tables prepare() builds), the complete phase covering a time on a scheduler
** thread, a task's label, and a flow pair written through the flow placer
** (dropped when either end is on a lane the rules hide).
**
** The engine (convert_engine.c), the flows (convert_flows.c) and the overhead
** tracks (convert_overhead.c) all call down into this file; it calls none of them.
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "convert_ctx.h"
#include "convert_labels.h"
#include "flow_place.h"

/* The first of n records (stride bytes each, sorted by the uint64 task id at byte `off`)
** whose id is not below id: n when there is none. */
static size_t first_not_below(const void *records, size_t n, size_t stride, size_t off, uint64_t id) {
  const unsigned char *b = records;
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    uint64_t k;
    memcpy(&k, b + mid * stride + off, sizeof k);
    if (k < id)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

const sl_group *sl_ctx_group(const sl_ctx *x, uint64_t id) {
  size_t lo = first_not_below(x->groups, x->ngroups, sizeof *x->groups, offsetof(sl_group, task_id), id);
  return lo < x->ngroups && x->groups[lo].task_id == id ? &x->groups[lo] : NULL;
}

size_t sl_ctx_anchors(const sl_ctx *x, uint64_t id, size_t *first) {
  size_t lo = first_not_below(x->anchors, x->nanchors, sizeof *x->anchors, offsetof(sl_anchor, task_id), id);
  size_t n = 0;
  while (lo + n < x->nanchors && x->anchors[lo + n].task_id == id) n++;
  *first = lo;
  return n;
}

long sl_ctx_complete_lookup(const sl_ctx *x, int64_t thread, double t) {
  if (thread < 0 || (size_t)thread >= x->c->n_streams) return -1;
  const size_t *idx = x->comp_idx + x->comp_off[thread];
  size_t n = x->comp_off[thread + 1] - x->comp_off[thread];
  const sl_phase_rec *ph = x->c->phases;
  size_t lo = 0, hi = n; /* count of completes with start <= t */
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (ph[idx[mid]].start_us <= t)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo > 0 && t <= ph[idx[lo - 1]].end_us) return (long)idx[lo - 1];
  if (lo < n) return (long)idx[lo];
  return -1;
}

char *sl_ctx_task_label(sl_ctx *x, int64_t func_id, uint64_t task_id, int spmd) {
  const char *mapped = x->m && func_id >= 0 ? sl_namemap_lookup(x->m, func_id) : NULL;
  const char *base = sl_rules_func_name(x->r, func_id, mapped);
  return sl_task_label(base ? base : "task", task_id, spmd);
}

static int tid_hidden(const sl_ctx *x, int64_t pid, int64_t tid) {
  if (pid != x->pid_worker && pid != x->pid_sv) return 0;
  int64_t off = tid - x->core_base;
  if (off < 0 || x->core_stride <= 0) return 0;
  int64_t core = off / x->core_stride;
  if (core >= (int64_t)x->ncores) return 0;
  return x->core_lane_name[core] == NULL;
}

void sl_ctx_flow_pair(sl_ctx *x, const sl_flow *s, const sl_flow *f) {
  if (tid_hidden(x, s->pid, s->tid) || tid_hidden(x, f->pid, f->tid)) return;
  sl_flow s2 = *s, f2 = *f;
  if (x->place) sl_flow_place_pair(x->place, &s2, &f2);
  sl_sink_flow(x->s, &s2);
  sl_sink_flow(x->s, &f2);
}

void sl_ctx_warn(sl_ctx *x, const char *file, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sl_notes_addv(&x->res->warnings, 1, file, fmt, ap);
  va_end(ap);
}
