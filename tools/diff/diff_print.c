/*
** diff_print.c — the diff report, top to bottom: matching, makespan, functions by
** contribution, scheduler phases, orchestrator submits, critical paths. As text for
** a reader, or as JSON (the same numbers) for a script.
*/
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sl_diff.h"
#include "sl_levels.h"
#include "sl_mem.h"

static const char *rule_text(sl_match_rule r) {
  return r == SL_MATCH_ID ? "by (func_id, task id)"
                          : "by (func_id, position in the DAG) - the graphs differ";
}

/* '*' beyond noise, '~' within it, '?' not testable */
static char mark(const sl_delta *d) { return d->significant < 0 ? '?' : d->significant ? '*' : '~'; }

/* "+12.34 (+5.1%)*", or "+12.34±0.80 (+5.1%)*" with a spread, into buf */
static const char *cell(char *buf, size_t n, const sl_delta *d) {
  if (isnan(d->delta)) {
    snprintf(buf, n, "-");
    return buf;
  }
  char spread[32] = "";
  if (!isnan(d->spread)) snprintf(spread, sizeof spread, "\xc2\xb1%.2f", d->spread);
  if (isnan(d->pct))
    snprintf(buf, n, d->delta != 0.0 ? "%+.2f%s (new)%c" : "%+.2f%s%c", d->delta, spread, mark(d));
  else
    snprintf(buf, n, "%+.2f%s (%+.1f%%)%c", d->delta, spread, d->pct, mark(d));
  return buf;
}

static void print_path(FILE *out, const char *tag, const sl_diff_path *p) {
  fprintf(out, "  %-4s %zu task%s, span %.2f us:", tag, p->n, p->n == 1 ? "" : "s", p->span);
  for (size_t i = 0; i < p->n; i++) fprintf(out, "%s%s", i ? " -> " : " ", p->steps[i].label);
  fputc('\n', out);
}

/* Column width of a delta cell (wider with the spreads of repeated captures). */
static int cell_width(const sl_diff_report *rep) { return rep->n_base > 1 || rep->n_cur > 1 ? 28 : 26; }

/* s padded to w columns (UTF-8 aware: the plus-minus sign is 2 bytes, 1 column) and a
** space; w = 0: the last cell, no padding */
static void put_cell(FILE *out, const char *s, int w) {
  int cols = 0;
  for (const char *p = s; *p; p++) cols += (*p & 0xC0) != 0x80;
  fputs(s, out);
  if (!w) return;
  for (; cols < w; cols++) fputc(' ', out);
  fputc(' ', out);
}

static void print_funcs(FILE *out, const sl_diff_report *rep) {
  char c[5][64];
  int w = cell_width(rep);
  fprintf(out, "\nFunctions, by contribution to the makespan delta (%s; us, avg per task row):\n",
          rep->has_deps ? "On path = Exec on the critical path" : "no deps.json: by total Exec delta");
  fprintf(out, "  %-14s %9s  %-*s %-*s %-*s %-*s %s\n", "Function", "rows", w, "On path", w,
          "Exec", w, "Latency", w, "Head OH", "Tail OH");
  for (size_t i = 0; i < rep->n_funcs; i++) {
    const sl_diff_func_row *f = &rep->funcs[i];
    char rows[32];
    snprintf(rows, sizeof rows, "%llu/%llu", (unsigned long long)f->count_base,
             (unsigned long long)f->count_cur);
    for (int m = 0; m < SL_FM_COUNT; m++) cell(c[m], sizeof c[m], &f->m[m]);
    fprintf(out, "  %-14s %9s  ", f->name, rows);
    for (int m = 0; m < SL_FM_COUNT; m++) put_cell(out, c[m], m + 1 < SL_FM_COUNT ? w : 0);
    fputc('\n', out);
  }
  if (!rep->has_deps) return;
  fprintf(out, "  %-14s %9s  ", "(waits)", "");
  put_cell(out, cell(c[0], sizeof c[0], &rep->waits), w);
  fprintf(out, "(base %.2f, new %.2f: scheduling waits before path tasks)\n", rep->waits.base,
          rep->waits.cur);
  fprintf(out, "  %-14s %9s  ", "(off path)", "");
  put_cell(out, cell(c[1], sizeof c[1], &rep->off_path), w);
  fprintf(out, "(base %.2f, new %.2f: lead-in, tail)\n", rep->off_path.base, rep->off_path.cur);
}

