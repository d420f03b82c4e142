/*
** test_mechanisms.c — the scheduler's special paths with a recording devprof and
** tiny pools (also run under TSan): sync-start tasks staged on one thread
** (early_dispatch) and spread over every thread (drain, with drain_prepare and
** drain_publish inside it), async waits completed by async_poll only after they
** land, and graph instances expanded by graph_prepare into ring-1 node tasks.
** Results are checked exactly, and so are the records' counts and nesting.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fake_devprof.h"
#include "rt_test_view.h"
#include "sl_phases.h"
#include "sl_runtime.h"

enum { N = 64, ASYNC_US = 500 };

static sl_rt_tensor vec(sl_rt_buffer *b) { return rt_test_view(b, 4, N / 4, N / 4, 0); }

static void fill(sl_rt_buffer *b, float v) {
  for (int i = 0; i < N; i++) ((float *)b->data)[i] = v;
}

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

typedef struct mech { sl_rt_buffer *one, *x[8]; int rounds; } mech;

/* x[k] = one + one by a sync-start task of 2 (one thread's AIVs) or 4 (all) blocks,
** then x[k] = x[k] + one with an async wait; then a graph instance per round. */
static int mech_orch(void *p, sl_rt *rt) {
  mech *m = p;
  m->one = sl_rt_buffer_new(rt, N * 4);
  fill(m->one, 1.0f);
  for (int k = 0; k < m->rounds; k++) {
    m->x[k] = sl_rt_buffer_new(rt, N * 4);
    sl_rt_tensor a[3] = {vec(m->one), vec(m->one), vec(m->x[k])};
    sl_rt_submit s = add_task(a, k % 2 ? 4 : 2);
    s.sync_start = 1;
    if (sl_rt_submit_task(rt, &s) == UINT64_MAX) return -1;
    sl_rt_tensor b[3] = {vec(m->x[k]), vec(m->one), vec(m->x[k])};
    static const sl_arg_dir io[3] = {SL_ARG_IN, SL_ARG_IN, SL_ARG_INOUT};
    s = add_task(b, 1);
    s.dirs = io;
    s.async_us = ASYNC_US;
    if (sl_rt_submit_task(rt, &s) == UINT64_MAX) return -1;
  }
  /* graph: node 0 x0 += one; node 1 (after 0) x0 += one, 2 blocks */
  sl_rt_graph_node nodes[2];
  memset(nodes, 0, sizeof nodes);
  for (int i = 0; i < 2; i++) {
    nodes[i].kernel_ids[0] = nodes[i].kernel_ids[2] = -1;
    nodes[i].kernel_ids[1] = 0;
    nodes[i].fns[1] = sl_kernel_find("add");
    nodes[i].params[0] = 0, nodes[i].params[1] = 1, nodes[i].params[2] = 0;
    nodes[i].dirs[0] = SL_ARG_IN, nodes[i].dirs[1] = SL_ARG_IN, nodes[i].dirs[2] = SL_ARG_OUT;
    nodes[i].ntensors = 3;
    nodes[i].block_num = i + 1;
  }
  nodes[1].deps[0] = 0;
  nodes[1].ndeps = 1;
  static const sl_arg_dir pdirs[2] = {SL_ARG_INOUT, SL_ARG_IN};
  int g = sl_rt_graph_define(rt, nodes, 2, pdirs, 2);
  if (g < 0) return -1;
  for (int k = 0; k < m->rounds; k++) {
    sl_rt_tensor params[2] = {vec(m->x[0]), vec(m->one)};
    if (sl_rt_submit_graph(rt, g, params, 2, NULL, 0) == UINT64_MAX) return -1;
  }
  return 0;
}

static void sum_kind(sl_devprof *dp, uint32_t kind, int *n, uint64_t *tasks) {
  *n = 0;
  *tasks = 0;
  for (int i = 0; i < fake_nphases(dp); i++)
    if (fake_phase_at(dp, i)->kind == kind) {
      (*n)++;
      *tasks += fake_phase_at(dp, i)->tasks;
    }
}

