/*
** test_reader.c — the capture reader: exact joined values on the anchor-l4
** fixture (checked against numbers worked out from the raw cycles), the seed
** format giving the same model, 64-bit exactness, level-1 fallback, and one
** crafted bad file per error path (message, NULL result).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sl_capture.h"
#include "sl_mem.h"
#include "sl_phases.h"
#include "sl_read_fields.h"

static char *fixture(const char *rel) {
  const char *dir = getenv("SL_FIXTURES");
  static char buf[4096];
  snprintf(buf, sizeof buf, "%s/%s", dir ? dir : "tests/fixtures", rel);
  return buf;
}

static char *data_file(const char *rel) {
  const char *home = getenv("SWIMLANE_HOME");
  static char buf[4096];
  snprintf(buf, sizeof buf, "%s/tests/reader/data/%s", home ? home : ".", rel);
  return buf;
}

/* ---- stderr capture -------------------------------------------------------------------- */

static char errbuf[8192];
static int saved_fd = -1;
static char errpath[64];

static void err_begin(void) {
  fflush(stderr);
  snprintf(errpath, sizeof errpath, "/tmp/sl_reader_err.%d", (int)getpid());
  int fd = open(errpath, O_RDWR | O_CREAT | O_TRUNC, 0600);
  assert_true(fd >= 0);
  saved_fd = dup(2);
  dup2(fd, 2);
  close(fd);
}

static const char *err_end(void) {
  fflush(stderr);
  dup2(saved_fd, 2);
  close(saved_fd);
  FILE *f = fopen(errpath, "rb");
  size_t n = f ? fread(errbuf, 1, sizeof errbuf - 1, f) : 0;
  if (f) fclose(f);
  errbuf[n] = 0;
  unlink(errpath);
  return errbuf;
}

static const sl_read_opts quiet = {1};

/* cycles -> us exactly as the reference: (c - base) * (1e6 / clock) */
static double us(uint64_t c, uint64_t base, double clock) { return c == 0 ? 0.0 : (double)(c - base) * (1e6 / clock); }

static const sl_task *find_task(const sl_capture *c, uint64_t id, uint32_t core) {
  for (size_t i = 0; i < c->n_tasks; i++)
    if (c->tasks[i].task_id == id && c->tasks[i].core_id == core) return &c->tasks[i];
  return NULL;
}

static const sl_phase_rec *phase_at(const sl_capture *c, size_t thread, size_t i) {
  assert_true(thread < c->n_streams);
  assert_true(i < c->streams[thread].count);
  return &c->phases[c->streams[thread].first + i];
}

/* ---- the fixture ---------------------------------------------------------------------- */

/* An error deep under long keys: the path is cut at its buffer's 511 characters, and the
** message after it is complete. */
static void test_error_path_truncated(void **state) {
  (void)state;
  enum { DEPTH = 70, KEY = 60 };
  size_t cap = 64 + (size_t)DEPTH * (KEY + 8);
  char *j = sl_mem_alloc(cap), *at = j;
  at += sprintf(at, "{\"chip_swimlane_level\": 4, \"metadata\": ");
  for (int d = 0; d < DEPTH; d++) {
    *at++ = '{';
    *at++ = '"';
    memset(at, 'a' + d % 26, KEY);
    at += KEY;
    at += sprintf(at, "\": ");
  }
  at += sprintf(at, "1");
  for (int d = 0; d < DEPTH; d++) *at++ = '}';
  at += sprintf(at, "}");
  sl_err e = SL_ERR_INIT;
  sl_capture *c = sl_capture_load_mem("deep.json", j, (size_t)(at - j), &quiet, &e);
  assert_null(c);
  assert_non_null(e.msg);
  const char *tail = strstr(e.msg, ": nesting deeper than 64 levels");
  if (!tail) fail_msg("error: %s", e.msg);
  assert_true(strncmp(e.msg, "$.metadata.", 11) == 0);
  assert_int_equal((int)(tail - e.msg), 511);
  sl_err_clear(&e);
  sl_mem_free(j);
}

/* Scheduler rows without an AICore match are counted per core in first-drop order: core 2
** drops first and three times, core 0 once. */
static void test_unmatched_per_core(void **state) {
  (void)state;
  static const char cap[] =
      "{\"chip_swimlane_level\": 2, \"metadata\": {\"clock_freq_hz\": 1000000, \"num_cores\": 3,"
      " \"core_types\": [\"aiv\", \"aiv\", \"aiv\"]}, \"aicore_tasks\": [[1, 1, 1, 10, 20, 0]],"
      " \"aicpu_tasks\": [[2, 5, 1, 2], [1, 1, 5, 25], [2, 6, 3, 4], [0, 7, 3, 4], [2, 8, 5, 6]]}";
  sl_capture *c = sl_capture_read_mem("cap.json", cap, strlen(cap), &quiet);
  assert_non_null(c);
  assert_int_equal(c->unmatched_total, 4);
  assert_int_equal(c->n_unmatched, 2);
  assert_int_equal(c->unmatched[0].core_id, 2);
  assert_int_equal(c->unmatched[0].count, 3);
  assert_int_equal(c->unmatched[1].core_id, 0);
  assert_int_equal(c->unmatched[1].count, 1);
  assert_int_equal(c->n_warnings, 1);
  if (!strstr(c->warnings[0], "4 aicpu_task(s) had no matching AICore record (top offenders: core 2: 3, core 0: 1)"))
    fail_msg("warning: %s", c->warnings[0]);
  sl_capture_free(c);
}

