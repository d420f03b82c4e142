/*
** test_runtime.c — the runtime without Lua: tensormap, ready queue, and whole runs
** on the simulated chip against a recording devprof (fake_devprof.c), checking
** results, dependency order, per-task timestamp order and level gating.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "fake_devprof.h"
#include "rt_test_view.h"
#include "sl_phases.h"
#include "sl_readyq.h"
#include "sl_rt_internal.h"
#include "sl_tensormap.h"

/* ---- tensormap ------------------------------------------------------------------------- */

static void test_tensormap_overlap(void **state) {
  (void)state;
  sl_tensormap m;
  sl_tensormap_init(&m, 16);
  int buf1, buf2;
  struct sl_rt_task *p1 = (struct sl_rt_task *)(uintptr_t)0x100, *p2 = (struct sl_rt_task *)(uintptr_t)0x200;
  sl_tensormap_insert(&m, &buf1, 0, 100, p1, 2, 1);
  sl_tensormap_insert(&m, &buf1, 100, 200, p2, 0, 1);
  sl_tm_hit h[4];
  /* inside the first region: one hit, covered, read after write */
  assert_int_equal(sl_tensormap_lookup(&m, &buf1, 10, 20, 0, h, 4), 1);
  assert_ptr_equal(h[0].producer, p1);
  assert_int_equal(h[0].prod_arg, 2);
  assert_true(h[0].covered);
  assert_int_equal(h[0].hazard, SL_TM_RAW);
  /* straddling both: two hits, neither covers; a write meets them as WAW */
  assert_int_equal(sl_tensormap_lookup(&m, &buf1, 90, 110, 1, h, 4), 2);
  assert_false(h[0].covered);
  assert_false(h[1].covered);
  assert_int_equal(h[0].hazard, SL_TM_WAW);
  /* touching ends do not overlap; another buffer does not match */
  assert_int_equal(sl_tensormap_lookup(&m, &buf1, 200, 300, 0, h, 4), 0);
  assert_int_equal(sl_tensormap_lookup(&m, &buf2, 0, 300, 0, h, 4), 0);
  /* a dense writer covering both replaces them */
  sl_tensormap_insert(&m, &buf1, 0, 200, p2, 1, 1);
  assert_int_equal(sl_tensormap_lookup(&m, &buf1, 0, 200, 0, h, 4), 1);
  assert_ptr_equal(h[0].producer, p2);
  sl_tensormap_free(&m);
}

/* Readers: invisible to reads, WAR to a later write; a strided (non-dense) write
** over them keeps them, and keeps an earlier writer of its holes. */
static void test_tensormap_readers(void **state) {
  (void)state;
  sl_tensormap m;
  sl_tensormap_init(&m, 16);
  int buf;
  struct sl_rt_task *w = (struct sl_rt_task *)(uintptr_t)0x100, *r = (struct sl_rt_task *)(uintptr_t)0x200,
                    *s = (struct sl_rt_task *)(uintptr_t)0x300;
  sl_tm_hit h[4];
  sl_tensormap_insert(&m, &buf, 8, 24, w, 0, 1);
  sl_tensormap_insert_read(&m, &buf, 0, 16, r, 1);
  sl_tensormap_insert_read(&m, &buf, 4, 12, r, 1); /* inside: not added */
  assert_int_equal(sl_tensormap_lookup(&m, &buf, 0, 32, 0, h, 4), 1);  /* a read sees the writer only */
  assert_ptr_equal(h[0].producer, w);
  assert_int_equal(sl_tensormap_lookup(&m, &buf, 12, 14, 1, h, 4), 2); /* a write sees both */
  assert_int_equal(h[0].hazard, SL_TM_WAW);
  assert_ptr_equal(h[1].producer, r);
  assert_int_equal(h[1].hazard, SL_TM_WAR);
  /* strided write over the whole span: nothing replaced */
  sl_tensormap_insert(&m, &buf, 0, 32, s, 0, 0);
  assert_int_equal(sl_tensormap_lookup(&m, &buf, 0, 32, 1, h, 4), 3);
  /* a dense write over it all: only itself is left */
  sl_tensormap_insert(&m, &buf, 0, 32, s, 0, 1);
  assert_int_equal(sl_tensormap_lookup(&m, &buf, 0, 32, 1, h, 4), 1);
  assert_ptr_equal(h[0].producer, s);
  sl_tensormap_free(&m);
}

/* Fake tasks for the prune test: addresses 16 * k; odd k have finished. */
static int fake_finished(struct sl_rt_task *t) { return ((uintptr_t)t / 16) & 1; }

/* A buffer read by many tasks: once the bucket passes its threshold, finished
** readers are dropped (they can order nothing), unfinished ones and writers stay. */
static void test_tensormap_prune(void **state) {
  (void)state;
  sl_tensormap m;
  sl_tensormap_init(&m, 16);
  m.finished = fake_finished;
  int buf;
  struct sl_rt_task *w = (struct sl_rt_task *)(uintptr_t)(16 * 1); /* "finished", but a writer */
  sl_tensormap_insert(&m, &buf, 0, 64, w, 0, 1);
  for (uintptr_t k = 2; k < 2 + 1000; k++)
    sl_tensormap_insert_read(&m, &buf, 0, 64, (struct sl_rt_task *)(16 * k), 0);
  static sl_tm_hit h[2048];
  size_t n = sl_tensormap_lookup(&m, &buf, 0, 64, 1, h, 2048);
  int writer = 0, unfinished = 0;
  for (size_t i = 0; i < n; i++) {
    writer += h[i].producer == w;
    unfinished += !fake_finished(h[i].producer);
  }
  assert_int_equal(writer, 1);
  assert_int_equal(unfinished, 500); /* every unfinished reader is still ordered */
  assert_true(n < 1000);             /* and finished ones were dropped */
  sl_tensormap_free(&m);
}

