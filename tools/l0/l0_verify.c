/*
** l0_verify.c — an independent check of a modelled L0 timeline.
**
** Reads only the exported Insight trace: the slices' exact cycles
** (args.start_cycle / end_cycle / dispatch_cycle, work) and the cost table the
** trace declares (otherData.pipe_costs). It shares no code with the pipe model
** (runtime/pipe/): it does not replay the streams, it checks what any correct
** replay must satisfy, so a model bug that breaks one of these shows here:
**
**   order     per pipe, instructions start in program order; per sub-core,
**             dispatch cycles never go back; nothing starts before dispatch
**   issue     two instructions on a pipe start >= `issue` cycles apart
**   cost      an instruction lasts >= ceil(work / per_cycle) + latency
**   limit     at no cycle are more than `outstanding` instructions of a pipe
**             in flight
**   flags     a WAIT_FLAG releases no earlier than its matching SET_FLAG(s)
**             fired (k-th wait <-> k-th set of the same src/dst/event; a
**             cross-core cube wait needs every vector lane's set); a SET fires
**             after the earlier work on its pipe completed
**   clock     ts / dur agree with the cycles at otherData.core_mhz;
**             makespan_cycles is the last completion
*/
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "l0_internal.h"
#include "sl_lanes.h"
#include "sl_mem.h"

enum { K_OP, K_SET, K_WAIT, K_BARRIER };

typedef struct item {
  const char *pid, *tid, *name;
  const char *src, *dst; /* flags */
  int kind, ev, cross;
  double work, start, end, dispatch, ts, dur;
} item;

typedef struct verifier {
  item *it;
  size_t n;
  const cJSON *costs;
  double mhz;
  size_t violations, checks;
  char *err;
  size_t errlen;
} verifier;

static void fail(verifier *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(verifier *v, const char *fmt, ...) {
  if (v->violations++ == 0 && v->err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->err, v->errlen, fmt, ap);
    va_end(ap);
  }
}

static double num(const cJSON *o, const char *key, double dflt) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsNumber(v) ? v->valuedouble : dflt;
}

static const char *str(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsString(v) ? v->valuestring : "";
}

/* One item per X slice and per B of a flag pair (its args carry both ends). */
static void collect(verifier *v, const cJSON *events) {
  size_t cap = (size_t)cJSON_GetArraySize(events) + 1;
  v->it = sl_mem_calloc(cap, sizeof *v->it);
  const cJSON *ev;
  cJSON_ArrayForEach(ev, events) {
    const char *ph = str(ev, "ph"), *pid = str(ev, "pid");
    if (strncmp(pid, "core", 4) != 0 || (strcmp(ph, "X") && strcmp(ph, "B"))) continue;
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(ev, "args");
    item *t = &v->it[v->n++];
    t->pid = pid;
    t->tid = str(ev, "tid");
    t->name = str(ev, "name");
    t->work = num(a, "work", 0);
    t->start = num(a, "start_cycle", -1);
    t->end = num(a, "end_cycle", -1);
    t->dispatch = num(a, "dispatch_cycle", -1);
    t->ts = num(ev, "ts", -1);
    t->dur = num(ev, "dur", -1);
    if (!strcmp(ph, "B")) {
      t->kind = !strcmp(t->name, "SET_FLAG") ? K_SET : K_WAIT;
      t->src = str(a, "src");
      t->dst = str(a, "dst");
      t->ev = (int)num(a, "event_id", 0);
      t->cross = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(a, "cross_core"));
    } else {
      t->kind = !strcmp(t->name, "PIPE_BARRIER") ? K_BARRIER : K_OP;
    }
    if (t->start < 0 || t->end < t->start || t->dispatch < 0)
      fail(v, "%s %s %s: missing or inverted cycles (start %.0f, end %.0f)", t->pid, t->tid, t->name, t->start,
           t->end);
  }
}

static const cJSON *cost_of(const verifier *v, const char *pipe) {
  return cJSON_GetObjectItemCaseSensitive(v->costs, pipe);
}

