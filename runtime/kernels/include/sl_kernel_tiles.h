/*
** sl_kernel_tiles.h — the tile shape of the shipped cube kernels (sl_kl_matmul) and
** the UB staging of the vector ones (sl_kl_binary). One definition, read by the
** kernels and by `swimlane l0`'s self-check, which derives the MMAD / FIX and vector
** op / load / store counts a task must issue from it (tools/l0/l0_expect.c).
*/
#ifndef SL_KERNEL_TILES_H
#define SL_KERNEL_TILES_H

#define SL_KL_TILE_M 16  /* rows of C per tile          */
#define SL_KL_TILE_N 64  /* columns of C per tile       */
#define SL_KL_TILE_K 128 /* inner dimension per MMAD    */

/* The vector kernels (sl_kl_binary) stage a, b and out through UB in chunks of
** UB / 3 floats: one vector op, two MTE2 loads and one MTE3 store per chunk of a row. */
#define SL_KL_UB_BYTES (192u << 10)
#define SL_KL_BINARY_CHUNK ((long)(SL_KL_UB_BYTES / sizeof(float) / 3))

#endif /* SL_KERNEL_TILES_H */
