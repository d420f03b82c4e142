/*
** test_prof_faults.c — the capture under faults, end to end: a collector that
** stalls mid-run, one whose drain threads die mid-run, a host that never drains (every pool's free queue starved), and
** writers racing rotations of one-record buffers. Each capture must still be
** written and read back (JSON and protobuf), account exactly (collected + dropped
** == total on all four pools), and convert must show the loss: in its health line and
** in the trace's "records dropped" counter.
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
#include "sl_file.h"

#include <cjson/cJSON.h>
#include <unistd.h>

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

/* convert's trace of the capture at path: one "records dropped" counter with each pool's
** drops (and truncated 0) when anything was lost, none when nothing was. */
static void trace_shows_loss(const char *path, const sl_collector *c) {
  char trace[160];
  snprintf(trace, sizeof trace, "%s.trace.json", path);
  char *argv[] = {(char *)"convert", (char *)path, (char *)"-o", trace, (char *)"-q", NULL};
  assert_int_equal(sl_cmd_convert(5, argv), 0);
  size_t len;
  char *text = NULL;
  sl_err err = SL_ERR_INIT;
  assert_int_equal(sl_file_read(trace, &text, &len, &err), SL_OK);
  cJSON *root = cJSON_Parse(text);
  free(text);
  assert_non_null(root);
  const cJSON *ev, *counter = NULL;
  int counters = 0;
  cJSON_ArrayForEach(ev, cJSON_GetObjectItemCaseSensitive(root, "traceEvents")) {
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(ev, "name");
    if (cJSON_IsString(name) && !strcmp(name->valuestring, "records dropped")) {
      counter = ev;
      counters++;
    }
  }
  uint64_t lost = 0;
  for (unsigned k = 0; k < SL_BUF_KIND_COUNT; k++) lost += sl_collector_account(c, k).dropped;
  assert_int_equal(counters, lost ? 1 : 0);
  if (counter) {
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(counter, "args");
    int pools = 0;
    for (unsigned k = 0; k < SL_BUF_KIND_COUNT; k++) {
      const cJSON *v = cJSON_GetObjectItemCaseSensitive(args, sl_coll_pool_name(k));
      assert_true(cJSON_IsNumber(v));
      assert_int_equal((uint64_t)v->valuedouble, sl_collector_account(c, k).dropped);
      pools++;
    }
    assert_int_equal(cJSON_GetArraySize(args), pools + 1); /* the pools and "truncated" */
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(args, "truncated")->valueint, 0);
  }
  cJSON_Delete(root);
  assert_int_equal(unlink(trace), 0);
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
  trace_shows_loss(json, c);
  char cmd[160];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  assert_int_equal(system(cmd), 0);
  return dropped;
}

/* The harness's config with tiny pools; each test then sets its fault. */
static sl_collector_config faulted(void) {
  sl_collector_config cfg;
  harness_config(&cfg, &base, 4);
  harness_tiny_pools(&cfg);
  return cfg;
}

/* Run the device against a collector made from cfg (host threads started or not), then
** finish_and_check; returns the total dropped. */
static uint64_t run_faulted(const sl_collector_config *cfg, int start_host, int want_drops_everywhere) {
  sl_collector *c = sl_collector_create(cfg);
  assert_non_null(c);
  if (start_host) assert_int_equal(sl_collector_start(c, NULL), SL_OK);
  harness_run(sl_collector_device(c), &base);
  uint64_t dropped = finish_and_check(c, want_drops_everywhere);
  sl_collector_destroy(c);
  return dropped;
}

/* The collector stalls on every buffer (a host that cannot keep up mid-run). */
static void stalled_collector(void **state) {
  (void)state;
  sl_collector_config cfg = faulted();
  cfg.test_collect_delay_us = 2000;
  run_faulted(&cfg, 1, 0); /* drops are likely, not certain: the check holds either way */
}

/* The collector's drain threads die a few buffers into the run (no last pass): what
** they took is kept, what they left queued is collected at the stop, the rest is
** dropped on the device. */
static void killed_collector(void **state) {
  (void)state;
  sl_collector_config cfg = faulted();
  cfg.test_drain_dies_after = 3;
  assert_true(run_faulted(&cfg, 1, 1) > 0);
}

/* No host thread ever drains: every pool's free queue runs dry. */
static void starved_free_queues(void **state) {
  (void)state;
  sl_collector_config cfg = faulted();
  run_faulted(&cfg, 0, 1);
}

/* One-record buffers: every write races a rotation. */
static void writers_race_rotation(void **state) {
  (void)state;
  sl_collector_config cfg = faulted();
  cfg.sizes.prof_buffer_size = 1;
  cfg.sizes.aicore_buffer_size = 1;
  cfg.sizes.phase_records = 1;
  run_faulted(&cfg, 1, 0);
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

static void *no_device_memory(void *ctx, size_t bytes) {
  (void)ctx, (void)bytes;
  return NULL;
}

static int reg_same(void *ctx, void *dev, size_t bytes, void **host) {
  (void)ctx, (void)bytes;
  *host = dev;
  return 0;
}

static void free_nothing(void *ctx, void *dev, void *host) { (void)ctx, (void)dev, (void)host; }

/* Device memory the memory operations cannot give: a real failure, reported as such. */
static void device_buffers_refused(void **state) {
  (void)state;
  sl_memops ops = {.alloc = no_device_memory, .reg = reg_same, .free_ = free_nothing};
  sl_collector_config cfg;
  sl_err err = SL_ERR_INIT;
  harness_config(&cfg, &base, 4);
  cfg.transport = SL_TRANSPORT_SHARED;
  cfg.memops = &ops;
  assert_null(sl_collector_open(&cfg, &err));
  assert_string_equal(err.file, "collector");
  assert_non_null(strstr(err.msg, "cannot allocate the device record buffers"));
  sl_err_clear(&err);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(bad_config_error_values),
      cmocka_unit_test(device_buffers_refused),
      cmocka_unit_test(stalled_collector),
      cmocka_unit_test(killed_collector),
      cmocka_unit_test(starved_free_queues),
      cmocka_unit_test(writers_race_rotation),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