/* order + issue + cost per pipe, dispatch order per sub-core. */
static void check_pipes(verifier *v) {
  for (size_t i = 0; i < v->n; i++) {
    const item *a = &v->it[i];
    v->checks++;
    if (a->start < a->dispatch) fail(v, "%s %s %s starts at cycle %.0f before its dispatch %.0f", a->pid, a->tid,
                                     a->name, a->start, a->dispatch);
    const cJSON *c = cost_of(v, a->tid);
    if (a->kind == K_OP && c) {
      double per = num(c, "per_cycle", 1), lat = num(c, "latency", 0), iss = num(c, "issue", 1);
      double occ = fmax(ceil(a->work / (per > 0 ? per : 1)), fmax(iss, 1));
      if (a->end - a->start < occ + lat)
        fail(v, "%s %s %s at cycle %.0f lasts %.0f cycles; its work %.0f needs >= %.0f", a->pid, a->tid, a->name,
             a->start, a->end - a->start, a->work, occ + lat);
    }
    for (size_t j = i + 1; j < v->n; j++) { /* the next item of this sub-core, and of this pipe */
      const item *b = &v->it[j];
      if (strcmp(b->pid, a->pid)) continue;
      if (b->dispatch < a->dispatch)
        fail(v, "%s: %s dispatched at cycle %.0f after %s at %.0f (out of program order)", a->pid, b->name,
             b->dispatch, a->name, a->dispatch);
      break;
    }
    if (a->kind == K_BARRIER || !strcmp(a->tid, sl_pipe_lane_names[SL_PIPE_SCALAR])) continue; /* issues in order */
    for (size_t j = i + 1; j < v->n; j++) {
      const item *b = &v->it[j];
      if (strcmp(b->pid, a->pid) || strcmp(b->tid, a->tid) || b->kind == K_BARRIER) continue;
      if (b->start < a->start)
        fail(v, "%s %s: %s starts at cycle %.0f before the earlier %s at %.0f (issue out of order)", a->pid,
             a->tid, b->name, b->start, a->name, a->start);
      if (a->kind == K_OP && b->kind == K_OP && c && b->start - a->start < num(c, "issue", 1))
        fail(v, "%s %s: %s issues %.0f cycles after %s; the pipe issues every %.0f", a->pid, a->tid, b->name,
             b->start - a->start, a->name, num(c, "issue", 1));
      break;
    }
  }
}

static int cmp_double(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return a < b ? -1 : a > b;
}

/* limit: sweep the starts and ends of one pipe's instructions. */
static void check_limit(verifier *v, const char *pid, const char *tid, double limit) {
  size_t n = 0;
  for (size_t i = 0; i < v->n; i++) n += v->it[i].kind == K_OP && !strcmp(v->it[i].pid, pid) && !strcmp(v->it[i].tid, tid);
  double *starts = sl_mem_alloc((n + 1) * sizeof *starts), *ends = sl_mem_alloc((n + 1) * sizeof *ends);
  size_t k = 0;
  for (size_t i = 0; i < v->n; i++)
    if (v->it[i].kind == K_OP && !strcmp(v->it[i].pid, pid) && !strcmp(v->it[i].tid, tid)) {
      starts[k] = v->it[i].start;
      ends[k++] = v->it[i].end;
    }
  qsort(starts, n, sizeof *starts, cmp_double);
  qsort(ends, n, sizeof *ends, cmp_double);
  size_t e = 0, peak = 0;
  double at = 0;
  for (size_t s = 0; s < n; s++) { /* an end at cycle t frees its slot for a start at t */
    while (e < n && ends[e] <= starts[s]) e++;
    if (s + 1 - e > peak) {
      peak = s + 1 - e;
      at = starts[s];
    }
  }
  v->checks++;
  if ((double)peak > limit)
    fail(v, "%s %s: %zu instructions in flight at cycle %.0f; the pipe allows %.0f outstanding", pid, tid, peak, at,
         limit);
  sl_mem_free(starts);
  sl_mem_free(ends);
}

static void check_limits(verifier *v) {
  for (size_t i = 0; i < v->n; i++) {
    const item *a = &v->it[i];
    int first = 1;
    for (size_t j = 0; j < i && first; j++)
      first = !(v->it[j].kind == K_OP && !strcmp(v->it[j].pid, a->pid) && !strcmp(v->it[j].tid, a->tid));
    const cJSON *c = cost_of(v, a->tid);
    if (a->kind == K_OP && first && c) check_limit(v, a->pid, a->tid, num(c, "outstanding", 1));
  }
}

static int same_key(const item *a, const item *b) {
  return a->ev == b->ev && a->cross == b->cross && !strcmp(a->src, b->src) && !strcmp(a->dst, b->dst);
}

/* The k-th set of w's key on `pid` (NULL if none). */
static const item *kth_set(const verifier *v, const char *pid, const item *w, size_t k) {
  for (size_t i = 0; i < v->n; i++) {
    const item *s = &v->it[i];
    if (s->kind == K_SET && !strcmp(s->pid, pid) && same_key(s, w) && k-- == 0) return s;
  }
  return NULL;
}

