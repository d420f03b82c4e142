/*
** sl_kernel_tiles.h — the tile shape of the shipped cube kernels (sl_kl_matmul).
** One definition, read by the kernels and by `swimlane l0`'s self-check, which
** derives the MMAD / FIX counts a task must issue from it (tools/l0/l0_expect.c).
*/
#ifndef SL_KERNEL_TILES_H
#define SL_KERNEL_TILES_H

#define SL_KL_TILE_M 16  /* rows of C per tile          */
#define SL_KL_TILE_N 64  /* columns of C per tile       */
#define SL_KL_TILE_K 128 /* inner dimension per MMAD    */

#endif /* SL_KERNEL_TILES_H */
