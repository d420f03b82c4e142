/*
** sl_kernels.h — the kernels built into the runtime, looked up by the base name of
** their source file (runtime/kernels/matmul.c -> "matmul").
*/
#ifndef SL_KERNELS_H
#define SL_KERNELS_H

#include <stdint.h>

typedef void (*sl_kernel_fn)(int64_t *args);

/* NULL when no kernel of that name is built in. Accepts a bare name, "name.c" or a
** path ending in it. */
sl_kernel_fn sl_kernel_find(const char *name_or_source);
/* Iterate: name of built-in kernel i, NULL past the end. */
const char *sl_kernel_name(int i);

#endif /* SL_KERNELS_H */