/* ---- ready queue ----------------------------------------------------------------------- */

static void test_readyq_blocks(void **state) {
  (void)state;
  sl_readyq q;
  assert_int_equal(sl_readyq_init(&q), 0);
  sl_rt_task a, b;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  a.block_num = 3;
  b.block_num = 1;
  for (int i = 0; i < 100; i++) sl_readyq_push(&q, &b); /* forces growth */
  assert_int_equal(sl_readyq_depth(&q), 100);
  int blk;
  for (int i = 0; i < 100; i++) assert_ptr_equal(sl_readyq_pop_block(&q, &blk), &b);
  assert_null(sl_readyq_pop_block(&q, &blk));
  sl_readyq_push(&q, &a);
  sl_readyq_push(&q, &b);
  b.next_block = 0;
  assert_int_equal(sl_readyq_depth(&q), 2);
  for (int i = 0; i < 3; i++) {
    assert_ptr_equal(sl_readyq_pop_block(&q, &blk), &a);
    assert_int_equal(blk, i);
  }
  assert_int_equal(sl_readyq_depth(&q), 1);
  assert_ptr_equal(sl_readyq_pop_block(&q, &blk), &b);
  assert_int_equal(blk, 0);
  assert_int_equal(sl_readyq_depth(&q), 0);
  sl_readyq_free(&q);
}

/* ---- whole runs -------------------------------------------------------------------------- */

typedef struct chain_ctx {
  int n;            /* elements */
  int links;        /* chain length */
  int spmd_blocks;  /* block_num of the SPMD task, 0 = none */
  int with_mix;
  sl_rt_buffer *x, *one, *mix_a, *mix_b, *mix_c, *mix_d;
  uint64_t ids[64];
  int nids;
} chain_ctx;

static sl_rt_tensor vec(sl_rt_buffer *b, int n) { return rt_test_view(b, 8, n / 8, n / 8, 0); }

/* x = x + one, `links` times (each link depends on the previous through x), then an
** SPMD add, a MIX (matmul + add + mul), a dummy joining them and a skipped task. */
static int chain_orch(void *p, sl_rt *rt) {
  chain_ctx *c = p;
  c->x = sl_rt_buffer_new(rt, (uint64_t)c->n * 4);
  c->one = sl_rt_buffer_new(rt, (uint64_t)c->n * 4);
  for (int i = 0; i < c->n; i++) ((float *)c->one->data)[i] = 1.0f;
  sl_rt_tensor args[9];
  sl_arg_dir dirs[9] = {SL_ARG_IN, SL_ARG_IN, SL_ARG_OUT, SL_ARG_IN, SL_ARG_IN, SL_ARG_OUT,
                        SL_ARG_IN, SL_ARG_IN, SL_ARG_OUT};
  sl_rt_submit s;
  for (int k = 0; k < c->links; k++) {
    memset(&s, 0, sizeof s);
    s.kernel_ids[0] = -1;
    s.kernel_ids[1] = 7;
    s.kernel_ids[2] = -1;
    s.fns[1] = sl_kernel_find("add");
    args[0] = vec(c->x, c->n);
    args[1] = vec(c->one, c->n);
    args[2] = vec(c->x, c->n);
    s.tensors = args;
    s.dirs = dirs;
    s.ntensors = 3;
    s.block_num = 1;
    s.predicate = 1;
    c->ids[c->nids++] = sl_rt_submit_task(rt, &s);
    if (c->ids[c->nids - 1] == UINT64_MAX) return -1;
  }
  if (c->spmd_blocks) {
    s.block_num = c->spmd_blocks;
    c->ids[c->nids++] = sl_rt_submit_task(rt, &s); /* x += one, in blocks */
  }
  if (c->with_mix) {
    c->mix_a = sl_rt_buffer_new(rt, 64 * 4);
    c->mix_b = sl_rt_buffer_new(rt, 64 * 4);
    c->mix_c = sl_rt_buffer_new(rt, 64 * 4);
    c->mix_d = sl_rt_buffer_new(rt, (uint64_t)c->n * 4);
    for (int i = 0; i < 64; i++) {
      ((float *)c->mix_a->data)[i] = (float)(i % 8);
      ((float *)c->mix_b->data)[i] = i / 8 == i % 8 ? 1.0f : 0.0f; /* identity */
    }
    memset(&s, 0, sizeof s);
    s.kernel_ids[0] = 0;
    s.kernel_ids[1] = 1;
    s.kernel_ids[2] = 2;
    s.fns[0] = sl_kernel_find("matmul");
    s.fns[1] = sl_kernel_find("add_at3");
    s.fns[2] = sl_kernel_find("mul_at6");
    sl_rt_tensor m = vec(c->mix_a, 64);
    m.shape[0] = 8;
    m.shape[1] = 8;
    m.strides[0] = 8;
    args[0] = m;
    args[1] = m;
    args[1].buf = c->mix_b;
    args[2] = m;
    args[2].buf = c->mix_c;
    args[3] = vec(c->x, c->n);
    args[4] = vec(c->one, c->n);
    args[5] = vec(c->x, c->n);
    args[6] = vec(c->one, c->n);
    args[7] = vec(c->one, c->n);
    args[8] = vec(c->mix_d, c->n);
    s.tensors = args;
    s.dirs = dirs;
    s.ntensors = 9;
    s.block_num = 1;
    s.predicate = 1;
    c->ids[c->nids++] = sl_rt_submit_task(rt, &s);
  }
  /* dummy joining everything, then a task whose predicate is false */
  memset(&s, 0, sizeof s);
  s.kernel_ids[0] = s.kernel_ids[1] = s.kernel_ids[2] = -1;
  s.explicit_deps = c->ids;
  s.ndeps = c->nids;
  s.block_num = 1;
  s.predicate = 1;
  if (sl_rt_submit_task(rt, &s) == UINT64_MAX) return -1;
  memset(&s, 0, sizeof s);
  s.kernel_ids[0] = -1;
  s.kernel_ids[1] = 7;
  s.kernel_ids[2] = -1;
  s.fns[1] = sl_kernel_find("add");
  args[0] = vec(c->x, c->n);
  args[1] = vec(c->one, c->n);
  args[2] = vec(c->x, c->n);
  s.tensors = args;
  s.dirs = dirs;
  s.ntensors = 3;
  s.block_num = 1;
  s.predicate = 0;
  return sl_rt_submit_task(rt, &s) == UINT64_MAX ? -1 : 0;
}

