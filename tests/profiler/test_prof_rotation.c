/*
** test_prof_rotation.c — the device hooks driven step by step on one thread
** against a hand-seeded region: AICore generation hand-off (stash until the
** core acknowledges the boundary dispatch), a commit landing in the buffer it
** reserved even after a rotation, buffer-less generations counted as drops,
** AICPU full-buffer switch and overwrite mode, lazy phase rotation, flush,
** and level gating of every hook.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sl_devprof_region.h"
#include "sl_phases.h"

typedef struct fixture {
  sl_devprof *dp;
  void *bufs[32];
  int nbufs;
} fixture;

static fixture fx;

static sl_devprof *make(unsigned level, unsigned recs, unsigned rq_size) {
  sl_devprof_geometry g;
  memset(&g, 0, sizeof g);
  g.level = level;
  g.num_cores = 2;
  g.num_threads = 2; /* thread 0 schedules, thread 1 orchestrates */
  for (unsigned k = 0; k < SL_BUF_KIND_COUNT; k++) g.records[k] = recs;
  g.slot_count = 2;
  g.readyqueue_size = rq_size;
  fx.dp = sl_devprof_create(&g, NULL, 0);
  assert_non_null(fx.dp);
  return fx.dp;
}

static void *seed(unsigned kind, int index) {
  sl_devprof *dp = fx.dp;
  void *b = aligned_alloc(64, dp->buffer_bytes[kind]);
  assert_non_null(b);
  memset(b, 0, dp->buffer_bytes[kind]);
  sl_devprof_prepare_buffer(dp, kind, b);
  fx.bufs[fx.nbufs++] = b;
  assert_int_equal(sl_fq_push(&dp->pools[kind][index].free_queue, dp->g.slot_count, (uint64_t)(uintptr_t)b), 0);
  return b;
}

static int teardown(void **state) {
  (void)state;
  for (int i = 0; i < fx.nbufs; i++) free(fx.bufs[i]);
  sl_devprof_destroy(fx.dp);
  memset(&fx, 0, sizeof fx);
  return 0;
}

static const sl_active_head *head(unsigned kind, int index) { return &fx.dp->pools[kind][index].head; }

static int pop(int q, sl_ready_entry *e) {
  sl_ready_ring r = sl_devprof_ring(fx.dp, q);
  return sl_rq_pop(&r, e);
}

static uint32_t count_of(unsigned kind, void *buf) { return *sl_devprof_buffer_count(fx.dp, kind, buf); }

/* One AICore task: dispatch, reserve, commit (values derived from the token). */
static void run_task(int core, uint32_t token, sl_aicore_cursor *cur) {
  sl_devprof_on_dispatch(fx.dp, core, 0, token);
  sl_aicore_task_record *r = sl_devprof_aicore_reserve(fx.dp, core, cur);
  sl_devprof_on_ack(fx.dp, core, 0, token);
  sl_devprof_aicore_commit(r, 100ull * token, 100ull * token + 50, (1ull << 32) | token, token, 7);
}