/* Each drain_prepare / drain_publish lies inside a drain of the same thread. */
static void check_drain_nesting(sl_devprof *dp) {
  for (int i = 0; i < fake_nphases(dp); i++) {
    const fake_phase *p = fake_phase_at(dp, i);
    if (p->kind != SL_PHASE_DRAIN_PREPARE && p->kind != SL_PHASE_DRAIN_PUBLISH) continue;
    int inside = 0;
    for (int k = 0; k < fake_nphases(dp) && !inside; k++) {
      const fake_phase *q = fake_phase_at(dp, k);
      inside = q->kind == SL_PHASE_DRAIN && q->thread == p->thread && q->start <= p->start && p->end <= q->end;
    }
    assert_true(inside);
  }
}

/* HBG: resolve, async_poll and dummy run only on the P thread (index 2) as standalone
** phases, which never overlap, and consecutive empty polls are one record. */
static void check_p_thread(sl_devprof *dp) {
  const fake_phase *prev = NULL;
  int resolves = 0;
  for (int i = 0; i < fake_nphases(dp); i++) {
    const fake_phase *p = fake_phase_at(dp, i);
    int p_kind = p->kind == SL_PHASE_RESOLVE_STANDALONE || p->kind == SL_PHASE_ASYNC_POLL || p->kind == SL_PHASE_DUMMY;
    assert_int_not_equal(p->kind, SL_PHASE_RESOLVE); /* never nested under HBG */
    if (p->thread != 2) {
      assert_false(p_kind);
      continue;
    }
    resolves += p->kind == SL_PHASE_RESOLVE_STANDALONE;
    if (!p_kind) continue;
    if (prev) {
      assert_true(prev->end <= p->start);
      assert_false(prev->kind == SL_PHASE_ASYNC_POLL && p->kind == SL_PHASE_ASYNC_POLL && !prev->tasks && !p->tasks);
    }
    prev = p;
  }
  assert_true(resolves > 0);
}

/* The blocks of each sync-start task (ids 0, 2, 4, ...: round k's first submit) were
** published back to back, all inside one early_dispatch or drain_publish record: none
** went out before its last block was staged. */
static void check_sync_published_together(sl_devprof *dp, int rounds) {
  for (int k = 0; k < rounds; k++) {
    uint64_t lo = UINT64_MAX, hi = 0;
    int blocks = 0;
    for (int i = 0; i < fake_ntasks(dp); i++) {
      const fake_task_rec *r = fake_task(dp, i);
      if (r->token_raw != (uint64_t)(2 * k)) continue;
      blocks++;
      if (r->dispatch < lo) lo = r->dispatch;
      if (r->dispatch > hi) hi = r->dispatch;
    }
    assert_int_equal(blocks, k % 2 ? 4 : 2);
    int together = 0;
    for (int i = 0; i < fake_nphases(dp) && !together; i++) {
      const fake_phase *p = fake_phase_at(dp, i);
      together = (p->kind == SL_PHASE_EARLY_DISPATCH || p->kind == SL_PHASE_DRAIN_PUBLISH) && p->start <= lo &&
                 hi <= p->end;
    }
    if (!together) fail_msg("sync-start task %d: blocks published over [%llu, %llu], not in one staging record", 2 * k,
                            (unsigned long long)lo, (unsigned long long)hi);
  }
}

/* Round 0's async task (id 1, ASYNC_US) writes x[0], which the first graph instance (task
** 2 * rounds) reads: its nodes (ring 1, (1 << 32) | (instance << 10) | node) were
** dispatched only after the wait landed, ASYNC_US of device time after the task's FIN,
** not at the FIN. */
static void check_async_gates(sl_devprof *dp, uint64_t freq, int rounds) {
  uint64_t fin = 0, first_node = UINT64_MAX;
  for (int i = 0; i < fake_ntasks(dp); i++) {
    const fake_task_rec *r = fake_task(dp, i);
    if (r->token_raw == 1) fin = r->finish;
    if (r->token_raw >> 10 == ((1ull << 22) | (uint64_t)(2 * rounds)) && r->dispatch < first_node) first_node = r->dispatch;
  }
  assert_true(fin > 0 && first_node != UINT64_MAX);
  if (first_node < fin + ASYNC_US * freq / 1000000u)
    fail_msg("a consumer of the async task was dispatched %llu cycles after its FIN, before the %llu-cycle wait landed",
             (unsigned long long)(first_node - fin), (unsigned long long)(ASYNC_US * freq / 1000000u));
}

