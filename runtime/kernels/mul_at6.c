/*
** mul_at6.c — AIV: out = a * b (float32), element-wise.
** args: 6 a in, 7 b in, 8 out (the slots this member owns in a MIX args[]).
** SPMD: rows split across blocks.
*/
#include "sl_kernel_lib.h"

void kernel_entry(int64_t *args) { sl_kl_binary(args, 6, 7, 8, SL_VMUL); }