static void test_fixture_joined_values(void **state) {
  (void)state;
  err_begin();
  sl_capture *c = sl_capture_read(fixture("anchor-l4/chip_swimlane_records.json"), NULL);
  const char *err = err_end();
  assert_non_null(c);
  /* the reference's warning for the aicpu row (core 3, reg 9) without an AICore match */
  assert_non_null(strstr(err, "1 aicpu_task(s) had no matching AICore record (top offenders: core 3: 1); "
                              "the missing AICore buffer(s) were dropped on rotation."));
  assert_int_equal(c->unmatched_total, 1);
  assert_int_equal(c->n_unmatched, 1);
  assert_int_equal(c->unmatched[0].core_id, 3);
  assert_int_equal(c->n_warnings, 1);

  assert_int_equal(c->level, 4);
  assert_int_equal(c->clock_freq_hz, 50000000);
  /* the earliest positive timestamp is the first orch_submit start (1000 cycles) */
  assert_int_equal(c->base_cycles, 1000);
  assert_int_equal(c->n_core_types, 4);
  assert_string_equal(sl_str_get(c, c->core_types[2]), "aiv");
  assert_int_equal(c->n_core_to_thread, 4);
  assert_int_equal(c->core_to_thread[2], 1);
  assert_int_equal(c->format, SL_FORMAT_JSON_LEGACY);
  assert_string_equal(sl_str_get(c, c->task_producer), "aicpu");

  /* 9 aicpu rows, one unmatched -> 8 tasks, sorted by task id (stable) */
  assert_int_equal(c->n_tasks, 8);
  static const uint64_t order[8] = {0, 1, 2, 2, 6, 7, 4294967296ULL, 4294967296ULL};
  static const uint32_t cores[8] = {0, 2, 2, 3, 0, 2, 1, 3};
  for (int i = 0; i < 8; i++) {
    assert_int_equal(c->tasks[i].task_id, order[i]);
    assert_int_equal(c->tasks[i].core_id, cores[i]);
    assert_int_equal(c->tasks[i].func_id, -1);
  }

  /* t0 on core 0: aicore [0,0,1,1070,1120,3], aicpu [0,1,1062,1135]
  ** start (1070-1000)*0.02 = 1.40, end 2.40, receive 1067 -> 1.34, dispatch 1.24, finish 2.70 */
  const sl_task *t = find_task(c, 0, 0);
  assert_non_null(t);
  assert_true(t->start_us == us(1070, 1000, 50e6));
  assert_true(t->end_us == us(1120, 1000, 50e6));
  assert_true(t->receive_us == us(1067, 1000, 50e6));
  assert_true(t->dispatch_us == us(1062, 1000, 50e6));
  assert_true(t->finish_us == us(1135, 1000, 50e6));
  assert_true(sl_task_duration_us(t) == t->end_us - t->start_us);
  assert_true(sl_task_local_setup_us(t) == t->start_us - t->receive_us);
  assert_true(sl_task_propagation_us(t) == t->receive_us - t->dispatch_us);
  assert_float_equal(t->start_us, 1.40, 1e-12);
  assert_float_equal(t->receive_us, 1.34, 1e-12);
  assert_float_equal(t->dispatch_us, 1.24, 1e-12);
  assert_float_equal(t->finish_us, 2.70, 1e-12);
  assert_float_equal(sl_task_propagation_us(t), 0.10, 1e-12);
  assert_string_equal(sl_str_get(c, t->core_type), "aic");
  assert_int_equal(sl_task_ring_id(t), 0);
  assert_true(t->flags & SL_TASK_HAS_SCHED);
  assert_true(t->flags & SL_TASK_HAS_R2S);

  /* r1t0 = 1<<32 runs on core 1 (aic) and core 3 (aiv): ring 1 */
  t = find_task(c, 4294967296ULL, 3);
  assert_non_null(t);
  assert_int_equal(sl_task_ring_id(t), 1);
  assert_string_equal(sl_str_get(c, t->core_type), "aiv");
  /* aicore [3,4294967296,2,1212,1295,2], aicpu [3,2,1203,1308] */
  assert_float_equal(t->start_us, 4.24, 1e-12);
  assert_float_equal(t->end_us, 5.90, 1e-12);
  assert_float_equal(t->receive_us, 4.20, 1e-12);
  assert_float_equal(t->dispatch_us, 4.06, 1e-12);
  assert_float_equal(t->finish_us, 6.16, 1e-12);

  /* t6: legacy 5-column row -> receive_to_start 0, local_setup 0 */
  t = find_task(c, 6, 0);
  assert_non_null(t);
  assert_false(t->flags & SL_TASK_HAS_R2S);
  assert_true(sl_task_local_setup_us(t) == 0.0);
  assert_true(t->receive_us == t->start_us);

  /* scheduler phases: 2 threads x 10 records, file order */
  assert_true(c->has_sched_phases);
  assert_int_equal(c->n_streams, 2);
  assert_int_equal(c->streams[0].count, 10);
  assert_int_equal(c->streams[1].count, 10);
  assert_int_equal(sl_capture_sched_thread_count(c), 2);
  const sl_phase_rec *p = phase_at(c, 0, 0); /* dispatch 1060..1064, pop 1/0, depths [1,2,0]->[0,2,0] */
  assert_string_equal(sl_str_get(c, p->phase), "dispatch");
  assert_int_equal(p->phase_id, 1);
  assert_float_equal(p->start_us, 1.20, 1e-12);
  assert_float_equal(p->end_us, 1.28, 1e-12);
  assert_true(p->flags & SL_PH_HAS_POP);
  assert_int_equal(sl_phase_pop_hit(c, p), 1);
  assert_int_equal(sl_phase_pop_miss(c, p), 0);
  assert_true(p->flags & SL_PH_HAS_SHARED);
  assert_int_equal(sl_phase_value(c, p, SL_PV_SHARED_AT_START + 1), 2);
  assert_int_equal(sl_phase_value(c, p, SL_PV_SHARED_AT_END), 0);
  p = phase_at(c, 0, 2); /* nested resolve 1136..1139 */
  assert_string_equal(sl_str_get(c, p->phase), "resolve");
  assert_float_equal(p->start_us, 2.72, 1e-12);
  assert_int_equal(sl_phase_tasks_processed(c, p), 2);
  assert_false(p->flags & SL_PH_HAS_SHARED);
  p = phase_at(c, 0, 3); /* predicated_skip for t5 */
  assert_string_equal(sl_str_get(c, p->phase), "predicated_skip");
  assert_true(p->flags & SL_PH_HAS_TASK_ID);
  assert_int_equal(p->task_id, 5);
  p = phase_at(c, 0, 7); /* complete without tasks_processed */
  assert_string_equal(sl_str_get(c, p->phase), "complete");
  assert_false(p->flags & SL_PH_HAS_TASKS_PROCESSED);
  assert_int_equal(sl_phase_loop_iter(c, p), 6);
  p = phase_at(c, 0, 9); /* legacy idle: kept, flagged retired */
  assert_string_equal(sl_str_get(c, p->phase), "idle");
  assert_int_equal(p->phase_id, SL_PHASE_ID_UNKNOWN);
  assert_true(p->flags & SL_PH_RETIRED);
  p = phase_at(c, 1, 2);
  assert_string_equal(sl_str_get(c, p->phase), "dummy_task");
  assert_int_equal(p->task_id, 3);

  /* orchestrator: one thread, 9 submits, phase orch_submit */
  assert_int_equal(c->n_orch_threads, 1);
  assert_int_equal(c->orch_threads[0].count, 9);
  assert_int_equal(c->orch[6].task_id, 4294967296ULL);
  assert_int_equal(c->orch[6].submit_idx, 6);
  assert_int_equal(c->orch[6].flags, SL_ORCH_HAS_TASK_ID | SL_ORCH_HAS_SUBMIT_IDX);
  assert_string_equal(sl_str_get(c, c->orch[0].phase), "orch_submit");
  assert_true(c->orch[0].start_us == 0.0 || c->orch[0].start_us == us(1000, 1000, 50e6));
  assert_float_equal(c->orch[6].end_us, 1.10, 1e-12);
  assert_string_equal(sl_str_get(c, c->orchestrator_source), "aicpu");
  sl_capture_free(c);
}

/* every field of every record equal */
static void assert_same_model(const sl_capture *a, const sl_capture *b) {
  assert_int_equal(a->level, b->level);
  assert_int_equal(a->base_cycles, b->base_cycles);
  assert_int_equal(a->n_tasks, b->n_tasks);
  for (size_t i = 0; i < a->n_tasks; i++) {
    const sl_task *x = &a->tasks[i], *y = &b->tasks[i];
    assert_int_equal(x->task_id, y->task_id);
    assert_int_equal(x->core_id, y->core_id);
    assert_int_equal(x->flags, y->flags);
    assert_string_equal(sl_str_get(a, x->core_type), sl_str_get(b, y->core_type));
    assert_memory_equal(&x->start_us, &y->start_us, 5 * sizeof(double));
  }
  assert_int_equal(a->n_streams, b->n_streams);
  for (size_t s = 0; s < a->n_streams; s++) {
    assert_int_equal(a->streams[s].count, b->streams[s].count);
    for (size_t i = 0; i < a->streams[s].count; i++) {
      const sl_phase_rec *x = phase_at(a, s, i), *y = phase_at(b, s, i);
      assert_string_equal(sl_str_get(a, x->phase), sl_str_get(b, y->phase));
      assert_int_equal(x->phase_id, y->phase_id);
      assert_int_equal(x->flags, y->flags);
      assert_true(x->start_us == y->start_us && x->end_us == y->end_us);
      for (int k = 0; k < SL_PV_COUNT; k++) assert_int_equal(sl_phase_value(a, x, k), sl_phase_value(b, y, k));
      assert_int_equal(x->task_id, y->task_id);
    }
  }
  assert_int_equal(a->n_orch, b->n_orch);
  for (size_t i = 0; i < a->n_orch; i++) {
    assert_int_equal(a->orch[i].task_id, b->orch[i].task_id);
    assert_true(a->orch[i].start_us == b->orch[i].start_us && a->orch[i].end_us == b->orch[i].end_us);
  }
  assert_int_equal(a->unmatched_total, b->unmatched_total);
}

static void test_seed_format_same_model(void **state) {
  (void)state;
  sl_capture *a = sl_capture_read(fixture("anchor-l4/chip_swimlane_records.json"), &quiet);
  sl_capture *b = sl_capture_read(data_file("anchor_l4_seed.json"), &quiet);
  assert_non_null(a);
  assert_non_null(b);
  assert_int_equal(b->format, SL_FORMAT_JSON_SEED);
  assert_same_model(a, b);
  /* the stream metadata of the new format */
  assert_true(b->streams[1].has_meta);
  assert_string_equal(sl_str_get(b, b->streams[1].runtime), "tensormap_and_ringbuffer");
  assert_int_equal(b->streams[1].scheduler_id, 1);
  assert_int_equal(b->streams[1].physical_core_id, -1);
  assert_true(b->streams[1].has_capture);
  assert_int_equal(b->streams[1].committed, 10);
  sl_capture_free(a);
  sl_capture_free(b);
}

/* ---- crafted captures -------------------------------------------------------------------- */

#define META "\"metadata\": {\"clock_freq_hz\": 1000000000, \"num_cores\": 2, \"core_types\": [\"aic\", \"aiv\"]}"

static sl_capture *read_str(const char *json) { return sl_capture_read_mem("mem.json", json, strlen(json), &quiet); }

static void test_64bit_exact(void **state) {
  (void)state;
  /* ids above 2^53 and cycle counts above 2^53 survive exactly */
  const char *j = "{\"chip_swimlane_level\": 2, " META ", \"aicore_tasks\": ["
                  "[0, 18446744073709551615, 7, 9007199254740993, 9007199254741993, 1],"
                  "[1, 9007199254740993, 8, 9007199254740995, 9007199254741000, 0]],"
                  "\"aicpu_tasks\": [[0, 7, 9007199254740992, 9007199254742000],"
                  "[1, 8, 9007199254740993, 9007199254741100]]}";
  sl_capture *c = read_str(j);
  assert_non_null(c);
  assert_int_equal(c->n_tasks, 2);
  assert_int_equal(c->tasks[0].task_id, 9007199254740993ULL);
  assert_int_equal(c->tasks[1].task_id, UINT64_MAX);
  assert_int_equal(sl_task_ring_id(&c->tasks[1]), 0xFFFFFFFFu);
  assert_int_equal(c->base_cycles, 9007199254740992ULL);
  /* start 2^53+1 -> exactly 1 cycle after base = 0.001 us at 1 GHz */
  assert_true(c->tasks[1].start_us == 1.0 * (1e6 / 1e9));
  assert_true(c->tasks[1].end_us == 1001.0 * (1e6 / 1e9));
  assert_true(c->tasks[1].receive_us == 0.0 * (1e6 / 1e9) || c->tasks[1].receive_us == 0.0);
  sl_capture_free(c);
}