/* NULL: the wall clock; else run_chain runs under the virtual clock with these latencies. */
static const sl_vclock_model *g_vclock;
static const sl_vclock_model k_vclock = {2, 1, 3, 5, 2, 2, 20, 50, 1, 64};

static sl_rt *run_chain(unsigned level, sl_devprof *dp, chain_ctx *c, int aic, int aiv, int sched) {
  sl_rt_config cfg = {50000000, aic, aiv, sched, level, dp, 8, 1, 0, SL_RT_TMR, 0, g_vclock, 0};
  sl_rt *rt = sl_rt_create(&cfg);
  assert_non_null(rt);
  assert_int_equal(sl_rt_run(rt, chain_orch, c), 0);
  return rt;
}

static int count_kind(sl_devprof *dp, uint32_t kind, uint64_t *tasks) {
  int n = 0;
  *tasks = 0;
  for (int i = 0; i < fake_nphases(dp); i++)
    if (fake_phase_at(dp, i)->kind == kind) {
      n++;
      *tasks += fake_phase_at(dp, i)->tasks;
    }
  return n;
}

static int is_outer(uint32_t kind) {
  return kind == SL_PHASE_COMPLETE || kind == SL_PHASE_DISPATCH || kind == SL_PHASE_DUMMY ||
         kind == SL_PHASE_RELEASE;
}

/* Per scheduler thread, in emission order: outer phases are mutually exclusive and
** in loop order (complete, dispatch, dummy, release within one iteration), and a
** nested resolve lies inside the complete or dummy phase of its iteration. Phases
** that share a boundary timestamp may touch, never overlap. */
static void check_phase_order(sl_devprof *dp, int nthreads) {
  for (int th = 0; th < nthreads; th++) {
    const fake_phase *prev = NULL;
    for (int i = 0; i < fake_nphases(dp); i++) {
      const fake_phase *p = fake_phase_at(dp, i);
      if (p->thread != th) continue;
      assert_true(p->start <= p->end);
      if (p->kind == SL_PHASE_RESOLVE) {
        int parent = 0;
        for (int k = i + 1; k < fake_nphases(dp) && !parent; k++) {
          const fake_phase *q = fake_phase_at(dp, k);
          if (q->thread == th && q->loop_iter == p->loop_iter &&
              (q->kind == SL_PHASE_COMPLETE || q->kind == SL_PHASE_DUMMY)) {
            assert_true(q->start <= p->start && p->end <= q->end);
            parent = 1;
          }
        }
        assert_true(parent);
        continue;
      }
      if (!is_outer(p->kind)) continue;
      if (prev) {
        assert_true(prev->end <= p->start);
        assert_true(prev->loop_iter <= p->loop_iter);
        if (prev->loop_iter == p->loop_iter) assert_true(prev->kind != p->kind);
      }
      prev = p;
    }
  }
}

/* The record of `kind` on `thread` holding cycle `at` (in (start, end] when `open_start`,
** else [start, end]); NULL if none. */
static const fake_phase *phase_holding(sl_devprof *dp, int thread, uint32_t kind, uint64_t at, int open_start) {
  for (int i = 0; i < fake_nphases(dp); i++) {
    const fake_phase *p = fake_phase_at(dp, i);
    if (p->thread == thread && p->kind == kind && (open_start ? p->start < at : p->start <= at) && at <= p->end)
      return p;
  }
  return NULL;
}

