/*
** pa_pv.c — paged attention PV stage, AIC: O = P @ V over the valid keys.
** args: 0 P in [q x L], 1 V in [L x d], 2 context_lens in (int32), 3 O out [q x d];
** scalars 4 n_blocks (0 = read context_lens), 5 batch, 6 block_size.
*/
#include "sl_kernel_lib.h"

void kernel_entry(int64_t *args) {
  int64_t len = sl_kl_pa_len(args, 2, 4, 5, 6);
  sl_kl_matmul(args, sl_tensor_view2d(sl_arg_tensor(args, 0)), sl_tensor_view2d(sl_arg_tensor(args, 1)),
               sl_tensor_view2d(sl_arg_tensor(args, 3)), 0, len);
}
