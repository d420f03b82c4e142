/*
** test_kernels.c — the shipped kernels on host memory against plain loops, SPMD and
** sub-block splits, and the pipe tracer hook the L0 replay relies on.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "sl_kernel_api.h"
#include "sl_kernels.h"

static sl_tensor_desc *desc2d(float *data, int rows, int cols, int ld) {
  sl_tensor_desc *d = aligned_alloc(64, sizeof *d);
  memset(d, 0, sizeof *d);
  d->addr = (uint64_t)(uintptr_t)data;
  d->size = (uint64_t)rows * ld * 4;
  d->ndims = 2;
  d->dtype = 0;
  d->shapes[0] = (uint32_t)rows;
  d->shapes[1] = (uint32_t)cols;
  d->strides[0] = (uint32_t)ld;
  d->strides[1] = 1;
  d->is_contiguous = ld == cols;
  return d;
}

static float frand(unsigned *s) {
  *s = *s * 1103515245u + 12345u;
  return (float)((*s >> 8) & 0xFFFF) / 65536.0f - 0.5f;
}

static void call(const char *name, int64_t *args) {
  sl_kernel_fn fn = sl_kernel_find(name);
  assert_non_null(fn);
  fn(args);
}

static void test_lookup(void **state) {
  (void)state;
  assert_non_null(sl_kernel_find("matmul"));
  assert_non_null(sl_kernel_find("runtime/kernels/matmul.c"));
  assert_non_null(sl_kernel_find("pa_qk.c"));
  assert_null(sl_kernel_find("runtime/kernels/nope.c"));
  assert_null(sl_kernel_find("matmu"));
  int n = 0;
  while (sl_kernel_name(n)) n++;
  assert_true(n >= 13);
}

/* Tiles that do not divide the sizes, a strided (view) output. */
static void test_matmul(void **state) {
  (void)state;
  enum { M = 37, K = 150, N = 70, LDC = 80 };
  unsigned seed = 1;
  float *a = malloc(M * K * 4), *b = malloc(K * N * 4), *c = calloc(M * LDC, 4);
  for (int i = 0; i < M * K; i++) a[i] = frand(&seed);
  for (int i = 0; i < K * N; i++) b[i] = frand(&seed);
  int64_t args[SL_ARG_SLOTS] = {0};
  sl_tensor_desc *da = desc2d(a, M, K, K), *db = desc2d(b, K, N, N), *dc = desc2d(c, M, N, LDC);
  args[0] = (int64_t)(uintptr_t)da;
  args[1] = (int64_t)(uintptr_t)db;
  args[2] = (int64_t)(uintptr_t)dc;
  call("matmul", args);
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      double s = 0;
      for (int p = 0; p < K; p++) s += (double)a[i * K + p] * b[p * N + j];
      assert_float_equal(c[i * LDC + j], s, 1e-3);
    }
  for (int i = 0; i < M; i++) assert_float_equal(c[i * LDC + N], 0.0, 0.0); /* past the view */
  free(a), free(b), free(c), free(da), free(db), free(dc);
}

/* SPMD: each block writes only its rows; all blocks together give the whole result. */
static void test_add_spmd_blocks(void **state) {
  (void)state;
  enum { R = 10, C = 33 };
  float a[R * C], b[R * C], o[R * C];
  for (int i = 0; i < R * C; i++) a[i] = (float)i, b[i] = 2.0f * i, o[i] = -1.0f;
  sl_tensor_desc *da = desc2d(a, R, C, C), *db = desc2d(b, R, C, C), *dout = desc2d(o, R, C, C);
  int64_t args[SL_ARG_SLOTS] = {(int64_t)(uintptr_t)da, (int64_t)(uintptr_t)db, (int64_t)(uintptr_t)dout};
  sl_local_context lc = {0, 3};
  args[SL_SPMD_LOCAL_CONTEXT_INDEX] = (int64_t)(uintptr_t)&lc;
  call("add", args); /* block 0 of 3: rows 0..2 */
  for (int i = 0; i < R * C; i++) assert_float_equal(o[i], i < 3 * C ? 3.0f * i : -1.0f, 0.0);
  lc.block_idx = 1;
  call("add", args);
  lc.block_idx = 2;
  call("add", args);
  for (int i = 0; i < R * C; i++) assert_float_equal(o[i], 3.0f * i, 0.0);
  lc.block_idx = 0;
  lc.block_num = 1;
  call("mul", args);
  for (int i = 0; i < R * C; i++) assert_float_equal(o[i], 2.0f * i * i, 1e-3 * i * i);
  free(da), free(db), free(dout);
}

