/*
** test_prof_reconcile.c — the loss accounting on deterministic single-thread
** runs (host threads never started: stop() drains on the caller): exact drop
** counts when pools and queues are too small, a missing flush reported as
** unflushed, level 0 allocating nothing, and configuration errors.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "prof_harness.h"
#include "sl_collector.h"
#include "sl_devprof_region.h"
#include "sl_platforms.h"

static sl_collector_config small(unsigned level) {
  static const unsigned char types[1] = {SL_CORE_AIC};
  sl_collector_config cfg;
  sl_collector_config_init(&cfg, sl_platform_by_name("a2a3sim"));
  cfg.level = level;
  cfg.num_cores = 1;
  cfg.core_types = types;
  cfg.num_aicpu_threads = 2;
  cfg.sizes.prof_buffer_size = 2;
  cfg.sizes.aicore_buffer_size = 2;
  cfg.sizes.phase_records = 2;
  cfg.sizes.slot_count = 1;
  cfg.sizes.prof_buffers_per_core = 1;
  cfg.sizes.aicore_buffers_per_core = 1;
  cfg.sizes.sched_buffers_per_thread = 1;
  cfg.sizes.orch_buffers_per_thread = 1;
  cfg.sizes.readyqueue_size = 2; /* one usable entry */
  cfg.fixed_buffers = 1;
  return cfg;
}

static void task(sl_devprof *dp, uint32_t token, sl_aicore_cursor *cur) {
  sl_devprof_on_dispatch(dp, 0, 0, token);
  sl_aicore_task_record *r = sl_devprof_aicore_reserve(dp, 0, cur);
  sl_devprof_on_ack(dp, 0, 0, token);
  sl_devprof_aicore_commit(r, token * 10ull, token * 10ull + 1, token, token, 0);
  sl_devprof_complete_task(dp, 0, 0, token, token * 10ull - 2, token * 10ull + 3);
}

static void exact_drop_counts(void **state) {
  (void)state;
  sl_collector_config cfg = small(2);
  sl_collector *c = sl_collector_create(&cfg);
  assert_non_null(c);
  sl_devprof *dp = sl_collector_device(c);
  sl_aicore_cursor cur;
  sl_aicore_cursor_init(&cur);
  for (uint32_t t = 1; t <= 5; t++) task(dp, t, &cur);
  int cores[] = {0};
  sl_devprof_flush_scheduler(dp, 0, cores, 1);
  assert_int_equal(sl_collector_stop(c), 0);
  assert_int_equal(sl_collector_reconcile(c), 0);
  /* AICPU task: buffer A (tasks 1-2) published and fills the one ready slot;
  ** no buffer is left, so tasks 3-5 drop. */
  sl_pool_account a = sl_collector_account(c, SL_BUF_AICPU_TASK);
  assert_int_equal(a.total, 5);
  assert_int_equal(a.collected, 2);
  assert_int_equal(a.dropped, 3);
  /* AICore: the rotation at task 3 finds no buffer (3-5 drop, counted at
  ** dispatch) and the stashed buffer never finds ready-queue room (2 more). */
  a = sl_collector_account(c, SL_BUF_AICORE_TASK);
  assert_int_equal(a.total, 5);
  assert_int_equal(a.collected, 0);
  assert_int_equal(a.dropped, 5);
  a = sl_collector_account(c, SL_BUF_SCHED_PHASE);
  assert_int_equal(a.total, 0);
  sl_collector_destroy(c);
}

static void missing_flush_is_reported(void **state) {
  (void)state;
  sl_collector_config cfg = small(2);
  sl_collector *c = sl_collector_create(&cfg);
  assert_non_null(c);
  sl_devprof_complete_task(sl_collector_device(c), 0, 0, 1, 5, 6); /* never flushed */
  assert_int_equal(sl_collector_reconcile(c), 1);
  sl_pool_account a = sl_collector_account(c, SL_BUF_AICPU_TASK);
  assert_int_equal(a.total, 1);
  assert_int_equal(a.collected, 0);
  assert_int_equal(a.dropped, 0);
  assert_int_equal(a.unflushed, 1);
  sl_collector_destroy(c);
}

static void malformed_ready_entries_unbalance(void **state) {
  (void)state;
  sl_collector_config cfg = small(2);
  cfg.sizes.readyqueue_size = 8;
  sl_collector *c = sl_collector_create(&cfg);
  assert_non_null(c);
  sl_devprof *dp = sl_collector_device(c);
  sl_ready_ring ring = sl_devprof_ring(dp, 0);
  assert_int_equal(sl_rq_push(&ring, 9, 0, 0x1000, 0), 0);  /* unknown kind */
  assert_int_equal(sl_rq_push(&ring, SL_BUF_AICPU_TASK, 5, 0x1000, 0), 0); /* no such core */
  assert_int_equal(sl_rq_push(&ring, SL_BUF_AICPU_TASK, 0, 0, 0), 0);      /* no buffer */
  assert_int_equal(sl_collector_stop(c), 0);
  assert_int_equal(sl_collector_reconcile(c), 1); /* reported, never dereferenced */
  sl_collector_destroy(c);
}

static void level0_allocates_nothing(void **state) {
  (void)state;
  sl_collector_config cfg = small(0);
  sl_collector *c = sl_collector_create(&cfg);
  assert_non_null(c);
  assert_null(sl_collector_device(c));
  assert_int_equal(sl_collector_level(c), 0);
  assert_int_equal(sl_collector_start(c, NULL), SL_OK);
  assert_int_equal(sl_collector_stop(c), 0);
  assert_int_equal(sl_collector_reconcile(c), 0);
  char dir[] = "/tmp/sl_prof_l0_XXXXXX";
  assert_non_null(mkdtemp(dir));
  char sub[256];
  snprintf(sub, sizeof sub, "%s/out", dir);
  assert_int_equal(sl_collector_finish(c, sub), 0);
  assert_int_not_equal(access(sub, F_OK), 0); /* nothing written, not even the dir */
  rmdir(dir);
  sl_collector_destroy(c);
  sl_collector_destroy(NULL);
}

static void bad_configurations_are_refused(void **state) {
  (void)state;
  sl_collector_config cfg = small(5);
  assert_null(sl_collector_create(&cfg));
  cfg = small(2);
  cfg.num_cores = 0;
  assert_null(sl_collector_create(&cfg));
  cfg = small(2);
  cfg.num_cores = 73; /* a2a3 has 72 */
  cfg.core_types = NULL;
  assert_null(sl_collector_create(&cfg));
  cfg = small(2);
  cfg.sizes.slot_count = 5; /* the free queue has 4 slots */
  assert_null(sl_collector_create(&cfg));
  cfg = small(2);
  static const unsigned char bad_type[1] = {7};
  cfg.core_types = bad_type;
  assert_null(sl_collector_create(&cfg));
  cfg = small(2);
  cfg.backpressure = 1; /* one AICore buffer cannot rotate under back-pressure */
  assert_null(sl_collector_create(&cfg));
  cfg = small(2);
  cfg.platform = NULL;
  assert_null(sl_collector_create(&cfg));
  assert_null(sl_collector_create(NULL));
  /* a capture needs somewhere to go */
  cfg = small(2);
  sl_collector *c = sl_collector_create(&cfg);
  assert_non_null(c);
  assert_int_equal(sl_collector_finish(c, NULL), -1);
  sl_collector_destroy(c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(exact_drop_counts),
      cmocka_unit_test(missing_flush_is_reported),
      cmocka_unit_test(malformed_ready_entries_unbalance),
      cmocka_unit_test(level0_allocates_nothing),
      cmocka_unit_test(bad_configurations_are_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
