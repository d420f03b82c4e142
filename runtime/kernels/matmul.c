/*
** matmul.c — AIC: C = A @ B (float32). args: 0 A in [m x k], 1 B in [k x n], 2 C out [m x n].
*/
#include "sl_kernel_lib.h"

void kernel_entry(int64_t *args) {
  sl_kl_matmul(args, sl_tensor_view2d(sl_arg_tensor(args, 0)), sl_tensor_view2d(sl_arg_tensor(args, 1)),
               sl_tensor_view2d(sl_arg_tensor(args, 2)), 0, 0);
}
