/*
** l3_sink.c — the sink one rank is drawn through: forwards every event to the
** merged trace's sink with the rank's namespaces (pid (r+1)*100 + view pid,
** process name "rankN / <view>", flow and slice ids in the rank's own range), its
** placement (ts shifted onto the host axis) and its slack_ns on every slice.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "l3.h"
#include "sl_mem.h"
#include "ts_shift.h"

typedef struct l3_sink {
  sl_trace_sink base;
  sl_trace_sink *inner;
  int rank;
  int64_t pid_base;
  uint64_t id_base;
  double shift_us, scale;
  int64_t slack_ns;
  char *meta;
} l3_sink;

#define INNER(s) (((l3_sink *)(s))->inner)
#define PID(s, p) (((l3_sink *)(s))->pid_base + (p))

/* An engine time (µs) on the host axis, at a whole ns: a viewer rounds ts and dur to
** ns apiece, so the fractional edges a cross-host rank's scale leaves would let a
** slice and the one after it on its lane overlap by 1 ns (l3_host.c rounds the host
** block the same way). */
static double axis_us(const l3_sink *k, double us) { return round((us * k->scale + k->shift_us) * 1000.0) / 1000.0; }

static void k_process_name(sl_trace_sink *s, int64_t pid, const char *name) {
  char buf[512];
  snprintf(buf, sizeof buf, "rank%d / %s", ((l3_sink *)s)->rank, name);
  sl_sink_process_name(INNER(s), PID(s, pid), buf);
  sl_sink_count(s);
}

static void k_process_sort(sl_trace_sink *s, int64_t pid, int64_t idx) {
  sl_sink_process_sort(INNER(s), PID(s, pid), PID(s, idx));
}

static void k_thread_name(sl_trace_sink *s, int64_t pid, int64_t tid, const char *name) {
  sl_sink_thread_name(INNER(s), PID(s, pid), tid, name);
  sl_sink_count(s);
}

static void k_thread_sort(sl_trace_sink *s, int64_t pid, int64_t tid, int64_t idx) {
  sl_sink_thread_sort(INNER(s), PID(s, pid), tid, idx);
}

static void k_slice(sl_trace_sink *s, const sl_slice *ev) {
  l3_sink *k = (l3_sink *)s;
  sl_arg local[32], *args = ev->nargs < 32 ? local : sl_mem_array(NULL, ev->nargs + 1, sizeof *args);
  if (ev->nargs) memcpy(args, ev->args, ev->nargs * sizeof *args);
  args[ev->nargs] = SL_ARG_I("slack_ns", k->slack_ns);
  sl_slice e = *ev;
  e.pid = PID(s, ev->pid);
  e.ts = axis_us(k, ev->ts);
  /* the end moves with the start, so adjacent slices stay adjacent (DevTools drops
  ** one whose end passes its neighbour's start by an ulp) */
  e.dur = sl_ts_fit_dur(e.ts, axis_us(k, ev->ts + ev->dur));
  e.id = ev->id + k->id_base;
  e.args = args;
  e.nargs = ev->nargs + 1;
  sl_sink_slice(k->inner, &e);
  sl_sink_count(s);
  if (args != local) sl_mem_free(args);
}

static void k_counter(sl_trace_sink *s, const sl_counter *ev) {
  sl_counter e = *ev;
  e.pid = PID(s, ev->pid);
  e.ts = axis_us((l3_sink *)s, ev->ts);
  sl_sink_counter(INNER(s), &e);
  sl_sink_count(s);
}

static void k_flow(sl_trace_sink *s, const sl_flow *ev) {
  l3_sink *k = (l3_sink *)s;
  sl_flow e = *ev;
  e.pid = PID(s, ev->pid);
  e.ts = axis_us(k, ev->ts);
  e.id = ev->id + k->id_base;
  e.bind_id = ev->bind_id + k->id_base;
  sl_sink_flow(k->inner, &e);
  sl_sink_count(s);
}

static void k_metadata_json(sl_trace_sink *s, const char *obj) {
  l3_sink *k = (l3_sink *)s;
  sl_mem_free(k->meta);
  k->meta = obj ? sl_mem_strdup(obj) : NULL;
}

static int k_finish(sl_trace_sink *s) { return s->failed ? -1 : 0; }

static void k_destroy(sl_trace_sink *s) {
  if (!s) return;
  sl_mem_free(((l3_sink *)s)->meta);
  sl_mem_free(s);
}

static const sl_trace_sink_ops l3_ops = {
    .process_name = k_process_name,
    .process_sort = k_process_sort,
    .thread_name = k_thread_name,
    .thread_sort = k_thread_sort,
    .slice = k_slice,
    .counter = k_counter,
    .flow = k_flow,
    .metadata_json = k_metadata_json,
    .finish = k_finish,
    .destroy = k_destroy,
};

sl_trace_sink *l3_sink_new(sl_trace_sink *inner, const l3_rank *r) {
  l3_sink *k = sl_mem_calloc(1, sizeof *k);
  k->base.ops = &l3_ops;
  k->base.fp = inner->fp;
  k->inner = inner;
  k->rank = r->rank;
  k->pid_base = (int64_t)(r->rank + 1) * SL_L3_RANK_PID_STRIDE;
  k->id_base = (uint64_t)(r->rank + 1) << 40; /* engine ids stay far below 2^40 */
  k->shift_us = r->shift_us;
  k->scale = r->scale;
  k->slack_ns = r->slack_ns;
  return &k->base;
}

char *l3_sink_take_meta(sl_trace_sink *s) {
  l3_sink *k = (l3_sink *)s;
  char *m = k->meta;
  k->meta = NULL;
  return m;
}