static void print_named(FILE *out, const sl_diff_named_row *r, int w) {
  char t[64], n[64];
  fprintf(out, "  %-20s %12.2f %12.2f  ", r->name, r->total.base, r->total.cur);
  put_cell(out, cell(t, sizeof t, &r->total), w + 2);
  fprintf(out, "%s\n", cell(n, sizeof n, &r->count));
}

void sl_diff_print_text(FILE *out, const sl_diff_report *rep, const sl_diff_run *base,
                        const sl_diff_run *cur) {
  const sl_diff_match *m = &rep->match;
  fprintf(out, "swimlane diff\n  base: %s (level %d%s)\n  new:  %s (level %d%s)\n", base->path,
          base->cap->level, rep->n_base > 1 ? ", first of a set" : "", cur->path, cur->cap->level,
          rep->n_cur > 1 ? ", first of a set" : "");
  if (rep->n_base > 1 || rep->n_cur > 1)
    fprintf(out, "  captures: %zu base, %zu new\n", rep->n_base, rep->n_cur);
  fprintf(out, "Tasks matched %s: %zu matched, %zu appeared, %zu disappeared\n",
          rule_text(m->rule), m->n_pairs, m->appeared, m->disappeared);
  char buf[64];
  fprintf(out, "\nMakespan: %.2f us -> %.2f us  %s\n", rep->makespan.base, rep->makespan.cur,
          cell(buf, sizeof buf, &rep->makespan));
  print_funcs(out, rep);
  if (rep->has_phases) {
    fprintf(out, "\nScheduler phases (us summed over every thread):\n  %-20s %12s %12s  %-*s %s\n",
            "phase", "base", "new", cell_width(rep) + 2, "delta", "records");
    for (size_t i = 0; i < rep->n_phases; i++) print_named(out, &rep->phases[i], cell_width(rep));
  } else {
    fprintf(out, "\nScheduler phases: not recorded below level %u (this diff: level %d)\n",
            SL_MIN_LEVEL_SCHED_PHASE, rep->level);
  }
  if (rep->has_orch) {
    fprintf(out, "\nOrchestrator (us summed over every submit):\n");
    print_named(out, &rep->orch, cell_width(rep));
  }
  if (rep->has_deps) {
    fputs("\nCritical path (makespan-determining chain, root first):\n", out);
    print_path(out, "base", &rep->path_base);
    print_path(out, "new", &rep->path_cur);
    if (rep->n_moved) fputs("  moved most (new - base):\n", out);
    for (size_t i = 0; i < rep->n_moved; i++)
      fprintf(out, "    %-24s exec %+9.2f us   start %+9.2f us\n", rep->moved[i].label,
              rep->moved[i].d_exec, rep->moved[i].d_start);
  } else {
    fputs("\nCritical path: needs deps.json beside both captures (run with --enable-dep-gen)\n",
          out);
  }
  fprintf(out, "\n* beyond run-to-run noise (Welch t-test, p < %.2f); ~ within noise; "
               "? one sample per side (repeat captures: diff BASE... -- NEW...)\n",
          SL_DIFF_ALPHA);
}

/* ---- JSON ------------------------------------------------------------------------------ */

static void num(cJSON *o, const char *k, double v) {
  if (isfinite(v)) cJSON_AddNumberToObject(o, k, v);
  else cJSON_AddNullToObject(o, k);
}

/* cJSON allocates on its own: a node it could not create ends the process the one way. */
static cJSON *node(cJSON *o) {
  if (!o) sl_mem_fail(0);
  return o;
}

static cJSON *delta_json(const sl_delta *d) {
  cJSON *o = node(cJSON_CreateObject());
  num(o, "base", d->base);
  num(o, "new", d->cur);
  num(o, "delta", d->delta);
  num(o, "pct", d->pct);
  num(o, "spread", d->spread);
  num(o, "p", d->p);
  if (d->significant < 0) cJSON_AddNullToObject(o, "significant");
  else cJSON_AddBoolToObject(o, "significant", d->significant);
  cJSON_AddNumberToObject(o, "samples_base", (double)d->nb);
  cJSON_AddNumberToObject(o, "samples_new", (double)d->nn);
  return o;
}

