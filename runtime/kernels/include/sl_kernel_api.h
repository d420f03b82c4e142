/*
** sl_kernel_api.h — the pipe-tagged intrinsic API kernels are written against.
**
** A kernel is one C file defining
**
**     void kernel_entry(int64_t *args);
**
** (the build renames kernel_entry per kernel with -Dkernel_entry=...). args[] is
** the task's positional argument array, as on the chip:
**   args[0 .. T-1]      pointers to 128-byte tensor descriptors (sl_tensor_desc)
**   args[T .. T+S-1]    scalar values, raw 64-bit (floats keep their bit pattern)
**   args[48]            LocalContext*  {int32 block_idx; int32 block_num; ...}
**   args[49]            GlobalContext* {int32 sub_block_id; ...}
**
** Every intrinsic computes its result on host memory. When a pipe tracer is
** installed on the calling thread (the L0 replay does this), each intrinsic also
** reports itself — pipe, mnemonic, size, source line — so the pipe model can
** time it. In an L2 run no tracer is installed and the cost is one branch.
*/
#ifndef SL_KERNEL_API_H
#define SL_KERNEL_API_H

#include <stddef.h>
#include <stdint.h>

#include "sl_records.h" /* generated: sl_tensor_desc (128 B, offsets asserted) */

#define SL_ARG_SLOTS 50
#define SL_SPMD_LOCAL_CONTEXT_INDEX 48
#define SL_SPMD_GLOBAL_CONTEXT_INDEX 49

/* Pipes of one AICore sub-core: enum sl_pipe (SL_PIPE_SCALAR ... SL_PIPE_ALL, SL_PIPE_COUNT) is
** generated from schema/lanes.lua `pipes` into sl_lanes.h, with their lane names
** (sl_pipe_lane_names). */
#include "sl_lanes.h"


/* On-core memories a kernel stages data in; each core thread has its own. */
typedef enum sl_mem { SL_MEM_L1 = 0, SL_MEM_L0A, SL_MEM_L0B, SL_MEM_L0C, SL_MEM_UB, SL_MEM_COUNT } sl_mem;
void *sl_local(sl_mem space);         /* base of this core's buffer          */
size_t sl_local_size(sl_mem space);   /* its size in bytes                   */

/* ---- pipe tracer (installed by the L0 replay; NULL in L2 runs) ------------------- */

typedef struct sl_instr {
  sl_pipe pipe;
  const char *mnemonic;   /* "MMAD", "VADD", "LOAD_2D", "FIX_L0C_TO_DST", "SET_FLAG" ... */
  uint64_t work;          /* bytes moved or elements / MACs computed                    */
  sl_pipe peer;           /* flags and barriers: the other pipe                         */
  int event_id;           /* flags: event id                                            */
  const char *file;       /* call site, for -g source lines: the kernel's own line      */
  int line;
  const char *lib_file;   /* inside a library helper (sl_kernel_lib.h): the helper's     */
  int lib_line;           /* line; NULL / 0 when the kernel called the intrinsic itself  */
} sl_instr;

typedef struct sl_pipe_tracer {
  void (*on_instr)(void *ctx, const sl_instr *ins);
  void *ctx;
} sl_pipe_tracer;

/* A kernel's call of a library helper (sl_kernel_lib.h): between enter and
** leave, intrinsics report this call site as their line and their own line as
** lib_file / lib_line, so `-g` points at the kernel, not the library. The
** outermost call wins (helpers calling helpers stay on the kernel's line). */
void sl_site_enter(const char *file, int line);
void sl_site_leave(void);

/* Install (or clear with NULL) the tracer for the calling thread. */
void sl_set_pipe_tracer(const sl_pipe_tracer *tracer);
const sl_pipe_tracer *sl_get_pipe_tracer(void);

/* The sub-core lane the calling thread runs as (0 or 1 for the two AIV lanes of a
** cluster, 0 on AIC); set by whoever starts the kernel. */
void sl_set_subblockid(int lane);
int sl_get_subblockid(void);

/* ---- context accessors ------------------------------------------------------------- */

int32_t sl_get_block_idx(const int64_t *args);
int32_t sl_get_block_num(const int64_t *args);
int32_t sl_get_sub_block_id(const int64_t *args);
static inline const sl_tensor_desc *sl_arg_tensor(const int64_t *args, int slot) {
  return (const sl_tensor_desc *)(uintptr_t)args[slot];
}
/* Element pointer of a tensor's view origin (addr + start_offset * elem size). */
void *sl_tensor_data(const sl_tensor_desc *t);
uint64_t sl_arg_u64(const int64_t *args, int slot);
float sl_arg_f32(const int64_t *args, int slot);     /* low 32 bits as float bits */

