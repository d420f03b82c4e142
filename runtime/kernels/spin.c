/*
** spin.c — AIV or AIC: busy work for scheduling studies. args: 0 counter inout (int64 [1+]),
** 1 scalar: iterations. Adds `iterations` to element block_idx of the counter.
*/
#include "sl_kernel_lib.h"

void kernel_entry(int64_t *args) {
  int64_t *cnt = sl_tensor_data(sl_arg_tensor(args, 0));
  uint64_t iters = sl_arg_u64(args, 1);
  volatile uint64_t acc = 0;
  for (uint64_t i = 0; i < iters; i++) acc += i;
  sl_scalar((int)(iters < 1000000 ? iters : 1000000));
  (void)acc;
  cnt[sl_get_block_idx(args)] += (int64_t)iters;
}
