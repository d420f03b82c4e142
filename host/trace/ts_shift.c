/*
** ts_shift.c — every slice, counter and flow timestamp moved by a constant.
*/
#include "ts_shift.h"
#include "sl_mem.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct ts_shift {
  sl_trace_sink base;
  sl_trace_sink *inner;
  double by;
} ts_shift;

#define SHIFT(s) ((ts_shift *)(s))

static void s_process_name(sl_trace_sink *s, int64_t pid, const char *name) {
  sl_sink_process_name(SHIFT(s)->inner, pid, name);
}
static void s_process_sort(sl_trace_sink *s, int64_t pid, int64_t idx) {
  sl_sink_process_sort(SHIFT(s)->inner, pid, idx);
}
static void s_thread_name(sl_trace_sink *s, int64_t pid, int64_t tid, const char *name) {
  sl_sink_thread_name(SHIFT(s)->inner, pid, tid, name);
}
static void s_thread_sort(sl_trace_sink *s, int64_t pid, int64_t tid, int64_t idx) {
  sl_sink_thread_sort(SHIFT(s)->inner, pid, tid, idx);
}
static void s_slice(sl_trace_sink *s, const sl_slice *ev) {
  sl_slice e = *ev;
  /* Move the end too and take dur as the one reaching it exactly: a slice that ended exactly where the
  ** next one starts still does after the shift (adding `by` to ts alone rounds differently
  ** for the two, and DevTools drops the slice that then overlaps its neighbour by an ulp). */
  double end = ev->ts + ev->dur + SHIFT(s)->by;
  e.ts += SHIFT(s)->by;
  e.dur = sl_ts_fit_dur(e.ts, end); /* end - e.ts may round so that e.ts + e.dur != end */
  sl_sink_slice(SHIFT(s)->inner, &e);
}
static void s_counter(sl_trace_sink *s, const sl_counter *ev) {
  sl_counter e = *ev;
  e.ts += SHIFT(s)->by;
  sl_sink_counter(SHIFT(s)->inner, &e);
}
static void s_flow(sl_trace_sink *s, const sl_flow *ev) {
  sl_flow e = *ev;
  e.ts += SHIFT(s)->by;
  sl_sink_flow(SHIFT(s)->inner, &e);
}
static void s_metadata_json(sl_trace_sink *s, const char *obj) { sl_sink_metadata_json(SHIFT(s)->inner, obj); }
static int s_finish(sl_trace_sink *s) { return sl_sink_finish(SHIFT(s)->inner); }
static void s_destroy(sl_trace_sink *s) { sl_mem_free(s); }

static const sl_trace_sink_ops shift_ops = {
    .process_name = s_process_name,
    .process_sort = s_process_sort,
    .thread_name = s_thread_name,
    .thread_sort = s_thread_sort,
    .slice = s_slice,
    .counter = s_counter,
    .flow = s_flow,
    .metadata_json = s_metadata_json,
    .finish = s_finish,
    .destroy = s_destroy,
};

sl_trace_sink *sl_ts_shift_new(sl_trace_sink *inner, double by_us) {
  ts_shift *t = sl_mem_calloc(1, sizeof *t);
  t->base.ops = &shift_ops;
  t->base.fp = inner->fp;
  t->inner = inner;
  t->by = by_us;
  return &t->base;
}

double sl_ts_fit_dur(double ts, double end) {
  if (!(end > ts)) return end < ts ? end - ts : 0;
  double d = end - ts;
  if (ts + d == end || (ts + d < end && ts + nextafter(d, INFINITY) > end)) return d; /* the usual case */
  /* bisect over the bit patterns of non-negative doubles (ordered as the values):
  ** ts + lo <= end < ts + hi */
  double h = 2 * d + fabs(end) * 4 * DBL_EPSILON;
  uint64_t lo = 0, hi;
  memcpy(&hi, &h, sizeof hi);
  while (hi - lo > 1) {
    uint64_t mid = lo + (hi - lo) / 2;
    double m;
    memcpy(&m, &mid, sizeof m);
    if (ts + m <= end) lo = mid;
    else hi = mid;
  }
  memcpy(&d, &lo, sizeof d);
  return d;
}
