/*
** test_aisched.c — host_build_graph under the A5 AICore Scheduler (sl_rt_aisched.c)
** against a recording devprof (also run under TSan): results exact, every record an
** AICore Scheduler phase, phases on one scheduler never overlap, each StateProbe is
** followed by exactly one Dispatch / Worksteal / Refill of the same task, every
** block published once, each task completed and resolved once, dependency-only tasks
** retired without a dummy phase; one lifecycle record per AICPU thread whose spans
** are ordered start/end pairs, topology on the leader only; unsupported task kinds
** refused with a message.
*/
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "fake_devprof.h"
#include "rt_test_view.h"
#include "sl_phases.h"
#include "sl_runtime.h"

enum { N = 64, FAN = 12 };

static sl_rt_tensor vec(sl_rt_buffer *b) { return rt_test_view(b, 4, N / 4, N / 4, 0); }

static sl_rt_submit add_task(sl_rt_tensor *args, int blocks) {
  static const sl_arg_dir dirs[3] = {SL_ARG_IN, SL_ARG_IN, SL_ARG_OUT};
  sl_rt_submit s;
  memset(&s, 0, sizeof s);
  s.kernel_ids[0] = s.kernel_ids[2] = -1;
  s.kernel_ids[1] = 0;
  s.fns[1] = sl_kernel_find("add");
  s.tensors = args;
  s.dirs = dirs;
  s.ntensors = 3;
  s.block_num = blocks;
  s.predicate = 1;
  return s;
}

typedef struct fan {
  sl_rt_buffer *one, *x[FAN], *y;
  int sync_start; /* submit one sync-start task too (refused) */
  uint64_t ids[FAN + 2];
} fan;

/* FAN independent x[k] = one + one (SPMD 2 blocks for odd k), an explicit dummy after
** all of them, and y = x[0] + x[1] after the dummy. */
static int fan_orch(void *p, sl_rt *rt) {
  fan *f = p;
  f->one = sl_rt_buffer_new(rt, N * 4);
  f->y = sl_rt_buffer_new(rt, N * 4);
  for (int i = 0; i < N; i++) ((float *)f->one->data)[i] = 1.0f;
  for (int k = 0; k < FAN; k++) {
    f->x[k] = sl_rt_buffer_new(rt, N * 4);
    sl_rt_tensor a[3] = {vec(f->one), vec(f->one), vec(f->x[k])};
    sl_rt_submit s = add_task(a, k % 2 ? 2 : 1);
    s.sync_start = f->sync_start && k == 0;
    if ((f->ids[k] = sl_rt_submit_task(rt, &s)) == UINT64_MAX) return -1;
  }
  sl_rt_submit d; /* a dummy: no kernel, explicit dependencies only */
  memset(&d, 0, sizeof d);
  d.kernel_ids[0] = d.kernel_ids[1] = d.kernel_ids[2] = -1;
  d.block_num = 1;
  d.predicate = 1;
  d.explicit_deps = f->ids;
  d.ndeps = FAN;
  if ((f->ids[FAN] = sl_rt_submit_task(rt, &d)) == UINT64_MAX) return -1;
  sl_rt_tensor b[3] = {vec(f->x[0]), vec(f->x[1]), vec(f->y)};
  sl_rt_submit s = add_task(b, 1);
  s.explicit_deps = &f->ids[FAN];
  s.ndeps = 1;
  return (f->ids[FAN + 1] = sl_rt_submit_task(rt, &s)) == UINT64_MAX ? -1 : 0;
}

static sl_rt *run_fan(sl_devprof *dp, unsigned level, fan *f, int *rc) {
  sl_rt_config cfg = {1000000000, 2, 4, 2, level, dp, 0, 1, 0, SL_RT_HBG, 0, NULL, 0};
  sl_rt *rt = sl_rt_create(&cfg);
  assert_non_null(rt);
  sl_rt_use_aicore_scheduler(rt);
  *rc = sl_rt_run(rt, fan_orch, f);
  return rt;
}

static int is_publication(uint32_t k) {
  return k == SL_PHASE_DISPATCH || k == SL_PHASE_WORKSTEAL || k == SL_PHASE_REFILL;
}

static uint64_t task_of(const fake_phase *p) { return ((uint64_t)p->b << 32) | p->a; }

