/*
** test_prof_stress.c — real producer threads (schedulers, AICores, the
** orchestrator) against the real collector threads with tiny pools, so
** buffers rotate hundreds of times, queues fill, back-pressure engages and
** records drop. Every run must account exactly: collected + dropped == total
** for all four pools, totals equal what the producers attempted, and every
** collected record is intact and in order.
*/
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sched.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "prof_harness.h"
#include "sl_collector_internal.h"
#include "sl_phases.h"
#include "sl_platforms.h"

static const uint32_t kinds[] = {SL_PHASE_DISPATCH, SL_PHASE_COMPLETE, SL_PHASE_DUMMY_TASK, SL_PHASE_RESOLVE};


/* Exact accounting + intact, ordered records. Returns total dropped. */
static uint64_t check_capture(sl_collector *c, const harness_cfg *hc, unsigned level) {
  int ncores = hc->sched_threads * hc->cores_per_thread;
  uint64_t tasks = (uint64_t)ncores * (uint64_t)hc->tasks_per_core;
  uint64_t expect[SL_BUF_KIND_COUNT] = {0};
  expect[SL_BUF_AICORE_TASK] = tasks;
  if (level >= 2) expect[SL_BUF_AICPU_TASK] = tasks;
  if (level >= 3)
    expect[SL_BUF_SCHED_PHASE] = (uint64_t)hc->sched_threads * (uint64_t)hc->tasks_per_core * (uint64_t)hc->phases_per_round;
  if (level >= 4) expect[SL_BUF_ORCH_PHASE] = (uint64_t)hc->orch_submits;

  assert_int_equal(sl_collector_reconcile(c), 0);
  uint64_t dropped = 0;
  for (unsigned k = 0; k < SL_BUF_KIND_COUNT; k++) {
    sl_pool_account a = sl_collector_account(c, k);
    assert_int_equal(a.total, expect[k]);
    assert_int_equal(a.collected + a.dropped, a.total);
    assert_int_equal(a.unflushed, 0);
    dropped += a.dropped;
  }
  for (int core = 0; core < ncores; core++) {
    sl_coll_view v = sl_coll_merged(c, SL_BUF_AICORE_TASK, core);
    const sl_aicore_task_record *r = (const void *)v.data;
    uint32_t prev = 0;
    for (size_t i = 0; i < v.n; i++) {
      uint32_t tok = r[i].reg_task_id;
      assert_true(tok > prev && tok <= (uint32_t)hc->tasks_per_core);
      assert_int_equal(r[i].start_time, h_aicore_start(core, tok));
      assert_int_equal(r[i].end_time, h_aicore_start(core, tok) + 5);
      assert_int_equal(r[i].task_token_raw, h_aicore_token_raw(core, tok));
      assert_int_equal(r[i].receive_to_start_cycles, (uint32_t)core);
      prev = tok;
    }
    sl_coll_view_free(&v);
    v = sl_coll_merged(c, SL_BUF_AICPU_TASK, core);
    const sl_aicpu_task_record *q = (const void *)v.data;
    prev = 0;
    for (size_t i = 0; i < v.n; i++) {
      uint32_t tok = q[i].reg_task_id;
      assert_true(tok > prev);
      assert_int_equal(q[i].dispatch_time, h_dispatch(core, tok));
      assert_int_equal(q[i].finish_time, h_dispatch(core, tok) + 9);
      prev = tok;
    }
    sl_coll_view_free(&v);
  }
  for (int t = 0; t < hc->sched_threads; t++) {
    sl_coll_view v = sl_coll_merged(c, SL_BUF_SCHED_PHASE, t);
    const sl_sched_phase_record *r = (const void *)v.data;
    int64_t prev = -1;
    for (size_t i = 0; i < v.n; i++) {
      uint32_t n = (uint32_t)(r[i].start_time & 0xFFFFFFFFu);
      assert_true((int64_t)n > prev);
      assert_int_equal(r[i].start_time, h_phase_start(t, n));
      assert_int_equal(r[i].kind, kinds[n % 4]);
      assert_int_equal(r[i].tasks_processed, n);
      assert_int_equal(r[i].shared_depth_at_end[1], t);
      prev = n;
    }
    sl_coll_view_free(&v);
  }
  sl_coll_view v = sl_coll_merged(c, SL_BUF_ORCH_PHASE, 0);
  const sl_orch_phase_record *o = (const void *)v.data;
  for (size_t i = 0; i < v.n; i++) {
    assert_true(i == 0 || o[i].submit_idx > o[i - 1].submit_idx);
    assert_int_equal(o[i].task_id, h_orch_task(o[i].submit_idx));
    assert_int_equal(o[i].start_time, 1000 + 2ull * o[i].submit_idx);
  }
  sl_coll_view_free(&v);
  return dropped;
}