static void test_level1_fallback(void **state) {
  (void)state;
  const char *j = "{\"chip_swimlane_level\": 1, " META ", \"aicore_tasks\": ["
                  "[1, 5, 1, 200, 300, 10], [0, 4, 1, 100, 150]], \"aicpu_tasks\": []}";
  sl_capture *c = read_str(j);
  assert_non_null(c);
  assert_int_equal(c->n_tasks, 2);
  assert_int_equal(c->tasks[0].task_id, 4);
  assert_true(c->tasks[0].dispatch_us == 0.0 && c->tasks[0].finish_us == 0.0);
  assert_false(c->tasks[0].flags & SL_TASK_HAS_PROPAGATION);
  /* base = min(190, 300, 100, 150) = 100 */
  assert_int_equal(c->base_cycles, 100);
  assert_true(c->tasks[1].receive_us == 90 * (1e6 / 1e9));
  assert_false(c->has_sched_phases);
  sl_capture_free(c);
  /* level 2 with no scheduler rows: zero tasks */
  j = "{\"chip_swimlane_level\": 2, " META ", \"aicore_tasks\": [[0, 4, 1, 100, 150]]}";
  c = read_str(j);
  assert_non_null(c);
  assert_int_equal(c->n_tasks, 0);
  sl_capture_free(c);
}

static void test_legacy_aliases_and_null_task_id(void **state) {
  (void)state;
  const char *j = "{\"chip_swimlane_level\": 3, " META ", \"scheduler_records\": {\"schema_version\": 1, "
                  "\"streams\": [{\"scheduler_id\": 2, \"records\": ["
                  "{\"start_cycles\": 10, \"end_cycles\": 20, \"loop_iter\": 1, \"kind\": \"fanout\", \"tasks_processed\": 1, \"task_id\": null},"
                  "{\"start_cycles\": 30, \"end_cycles\": 40, \"loop_iter\": 2, \"kind\": \"prestage\", \"task_id\": null},"
                  "{\"start_cycles\": 50, \"end_cycles\": 60, \"loop_iter\": 3, \"kind\": \"no_such_phase\"},"
                  "{\"start_cycles\": 70, \"end_cycles\": 80, \"loop_iter\": 4}"
                  "], \"metrics\": [{\"record_index\": 3, \"shared_at_start\": [1,2,3], \"shared_at_end\": [4,5,6]}]}]}}";
  sl_capture *c = read_str(j);
  assert_non_null(c);
  assert_int_equal(c->n_streams, 3); /* scheduler_id 2: streams 0 and 1 are empty */
  assert_int_equal(c->streams[0].count, 0);
  assert_false(c->streams[0].has_meta);
  const sl_phase_rec *p = phase_at(c, 2, 0);
  assert_string_equal(sl_str_get(c, p->phase), "resolve");
  assert_true(p->flags & SL_PH_RENAMED);
  assert_int_equal(p->phase_id, 6);
  assert_false(p->flags & SL_PH_HAS_TASK_ID);
  p = phase_at(c, 2, 1);
  assert_string_equal(sl_str_get(c, p->phase), "early_dispatch");
  p = phase_at(c, 2, 2);
  assert_true(p->flags & SL_PH_UNKNOWN);
  assert_string_equal(sl_str_get(c, p->phase), "no_such_phase");
  p = phase_at(c, 2, 3);
  assert_string_equal(sl_str_get(c, p->phase), "unknown");
  assert_true(p->flags & SL_PH_HAS_SHARED);
  assert_int_equal(sl_phase_value(c, p, SL_PV_SHARED_AT_END + 2), 6);
  assert_int_equal(sl_capture_sched_thread_count(c), 3);
  sl_capture_free(c);
}

/* A phase record keeps its integers narrow (loop_iter 32 bits, the rest 16) until one does
** not fit; then all of them move to the capture's wide table, and every value reads back
** exact. */
static void test_phase_values_wide(void **state) {
  (void)state;
  const char *j = "{\"chip_swimlane_level\": 3, " META ", \"scheduler_records\": {\"schema_version\": 1, "
                  "\"streams\": [{\"scheduler_id\": 0, \"records\": ["
                  "{\"start_cycles\": 10, \"end_cycles\": 20, \"loop_iter\": 2147483647, \"kind\": \"dispatch\", \"tasks_processed\": -2147483648},"
                  "{\"start_cycles\": 30, \"end_cycles\": 40, \"loop_iter\": 9000000000, \"kind\": \"complete\", \"tasks_processed\": 7},"
                  "{\"start_cycles\": 50, \"end_cycles\": 60, \"loop_iter\": -2147483648, \"kind\": \"release\", \"tasks_processed\": 1, "
                  "\"pop_hit\": 32767, \"pop_miss\": -32768}"
                  "], \"metrics\": [{\"record_index\": 0, \"pop_hit\": 1, \"pop_miss\": -9000000000, "
                  "\"shared_at_start\": [1,2,3], \"shared_at_end\": [4,5,6]},"
                  "{\"record_index\": 1, \"shared_at_start\": [9223372036854775807,0,-1], \"shared_at_end\": [0,0,0]}]}]}}";
  sl_capture *c = read_str(j);
  assert_non_null(c);
  const sl_phase_rec *p = phase_at(c, 0, 0); /* wide from its metrics' pop_miss on */
  assert_int_equal(sl_phase_loop_iter(c, p), 2147483647);
  assert_int_equal(sl_phase_tasks_processed(c, p), INT32_MIN);
  assert_int_equal(sl_phase_pop_hit(c, p), 1);
  assert_true(sl_phase_pop_miss(c, p) == -9000000000LL);
  int64_t sh[3];
  sl_phase_shared(c, p, 0, sh);
  assert_true(sh[0] == 1 && sh[1] == 2 && sh[2] == 3);
  sl_phase_shared(c, p, 1, sh);
  assert_true(sh[0] == 4 && sh[1] == 5 && sh[2] == 6);
  p = phase_at(c, 0, 1); /* wide from its own loop_iter */
  assert_true(sl_phase_loop_iter(c, p) == 9000000000LL);
  assert_int_equal(sl_phase_tasks_processed(c, p), 7);
  sl_phase_shared(c, p, 0, sh);
  assert_true(sh[0] == INT64_MAX && sh[1] == 0 && sh[2] == -1);
  p = phase_at(c, 0, 2); /* narrow: every value at the edge of its width */
  assert_int_equal(p->wide, 0);
  assert_int_equal(sl_phase_loop_iter(c, p), INT32_MIN);
  assert_int_equal(sl_phase_pop_hit(c, p), 32767);
  assert_int_equal(sl_phase_pop_miss(c, p), -32768);
  assert_int_equal(c->n_phase_wide, 2);
  sl_capture_free(c);
}

static void test_phase_presence(void **state) {
  (void)state;
  /* [] means no scheduler phases; [[]] means one (empty) scheduler thread */
  sl_capture *c = read_str("{\"chip_swimlane_level\": 3, " META ", \"aicpu_scheduler_phases\": []}");
  assert_non_null(c);
  assert_false(c->has_sched_phases);
  assert_int_equal(c->n_streams, 0);
  sl_capture_free(c);
  c = read_str("{\"chip_swimlane_level\": 3, " META ", \"aicpu_scheduler_phases\": [[]]}");
  assert_non_null(c);
  assert_true(c->has_sched_phases);
  assert_int_equal(c->n_streams, 1);
  assert_int_equal(sl_capture_sched_thread_count(c), 1);
  sl_capture_free(c);
}