/* 6 rounds of mech_orch at level 3 on 2 AIC + 4 AIV, 2 schedulers, recorded into *dp. */
static sl_rt *mech_run(uint64_t freq, int ring, int runtime, const sl_vclock_model *vc, mech *m, sl_devprof **dp) {
  *dp = fake_devprof_new(3);
  sl_rt_config cfg = {freq, 2, 4, 2, 3, *dp, ring, 0, 0, runtime, 0, vc, 0};
  sl_rt *rt = sl_rt_create(&cfg);
  assert_non_null(rt);
  memset(m, 0, sizeof *m);
  m->rounds = 6;
  assert_int_equal(sl_rt_run(rt, mech_orch, m), 0);
  return rt;
}

static void run_mech(uint64_t freq, int ring, int runtime) {
  sl_devprof *dp;
  mech m;
  sl_rt *rt = mech_run(freq, ring, runtime, NULL, &m, &dp);
  /* x[k] = 2 + 1; x[0] then gets 2 per graph instance */
  for (int k = 0; k < m.rounds; k++)
    for (int i = 0; i < N; i++)
      assert_float_equal(((float *)m.x[k]->data)[i], k ? 3.0f : 3.0f + 2.0f * (float)m.rounds, 0.0);
  int n;
  uint64_t tasks;
  sum_kind(dp, SL_PHASE_EARLY_DISPATCH, &n, &tasks);
  assert_int_equal(tasks, 3 * 2); /* rounds 0, 2, 4: 2 blocks each */
  sum_kind(dp, SL_PHASE_DRAIN, &n, &tasks);
  assert_int_equal(n, 3);
  assert_int_equal(tasks, 3 * 4);
  sum_kind(dp, SL_PHASE_DRAIN_PREPARE, &n, &tasks);
  assert_int_equal(tasks, 3 * 4);
  sum_kind(dp, SL_PHASE_DRAIN_PUBLISH, &n, &tasks);
  assert_int_equal(tasks, 3 * 4);
  check_drain_nesting(dp);
  sum_kind(dp, SL_PHASE_ASYNC_POLL, &n, &tasks);
  assert_int_equal(tasks, m.rounds);
  sum_kind(dp, SL_PHASE_GRAPH_PREPARE, &n, &tasks);
  assert_int_equal(n, m.rounds);
  assert_int_equal(tasks, 2 * m.rounds);
  /* graph nodes ran under ring-1 ids decoding to their instance; staged blocks of a
  ** sync-start task were published together (check_sync_published_together) */
  int ring1 = 0;
  for (int i = 0; i < fake_ntasks(dp); i++) {
    const fake_task_rec *r = fake_task(dp, i);
    if ((r->token_raw >> 32) != 1) continue;
    ring1++;
    assert_true((r->token_raw & 0x3FF) < 2);
  }
  assert_int_equal(ring1, 3 * m.rounds); /* 1 + 2 blocks per instance */
  check_sync_published_together(dp, m.rounds);
  check_async_gates(dp, freq, m.rounds);
  if (runtime == SL_RT_HBG) check_p_thread(dp);
  sl_rt_destroy(rt);
  fake_devprof_free(dp);
}

static void test_mechanisms_a2a3(void **state) {
  (void)state;
  for (int rep = 0; rep < 5; rep++) run_mech(50000000, 2, SL_RT_TMR);
}

static void test_mechanisms_a5(void **state) {
  (void)state;
  for (int rep = 0; rep < 5; rep++) run_mech(1000000000, 0, SL_RT_TMR);
}

/* The same mechanisms under host_build_graph (sync-start, async waits on the P thread,
** graphs expanded by the schedulers). */
static void test_mechanisms_hbg(void **state) {
  (void)state;
  for (int rep = 0; rep < 5; rep++) {
    run_mech(50000000, 0, SL_RT_HBG);
    run_mech(1000000000, 0, SL_RT_HBG);
  }
}