/* A subtask's dispatch_time is its own stamp, taken when its publication
** completed, inside the dispatch phase that published it (not the phase's start shared
** by the whole batch); its finish_time is when completion processing of its FIN began,
** inside a complete phase of the same thread, the first FIN of each pass opening it.
** Under the virtual clock every publication costs time, so the stamps of one batch are
** distinct, all after the phase's start, and each dispatch phase holds exactly the
** subtasks it counts. */
static void check_task_stamps(sl_devprof *dp, int exact) {
  int nphases = fake_nphases(dp), *held = calloc((size_t)nphases + 1, sizeof *held);
  assert_non_null(held);
  for (int i = 0; i < fake_ntasks(dp); i++) {
    const fake_task_rec *r = fake_task(dp, i);
    const fake_phase *d = phase_holding(dp, r->disp_thread, SL_PHASE_DISPATCH, r->dispatch, exact);
    if (!d) fail_msg("core %d reg %u: dispatch_time %llu outside every dispatch phase of thread %d", r->core,
                     (unsigned)r->reg, (unsigned long long)r->dispatch, r->disp_thread);
    held[d - fake_phase_at(dp, 0)]++;
    if (!phase_holding(dp, r->disp_thread, SL_PHASE_COMPLETE, r->finish, 0))
      fail_msg("core %d reg %u: finish_time %llu outside every complete phase of thread %d", r->core,
               (unsigned)r->reg, (unsigned long long)r->finish, r->disp_thread);
    for (int k = 0; exact && k < i; k++) {
      const fake_task_rec *o = fake_task(dp, k);
      if (o->disp_thread == r->disp_thread && o->dispatch == r->dispatch)
        fail_msg("cores %d and %d share dispatch_time %llu", o->core, r->core, (unsigned long long)r->dispatch);
    }
  }
  for (int i = 0; i < nphases; i++) {
    const fake_phase *p = fake_phase_at(dp, i);
    if (exact && p->kind == SL_PHASE_DISPATCH) assert_int_equal(held[i], p->tasks);
    if (p->kind != SL_PHASE_COMPLETE) continue;
    int opened = 0; /* some FIN of this pass was stamped at the phase's start */
    for (int k = 0; k < fake_ntasks(dp) && !opened; k++)
      opened = fake_task(dp, k)->disp_thread == p->thread && fake_task(dp, k)->finish == p->start;
    if (!opened) fail_msg("a complete phase [%llu, %llu] starts at no FIN", (unsigned long long)p->start,
                          (unsigned long long)p->end);
  }
  free(held);
}

static void check_results(chain_ctx *c) {
  float want = (float)(c->links + (c->spmd_blocks ? 1 : 0) + (c->with_mix ? 1 : 0));
  for (int i = 0; i < c->n; i++) assert_float_equal(((float *)c->x->data)[i], want, 0.0);
  if (c->with_mix)
  {
    for (int i = 0; i < 64; i++) assert_float_equal(((float *)c->mix_c->data)[i], (float)(i % 8), 1e-6);
    for (int i = 0; i < c->n; i++) assert_float_equal(((float *)c->mix_d->data)[i], 1.0, 0.0);
  }
}