static void aicore_generation_handoff(void **state) {
  (void)state;
  make(1, 2, 8);
  void *a = seed(SL_BUF_AICORE_TASK, 0);
  void *b = seed(SL_BUF_AICORE_TASK, 0);
  sl_aicore_cursor cur;
  sl_aicore_cursor_init(&cur);
  sl_ready_entry e;

  run_task(0, 1, &cur);
  /* task 2: reserve in A, then the AICPU rotates before the commit lands */
  sl_devprof_on_dispatch(fx.dp, 0, 0, 2);
  sl_aicore_task_record *r2 = sl_devprof_aicore_reserve(fx.dp, 0, &cur);
  assert_ptr_equal(r2, (sl_aicore_task_record *)a + 1);
  sl_devprof_on_dispatch(fx.dp, 0, 0, 3); /* boundary: A is stashed, B installed */
  assert_int_equal(pop(0, &e), 0);          /* not published before the core moves on */
  sl_devprof_aicore_commit(r2, 200, 250, (1ull << 32) | 2, 2, 7);
  sl_aicore_task_record *r3 = sl_devprof_aicore_reserve(fx.dp, 0, &cur);
  assert_ptr_equal(r3, (sl_aicore_task_record *)b); /* next reserve follows the new generation */
  assert_int_equal(((sl_aicore_task_record *)b)[0].reg_task_id, SL_AICORE_UNCOMMITTED);
  assert_int_equal(pop(0, &e), 0);
  sl_devprof_on_ack(fx.dp, 0, 0, 3); /* the core acknowledged the boundary dispatch */
  assert_int_equal(pop(0, &e), 1);
  assert_int_equal(e.kind, SL_BUF_AICORE_TASK);
  assert_int_equal(e.core_index, 0);
  assert_ptr_equal((void *)(uintptr_t)e.buffer_ptr, a);
  assert_int_equal(count_of(SL_BUF_AICORE_TASK, a), 2);
  const sl_aicore_task_record *ra = a;
  assert_int_equal(ra[0].reg_task_id, 1);
  assert_int_equal(ra[0].start_time, 100);
  assert_int_equal(ra[1].reg_task_id, 2);
  assert_int_equal(ra[1].start_time, 200);
  assert_int_equal(ra[1].end_time, 250);
  assert_int_equal(ra[1].task_token_raw, (1ull << 32) | 2);
  assert_int_equal(ra[1].receive_to_start_cycles, 7);
  sl_devprof_aicore_commit(r3, 300, 350, 3, 3, 1);
  int cores[] = {0};
  sl_devprof_flush_scheduler(fx.dp, 0, cores, 1);
  assert_int_equal(pop(0, &e), 1);
  assert_ptr_equal((void *)(uintptr_t)e.buffer_ptr, b);
  assert_true(e.buffer_seq > 1);
  assert_int_equal(count_of(SL_BUF_AICORE_TASK, b), 1);
  assert_int_equal(head(SL_BUF_AICORE_TASK, 0)->total_record_count, 3);
  assert_int_equal(head(SL_BUF_AICORE_TASK, 0)->dropped_record_count, 0);
  assert_int_equal(sl_devprof_unflushed(fx.dp, SL_BUF_AICORE_TASK, 0), 0);
}

static void aicore_without_buffer_counts_drops(void **state) {
  (void)state;
  make(1, 2, 8);
  void *a = seed(SL_BUF_AICORE_TASK, 1);
  sl_aicore_cursor cur;
  sl_aicore_cursor_init(&cur);
  sl_ready_entry e;
  run_task(1, 1, &cur);
  run_task(1, 2, &cur);
  sl_devprof_on_dispatch(fx.dp, 1, 0, 3); /* rotation finds no free buffer */
  assert_null(sl_devprof_aicore_reserve(fx.dp, 1, &cur));
  sl_devprof_on_ack(fx.dp, 1, 0, 3);
  assert_int_equal(pop(0, &e), 1); /* A still goes out */
  assert_ptr_equal((void *)(uintptr_t)e.buffer_ptr, a);
  sl_devprof_on_dispatch(fx.dp, 1, 0, 4);
  assert_null(sl_devprof_aicore_reserve(fx.dp, 1, &cur));
  assert_int_equal(head(SL_BUF_AICORE_TASK, 1)->dropped_record_count, 2);
  /* the host recycles A: the next dispatch starts a new generation with it */
  sl_devprof_prepare_buffer(fx.dp, SL_BUF_AICORE_TASK, a);
  assert_int_equal(sl_fq_push(&fx.dp->pools[SL_BUF_AICORE_TASK][1].free_queue, 2, (uint64_t)(uintptr_t)a), 0);
  run_task(1, 5, &cur);
  assert_int_equal(((sl_aicore_task_record *)a)[0].reg_task_id, 5);
  int cores[] = {1};
  sl_devprof_flush_scheduler(fx.dp, 0, cores, 1);
  assert_int_equal(pop(0, &e), 1);
  assert_int_equal(count_of(SL_BUF_AICORE_TASK, a), 1);
  assert_int_equal(head(SL_BUF_AICORE_TASK, 1)->total_record_count, 5);
  assert_int_equal(head(SL_BUF_AICORE_TASK, 1)->dropped_record_count, 2); /* 2 + 1 + 2 = 5 */
}