/* One capture end to end: create the collector, run the producers, stop. */
static sl_collector *capture(const sl_collector_config *cfg, const harness_cfg *hc) {
  sl_collector *c = sl_collector_create(cfg);
  assert_non_null(c);
  assert_int_equal(sl_collector_start(c, NULL), SL_OK);
  harness_run(sl_collector_device(c), hc);
  assert_int_equal(sl_collector_stop(c), 0);
  return c;
}

/* ... and check the accounting and the records (no drops allowed). */
static void run_and_check(const sl_collector_config *cfg, const harness_cfg *hc, unsigned level) {
  sl_collector *c = capture(cfg, hc);
  assert_int_equal(check_capture(c, hc, level), 0);
  sl_collector_destroy(c);
}

static const harness_cfg base = {.sched_threads = 2, .cores_per_thread = 2, .tasks_per_core = 300,
                                 .phases_per_round = 2, .orch_submits = 400, .fin_before_commit = 1};

/* The host threads carry their role and shard in their names (top, perf, /proc). */
static int has_thread_named(const char *want) {
  DIR *d = opendir("/proc/self/task");
  if (!d) return 0;
  int found = 0;
  struct dirent *e;
  while (!found && (e = readdir(d)) != NULL) {
    char path[300], name[32] = "";
    snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
    FILE *f = fopen(path, "r");
    if (!f) continue;
    if (fgets(name, sizeof name, f)) name[strcspn(name, "\n")] = 0;
    fclose(f);
    found = !strcmp(name, want);
  }
  closedir(d);
  return found;
}

static void host_threads_are_named(void **state) {
  (void)state;
  sl_collector_config cfg;
  harness_config(&cfg, &base, 4);
  sl_collector *c = sl_collector_create(&cfg);
  assert_non_null(c);
  assert_int_equal(sl_collector_start(c, NULL), SL_OK);
  /* each thread names itself when it starts running: give them up to 5 s to get there */
  int drain0 = 0, collect0 = 0, repl = 0;
  for (int tries = 0; tries < 500 && !(drain0 && collect0 && repl); tries++) {
    drain0 = drain0 || has_thread_named("sl-drain0");
    collect0 = collect0 || has_thread_named("sl-collect0");
    repl = repl || has_thread_named("sl-replenish");
    if (!(drain0 && collect0 && repl)) nanosleep(&(struct timespec){0, 10000000}, NULL);
  }
  assert_int_equal(sl_collector_stop(c), 0);
  sl_collector_destroy(c);
  assert_true(drain0 && collect0 && repl);
}

/* Slow host, no back-pressure: pools run dry and the ready queues fill. */
static void slow_host_drops_are_accounted(void **state) {
  (void)state;
  sl_collector_config cfg;
  harness_config(&cfg, &base, 4);
  harness_tiny_pools(&cfg);
  cfg.test_collect_delay_us = 30;
  sl_collector *c = capture(&cfg, &base);
  check_capture(c, &base, 4);
  sl_collector_destroy(c);
}

/* The host starts only after the device finished: drops are certain. */
static void absent_host_forces_drops(void **state) {
  (void)state;
  sl_collector_config cfg;
  harness_config(&cfg, &base, 4);
  harness_tiny_pools(&cfg);
  sl_collector *c = sl_collector_create(&cfg);
  assert_non_null(c);
  harness_run(sl_collector_device(c), &base);
  assert_int_equal(sl_collector_stop(c), 0); /* final drain on this thread */
  uint64_t dropped = check_capture(c, &base, 4);
  assert_true(dropped > 0);
  for (unsigned k = 0; k < SL_BUF_KIND_COUNT; k++) assert_true(sl_collector_account(c, k).dropped > 0);
  sl_collector_destroy(c);
}

