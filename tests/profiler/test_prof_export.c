/*
** test_prof_export.c — chip_swimlane_records.json and .pb from real runs at
** levels 1..4: which sections exist at each level, their
** content, 64-bit values printed exactly, the capture block (truncation,
** reconcile), the protobuf decoding to the same records, and an unwritable
** output leaving nothing behind.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "prof_harness.h"
#include "sl_fingerprint.h"
#include "sl_phases.h"
#include "sl_platforms.h"
#include "swimlane_capture.pb-c.h"
#include "sl_test_file.h"

static const harness_cfg hc = {.sched_threads = 1, .cores_per_thread = 2, .tasks_per_core = 5,
                               .phases_per_round = 2, .orch_submits = 3, .fin_before_commit = 1};

static char *slurp(const char *path, size_t *len) {
  char *buf = sl_test_read_file(path, len);
  assert_non_null(buf);
  return buf;
}

static void rm_capture(const char *dir) {
  char p[512];
  snprintf(p, sizeof p, "%s/chip_swimlane_records.json", dir);
  remove(p);
  snprintf(p, sizeof p, "%s/chip_swimlane_records.pb", dir);
  remove(p);
  rmdir(dir);
}

/* Run the harness at `level` and export into dir; returns the JSON text. */
static char *capture(unsigned level, const char *dir, int truncate, int lifecycle) {
  sl_collector_config cfg;
  harness_config(&cfg, &hc, level);
  cfg.sizes.prof_buffer_size = 3;
  cfg.sizes.aicore_buffer_size = 2;
  cfg.sizes.phase_records = 4;
  cfg.backpressure = 1;
  sl_collector *c = sl_collector_create(&cfg);
  assert_non_null(c);
  assert_int_equal(sl_collector_start(c, NULL), SL_OK);
  harness_run(sl_collector_device(c), &hc);
  if (lifecycle) {
    sl_aicpu_lifecycle_record r;
    memset(&r, 0, sizeof r);
    r.aicpu_thread_id = 0;
    r.handshake_start_cycles = 18446744073709551615ull;
    r.exit_wait_end_cycles = 42;
    sl_devprof_lifecycle(sl_collector_device(c), 0, &r);
  }
  if (truncate) sl_collector_mark_truncated(c);
  assert_int_equal(sl_collector_finish(c, dir), 0);
  sl_collector_destroy(c);
  char p[512];
  snprintf(p, sizeof p, "%s/chip_swimlane_records.json", dir);
  char *text = slurp(p, NULL);
  assert_non_null(text);
  return text;
}

