/*
** convert_summary.c — the per-function statistics table printed after a
** conversion (docs/convert.md, Output on stdout), with the reference's float summation order.
*/
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "convert_labels.h"
#include "sl_base.h"
#include "sl_convert.h"
#include "sl_levels.h"
#include "sl_map.h"
#include "sl_vec.h"
#include "sl_mem.h"

typedef struct fstat {
  int64_t func_id;
  size_t first_seen;    /* order of first appearance */
  uint64_t count;
  double sum_exec;
  double sum_local;
  uint64_t n_local;
  double sum_head, sum_tail, sum_prop;
  uint64_t n_head, n_prop;
  double total_latency;
} fstat;

/* Per-function sums in first-seen order, found by func id. */
typedef struct fmap {
  SL_VEC(fstat) f;
  sl_map of; /* func id -> index into f */
} fmap;

static fstat *fmap_get(fmap *m, int64_t id) {
  int added;
  uint64_t *slot = sl_map_u64_ref(&m->of, (uint64_t)id, &added);
  if (!added) return &m->f.v[*slot];
  *slot = m->f.n;
  fstat *f = sl_vec_add(&m->f);
  f->func_id = id;
  f->first_seen = m->f.n - 1;
  return f;
}

static int by_func(const void *a, const void *b) {
  const fstat *p = a, *q = b;
  return p->func_id < q->func_id ? -1 : p->func_id > q->func_id;
}

static void rep(FILE *out, char ch, int n) {
  for (int i = 0; i < n; i++) putc(ch, out);
  putc('\n', out);
}

static const char *level_desc(int level) {
  switch (level) {
  case 1: return "AICore timing only";
  case 2: return "AICore + AICPU timing";
  case 3: return "AICore + AICPU timing + scheduler phases";
  case 4: return "full collection with orchestrator phases";
  default: return "unknown";
  }
}

/* Per-function sums (sorted by func id) and the totals, in the reference's
** summation order; shared by the table and --summary-json. */
typedef struct summary {
  fmap fm;
  int has_timing;
  double min_disp, max_fin, min_core, max_core;
  double total_latency, total_exec;
  uint64_t total_count;
} summary;

static void summary_compute(const sl_capture *c, summary *S) {
  memset(S, 0, sizeof *S);
  S->has_timing = c->level >= SL_LEVEL_AICPU_TIMING;
  S->min_disp = S->min_core = INFINITY;
  S->max_fin = S->max_core = -INFINITY;
  for (size_t i = 0; i < c->n_tasks; i++) {
    const sl_task *t = &c->tasks[i];
    fstat *f = fmap_get(&S->fm, t->func_id);
    f->count++;
    f->sum_exec += sl_task_duration_us(t);
    f->sum_local += sl_task_local_setup_us(t);
    f->n_local++;
    if (S->has_timing) {
      f->sum_head += t->start_us - t->dispatch_us;
      f->sum_tail += t->finish_us - t->end_us;
      f->n_head++;
      if (t->flags & SL_TASK_HAS_PROPAGATION) {
        f->sum_prop += sl_task_propagation_us(t);
        f->n_prop++;
      }
      f->total_latency += t->finish_us - t->dispatch_us;
      if (t->dispatch_us < S->min_disp) S->min_disp = t->dispatch_us;
      if (t->finish_us > S->max_fin) S->max_fin = t->finish_us;
    }
    if (t->receive_us < S->min_core) S->min_core = t->receive_us;
    if (t->end_us > S->max_core) S->max_core = t->end_us;
  }
  /* TOTAL latency sums groups in first-appearance order, exec in id order */
  for (size_t i = 0; i < S->fm.f.n; i++) S->total_latency += S->fm.f.v[i].total_latency;
  if (S->fm.f.n) qsort(S->fm.f.v, S->fm.f.n, sizeof *S->fm.f.v, by_func);
  for (size_t i = 0; i < S->fm.f.n; i++) {
    S->total_exec += S->fm.f.v[i].sum_exec;
    S->total_count += S->fm.f.v[i].count;
  }
}

static void summary_free(summary *S) {
  sl_vec_free(&S->fm.f);
  sl_map_free(&S->fm.of);
}

