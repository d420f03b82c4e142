/*
** test_diff.c — the pieces of `swimlane diff` that decide things: the statistics
** (incomplete beta, Welch p, the significance flag), task matching under both rules,
** and --fail-if parsing and checking.
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sl_diff.h"

/* cmocka compares floats in single precision; these need double */
#define assert_near(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

/* ---- statistics ---- */

static void test_ibeta_closed_forms(void **state) {
  (void)state;
  for (double x = 0.05; x < 1.0; x += 0.1) {
    assert_near(sl_diff_ibeta(x, 1, 1), x, 1e-12);             /* uniform */
    assert_near(sl_diff_ibeta(x, 3, 1), x * x * x, 1e-12);     /* I_x(a,1) = x^a */
    assert_near(sl_diff_ibeta(x, 1, 2), 1 - (1 - x) * (1 - x), 1e-12);
  }
  assert_near(sl_diff_ibeta(0.0, 2, 3), 0.0, 0);
  assert_near(sl_diff_ibeta(1.0, 2, 3), 1.0, 0);
}

static void test_welch_known_values(void **state) {
  (void)state;
  /* equal variances, t = 5 on 8 degrees of freedom: p = 0.0010528 (numerical integration) */
  double x[] = {1, 2, 3, 4, 5}, y[] = {6, 7, 8, 9, 10};
  double p = sl_diff_welch_p(sl_diff_mean(x, 5), sl_diff_sd(x, 5), 5, sl_diff_mean(y, 5),
                             sl_diff_sd(y, 5), 5);
  assert_near(p, 0.0010528258, 1e-8);
  /* unequal variances and sizes: Welch-Satterthwaite df = 4.515, t = 4.6587, p = 0.0071456 */
  double a[] = {10.1, 10.3, 9.9, 10.0}, b[] = {11.0, 12.5, 10.8, 11.9, 12.2};
  sl_delta d = sl_diff_delta(a, 4, b, 5);
  assert_near(d.p, 0.0071455819, 1e-7);
  assert_int_equal(d.significant, 1);
  assert_near(d.delta, 11.68 - 10.075, 1e-9);
  assert_near(d.pct, 100.0 * (11.68 - 10.075) / 10.075, 1e-9);
  assert_true(d.spread > 0);
}

static void test_delta_noise_and_unknown(void **state) {
  (void)state;
  double a[] = {10, 12, 9, 11}, b[] = {11, 9, 12, 10};     /* same spread, same mean */
  sl_delta d = sl_diff_delta(a, 4, b, 4);
  assert_int_equal(d.significant, 0);
  assert_near(d.delta, 0.0, 1e-12);
  double one[] = {5}, two[] = {7};
  d = sl_diff_delta(one, 1, two, 1);                        /* one sample a side: not testable */
  assert_int_equal(d.significant, -1);
  assert_true(isnan(d.spread));
  assert_near(d.delta, 2.0, 0);
  double c1[] = {3, 3}, c2[] = {4, 4};                      /* no noise: any change is real */
  assert_int_equal(sl_diff_delta(c1, 2, c2, 2).significant, 1);
  assert_int_equal(sl_diff_delta(c1, 2, c1, 2).significant, 0);
  double z[] = {0, 0};
  assert_true(isnan(sl_diff_delta(z, 2, c2, 2).pct));      /* no base: no percentage */
}

/* ---- matching ---- */

static sl_diff_task T(int64_t f, uint64_t id, uint32_t depth, uint32_t ord) {
  return (sl_diff_task){.func_id = f, .task_id = id, .depth = depth, .ordinal = ord};
}

static void test_match_by_id(void **state) {
  (void)state;
  sl_diff_task b[] = {T(0, 0, 0, 0), T(0, 2, 1, 0), T(1, 1, 0, 0), T(1, 3, 1, 0)};
  sl_diff_task n[] = {T(0, 0, 0, 0), T(0, 2, 1, 0), T(1, 1, 0, 0), T(1, 3, 1, 0)};
  assert_true(sl_diff_same_graph(b, 4, NULL, n, 4, NULL));
  sl_diff_match m;
  sl_diff_match_tasks(b, 4, n, 4, SL_MATCH_ID, &m);
  assert_int_equal(m.n_pairs, 4);
  assert_int_equal(m.appeared + m.disappeared, 0);
  for (size_t i = 0; i < m.n_pairs; i++) {
    assert_int_equal(b[m.pairs[i][0]].task_id, n[m.pairs[i][1]].task_id);
    assert_int_equal(b[m.pairs[i][0]].func_id, n[m.pairs[i][1]].func_id);
  }
  sl_diff_match_free(&m);
}