static void aicpu_switch_when_full_and_overwrite(void **state) {
  (void)state;
  make(2, 2, 2); /* ready queue: one usable entry */
  void *a = seed(SL_BUF_AICPU_TASK, 0);
  void *b = seed(SL_BUF_AICPU_TASK, 0);
  sl_ready_entry e;
  sl_devprof_complete_task(fx.dp, 0, 0, 1, 10, 20);
  assert_int_equal(pop(0, &e), 0);
  sl_devprof_complete_task(fx.dp, 0, 0, 2, 30, 40); /* A full: published, B popped */
  assert_ptr_equal((void *)(uintptr_t)head(SL_BUF_AICPU_TASK, 0)->current_buf_ptr, b);
  sl_devprof_complete_task(fx.dp, 0, 0, 3, 50, 60);
  sl_devprof_complete_task(fx.dp, 0, 0, 4, 70, 80); /* B full, ready queue full: overwrite */
  assert_int_equal(head(SL_BUF_AICPU_TASK, 0)->dropped_record_count, 2);
  assert_int_equal(count_of(SL_BUF_AICPU_TASK, b), 0);
  sl_devprof_complete_task(fx.dp, 0, 0, 5, 90, 100);
  assert_int_equal(((sl_aicpu_task_record *)b)[0].reg_task_id, 5);
  assert_int_equal(pop(0, &e), 1); /* the host takes A */
  assert_ptr_equal((void *)(uintptr_t)e.buffer_ptr, a);
  assert_int_equal(e.kind, SL_BUF_AICPU_TASK);
  assert_int_equal(e.buffer_seq, 0);
  assert_int_equal(count_of(SL_BUF_AICPU_TASK, a), 2);
  const sl_aicpu_task_record *ra = a;
  assert_int_equal(ra[1].dispatch_time, 30);
  assert_int_equal(ra[1].finish_time, 40);
  assert_int_equal(ra[1].reg_task_id, 2);
  int cores[] = {0};
  sl_devprof_flush_scheduler(fx.dp, 0, cores, 1);
  assert_int_equal(pop(0, &e), 1);
  assert_ptr_equal((void *)(uintptr_t)e.buffer_ptr, b);
  assert_int_equal(e.buffer_seq, 1);
  assert_int_equal(count_of(SL_BUF_AICPU_TASK, b), 1);
  assert_int_equal(head(SL_BUF_AICPU_TASK, 0)->total_record_count, 5);
  assert_int_equal(head(SL_BUF_AICPU_TASK, 0)->current_buf_ptr, 0);
  /* nothing left: a record now finds neither buffer nor free entry */
  sl_devprof_complete_task(fx.dp, 0, 0, 6, 1, 2);
  assert_int_equal(head(SL_BUF_AICPU_TASK, 0)->dropped_record_count, 3);
}