/* async_poll(0) is the exact sum of the empty polls it stands for, not a wall-clock
** envelope: under the virtual clock an empty poll costs one clock read
** between its two reads, P runs one poll per loop iteration, and the last record is
** flushed in P's last iteration, so the empty records' durations add up to
** read x (P's iterations - the polls that landed waits). An envelope would also hold
** the idle polls (k_model.poll) between them. */
static void test_hbg_poll_sum(void **state) {
  (void)state;
  static const sl_vclock_model k_model = {5, 3, 3, 5, 2, 2, 20, 50, 1, 64};
  sl_devprof *dp;
  mech m;
  sl_rt *rt = mech_run(50000000, 0, SL_RT_HBG, &k_model, &m, &dp);
  uint64_t empty_sum = 0, last_iter = 0, landing = 0, landed = 0, empty = 0, gaps = 0, prev_end = 0;
  for (int i = 0; i < fake_nphases(dp); i++) {
    const fake_phase *p = fake_phase_at(dp, i);
    if (p->thread != 2) continue;
    if (p->loop_iter > last_iter) last_iter = p->loop_iter;
    if (p->kind != SL_PHASE_ASYNC_POLL) {
      if (p->kind == SL_PHASE_RESOLVE_STANDALONE || p->kind == SL_PHASE_DUMMY) prev_end = p->end;
      continue;
    }
    if (p->tasks) {
      landing++;
      landed += p->tasks;
    } else {
      empty++;
      empty_sum += p->end - p->start;
      gaps += p->start > prev_end; /* idle time before it, left out of its duration */
    }
    prev_end = p->end;
  }
  assert_true(empty > 1 && gaps > 0);
  assert_int_equal(landed, m.rounds); /* every async wait landed in some poll */
  assert_int_equal(empty_sum, k_model.read * (last_iter - landing));
  sl_rt_destroy(rt);
  fake_devprof_free(dp);
}

static void test_mechanism_errors(void **state) {
  (void)state;
  sl_rt_config cfg = {50000000, 2, 4, 2, 0, NULL, 0, 0, 0, SL_RT_TMR, 0, NULL, 0};
  sl_rt *rt = sl_rt_create(&cfg);
  sl_rt_buffer *b = sl_rt_buffer_new(rt, N * 4);
  sl_rt_tensor a[3] = {vec(b), vec(b), vec(b)};
  sl_rt_submit s = add_task(a, 5); /* 5 blocks cannot start together on 4 AIVs */
  s.sync_start = 1;
  assert_int_equal(sl_rt_submit_task(rt, &s), UINT64_MAX);
  assert_non_null(strstr(sl_rt_last_error(rt), "sync_start"));
  /* an explicit dependency must name a task already submitted */
  uint64_t unknown = 12345;
  sl_rt_submit e = add_task(a, 1);
  e.explicit_deps = &unknown;
  e.ndeps = 1;
  assert_int_equal(sl_rt_submit_task(rt, &e), UINT64_MAX);
  assert_non_null(strstr(sl_rt_last_error(rt), "explicit dependency names an unknown task id"));
  /* timing slots 0 .. SL_RT_TIMING_SLOTS - 1: each end accepted, one past it refused */
  static const struct { int slot, ok; } slots[] = {{0, 1}, {SL_RT_TIMING_SLOTS - 1, 1}, {SL_RT_TIMING_SLOTS, 0}, {-1, 0}};
  for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++) {
    sl_rt_submit ts = add_task(a, 1);
    ts.has_timing_slot = 1;
    ts.timing_slot = slots[i].slot;
    uint64_t id = sl_rt_submit_task(rt, &ts);
    if (slots[i].ok) {
      assert_true(id != UINT64_MAX);
    } else {
      assert_int_equal(id, UINT64_MAX);
      assert_non_null(strstr(sl_rt_last_error(rt), "timing slot must be 0..15"));
    }
  }
  sl_rt_graph_node bad;
  memset(&bad, 0, sizeof bad);
  bad.kernel_ids[0] = bad.kernel_ids[1] = bad.kernel_ids[2] = -1;
  bad.block_num = 1;
  sl_arg_dir d = SL_ARG_IN;
  assert_int_equal(sl_rt_graph_define(rt, &bad, 1, &d, 1), -1);
  assert_non_null(strstr(sl_rt_last_error(rt), "no kernel"));
  /* a node's argument must name a parameter of its graph (0 .. nparams - 1), its deps an
  ** earlier node; each bound is checked at both ends */
  sl_rt_graph_node ok[2];
  memset(ok, 0, sizeof ok);
  for (int i = 0; i < 2; i++) {
    ok[i].kernel_ids[0] = ok[i].kernel_ids[2] = -1;
    ok[i].kernel_ids[1] = 0;
    ok[i].fns[1] = sl_kernel_find("add");
    ok[i].ntensors = 1;
    ok[i].block_num = 1;
  }
  ok[1].ndeps = 1;
  static const struct { int param, dep; const char *err; } cases[] = {
      {0, 0, NULL},
      {1, 0, "argument names no graph parameter"},
      {-1, 0, "argument names no graph parameter"},
      {0, 1, "deps must name earlier nodes"},
      {0, -1, "deps must name earlier nodes"},
  };
  /* a node of an AIC and an AIV kernel (slots 0 and 2) is a MIX node, not a lone AIV one */
  sl_rt_graph_node mix = ok[0];
  mix.kernel_ids[0] = 0;
  mix.fns[0] = sl_kernel_find("add");
  mix.kernel_ids[1] = -1;
  mix.fns[1] = NULL;
  mix.kernel_ids[2] = 1;
  mix.fns[2] = sl_kernel_find("add");
  mix.params[0] = 0;
  assert_true(sl_rt_graph_define(rt, &mix, 1, &d, 1) >= 0);
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    ok[0].params[0] = ok[1].params[0] = cases[k].param;
    ok[1].deps[0] = cases[k].dep;
    int g = sl_rt_graph_define(rt, ok, 2, &d, 1);
    if (!cases[k].err) {
      assert_true(g >= 0);
    } else {
      assert_int_equal(g, -1);
      assert_non_null(strstr(sl_rt_last_error(rt), cases[k].err));
    }
  }
  assert_int_equal(sl_rt_submit_graph(rt, 7, a, 1, NULL, 0), UINT64_MAX);
  sl_rt_destroy(rt);
}