static int has_sets(const verifier *v, const char *pid) {
  for (size_t i = 0; i < v->n; i++)
    if (v->it[i].kind == K_SET && !strcmp(v->it[i].pid, pid)) return 1;
  return 0;
}

static void check_wait(verifier *v, const item *w, size_t k) {
  const char *cube = "core0.cubecore0";
  int on_cube = !strcmp(w->pid, cube);
  size_t found = 0;
  for (size_t i = 0; i < v->n; i++) { /* producers: own sub-core, or the other side of the cluster */
    const char *pid = v->it[i].pid;
    int seen = 0;
    for (size_t j = 0; j < i && !seen; j++) seen = !strcmp(v->it[j].pid, pid);
    if (seen) continue;
    int producer = !w->cross ? !strcmp(pid, w->pid) : on_cube ? strcmp(pid, cube) && has_sets(v, pid) : !strcmp(pid, cube);
    if (!producer) continue;
    const item *s = kth_set(v, pid, w, k);
    v->checks++;
    if (!s) {
      fail(v, "%s %s: WAIT_FLAG %s->%s event %d #%zu has no matching SET_FLAG on %s", w->pid, w->tid, w->src,
           w->dst, w->ev, k, pid);
      continue;
    }
    found++;
    if (w->end < s->end)
      fail(v, "%s %s: WAIT_FLAG %s->%s event %d #%zu released at cycle %.0f before its SET_FLAG on %s fired at %.0f",
           w->pid, w->tid, w->src, w->dst, w->ev, k, w->end, pid, s->end);
  }
  if (!found) fail(v, "%s %s: WAIT_FLAG %s->%s event %d #%zu has no producer", w->pid, w->tid, w->src, w->dst, w->ev, k);
}

static void check_flags(verifier *v) {
  for (size_t i = 0; i < v->n; i++) {
    const item *a = &v->it[i];
    if (a->kind == K_WAIT) {
      size_t k = 0;
      for (size_t j = 0; j < i; j++) k += v->it[j].kind == K_WAIT && !strcmp(v->it[j].pid, a->pid) && same_key(&v->it[j], a);
      check_wait(v, a, k);
    } else if (a->kind == K_SET) {
      for (size_t j = 0; j < i; j++) {
        const item *b = &v->it[j];
        if (b->kind != K_OP || strcmp(b->pid, a->pid) || strcmp(b->tid, a->tid)) continue;
        v->checks++;
        if (a->start < b->end)
          fail(v, "%s %s: SET_FLAG fires at cycle %.0f before the earlier %s completed at %.0f", a->pid, a->tid,
               a->start, b->name, b->end);
      }
    }
  }
}

static void check_clock(verifier *v, double makespan) {
  double last = 0;
  for (size_t i = 0; i < v->n; i++) {
    const item *a = &v->it[i];
    last = fmax(last, a->end);
    if (a->kind != K_OP && a->kind != K_BARRIER) continue;
    v->checks++;
    if (fabs(a->ts - a->start / v->mhz) > 1e-6 || fabs(a->dur - (a->end - a->start) / v->mhz) > 1e-6)
      fail(v, "%s %s %s: ts %.6f / dur %.6f us disagree with cycles %.0f..%.0f at %.0f MHz", a->pid, a->tid, a->name,
           a->ts, a->dur, a->start, a->end, v->mhz);
  }
  v->checks++;
  if (makespan >= 0 && makespan != last)
    fail(v, "otherData.makespan_cycles %.0f is not the last completion %.0f", makespan, last);
}

long sl_l0_verify_timeline(const cJSON *trace, char *err, size_t errlen, size_t *checks) {
  verifier v = {0};
  v.err = err;
  v.errlen = errlen;
  if (err && errlen) err[0] = '\0';
  const cJSON *od = cJSON_GetObjectItemCaseSensitive(trace, "otherData");
  v.costs = cJSON_GetObjectItemCaseSensitive(od, "pipe_costs");
  v.mhz = num(od, "core_mhz", 0);
  if (!cJSON_IsObject(v.costs) || v.mhz <= 0) {
    if (err) snprintf(err, errlen, "the trace declares no pipe costs (otherData.pipe_costs, core_mhz)");
    return -1;
  }
  collect(&v, cJSON_GetObjectItemCaseSensitive(trace, "traceEvents"));
  check_pipes(&v);
  check_limits(&v);
  check_flags(&v);
  check_clock(&v, num(od, "makespan_cycles", -1));
  sl_mem_free(v.it);
  if (checks) *checks = v.checks;
  return (long)v.violations;
}
