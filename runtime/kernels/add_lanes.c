/*
** add_lanes.c — AIV member of an SPMD MIX task: out = a + b (float32) over this
** block's rows, split again between the cluster's two AIV lanes by sub_block_id
** (both lanes run this same source). args: 3 a in, 4 b in, 5 out.
*/
#include "sl_kernel_lib.h"

void kernel_entry(int64_t *args) {
  sl_view2d a = sl_tensor_view2d(sl_arg_tensor(args, 3));
  sl_view2d b = sl_tensor_view2d(sl_arg_tensor(args, 4));
  sl_view2d o = sl_tensor_view2d(sl_arg_tensor(args, 5));
  int64_t r0, r1;
  sl_kl_block_rows(args, o.rows, &r0, &r1);
  int lane = sl_get_sub_block_id(args);
  int64_t mid = r0 + (r1 - r0) / 2, l0 = lane ? mid : r0, l1 = lane ? r1 : mid;
  float *ub = sl_local(SL_MEM_UB), *ub2 = ub + o.cols;
  for (int64_t r = l0; r < l1; r++) {
    int n = (int)o.cols;
    sl_copy_gm_to_ub(ub, (float *)a.base + r * a.ld, (size_t)n * 4);
    sl_copy_gm_to_ub(ub2, (float *)b.base + r * b.ld, (size_t)n * 4);
    sl_vadd(ub, ub, ub2, n);
    sl_copy_ub_to_gm((float *)o.base + r * o.ld, ub, (size_t)n * 4);
  }
}
