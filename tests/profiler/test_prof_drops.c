/*
** test_prof_drops.c — real drops on every pool, through both exports: the harness
** device runs against a collector that never starts (a stalled host) with one tiny
** fixed buffer per pool, so every pool drops what does not fit. Each stream must say
** how many of its own records it lost (committed + dropped = what the device wrote),
** be marked truncated because of its drops alone (the capture is not interrupted),
** and the .pb must carry the same per-stream numbers as the JSON.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "prof_harness.h"
#include "sl_capture.h"
#include "sl_test_file.h"
#include "swimlane_capture.pb-c.h"

static const harness_cfg hc = {.sched_threads = 1, .cores_per_thread = 2, .tasks_per_core = 7,
                               .phases_per_round = 2, .orch_submits = 5, .fin_before_commit = 1};

static char g_dir[64];

static int export_with_drops(void **state) {
  (void)state;
  strcpy(g_dir, "/tmp/sl_prof_drops_XXXXXX");
  if (!mkdtemp(g_dir)) return -1;
  sl_collector_config cfg;
  harness_config(&cfg, &hc, 4);
  cfg.fixed_buffers = 1;
  cfg.backpressure = 0;
  cfg.sizes.slot_count = 1;
  cfg.sizes.aicore_buffer_size = 2; /* AICore: 2 of 7 per core kept   */
  cfg.sizes.prof_buffer_size = 3;   /* AICPU task: 3 of 7 per core kept */
  cfg.sizes.phase_records = 4;      /* sched and orch phases: 4 kept  */
  cfg.sizes.aicore_buffers_per_core = 1;
  cfg.sizes.prof_buffers_per_core = 1;
  cfg.sizes.sched_buffers_per_thread = 1;
  cfg.sizes.orch_buffers_per_thread = 1;
  sl_collector *c = sl_collector_create(&cfg);
  if (!c) return -1;
  harness_run(sl_collector_device(c), &hc); /* never started: nothing is drained */
  /* the library keeps what it found (the drops) and prints nothing; report prints it */
  fflush(stderr);
  FILE *err = tmpfile();
  int saved = dup(STDERR_FILENO);
  dup2(fileno(err), STDERR_FILENO);
  int rc = sl_collector_finish(c, g_dir);
  fflush(stderr);
  long quiet = ftell(err) >= 0 ? (fseek(err, 0, SEEK_END), ftell(err)) : -1;
  sl_collector_report(c);
  fflush(stderr);
  dup2(saved, STDERR_FILENO);
  close(saved);
  char text[4096] = "";
  rewind(err);
  size_t n = fread(text, 1, sizeof text - 1, err);
  text[n] = 0;
  fclose(err);
  sl_collector_destroy(c);
  if (quiet != 0) return -2;
  if (!strstr(text, "swimlane: warning: collector: aicore_task: ") || !strstr(text, "records dropped on the device"))
    return -3;
  return rc;
}

static int remove_dir(void **state) {
  (void)state;
  char p[128];
  snprintf(p, sizeof p, "%s/chip_swimlane_records.json", g_dir);
  remove(p);
  snprintf(p, sizeof p, "%s/chip_swimlane_records.pb", g_dir);
  remove(p);
  return rmdir(g_dir);
}

static cJSON *load(void) {
  char p[128];
  snprintf(p, sizeof p, "%s/chip_swimlane_records.json", g_dir);
  char *text = sl_test_read_file(p, NULL);
  assert_non_null(text);
  cJSON *root = cJSON_Parse(text);
  free(text);
  assert_non_null(root);
  return root;
}

static int num(cJSON *o, const char *k) { return cJSON_GetObjectItem(o, k)->valueint; }

/* A stream's capture block: committed + dropped == written, dropped as expected, truncated. */
static void check_block(cJSON *cap, int written, int kept) {
  assert_non_null(cap);
  assert_int_equal(num(cap, "committed"), kept);
  assert_int_equal(num(cap, "dropped"), written - kept);
  assert_true(cJSON_IsTrue(cJSON_GetObjectItem(cap, "truncated")));
}

static void json_streams_count_their_own_drops(void **state) {
  (void)state;
  cJSON *root = load();
  cJSON *md = cJSON_GetObjectItem(root, "metadata");
  cJSON *cap = cJSON_GetObjectItem(md, "capture");
  /* not interrupted: every truncated flag below comes from the stream's own drops */
  assert_true(cJSON_IsFalse(cJSON_GetObjectItem(cap, "truncated")));
  assert_true(cJSON_IsTrue(cJSON_GetObjectItem(cap, "balanced")));
  cJSON *pools = cJSON_GetObjectItem(cap, "pools");
  int cores = hc.sched_threads * hc.cores_per_thread;
  cJSON *ac = cJSON_GetObjectItem(pools, "aicore_task"), *at = cJSON_GetObjectItem(pools, "aicpu_task");
  assert_int_equal(num(ac, "total"), cores * hc.tasks_per_core);
  assert_int_equal(num(ac, "dropped"), cores * (hc.tasks_per_core - 2));
  assert_int_equal(num(at, "dropped"), cores * (hc.tasks_per_core - 3));
  cJSON *sp = cJSON_GetObjectItem(pools, "sched_phase"), *op = cJSON_GetObjectItem(pools, "orch_phase");
  assert_int_equal(num(sp, "collected"), 4);
  assert_int_equal(num(sp, "dropped"), num(sp, "total") - 4);
  assert_true(num(sp, "dropped") > 0);
  assert_int_equal(num(op, "total"), hc.orch_submits);
  assert_int_equal(num(op, "dropped"), hc.orch_submits - 4);
  /* scheduler stream: the per-stream block (the only one the JSON has per stream) */
  cJSON *s0 = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "scheduler_records"), "streams"), 0);
  check_block(cJSON_GetObjectItem(s0, "capture"), num(sp, "total"), 4);
  assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(s0, "records")), 4);
  /* the flat sections hold exactly the kept records */
  assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(root, "aicore_tasks")), cores * 2);
  cJSON *sched_tasks = cJSON_GetObjectItem(cJSON_GetObjectItem(root, "scheduler_tasks"), "records");
  assert_int_equal(cJSON_GetArraySize(sched_tasks), cores * 3);
  assert_int_equal(cJSON_GetArraySize(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "aicpu_orchestrator_phases"), 0)), 4);
  cJSON_Delete(root);
}