static void test_lifecycle(void **state) {
  (void)state;
  /* lifecycle spans join the base time: handshake_start (100) is the earliest stamp */
  sl_capture *c = read_str("{\"chip_swimlane_level\": 2, \"metadata\": {\"clock_freq_hz\": 1000000000, \"num_cores\": 1,"
                           " \"core_types\": [\"aiv\"]}, \"aicore_tasks\": [[0, 4294967297, 1, 500, 900, 20]],"
                           " \"scheduler_tasks\": {\"schema_version\": 1, \"producer\": \"aicore\", \"records\": [[0, 1, 450, 950]]},"
                           " \"aicpu_lifecycle_records\": [{\"aicpu_thread_id\": 1, \"handshake_start_cycles\": 100,"
                           " \"handshake_complete_cycles\": 120, \"exit_wait_end_cycles\": 1010, \"extra\": [1, {}]}]}");
  assert_non_null(c);
  assert_int_equal(c->base_cycles, 100);
  assert_string_equal(sl_str_get(c, c->task_producer), "aicore");
  assert_int_equal(c->n_lifecycle, 1);
  const sl_lifecycle_rec *l = &c->lifecycle[0];
  assert_int_equal(l->aicpu_thread_id, 1);
  assert_int_equal(l->present, (1u << SL_LC_FIELD(HANDSHAKE_START)) | (1u << SL_LC_FIELD(HANDSHAKE_COMPLETE)) | (1u << SL_LC_FIELD(EXIT_WAIT_END)));
  assert_true(l->us[SL_LC_FIELD(HANDSHAKE_START)] == 0.0);
  assert_true(l->us[SL_LC_FIELD(HANDSHAKE_COMPLETE)] == 20 * (1e6 / 1e9));
  assert_true(l->us[SL_LC_FIELD(EXIT_WAIT_END)] == 910 * (1e6 / 1e9));
  assert_true(l->us[SL_LC_FIELD(CONFIG_START)] == 0.0);
  assert_string_equal(sl_lifecycle_key(SL_LC_FIELD(EXIT_WAIT_END)), "exit_wait_end_cycles");
  assert_true(c->tasks[0].dispatch_us == 350 * (1e6 / 1e9));
  assert_int_equal(sl_task_ring_id(&c->tasks[0]), 1);
  sl_capture_free(c);
  /* each record starts empty: the second has only what it lists, not the first's fields */
  c = read_str("{\"chip_swimlane_level\": 2, \"metadata\": {\"clock_freq_hz\": 1000000000, \"num_cores\": 1,"
               " \"core_types\": [\"aiv\"]}, \"aicpu_lifecycle_records\": [{\"aicpu_thread_id\": 1,"
               " \"handshake_start_cycles\": 100, \"exit_wait_end_cycles\": 1010}, {\"aicpu_thread_id\": 2,"
               " \"handshake_complete_cycles\": 130}]}");
  assert_non_null(c);
  assert_int_equal(c->n_lifecycle, 2);
  assert_int_equal(c->lifecycle[1].aicpu_thread_id, 2);
  assert_int_equal(c->lifecycle[1].present, 1u << SL_LC_FIELD(HANDSHAKE_COMPLETE));
  sl_capture_free(c);
}

/* A numeric field the reader has no meaning for (a schema field newer than the reader) is
** carried as an extra on every record kind, in file order, by its capture name. */
static void test_extras_every_record_kind(void **state) {
  (void)state;
  sl_capture *c = read_str("{\"chip_swimlane_level\": 4, " META ", \"aicore_tasks\": [[0, 5, 1, 500, 900, 20]],"
                           " \"aicpu_tasks\": [[0, 1, 450, 950, 1]],"
                           " \"scheduler_records\": {\"streams\": [{\"scheduler_id\": 0, \"records\": ["
                           "{\"start_cycles\": 460, \"end_cycles\": 470, \"kind\": \"dispatch\", \"new_ph\": 3}],"
                           " \"metrics\": [{\"record_index\": 0, \"pop_hit\": 1, \"pop_miss\": 2, \"new_metric\": 6}]}]},"
                           " \"aicpu_orchestrator_phases\": [[{\"start_cycles\": 400, \"end_cycles\": 440, \"task_id\": 5,"
                           " \"submit_idx\": 0, \"new_orch\": -4, \"new_str\": \"x\"}]],"
                           " \"aicpu_lifecycle_records\": [{\"aicpu_thread_id\": 0, \"handshake_start_cycles\": 410,"
                           " \"new_lc\": 9}]}");
  assert_non_null(c);
  const sl_phase_rec *p = phase_at(c, 0, 0);
  /* a key of the record and a key of its metrics object (a field only the metrics writer
  ** prints): both extras of the phase, record keys first */
  assert_int_equal(p->n_extra, 2);
  assert_string_equal(sl_str_get(c, c->extras[p->extra_first].key), "new_ph");
  assert_int_equal(c->extras[p->extra_first].value, 3);
  assert_string_equal(sl_str_get(c, c->extras[p->extra_first + 1].key), "new_metric");
  assert_int_equal(c->extras[p->extra_first + 1].value, 6);
  assert_int_equal(sl_phase_pop_hit(c, p), 1); /* the metrics fields the reader knows still merge */
  assert_int_equal(sl_phase_pop_miss(c, p), 2);
  assert_int_equal(c->orch[0].extra.n, 1); /* strings are not integer fields: not carried */
  assert_string_equal(sl_str_get(c, c->extras[c->orch[0].extra.first].key), "new_orch");
  assert_int_equal(c->extras[c->orch[0].extra.first].value, -4);
  assert_int_equal(c->lifecycle[0].extra.n, 1);
  assert_int_equal(c->extras[c->lifecycle[0].extra.first].value, 9);
  assert_int_equal(c->tasks[0].n_extra, 0); /* every row column is a field the reader knows */
  sl_capture_free(c);
}

/* metadata.host_capture with a status that is not a string: the key is noted (the trace
** copies it), the value is not a status, and the capture still reads. */
static void test_host_capture_odd_status(void **state) {
  (void)state;
  sl_capture *c = read_str("{\"chip_swimlane_level\": 1, \"metadata\": {\"clock_freq_hz\": 1000000000,"
                           " \"num_cores\": 1, \"core_types\": [\"aic\"], \"host_capture\": {\"status\": 5,"
                           " \"error\": null}}, \"aicore_tasks\": [[0, 1, 1, 500, 900, 20]]}");
  assert_non_null(c);
  assert_true(c->host_capture.present);
  assert_int_equal(c->host_capture.seen, SL_HC_STATUS | SL_HC_ERROR);
  assert_int_equal(c->host_capture.status, SL_STR_NONE);
  assert_false(c->host_capture.complete);
  sl_capture_free(c);
}

/* An orchestrator record names its kind orch_<x>; any other name keeps the default kind. */
static void test_orch_kind_names(void **state) {
  (void)state;
  sl_capture *c = read_str("{\"chip_swimlane_level\": 4, " META ", \"aicpu_orchestrator_phases\": [["
                           "{\"phase\": \"orch_fanin\", \"start_cycles\": 400, \"end_cycles\": 440, \"task_id\": 5},"
                           "{\"phase\": \"fanin\", \"start_cycles\": 450, \"end_cycles\": 460, \"task_id\": 6},"
                           "{\"start_cycles\": 470, \"end_cycles\": 480, \"task_id\": 7}]]}");
  assert_non_null(c);
  assert_int_equal(c->n_orch, 3);
  for (size_t i = 0; i < 3; i++) {
    const char *ph = sl_str_get(c, c->orch[i].phase);
    if (c->orch[i].task_id == 5) assert_string_equal(ph, "orch_fanin");
    else assert_string_equal(ph, SL_ORCH_PHASE_DEFAULT); /* the default kind */
  }
  assert_int_equal(c->n_warnings, 0);
  sl_capture_free(c);
  /* a kind this build's schema lacks is kept under its own name, with one warning */
  c = read_str("{\"chip_swimlane_level\": 4, " META ", \"aicpu_orchestrator_phases\": [[], ["
               "{\"phase\": \"orch_fanin\", \"start_cycles\": 400, \"end_cycles\": 440, \"task_id\": 5},"
               "{\"phase\": \"orch_frobnicate\", \"start_cycles\": 450, \"end_cycles\": 460, \"task_id\": 6},"
               "{\"phase\": \"orch_frobnicate\", \"start_cycles\": 470, \"end_cycles\": 480, \"task_id\": 7}]]}");
  assert_non_null(c);
  assert_string_equal(sl_str_get(c, c->orch[1].phase), "orch_frobnicate");
  assert_true(c->orch[1].flags & SL_ORCH_UNKNOWN);
  assert_false(c->orch[0].flags & SL_ORCH_UNKNOWN);
  assert_int_equal(c->n_warnings, 1);
  if (!strstr(c->warnings[0], "2 orchestrator record(s) of kinds this build's schema does not have, first "
                              "'orch_frobnicate' (thread 1, record 1): drawn under their own name"))
    fail_msg("warning: %s", c->warnings[0]);
  sl_capture_free(c);
}

/* The base time is the earliest positive stamp of every stream, the first AICore row's
** receive (start - receive_to_start) included. */
static void test_base_from_first_row(void **state) {
  (void)state;
  sl_capture *c = read_str("{\"chip_swimlane_level\": 2, " META ", \"aicore_tasks\": [[0, 5, 1, 500, 900, 20],"
                           " [1, 6, 1, 700, 950, 0]], \"aicpu_tasks\": [[0, 1, 490, 950], [1, 1, 650, 990]]}");
  assert_non_null(c);
  assert_int_equal(c->base_cycles, 480);
  sl_capture_free(c);
}