sl_func_stat *sl_convert_func_stats(const sl_capture *c, size_t *n) {
  summary S;
  summary_compute(c, &S);
  sl_func_stat *v = S.fm.f.n ? sl_mem_calloc(S.fm.f.n, sizeof *v) : NULL;
  *n = v ? S.fm.f.n : 0;
  for (size_t i = 0; i < *n; i++) {
    const fstat *f = &S.fm.f.v[i];
    v[i] = (sl_func_stat){.func_id = f->func_id, .count = f->count, .sum_exec = f->sum_exec,
                          .sum_latency = f->total_latency, .sum_head = f->sum_head,
                          .sum_tail = f->sum_tail, .sum_prop = f->sum_prop,
                          .sum_local = f->sum_local, .n_head = f->n_head, .n_prop = f->n_prop,
                          .n_local = f->n_local};
  }
  summary_free(&S);
  return v;
}

static const char *func_label(const fstat *f, sl_rules *r, const sl_namemap *m, char *buf, size_t len) {
  char def[48];
  const char *mapped = m && f->func_id >= 0 ? sl_namemap_lookup(m, f->func_id) : NULL;
  snprintf(buf, len, "%s", f->func_id < 0 ? sl_func_default_name(def, f->func_id)
                                          : sl_rules_func_name(r, f->func_id, mapped));
  return buf;
}

void sl_convert_print_stats(FILE *out, const sl_capture *c, sl_rules *r, const sl_namemap *m) {
  summary S;
  summary_compute(c, &S);
  fmap fm = S.fm;
  int has_timing = S.has_timing;
  double min_disp = S.min_disp, max_fin = S.max_fin, min_core = S.min_core, max_core = S.max_core;
  double total_latency = S.total_latency, total_exec = S.total_exec;
  uint64_t total_count = S.total_count;

  fputc('\n', out);
  rep(out, '=', 140);
  fputs("Task Statistics by Function\n", out);
  fprintf(out, "  Source chip_swimlane_level: %d (%s; recorded in chip_swimlane_records.json)\n",
          c->level, level_desc(c->level));
  fputs("  Exec = kernel time on AICore; Latency = dispatch->finish (incl. head OH + Exec + tail OH)\n",
        out);
  fputs("  Head OH split (v3): Prop = NoC propagation (dispatch_ts\xe2\x86\x92"
        "AICore receive); Local = dcci+ack (receive\xe2\x86\x92start)\n",
        out);
  rep(out, '=', 140);
  fprintf(out, "%-8s %-12s %5s   %12s  %15s  %6s   %15s  %15s  %12s  %13s\n", "Func_ID",
          "Func_Name", "Count", "Avg Exec(us)", "Avg Latency(us)", "Exec%", "Avg Head OH(us)",
          "Avg Tail OH(us)", "Avg Prop(us)", "Avg Local(us)");
  rep(out, '-', 140);
  for (size_t i = 0; i < fm.f.n; i++) {
    const fstat *f = &fm.f.v[i];
    char name[128], lat[32], ratio[32], head[32], tail[32], prop[32], local[32];
    func_label(f, r, m, name, sizeof name);
    if (has_timing) {
      snprintf(lat, sizeof lat, "%.2f", f->total_latency / (double)f->count);
      if (f->total_latency != 0)
        snprintf(ratio, sizeof ratio, "%.1f%%", f->sum_exec / f->total_latency * 100.0);
      else
        snprintf(ratio, sizeof ratio, "0.0%%");
      snprintf(head, sizeof head, "%.2f", f->n_head ? f->sum_head / (double)f->n_head : 0.0);
      snprintf(tail, sizeof tail, "%.2f", f->n_head ? f->sum_tail / (double)f->n_head : 0.0);
    } else {
      strcpy(lat, "-");
      strcpy(ratio, "-");
      strcpy(head, "-");
      strcpy(tail, "-");
    }
    if (f->n_prop)
      snprintf(prop, sizeof prop, "%12.2f", f->sum_prop / (double)f->n_prop);
    else
      snprintf(prop, sizeof prop, "%12s", "-");
    if (f->n_local)
      snprintf(local, sizeof local, "%13.2f", f->sum_local / (double)f->n_local);
    else
      snprintf(local, sizeof local, "%13s", "-");
    fprintf(out, "%-8lld %-12s %5llu   %12.2f  %15s  %6s   %15s  %15s  %s  %s\n",
            (long long)f->func_id, name, (unsigned long long)f->count,
            f->sum_exec / (double)f->count, lat, ratio, head, tail, prop, local);
  }
  rep(out, '-', 140);
  /* TOTAL sums only what sums (the count); the average columns hold the averages
  ** over all tasks (the reference printed the sums of exec and latency there). */
  char tl[32], tr[32];
  double n_all = total_count ? (double)total_count : 1.0;
  if (has_timing && total_latency > 0) {
    snprintf(tl, sizeof tl, "%.2f", total_latency / n_all);
    snprintf(tr, sizeof tr, "%.1f%%", total_exec / total_latency * 100.0);
  } else {
    strcpy(tl, "-");
    strcpy(tr, "-");
  }
  fprintf(out, "%-21s %5llu   %12.2f  %15s  %6s\n", "TOTAL", (unsigned long long)total_count,
          total_exec / n_all, tl, tr);
  if (has_timing && isfinite(min_disp) && isfinite(max_fin)) {
    fprintf(out, "\nTotal Test Time: %.2f us (from earliest dispatch to latest finish)\n",
            max_fin - min_disp);
  } else if (c->level == SL_LEVEL_AICORE_TIMING && c->n_tasks > 0) {
    fprintf(out,
            "\nAICore Observed Span: %.2f us (from earliest AICore receive to latest AICore end)\n",
            max_core - min_core);
  }
  if (has_timing && total_count > 0 && total_latency > 0) {
    double ae = total_exec / (double)total_count, al = total_latency / (double)total_count;
    fputs("\n--- Task execution vs Scheduler overhead ---\n", out);
    fprintf(out,
            "  Per-task (all):  Avg Exec = %.2f us,  Avg Latency (dispatch->finish) = %.2f us,  "
            "Exec/Latency = %.2f%%\n",
            ae, al, total_exec / total_latency * 100.0);
    fputs("  (Latency = dispatch\xe2\x86\x92" "finish; Exec = AICore kernel time per task)\n", out);
  }
  sl_convert_print_task_slots(out, c);
  rep(out, '=', 110);
  summary_free(&S);
}