static void sections_follow_the_level(void **state) {
  (void)state;
  for (unsigned level = 1; level <= 4; level++) {
    char dir[] = "/tmp/sl_prof_export_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *text = capture(level, dir, 0, 0);
    cJSON *root = cJSON_Parse(text);
    assert_non_null(root);
    /* key order: the level first, then metadata, then the streams */
    assert_non_null(strstr(text, "{\n  \"chip_swimlane_level\""));
    assert_true(strstr(text, "\"metadata\"") < strstr(text, "\"aicore_tasks\""));
    assert_int_equal(cJSON_GetObjectItem(root, "chip_swimlane_level")->valueint, (int)level);
    cJSON *md = cJSON_GetObjectItem(root, "metadata");
    assert_int_equal(cJSON_GetObjectItem(md, "clock_freq_hz")->valuedouble, 50000000.0);
    assert_int_equal(cJSON_GetObjectItem(md, "num_cores")->valueint, 2);
    cJSON *types = cJSON_GetObjectItem(md, "core_types");
    assert_string_equal(cJSON_GetArrayItem(types, 0)->valuestring, "aic");
    assert_string_equal(cJSON_GetArrayItem(types, 1)->valuestring, "aiv");
    cJSON *ctt = cJSON_GetObjectItem(md, "core_to_thread");
    if (level >= 3) {
      assert_int_equal(cJSON_GetArraySize(ctt), 2);
      assert_int_equal(cJSON_GetArrayItem(ctt, 1)->valueint, 0);
    } else {
      assert_null(ctt);
    }
    cJSON *cap = cJSON_GetObjectItem(md, "capture");
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(cap, "truncated")));
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(cap, "balanced")));
    cJSON *aic = cJSON_GetObjectItem(cJSON_GetObjectItem(cap, "pools"), "aicore_task");
    assert_int_equal(cJSON_GetObjectItem(aic, "total")->valueint, 10);
    assert_int_equal(cJSON_GetObjectItem(aic, "collected")->valueint, 10);

    cJSON *aicore = cJSON_GetObjectItem(root, "aicore_tasks");
    assert_int_equal(cJSON_GetArraySize(aicore), 10);
    cJSON *row = cJSON_GetArrayItem(aicore, 6); /* core 1, token 2 */
    assert_int_equal(cJSON_GetArraySize(row), 6);
    assert_int_equal(cJSON_GetArrayItem(row, 0)->valueint, 1);
    assert_int_equal(cJSON_GetArrayItem(row, 2)->valueint, 2);
    /* 64-bit values are printed exactly (cJSON itself would round them) */
    char want[128];
    snprintf(want, sizeof want, "[1, %llu, 2, %llu, %llu, 1]", (unsigned long long)h_aicore_token_raw(1, 2),
             (unsigned long long)h_aicore_start(1, 2), (unsigned long long)h_aicore_start(1, 2) + 5);
    assert_non_null(strstr(text, want));

    cJSON *st = cJSON_GetObjectItem(root, "scheduler_tasks");
    cJSON *sr = cJSON_GetObjectItem(root, "scheduler_records");
    cJSON *orch = cJSON_GetObjectItem(root, "aicpu_orchestrator_phases");
    assert_true((st != NULL) == (level >= 2));
    assert_true((sr != NULL) == (level >= 3));
    assert_true((orch != NULL) == (level >= 4));
    assert_null(cJSON_GetObjectItem(root, "aicpu_lifecycle_records"));
    assert_null(cJSON_GetObjectItem(root, "aicpu_tasks")); /* the reference's older name */
    if (st) {
      assert_int_equal(cJSON_GetObjectItem(st, "schema_version")->valueint, 1);
      assert_string_equal(cJSON_GetObjectItem(st, "producer")->valuestring, "aicpu");
      cJSON *recs = cJSON_GetObjectItem(st, "records");
      assert_int_equal(cJSON_GetArraySize(recs), 10);
      snprintf(want, sizeof want, "[0, 3, %llu, %llu, 0]", (unsigned long long)h_dispatch(0, 3),
               (unsigned long long)h_dispatch(0, 3) + 9);
      assert_non_null(strstr(text, want));
    }
    if (sr) {
      cJSON *streams = cJSON_GetObjectItem(sr, "streams");
      assert_int_equal(cJSON_GetArraySize(streams), 1);
      cJSON *s0 = cJSON_GetArrayItem(streams, 0);
      assert_string_equal(cJSON_GetObjectItem(s0, "platform")->valuestring, "a2a3");
      assert_string_equal(cJSON_GetObjectItem(s0, "runtime")->valuestring, "tensormap_and_ringbuffer");
      assert_string_equal(cJSON_GetObjectItem(s0, "producer")->valuestring, "aicpu");
      assert_string_equal(cJSON_GetObjectItem(s0, "core_type")->valuestring, "aicpu");
      assert_int_equal(cJSON_GetObjectItem(s0, "scheduler_id")->valueint, 0);
      assert_true(cJSON_IsNull(cJSON_GetObjectItem(s0, "physical_core_id")));
      cJSON *sc = cJSON_GetObjectItem(s0, "capture");
      assert_int_equal(cJSON_GetObjectItem(sc, "committed")->valueint, 10);
      assert_int_equal(cJSON_GetObjectItem(sc, "dropped")->valueint, 0);
      assert_true(cJSON_IsFalse(cJSON_GetObjectItem(sc, "truncated")));
      cJSON *recs = cJSON_GetObjectItem(s0, "records");
      cJSON *mets = cJSON_GetObjectItem(s0, "metrics");
      assert_int_equal(cJSON_GetArraySize(recs), 10);
      assert_int_equal(cJSON_GetArraySize(mets), 10);
      cJSON *r0 = cJSON_GetArrayItem(recs, 0), *m0 = cJSON_GetArrayItem(mets, 0);
      assert_string_equal(cJSON_GetObjectItem(r0, "kind")->valuestring, "dispatch");
      assert_true(cJSON_IsNull(cJSON_GetObjectItem(r0, "task_id")));
      assert_int_equal(cJSON_GetObjectItem(m0, "record_index")->valueint, 0);
      assert_non_null(cJSON_GetObjectItem(m0, "pop_hit"));
      cJSON *r2 = cJSON_GetArrayItem(recs, 2), *m2 = cJSON_GetArrayItem(mets, 2);
      assert_string_equal(cJSON_GetObjectItem(r2, "kind")->valuestring, "dummy_task");
      assert_int_equal(cJSON_GetObjectItem(r2, "task_id")->valueint, 2); /* ring 0, local 2 */
      assert_null(cJSON_GetObjectItem(m2, "pop_hit"));
      assert_int_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(m2, "shared_at_end"), 0)->valueint, -1);
    }
    if (orch) {
      assert_int_equal(cJSON_GetArraySize(orch), 1);
      cJSON *o = cJSON_GetArrayItem(orch, 0);
      assert_int_equal(cJSON_GetArraySize(o), 3);
      snprintf(want, sizeof want, "{\"submit_idx\": 2, \"task_id\": %llu, \"start_cycles\": 1004, \"end_cycles\": 1005, "
               "\"phase\": \"%s\"}", (unsigned long long)h_orch_task(2), SL_ORCH_PHASE_DEFAULT);
      assert_non_null(strstr(text, want));
    }
    cJSON_Delete(root);
    free(text);
    rm_capture(dir);
  }
}