static void phase_buffers_rotate_lazily(void **state) {
  (void)state;
  make(4, 2, 8);
  void *a = seed(SL_BUF_SCHED_PHASE, 0);
  void *b = seed(SL_BUF_SCHED_PHASE, 0);
  void *o = seed(SL_BUF_ORCH_PHASE, 0);
  sl_ready_entry e;
  int16_t d0[3] = {1, 2, 3}, d1[3] = {-1, 0, 7};
  sl_devprof_sched_phase(fx.dp, 0, SL_PHASE_DISPATCH, 1, 2, 1, 1, 5, 6, d0, d1);
  sl_devprof_sched_phase(fx.dp, 0, SL_PHASE_COMPLETE, 3, 4, 1, 1, 0, 0, NULL, NULL);
  assert_int_equal(pop(0, &e), 0); /* full, but published only when the next record comes */
  sl_devprof_sched_phase(fx.dp, 0, SL_PHASE_DUMMY_TASK, 5, 5, 2, 1, 9, 1, NULL, NULL);
  assert_int_equal(pop(0, &e), 1);
  assert_ptr_equal((void *)(uintptr_t)e.buffer_ptr, a);
  assert_int_equal(e.kind, SL_BUF_SCHED_PHASE);
  const sl_sched_phase_record *ra = a;
  assert_int_equal(ra[0].kind, SL_PHASE_DISPATCH);
  assert_int_equal(ra[0].phase_data.dispatch.pop_hit, 5);
  assert_int_equal(ra[0].phase_data.dispatch.pop_miss, 6);
  assert_int_equal(ra[0].shared_depth_at_end[0], -1);
  assert_int_equal(ra[0].shared_depth_at_end[2], 7);
  assert_int_equal(ra[1].shared_depth_at_start[1], 0);
  const sl_sched_phase_record *rb = b;
  assert_int_equal(rb[0].phase_data.task.local_id, 9);
  assert_int_equal(rb[0].phase_data.task.ring_id, 1);
  /* the orchestrator's records go out on its own (last) thread's queue */
  sl_devprof_orch_submit(fx.dp, 10, 20, 0x100000002ull, 0);
  sl_devprof_flush_orch(fx.dp);
  assert_int_equal(pop(1, &e), 1);
  assert_int_equal(e.kind, SL_BUF_ORCH_PHASE);
  assert_ptr_equal((void *)(uintptr_t)e.buffer_ptr, o);
  assert_int_equal(((sl_orch_phase_record *)o)[0].task_id, 0x100000002ull);
  sl_devprof_flush_scheduler(fx.dp, 0, NULL, 0);
  assert_int_equal(pop(0, &e), 1);
  assert_ptr_equal((void *)(uintptr_t)e.buffer_ptr, b);
  assert_int_equal(count_of(SL_BUF_SCHED_PHASE, b), 1);
  assert_int_equal(head(SL_BUF_SCHED_PHASE, 0)->total_record_count, 3);
  assert_int_equal(head(SL_BUF_ORCH_PHASE, 0)->total_record_count, 1);
  /* the orchestrator thread has no sched pool: its phase calls are not counted */
  sl_devprof_sched_phase(fx.dp, 1, SL_PHASE_DISPATCH, 1, 2, 1, 1, 0, 0, NULL, NULL);
  assert_int_equal(head(SL_BUF_SCHED_PHASE, 1)->total_record_count, 0);
}

static void hooks_respect_level(void **state) {
  (void)state;
  /* NULL handle (level 0): every hook is a no-op */
  sl_aicore_cursor cur;
  sl_aicore_cursor_init(&cur);
  sl_devprof_on_dispatch(NULL, 0, 0, 1);
  assert_null(sl_devprof_aicore_reserve(NULL, 0, &cur));
  sl_devprof_aicore_commit(NULL, 1, 2, 3, 4, 5);
  sl_devprof_complete_task(NULL, 0, 0, 1, 1, 1);
  sl_devprof_sched_phase(NULL, 0, 0, 1, 1, 1, 1, 0, 0, NULL, NULL);
  sl_devprof_orch_submit(NULL, 1, 2, 3, 4);
  sl_devprof_flush_scheduler(NULL, 0, NULL, 0);
  sl_devprof_flush_orch(NULL);
  assert_int_equal(sl_devprof_level(NULL), 0);

  make(1, 2, 8);
  sl_devprof_complete_task(fx.dp, 0, 0, 1, 1, 1);
  sl_devprof_sched_phase(fx.dp, 0, 0, 1, 1, 1, 1, 0, 0, NULL, NULL);
  sl_devprof_orch_submit(fx.dp, 1, 2, 3, 4);
  sl_devprof_set_core_thread(fx.dp, 0, 0);
  assert_int_equal(head(SL_BUF_AICPU_TASK, 0)->total_record_count, 0);
  assert_int_equal(head(SL_BUF_SCHED_PHASE, 0)->total_record_count, 0);
  assert_int_equal(head(SL_BUF_ORCH_PHASE, 0)->total_record_count, 0);
  assert_int_equal(fx.dp->core_to_thread[0], -1);
  sl_devprof_on_dispatch(fx.dp, 0, 0, 1); /* AICore counting runs at level 1 */
  assert_int_equal(head(SL_BUF_AICORE_TASK, 0)->total_record_count, 1);
  assert_int_equal(head(SL_BUF_AICORE_TASK, 0)->dropped_record_count, 1); /* no buffer seeded */
  /* out-of-range core / thread never touch memory */
  sl_devprof_on_dispatch(fx.dp, 2, 0, 1);
  sl_devprof_on_dispatch(fx.dp, -1, 0, 1);
  sl_devprof_complete_task(fx.dp, 0, 5, 1, 1, 1);
  assert_int_equal(sl_devprof_level(fx.dp), 1);
}