/* Level 4 on the default shape: results, timestamp order per joined task, phase and
** orchestrator records, level-4 hooks present. */
static void test_run_level4(void **state) {
  (void)state;
  sl_devprof *dp = fake_devprof_new(4);
  chain_ctx c = {.n = 256, .links = 20, .spmd_blocks = 11, .with_mix = 1};
  sl_rt *rt = run_chain(4, dp, &c, 2, 4, 2);
  check_results(&c);
  sl_rt_stats st = sl_rt_get_stats(rt);
  /* 20 links + SPMD + MIX + dummy + skipped */
  assert_int_equal(st.tasks, 24);
  assert_int_equal(st.dummy_tasks, 1);
  assert_int_equal(st.skipped_tasks, 1);
  assert_int_equal(st.dispatches, 20 + 11 + 3);
  assert_int_equal(fake_ntasks(dp), 20 + 11 + 3);
  for (int i = 0; i < fake_ntasks(dp); i++) {
    const fake_task_rec *r = fake_task(dp, i);
    assert_int_equal(r->dispatched, 1);
    assert_int_equal(r->have_aicore, 1);
    assert_int_equal(r->have_complete, 1);
    assert_true(r->acked >= 1);
    assert_true(r->dispatch <= r->receive);
    assert_true(r->receive <= r->start);
    assert_true(r->start <= r->end);
    assert_true(r->end <= r->finish);
    assert_int_equal(r->disp_thread, fake_core_thread(dp, r->core));
  }
  /* dependency order: a task starts after every subtask of its predecessor ended */
  uint64_t first_start[32], last_end[32];
  for (int t = 0; t < 32; t++) first_start[t] = UINT64_MAX, last_end[t] = 0;
  for (int i = 0; i < fake_ntasks(dp); i++) {
    const fake_task_rec *r = fake_task(dp, i);
    assert_true(r->token_raw < 32);
    if (r->start < first_start[r->token_raw]) first_start[r->token_raw] = r->start;
    if (r->end > last_end[r->token_raw]) last_end[r->token_raw] = r->end;
  }
  for (int t = 1; t < 22; t++) assert_true(first_start[t] >= last_end[t - 1]);
  /* completion before dispatch: on each core, a dispatch follows the previous finish */
  for (int i = 0; i < fake_ntasks(dp); i++)
    for (int k = 0; k < fake_ntasks(dp); k++) {
      const fake_task_rec *a = fake_task(dp, i), *b = fake_task(dp, k);
      if (a->core == b->core && b->reg == a->reg + 1) assert_true(b->dispatch >= a->finish);
    }
  uint64_t tasks;
  assert_true(count_kind(dp, SL_PHASE_COMPLETE, &tasks) > 0);
  assert_int_equal(tasks, 20 + 11 + 3);
  count_kind(dp, SL_PHASE_DISPATCH, &tasks);
  assert_int_equal(tasks, 20 + 11 + 3);
  assert_int_equal(count_kind(dp, SL_PHASE_DUMMY_TASK, &tasks), 1);
  assert_int_equal(count_kind(dp, SL_PHASE_PREDICATED_SKIP, &tasks), 1);
  count_kind(dp, SL_PHASE_RELEASE, &tasks);
  assert_int_equal(tasks, 24);
  /* pop hits over all dispatch records == blocks popped; every miss is in a record
  ** too, and a dispatch that published nothing is a pass whose pops all missed (it
  ** carries its own misses, never a residual delta on a zero-width exit bar) */
  uint64_t hits = 0, misses = 0;
  for (int i = 0; i < fake_nphases(dp); i++) {
    const fake_phase *p = fake_phase_at(dp, i);
    assert_true(p->start <= p->end);
    if (p->kind != SL_PHASE_DISPATCH) continue;
    hits += p->a;
    misses += p->b;
    if (p->tasks == 0) {
      assert_int_equal(p->a, 0);
      assert_true(p->b > 0);
      if (g_vclock) assert_true(p->end > p->start); /* the modelled cost of the missed pops */
    }
  }
  assert_int_equal(hits, 20 + 11 + 1); /* a MIX block is one pop */
  check_phase_order(dp, 2);
  check_task_stamps(dp, g_vclock != NULL);
  assert_int_equal(hits, st.pop_hit);
  assert_int_equal(misses, st.pop_miss);
  assert_int_equal(fake_norch(dp), 24);
  for (int i = 0; i < fake_norch(dp); i++) {
    assert_int_equal(fake_orch_at(dp, i)->submit_idx, i);
    assert_true(fake_orch_at(dp, i)->start <= fake_orch_at(dp, i)->end);
  }
  assert_int_equal(fake_flushes(dp), 2);
  assert_int_equal(fake_orch_flushes(dp), 1);
  /* deps: link k depends on link k-1 through x (tensormap), dummy on all explicitly */
  int chain_edges = 0, explicit_edges = 0;
  for (size_t i = 0; i < sl_rt_edge_count(rt); i++) {
    const sl_rt_edge *e = sl_rt_edge_at(rt, i);
    assert_true(e->pred < e->succ);
    if (e->source == 2 && e->succ < 20) {
      assert_int_equal(e->pred + 1, e->succ);
      assert_true(e->covered);
      chain_edges++;
    }
    if (e->source == 0) explicit_edges++;
  }
  assert_int_equal(chain_edges, 19 * 2); /* x as input and as output */
  assert_int_equal(explicit_edges, 22);
  sl_rt_destroy(rt);
  fake_devprof_free(dp);
}

/* The same invariants in virtual time. */
static void test_run_level4_virtual(void **state) {
  g_vclock = &k_vclock;
  test_run_level4(state);
  g_vclock = NULL;
}

/* Two virtual-clock runs record the same times, cores and phases, whatever the host
** did with the threads; the chain's kernels take their modelled time. */
static void test_virtual_deterministic(void **state) {
  (void)state;
  g_vclock = &k_vclock;
  sl_devprof *dp[2];
  sl_rt *rt[2];
  for (int k = 0; k < 2; k++) {
    dp[k] = fake_devprof_new(4);
    chain_ctx c = {.n = 256, .links = 12, .spmd_blocks = 5, .with_mix = 1};
    rt[k] = run_chain(4, dp[k], &c, 2, 4, 2);
    check_results(&c);
  }
  g_vclock = NULL;
  assert_int_equal(fake_ntasks(dp[0]), fake_ntasks(dp[1]));
  for (int i = 0; i < fake_ntasks(dp[0]); i++) {
    const fake_task_rec *a = fake_task(dp[0], i), *b = fake_task(dp[1], i);
    assert_int_equal(a->core, b->core);
    assert_int_equal(a->reg, b->reg);
    assert_int_equal(a->token_raw, b->token_raw);
    assert_int_equal(a->dispatch, b->dispatch);
    assert_int_equal(a->receive, b->receive);
    assert_int_equal(a->start, b->start);
    assert_int_equal(a->end, b->end);
    assert_int_equal(a->finish, b->finish);
    assert_true(a->end - a->start >= k_vclock.kernel_base); /* the kernel's modelled cost */
  }
  assert_int_equal(fake_nphases(dp[0]), fake_nphases(dp[1]));
  for (int i = 0; i < fake_nphases(dp[0]); i++) {
    const fake_phase *a = fake_phase_at(dp[0], i), *b = fake_phase_at(dp[1], i);
    assert_int_equal(a->thread, b->thread);
    assert_int_equal(a->kind, b->kind);
    assert_int_equal(a->loop_iter, b->loop_iter);
    assert_int_equal(a->tasks, b->tasks);
    assert_int_equal(a->start, b->start);
    assert_int_equal(a->end, b->end);
  }
  assert_int_equal(sl_rt_get_timing(rt[0]).run_end, sl_rt_get_timing(rt[1]).run_end);
  for (int k = 0; k < 2; k++) {
    sl_rt_destroy(rt[k]);
    fake_devprof_free(dp[k]);
  }
}

