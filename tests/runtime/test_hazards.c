/*
** test_hazards.c — the tensormap orders every hazard: thousands of random DAGs of
** reads and writes over a few shared 8x8 buffers (full rows, row blocks, column
** slices with holes: partial overlaps, views, strided slices), run on the simulated
** chip of each sim platform with a tiny ring, compared exactly with a sequential
** evaluation. Any missing RAW, WAR or WAW order shows as a wrong element when the
** timing is unlucky, and always in the recorded graph: every pair of really
** conflicting tasks must be ordered (transitively), each edge with its hazard kind.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rt_test_view.h"
#include "sl_platforms.h"
#include "sl_runtime.h"
#include "sl_tensormap.h"

enum { HZ_BUFS = 3, HZ_DIM = 8, HZ_TASKS = 24, HZ_GRAPHS = 1500 };

typedef struct hz_view { int buf, r0, c0; } hz_view;
/* inout: o is declared inout (the kernel still only writes it): the same hazards, an
** inout meeting a writer is RAW */
typedef struct hz_task { hz_view a, b, o; int rows, cols, blocks, mul, inout; } hz_task;

typedef struct hz_graph {
  unsigned seed;
  hz_task t[HZ_TASKS];
  sl_rt_buffer *bufs[HZ_BUFS];
} hz_graph;

static unsigned next(unsigned *s) {
  *s = *s * 1103515245u + 12345u;
  return *s >> 8;
}

static hz_view pick(unsigned *s, int buf, int rows, int cols) {
  hz_view v = {buf, (int)(next(s) % (unsigned)(HZ_DIM - rows + 1)), (int)(next(s) % (unsigned)(HZ_DIM - cols + 1))};
  return v;
}

/* o = a + b or a * b over rows x cols; o's buffer differs from a's and b's so a task
** never overlaps itself (element order inside a kernel is not part of the test). */
static void make_graph(hz_graph *g) {
  unsigned *s = &g->seed;
  for (int k = 0; k < HZ_TASKS; k++) {
    hz_task *t = &g->t[k];
    t->rows = 1 + (int)(next(s) % HZ_DIM);
    t->cols = next(s) % 3 == 0 ? HZ_DIM : 1 + (int)(next(s) % HZ_DIM); /* often whole rows: dense */
    int ob = (int)(next(s) % HZ_BUFS), ab = (ob + 1 + (int)(next(s) % (HZ_BUFS - 1))) % HZ_BUFS,
        bb = (ob + 1 + (int)(next(s) % (HZ_BUFS - 1))) % HZ_BUFS;
    t->a = pick(s, ab, t->rows, t->cols);
    t->b = pick(s, bb, t->rows, t->cols);
    t->o = pick(s, ob, t->rows, t->cols);
    t->blocks = t->rows > 1 && next(s) % 4 == 0 ? 2 : 1;
    t->mul = next(s) % 5 == 0;
    t->inout = next(s) % 4 == 0;
  }
}

static float init_value(int b, int i) { return (float)(1 + (b * 7 + i) % 5); }

static sl_rt_tensor view(sl_rt_buffer *b, hz_view v, int rows, int cols) {
  return rt_test_view(b, rows, cols, HZ_DIM, v.r0 * HZ_DIM + v.c0);
}

static int hz_orch(void *p, sl_rt *rt) {
  hz_graph *g = p;
  for (int b = 0; b < HZ_BUFS; b++) {
    g->bufs[b] = sl_rt_buffer_new(rt, HZ_DIM * HZ_DIM * sizeof(float));
    if (!g->bufs[b]) return -1;
    for (int i = 0; i < HZ_DIM * HZ_DIM; i++) ((float *)g->bufs[b]->data)[i] = init_value(b, i);
  }
  static const sl_arg_dir dirs[2][3] = {{SL_ARG_IN, SL_ARG_IN, SL_ARG_OUT}, {SL_ARG_IN, SL_ARG_IN, SL_ARG_INOUT}};
  for (int k = 0; k < HZ_TASKS; k++) {
    const hz_task *t = &g->t[k];
    sl_rt_tensor args[3] = {view(g->bufs[t->a.buf], t->a, t->rows, t->cols),
                            view(g->bufs[t->b.buf], t->b, t->rows, t->cols),
                            view(g->bufs[t->o.buf], t->o, t->rows, t->cols)};
    sl_rt_submit s;
    memset(&s, 0, sizeof s);
    s.kernel_ids[0] = s.kernel_ids[2] = -1;
    s.kernel_ids[1] = t->mul;
    s.fns[1] = sl_kernel_find(t->mul ? "mul" : "add");
    s.tensors = args;
    s.dirs = dirs[t->inout];
    s.ntensors = 3;
    s.block_num = t->blocks;
    s.predicate = 1;
    if (sl_rt_submit_task(rt, &s) == UINT64_MAX) return -1;
  }
  return 0;
}

static void sequential(const hz_graph *g, float ref[HZ_BUFS][HZ_DIM * HZ_DIM]) {
  for (int b = 0; b < HZ_BUFS; b++)
    for (int i = 0; i < HZ_DIM * HZ_DIM; i++) ref[b][i] = init_value(b, i);
  for (int k = 0; k < HZ_TASKS; k++) {
    const hz_task *t = &g->t[k];
    for (int r = 0; r < t->rows; r++)
      for (int c = 0; c < t->cols; c++) {
        float x = ref[t->a.buf][(t->a.r0 + r) * HZ_DIM + t->a.c0 + c];
        float y = ref[t->b.buf][(t->b.r0 + r) * HZ_DIM + t->b.c0 + c];
        ref[t->o.buf][(t->o.r0 + r) * HZ_DIM + t->o.c0 + c] = t->mul ? x * y : x + y;
      }
  }
}