static void protobuf_carries_the_same_capture(void **state) {
  (void)state;
  char dir[] = "/tmp/sl_prof_pb_XXXXXX";
  assert_non_null(mkdtemp(dir));
  free(capture(4, dir, 0, 1));
  char p[512];
  snprintf(p, sizeof p, "%s/chip_swimlane_records.pb", dir);
  size_t len;
  char *bytes = slurp(p, &len);
  assert_non_null(bytes);
  Swimlane__Capture *cap = swimlane__capture__unpack(NULL, len, (const uint8_t *)bytes);
  assert_non_null(cap);
  assert_string_equal(cap->schema_fingerprint, SL_SCHEMA_FINGERPRINT);
  assert_int_equal(cap->chip_swimlane_level, 4);
  assert_int_equal(cap->metadata->clock_freq_hz, 50000000);
  assert_int_equal(cap->metadata->n_core_types, 2);
  assert_string_equal(cap->metadata->core_types[0], "aic");
  assert_int_equal(cap->metadata->n_core_to_thread, 2);
  assert_int_equal(cap->n_aicore_tasks, 2);
  assert_int_equal(cap->aicore_tasks[1]->core_id, 1);
  assert_int_equal(cap->aicore_tasks[1]->n_records, 5);
  assert_int_equal(cap->aicore_tasks[1]->records[1]->task_token_raw, h_aicore_token_raw(1, 2));
  assert_int_equal(cap->aicore_tasks[1]->capture->committed, 5);
  assert_int_equal(cap->n_scheduler_tasks, 2);
  assert_int_equal(cap->scheduler_tasks[0]->records[2]->dispatch_time, h_dispatch(0, 3));
  assert_int_equal(cap->n_scheduler_records, 1);
  assert_int_equal(cap->scheduler_records[0]->n_records, 10);
  assert_string_equal(cap->scheduler_records[0]->platform, "a2a3");
  assert_int_equal(cap->n_orchestrator_phases, 1);
  assert_int_equal(cap->orchestrator_phases[0]->n_records, 3);
  assert_int_equal(cap->orchestrator_phases[0]->records[2]->task_id, h_orch_task(2));
  assert_int_equal(cap->n_aicpu_lifecycle_records, 1);
  assert_int_equal(cap->aicpu_lifecycle_records[0]->handshake_start_cycles, 18446744073709551615ull);
  swimlane__capture__free_unpacked(cap, NULL);
  free(bytes);
  /* the JSON has the lifecycle block too, with the u64 maximum exact */
  snprintf(p, sizeof p, "%s/chip_swimlane_records.json", dir);
  char *text = slurp(p, NULL);
  assert_non_null(strstr(text, "\"aicpu_lifecycle_records\": [\n    {\"aicpu_thread_id\": 0, "
                               "\"handshake_start_cycles\": 18446744073709551615"));
  free(text);
  rm_capture(dir);
}

/* The .pb export on its own (no JSON export before it to reconcile the pools) still
** carries the loss accounting of every pool. */
static void protobuf_alone_carries_the_accounting(void **state) {
  (void)state;
  char dir[] = "/tmp/sl_prof_pb1_XXXXXX";
  assert_non_null(mkdtemp(dir));
  sl_collector_config cfg;
  harness_config(&cfg, &hc, 4);
  sl_collector *c = sl_collector_create(&cfg);
  assert_non_null(c);
  assert_int_equal(sl_collector_start(c, NULL), SL_OK);
  harness_run(sl_collector_device(c), &hc);
  assert_int_equal(sl_collector_stop(c), 0);
  sl_collector_read_metadata(c);
  char p[512];
  snprintf(p, sizeof p, "%s/chip_swimlane_records.pb", dir);
  assert_int_equal(sl_collector_export_pb(c, p), 0);
  sl_collector_destroy(c);
  size_t len;
  char *bytes = slurp(p, &len);
  assert_non_null(bytes);
  Swimlane__Capture *cap = swimlane__capture__unpack(NULL, len, (const uint8_t *)bytes);
  assert_non_null(cap);
  const Swimlane__CaptureHealth *h = cap->metadata->capture;
  assert_non_null(h);
  assert_true(h->balanced);
  assert_int_equal(h->n_pools, 4);
  for (size_t i = 0; i < h->n_pools; i++) {
    assert_true(h->pools[i]->total > 0);
    assert_int_equal(h->pools[i]->collected + h->pools[i]->dropped, h->pools[i]->total);
  }
  swimlane__capture__free_unpacked(cap, NULL);
  free(bytes);
  remove(p);
  assert_int_equal(rmdir(dir), 0);
}