/* Back-pressure: producers block instead of dropping, whatever the host's pace. */
static void backpressure_loses_nothing(void **state) {
  (void)state;
  sl_collector_config cfg;
  harness_config(&cfg, &base, 4);
  harness_tiny_pools(&cfg);
  cfg.backpressure = 1;
  cfg.test_collect_delay_us = 30;
  sl_collector *c = capture(&cfg, &base);
  assert_int_equal(check_capture(c, &base, 4), 0);
  for (unsigned k = 0; k < SL_BUF_KIND_COUNT; k++) {
    sl_pool_account a = sl_collector_account(c, k);
    assert_int_equal(a.collected, a.total);
  }
  sl_collector_destroy(c);
}

/* One host shard (the default on a 2-CPU host) drains every ready queue and
** loses nothing under back-pressure; the host threads report their cost. */
static void one_shard_host_loses_nothing(void **state) {
  (void)state;
  sl_collector_config cfg;
  harness_config(&cfg, &base, 4);
  harness_tiny_pools(&cfg);
  cfg.host_shards = 1;
  cfg.backpressure = 1;
  sl_collector *c = sl_collector_create(&cfg);
  assert_non_null(c);
  assert_int_equal(c->nshards, 1);
  assert_int_equal(sl_collector_start(c, NULL), SL_OK);
  harness_run(sl_collector_device(c), &base);
  assert_int_equal(sl_collector_stop(c), 0);
  assert_int_equal(check_capture(c, &base, 4), 0);
  for (unsigned k = 0; k < SL_BUF_KIND_COUNT; k++) {
    sl_pool_account a = sl_collector_account(c, k);
    assert_int_equal(a.collected, a.total);
  }
  uint64_t cpu_ns = 0, sleeps = 0;
  sl_collector_host_stats(c, &cpu_ns, &sleeps);
  assert_true(cpu_ns > 0); /* three host threads ran and accounted themselves */
  sl_collector_destroy(c);
}

/* Auto shard count: at least one, at most one per AICPU thread. */
static void auto_shards_are_bounded(void **state) {
  (void)state;
  sl_collector_config cfg;
  harness_config(&cfg, &base, 1);
  cfg.host_shards = 0;
  sl_collector *c = sl_collector_create(&cfg);
  assert_non_null(c);
  assert_true(c->nshards >= 1 && c->nshards <= cfg.num_aicpu_threads);
  sl_collector_destroy(c);
}

/* Commit-then-FIN order, with a single scheduler and buffers that may grow. */
static void growing_pools_commit_before_fin(void **state) {
  (void)state;
  harness_cfg hc = base;
  hc.sched_threads = 1;
  hc.cores_per_thread = 3;
  hc.fin_before_commit = 0;
  sl_collector_config cfg;
  harness_config(&cfg, &hc, 4);
  harness_tiny_pools(&cfg);
  cfg.fixed_buffers = 0;
  cfg.backpressure = 1;
  run_and_check(&cfg, &hc, 4);
}

/* Free queues deeper than a pool's share: no pool may hoard the fixed buffers. */
static void deep_free_queues_do_not_starve(void **state) {
  (void)state;
  sl_collector_config cfg;
  harness_config(&cfg, &base, 4);
  harness_tiny_pools(&cfg);
  cfg.sizes.slot_count = 4; /* more slots than buffers per pool */
  cfg.backpressure = 1;
  run_and_check(&cfg, &base, 4);
}

