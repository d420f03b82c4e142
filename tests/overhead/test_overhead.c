/*
** test_overhead.c — `swimlane sched-overhead`: the model's numbers on a small
** hand-worked capture and on the anchor-l4 fixture (worked out by hand from the
** raw cycles in the comments), the full report text on the fixture against the
** reference tool's output, and every error path (message, exit status).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <cjson/cJSON.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "overhead_model.h"
#include "sl_capture.h"
#include "sl_phases.h"

int sl_cmd_sched_overhead(int argc, char **argv);

static char *path_in(const char *env, const char *dflt, const char *rel) {
  const char *dir = getenv(env);
  char *buf = malloc(4096);
  snprintf(buf, 4096, "%s/%s", dir ? dir : dflt, rel);
  return buf;
}
#define FIXTURE(rel) path_in("SL_FIXTURES", "tests/fixtures", rel)
#define DATA(rel) path_in("SWIMLANE_HOME", ".", "tests/overhead/data/" rel)

/* ---- run the command with stdout / stderr captured ---------------------------------------- */

static char out_text[65536], err_text[8192];

static void slurp_into(const char *path, char *buf, size_t cap) {
  FILE *f = fopen(path, "rb");
  size_t n = f ? fread(buf, 1, cap - 1, f) : 0;
  if (f) fclose(f);
  buf[n] = 0;
  unlink(path);
}

static int run_cmd(int argc, char **argv) {
  char po[64], pe[64];
  snprintf(po, sizeof po, "/tmp/sl_oh_out.%d", (int)getpid());
  snprintf(pe, sizeof pe, "/tmp/sl_oh_err.%d", (int)getpid());
  fflush(stdout);
  fflush(stderr);
  int so = dup(1), se = dup(2);
  int fo = open(po, O_RDWR | O_CREAT | O_TRUNC, 0600), fe = open(pe, O_RDWR | O_CREAT | O_TRUNC, 0600);
  dup2(fo, 1);
  dup2(fe, 2);
  close(fo);
  close(fe);
  int rc = sl_cmd_sched_overhead(argc, argv);
  fflush(stdout);
  fflush(stderr);
  dup2(so, 1);
  dup2(se, 2);
  close(so);
  close(se);
  slurp_into(po, out_text, sizeof out_text);
  slurp_into(pe, err_text, sizeof err_text);
  return rc;
}

static const sl_read_opts quiet = {1};

/* A capture and its deps.json read, and the report computed from them (paths are freed). */
typedef struct oh_case {
  sl_capture *c;
  sl_deps *d;
  sl_oh_report r;
} oh_case;

static void case_load(oh_case *k, char *rec, char *dep) {
  k->c = sl_capture_read(rec, &quiet);
  k->d = sl_deps_load(dep);
  assert_non_null(k->c);
  assert_non_null(k->d);
  assert_int_equal(sl_oh_compute(k->c, k->d, &k->r, NULL), 0);
  free(rec);
  free(dep);
}

/* The same for a capture given as text, with a deps.json without edges. */
static void case_load_mem(oh_case *k, const char *name, const char *json) {
  char dep[64];
  snprintf(dep, sizeof dep, "/tmp/sl_oh_deps.%d.json", (int)getpid());
  FILE *f = fopen(dep, "w");
  assert_non_null(f);
  fputs("{\"tasks\": [], \"edges\": []}", f);
  fclose(f);
  k->c = sl_capture_read_mem(name, json, strlen(json), &quiet);
  k->d = sl_deps_load(dep);
  unlink(dep);
  assert_non_null(k->c);
  assert_non_null(k->d);
  assert_int_equal(sl_oh_compute(k->c, k->d, &k->r, NULL), 0);
}

static void case_free(oh_case *k) {
  sl_oh_report_free(&k->r);
  sl_deps_free(k->d);
  sl_capture_free(k->c);
}