static cJSON *named_json(const sl_diff_named_row *r) {
  cJSON *o = node(cJSON_CreateObject());
  cJSON_AddStringToObject(o, "name", r->name);
  cJSON_AddItemToObject(o, "total_us", delta_json(&r->total));
  cJSON_AddItemToObject(o, "records", delta_json(&r->count));
  return o;
}

static cJSON *path_json(const sl_diff_path *p) {
  cJSON *o = node(cJSON_CreateObject()), *a = node(cJSON_CreateArray());
  num(o, "span_us", p->span);
  for (size_t i = 0; i < p->n; i++) {
    const sl_diff_path_step *s = &p->steps[i];
    cJSON *e = node(cJSON_CreateObject());
    cJSON_AddStringToObject(e, "task", s->label);
    cJSON_AddNumberToObject(e, "func_id", (double)s->func_id);
    num(e, "sched_us", s->sched);
    num(e, "exec_us", s->exec);
    cJSON_AddBoolToObject(e, "matched", s->matched);
    if (s->matched) {
      num(e, "d_start_us", s->d_start);
      num(e, "d_exec_us", s->d_exec);
    }
    cJSON_AddItemToArray(a, e);
  }
  cJSON_AddItemToObject(o, "tasks", a);
  return o;
}

static void add_funcs(cJSON *root, const sl_diff_report *rep) {
  cJSON *fa = node(cJSON_AddArrayToObject(root, "functions"));
  for (size_t i = 0; i < rep->n_funcs; i++) {
    const sl_diff_func_row *f = &rep->funcs[i];
    cJSON *o = node(cJSON_CreateObject());
    cJSON_AddNumberToObject(o, "func_id", (double)f->func_id);
    cJSON_AddStringToObject(o, "name", f->name);
    cJSON_AddNumberToObject(o, "rows_base", (double)f->count_base);
    cJSON_AddNumberToObject(o, "rows_new", (double)f->count_cur);
    for (int m = 0; m < SL_FM_COUNT; m++)
      cJSON_AddItemToObject(o, sl_func_metric_names[m], delta_json(&f->m[m]));
    cJSON_AddItemToArray(fa, o);
  }
}

void sl_diff_print_json(FILE *out, const sl_diff_report *rep, const sl_diff_run *base,
                        const sl_diff_run *cur) {
  cJSON *root = node(cJSON_CreateObject());
  cJSON_AddStringToObject(root, "base", base->path);
  cJSON_AddStringToObject(root, "new", cur->path);
  cJSON_AddNumberToObject(root, "captures_base", (double)rep->n_base);
  cJSON_AddNumberToObject(root, "captures_new", (double)rep->n_cur);
  cJSON_AddNumberToObject(root, "level", rep->level);
  cJSON *mt = node(cJSON_AddObjectToObject(root, "matching"));
  cJSON_AddStringToObject(mt, "rule", rep->match.rule == SL_MATCH_ID ? "id" : "dag_position");
  cJSON_AddNumberToObject(mt, "matched", (double)rep->match.n_pairs);
  cJSON_AddNumberToObject(mt, "appeared", (double)rep->match.appeared);
  cJSON_AddNumberToObject(mt, "disappeared", (double)rep->match.disappeared);
  cJSON_AddItemToObject(root, "makespan_us", delta_json(&rep->makespan));
  add_funcs(root, rep);
  if (rep->has_phases) {
    cJSON *pa = node(cJSON_AddArrayToObject(root, "scheduler_phases"));
    for (size_t i = 0; i < rep->n_phases; i++)
      cJSON_AddItemToArray(pa, named_json(&rep->phases[i]));
  }
  if (rep->has_orch) cJSON_AddItemToObject(root, "orchestrator", named_json(&rep->orch));
  if (rep->has_deps) {
    cJSON *cp = node(cJSON_AddObjectToObject(root, "critical_path"));
    cJSON_AddItemToObject(cp, "base", path_json(&rep->path_base));
    cJSON_AddItemToObject(cp, "new", path_json(&rep->path_cur));
    cJSON_AddItemToObject(cp, "waits_us", delta_json(&rep->waits));
    cJSON_AddItemToObject(cp, "off_path_us", delta_json(&rep->off_path));
  }
  char *s = cJSON_Print(root);
  cJSON_Delete(root);
  if (!s) sl_mem_fail(0);
  fputs(s, out);
  fputc('\n', out);
  sl_mem_free(s);
}