/* The replenish thread opens a freeze when the device reports contention,
** clears the request, and releases the freeze once it has caught up. */
static void freeze_opens_and_releases(void **state) {
  (void)state;
  sl_collector_config cfg;
  harness_config(&cfg, &base, 4);
  harness_tiny_pools(&cfg);
  cfg.backpressure = 1;
  sl_collector *c = sl_collector_create(&cfg);
  assert_non_null(c);
  sl_devprof *dp = sl_collector_device(c);
  assert_int_equal(sl_collector_start(c, NULL), SL_OK);
  sl_st_rel32(&dp->bp->rq_contended, 1);
  sl_st_rel32(&dp->bp->fq_contended, 1);
  /* bounded wait for the host's answer (a hang fails, nothing is timed) */
  for (long i = 0; i < 2000000 && (sl_ld_acq32(&dp->bp->rq_contended) || sl_ld_acq32(&dp->bp->fq_contended) ||
                                   sl_ld_acq32(&dp->bp->rq_freeze_active) || sl_ld_acq32(&dp->bp->fq_freeze_active));
       i++)
    sched_yield();
  assert_int_equal(sl_ld_acq32(&dp->bp->rq_contended), 0);
  assert_int_equal(sl_ld_acq32(&dp->bp->fq_contended), 0);
  assert_int_equal(sl_ld_acq32(&dp->bp->rq_freeze_active), 0);
  assert_int_equal(sl_ld_acq32(&dp->bp->fq_freeze_active), 0);
  assert_int_equal(atomic_load(&c->freezes), 2); /* each request opened one freeze */
  assert_int_equal(sl_collector_stop(c), 0);
  sl_collector_destroy(c);
}

/* A pool's low-water doorbell: the device takes buffers off a free queue and rings the host
** bell without publishing anything (no ready entry, no recycle, so neither of the other
** refills runs). The drain thread's idle pass must bring the queue back to its limit from
** the recycled lane, which the initial fill leaves holding the pool's spare buffers. */
static void low_water_bell_refills_the_queue(void **state) {
  (void)state;
  static const unsigned char types[1] = {SL_CORE_AIV};
  sl_collector_config cfg;
  sl_collector_config_init(&cfg, sl_platform_by_name("a2a3sim"));
  cfg.level = 2;
  cfg.num_cores = 1;
  cfg.core_types = types;
  cfg.num_aicpu_threads = 2;
  sl_collector *c = sl_collector_create(&cfg);
  assert_non_null(c);
  assert_int_equal(sl_collector_start(c, NULL), SL_OK);
  sl_devprof *dp = sl_collector_device(c);
  sl_free_queue *fq = &dp->pools[SL_BUF_AICPU_TASK][0].free_queue;
  unsigned limit = c->fq_limit[SL_BUF_AICPU_TASK];
  assert_true(sl_fq_depth(fq) >= limit); /* the initial fill */
  uint64_t taken = sl_fq_pop(fq, dp->g.slot_count);
  assert_true(taken != 0);
  sl_bell_ring(&dp->host_bell);
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  do { /* bounded: a host that never answers fails the test instead of hanging it */
    sched_yield();
    clock_gettime(CLOCK_MONOTONIC, &t);
  } while (sl_fq_depth(fq) < limit && t.tv_sec - t0.tv_sec < 20);
  assert_true(sl_fq_depth(fq) >= limit);
  assert_int_equal(sl_collector_stop(c), 0);
  sl_collector_destroy(c);
}

/* Each level collects exactly its record kinds (and no pool is fed below it). */
static void levels_gate_collection(void **state) {
  (void)state;
  harness_cfg hc = base;
  hc.tasks_per_core = 60;
  hc.orch_submits = 50;
  for (unsigned level = 1; level <= 4; level++) {
    sl_collector_config cfg;
    harness_config(&cfg, &hc, level);
    harness_tiny_pools(&cfg);
    cfg.backpressure = 1;
    sl_collector *c = sl_collector_create(&cfg);
    assert_non_null(c);
    assert_int_equal(sl_collector_start(c, NULL), SL_OK);
    harness_run(sl_collector_device(c), &hc);
    assert_int_equal(sl_collector_stop(c), 0);
    assert_int_equal(check_capture(c, &hc, level), 0);
    sl_collector_destroy(c);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(host_threads_are_named),
      cmocka_unit_test(slow_host_drops_are_accounted),
      cmocka_unit_test(absent_host_forces_drops),
      cmocka_unit_test(backpressure_loses_nothing),
      cmocka_unit_test(one_shard_host_loses_nothing),
      cmocka_unit_test(auto_shards_are_bounded),
      cmocka_unit_test(growing_pools_commit_before_fin),
      cmocka_unit_test(deep_free_queues_do_not_starve),
      cmocka_unit_test(freeze_opens_and_releases),
      cmocka_unit_test(low_water_bell_refills_the_queue),
      cmocka_unit_test(levels_gate_collection),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
