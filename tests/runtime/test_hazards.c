/*
** test_hazards.c — the tensormap orders every hazard: thousands of random DAGs of
** reads and writes over a few shared 8x8 buffers (full rows, row blocks, column
** slices with holes: partial overlaps, views, strided slices), run on the simulated
** chip of each sim platform with a tiny ring, compared exactly with a sequential
** evaluation. Any missing RAW, WAR or WAW order shows as a wrong element.
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

enum { HZ_BUFS = 3, HZ_DIM = 8, HZ_TASKS = 24, HZ_GRAPHS = 1500 };

typedef struct hz_view { int buf, r0, c0; } hz_view;
typedef struct hz_task { hz_view a, b, o; int rows, cols, blocks, mul; } hz_task;

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
  static const sl_arg_dir dirs[3] = {SL_ARG_IN, SL_ARG_IN, SL_ARG_OUT};
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
    s.dirs = dirs;
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

static void run_platform(const char *name, int runtime, unsigned graphs) {
  const sl_platform_info *pl = sl_platform_by_name(name);
  assert_non_null(pl);
  for (unsigned seed = 1; seed <= graphs; seed++) {
    /* tiny pools: a 4-slot ring (TMR), 1 AIC + 3 AIV, 2 schedulers (+ the HBG P thread) */
    sl_rt_config cfg = {pl->clock_freq_hz, 1, 3, 2, 0, NULL, 4, 0, 0, runtime, 0, NULL, 0};
    sl_rt *rt = sl_rt_create(&cfg);
    assert_non_null(rt);
    hz_graph g;
    memset(&g, 0, sizeof g);
    g.seed = seed;
    make_graph(&g);
    assert_int_equal(sl_rt_run(rt, hz_orch, &g), 0);
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
