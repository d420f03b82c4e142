/*
** sl_kernel_lib.h — tile loops shared by the shipped kernels, written on the
** intrinsic API (static inline so each kernel stays one self-contained C file).
** Each helper a kernel calls is a macro passing the kernel's call site, so the
** intrinsics inside report the kernel's line (and their own as lib_line).
*/
#ifndef SL_KERNEL_LIB_H
#define SL_KERNEL_LIB_H

#include "sl_kernel_api.h"
#include "sl_kernel_tiles.h"

/* Rows [*r0, *r1) of `rows` that SPMD block `args` handles (all rows when block_num == 1). */
static inline void sl_kl_block_rows(const int64_t *args, int64_t rows, int64_t *r0, int64_t *r1) {
  int64_t bi = sl_get_block_idx(args), bn = sl_get_block_num(args);
  *r0 = rows * bi / bn;
  *r1 = rows * (bi + 1) / bn;
}

/* out = a (op) b, float32, element-wise over this block's rows; staged through UB. */
#define sl_kl_binary(...) sl_kl_binary_at(__FILE__, __LINE__, __VA_ARGS__)
static inline void sl_kl_binary_at(const char *file, int line, const int64_t *args, int sa, int sb, int so,
                                   sl_vop op) {
  sl_site_enter(file, line);
  sl_view2d a = sl_tensor_view2d(sl_arg_tensor(args, sa));
  sl_view2d b = sl_tensor_view2d(sl_arg_tensor(args, sb));
  sl_view2d o = sl_tensor_view2d(sl_arg_tensor(args, so));
  float *ub = sl_local(SL_MEM_UB);
  int64_t chunk = (int64_t)(sl_local_size(SL_MEM_UB) / sizeof(float) / 3);
  float *ua = ub, *ubb = ub + chunk, *uo = ub + 2 * chunk;
  int64_t r0, r1;
  sl_kl_block_rows(args, o.rows, &r0, &r1);
  for (int64_t r = r0; r < r1; r++) {
    for (int64_t c0 = 0; c0 < o.cols; c0 += chunk) {
      int64_t n = o.cols - c0 < chunk ? o.cols - c0 : chunk;
      sl_scalar(2);
      sl_copy_gm_to_ub(ua, (float *)a.base + r * a.ld + c0, (size_t)n * sizeof(float));
      sl_copy_gm_to_ub(ubb, (float *)b.base + r * b.ld + c0, (size_t)n * sizeof(float));
      sl_set_flag(SL_PIPE_MTE2, SL_PIPE_VECTOR, 0);
      sl_wait_flag(SL_PIPE_MTE2, SL_PIPE_VECTOR, 0);
      sl_vbinary_at(op, uo, ua, ubb, (int)n, __FILE__, __LINE__);
      sl_set_flag(SL_PIPE_VECTOR, SL_PIPE_MTE3, 0);
      sl_wait_flag(SL_PIPE_VECTOR, SL_PIPE_MTE3, 0);
      sl_copy_ub_to_gm((float *)o.base + r * o.ld + c0, uo, (size_t)n * sizeof(float));
    }
  }
  sl_site_leave();
}

