/*
** overhead_report.c — the text of the scheduler-overhead report (Parts 1-6),
** laid out like the reference's sched_overhead_analysis output.
*/
#include <stdlib.h>
#include <string.h>

#include "overhead_model.h"
#include "sl_mem.h"

static void rule(FILE *f, int n) {
  for (int i = 0; i < n; i++) fputc('=', f);
  fputc('\n', f);
}

static void dashes(FILE *f, int n) {
  fputs("  ", f);
  for (int i = 0; i < n; i++) fputc('-', f);
  fputc('\n', f);
}

static double pct(double x, double denom) { return denom > 0 ? x / denom * 100 : 0.0; }

/* Engine label: aic -> "C (AIC)", aiv -> "V (AIV)", mix -> "MIX", else upper case. */
static void type_label(const char *ty, char *buf, size_t cap) {
  if (!strcmp(ty, "aic"))
    snprintf(buf, cap, "C (AIC)");
  else if (!strcmp(ty, "aiv"))
    snprintf(buf, cap, "V (AIV)");
  else if (!strcmp(ty, "mix"))
    snprintf(buf, cap, "MIX");
  else {
    size_t i = 0;
    for (; ty[i] && i + 1 < cap; i++) buf[i] = (char)(ty[i] >= 'a' && ty[i] <= 'z' ? ty[i] - 32 : ty[i]);
    buf[i] = 0;
  }
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void distribution(FILE *f, const char *label, const double *in, size_t n) {
  if (!n) {
    fprintf(f, "  %s: (no tasks)\n", label);
    return;
  }
  double *v = sl_mem_alloc(n * sizeof *v);
  memcpy(v, in, n * sizeof *v);
  qsort(v, n, sizeof *v, cmp_double);
  fprintf(f, "  %s distribution (N=%zu):\n", label, n);
  static const int ps[] = {10, 25, 50, 75, 90, 95, 99};
  for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
    size_t idx = (size_t)((double)(n * (size_t)ps[i]) / 100.0);
    if (idx > n - 1) idx = n - 1;
    char p[8];
    snprintf(p, sizeof p, "P%d", ps[i]);
    fprintf(f, "    %-5s %8.2f us\n", p, v[idx]);
  }
  double sum = 0;
  for (size_t i = 0; i < n; i++) sum += v[i]; /* ascending, as the reference sums the sorted list */
  fprintf(f, "    Max:  %8.2f us\n", v[n - 1]);
  fprintf(f, "    Mean: %8.2f us   Total: %10.1f us\n", sum / (double)n, sum);
  sl_mem_free(v);
}

static void part1(FILE *f, const sl_capture *c, const sl_oh_report *r) {
  const sl_oh_overhead *oh = &r->oh;
  double window = oh->w1 - oh->w0;
  double all = pct(oh->all_overhead_us, window), has = pct(oh->has_overhead_us, window);
  fputc('\n', f);
  rule(f, 90);
  fprintf(f, "Part 1: Overhead verdict  (idle core + ready, undispatched work \xe2\x80\x94 share of makespan)\n");
  rule(f, 90);
  fprintf(f, "  Total tasks: %zu   window: %.1f us  (first start -> last end)\n", r->n_tasks, window);
  fprintf(f, "  Per-engine overhead: ");
  for (size_t i = 0; i < oh->n_types; i++) {
    char lab[64];
    type_label(sl_str_get(c, oh->types[i]), lab, sizeof lab);
    fprintf(f, "%s%s %.1f%%", i ? "  " : "", lab, pct(oh->overhead_us[i], window));
  }
  fputc('\n', f);
  fprintf(f, "  System: all_overhead %.1f%% (every engine blocked)  |  has_overhead %.1f%% (every working engine starved)\n",
          all, has);
  fprintf(f, "  overhead(T) = idle T-core AND a ready, undispatched T-task (a MIX task counts for both).\n");
  fprintf(f, "  An engine with no ready work is NOT overhead \xe2\x80\x94 its idle is dependency-mandated progress.\n");
  if (has >= 25)
    fprintf(f, "  -> SCHEDULER-BOUND \xe2\x80\x94 a free core has ready, undispatched work for much of the makespan.\n");
  else if (has >= 8)
    fprintf(f, "  -> PARTIALLY SCHEDULER-LIMITED \xe2\x80\x94 overhead %.0f%% of the makespan; the rest is compute + "
               "dependency-limited parallelism.\n", has);
  else
    fprintf(f, "  -> COMPUTE/DEPENDENCY-BOUND \xe2\x80\x94 little reducible scheduler overhead.\n");
  fputc('\n', f);
}