/* ---- the small hand-worked capture -----------------------------------------------------------
** 1 MHz clock, base = 10 cycles, so times below are cycles - 10 (us):
**   A (id 1) core 0 aic: dispatch 0, start 0,  end 10, finish 11
**   B (id 2) core 0 aic: dispatch 5, start 15, end 20, finish 21   (pre-dispatched: 5 < A.end)
**   C (id 3) core 1 aiv: dispatch 12, start 14, end 30, finish 31  (after A: edge 1 -> 3)
** window [0, 30]. C is ready at A.end = 10 and dispatched at 12 while the AIV core idles:
** 2 us of AIV overhead, none for AIC; has_overhead 2 us, all_overhead 0.
** Core 0 switch: gap [10, 15] = 5 us with nothing else ready -> independent.
** Heads: A 0, B min(15-5, 15-10) = 5, C 2. Tails: 1, 1, 1.
** Scheduler thread 0: dispatch [0,1], complete [11,12], dispatch [14,15], release [16,17]
** (every outer phase is in the budget, seed 3.3):
** idle 10 + 2 + 1 = 13, total 17, loops 3, finishes 1, logical tasks 3, pop 1/2.
** Critical path: C (latest finish) <- A: exec 16 + 10, scheduler 14-10 = 4, span 31 - 0. */
static void test_small_model(void **state) {
  (void)state;
  char *rec = DATA("small.json"), *dep = DATA("small_deps.json");
  sl_capture *c = sl_capture_read(rec, &quiet);
  sl_deps *d = sl_deps_load(dep);
  assert_non_null(c);
  assert_non_null(d);
  sl_oh_report r;
  assert_int_equal(sl_oh_compute(c, d, &r, NULL), 0);
  assert_int_equal(r.oh.n_types, 2);
  assert_string_equal(sl_str_get(c, r.oh.types[0]), "aic");
  assert_true(r.oh.w0 == 0.0 && r.oh.w1 == 30.0);
  assert_float_equal(r.oh.overhead_us[0], 0.0, 1e-12);
  assert_float_equal(r.oh.overhead_us[1], 2.0, 1e-12);
  assert_float_equal(r.oh.all_overhead_us, 0.0, 1e-12);
  assert_float_equal(r.oh.has_overhead_us, 2.0, 1e-12);
  assert_int_equal(r.sw.n_events[0], 1);
  assert_float_equal(r.sw.event_sum[0], 5.0, 1e-12);
  assert_float_equal(r.sw.split_independent[0], 5.0, 1e-12);
  assert_float_equal(r.sw.split_overhead[0], 0.0, 1e-12);
  assert_float_equal(r.sw.lower, 0.0, 1e-12);
  assert_float_equal(r.sw.upper, 5.0, 1e-12);
  double heads[3] = {r.heads[0], r.heads[1], r.heads[2]};
  assert_float_equal(heads[0], 0.0, 1e-12);
  assert_float_equal(heads[1], 5.0, 1e-12);
  assert_float_equal(heads[2], 2.0, 1e-12);
  for (int i = 0; i < 3; i++) assert_float_equal(r.tails[i], 1.0, 1e-12);
  assert_int_equal(r.n_threads, 1);
  assert_int_equal(r.threads[0].loops, 3);
  assert_int_equal(r.threads[0].finishes, 1);
  assert_int_equal(r.threads[0].logical_tasks, 3);
  assert_int_equal(r.threads[0].pop_hit, 1);
  assert_int_equal(r.threads[0].pop_miss, 2);
  assert_float_equal(r.threads[0].idle_us, 13.0, 1e-12);
  assert_float_equal(r.threads[0].total_us, 17.0, 1e-12);
  assert_float_equal(r.threads[0].other_us[SL_PHASE_RELEASE], 1.0, 1e-12);
  assert_int_equal(r.other_records[SL_PHASE_RELEASE], 1);
  assert_int_equal(r.threads[0].fanout_edges, 1); /* the duplicate edge counts once */
  assert_int_equal(r.threads[0].fanin_edges, 1);
  assert_true(r.cp.found);
  assert_int_equal(r.cp.hops, 1);
  assert_float_equal(r.cp.exec, 26.0, 1e-12);
  assert_float_equal(r.cp.sched, 4.0, 1e-12);
  assert_float_equal(r.cp.span, 31.0, 1e-12);
  sl_oh_report_free(&r);
  sl_deps_free(d);
  sl_capture_free(c);

  /* the report text carries those numbers */
  char *argv[] = {(char *)"sched-overhead", rec, (char *)"--deps-json", dep};
  assert_int_equal(run_cmd(4, argv), 0);
  assert_non_null(strstr(out_text, "  Per-engine overhead: C (AIC) 0.0%  V (AIV) 6.7%\n"));
  assert_non_null(strstr(out_text, "has_overhead 6.7% (every working engine starved)"));
  assert_non_null(strstr(out_text, "  -> COMPUTE/DEPENDENCY-BOUND"));
  assert_non_null(strstr(out_text, "  C (AIC)         1      5.0us      5.0us      5.0us         1    5.00us\n"));
  assert_non_null(strstr(out_text, "    C (AIC) switch split: 0% during overhead, 100% independent\n"));
  assert_non_null(strstr(out_text, "  makespan switch bound: [0.00, 5.00] us  (0.00% .. 16.67% of makespan)\n"));
  assert_non_null(strstr(out_text, "  T0               3          3         5667        17.0\n"));
  assert_non_null(strstr(out_text, "  release (outer phase)                                           1.0       5.9%           0.33\n"));
  assert_non_null(strstr(out_text, "  Pop: hit=1, miss=2, hit_rate=33.3%\n"));
  assert_non_null(strstr(out_text, "  Key insight: Dispatch phase consumes ~12% of scheduler CPU.\n"));
  assert_non_null(strstr(out_text, "  Pop hit_rate=33.3%: low hit rate suggests ready queue often empty.\n"));
  assert_non_null(strstr(out_text, "  Makespan-determining path: 1 hops, span 31.0 us\n"));
  assert_non_null(strstr(out_text, "    Other (dep wait on path): 1.0 us\n"));
  free(rec);
  free(dep);
}