/* One scheduler's records, in emission order: bootstrap first (loop_iter 0), then
** non-overlapping phases; StateProbe -> one publication of the same task. Counts
** publications, completions and resolves per task index into the arrays. */
static void check_stream(sl_devprof *dp, int th, const fan *f, int *pubs, int *completes, int *resolves) {
  const fake_phase *prev = NULL;
  int n = 0;
  for (int i = 0; i < fake_nphases(dp); i++) {
    const fake_phase *p = fake_phase_at(dp, i);
    if (p->thread != th) continue;
    assert_true(p->start <= p->end);
    if (n++ == 0) {
      assert_int_equal(p->kind, SL_PHASE_BOOTSTRAP);
      assert_int_equal(p->loop_iter, 0);
    } else {
      assert_true(p->start >= prev->end); /* mutually time-exclusive */
      assert_true(p->kind != SL_PHASE_BOOTSTRAP);
    }
    int k = -1;
    for (int j = 0; j < FAN + 2; j++)
      if (f->ids[j] == task_of(p)) k = j;
    if (p->kind == SL_PHASE_STATE_PROBE) assert_true(k >= 0);
    if (is_publication(p->kind)) {
      assert_non_null(prev);
      assert_int_equal(prev->kind, SL_PHASE_STATE_PROBE);
      assert_true(task_of(prev) == task_of(p));
      pubs[k]++;
    }
    if (prev && prev->kind == SL_PHASE_STATE_PROBE) assert_true(is_publication(p->kind));
    if (p->kind == SL_PHASE_COMPLETE) completes[k]++;
    if (p->kind == SL_PHASE_RESOLVE) resolves[k]++;
    assert_true(p->kind == SL_PHASE_BOOTSTRAP || p->kind == SL_PHASE_STATE_PROBE || is_publication(p->kind) ||
                p->kind == SL_PHASE_COMPLETE || p->kind == SL_PHASE_RESOLVE);
    prev = p;
  }
  assert_true(n > 0);
}

static void lifecycle_ordered(const sl_aicpu_lifecycle_record *r, int leader) {
  const uint64_t seq[] = {r->handshake_start_cycles, r->handshake_complete_cycles,
                          r->context_publish_start_cycles, r->context_publish_complete_cycles,
                          r->bootstrap_wait_start_cycles, r->bootstrap_complete_cycles,
                          r->register_release_start_cycles, r->register_release_end_cycles,
                          r->exit_signal_start_cycles, r->exit_signal_end_cycles,
                          r->exit_wait_start_cycles, r->exit_wait_end_cycles};
  for (unsigned i = 0; i < sizeof seq / sizeof seq[0]; i++) {
    assert_true(seq[i] > 0);
    if (i) assert_true(seq[i] >= seq[i - 1]);
  }
  if (leader) {
    assert_true(r->handshake_complete_cycles <= r->config_start_cycles);
    assert_true(r->config_start_cycles <= r->topology_complete_cycles);
    assert_true(r->topology_complete_cycles <= r->context_publish_complete_cycles);
  } else {
    assert_int_equal(r->config_start_cycles, 0); /* leader-only topology */
    assert_int_equal(r->topology_complete_cycles, 0);
  }
}

static void aicore_scheduler_phases_and_lifecycle(void **state) {
  (void)state;
  for (int round = 0; round < 3; round++) {
    sl_devprof *dp = fake_devprof_new(3);
    fan f;
    memset(&f, 0, sizeof f);
    int rc;
    sl_rt *rt = run_fan(dp, 3, &f, &rc);
    assert_int_equal(rc, 0);
    for (int k = 0; k < FAN; k++)
      for (int i = 0; i < N; i++) assert_true(((float *)f.x[k]->data)[i] == 2.0f);
    for (int i = 0; i < N; i++) assert_true(((float *)f.y->data)[i] == 4.0f);
    int pubs[FAN + 2] = {0}, completes[FAN + 2] = {0}, resolves[FAN + 2] = {0};
    for (int th = 0; th < 2; th++) {
      check_stream(dp, th, &f, pubs, completes, resolves);
      int core = fake_sched_core(dp, th); /* an AIV core the scheduler owns */
      assert_true(core >= 2 && core < 6);
      assert_int_equal(fake_core_thread(dp, core), th);
      const sl_aicpu_lifecycle_record *lc = fake_lifecycle(dp, th);
      assert_non_null(lc);
      assert_int_equal(lc->aicpu_thread_id, th);
      lifecycle_ordered(lc, th == 0);
    }
    assert_null(fake_lifecycle(dp, 2)); /* the orchestrator slot has no control plane */
    for (int k = 0; k < FAN + 2; k++) {
      int blocks = k == FAN ? 0 : (k < FAN && k % 2) ? 2 : 1; /* the dummy is never published */
      assert_int_equal(pubs[k], blocks);
      assert_int_equal(completes[k], blocks);
      assert_int_equal(resolves[k], k == FAN ? 0 : 1); /* retired inline inside another's resolve */
    }
    sl_rt_destroy(rt);
    fake_devprof_free(dp);
  }
}

/* Level 2: dispatch / finish stamps and lifecycle records, but no phase records. */
static void level2_has_lifecycle_no_phases(void **state) {
  (void)state;
  sl_devprof *dp = fake_devprof_new(2);
  fan f;
  memset(&f, 0, sizeof f);
  int rc;
  sl_rt *rt = run_fan(dp, 2, &f, &rc);
  assert_int_equal(rc, 0);
  assert_int_equal(fake_nphases(dp), 0);
  assert_non_null(fake_lifecycle(dp, 0));
  assert_non_null(fake_lifecycle(dp, 1));
  int stamped = 0;
  for (int i = 0; i < fake_ntasks(dp); i++) stamped += fake_task(dp, i)->have_complete;
  assert_int_equal(stamped, FAN + FAN / 2 + 1); /* every block of every kernel task */
  sl_rt_destroy(rt);
  fake_devprof_free(dp);
}