/* Level gating: what each level calls. */
static void test_run_levels(void **state) {
  (void)state;
  for (unsigned level = 1; level <= 3; level++) {
    sl_devprof *dp = fake_devprof_new(level);
    chain_ctx c = {.n = 64, .links = 5, .spmd_blocks = 3, .with_mix = 1};
    sl_rt *rt = run_chain(level, dp, &c, 2, 4, 2);
    check_results(&c);
    assert_int_equal(fake_ntasks(dp), 5 + 3 + 3);
    for (int i = 0; i < fake_ntasks(dp); i++) {
      assert_int_equal(fake_task(dp, i)->have_aicore, 1);
      assert_int_equal(fake_task(dp, i)->have_complete, level >= 2 ? 1 : 0);
    }
    if (level < 3) assert_int_equal(fake_nphases(dp), 0);
    else assert_true(fake_nphases(dp) > 0);
    assert_int_equal(fake_norch(dp), 0);
    assert_int_equal(fake_orch_flushes(dp), 0);
    sl_rt_destroy(rt);
    fake_devprof_free(dp);
  }
  /* level 0: no devprof at all, same results */
  chain_ctx c = {.n = 64, .links = 5, .spmd_blocks = 3, .with_mix = 1};
  sl_rt *rt = run_chain(0, NULL, &c, 2, 4, 2);
  check_results(&c);
  sl_rt_destroy(rt);
}

/* Full a2a3 shape with 3 schedulers and a tiny ring: SPMD wider than the chip. */
static void test_run_full_chip(void **state) {
  (void)state;
  sl_devprof *dp = fake_devprof_new(3);
  chain_ctx c = {.n = 1024, .links = 10, .spmd_blocks = 100, .with_mix = 1};
  sl_rt *rt = run_chain(3, dp, &c, 24, 48, 3);
  check_results(&c);
  assert_int_equal(fake_ntasks(dp), 10 + 100 + 3);
  for (int core = 0; core < 72; core++) assert_true(fake_core_thread(dp, core) >= 0);
  sl_rt_destroy(rt);
  fake_devprof_free(dp);
}

/* 100 small writers under one read: the reader depends on every one of them. */
typedef struct many_ctx {
  sl_rt_buffer *cnt;
  uint64_t reader;
} many_ctx;

static int many_orch(void *p, sl_rt *rt) {
  many_ctx *c = p;
  c->cnt = sl_rt_buffer_new(rt, 100 * 8);
  sl_rt_tensor t;
  memset(&t, 0, sizeof t);
  t.buf = c->cnt;
  t.dtype = 7; /* INT64 */
  t.ndims = 1;
  t.shape[0] = 1;
  t.strides[0] = 1;
  sl_arg_dir dir = SL_ARG_INOUT;
  sl_rt_scalar iters = {3, 7};
  sl_rt_submit s;
  memset(&s, 0, sizeof s);
  s.kernel_ids[0] = s.kernel_ids[2] = -1;
  s.kernel_ids[1] = 0;
  s.fns[1] = sl_kernel_find("spin");
  s.tensors = &t;
  s.dirs = &dir;
  s.ntensors = 1;
  s.scalars = &iters;
  s.nscalars = 1;
  s.block_num = 1;
  s.predicate = 1;
  for (int k = 0; k < 100; k++) {
    t.start_offset = k;
    if (sl_rt_submit_task(rt, &s) == UINT64_MAX) return -1;
  }
  t.start_offset = 0;
  t.shape[0] = 100; /* the whole buffer: overlaps all 100 writers */
  c->reader = sl_rt_submit_task(rt, &s);
  return c->reader == UINT64_MAX ? -1 : 0;
}

static void test_run_many_writers(void **state) {
  (void)state;
  sl_devprof *dp = fake_devprof_new(2);
  sl_rt_config cfg = {50000000, 2, 4, 2, 2, dp, 0, 1, 0, SL_RT_TMR, 0, NULL, 0};
  sl_rt *rt = sl_rt_create(&cfg);
  many_ctx c;
  assert_int_equal(sl_rt_run(rt, many_orch, &c), 0);
  int deps = 0;
  for (size_t i = 0; i < sl_rt_edge_count(rt); i++) deps += sl_rt_edge_at(rt, i)->succ == c.reader;
  assert_int_equal(deps, 100);
  uint64_t last_writer_end = 0, reader_start = 0;
  for (int i = 0; i < fake_ntasks(dp); i++) {
    const fake_task_rec *r = fake_task(dp, i);
    if (r->token_raw == c.reader) reader_start = r->start;
    else if (r->end > last_writer_end) last_writer_end = r->end;
  }
  assert_true(reader_start >= last_writer_end);
  /* the reader added 3 to element 0 after writer 0 did: 6; the rest got 3 */
  assert_int_equal(((int64_t *)c.cnt->data)[0], 6);
  assert_int_equal(((int64_t *)c.cnt->data)[99], 3);
  sl_rt_destroy(rt);
  fake_devprof_free(dp);
}