/* Two tasks finish last at the same time (B id 2 and C id 3, both at 41; C follows A):
** the makespan path ends at the lower task id, B, so it has no hops (docs/sched-overhead.md:
** ties go to the lowest id, the same path on every run). */
static void test_critical_tie(void **state) {
  (void)state;
  oh_case k;
  case_load(&k, DATA("tie.json"), DATA("small_deps.json"));
  assert_true(k.r.cp.found);
  assert_int_equal(k.r.cp.n_steps, 1);
  assert_int_equal(k.r.cp.steps[0].task_id, 2);
  assert_int_equal(k.r.cp.hops, 0);
  assert_float_equal(k.r.cp.exec, 13.0, 1e-12);
  case_free(&k);
}

/* Tasks of one core that share a start are ordered by end, then dispatch (the reference
** sorts (start, end, dispatch) tuples): base 5 cycles, B [5, 10] before A [5, 15], then C
** starts at 25, dispatched at 7 while A still ran: one switch gap, 25 - 15 = 10 us. */
static void test_switch_same_start(void **state) {
  (void)state;
  oh_case k;
  case_load(&k, DATA("same_start.json"), DATA("small_deps.json"));
  assert_int_equal(k.r.sw.n_events[0], 1);
  assert_float_equal(k.r.sw.event_sum[0], 10.0, 1e-12);
  case_free(&k);
}