/* ---- intrinsics (macros capture the call site for -g) ------------------------------ */
/* Copies: bytes. */
#define sl_copy_gm_to_l1(dst, src, bytes)  sl_copy_at(SL_PIPE_MTE2, "LOAD_GM_TO_L1", dst, src, bytes, __FILE__, __LINE__)
#define sl_copy_gm_to_ub(dst, src, bytes)  sl_copy_at(SL_PIPE_MTE2, "LOAD_GM_TO_UB", dst, src, bytes, __FILE__, __LINE__)
#define sl_copy_l1_to_l0(dst, src, bytes)  sl_copy_at(SL_PIPE_MTE1, "LOAD_2D", dst, src, bytes, __FILE__, __LINE__)
#define sl_copy_ub_to_gm(dst, src, bytes)  sl_copy_at(SL_PIPE_MTE3, "STORE_UB_TO_GM", dst, src, bytes, __FILE__, __LINE__)
#define sl_fix_l0c_to_gm(dst, src, bytes)  sl_copy_at(SL_PIPE_FIXP, "FIX_L0C_TO_DST", dst, src, bytes, __FILE__, __LINE__)
void sl_copy_at(sl_pipe pipe, const char *mnemonic, void *dst, const void *src, size_t bytes,
                const char *file, int line);

/* Cube: c[m x n] (+)= a[m x k] * b[k x n], float32, row-major. */
#define sl_mmad(c, a, b, m, k, n, accumulate) sl_mmad_at(c, a, b, m, k, n, accumulate, __FILE__, __LINE__)
void sl_mmad_at(float *c, const float *a, const float *b, int m, int k, int n, int accumulate,
                const char *file, int line);

/* Vector, float32, n elements. ORDER sl_vop: vop_names (sl_kernel_api.c) follows it. */
typedef enum sl_vop { SL_VADD, SL_VSUB, SL_VMUL, SL_VDIV, SL_VMAX } sl_vop;
#define sl_vadd(d, a, b, n) sl_vbinary_at(SL_VADD, d, a, b, n, __FILE__, __LINE__)
#define sl_vsub(d, a, b, n) sl_vbinary_at(SL_VSUB, d, a, b, n, __FILE__, __LINE__)
#define sl_vmul(d, a, b, n) sl_vbinary_at(SL_VMUL, d, a, b, n, __FILE__, __LINE__)
#define sl_vdiv(d, a, b, n) sl_vbinary_at(SL_VDIV, d, a, b, n, __FILE__, __LINE__)
#define sl_vmax(d, a, b, n) sl_vbinary_at(SL_VMAX, d, a, b, n, __FILE__, __LINE__)
void sl_vbinary_at(sl_vop op, float *d, const float *a, const float *b, int n, const char *file, int line);
#define sl_vadds(d, a, s, n) sl_vscalar_at("VADDS", d, a, s, 0, n, __FILE__, __LINE__)
#define sl_vmuls(d, a, s, n) sl_vscalar_at("VMULS", d, a, s, 1, n, __FILE__, __LINE__)
void sl_vscalar_at(const char *mnemonic, float *d, const float *a, float s, int mul, int n,
                   const char *file, int line);
#define sl_vexp(d, a, n) sl_vexp_at(d, a, n, __FILE__, __LINE__)
void sl_vexp_at(float *d, const float *a, int n, const char *file, int line);
#define sl_vreduce_max(a, n) sl_vreduce_at("VCMAX", a, n, 1, __FILE__, __LINE__)
#define sl_vreduce_sum(a, n) sl_vreduce_at("VCADD", a, n, 0, __FILE__, __LINE__)
float sl_vreduce_at(const char *mnemonic, const float *a, int n, int is_max, const char *file, int line);

/* Scalar unit work (address arithmetic, loop control): `ops` scalar instructions. */
#define sl_scalar(ops) sl_scalar_at(ops, __FILE__, __LINE__)
void sl_scalar_at(int ops, const char *file, int line);

/* Synchronisation between pipes of one core (and AIC<->AIV in a cluster). */
#define sl_set_flag(src, dst, ev)  sl_flag_at(1, src, dst, ev, __FILE__, __LINE__)
#define sl_wait_flag(src, dst, ev) sl_flag_at(0, src, dst, ev, __FILE__, __LINE__)
void sl_flag_at(int set, sl_pipe src, sl_pipe dst, int event_id, const char *file, int line);
#define sl_pipe_barrier(pipe) sl_barrier_at(pipe, __FILE__, __LINE__)
void sl_barrier_at(sl_pipe pipe, const char *file, int line);

/* ---- extensions (swimlane runtime) ------------------------------------------------- */

/* The SPMD execution context the runtime builds per dispatch (args[48] / args[49]). */
typedef struct sl_local_context { int32_t block_idx; int32_t block_num; } sl_local_context;
typedef struct sl_global_context { int32_t sub_block_id; } sl_global_context;

/* Descriptor accessors, so kernels do not depend on the descriptor's field names. */
int sl_tensor_ndims(const sl_tensor_desc *t);
int64_t sl_tensor_dim(const sl_tensor_desc *t, int i);      /* 0 beyond ndims            */
int64_t sl_tensor_stride(const sl_tensor_desc *t, int i);   /* element stride            */
uint64_t sl_tensor_numel(const sl_tensor_desc *t);
int sl_tensor_dtype(const sl_tensor_desc *t);               /* raw DataType (0 = FLOAT32) */
size_t sl_dtype_size(int dtype);                            /* 0 for unknown             */

/* A 2-D row-major view of a tensor: rows x cols with row stride ld (elements).
** 1-D tensors are one row. */
typedef struct sl_view2d { char *base; int64_t rows, cols, ld; size_t es; } sl_view2d;
sl_view2d sl_tensor_view2d(const sl_tensor_desc *t);

#endif /* SL_KERNEL_API_H */