/* A random DAG over views of one arena: every task writes fresh rows from two earlier
** values (RAW dependencies through overlapping views only); some are SPMD, some are
** predicated off. The result must equal a sequential evaluation, exactly. */
enum { RD_TASKS = 300, RD_ROWS = 64, RD_COLS = 64, RD_VALUES = RD_TASKS + 4 };

typedef struct rdag {
  sl_rt_buffer *arena;
  unsigned seed;
  int src[RD_TASKS][2], op[RD_TASKS], blocks[RD_TASKS], pred[RD_TASKS];
} rdag;

static sl_rt_tensor rd_view(sl_rt_buffer *b, int value) {
  return rt_test_view(b, RD_ROWS, RD_COLS, RD_COLS, (int64_t)value * RD_ROWS * RD_COLS);
}

static int rdag_orch(void *p, sl_rt *rt) {
  rdag *g = p;
  g->arena = sl_rt_buffer_new(rt, (uint64_t)RD_VALUES * RD_ROWS * RD_COLS * 4);
  float *a = g->arena->data;
  for (int v = 0; v < 4; v++) /* four initial values */
    for (int i = 0; i < RD_ROWS * RD_COLS; i++) a[v * RD_ROWS * RD_COLS + i] = 0.5f + 0.25f * (float)((v + i) % 5);
  sl_arg_dir dirs[3] = {SL_ARG_IN, SL_ARG_IN, SL_ARG_OUT};
  for (int k = 0; k < RD_TASKS; k++) {
    int have = 4 + k;
    g->seed = g->seed * 1103515245u + 12345u;
    /* one operand an earlier result (often a recent one), the other an initial value,
    ** so values stay finite while the dependency pattern stays random */
    g->src[k][0] = (g->seed >> 30) ? have - 1 - (int)((g->seed >> 8) % (unsigned)(have < 8 ? have : 8))
                                   : (int)((g->seed >> 8) % (unsigned)have);
    g->seed = g->seed * 1103515245u + 12345u;
    g->src[k][1] = (int)((g->seed >> 8) % 4u);
    g->op[k] = (g->seed >> 20) & 1;
    g->blocks[k] = (g->seed >> 21) % 3 == 0 ? 2 : 1;
    g->pred[k] = (g->seed >> 23) % 11 != 0;
    sl_rt_tensor args[3] = {rd_view(g->arena, g->src[k][0]), rd_view(g->arena, g->src[k][1]),
                            rd_view(g->arena, have)};
    sl_rt_submit s;
    memset(&s, 0, sizeof s);
    s.kernel_ids[0] = s.kernel_ids[2] = -1;
    s.kernel_ids[1] = g->op[k];
    s.fns[1] = sl_kernel_find(g->op[k] ? "mul" : "add");
    s.tensors = args;
    s.dirs = dirs;
    s.ntensors = 3;
    s.block_num = g->blocks[k];
    s.predicate = g->pred[k];
    if (sl_rt_submit_task(rt, &s) == UINT64_MAX) return -1;
  }
  return 0;
}

static void test_run_random_dag(void **state) {
  (void)state;
  for (unsigned seed = 1; seed <= 3; seed++) {
    sl_devprof *dp = fake_devprof_new(3);
    sl_rt_config cfg = {50000000, 2, 4, 2, 3, dp, 16, 0, 0, SL_RT_TMR, 0, NULL, 0};
    sl_rt *rt = sl_rt_create(&cfg);
    rdag *g = calloc(1, sizeof *g);
    g->seed = seed;
    assert_int_equal(sl_rt_run(rt, rdag_orch, g), 0);
    /* sequential reference */
    static float ref[RD_VALUES][RD_ROWS * RD_COLS];
    for (int v = 0; v < 4; v++)
      for (int i = 0; i < RD_ROWS * RD_COLS; i++) ref[v][i] = 0.5f + 0.25f * (float)((v + i) % 5);
    for (int k = 0; k < RD_TASKS; k++)
      for (int i = 0; i < RD_ROWS * RD_COLS; i++) {
        float x = ref[g->src[k][0]][i], y = ref[g->src[k][1]][i];
        ref[4 + k][i] = !g->pred[k] ? 0.0f : g->op[k] ? x * y : x + y;
      }
    int finite = 0;
    for (int v = 0; v < RD_VALUES; v++) finite += isfinite(ref[v][0]) && ref[v][0] != 0.0f;
    assert_true(finite > RD_VALUES / 2); /* the comparison is mostly of real numbers */
    const float *got = g->arena->data;
    for (int v = 0; v < RD_VALUES; v++)
      for (int i = 0; i < RD_ROWS * RD_COLS; i++)
        if (!(got[v * RD_ROWS * RD_COLS + i] == ref[v][i] || (isnan(ref[v][i]) && isnan(got[v * RD_ROWS * RD_COLS + i]))))
          fail_msg("seed %u value %d elem %d: %g, expected %g", seed, v, i, got[v * RD_ROWS * RD_COLS + i], ref[v][i]);
    sl_rt_stats st = sl_rt_get_stats(rt);
    assert_int_equal(st.tasks, RD_TASKS);
    free(g);
    sl_rt_destroy(rt);
    fake_devprof_free(dp);
  }
}