/* Rows x cols at (r0, c0) of two views intersect: a real element-level conflict. */
static int intersects(hz_view a, hz_view b, int rows_a, int cols_a, int rows_b, int cols_b) {
  return a.buf == b.buf && a.r0 < b.r0 + rows_b && b.r0 < a.r0 + rows_a && a.c0 < b.c0 + cols_b &&
         b.c0 < a.c0 + cols_a;
}

/* Timing-free: the recorded graph orders every pair of tasks whose accesses really
** conflict (some element written by one and read or written by the other), directly
** or through other tasks, and each tensormap edge's kind is what the two accesses
** are: the consumer reads (RAW from a writer), or writes after a writer (WAW) or a
** reader (WAR). A missed order here is a wrong answer waiting for unlucky timing. */
static void check_graph(const char *name, unsigned seed, const hz_graph *g, const sl_rt *rt) {
  uint32_t reach[HZ_TASKS]; /* reach[j]: the tasks j waits for, transitively */
  memset(reach, 0, sizeof reach);
  for (size_t e = 0; e < sl_rt_edge_count(rt); e++) {
    const sl_rt_edge *x = sl_rt_edge_at(rt, e);
    assert_true(x->pred < x->succ && x->succ < HZ_TASKS);
    assert_int_equal(x->source, 2);
    int want = x->arg < 2 || (x->prod_arg == 2 && g->t[x->succ].inout) ? SL_TM_RAW
               : x->prod_arg == 2                                        ? SL_TM_WAW
                                                                         : SL_TM_WAR;
    if (x->hazard != want)
      fail_msg("%s graph %u: edge %llu>%llu (arg %d, producer arg %d) kind %d, expected %d", name, seed,
               (unsigned long long)x->pred, (unsigned long long)x->succ, x->arg, x->prod_arg, x->hazard, want);
    const hz_task *p = &g->t[x->pred], *c = &g->t[x->succ];
    const hz_view *pv = x->prod_arg == 0 ? &p->a : x->prod_arg == 1 ? &p->b : &p->o;
    const hz_view *cv = x->arg == 0 ? &c->a : x->arg == 1 ? &c->b : &c->o;
    assert_int_equal(pv->buf, cv->buf); /* an edge joins accesses of one buffer */
  }
  for (int j = 0; j < HZ_TASKS; j++) /* edges point backwards: close in submit order */
    for (size_t e = 0; e < sl_rt_edge_count(rt); e++) {
      const sl_rt_edge *x = sl_rt_edge_at(rt, e);
      if ((int)x->succ == j) reach[j] |= (1u << x->pred) | reach[x->pred];
    }
  for (int j = 0; j < HZ_TASKS; j++)
    for (int i = 0; i < j; i++) {
      const hz_task *a = &g->t[i], *b = &g->t[j];
      const hz_view *ra[2] = {&a->a, &a->b}, *rb[2] = {&b->a, &b->b};
      int conflict = intersects(a->o, b->o, a->rows, a->cols, b->rows, b->cols); /* WAW */
      for (int k = 0; k < 2; k++)
        conflict |= intersects(a->o, *rb[k], a->rows, a->cols, b->rows, b->cols) || /* RAW */
                    intersects(*ra[k], b->o, a->rows, a->cols, b->rows, b->cols);   /* WAR */
      if (conflict && !(reach[j] & (1u << i)))
        fail_msg("%s graph %u: tasks %d and %d conflict but are not ordered", name, seed, i, j);
    }
}

static void run_platform(const char *name, int runtime, unsigned graphs) {
  const sl_platform_info *pl = sl_platform_by_name(name);
  assert_non_null(pl);
  for (unsigned seed = 1; seed <= graphs; seed++) {
    /* tiny pools: a 4-slot ring (TMR), 1 AIC + 3 AIV, 2 schedulers (+ the HBG P thread) */
    sl_rt_config cfg = {pl->clock_freq_hz, 1, 3, 2, 0, NULL, 4, 1, 0, runtime, 0, NULL, 0}; /* + dep_gen */
    sl_rt *rt = sl_rt_create(&cfg);
    assert_non_null(rt);
    hz_graph g;
    memset(&g, 0, sizeof g);
    g.seed = seed;
    make_graph(&g);
    assert_int_equal(sl_rt_run(rt, hz_orch, &g), 0);
    check_graph(name, seed, &g, rt);
    float ref[HZ_BUFS][HZ_DIM * HZ_DIM];
    sequential(&g, ref);
    for (int b = 0; b < HZ_BUFS; b++)
      for (int i = 0; i < HZ_DIM * HZ_DIM; i++) {
        float got = ((const float *)g.bufs[b]->data)[i];
        if (got != ref[b][i])
          fail_msg("%s graph %u: buffer %d element %d = %g, sequential %g", name, seed, b, i, got, ref[b][i]);
      }
    sl_rt_destroy(rt);
  }
}

static void test_random_hazards_a2a3sim(void **state) {
  (void)state;
  run_platform("a2a3sim", SL_RT_TMR, HZ_GRAPHS);
}

static void test_random_hazards_a5sim(void **state) {
  (void)state;
  run_platform("a5sim", SL_RT_TMR, HZ_GRAPHS);
}

/* host_build_graph: the same graphs built on the host first, resolved on the P thread */
static void test_random_hazards_hbg(void **state) {
  (void)state;
  run_platform("a2a3sim", SL_RT_HBG, HZ_GRAPHS / 3);
  run_platform("a5sim", SL_RT_HBG, HZ_GRAPHS / 3);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_random_hazards_a2a3sim),
      cmocka_unit_test(test_random_hazards_a5sim),
      cmocka_unit_test(test_random_hazards_hbg),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