static void pb_streams_count_their_own_drops(void **state) {
  (void)state;
  char p[128];
  snprintf(p, sizeof p, "%s/chip_swimlane_records.pb", g_dir);
  size_t len;
  unsigned char *bytes = (unsigned char *)sl_test_read_file(p, &len);
  assert_non_null(bytes);
  Swimlane__Capture *cap = swimlane__capture__unpack(NULL, len, bytes);
  assert_non_null(cap);
  int cores = hc.sched_threads * hc.cores_per_thread;
  assert_int_equal(cap->n_aicore_tasks, cores);
  assert_int_equal(cap->n_scheduler_tasks, cores);
  for (int i = 0; i < cores; i++) {
    const Swimlane__StreamCapture *a = cap->aicore_tasks[i]->capture, *t = cap->scheduler_tasks[i]->capture;
    assert_int_equal(a->committed, 2);
    assert_int_equal(a->dropped, hc.tasks_per_core - 2); /* the AICore pool's own count ... */
    assert_true(a->truncated);
    assert_int_equal(t->committed, 3);
    assert_int_equal(t->dropped, hc.tasks_per_core - 3); /* ... and the AICPU-task pool's */
    assert_true(t->truncated);
  }
  assert_int_equal(cap->n_scheduler_records, 1);
  assert_int_equal(cap->scheduler_records[0]->capture->committed, 4);
  assert_true(cap->scheduler_records[0]->capture->dropped > 0);
  assert_true(cap->scheduler_records[0]->capture->truncated);
  assert_int_equal(cap->n_orchestrator_phases, 1);
  assert_int_equal(cap->orchestrator_phases[0]->capture->committed, 4);
  assert_int_equal(cap->orchestrator_phases[0]->capture->dropped, hc.orch_submits - 4);
  assert_true(cap->orchestrator_phases[0]->capture->truncated);
  swimlane__capture__free_unpacked(cap, NULL);
  free(bytes);
}

/* metadata.capture as the reader gives it (capture->health), the same for JSON and .pb:
** the four pools in export order with their exact totals and drops, not truncated. */
static void check_health(const sl_capture *c) {
  int cores = hc.sched_threads * hc.cores_per_thread;
  const sl_capture_health *h = &c->health;
  assert_true(h->present);
  assert_false(h->truncated);
  assert_int_equal(h->n_pools, 4);
  assert_string_equal(sl_str_get(c, h->pools[0].name), "aicore_task");
  assert_int_equal(h->pools[0].total, cores * hc.tasks_per_core);
  assert_int_equal(h->pools[0].dropped, cores * (hc.tasks_per_core - 2));
  assert_int_equal(h->pools[0].collected, cores * 2);
  assert_string_equal(sl_str_get(c, h->pools[1].name), "aicpu_task");
  assert_int_equal(h->pools[1].dropped, cores * (hc.tasks_per_core - 3));
  assert_int_equal(h->pools[1].collected, cores * 3);
  assert_string_equal(sl_str_get(c, h->pools[2].name), "sched_phase");
  assert_int_equal(h->pools[2].collected, 4);
  assert_string_equal(sl_str_get(c, h->pools[3].name), "orch_phase");
  assert_int_equal(h->pools[3].total, hc.orch_submits);
  assert_int_equal(h->pools[3].collected, 4);
  uint64_t lost = 0;
  for (int i = 0; i < 4; i++) {
    assert_int_equal(h->pools[i].collected + h->pools[i].dropped, h->pools[i].total);
    lost += h->pools[i].dropped;
  }
  assert_int_equal(sl_capture_dropped(c), lost);
}

/* The reader keeps each scheduler stream's capture block, the same from either format,
** and holds only the records that were kept. */
static void reader_sees_the_drops(void **state) {
  (void)state;
  static const sl_read_opts quiet = {1};
  const char *names[2] = {"chip_swimlane_records.json", "chip_swimlane_records.pb"};
  size_t ntasks[2];
  for (int k = 0; k < 2; k++) {
    char p[128];
    snprintf(p, sizeof p, "%s/%s", g_dir, names[k]);
    sl_capture *c = sl_capture_read(p, &quiet);
    assert_non_null(c);
    assert_int_equal(c->n_streams, 1);
    const sl_sched_stream *s = &c->streams[0];
    assert_true(s->has_capture);
    assert_int_equal(s->committed, 4);
    assert_true(s->dropped > 0);
    assert_true(s->truncated);
    assert_int_equal(s->count, 4);
    assert_int_equal(c->n_orch, 4);
    check_health(c);
    ntasks[k] = c->n_tasks;
    sl_capture_free(c);
  }
  assert_int_equal(ntasks[0], ntasks[1]);
  assert_true(ntasks[0] <= (size_t)(hc.sched_threads * hc.cores_per_thread * 3));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(json_streams_count_their_own_drops),
      cmocka_unit_test(pb_streams_count_their_own_drops),
      cmocka_unit_test(reader_sees_the_drops),
  };
  return cmocka_run_group_tests(tests, export_with_drops, remove_dir);
}
