/*
** pa_up.c — paged attention UP stage, AIV: Out += O * w (head-group accumulation).
** args: 0 O in [q x d], 1 Out inout [q x d]; scalar 2 w (float32 bits).
*/
#include "sl_kernel_lib.h"

void kernel_entry(int64_t *args) {
  sl_view2d o = sl_tensor_view2d(sl_arg_tensor(args, 0));
  sl_view2d out = sl_tensor_view2d(sl_arg_tensor(args, 1));
  float w = sl_arg_f32(args, 2);
  float *ub = sl_local(SL_MEM_UB), *acc = ub + o.cols;
  for (int64_t r = 0; r < o.rows; r++) {
    int n = (int)o.cols;
    sl_copy_gm_to_ub(ub, (float *)o.base + r * o.ld, (size_t)n * 4);
    sl_copy_gm_to_ub(acc, (float *)out.base + r * out.ld, (size_t)n * 4);
    sl_vmuls(ub, ub, w, n);
    sl_vadd(acc, acc, ub, n);
    sl_copy_ub_to_gm((float *)out.base + r * out.ld, acc, (size_t)n * 4);
  }
}