static void test_match_by_position_after_insert(void **state) {
  (void)state;
  /* new run: an extra func-2 task submitted first shifts every id by one */
  sl_diff_task b[] = {T(0, 0, 0, 0), T(0, 2, 1, 0), T(1, 1, 0, 0)};
  sl_diff_task n[] = {T(0, 1, 0, 0), T(0, 3, 1, 0), T(1, 2, 0, 0), T(2, 0, 0, 0)};
  assert_false(sl_diff_same_graph(b, 3, NULL, n, 4, NULL));
  sl_diff_match m;
  sl_diff_match_tasks(b, 3, n, 4, SL_MATCH_ID, &m);
  assert_int_equal(m.n_pairs, 0);                          /* every id shifted: none pair by id */
  sl_diff_match_free(&m);
  sl_diff_match_tasks(b, 3, n, 4, SL_MATCH_POSITION, &m);
  assert_int_equal(m.n_pairs, 3);
  assert_int_equal(m.appeared, 1);
  assert_int_equal(m.disappeared, 0);
  assert_int_equal(n[m.base_to_cur[1]].task_id, 3);        /* the depth-1 func-0 task */
  assert_int_equal(n[m.base_to_cur[2]].task_id, 2);
  assert_int_equal(m.cur_to_base[3], SIZE_MAX);            /* the inserted task */
  assert_int_equal(b[m.cur_to_base[1]].task_id, 2);
  sl_diff_match_free(&m);
  /* and a task gone from the new run */
  sl_diff_match_tasks(n, 4, b, 3, SL_MATCH_POSITION, &m);
  assert_int_equal(m.disappeared, 1);
  assert_int_equal(m.appeared, 0);
  sl_diff_match_free(&m);
}

/* ---- --fail-if ---- */

static void test_failif_parse(void **state) {
  (void)state;
  sl_failif f;
  assert_int_equal(sl_failif_parse("makespan>5%", &f), 0);
  assert_string_equal(f.subject, "makespan");
  assert_true(f.percent);
  assert_near(f.limit, 5, 0);
  assert_int_equal(sl_failif_parse("MATMUL.latency>10us", &f), 0);
  assert_string_equal(f.subject, "MATMUL");
  assert_int_equal(f.metric, SL_FM_LATENCY);
  assert_false(f.percent);
  assert_int_equal(sl_failif_parse("3>-2.5", &f), 0);
  assert_int_equal(f.metric, SL_FM_EXEC);
  assert_near(f.limit, -2.5, 0);
  assert_int_equal(sl_failif_parse("makespan<5%", &f), -1);
  assert_int_equal(sl_failif_parse("MATMUL.speed>5%", &f), -1);
  assert_int_equal(sl_failif_parse(">5", &f), -1);
  assert_int_equal(sl_failif_parse("makespan>5ms", &f), -1);
}

static void test_failif_check(void **state) {
  (void)state;
  sl_diff_func_row rows[2] = {{.func_id = 0, .name = "MATMUL"}, {.func_id = 1, .name = "ADD"}};
  double b[] = {10}, n[] = {12}, same[] = {10};
  rows[0].m[SL_FM_EXEC] = sl_diff_delta(b, 1, n, 1);      /* +20% */
  rows[1].m[SL_FM_EXEC] = sl_diff_delta(b, 1, same, 1);   /* +0% */
  sl_diff_report rep = {.n_funcs = 2, .funcs = rows};
  rep.makespan = sl_diff_delta(b, 1, n, 1);
  sl_failif f[4];
  assert_int_equal(sl_failif_parse("makespan>5%", &f[0]), 0);
  assert_int_equal(sl_failif_parse("*.exec>5%", &f[1]), 0);
  assert_int_equal(sl_failif_parse("1>1us", &f[2]), 0);
  assert_int_equal(sl_failif_parse("MATMUL>25%", &f[3]), 0);
  FILE *err = tmpfile();
  assert_non_null(err);
  assert_int_equal(sl_failif_check(f, 4, &rep, err), 2);  /* makespan and MATMUL under '*' */
  rewind(err);
  char line[256];
  assert_non_null(fgets(line, sizeof line, err));
  assert_non_null(strstr(line, "makespan +2.00 us (+20.0%)"));
  assert_non_null(fgets(line, sizeof line, err));
  assert_non_null(strstr(line, "MATMUL exec"));
  fclose(err);
  sl_failif unknown;
  assert_int_equal(sl_failif_parse("NOPE>1%", &unknown), 0);
  err = tmpfile();
  assert_int_equal(sl_failif_check(&unknown, 1, &rep, err), -1);
  fclose(err);
}

/* ---- the report on a real capture (the reference fixture) ---- */

static void fixture_path(char *buf, size_t n) {
  const char *fx = getenv("SL_FIXTURES");
  snprintf(buf, n, "%s/anchor-l4/chip_swimlane_records.json", fx ? fx : "tests/fixtures");
}