static void truncation_is_marked(void **state) {
  (void)state;
  char dir[] = "/tmp/sl_prof_trunc_XXXXXX";
  assert_non_null(mkdtemp(dir));
  char *text = capture(3, dir, 1, 0);
  cJSON *root = cJSON_Parse(text);
  cJSON *cap = cJSON_GetObjectItem(cJSON_GetObjectItem(root, "metadata"), "capture");
  assert_true(cJSON_IsTrue(cJSON_GetObjectItem(cap, "truncated")));
  cJSON *s0 = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "scheduler_records"), "streams"), 0);
  assert_true(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(s0, "capture"), "truncated")));
  cJSON_Delete(root);
  free(text);
  rm_capture(dir);
}

static void a5_capture_names_its_platform(void **state) {
  (void)state;
  char dir[] = "/tmp/sl_prof_a5_XXXXXX";
  assert_non_null(mkdtemp(dir));
  sl_collector_config cfg;
  harness_config(&cfg, &hc, 3);
  cfg.platform = sl_platform_by_name("a5sim");
  cfg.platform_name = "a5sim";
  sl_collector *c = sl_collector_create(&cfg);
  assert_non_null(c);
  assert_int_equal(sl_collector_start(c, NULL), SL_OK);
  harness_run(sl_collector_device(c), &hc);
  assert_int_equal(sl_collector_finish(c, dir), 0);
  sl_collector_destroy(c);
  char p[512];
  snprintf(p, sizeof p, "%s/chip_swimlane_records.json", dir);
  char *text = slurp(p, NULL);
  assert_non_null(text);
  assert_non_null(strstr(text, "\"clock_freq_hz\": 1000000000,"));
  assert_non_null(strstr(text, "\"platform\": \"a5sim\","));
  assert_non_null(strstr(text, "{\"platform\": \"a5\", \"runtime\": \"tensormap_and_ringbuffer\""));
  free(text);
  rm_capture(dir);
}

static void unwritable_output_leaves_nothing(void **state) {
  (void)state;
  char dir[] = "/tmp/sl_prof_bad_XXXXXX";
  assert_non_null(mkdtemp(dir));
  char file[512], sub[600];
  snprintf(file, sizeof file, "%s/plain_file", dir);
  FILE *f = fopen(file, "w");
  assert_non_null(f);
  fclose(f);
  snprintf(sub, sizeof sub, "%s/out", file); /* a directory below a regular file */
  sl_collector_config cfg;
  harness_config(&cfg, &hc, 2);
  sl_collector *c = sl_collector_create(&cfg);
  assert_non_null(c);
  harness_run(sl_collector_device(c), &hc);
  assert_int_equal(sl_collector_finish(c, sub), -1);
  sl_collector_destroy(c);
  /* only the plain file is there: no output, no temporary */
  char p[700];
  snprintf(p, sizeof p, "%s/chip_swimlane_records.json", sub);
  assert_int_not_equal(access(p, F_OK), 0);
  remove(file);
  assert_int_equal(rmdir(dir), 0);
}

/* The error contract of export: no collector, or no output folder, is -1 (reported),
** not success and not the "unbalanced" 1 of reconcile. */
static void export_without_collector_or_folder_fails(void **state) {
  (void)state;
  assert_int_equal(sl_collector_export(NULL, "/tmp"), -1);
  assert_int_equal(sl_collector_export_json(NULL, "/tmp/x.json"), -1);
  assert_int_equal(sl_collector_export_pb(NULL, "/tmp/x.pb"), -1);
  sl_collector_config cfg;
  harness_config(&cfg, &hc, 2);
  sl_collector *c = sl_collector_create(&cfg);
  assert_non_null(c);
  harness_run(sl_collector_device(c), &hc);
  assert_int_equal(sl_collector_export(c, ""), -1);
  assert_int_equal(sl_collector_export(c, NULL), -1);
  sl_collector_destroy(c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(sections_follow_the_level),
      cmocka_unit_test(protobuf_carries_the_same_capture),
      cmocka_unit_test(protobuf_alone_carries_the_accounting),
      cmocka_unit_test(truncation_is_marked),
      cmocka_unit_test(a5_capture_names_its_platform),
      cmocka_unit_test(unwritable_output_leaves_nothing),
      cmocka_unit_test(export_without_collector_or_folder_fails),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