/* A newer writer's row columns (a capture of another schema, no layout to name them):
** each task carries its own, by position. */
static void test_foreign_row_columns(void **state) {
  (void)state;
  sl_capture *c = read_str("{\"chip_swimlane_level\": 4, \"metadata\": {\"clock_freq_hz\": 1000000000,"
                           " \"num_cores\": 2, \"core_types\": [\"aic\", \"aiv\"],"
                           " \"schema_fingerprint\": \"0000000000000000\"},"
                           " \"aicore_tasks\": [[0, 5, 1, 500, 900, 20, 11], [1, 6, 1, 600, 950, 30, 22]],"
                           " \"aicpu_tasks\": [[0, 1, 450, 950, 1], [1, 1, 550, 990, 1]]}");
  assert_non_null(c);
  assert_int_equal(c->n_tasks, 2);
  for (size_t i = 0; i < c->n_tasks; i++) {
    const sl_task *t = &c->tasks[i];
    assert_int_equal(t->n_extra, 1);
    assert_string_equal(sl_str_get(c, c->extras[t->extra_first].key), "column_6");
    assert_int_equal(c->extras[t->extra_first].value, t->task_id == 5 ? 11 : 22);
  }
  sl_capture_free(c);
}

/* Warnings are data too: the library form keeps them on capture->warnings (a foreign schema
** fingerprint's note, an unknown phase kind) and prints nothing; the command form prints them. */
static void test_warnings_returned(void **state) {
  (void)state;
  const char *j = "{\"chip_swimlane_level\": 3, \"metadata\": {\"clock_freq_hz\": 1000000000, \"num_cores\": 1,"
                  " \"core_types\": [\"aic\"], \"schema_fingerprint\": \"0000000000000000\"},"
                  " \"scheduler_records\": {\"streams\": [{\"scheduler_id\": 0, \"records\": ["
                  "{\"start_cycles\": 10, \"end_cycles\": 20, \"kind\": \"no_such_phase\"}]}]}}";
  sl_err e = SL_ERR_INIT;
  err_begin();
  sl_capture *c = sl_capture_load_mem("warn.json", j, strlen(j), NULL, &e);
  const char *err = err_end();
  assert_non_null(c);
  assert_null(e.msg);
  assert_string_equal(err, "");
  assert_int_equal(c->n_warnings, 2);
  assert_non_null(strstr(c->warnings[0], "schema fingerprint 0000000000000000"));
  assert_non_null(strstr(c->warnings[1], "'no_such_phase' (stream 0, record 0)"));
  sl_capture_free(c);
  err_begin();
  c = sl_capture_read_mem("warn.json", j, strlen(j), NULL);
  err = err_end();
  assert_non_null(c);
  assert_non_null(strstr(err, "swimlane: warning: warn.json: captured under schema fingerprint 0000000000000000"));
  assert_non_null(strstr(err, "swimlane: warning: warn.json: 1 scheduler phase record(s) of kinds"));
  sl_capture_free(c);
}

/* The lifecycle span fields the reader converts to times are the schema's 64-bit cycle
** stamps (the range of the generated table sl_capture.h names); every field is found again
** by its .pb number and its JSON place. */
static void test_read_table(void **state) {
  (void)state;
  const sl_read_record *lc = &sl_read_records[SL_READ_AICPU_LIFECYCLE_RECORD];
  assert_int_equal(SL_LC_FIELD_COUNT, 14);
  for (int i = 0; i < SL_LC_FIELD_COUNT; i++) {
    const char *k = sl_lifecycle_key(i);
    size_t n = strlen(k);
    assert_true(n > 7 && !strcmp(k + n - 7, "_cycles"));
    assert_int_equal(lc->fields[SL_LC_FIRST_RF + i].bytes, 8);
    assert_int_equal(lc->fields[SL_LC_FIRST_RF + i].is_signed, 0);
  }
  for (int k = 0; k < SL_READ_KIND_COUNT; k++) {
    const sl_read_record *r = &sl_read_records[k];
    for (uint32_t i = 0; i < r->n_fields; i++) {
      const sl_read_field *f = &r->fields[i];
      assert_int_equal(sl_read_field_by_pb(r, f->pb), (int)i);
      if (f->column >= 0) assert_int_equal(sl_read_field_by_column(r, (unsigned)f->column), (int)i);
      if (f->key && f->element <= 0) assert_int_equal(sl_read_field_by_key(r, f->key, strlen(f->key)), (int)i);
    }
  }
}

/* ---- errors: one crafted file per error ---------------------------------------------------- */

typedef struct bad_case {
  const char *name;
  const char *json;
  const char *expect; /* substring of the message */
} bad_case;

