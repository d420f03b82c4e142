/*
** pa_qk.c — paged attention QK stage, AIC: S = Q @ K^T * scale over the batch's valid keys.
** args: 0 Q in [q x d], 1 K in [L x d], 2 context_lens in (int32 [batch]), 3 S out [q x L];
** scalars 4 n_blocks (0 = read context_lens), 5 batch, 6 block_size, 7 scale (float32 bits).
** Key blocks are walked one block_size at a time (the loop count of the replay).
*/
#include "sl_kernel_lib.h"

void kernel_entry(int64_t *args) {
  int64_t len = sl_kl_pa_len(args, 2, 4, 5, 6), bs = (int64_t)sl_arg_u64(args, 6);
  sl_view2d q = sl_tensor_view2d(sl_arg_tensor(args, 0));
  sl_view2d k = sl_tensor_view2d(sl_arg_tensor(args, 1));
  sl_view2d s = sl_tensor_view2d(sl_arg_tensor(args, 3));
  float scale = sl_arg_f32(args, 7);
  for (int64_t b0 = 0; b0 < len && b0 < s.cols; b0 += bs) {
    int64_t n = len - b0 < bs ? len - b0 : bs;
    sl_view2d kb = k, sb = s;
    kb.base += (size_t)(b0 * k.ld) * k.es;
    kb.rows = n;
    sb.base += (size_t)b0 * s.es;
    sb.cols = n;
    sl_kl_matmul(args, q, kb, sb, 1, 0);
  }
  float *ub = sl_local(SL_MEM_UB);
  for (int64_t r = 0; r < s.rows; r++) {
    float *row = (float *)s.base + r * s.ld;
    int64_t n = len < s.cols ? len : s.cols;
    sl_copy_gm_to_ub(ub, row, (size_t)n * 4);
    sl_vmuls(ub, ub, scale, (int)n);
    sl_copy_ub_to_gm(row, ub, (size_t)n * 4);
  }
}
