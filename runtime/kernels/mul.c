/*
** mul.c — AIV: out = a * b (float32), element-wise.
** args: 0 a in, 1 b in, 2 out (the slots this member owns in a MIX args[]).
** SPMD: rows split across blocks.
*/
#include "sl_kernel_lib.h"

void kernel_entry(int64_t *args) { sl_kl_binary(args, 0, 1, 2, SL_VMUL); }