/* The base and a copy whose SF (func 1) kernels each run `slow` µs longer. */
static void load_pair(sl_diff_run *b, sl_diff_run *n, double slow) {
  char path[512];
  fixture_path(path, sizeof path);
  assert_int_equal(sl_diff_run_load(b, path), 0);
  assert_int_equal(sl_diff_run_load(n, path), 0);
  for (size_t i = 0; i < n->cap->n_tasks; i++) {
    sl_task *t = &n->cap->tasks[i];
    if (t->func_id != 1) continue;
    t->end_us += slow;
    t->finish_us += slow;
  }
  sl_diff_run_index(n);
}

static const sl_diff_func_row *row_named(const sl_diff_report *r, const char *name) {
  for (size_t i = 0; i < r->n_funcs; i++)
    if (!strcmp(r->funcs[i].name, name)) return &r->funcs[i];
  fail_msg("no row %s", name);
  return NULL;
}

/* makespan = exec on the path (the contributions) + waits + off-path time, per side */
static void assert_decomposes(const sl_diff_report *r) {
  double cb = 0, cn = 0;
  for (size_t i = 0; i < r->n_funcs; i++) {
    cb += r->funcs[i].m[SL_FM_CONTRIB].base;
    cn += r->funcs[i].m[SL_FM_CONTRIB].cur;
  }
  assert_near(cb + r->waits.base + r->off_path.base, r->makespan.base, 1e-9);
  assert_near(cn + r->waits.cur + r->off_path.cur, r->makespan.cur, 1e-9);
  assert_true(r->off_path.base >= -1e-9);
}

static void test_report_identical_runs(void **state) {
  (void)state;
  sl_diff_run b, n;
  load_pair(&b, &n, 0.0);
  sl_diff_report r;
  assert_int_equal(sl_diff_report_build(&b, 1, &n, 1, 1, &r), 0);
  assert_int_equal(r.match.rule, SL_MATCH_ID);
  assert_int_equal(r.match.n_pairs, b.n_tasks);
  assert_int_equal(r.match.appeared + r.match.disappeared, 0);
  assert_true(r.has_deps && r.has_phases && r.has_orch);
  assert_near(r.makespan.delta, 0, 0);
  for (size_t i = 0; i < r.n_funcs; i++)
    for (int m = 0; m < SL_FM_COUNT; m++) assert_near(r.funcs[i].m[m].delta, 0, 1e-12);
  assert_int_equal(r.path_base.n, r.path_cur.n);
  assert_decomposes(&r);
  sl_diff_report_free(&r);
  sl_diff_run_free(&b);
  sl_diff_run_free(&n);
}

static void test_report_names_the_slowed_function(void **state) {
  (void)state;
  sl_diff_run b, n;
  load_pair(&b, &n, 2.0);
  sl_diff_report r;
  assert_int_equal(sl_diff_report_build(&b, 1, &n, 1, 0, &r), 0);
  assert_string_equal(r.funcs[0].name, "SF");
  const sl_diff_func_row *sf = row_named(&r, "SF"), *qk = row_named(&r, "QK");
  assert_near(sf->m[SL_FM_EXEC].delta, 2.0, 1e-9);
  assert_near(sf->m[SL_FM_LATENCY].delta, 2.0, 1e-9);
  assert_near(sf->m[SL_FM_HEAD].delta, 0.0, 1e-9);
  assert_int_equal(sf->m[SL_FM_EXEC].significant, 1); /* 4 rows, each exactly +2 */
  assert_near(qk->m[SL_FM_EXEC].delta, 0.0, 1e-12);
  assert_true(sf->m[SL_FM_CONTRIB].delta > 0);
  for (size_t i = 1; i < r.n_funcs; i++) /* sorted by contribution delta */
    assert_true(r.funcs[i].m[SL_FM_CONTRIB].delta <= r.funcs[0].m[SL_FM_CONTRIB].delta);
  assert_decomposes(&r);
  assert_true(r.n_moved > 0);
  assert_near(fabs(r.moved[0].d_exec), 2.0, 1e-9); /* an SF task moved most */
  sl_diff_report_free(&r);
  sl_diff_run_free(&b);
  sl_diff_run_free(&n);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ibeta_closed_forms),
      cmocka_unit_test(test_welch_known_values),
      cmocka_unit_test(test_delta_noise_and_unknown),
      cmocka_unit_test(test_match_by_id),
      cmocka_unit_test(test_match_by_position_after_insert),
      cmocka_unit_test(test_failif_parse),
      cmocka_unit_test(test_failif_check),
      cmocka_unit_test(test_report_identical_runs),
      cmocka_unit_test(test_report_names_the_slowed_function),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
