/*
** add_at3.c — AIV: out = a + b (float32), element-wise.
** args: 3 a in, 4 b in, 5 out (the slots this member owns in a MIX args[]).
** SPMD: rows split across blocks.
*/
#include "sl_kernel_lib.h"

void kernel_entry(int64_t *args) { sl_kl_binary(args, 3, 4, 5, SL_VADD); }