/* add_lanes: the two AIV lanes of a block split its rows by sub_block_id. */
static void test_add_lanes(void **state) {
  (void)state;
  enum { R = 8, C = 4 };
  float a[R * C], b[R * C], o[R * C];
  for (int i = 0; i < R * C; i++) a[i] = 1.0f, b[i] = (float)i, o[i] = 0.0f;
  sl_tensor_desc *da = desc2d(a, R, C, C), *db = desc2d(b, R, C, C), *dout = desc2d(o, R, C, C);
  int64_t args[SL_ARG_SLOTS] = {0};
  args[3] = (int64_t)(uintptr_t)da;
  args[4] = (int64_t)(uintptr_t)db;
  args[5] = (int64_t)(uintptr_t)dout;
  sl_local_context lc = {1, 2}; /* block 1 of 2: rows 4..7 */
  sl_global_context gc = {1};   /* lane 1: rows 6..7 */
  args[SL_SPMD_LOCAL_CONTEXT_INDEX] = (int64_t)(uintptr_t)&lc;
  args[SL_SPMD_GLOBAL_CONTEXT_INDEX] = (int64_t)(uintptr_t)&gc;
  call("add_lanes", args);
  for (int i = 0; i < R * C; i++) assert_float_equal(o[i], i >= 6 * C ? 1.0f + i : 0.0f, 0.0);
  free(da), free(db), free(dout);
}

static void test_softmax_and_spin(void **state) {
  (void)state;
  enum { R = 3, C = 17 };
  float x[R * C], y[R * C];
  for (int i = 0; i < R * C; i++) x[i] = (float)(i % 7) - 3.0f;
  sl_tensor_desc *dx = desc2d(x, R, C, C), *dy = desc2d(y, R, C, C);
  int64_t args[SL_ARG_SLOTS] = {(int64_t)(uintptr_t)dx, (int64_t)(uintptr_t)dy};
  call("softmax", args);
  for (int r = 0; r < R; r++) {
    double mx = -1e30, sum = 0, got = 0;
    for (int c = 0; c < C; c++) mx = fmax(mx, x[r * C + c]);
    for (int c = 0; c < C; c++) sum += exp(x[r * C + c] - mx);
    for (int c = 0; c < C; c++) {
      assert_float_equal(y[r * C + c], exp(x[r * C + c] - mx) / sum, 1e-6);
      got += y[r * C + c];
    }
    assert_float_equal(got, 1.0, 1e-5);
  }
  int64_t cnt[2] = {5, 0};
  sl_tensor_desc *dc = desc2d((float *)cnt, 1, 2, 2);
  dc->dtype = 7; /* INT64 */
  int64_t sargs[SL_ARG_SLOTS] = {(int64_t)(uintptr_t)dc, 1000};
  call("spin", sargs);
  assert_int_equal(cnt[0], 1005);
  assert_int_equal(cnt[1], 0);
  free(dx), free(dy), free(dc);
}

/* The tracer sees every intrinsic with its pipe and call site. */
typedef struct tally {
  int n[SL_PIPE_COUNT];
  int mmad, fix, gm_to_l1, l1_to_l0, with_line;
} tally;

static void on_instr(void *ctx, const sl_instr *ins) {
  tally *t = ctx;
  t->n[ins->pipe]++;
  if (!strcmp(ins->mnemonic, "MMAD")) t->mmad++;
  if (!strcmp(ins->mnemonic, "FIX_L0C_TO_DST")) t->fix++;
  if (!strcmp(ins->mnemonic, "LOAD_GM_TO_L1")) t->gm_to_l1 += ins->pipe == SL_PIPE_MTE2;
  if (!strcmp(ins->mnemonic, "LOAD_2D")) t->l1_to_l0 += ins->pipe == SL_PIPE_MTE1;
  if (ins->file && ins->line > 0) t->with_line++;
}

static void test_tracer(void **state) {
  (void)state;
  enum { M = 16, K = 128, N = 64 }; /* exactly one tile */
  float *a = calloc(M * K, 4), *b = calloc(K * N, 4), *c = calloc(M * N, 4);
  sl_tensor_desc *da = desc2d(a, M, K, K), *db = desc2d(b, K, N, N), *dc = desc2d(c, M, N, N);
  int64_t args[SL_ARG_SLOTS] = {(int64_t)(uintptr_t)da, (int64_t)(uintptr_t)db, (int64_t)(uintptr_t)dc};
  tally t;
  memset(&t, 0, sizeof t);
  sl_pipe_tracer tr = {on_instr, &t};
  sl_set_pipe_tracer(&tr);
  call("matmul", args);
  sl_set_pipe_tracer(NULL);
  assert_int_equal(t.mmad, 1);
  assert_int_equal(t.fix, M);          /* one write-back per output row */
  assert_int_equal(t.gm_to_l1, M + K); /* A rows + B rows into L1 */
  assert_int_equal(t.l1_to_l0, 2);
  assert_int_equal(t.n[SL_PIPE_CUBE], 1 + 1 + 1); /* wait(MTE1->CUBE), MMAD, set(CUBE->FIXP) */
  assert_true(t.n[SL_PIPE_SCALAR] > 0);
  int total = 0;
  for (int p = 0; p < SL_PIPE_COUNT; p++) total += t.n[p];
  assert_int_equal(t.with_line, total);
  /* no tracer: nothing is reported */
  memset(&t, 0, sizeof t);
  call("matmul", args);
  assert_int_equal(t.mmad, 0);
  free(a), free(b), free(c), free(da), free(db), free(dc);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lookup),           cmocka_unit_test(test_matmul),
      cmocka_unit_test(test_add_spmd_blocks),  cmocka_unit_test(test_add_lanes),
      cmocka_unit_test(test_softmax_and_spin), cmocka_unit_test(test_tracer),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