/* ---- the fixture ----------------------------------------------------------------------------
** Worked from anchor-l4 (50 MHz, base 1000 cycles):
**  finishes: T0 complete tp 1 + 1 + (missing) = 2, T1 1 + 2 + 2 = 5 -> 7
**  pop: hits 1+1+1 + 1+2+1+1 = 8, misses 0+2+5 + 1+0+0+3 = 11
**  logical tasks: t0, t6 on T0; t1, t2, t7, r1t0 (final row on core 3) on T1
**  fanout per first-row thread: T0 t0 {1,2,99} + r1t0 {6} = 4; T1 t1 {3} + t2 {r1t0, 6} = 3
**  tails (finish - end): .30 .10 .14 .16 .50 .10 .30 .26 = 1.86
**  critical path: t6 <- r1t0 <- t2 <- t0; exec 1.4 + 1.7 + 0.56 + 1.0 = 4.66,
**  scheduler (8.2-5.9) + (4.2-3.76) + (3.2-2.4) + (1.4-1.24) = 3.7, span 10.1 - 1.4 = 8.7 */
/* Idle reconstruction when phases nest or overlap: the gap before a phase counts from
** the latest end so far, not from the end of the phase just before it. Thread 0: complete
** [0, 20] with a dispatch [2, 4] inside it, then dispatch [25, 26]: idle 5 (not 21).
** Thread 1: dispatch [0, 10] overlapping complete [5, 15], then complete [18, 19]: idle 3. */
static void test_nested_phase_idle(void **state) {
  (void)state;
  static const char json[] =
      "{\"chip_swimlane_level\": 3, \"metadata\": {\"clock_freq_hz\": 1000000, \"num_cores\": 2,"
      " \"core_types\": [\"aic\", \"aiv\"], \"core_to_thread\": [0, 1]},"
      " \"aicore_tasks\": [[0, 1, 1, 10, 20, 0], [1, 2, 1, 12, 22, 0]],"
      " \"aicpu_tasks\": [[0, 1, 10, 21], [1, 1, 12, 23]],"
      " \"aicpu_scheduler_phases\": [["
      "  {\"kind\": \"complete\", \"start_cycles\": 10, \"end_cycles\": 30, \"loop_iter\": 1, \"tasks_processed\": 1},"
      "  {\"kind\": \"dispatch\", \"start_cycles\": 12, \"end_cycles\": 14, \"loop_iter\": 1, \"tasks_processed\": 1},"
      "  {\"kind\": \"dispatch\", \"start_cycles\": 35, \"end_cycles\": 36, \"loop_iter\": 2, \"tasks_processed\": 1}"
      " ], ["
      "  {\"kind\": \"dispatch\", \"start_cycles\": 10, \"end_cycles\": 20, \"loop_iter\": 1, \"tasks_processed\": 1},"
      "  {\"kind\": \"complete\", \"start_cycles\": 15, \"end_cycles\": 25, \"loop_iter\": 1, \"tasks_processed\": 1},"
      "  {\"kind\": \"complete\", \"start_cycles\": 28, \"end_cycles\": 29, \"loop_iter\": 2, \"tasks_processed\": 1}"
      " ]]}";
  oh_case k;
  case_load_mem(&k, "nested.json", json);
  const sl_oh_report *r = &k.r;
  assert_int_equal(r->n_threads, 2);
  assert_float_equal(r->threads[0].idle_us, 5.0, 1e-12);
  assert_float_equal(r->threads[0].complete_us, 20.0, 1e-12);
  assert_float_equal(r->threads[0].dispatch_us, 3.0, 1e-12);
  assert_float_equal(r->threads[1].idle_us, 3.0, 1e-12);
  assert_float_equal(r->threads[1].complete_us, 11.0, 1e-12);
  assert_float_equal(r->threads[1].dispatch_us, 10.0, 1e-12);
  case_free(&k);
}