/* An alloc_tensors task completes inline: a task that names it as an explicit dependency
** runs (it would wait for ever on an alloc left undone). */
typedef struct alloc_dep { sl_rt_buffer *out[1]; sl_rt_buffer *one; } alloc_dep;

static int alloc_dep_orch(void *p, sl_rt *rt) {
  alloc_dep *a = p;
  uint64_t bytes = N * 4;
  uint64_t id = sl_rt_alloc_tensors(rt, &bytes, 1, a->out);
  if (id == UINT64_MAX) return -1;
  a->one = sl_rt_buffer_new(rt, N * 4);
  fill(a->one, 1.0f);
  sl_rt_tensor t[3] = {vec(a->one), vec(a->one), vec(a->out[0])};
  sl_rt_submit s = add_task(t, 1);
  s.explicit_deps = &id;
  s.ndeps = 1;
  return sl_rt_submit_task(rt, &s) == UINT64_MAX ? -1 : 0;
}

static void test_explicit_dep_on_alloc(void **state) {
  (void)state;
  sl_rt_config cfg = {50000000, 2, 4, 2, 0, NULL, 0, 0, 0, SL_RT_TMR, 0, NULL, 0};
  sl_rt *rt = sl_rt_create(&cfg);
  alloc_dep a;
  memset(&a, 0, sizeof a);
  assert_int_equal(sl_rt_run(rt, alloc_dep_orch, &a), 0);
  for (int i = 0; i < N; i++) assert_float_equal(((float *)a.out[0]->data)[i], 2.0f, 0.0);
  sl_rt_destroy(rt);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mechanisms_a2a3),
      cmocka_unit_test(test_mechanisms_a5),
      cmocka_unit_test(test_mechanisms_hbg),
      cmocka_unit_test(test_hbg_poll_sum),
      cmocka_unit_test(test_mechanism_errors),
      cmocka_unit_test(test_explicit_dep_on_alloc),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