static void sync_start_is_refused(void **state) {
  (void)state;
  sl_devprof *dp = fake_devprof_new(3);
  fan f;
  memset(&f, 0, sizeof f);
  f.sync_start = 1;
  int rc;
  sl_rt *rt = run_fan(dp, 3, &f, &rc);
  assert_true(rc != 0);
  assert_non_null(strstr(sl_rt_last_error(rt), "sync-start"));
  sl_rt_destroy(rt);
  fake_devprof_free(dp);
}

/* Under the virtual clock the AICore Scheduler would wait forever for a turn it never
** takes: the run is refused up front, with what to do instead, and nothing runs. */
static void virtual_clock_is_refused(void **state) {
  (void)state;
  static const sl_vclock_model m = {2, 1, 3, 5, 2, 2, 20, 50, 1, 64};
  sl_rt_config cfg = {1000000000, 2, 4, 2, 0, NULL, 0, 0, 0, SL_RT_HBG, 0, &m, 0};
  sl_rt *rt = sl_rt_create(&cfg);
  assert_non_null(rt);
  sl_rt_use_aicore_scheduler(rt);
  fan f;
  memset(&f, 0, sizeof f);
  assert_int_equal(sl_rt_run(rt, fan_orch, &f), -1);
  assert_non_null(strstr(sl_rt_last_error(rt), "--clock wall"));
  assert_int_equal(sl_rt_get_stats(rt).tasks, 0);
  sl_rt_destroy(rt);
}

/* ---- an interruption while a kernel runs ------------------------------------------------ */

static atomic_int g_held_started, g_held_release;

/* A kernel that holds its core until the test lets it go. */
static void held_kernel(int64_t *args) {
  (void)args;
  atomic_store(&g_held_started, 1);
  while (!atomic_load(&g_held_release)) sched_yield();
}

static int held_orch(void *p, sl_rt *rt) {
  sl_rt_buffer **out = p;
  *out = sl_rt_buffer_new(rt, N * 4);
  sl_rt_tensor a[3] = {vec(*out), vec(*out), vec(*out)};
  sl_rt_submit s = add_task(a, 1);
  s.fns[1] = held_kernel;
  return sl_rt_submit_task(rt, &s) == UINT64_MAX ? -1 : 0;
}

typedef struct interrupter {
  pthread_t thread;
  sl_rt *rt;
} interrupter;

/* Interrupt once the kernel runs, give the schedulers time to notice (well beyond their
** park timeout), then let the kernel end. */
static void *interrupt_while_held(void *p) {
  interrupter *in = p;
  while (!atomic_load(&g_held_started)) sched_yield();
  sl_rt_interrupt(in->rt);
  struct timespec pause = {0, 50 * 1000 * 1000};
  nanosleep(&pause, NULL);
  atomic_store(&g_held_release, 1);
  return NULL;
}

/* An interrupted run stops dispatching, but a scheduler leaves only once its cores are
** idle: the kernel that was running is still completed (and its completion stamped). */
static void interrupted_run_completes_running_kernels(void **state) {
  (void)state;
  atomic_store(&g_held_started, 0);
  atomic_store(&g_held_release, 0);
  sl_devprof *dp = fake_devprof_new(3);
  sl_rt_config cfg = {.clock_freq_hz = 1000000000, .num_aic = 2, .num_aiv = 4, .num_sched = 2, .level = 3,
                      .dp = dp, .runtime = SL_RT_HBG};
  sl_rt *rt = sl_rt_create(&cfg);
  assert_non_null(rt);
  sl_rt_use_aicore_scheduler(rt);
  interrupter in = {.rt = rt};
  assert_int_equal(pthread_create(&in.thread, NULL, interrupt_while_held, &in), 0);
  sl_rt_buffer *out = NULL;
  (void)sl_rt_run(rt, held_orch, &out);
  pthread_join(in.thread, NULL);
  assert_true(sl_rt_interrupted(rt));
  sl_rt_stats st = sl_rt_get_stats(rt);
  assert_int_equal(st.dispatches, 1);
  assert_int_equal(st.completed, 1);
  int stamped = 0;
  for (int i = 0; i < fake_ntasks(dp); i++) stamped += fake_task(dp, i)->have_complete;
  assert_int_equal(stamped, 1);
  sl_rt_destroy(rt);
  fake_devprof_free(dp);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(aicore_scheduler_phases_and_lifecycle),
      cmocka_unit_test(level2_has_lifecycle_no_phases),
      cmocka_unit_test(sync_start_is_refused),
      cmocka_unit_test(virtual_clock_is_refused),
      cmocka_unit_test(interrupted_run_completes_running_kernels),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