/* The scheduler budget: every outer phase, and resolve unless a TMR
** complete or dummy contains it; the HBG P thread's resolve_standalone is an outer phase.
** Thread 0 (TMR): complete [10, 30] with a resolve [12, 14] inside, dummy [40, 50] with a
** resolve [42, 44] inside, dispatch [55, 56], a lone resolve [60, 62]: resolve 2 (the lone
** one), idle 10 + 5 + 4. Thread 1 (HBG P): resolve_standalone [10, 15], async_poll [16, 17],
** dummy [18, 20], resolve_standalone [22, 23]: resolve 6, idle 1 + 1 + 2. */
static void test_budget_resolve(void **state) {
  (void)state;
#define PH(k, s, e) "{\"kind\": \"" k "\", \"start_cycles\": " #s ", \"end_cycles\": " #e ", \"loop_iter\": 1, \"tasks_processed\": 1}"
  static const char json[] =
      "{\"chip_swimlane_level\": 3, \"metadata\": {\"clock_freq_hz\": 1000000, \"num_cores\": 2,"
      " \"core_types\": [\"aic\", \"aiv\"], \"core_to_thread\": [0, 1]},"
      " \"aicore_tasks\": [[0, 1, 1, 10, 20, 0], [1, 2, 1, 12, 22, 0]],"
      " \"aicpu_tasks\": [[0, 1, 10, 21], [1, 1, 12, 23]],"
      " \"aicpu_scheduler_phases\": [[" PH("complete", 10, 30) ", " PH("resolve", 12, 14) ", " PH("dummy", 40, 50) ", "
      PH("resolve", 42, 44) ", " PH("dispatch", 55, 56) ", " PH("resolve", 60, 62) "], ["
      PH("resolve_standalone", 10, 15) ", " PH("async_poll", 16, 17) ", " PH("dummy", 18, 20) ", "
      PH("resolve_standalone", 22, 23) "]]}";
#undef PH
  oh_case k;
  case_load_mem(&k, "budget.json", json);
  assert_int_equal(k.r.n_threads, 2);
  const sl_oh_thread *t = &k.r.threads[0], *p = &k.r.threads[1];
  assert_float_equal(t->complete_us, 20.0, 1e-12);
  assert_float_equal(t->other_us[SL_PHASE_DUMMY], 10.0, 1e-12);
  assert_float_equal(t->other_us[SL_PHASE_RESOLVE], 2.0, 1e-12); /* the nested two are not counted */
  assert_float_equal(t->idle_us, 19.0, 1e-12);
  assert_float_equal(t->total_us, 52.0, 1e-12);
  assert_float_equal(p->other_us[SL_PHASE_RESOLVE_STANDALONE], 6.0, 1e-12);
  assert_float_equal(p->async_poll_us, 1.0, 1e-12);
  assert_float_equal(p->other_us[SL_PHASE_DUMMY], 2.0, 1e-12);
  assert_float_equal(p->idle_us, 4.0, 1e-12);
  assert_float_equal(p->total_us, 13.0, 1e-12);
  case_free(&k);
}

static void test_fixture_model(void **state) {
  (void)state;
  oh_case k;
  case_load(&k, FIXTURE("anchor-l4/chip_swimlane_records.json"), FIXTURE("anchor-l4/deps.json"));
  assert_int_equal(k.r.n_threads, 2);
  assert_int_equal(k.r.threads[0].finishes + k.r.threads[1].finishes, 7);
  assert_int_equal(k.r.threads[0].pop_hit + k.r.threads[1].pop_hit, 8);
  assert_int_equal(k.r.threads[0].pop_miss + k.r.threads[1].pop_miss, 11);
  assert_int_equal(k.r.threads[0].logical_tasks, 2);
  assert_int_equal(k.r.threads[1].logical_tasks, 4);
  assert_int_equal(k.r.threads[0].loops, 6);
  assert_int_equal(k.r.threads[1].loops, 7);
  assert_int_equal(k.r.threads[0].fanout_edges, 4);
  assert_int_equal(k.r.threads[1].fanout_edges, 3);
  double tails = 0;
  for (size_t i = 0; i < k.r.n_tasks; i++) tails += k.r.tails[i];
  assert_float_equal(tails, 1.86, 1e-9);
  assert_int_equal(k.r.cp.hops, 3);
  assert_float_equal(k.r.cp.exec, 4.66, 1e-9);
  assert_float_equal(k.r.cp.sched, 3.70, 1e-9);
  assert_float_equal(k.r.cp.span, 8.70, 1e-9);
  case_free(&k);
}