/* Four independent x_k += one tasks in ring 0, each followed by one y_k += one in a
** nested scope (ring 1). */
#define RINGS_K 4
typedef struct rings_ctx {
  sl_rt_buffer *x[RINGS_K], *y[RINGS_K], *one;
} rings_ctx;

static int submit_add(sl_rt *rt, sl_rt_buffer *acc, sl_rt_buffer *one) {
  sl_rt_tensor args[3] = {vec(acc, 64), vec(one, 64), vec(acc, 64)};
  sl_arg_dir dirs[3] = {SL_ARG_IN, SL_ARG_IN, SL_ARG_OUT};
  sl_rt_submit s;
  memset(&s, 0, sizeof s);
  s.kernel_ids[0] = s.kernel_ids[2] = -1;
  s.kernel_ids[1] = 7;
  s.fns[1] = sl_kernel_find("add");
  s.tensors = args;
  s.dirs = dirs;
  s.ntensors = 3;
  s.block_num = 1;
  s.predicate = 1;
  return sl_rt_submit_task(rt, &s) == UINT64_MAX ? -1 : 0;
}

static int rings_orch(void *p, sl_rt *rt) {
  rings_ctx *c = p;
  c->one = sl_rt_buffer_new(rt, 64 * 4);
  for (int i = 0; i < 64; i++) ((float *)c->one->data)[i] = 1.0f;
  for (int k = 0; k < RINGS_K; k++) {
    c->x[k] = sl_rt_buffer_new(rt, 64 * 4);
    c->y[k] = sl_rt_buffer_new(rt, 64 * 4);
    if (submit_add(rt, c->x[k], c->one) || sl_rt_scope_begin(rt) || submit_add(rt, c->y[k], c->one) ||
        sl_rt_scope_end(rt))
      return -1;
  }
  return 0;
}

/* --ring 1 is a budget per ring: at most one ring-0 and one ring-1 task in flight, and
** the ring-1 task of a scope does not wait for the ring-0 task before it (their
** dispatch -> finish windows overlap), while ring-0 tasks never do. Virtual time, so
** the overlap is not left to the host's scheduling. */
static void test_ring_budget_per_ring(void **state) {
  (void)state;
  sl_devprof *dp = fake_devprof_new(4);
  sl_rt_config cfg = {50000000, 1, 4, 2, 4, dp, 1, 1, 0, SL_RT_TMR, 0, &k_vclock, 0};
  sl_rt *rt = sl_rt_create(&cfg);
  assert_non_null(rt);
  rings_ctx c;
  assert_int_equal(sl_rt_run(rt, rings_orch, &c), 0);
  for (int k = 0; k < RINGS_K; k++)
    for (int i = 0; i < 64; i++) {
      assert_float_equal(((float *)c.x[k]->data)[i], 1.0, 0.0);
      assert_float_equal(((float *)c.y[k]->data)[i], 1.0, 0.0);
    }
  sl_rt_stats st = sl_rt_get_stats(rt);
  assert_int_equal(st.ring_peak[0], 1);
  assert_int_equal(st.ring_peak[1], 1);
  int overlaps = 0;
  for (int i = 0; i < fake_ntasks(dp); i++)
    for (int j = 0; j < fake_ntasks(dp); j++) {
      const fake_task_rec *a = fake_task(dp, i), *b = fake_task(dp, j);
      if (i == j || a->token_raw >> 32 != 0) continue;
      /* the ring-1 task of the same scope step (same local id): submitted right after a */
      int cross = b->token_raw >> 32 == 1 && (b->token_raw & 0xFFFFFFFFu) == (a->token_raw & 0xFFFFFFFFu);
      int overlap = a->dispatch < b->finish && b->dispatch < a->finish;
      if (b->token_raw >> 32 == 0) assert_false(overlap); /* ring 0 holds one task at a time */
      overlaps += cross && overlap;
    }
  assert_true(overlaps > 0);
  sl_rt_destroy(rt);
  fake_devprof_free(dp);
}

static void test_bad_config(void **state) {
  (void)state;
  sl_rt_config cfg = {50000000, 0, 0, 2, 0, NULL, 0, 0, 0, SL_RT_TMR, 0, NULL, 0};
  assert_null(sl_rt_create(&cfg));
  assert_non_null(strstr(sl_rt_config_error(), "core counts"));
  cfg.num_aic = 2;
  cfg.num_sched = 0;
  assert_null(sl_rt_create(&cfg));
  assert_non_null(strstr(sl_rt_config_error(), "scheduler threads"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tensormap_overlap), cmocka_unit_test(test_tensormap_readers),
      cmocka_unit_test(test_tensormap_prune),
      cmocka_unit_test(test_readyq_blocks),
      cmocka_unit_test(test_run_level4),        cmocka_unit_test(test_run_levels),
      cmocka_unit_test(test_run_level4_virtual), cmocka_unit_test(test_virtual_deterministic),
      cmocka_unit_test(test_run_full_chip),     cmocka_unit_test(test_run_many_writers),
      cmocka_unit_test(test_run_random_dag),    cmocka_unit_test(test_bad_config),
      cmocka_unit_test(test_ring_budget_per_ring),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