static void part2(FILE *f, const sl_capture *c, const sl_oh_report *r) {
  const sl_oh_overhead *oh = &r->oh;
  const sl_oh_switch *sw = &r->sw;
  double window = oh->w1 - oh->w0;
  rule(f, 90);
  fprintf(f, "Part 2: aicore switch  (gap [prev_end, start] when dispatch < prev_end; PER CORE)\n");
  rule(f, 90);
  fprintf(f, "  Each switch is the core picking up an already-dispatched task (~sub-us). Reported\n");
  fprintf(f, "  per core (NOT summed over cores \xe2\x80\x94 switches overlap). A switch is 'overhead' when the\n");
  fprintf(f, "  engine has other ready work that instant, else 'independent'. makespan bound:\n");
  fprintf(f, "  lower = min over all cores, upper = sum of per-engine minima.\n");
  fputc('\n', f);
  fprintf(f, "  %-10s %6s %10s %10s %10s %9s %9s\n", "Engine", "Cores", "min/core", "mean/core", "max/core", "n events",
          "us/event");
  dashes(f, 74);
  for (size_t i = 0; i < oh->n_types; i++) {
    if (!sw->n_cores[i]) continue;
    char lab[64], mn[32], me[32], mx[32], ne[32], pe[32];
    type_label(sl_str_get(c, oh->types[i]), lab, sizeof lab);
    snprintf(mn, sizeof mn, "%.1fus", sw->core_min[i]);
    snprintf(me, sizeof me, "%.1fus", sw->core_sum[i] / (double)sw->n_cores[i]);
    snprintf(mx, sizeof mx, "%.1fus", sw->core_max[i]);
    snprintf(ne, sizeof ne, "%zu", sw->n_events[i]);
    snprintf(pe, sizeof pe, "%.2fus", sw->n_events[i] ? sw->event_sum[i] / (double)sw->n_events[i] : 0.0);
    fprintf(f, "  %-10s %6zu %10s %10s %10s %9s %9s\n", lab, sw->n_cores[i], mn, me, mx, ne, pe);
  }
  fputc('\n', f);
  for (size_t i = 0; i < oh->n_types; i++) {
    double tot = sw->split_overhead[i] + sw->split_independent[i];
    if (tot > 0) {
      char lab[64];
      type_label(sl_str_get(c, oh->types[i]), lab, sizeof lab);
      fprintf(f, "    %s switch split: %.0f%% during overhead, %.0f%% independent\n", lab,
              pct(sw->split_overhead[i], tot), pct(sw->split_independent[i], tot));
    }
  }
  fprintf(f, "  makespan switch bound: [%.2f, %.2f] us  (%.2f%% .. %.2f%% of makespan)\n", sw->lower, sw->upper,
          pct(sw->lower, window), pct(sw->upper, window));
  fputc('\n', f);
}

static void part34(FILE *f, const sl_oh_report *r) {
  rule(f, 90);
  fprintf(f, "Part 3: Head OH statistics & distribution\n");
  rule(f, 90);
  fprintf(f, "  head = min(start - dispatch, start - last_task_end) per task (clamped at 0)\n");
  fputc('\n', f);
  distribution(f, "Head OH", r->heads, r->n_tasks);
  fputc('\n', f);
  rule(f, 90);
  fprintf(f, "Part 4: Tail OH distribution\n");
  rule(f, 90);
  fprintf(f, "  tail = finish - end per task\n");
  fputc('\n', f);
  distribution(f, "Tail OH", r->tails, r->n_tasks);
  fputc('\n', f);
}

/* One row of the Part 5 budget table. */
static void budget_row(FILE *f, const char *label, double total, double total_us, int64_t completed) {
  char a[32], b[32], cc[32];
  snprintf(a, sizeof a, "%.1f", total);
  snprintf(b, sizeof b, "%.1f%%", total_us > 0 ? total / total_us * 100 : 0.0);
  snprintf(cc, sizeof cc, "%.2f", completed > 0 ? total / (double)completed : 0.0);
  /* the label is counted in characters: pad by code points, not bytes */
  size_t chars = 0;
  for (const char *q = label; *q; q++) chars += ((unsigned char)*q & 0xC0) != 0x80;
  fprintf(f, "  %s%*s %11s %10s %14s\n", label, chars < 55 ? (int)(55 - chars) : 0, "", a, b, cc);
}

/* Part 5's sums over the scheduler threads. phase[] is in the order of part5's
** labels: Complete, AsyncPoll, Dispatch, Idle. */
typedef struct loop_sums {
  double total_us, phase[4];
  int64_t completed, loops, finishes, pop_hit, pop_miss;
  int64_t fo_e, fo_m, fi_e, fi_m; /* fanout / fanin: edges, max degree */
} loop_sums;