/* the whole report, byte for byte, against the reference tool's output on the fixture,
** except that the fixture's one release record (0.04 us on T0) is in the budget, as
** seed 3.3 says (a "release (outer phase)" row; T0 9.0 -> 9.1 us, Idle 86.6 -> 86.4%) */
static void test_fixture_report_text(void **state) {
  (void)state;
  char *rec = FIXTURE("anchor-l4/chip_swimlane_records.json"), *want_path = DATA("anchor_l4_expected.txt");
  char *dep = FIXTURE("anchor-l4/deps.json");
  char *argv[] = {(char *)"sched-overhead", rec};
  assert_int_equal(run_cmd(2, argv), 0);
  FILE *f = fopen(want_path, "rb");
  assert_non_null(f);
  static char want[65536], expect[65536];
  size_t n = fread(want, 1, sizeof want - 1, f);
  fclose(f);
  want[n] = 0;
  /* the golden names its inputs @RECORDS@ / @DEPS@ */
  char *a = strstr(want, "@RECORDS@"), *b = strstr(want, "@DEPS@");
  assert_non_null(a);
  assert_non_null(b);
  *a = 0;
  *b = 0;
  snprintf(expect, sizeof expect, "%s%s%s%s%s", want, rec, a + 9, dep, b + 6);
  assert_string_equal(out_text, expect);
  /* the reader's warning about the unmatched aicpu row reaches stderr */
  assert_non_null(strstr(err_text, "1 aicpu_task(s) had no matching AICore record"));
  free(rec);
  free(dep);
  free(want_path);
}

/* ---- errors --------------------------------------------------------------------------------- */

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

/* The library returns its errors on the sl_err (the command prints them): a
** --summary-json that cannot be written fails with the path and the reason. */
static void test_write_json_error(void **state) {
  (void)state;
  oh_case k;
  case_load(&k, DATA("tie.json"), DATA("small_deps.json"));
  sl_err err = SL_ERR_INIT;
  assert_int_equal(sl_oh_write_json("/nonexistent/dir/summary.json", k.c, &k.r, &err), SL_FAIL);
  assert_true(sl_err_is_set(&err));
  assert_non_null(strstr(err.file, "/nonexistent/dir"));
  assert_non_null(err.msg);
  sl_err_clear(&err);
  char dir[] = "/tmp/sl_oh_json_XXXXXX", path[64];
  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/summary.json", dir);
  assert_int_equal(sl_oh_write_json(path, k.c, &k.r, &err), SL_OK);
  assert_false(sl_err_is_set(&err));
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  static char text[65536];
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = 0;
  /* every scheduler thread of the report, named by its index, with its loop count */
  cJSON *doc = cJSON_Parse(text);
  assert_non_null(doc);
  cJSON *ths = cJSON_GetObjectItem(doc, "scheduler_threads");
  assert_int_equal(cJSON_GetArraySize(ths), (int)k.r.n_threads);
  assert_true(k.r.n_threads > 0);
  for (size_t i = 0; i < k.r.n_threads; i++) {
    cJSON *t = cJSON_GetArrayItem(ths, (int)i);
    assert_int_equal((int)cJSON_GetObjectItem(t, "thread")->valuedouble, (int)k.r.threads[i].index);
    assert_int_equal((int)cJSON_GetObjectItem(t, "loops")->valuedouble, (int)k.r.threads[i].loops);
  }
  cJSON_Delete(doc);
  unlink(path);
  rmdir(dir);
  case_free(&k);
}

