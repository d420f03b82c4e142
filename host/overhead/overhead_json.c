/*
** overhead_json.c — `sched-overhead --summary-json FILE`: the report's numbers
** (Parts 1, 2, 3/4, 5, 6) as JSON for CI, unrounded, from the same model the
** text report prints.
*/
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>

#include "overhead_model.h"
#include "sl_base.h"
#include "sl_mem.h"

/* count / mean / min / max of xs[0..n) */
static cJSON *dist(const double *xs, size_t n) {
  cJSON *o = cJSON_CreateObject();
  double sum = 0, lo = INFINITY, hi = -INFINITY;
  for (size_t i = 0; i < n; i++) {
    sum += xs[i];
    if (xs[i] < lo) lo = xs[i];
    if (xs[i] > hi) hi = xs[i];
  }
  cJSON_AddNumberToObject(o, "count", (double)n);
  if (n) {
    cJSON_AddNumberToObject(o, "mean_us", sum / (double)n);
    cJSON_AddNumberToObject(o, "min_us", lo);
    cJSON_AddNumberToObject(o, "max_us", hi);
  }
  return o;
}

static cJSON *per_type(const sl_capture *c, const sl_oh_report *r) {
  cJSON *a = cJSON_CreateArray();
  const sl_oh_overhead *oh = &r->oh;
  const sl_oh_switch *sw = &r->sw;
  for (size_t i = 0; i < oh->n_types; i++) {
    cJSON *t = cJSON_CreateObject();
    const char *name = sl_str_get(c, oh->types[i]);
    cJSON_AddStringToObject(t, "core_type", name ? name : "");
    cJSON_AddNumberToObject(t, "cores", (double)oh->cores[i]);
    cJSON_AddNumberToObject(t, "overhead_us", oh->overhead_us[i]);
    cJSON_AddNumberToObject(t, "switch_events", (double)sw->n_events[i]);
    cJSON_AddNumberToObject(t, "switch_mean_us", sw->n_events[i] ? sw->event_sum[i] / (double)sw->n_events[i] : 0);
    cJSON_AddNumberToObject(t, "switch_overhead_us", sw->split_overhead[i]);
    cJSON_AddNumberToObject(t, "switch_independent_us", sw->split_independent[i]);
    cJSON_AddItemToArray(a, t);
  }
  return a;
}

static cJSON *threads(const sl_oh_report *r) {
  cJSON *a = cJSON_CreateArray();
  for (size_t i = 0; i < r->n_threads; i++) {
    const sl_oh_thread *t = &r->threads[i];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "thread", (double)t->index);
    cJSON_AddNumberToObject(o, "loops", (double)t->loops);
    cJSON_AddNumberToObject(o, "tasks", (double)t->logical_tasks);
    cJSON_AddNumberToObject(o, "finishes", (double)t->finishes);
    cJSON_AddNumberToObject(o, "pop_hit", (double)t->pop_hit);
    cJSON_AddNumberToObject(o, "pop_miss", (double)t->pop_miss);
    cJSON_AddNumberToObject(o, "complete_us", t->complete_us);
    cJSON_AddNumberToObject(o, "async_poll_us", t->async_poll_us);
    cJSON_AddNumberToObject(o, "dispatch_us", t->dispatch_us);
    cJSON_AddNumberToObject(o, "idle_us", t->idle_us);
    cJSON_AddNumberToObject(o, "total_us", t->total_us);
    cJSON_AddItemToArray(a, o);
  }
  return a;
}

sl_status sl_oh_write_json(const char *path, const sl_capture *c, const sl_oh_report *r, sl_err *err) {
  cJSON *root = cJSON_CreateObject();
  cJSON *p1 = cJSON_AddObjectToObject(root, "overhead");
  cJSON_AddNumberToObject(p1, "window_us", r->oh.w1 - r->oh.w0);
  cJSON_AddNumberToObject(p1, "all_overhead_us", r->oh.all_overhead_us);
  cJSON_AddNumberToObject(p1, "has_overhead_us", r->oh.has_overhead_us);
  cJSON_AddItemToObject(p1, "per_core_type", per_type(c, r));
  cJSON *p2 = cJSON_AddObjectToObject(root, "aicore_switch");
  cJSON_AddNumberToObject(p2, "lower_us", r->sw.lower);
  cJSON_AddNumberToObject(p2, "upper_us", r->sw.upper);
  cJSON_AddItemToObject(root, "head_overhead", dist(r->heads, r->n_tasks));
  cJSON_AddItemToObject(root, "tail_overhead", dist(r->tails, r->n_tasks));
  cJSON_AddItemToObject(root, "scheduler_threads", threads(r));
  cJSON *cp = cJSON_AddObjectToObject(root, "critical_path");
  cJSON_AddBoolToObject(cp, "found", r->cp.found);
  if (r->cp.found) {
    cJSON_AddNumberToObject(cp, "hops", (double)r->cp.hops);
    cJSON_AddNumberToObject(cp, "span_us", r->cp.span);
    cJSON_AddNumberToObject(cp, "sched_us", r->cp.sched);
    cJSON_AddNumberToObject(cp, "exec_us", r->cp.exec);
  }
  char *text = cJSON_Print(root);
  cJSON_Delete(root);
  if (!text) sl_mem_fail(0); /* cJSON allocates on its own: its failure ends the one way */
  sl_outfile of;
  sl_status st = sl_outfile_begin(&of, path, err);
  if (st == SL_OK) {
    fputs(text, of.fp);
    fputc('\n', of.fp);
    st = sl_outfile_end(&of, err);
  }
  sl_mem_free(text);
  return st;
}