/* c = a @ b (float32; b transposed when trans_b), rows of c split across SPMD blocks,
** staged GM -> L1 -> L0A/L0B, MMAD into L0C, FIXP write-back. `k_limit` (>0) caps the
** inner dimension (paged attention's valid length). */
#define sl_kl_matmul(...) sl_kl_matmul_at(__FILE__, __LINE__, __VA_ARGS__)
static inline void sl_kl_matmul_at(const char *file, int line, const int64_t *args, sl_view2d a, sl_view2d b,
                                   sl_view2d c, int trans_b, int64_t k_limit) {
  sl_site_enter(file, line);
  enum { TM = SL_KL_TILE_M, TN = SL_KL_TILE_N, TK = SL_KL_TILE_K };
  float *l1a = sl_local(SL_MEM_L1), *l1b = l1a + TM * TK;
  float *l0a = sl_local(SL_MEM_L0A), *l0b = sl_local(SL_MEM_L0B), *l0c = sl_local(SL_MEM_L0C);
  int64_t m = c.rows, n = c.cols, k = a.cols;
  if (k_limit > 0 && k_limit < k) k = k_limit;
  int64_t r0, r1;
  sl_kl_block_rows(args, m, &r0, &r1);
  for (int64_t i0 = r0; i0 < r1; i0 += TM) {
    int tm = (int)(r1 - i0 < TM ? r1 - i0 : TM);
    for (int64_t j0 = 0; j0 < n; j0 += TN) {
      int tn = (int)(n - j0 < TN ? n - j0 : TN);
      for (int64_t p0 = 0; p0 < k; p0 += TK) {
        int tk = (int)(k - p0 < TK ? k - p0 : TK);
        sl_scalar(4);
        for (int i = 0; i < tm; i++)
          sl_copy_gm_to_l1(l1a + i * tk, (float *)a.base + (i0 + i) * a.ld + p0, (size_t)tk * 4);
        if (!trans_b) {
          for (int p = 0; p < tk; p++)
            sl_copy_gm_to_l1(l1b + p * tn, (float *)b.base + (p0 + p) * b.ld + j0, (size_t)tn * 4);
        } else {
          /* b is n x k: gather column-wise into a k x n tile (the transposing load). */
          for (int j = 0; j < tn; j++) {
            const float *src = (float *)b.base + (j0 + j) * b.ld + p0;
            for (int p = 0; p < tk; p++) l1b[p * tn + j] = src[p];
          }
          sl_copy_at(SL_PIPE_MTE2, "LOAD_GM_TO_L1_T", l1b, l1b, (size_t)tk * tn * 4, __FILE__,
                     __LINE__);
        }
        sl_set_flag(SL_PIPE_MTE2, SL_PIPE_MTE1, 0);
        sl_wait_flag(SL_PIPE_MTE2, SL_PIPE_MTE1, 0);
        sl_copy_l1_to_l0(l0a, l1a, (size_t)tm * tk * 4);
        sl_copy_l1_to_l0(l0b, l1b, (size_t)tk * tn * 4);
        sl_set_flag(SL_PIPE_MTE1, SL_PIPE_CUBE, 0);
        sl_wait_flag(SL_PIPE_MTE1, SL_PIPE_CUBE, 0);
        sl_mmad(l0c, l0a, l0b, tm, tk, tn, p0 > 0);
      }
      if (k == 0)
        for (int q = 0; q < tm * tn; q++) l0c[q] = 0.0f;
      sl_set_flag(SL_PIPE_CUBE, SL_PIPE_FIXP, 0);
      sl_wait_flag(SL_PIPE_CUBE, SL_PIPE_FIXP, 0);
      for (int i = 0; i < tm; i++)
        sl_fix_l0c_to_gm((float *)c.base + (i0 + i) * c.ld + j0, l0c + i * tn, (size_t)tn * 4);
    }
  }
  sl_site_leave();
}

/* Valid key length of batch `b` for paged attention: the scalar n_blocks * block_size
** when n_blocks > 0, else read from the int32 context_lens control tensor. */
#define sl_kl_pa_len(...) sl_kl_pa_len_at(__FILE__, __LINE__, __VA_ARGS__)
static inline int64_t sl_kl_pa_len_at(const char *file, int line, const int64_t *args, int ctx_slot, int nb_slot,
                                      int batch_slot, int bs_slot) {
  int64_t nb = (int64_t)sl_arg_u64(args, nb_slot), bs = (int64_t)sl_arg_u64(args, bs_slot);
  if (nb > 0) return nb * bs;
  const int32_t *ctx = sl_tensor_data(sl_arg_tensor(args, ctx_slot));
  sl_site_enter(file, line);
  sl_scalar(3);
  sl_site_leave();
  return ctx[sl_arg_u64(args, batch_slot)];
}

#endif /* SL_KERNEL_LIB_H */

/* The prototype of the including kernel's entry, outside the guard on purpose: the
** build renames kernel_entry per kernel (-Dkernel_entry=sl_kernel_<name>), and the L0
** replay #includes several kernels into one file, each under its own name. */
void kernel_entry(int64_t *args);