/* One row per thread and the SUM row; returns the sums. */
static loop_sums part5_threads(FILE *f, const sl_oh_report *r) {
  loop_sums s = {0};
  fprintf(f, "  %-10s %7s %10s %12s %11s\n", "Thread", "Loops", "Tasks", "ns/loop", "Total (us)");
  dashes(f, 54);
  for (size_t i = 0; i < r->n_threads; i++) {
    const sl_oh_thread *t = &r->threads[i];
    char name[32], ns[32], tot[32];
    snprintf(name, sizeof name, "T%zu", t->index);
    snprintf(ns, sizeof ns, "%.0f", t->loops ? t->total_us * 1000 / (double)t->loops : 0.0);
    snprintf(tot, sizeof tot, "%.1f", t->total_us);
    fprintf(f, "  %-10s %7lld %10lld %12s %11s\n", name, (long long)t->loops, (long long)t->logical_tasks, ns, tot);
    s.total_us += t->total_us;
    s.completed += t->logical_tasks;
    s.loops += t->loops;
    s.finishes += t->finishes;
    s.phase[0] += t->complete_us;
    s.phase[1] += t->async_poll_us;
    s.phase[2] += t->dispatch_us;
    s.phase[3] += t->idle_us;
    s.pop_hit += t->pop_hit;
    s.pop_miss += t->pop_miss;
    s.fo_e += t->fanout_edges;
    s.fi_e += t->fanin_edges;
    if (t->fanout_max > s.fo_m) s.fo_m = t->fanout_max;
    if (t->fanin_max > s.fi_m) s.fi_m = t->fanin_max;
  }
  double avg_ns = s.loops > 0 ? s.total_us * 1000 / (double)s.loops : 0;
  char ns[32], tot[32];
  snprintf(ns, sizeof ns, "%.0f", avg_ns);
  snprintf(tot, sizeof tot, "%.1f", s.total_us);
  fprintf(f, "  %-10s %7lld %10lld %12s %11s\n", "SUM", (long long)s.loops, (long long)s.completed, ns, tot);
  fprintf(f, "  FINs observed (Complete phase): %lld\n", (long long)s.finishes);
  fputc('\n', f);
  return s;
}

/* ORDER loop_sums.phase */
static const char *const part5_labels[4] = {
    "Complete (poll handshake, resolve deps)",
    "AsyncPoll (async-wait completion: SDMA/RoCE/URMA/CCU)",
    "Dispatch (pop queue, build payload, flush)",
    "Idle (spinning, no progress \xe2\x80\x94 reconstructed from gaps)",
};

/* The phase budget: the three work phases, the capture's other outer phases, Idle. */
static void part5_budget(FILE *f, const sl_oh_report *r, const loop_sums *s) {
  char header[256];
  int hl = snprintf(header, sizeof header, "  %-55s %11s %10s %14s", "Phase (summed over threads)", "Total (us)",
                    "% of total", "Avg/task (us)");
  fprintf(f, "%s\n", header);
  dashes(f, hl - 2);
  for (int p = 0; p < 3; p++) budget_row(f, part5_labels[p], s->phase[p], s->total_us, s->completed);
  /* the other outer phases the capture has, in schema order, before Idle */
  for (uint32_t k = 0; k < SL_PHASE_ID_LIMIT; k++) {
    if (!r->other_records[k]) continue;
    double sum = 0;
    for (size_t i = 0; i < r->n_threads; i++) sum += r->threads[i].other_us[k];
    char label[96];
    snprintf(label, sizeof label, "%s (outer phase)", sl_phase_by_id(k)->display);
    budget_row(f, label, sum, s->total_us, s->completed);
  }
  budget_row(f, part5_labels[3], s->phase[3], s->total_us, s->completed);
  fputc('\n', f);
}