static const bad_case bad_cases[] = {
  {"level 7", "{\"chip_swimlane_level\": 7, " META "}",
   "mem.json: $.chip_swimlane_level: unsupported chip_swimlane_level: 7 (expected 1, 2, 3, or 4)"},
  {"level missing", "{" META "}", "$.chip_swimlane_level: unsupported chip_swimlane_level: None"},
  {"level string", "{\"chip_swimlane_level\": \"4\", " META "}", "$.chip_swimlane_level: unsupported chip_swimlane_level: a string"},
  {"zero clock", "{\"chip_swimlane_level\": 4, \"metadata\": {\"clock_freq_hz\": 0, \"core_types\": []}}",
   "$.metadata.clock_freq_hz: metadata missing/zero clock_freq_hz: 0"},
  {"no clock", "{\"chip_swimlane_level\": 4, \"metadata\": {\"core_types\": []}}", "metadata missing/zero clock_freq_hz: None"},
  {"truncated", "{\"chip_swimlane_level\": 4, " META ", \"aicore_tasks\": [[0, 1, 2, 3",
   "$.aicore_tasks[0][4]: truncated JSON"},
  {"invalid", "{\"chip_swimlane_level\": 4,, }", "invalid JSON at byte 27: parse error: invalid object key (must be a string)"},
  {"empty", "", "$: empty file"},
  {"top array", "[1, 2]", "$: expected a JSON object at the top level"},
  {"wrong type in row", "{\"chip_swimlane_level\": 4, " META ", \"aicore_tasks\": [[0, 1, 2, \"3\", 4]]}",
   "$.aicore_tasks[0][3]: expected an integer, got a string"},
  {"float cycles", "{\"chip_swimlane_level\": 4, " META ", \"aicore_tasks\": [[0, 1, 2, 3.5, 4]]}",
   "$.aicore_tasks[0][3]: expected an integer, got 3.5"},
  /* the bad value is quoted up to its own end (to the line's end here), not beyond */
  {"bad task id", "{\"chip_swimlane_level\": 4, " META ", \"aicpu_orchestrator_phases\": [[{\"task_id\": \"1x\", \"submit_idx\": 0}]]}",
   "$.aicpu_orchestrator_phases[0][0].task_id: expected a task id, got 1x\n"},
  {"short row", "{\"chip_swimlane_level\": 4, " META ", \"aicore_tasks\": [[0, 1, 2]]}",
   "$.aicore_tasks[0]: row has 3 columns (expected 5 or 6)"},
  {"long row", "{\"chip_swimlane_level\": 4, " META ", \"aicpu_tasks\": [[0, 1, 2, 3, 4, 5]]}",
   "$.aicpu_tasks[0][5]: too many columns (expected 4 or 5)"},
  /* row widths of every stream, one column either side of the accepted ones */
  {"aicore 4 columns", "{\"chip_swimlane_level\": 4, " META ", \"aicore_tasks\": [[0, 1, 2, 3]]}",
   "$.aicore_tasks[0]: row has 4 columns (expected 5 or 6)"},
  {"aicore 7 columns", "{\"chip_swimlane_level\": 4, " META ", \"aicore_tasks\": [[0, 1, 2, 3, 4, 5, 6]]}",
   "$.aicore_tasks[0][6]: too many columns (expected 5 or 6)"},
  {"aicpu 3 columns", "{\"chip_swimlane_level\": 4, " META ", \"aicpu_tasks\": [[0, 1, 2]]}",
   "$.aicpu_tasks[0]: row has 3 columns (expected 4 or 5)"},
  {"scheduler task 3 columns", "{\"chip_swimlane_level\": 4, " META ", \"scheduler_tasks\": {\"records\": [[0, 1, 2]]}}",
   "$.scheduler_tasks.records[0]: row has 3 columns (expected 4 or 5)"},
  {"scheduler task 6 columns", "{\"chip_swimlane_level\": 4, " META ", \"scheduler_tasks\": {\"records\": [[0, 1, 2, 3, 4, 5]]}}",
   "$.scheduler_tasks.records[0][5]: too many columns (expected 4 or 5)"},
  {"scheduler task string", "{\"chip_swimlane_level\": 4, " META ", \"scheduler_tasks\": {\"records\": [[0, 1, \"2\", 3]]}}",
   "$.scheduler_tasks.records[0][2]: expected an integer, got a string"},
  {"aicore r2s string", "{\"chip_swimlane_level\": 4, " META ", \"aicore_tasks\": [[0, 1, 2, 3, 4, \"5\"]]}",
   "$.aicore_tasks[0][5]: expected an integer, got a string"},
  {"rows not array", "{\"chip_swimlane_level\": 4, " META ", \"aicore_tasks\": {}}", "$.aicore_tasks: expected an array, got an object"},
  {"unknown core (aicore)", "{\"chip_swimlane_level\": 4, " META ", \"aicore_tasks\": [[0,1,1,5,6],[9, 1, 2, 3, 4]]}",
   "$.aicore_tasks[1][0]: core 9 is not in metadata.core_types (2 cores)"},
  {"unknown core (scheduler)", "{\"chip_swimlane_level\": 4, " META ", \"scheduler_tasks\": {\"records\": [[5, 1, 2, 3]]}}",
   "$.scheduler_tasks.records[0][0]: core 5 is not in metadata.core_types (2 cores)"},
  {"no core types", "{\"chip_swimlane_level\": 4, \"metadata\": {\"clock_freq_hz\": 5}, \"aicore_tasks\": [[0, 1, 2, 3, 4]]}",
   "$.metadata.core_types: missing"},
  /* num_cores 0 stands in for the core list: the row's core is out of it, the list is not missing */
  {"zero cores, no core types", "{\"chip_swimlane_level\": 4, \"metadata\": {\"clock_freq_hz\": 5, \"num_cores\": 0},"
   " \"aicore_tasks\": [[0, 1, 2, 3, 4]]}", "$.aicore_tasks[0][0]: core 0 is not in metadata.core_types (0 cores)"},
  {"core types a number", "{\"chip_swimlane_level\": 4, \"metadata\": {\"clock_freq_hz\": 5, \"core_types\": 7}}",
   "$.metadata.core_types: expected an array, got a number"},
  {"core_to_thread a string", "{\"chip_swimlane_level\": 4, \"metadata\": {\"clock_freq_hz\": 5, \"core_to_thread\": \"x\"}}",
   "$.metadata.core_to_thread: expected an array, got a string"},
  {"core type not string", "{\"chip_swimlane_level\": 4, \"metadata\": {\"clock_freq_hz\": 5, \"core_types\": [1]}}",
   "$.metadata.core_types[0]: expected a string, got a number"},
  {"both task formats", "{\"chip_swimlane_level\": 4, " META ", \"aicpu_tasks\": [], \"scheduler_tasks\": {}}",
   "both aicpu_tasks and scheduler_tasks are present"},
  {"both phase formats", "{\"chip_swimlane_level\": 4, " META ", \"scheduler_records\": {}, \"aicpu_scheduler_phases\": []}",
   "both aicpu_scheduler_phases and scheduler_records are present"},
  {"both phase formats, older first", "{\"chip_swimlane_level\": 4, " META ", \"aicpu_scheduler_phases\": [], \"scheduler_records\": {}}",
   "both aicpu_scheduler_phases and scheduler_records are present"},
  {"both task formats, newer first", "{\"chip_swimlane_level\": 4, " META ", \"scheduler_tasks\": {}, \"aicpu_tasks\": []}",
   "both aicpu_tasks and scheduler_tasks are present"},
  {"metric out of range", "{\"chip_swimlane_level\": 4, " META ", \"scheduler_records\": {\"streams\": [{\"scheduler_id\": 0, "
   "\"records\": [], \"metrics\": [{\"record_index\": 3}]}]}}", "metrics[0].record_index: 3 out of range (the stream has 0 records)"},
  {"second metric out of range", "{\"chip_swimlane_level\": 4, " META ", \"scheduler_records\": {\"streams\": [{\"scheduler_id\": 0, "
   "\"records\": [{\"kind\": \"dispatch\", \"start_cycles\": 1, \"end_cycles\": 2}], "
   "\"metrics\": [{\"record_index\": 0}, {\"record_index\": 1}]}]}}",
   "metrics[1].record_index: 1 out of range (the stream has 1 records)"},
  {"duplicate scheduler", "{\"chip_swimlane_level\": 4, " META ", \"scheduler_records\": {\"streams\": [{\"scheduler_id\": 0}, {\"scheduler_id\": 0}]}}",
   "duplicate scheduler_id 0"},
  {"phase kind number", "{\"chip_swimlane_level\": 4, " META ", \"aicpu_scheduler_phases\": [[{\"kind\": 3}]]}",
   "$.aicpu_scheduler_phases[0][0].kind: expected a phase name, got a number"},
  {"orch not per thread", "{\"chip_swimlane_level\": 4, " META ", \"aicpu_orchestrator_phases\": [{\"submit_idx\": 1}]}",
   "$.aicpu_orchestrator_phases[0]: expected a per-thread array, got an object"},
  {"host and aicpu orchestrators", "{\"chip_swimlane_level\": 4, " META ", \"aicpu_orchestrator_phases\": [[{\"submit_idx\": 0}]], "
   "\"host_orchestrator_phases\": [[]]}",
   "$.aicpu_orchestrator_phases: both AICPU and host orchestrator phases are present; clock-domain source is ambiguous"},
  {"host record before origin", "{\"chip_swimlane_level\": 4, \"metadata\": {\"clock_freq_hz\": 5, \"core_types\": [], "
   "\"host_orchestration_origin_ns\": 100}, \"host_orchestrator_phases\": [[{\"start_host_ns\": 99, \"end_host_ns\": 120}]]}",
   "$.host_orchestrator_phases[0]: invalid host orchestrator phase: origin=100, start=99, end=120"},
  {"upload ends before it starts", "{\"chip_swimlane_level\": 4, \"metadata\": {\"clock_freq_hz\": 5, \"core_types\": [], "
   "\"orchestrator_source\": \"host\"}, \"host_device_uploads\": [{\"start_host_ns\": 9, \"end_host_ns\": 8}]}",
   "invalid host device upload: origin=8, start=9, end=8"},
  {"host phases not per thread", "{\"chip_swimlane_level\": 4, " META ", \"host_orchestrator_phases\": [{\"submit_idx\": 1}]}",
   "$.host_orchestrator_phases[0]: expected a per-thread array, got an object"},
  {"duplicate section", "{\"chip_swimlane_level\": 4, " META ", \"aicore_tasks\": [], \"aicore_tasks\": []}",
   "$.aicore_tasks: duplicate key"},
  {"huge integer", "{\"chip_swimlane_level\": 4, " META ", \"aicore_tasks\": [[0, 1, 2, 3, 184467440737095516150]]}",
   "$.aicore_tasks[0][4]: integer 184467440737095516150 out of range"},
};

static void test_bad_inputs(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
    err_begin();
    sl_capture *c = sl_capture_read_mem("mem.json", bad_cases[i].json, strlen(bad_cases[i].json), &quiet);
    const char *err = err_end();
    if (c || !strstr(err, bad_cases[i].expect) || strncmp(err, "swimlane: mem.json: ", 20) != 0)
      fail_msg("case '%s': got %s, stderr '%s', want '%s'", bad_cases[i].name, c ? "a capture" : "NULL", err,
               bad_cases[i].expect);
    sl_capture_free(c);
    /* the library form returns the same first error and prints nothing (sl_err.h) */
    sl_err e = SL_ERR_INIT;
    err_begin();
    c = sl_capture_load_mem("mem.json", bad_cases[i].json, strlen(bad_cases[i].json), &quiet, &e);
    err = err_end();
    char whole[1024];
    snprintf(whole, sizeof whole, "%s: %s\n", e.file ? e.file : "(null)", e.msg ? e.msg : "(none)"); /* as printed */
    if (c || *err || !strstr(whole, bad_cases[i].expect) || !e.file || strcmp(e.file, "mem.json") != 0)
      fail_msg("case '%s' (sl_capture_load_mem): got %s, stderr '%s', error '%s', want '%s'", bad_cases[i].name,
               c ? "a capture" : "NULL", err, whole, bad_cases[i].expect);
    sl_err_clear(&e);
    sl_capture_free(c);
  }
}