/* A number, or null when the table shows "-". */
static void add_num(cJSON *o, const char *k, int have, double v) {
  if (have) cJSON_AddNumberToObject(o, k, v);
  else cJSON_AddNullToObject(o, k);
}

char *sl_convert_summary_json_text(const sl_capture *c, sl_rules *r, const sl_namemap *m) {
  summary S;
  summary_compute(c, &S);
  cJSON *root = cJSON_CreateObject();
  if (!root) sl_mem_fail(0); /* cJSON is out of memory */
  cJSON *funcs = cJSON_AddArrayToObject(root, "functions");
  cJSON_AddNumberToObject(root, "chip_swimlane_level", c->level);
  for (size_t i = 0; i < S.fm.f.n; i++) {
    const fstat *f = &S.fm.f.v[i];
    char name[128];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "func_id", (double)f->func_id);
    cJSON_AddStringToObject(o, "name", func_label(f, r, m, name, sizeof name));
    cJSON_AddNumberToObject(o, "count", (double)f->count);
    cJSON_AddNumberToObject(o, "avg_exec_us", f->sum_exec / (double)f->count);
    add_num(o, "avg_latency_us", S.has_timing, f->total_latency / (double)f->count);
    add_num(o, "exec_pct", S.has_timing,
            f->total_latency != 0 ? f->sum_exec / f->total_latency * 100.0 : 0.0);
    /* with timing every task of a listed function counts: n_head == count >= 1 */
    add_num(o, "avg_head_oh_us", S.has_timing, f->n_head ? f->sum_head / (double)f->n_head : 0);
    add_num(o, "avg_tail_oh_us", S.has_timing, f->n_head ? f->sum_tail / (double)f->n_head : 0);
    add_num(o, "avg_prop_us", f->n_prop != 0, f->n_prop ? f->sum_prop / (double)f->n_prop : 0);
    add_num(o, "avg_local_us", f->n_local != 0, f->n_local ? f->sum_local / (double)f->n_local : 0);
    cJSON_AddItemToArray(funcs, o);
  }
  cJSON *tot = cJSON_AddObjectToObject(root, "total");
  cJSON_AddNumberToObject(tot, "count", (double)S.total_count);
  cJSON_AddNumberToObject(tot, "exec_us", S.total_exec);
  add_num(tot, "latency_us", S.has_timing, S.total_latency);
  add_num(tot, "test_time_us", S.has_timing && isfinite(S.min_disp) && isfinite(S.max_fin),
          S.max_fin - S.min_disp);
  summary_free(&S);
  sl_convert_task_slots_json(root, c);
  char *text = cJSON_Print(root);
  if (!text) sl_mem_fail(0);
  cJSON_Delete(root);
  char *copy = sl_mem_strdup(text);
  cJSON_free(text);
  return copy;
}

int sl_convert_write_summary_json(const char *path, const sl_capture *c, sl_rules *r,
                                  const sl_namemap *m) {
  char *text = sl_convert_summary_json_text(c, r, m);
  int rc = sl_file_write_line(path, text);
  sl_mem_free(text);
  return rc;
}