/* sl_devprof_create accepts a geometry exactly up to each documented bound and refuses
** one past it (the region is sized from these, so an off-by-one is memory, not a message). */
#define FQ_SLOTS ((unsigned)(sizeof(((sl_free_queue *)0)->buffer_ptrs) / sizeof(uint64_t)))

static int accepts(unsigned level, int cores, int threads, unsigned recs, unsigned slots, unsigned rq) {
  sl_devprof_geometry g;
  memset(&g, 0, sizeof g);
  g.level = level;
  g.num_cores = cores;
  g.num_threads = threads;
  for (unsigned k = 0; k < SL_BUF_KIND_COUNT; k++) g.records[k] = recs;
  g.slot_count = slots;
  g.readyqueue_size = rq;
  sl_devprof *dp = sl_devprof_create(&g, NULL, 0);
  sl_devprof_destroy(dp);
  return dp != NULL;
}

static void geometry_bounds(void **state) {
  (void)state;
  assert_true(accepts(1, 1, 1, 1, 1, 2));   /* every lower bound */
  assert_true(accepts(4, 2, 2, 8, 2, 16));
  assert_false(accepts(0, 2, 2, 8, 2, 16)); /* level 1..4 */
  assert_false(accepts(5, 2, 2, 8, 2, 16));
  assert_false(accepts(4, 0, 2, 8, 2, 16)); /* at least one core, one thread, one record */
  assert_false(accepts(4, 2, 0, 8, 2, 16));
  assert_false(accepts(4, 2, 2, 0, 2, 16));
  assert_false(accepts(4, 2, 2, 8, 0, 16)); /* free-queue slots 1..FQ_SLOTS */
  assert_true(accepts(4, 2, 2, 8, FQ_SLOTS, 16));
  assert_false(accepts(4, 2, 2, 8, FQ_SLOTS + 1, 16));
  assert_true(accepts(4, 4096, 2, 8, 2, 16)); /* the upper bounds of cores, threads, records */
  assert_false(accepts(4, 4097, 2, 8, 2, 16));
  assert_true(accepts(4, 2, 127, 8, 2, 16));
  assert_false(accepts(4, 2, 128, 8, 2, 16));
  assert_true(accepts(4, 2, 2, 1u << 24, 2, 16));
  assert_false(accepts(4, 2, 2, (1u << 24) + 1, 2, 16));
  assert_false(accepts(4, 2, 2, 8, 2, 1)); /* a ready queue holds at least 2 */
  /* a refusal names the bound it breaks and the value, for the caller to report */
  sl_devprof_geometry g = {.level = 5, .num_cores = 2, .num_threads = 2, .slot_count = 2, .readyqueue_size = 16};
  for (unsigned k = 0; k < SL_BUF_KIND_COUNT; k++) g.records[k] = 8;
  char why[128] = "";
  assert_null(sl_devprof_create(&g, why, sizeof why));
  assert_string_equal(why, "perf level out of range (0 = disabled has no region) (5)");
  g.level = 4;
  g.num_cores = 0;
  assert_null(sl_devprof_create(&g, why, sizeof why));
  assert_string_equal(why, "bad core count (0)");
  assert_false(accepts(4, 2, 2, 8, 2, 1));  /* a ready queue of at least 2 */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(geometry_bounds),
      cmocka_unit_test_teardown(aicore_generation_handoff, teardown),
      cmocka_unit_test_teardown(aicore_without_buffer_counts_drops, teardown),
      cmocka_unit_test_teardown(aicpu_switch_when_full_and_overwrite, teardown),
      cmocka_unit_test_teardown(phase_buffers_rotate_lazily, teardown),
      cmocka_unit_test_teardown(hooks_respect_level, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