/* A signed 64-bit field reads exactly up to both ends of int64 and refuses one past them. */
static void test_int64_bounds(void **state) {
  (void)state;
  static const struct { const char *v; int ok; int64_t want; } cases[] = {
      {"-9223372036854775808", 1, INT64_MIN}, {"-9223372036854775807", 1, INT64_MIN + 1},
      {"9223372036854775807", 1, INT64_MAX},  {"-9223372036854775809", 0, 0},
      {"9223372036854775808", 0, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char json[256];
    snprintf(json, sizeof json,
             "{\"chip_swimlane_level\": 1, \"metadata\": {\"clock_freq_hz\": 1000000, \"num_cores\": %s},"
             " \"aicore_tasks\": []}", cases[i].v);
    err_begin();
    sl_capture *c = sl_capture_read_mem("mem.json", json, strlen(json), &quiet);
    const char *err = err_end();
    if (cases[i].ok) {
      if (!c) fail_msg("num_cores %s refused: %s", cases[i].v, err);
      assert_true(c->num_cores == cases[i].want);
    } else if (c || !strstr(err, "out of range")) {
      fail_msg("num_cores %s: got %s, stderr '%s'", cases[i].v, c ? "a capture" : "NULL", err);
    }
    sl_capture_free(c);
  }
}

static void test_missing_file(void **state) {
  (void)state;
  err_begin();
  sl_capture *c = sl_capture_read("/nonexistent/chip_swimlane_records.json", NULL);
  const char *err = err_end();
  assert_null(c);
  assert_non_null(strstr(err, "swimlane: /nonexistent/chip_swimlane_records.json: cannot open"));
}

/* core_types alone (no num_cores) is enough to place the rows on cores. */
static void test_core_types_without_num_cores(void **state) {
  (void)state;
  static const char json[] =
      "{\"chip_swimlane_level\": 2, \"metadata\": {\"clock_freq_hz\": 1000000, \"core_types\": [\"aic\", \"aiv\"]},"
      " \"aicore_tasks\": [[1, 7, 1, 10, 20, 0]], \"aicpu_tasks\": [[1, 1, 5, 25]]}";
  sl_capture *c = read_str(json);
  assert_non_null(c);
  assert_int_equal(c->n_tasks, 1);
  assert_int_equal(c->tasks[0].core_id, 1);
  assert_int_equal(c->tasks[0].task_id, 7);
  sl_capture_free(c);
}

static void test_directory_given(void **state) {
  (void)state;
  err_begin();
  sl_capture *c = sl_capture_read("/tmp", NULL);
  const char *err = err_end();
  assert_null(c);
  assert_non_null(strstr(err, "swimlane: /tmp: is a directory, expected a chip_swimlane_records file"));
}

/* every prefix of the fixture is either a clean error or (the whole file) a capture */
static void test_every_truncation(void **state) {
  (void)state;
  FILE *f = fopen(fixture("anchor-l4/chip_swimlane_records.json"), "rb");
  assert_non_null(f);
  static char buf[16384];
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  for (size_t len = 0; len < n; len += 7) {
    err_begin();
    sl_capture *c = sl_capture_read_mem("cut.json", buf, len, &quiet);
    const char *err = err_end();
    /* a prefix ending inside the final whitespace would still be complete */
    if (c) {
      assert_true(len >= n - 2);
      sl_capture_free(c);
    } else {
      assert_non_null(strstr(err, "swimlane: cut.json: $"));
    }
  }
}

/* ---- deps.json ---------------------------------------------------------------------- */

static void test_deps_fixture(void **state) {
  (void)state;
  sl_deps *d = sl_deps_load(fixture("anchor-l4/deps.json"));
  assert_non_null(d);
  assert_int_equal(d->status, SL_DEPS_OK);
  assert_true(d->has_edges);
  /* 11 edges with one duplicate (0 -> 1) */
  assert_int_equal(d->n_edges, 10);
  static const uint64_t preds[] = {0, 1, 4, 2, 3, 5, 4294967296ULL};
  assert_int_equal(d->n_preds, 7);
  for (int i = 0; i < 7; i++) assert_int_equal(d->preds[i], preds[i]);
  size_t n;
  const uint64_t *s = sl_deps_succs(d, 0, &n);
  assert_int_equal(n, 3);
  assert_int_equal(s[0], 1);
  assert_int_equal(s[1], 2);
  assert_int_equal(s[2], 99);
  const uint64_t *p = sl_deps_preds(d, 6, &n);
  assert_int_equal(n, 2);
  assert_int_equal(p[0], 2);
  assert_int_equal(p[1], 4294967296ULL);
  assert_null(sl_deps_succs(d, 99, &n));
  assert_int_equal(n, 0);
  assert_true(d->has_kernel_map);
  const int64_t *k = sl_deps_kernel_ids(d, 4294967296ULL);
  assert_non_null(k);
  assert_int_equal(k[0], 2);
  assert_int_equal(k[1], 3);
  assert_null(sl_deps_kernel_ids(d, 4)); /* the alloc task is absent from tasks[] */
  assert_int_equal(sl_deps_block_num(d, 2), 2);
  assert_int_equal(sl_deps_block_num(d, 0), 1);
  assert_int_equal(sl_deps_block_num(d, 4), 0);
  assert_int_equal(sl_deps_first_func_id(d, 5), 0);
  assert_int_equal(sl_deps_first_func_id(d, 3), -1);

  /* func_id resolution: aic -> kids[0]; aiv -> first of kids[1], kids[2] */
  sl_capture *c = sl_capture_read(fixture("anchor-l4/chip_swimlane_records.json"), &quiet);
  assert_non_null(c);
  sl_capture_resolve_func_ids(c, d);
  assert_int_equal(find_task(c, 0, 0)->func_id, 0);
  assert_int_equal(find_task(c, 1, 2)->func_id, 1);
  assert_int_equal(find_task(c, 4294967296ULL, 1)->func_id, 2);
  assert_int_equal(find_task(c, 4294967296ULL, 3)->func_id, 3);
  sl_capture_free(c);
  sl_deps_free(d);
}

/* func_id resolution without a member column: an AIC core takes kernel_ids[0]; an AIV
** core the first AIV kernel there is, kernel_ids[1], else kernel_ids[2]. */
static void test_func_ids_second_aiv(void **state) {
  (void)state;
  static const char cap[] =
      "{\"chip_swimlane_level\": 1, \"metadata\": {\"clock_freq_hz\": 1000000, \"num_cores\": 2,"
      " \"core_types\": [\"aic\", \"aiv\"]},"
      " \"aicore_tasks\": [[0, 6, 6, 10, 20, 0], [1, 5, 5, 10, 20, 0], [1, 8, 8, 30, 40, 0]]}";
  static const char deps[] =
      "{\"tasks\": [{\"task_id\": \"5\", \"kernel_ids\": [-1, -1, 7]},"
      " {\"task_id\": \"6\", \"kernel_ids\": [4, -1, 9]},"
      " {\"task_id\": \"8\", \"kernel_ids\": [-1, 6, 8]}], \"edges\": []}";
  sl_capture *c = sl_capture_read_mem("cap.json", cap, strlen(cap), &quiet);
  sl_deps *d = sl_deps_load_mem("deps.json", deps, strlen(deps));
  assert_non_null(c);
  assert_non_null(d);
  sl_capture_resolve_func_ids(c, d);
  assert_int_equal(find_task(c, 6, 0)->func_id, 4);
  assert_int_equal(find_task(c, 5, 1)->func_id, 7);
  assert_int_equal(find_task(c, 8, 1)->func_id, 6);
  sl_capture_free(c);
  sl_deps_free(d);
}

static void test_deps_none_rules(void **state) {
  (void)state;
  /* missing file: everything None, silently */
  err_begin();
  sl_deps *d = sl_deps_load("/nonexistent/deps.json");
  const char *err = err_end();
  assert_non_null(d);
  assert_int_equal(d->status, SL_DEPS_MISSING);
  assert_false(d->has_edges || d->has_kernel_map || d->has_block_map);
  assert_string_equal(err, "");
  assert_false(sl_err_is_set(&d->warning));
  sl_deps_free(d);

  /* invalid JSON: a warning value (the library prints nothing), everything None */
  err_begin();
  d = sl_deps_load_mem("bad.json", "{\"edges\": [", 11);
  err = err_end();
  assert_int_equal(d->status, SL_DEPS_INVALID);
  assert_false(d->has_edges);
  assert_string_equal(err, "");
  assert_string_equal(d->warning.file, "bad.json");
  assert_non_null(strstr(d->warning.msg, "failed to read deps.json: "));
  assert_non_null(strstr(d->warning.msg, d->error));
  sl_deps_free(d);

  /* an unreadable path (a folder): invalid, with the reason */
  d = sl_deps_load("/");
  assert_int_equal(d->status, SL_DEPS_INVALID);
  assert_string_equal(d->warning.msg, "failed to read deps.json: is a directory");
  sl_deps_free(d);

  /* no edges array: edge map None, but the task maps stay */
  const char *j = "{\"tasks\": [{\"task_id\": \"7\", \"kernel_ids\": [1, -1, -1], \"block_num\": \"x\"}], \"edges\": {}}";
  err_begin();
  d = sl_deps_load_mem("noedges.json", j, strlen(j));
  err = err_end();
  assert_false(d->has_edges);
  assert_string_equal(err, "");
  assert_string_equal(d->warning.msg, "has no 'edges' array");
  assert_true(d->has_kernel_map);
  assert_int_equal(sl_deps_block_num(d, 7), 1); /* unparsable block_num -> 1 */
  sl_deps_free(d);

  /* edges: [] is an empty map, not None; ids as strings or numbers; negative wraps; junk skipped */
  j = "{\"edges\": [{\"pred\": \"-1\", \"succ\": 5}, 7, {\"pred\": \"x\", \"succ\": 1}, {\"pred\": 5, \"succ\": 5},"
      "{\"pred\": \"18446744073709551615\", \"succ\": \"5\"}], \"tasks\": [{\"task_id\": 1, \"kernel_ids\": [1, 2]},"
      "{\"task_id\": 2, \"block_num\": 0}, {\"task_id\": 2, \"block_num\": 4}]}";
  d = sl_deps_load_mem("ids.json", j, strlen(j));
  assert_true(d->has_edges);
  assert_int_equal(d->n_edges, 2); /* (2^64-1, 5) once, the self edge 5 -> 5 kept */
  assert_int_equal(d->preds[0], UINT64_MAX);
  assert_int_equal(d->preds[1], 5);
  assert_false(d->has_kernel_map); /* kernel_ids must have exactly 3 entries */
  assert_int_equal(sl_deps_block_num(d, 2), 4); /* later entry wins; 0 clamps to 1 first */
  sl_deps_free(d);
  /* a container among the kernel ids makes the entry invalid, though it counts as one of three */
  j = "{\"edges\": [], \"tasks\": [{\"task_id\": 3, \"kernel_ids\": [[1], 2, 3]}]}";
  d = sl_deps_load_mem("nested.json", j, strlen(j));
  assert_false(d->has_kernel_map);
  assert_null(sl_deps_kernel_ids(d, 3));
  sl_deps_free(d);
  d = sl_deps_load_mem("empty_edges.json", "{\"edges\": []}", 13);
  assert_true(d->has_edges);
  assert_int_equal(d->n_edges, 0);
  assert_false(d->has_block_map);
  sl_deps_free(d);
}

/* ---- name map ---------------------------------------------------------------------------- */

static void test_namemap(void **state) {
  (void)state;
  sl_namemap *m = sl_namemap_load(fixture("anchor-l4/name_map_sample.json"));
  assert_non_null(m);
  assert_string_equal(m->orchestrator_name, "SampleOrch");
  assert_int_equal(m->level, 2);
  assert_int_equal(m->n, 3);
  assert_string_equal(sl_namemap_lookup(m, 0), "QK");
  assert_string_equal(sl_namemap_lookup(m, 2), "PV");
  assert_null(sl_namemap_lookup(m, 3));
  assert_null(sl_namemap_lookup(m, -1));
  sl_namemap_free(m);

  /* a repeated id keeps its first position and takes the last name (a Python dict) */
  const char *dup = "{\"callable_id_to_name\": {\"2\": \"a\", \"1\": \"b\", \"2\": \"c\"}}";
  m = sl_namemap_load_mem("dup.json", dup, strlen(dup));
  assert_non_null(m);
  assert_int_equal(m->n, 2);
  assert_string_equal(m->keys[0], "2");
  assert_string_equal(m->names[0], "c");
  assert_string_equal(sl_namemap_lookup(m, 2), "c");
  assert_string_equal(sl_namemap_lookup(m, 1), "b");
  sl_namemap_free(m);

  err_begin();
  m = sl_namemap_load("/nonexistent/name_map_x.json");
  const char *err = err_end();
  assert_null(m);
  assert_non_null(strstr(err, "/nonexistent/name_map_x.json: Func names JSON not found"));

  err_begin();
  m = sl_namemap_load_mem("nm.json", "{\"callable_id_to_name\": {\"1\": 5}}", 33);
  err = err_end();
  assert_null(m);
  assert_non_null(strstr(err, "nm.json: $.callable_id_to_name.1: expected a string name"));
  err_begin();
  m = sl_namemap_load_mem("nm.json", "{\"callable_id_to_name\": {", 25);
  err = err_end();
  assert_null(m);
  assert_non_null(strstr(err, "nm.json: $: truncated JSON"));
  /* the library form keeps the error and prints nothing */
  sl_err e = SL_ERR_INIT;
  err_begin();
  m = sl_namemap_open_mem("nm.json", "{\"callable_id_to_name\": {\"1\": 5}}", 33, &e);
  err = err_end();
  assert_null(m);
  assert_string_equal(err, "");
  assert_string_equal(e.file, "nm.json");
  assert_string_equal(e.msg, "$.callable_id_to_name.1: expected a string name");
  sl_err_clear(&e);
  assert_null(sl_namemap_open("/nonexistent/name_map_x.json", &e));
  assert_string_equal(e.msg, "Func names JSON not found");
  sl_err_clear(&e);
}

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static void test_namemap_discovery(void **state) {
  (void)state;
  char dir[] = "/tmp/sl_nm_XXXXXX";
  assert_non_null(mkdtemp(dir));
  char rec[256], a[256], b[256];
  snprintf(rec, sizeof rec, "%s/chip_swimlane_records.json", dir);
  snprintf(a, sizeof a, "%s/name_map_a.json", dir);
  snprintf(b, sizeof b, "%s/name_map_b.json", dir);
  char *out = NULL;
  assert_int_equal(sl_namemap_discover(rec, &out, NULL), 0);
  assert_null(out);
  write_file(a, "{}");
  assert_int_equal(sl_namemap_discover(rec, &out, NULL), 1);
  assert_string_equal(out, a);
  sl_mem_free(out);
  write_file(b, "{}");
  sl_err many = SL_ERR_INIT;
  err_begin();
  assert_int_equal(sl_namemap_discover(rec, &out, &many), 0);
  const char *err = err_end();
  assert_null(out);
  assert_string_equal(err, ""); /* kept on the warning, for the command to print */
  assert_non_null(many.msg);
  assert_non_null(strstr(many.msg, "multiple sibling name maps found next to"));
  assert_non_null(strstr(many.msg, "name_map_a.json, name_map_b.json; pass --func-names explicitly."));
  sl_err_clear(&many);
  unlink(a);
  unlink(b);
  rmdir(dir);
}

static void test_find_latest(void **state) {
  (void)state;
  char dir[] = "/tmp/sl_out_XXXXXX";
  assert_non_null(mkdtemp(dir));
  assert_null(sl_find_latest_records(dir));
  char p[512];
  snprintf(p, sizeof p, "%s/outputs", dir);
  mkdir(p, 0700);
  snprintf(p, sizeof p, "%s/outputs/a", dir);
  mkdir(p, 0700);
  snprintf(p, sizeof p, "%s/outputs/b", dir);
  mkdir(p, 0700);
  char fa[512], fb[512];
  snprintf(fa, sizeof fa, "%s/outputs/a/chip_swimlane_records.json", dir);
  snprintf(fb, sizeof fb, "%s/outputs/b/chip_swimlane_records.json", dir);
  write_file(fb, "{}");
  write_file(fa, "{}");
  struct timespec ts[2] = {{1000, 0}, {1000, 0}};
  utimensat(AT_FDCWD, fb, ts, 0); /* b is older */
  char *got = sl_find_latest_records(dir);
  assert_non_null(got);
  assert_string_equal(got, fa);
  sl_mem_free(got);
  unlink(fb);
  struct timespec epoch[2] = {{0, 0}, {0, 0}}; /* the only capture, however old, is found */
  utimensat(AT_FDCWD, fa, epoch, 0);
  got = sl_find_latest_records(dir);
  assert_non_null(got);
  assert_string_equal(got, fa);
  sl_mem_free(got);
  unlink(fa);
  snprintf(p, sizeof p, "%s/outputs/a", dir);
  rmdir(p);
  snprintf(p, sizeof p, "%s/outputs/b", dir);
  rmdir(p);
  snprintf(p, sizeof p, "%s/outputs", dir);
  rmdir(p);
  rmdir(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_fixture_joined_values),
    cmocka_unit_test(test_unmatched_per_core),
    cmocka_unit_test(test_error_path_truncated),
    cmocka_unit_test(test_seed_format_same_model),
    cmocka_unit_test(test_64bit_exact),
    cmocka_unit_test(test_level1_fallback),
    cmocka_unit_test(test_legacy_aliases_and_null_task_id),
    cmocka_unit_test(test_phase_presence),
    cmocka_unit_test(test_phase_values_wide),
    cmocka_unit_test(test_lifecycle),
    cmocka_unit_test(test_extras_every_record_kind),
    cmocka_unit_test(test_foreign_row_columns),
    cmocka_unit_test(test_base_from_first_row),
    cmocka_unit_test(test_orch_kind_names),
    cmocka_unit_test(test_host_capture_odd_status),
    cmocka_unit_test(test_warnings_returned),
    cmocka_unit_test(test_read_table),
    cmocka_unit_test(test_bad_inputs),
    cmocka_unit_test(test_missing_file),
    cmocka_unit_test(test_int64_bounds),
      cmocka_unit_test(test_directory_given),
      cmocka_unit_test(test_core_types_without_num_cores),
    cmocka_unit_test(test_every_truncation),
    cmocka_unit_test(test_deps_fixture),
    cmocka_unit_test(test_deps_none_rules),
    cmocka_unit_test(test_func_ids_second_aiv),
    cmocka_unit_test(test_namemap),
    cmocka_unit_test(test_namemap_discovery),
    cmocka_unit_test(test_find_latest),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
