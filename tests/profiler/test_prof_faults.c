/*
** test_prof_faults.c — the capture under faults, end to end: a collector that
** stalls mid-run, a host that never drains (every pool's free queue starved), and
** writers racing rotations of one-record buffers. Each capture must still be
** written and read back (JSON and protobuf), account exactly (collected + dropped
** == total on all four pools), and convert's health line must show the loss.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "prof_harness.h"
#include "sl_capture.h"
#include "sl_collector_internal.h"
#include "sl_convert.h"

static const harness_cfg base = {.sched_threads = 2, .cores_per_thread = 2, .tasks_per_core = 200,
                                 .phases_per_round = 2, .orch_submits = 300, .fin_before_commit = 1};

/* The health line convert prints for the capture at path. */
static char *health_line(const char *path) {
  FILE *f = tmpfile();
  assert_non_null(f);
  sl_read_opts q = {.quiet = 1};
  sl_capture *cap = sl_capture_read(path, &q);
  assert_non_null(cap);
  sl_convert_print_health(f, path, cap, 0);
  sl_capture_free(cap);
  long n = ftell(f);
  rewind(f);
  char *s = calloc(1, (size_t)n + 1);
  assert_non_null(s);
  assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
  fclose(f);
  return s;
}

/* Finish the capture into a fresh folder and check everything a user relies on.
** Returns the total dropped. */
static uint64_t finish_and_check(sl_collector *c, int want_drops_everywhere) {
  char dir[] = "/tmp/sl_faults_XXXXXX";
  assert_non_null(mkdtemp(dir));
  assert_int_equal(sl_collector_finish(c, dir), 0);
  uint64_t dropped = 0;
  for (unsigned k = 0; k < SL_BUF_KIND_COUNT; k++) {
    sl_pool_account a = sl_collector_account(c, k);
    assert_true(a.total > 0);
    assert_int_equal(a.collected + a.dropped, a.total);
    if (want_drops_everywhere) assert_true(a.dropped > 0);
    dropped += a.dropped;
  }
  char json[128], pb[128];
  snprintf(json, sizeof json, "%s/chip_swimlane_records.json", dir);
  snprintf(pb, sizeof pb, "%s/chip_swimlane_records.pb", dir);
  const sl_read_opts quiet = {1};
  sl_capture *cj = sl_capture_read(json, &quiet), *cp = sl_capture_read(pb, &quiet);
  assert_non_null(cj);
  assert_non_null(cp);
  assert_int_equal(cj->n_tasks, cp->n_tasks);
  assert_int_equal(cj->n_phases, cp->n_phases);
  assert_int_equal(cj->n_orch, cp->n_orch);
  /* what was collected is what reads back */
  assert_int_equal(cj->n_orch, sl_collector_account(c, SL_BUF_ORCH_PHASE).collected);
  assert_int_equal(cj->n_phases, sl_collector_account(c, SL_BUF_SCHED_PHASE).collected);
  sl_capture_free(cj);
  sl_capture_free(cp);
  char *h = health_line(json);
  assert_non_null(strstr(h, dropped ? "capture complete with drops:" : "capture complete:"));
  for (unsigned k = 0; k < SL_BUF_KIND_COUNT; k++) {
    sl_pool_account a = sl_collector_account(c, k);
    char want[96];
    if (a.dropped)
      snprintf(want, sizeof want, " %llu dropped of %llu", (unsigned long long)a.dropped,
               (unsigned long long)a.total);
    else
      snprintf(want, sizeof want, " %llu of %llu", (unsigned long long)a.collected,
               (unsigned long long)a.total);
    assert_non_null(strstr(h, want));
  }
  free(h);
  char cmd[160];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  assert_int_equal(system(cmd), 0);
  return dropped;
}

/* The collector stalls on every buffer (a host that cannot keep up mid-run). */
static void stalled_collector(void **state) {
  (void)state;
  sl_collector_config cfg;
  harness_config(&cfg, &base, 4);
  harness_tiny_pools(&cfg);
  cfg.test_collect_delay_us = 2000;
  sl_collector *c = sl_collector_create(&cfg);
  assert_non_null(c);
  assert_int_equal(sl_collector_start(c), 0);
  harness_run(sl_collector_device(c), &base);
  finish_and_check(c, 0); /* drops are likely, not certain: the check holds either way */
  sl_collector_destroy(c);
}

/* No host thread ever drains: every pool's free queue runs dry. */
static void starved_free_queues(void **state) {
  (void)state;
  sl_collector_config cfg;
  harness_config(&cfg, &base, 4);
  harness_tiny_pools(&cfg);
  sl_collector *c = sl_collector_create(&cfg);
  assert_non_null(c);
  harness_run(sl_collector_device(c), &base);
  finish_and_check(c, 1);
  sl_collector_destroy(c);
}

/* One-record buffers: every write races a rotation. */
static void writers_race_rotation(void **state) {
  (void)state;
  sl_collector_config cfg;
  harness_config(&cfg, &base, 4);
  harness_tiny_pools(&cfg);
  cfg.sizes.prof_buffer_size = 1;
  cfg.sizes.aicore_buffer_size = 1;
  cfg.sizes.phase_records = 1;
  sl_collector *c = sl_collector_create(&cfg);
  assert_non_null(c);
  assert_int_equal(sl_collector_start(c), 0);
  harness_run(sl_collector_device(c), &base);
  finish_and_check(c, 0);
  sl_collector_destroy(c);
}

/* A bad configuration: sl_collector_open returns NULL and keeps the first reason on
** the error value (the caller prints it), for each rule the collector checks. */
static void bad_config_error_values(void **state) {
  (void)state;
  sl_collector_config cfg;
  sl_err err = SL_ERR_INIT;
  harness_config(&cfg, &base, 4);
  cfg.num_cores = 0;
  cfg.num_aicpu_threads = 0; /* a second problem: only the first is kept */
  assert_null(sl_collector_open(&cfg, &err));
  assert_string_equal(err.file, "collector");
  assert_non_null(strstr(err.msg, "0 cores"));
  sl_err_clear(&err);
  harness_config(&cfg, &base, 4);
  cfg.num_aicpu_threads = 65;
  assert_null(sl_collector_open(&cfg, &err));
  assert_string_equal(err.msg, "65 AICPU threads, expected 1..64");
  sl_err_clear(&err);
  harness_config(&cfg, &base, 4);
  sl_collector *c = sl_collector_open(&cfg, &err);
  assert_non_null(c);
  assert_false(sl_err_is_set(&err));
  sl_collector_destroy(c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(bad_config_error_values),
      cmocka_unit_test(stalled_collector),
      cmocka_unit_test(starved_free_queues),
      cmocka_unit_test(writers_race_rotation),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