static void test_errors(void **state) {
  (void)state;
  char dir[] = "/tmp/sl_oh_XXXXXX";
  assert_non_null(mkdtemp(dir));
  char rec[256], dep[256], lvl2[256], empty[256];
  snprintf(rec, sizeof rec, "%s/chip_swimlane_records.json", dir);
  snprintf(dep, sizeof dep, "%s/deps.json", dir);
  snprintf(lvl2, sizeof lvl2, "%s/level2.json", dir);
  snprintf(empty, sizeof empty, "%s/empty.json", dir);
  char *small = DATA("small.json");
  FILE *in = fopen(small, "rb");
  static char buf[8192];
  size_t n = fread(buf, 1, sizeof buf - 1, in);
  fclose(in);
  buf[n] = 0;
  write_file(rec, buf);

  /* missing records file */
  char *a1[] = {(char *)"sched-overhead", (char *)"/nonexistent/chip_swimlane_records.json"};
  assert_int_equal(run_cmd(2, a1), 1);
  assert_string_equal(err_text, "swimlane: /nonexistent/chip_swimlane_records.json: Perf JSON not found\n");

  /* no deps.json anywhere */
  char *a2[] = {(char *)"sched-overhead", rec};
  assert_int_equal(run_cmd(2, a2), 1);
  assert_non_null(strstr(err_text, "scheduler-overhead analysis needs the task DAG (deps.json). Capture it in a SEPARATE run"));
  assert_non_null(strstr(out_text, "Perf data:  "));
  assert_null(strstr(out_text, "Part 1"));

  /* unreadable deps.json (truncated) */
  write_file(dep, "{\"edges\": [");
  assert_int_equal(run_cmd(2, a2), 1);
  assert_non_null(strstr(err_text, "deps.json: failed to read deps.json: truncated JSON"));
  assert_non_null(strstr(out_text, "Deps JSON:  "));

  /* explicit deps path that does not exist */
  char *a3[] = {(char *)"sched-overhead", rec, (char *)"--deps-json", (char *)"/nonexistent/deps.json"};
  assert_int_equal(run_cmd(4, a3), 1);
  assert_non_null(strstr(err_text, "/nonexistent/deps.json: failed to read deps.json: No such file or directory"));

  /* no tasks */
  write_file(empty, "{\"chip_swimlane_level\": 3, \"metadata\": {\"clock_freq_hz\": 5, \"core_types\": []}}");
  char *a4[] = {(char *)"sched-overhead", empty};
  assert_int_equal(run_cmd(2, a4), 1);
  assert_non_null(strstr(err_text, "empty.json: No tasks found in perf data"));

  /* no scheduler phases: Parts 1-4 print, then the error */
  write_file(dep, "{\"edges\": []}");
  write_file(lvl2, "{\"chip_swimlane_level\": 2, \"metadata\": {\"clock_freq_hz\": 1000000, \"core_types\": [\"aic\"]},"
                   " \"aicore_tasks\": [[0, 1, 1, 10, 20, 0]], \"aicpu_tasks\": [[0, 1, 5, 25]]}");
  char *a5[] = {(char *)"sched-overhead", lvl2};
  assert_int_equal(run_cmd(2, a5), 1);
  assert_non_null(strstr(out_text, "Part 4: Tail OH distribution"));
  assert_null(strstr(out_text, "Part 5"));
  assert_non_null(strstr(err_text, "perf JSON has no aicpu_scheduler_phases"));

  /* a broken capture: the reader's message, exit 1 */
  write_file(empty, "{\"chip_swimlane_level\": 9}");
  assert_int_equal(run_cmd(2, a4), 1);
  assert_non_null(strstr(err_text, "unsupported chip_swimlane_level: 9"));

  /* usage errors exit 2 */
  char *a6[] = {(char *)"sched-overhead", (char *)"--bogus"};
  assert_int_equal(run_cmd(2, a6), 2);
  assert_non_null(strstr(err_text, "swimlane sched-overhead: unknown option '--bogus'"));
  char *a7[] = {(char *)"sched-overhead", rec, (char *)"--deps-json"};
  assert_int_equal(run_cmd(3, a7), 2);

  /* no RECORDS and no outputs/ under the current directory */
  char cwd[4096];
  assert_non_null(getcwd(cwd, sizeof cwd));
  assert_int_equal(chdir(dir), 0);
  char *a8[] = {(char *)"sched-overhead"};
  assert_int_equal(run_cmd(1, a8), 1);
  assert_non_null(strstr(err_text, "No outputs/*/chip_swimlane_records.json found under"));
  assert_int_equal(chdir(cwd), 0);

  unlink(rec);
  unlink(dep);
  unlink(lvl2);
  unlink(empty);
  rmdir(dir);
  free(small);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_small_model),
    cmocka_unit_test(test_critical_tie),
    cmocka_unit_test(test_switch_same_start),
      cmocka_unit_test(test_nested_phase_idle),
      cmocka_unit_test(test_budget_resolve),
    cmocka_unit_test(test_fixture_model),
    cmocka_unit_test(test_fixture_report_text),
    cmocka_unit_test(test_errors),
    cmocka_unit_test(test_write_json_error),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