/* Fanout/fanin, pops, the tail in loop iterations, and the dominant phase. */
static void part5_insight(FILE *f, const sl_oh_report *r, const loop_sums *s) {
  double fo_avg = s->completed > 0 ? (double)s->fo_e / (double)s->completed : 0;
  double fi_avg = s->completed > 0 ? (double)s->fi_e / (double)s->completed : 0;
  fprintf(f, "  Fanout (notify consumers): total edges=%lld, max_degree=%lld, avg_degree=%.1f\n",
          (long long)s->fo_e, (long long)s->fo_m, fo_avg);
  fprintf(f, "  Fanin  (release producers): total edges=%lld, max_degree=%lld, avg_degree=%.1f\n",
          (long long)s->fi_e, (long long)s->fi_m, fi_avg);
  fputc('\n', f);
  int64_t pop_total = s->pop_hit + s->pop_miss;
  double hit_rate = pop_total > 0 ? (double)s->pop_hit / (double)pop_total * 100 : 0;
  fprintf(f, "  Pop: hit=%lld, miss=%lld, hit_rate=%.1f%%\n", (long long)s->pop_hit, (long long)s->pop_miss,
          hit_rate);
  fputc('\n', f);
  double avg_loop_us = s->loops > 0 ? s->total_us / (double)s->loops : 0;
  double avg_loop_ns = avg_loop_us * 1000;
  double tail_sum = 0;
  for (size_t i = 0; i < r->n_tasks; i++) tail_sum += r->tails[i];
  double avg_tail = tail_sum / (double)r->n_tasks;
  double ratio = avg_loop_us > 0 ? avg_tail / avg_loop_us : 0;
  fprintf(f, "  Avg scheduler loop iteration: %.0f ns (approx avg polling interval per loop)\n", avg_loop_ns);
  fputc('\n', f);
  fprintf(f, "  Avg Tail OH = %.1f us ~= %.1f x avg loop iteration (%.0f ns)\n", avg_tail, ratio, avg_loop_ns);
  fprintf(f, "  -> On average, a completed task waits ~%.1f loop iterations before being detected\n", ratio);
  fputc('\n', f);
  /* dominant work phase: first maximum among complete, async_poll, dispatch */
  int dom = 0;
  for (int p = 1; p < 3; p++)
    if (s->phase[p] > s->phase[dom]) dom = p;
  static const char *const key_label[3] = {"Complete", "AsyncPoll", "Dispatch"}; /* ORDER loop_sums.phase */
  fprintf(f, "  Key insight: %s phase consumes ~%.0f%% of scheduler CPU.\n", key_label[dom],
          s->total_us > 0 ? s->phase[dom] / s->total_us * 100 : 0.0);
  if (dom == 2) {
    fprintf(f, "  Pop hit_rate=%.1f%%: %s.\n", hit_rate,
            hit_rate < 50 ? "low hit rate suggests ready queue often empty" : "good hit rate");
    fprintf(f, "  Cache flush (dc cvac + dsb sy) is the dominant non-pop cost.\n");
  } else if (dom == 0) {
    fprintf(f, "  Fanout: avg_degree=%.1f, max_degree=%lld.\n", fo_avg, (long long)s->fo_m);
    fprintf(f, "  Fanin:  avg_degree=%.1f, max_degree=%lld.\n", fi_avg, (long long)s->fi_m);
    if (s->fi_e > s->fo_e)
      fprintf(f, "  Fanin traversal (release_producer + check_consumed) dominates the complete phase.\n");
    else
      fprintf(f, "  Fanout traversal and atomic ops dominate the complete phase.\n");
  }
}

static void part5(FILE *f, const sl_oh_report *r) {
  rule(f, 90);
  fprintf(f, "Part 5: AICPU scheduler loop breakdown\n");
  fprintf(f, "  %zu scheduler threads\n", r->n_threads);
  rule(f, 90);
  fputc('\n', f);
  loop_sums s = part5_threads(f, r);
  part5_budget(f, r, &s);
  part5_insight(f, r, &s);
  rule(f, 90);
}

static void part6(FILE *f, const sl_oh_report *r) {
  const sl_oh_critical *cp = &r->cp;
  fputc('\n', f);
  rule(f, 90);
  fprintf(f, "Part 6: Critical-path latency attribution\n");
  rule(f, 90);
  if (cp->found && cp->span > 0) {
    double sp = cp->sched / cp->span * 100, ep = cp->exec / cp->span * 100;
    double other = cp->span - cp->exec - cp->sched;
    fprintf(f, "  Makespan-determining path: %zu hops, span %.1f us\n", cp->hops, cp->span);
    fprintf(f, "    Compute (exec) on path : %.1f us (%.1f%%)\n", cp->exec, ep);
    fprintf(f, "    Scheduler injected     : %.1f us (%.1f%%)\n", cp->sched, sp);
    fprintf(f, "    Other (dep wait on path): %.1f us\n", other > 0.0 ? other : 0.0);
    fprintf(f, "  -> scheduler adds ~%.1f%% to the critical path's end-to-end latency.\n", sp);
  } else {
    fprintf(f, "  (could not resolve a critical path from the DAG)\n");
  }
  rule(f, 90);
}

int sl_oh_print(FILE *f, const sl_capture *c, const sl_oh_report *r) {
  part1(f, c, r);
  part2(f, c, r);
  part34(f, r);
  if (!r->n_threads) return 1;
  part5(f, r);
  part6(f, r);
  return 0;
}
