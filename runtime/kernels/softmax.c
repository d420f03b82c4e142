/*
** softmax.c — AIV: row-wise softmax, float32. args: 0 x in [r x c], 1 y out [r x c].
*/
#include "sl_kernel_lib.h"

void kernel_entry(int64_t *args) {
  sl_view2d x = sl_tensor_view2d(sl_arg_tensor(args, 0));
  sl_view2d y = sl_tensor_view2d(sl_arg_tensor(args, 1));
  float *ub = sl_local(SL_MEM_UB);
  int64_t r0, r1;
  sl_kl_block_rows(args, x.rows, &r0, &r1);
  for (int64_t r = r0; r < r1; r++) {
    int n = (int)x.cols;
    sl_copy_gm_to_ub(ub, (float *)x.base + r * x.ld, (size_t)n * 4);
    float mx = sl_vreduce_max(ub, n);
    sl_vadds(ub, ub, -mx, n);
    sl_vexp(ub, ub, n);
    float sum = sl_vreduce_sum(ub, n);
    sl_vmuls(ub, ub, 1.0f / sum, n);
    sl_copy_ub_to_gm((float *)y.base + r * y.ld, ub, (size_t)n * 4);
  }
}
