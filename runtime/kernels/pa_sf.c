/*
** pa_sf.c — paged attention SF stage, AIV: P = softmax(S) over the valid keys, 0 beyond;
** l = row sums before normalisation are not kept (P is normalised).
** args: 0 S in [q x L], 1 context_lens in (int32), 2 P out [q x L];
** scalars 3 n_blocks (0 = read context_lens), 4 batch, 5 block_size.
*/
#include "sl_kernel_lib.h"

void kernel_entry(int64_t *args) {
  int64_t len = sl_kl_pa_len(args, 1, 3, 4, 5);
  sl_view2d s = sl_tensor_view2d(sl_arg_tensor(args, 0));
  sl_view2d p = sl_tensor_view2d(sl_arg_tensor(args, 2));
  float *ub = sl_local(SL_MEM_UB);
  if (len > s.cols) len = s.cols;
  for (int64_t r = 0; r < s.rows; r++) {
    int n = (int)len, all = (int)s.cols;
    for (int c = 0; c < all; c++) ub[c] = 0.0f;
    if (n > 0) {
      sl_copy_gm_to_ub(ub, (float *)s.base + r * s.ld, (size_t)n * 4);
      float mx = sl_vreduce_max(ub, n);
      sl_vadds(ub, ub, -mx, n);
      sl_vexp(ub, ub, n);
      float sum = sl_vreduce_sum(ub, n);
      sl_vmuls(ub, ub, 1.0f / sum, n);
    }
    sl_copy_ub_to_gm((float *)p.base + r * p.ld, ub, (size_t)all * 4);
  }
}
