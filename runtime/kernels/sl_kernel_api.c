/*
** sl_kernel_api.c — the intrinsic API on host memory: every intrinsic computes
** its result and, when the calling thread has a pipe tracer, reports itself.
*/
#include "sl_kernel_api.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "sl_lanes.h"
#include "sl_kernel_tiles.h"
#include "sl_tdesc.h"
#include "sl_rt_mem.h"

/* enum sl_pipe and the pipes' names are both generated from lanes.lua pipes. */
_Static_assert(SL_PIPE_COUNT == SL_PIPE_LANE_COUNT, "enum sl_pipe and schema/lanes.lua pipes differ");

/* ---- per-thread state: tracer, sub-block lane, on-core memories ------------------------ */

static _Thread_local const sl_pipe_tracer *tl_tracer;
static _Thread_local int tl_subblock;
static _Thread_local const char *tl_site_file;
static _Thread_local int tl_site_line, tl_site_depth;
static _Thread_local void *tl_local[SL_MEM_COUNT];

/* Sizes of one core's buffers (a2a3-like), in bytes. */
static const size_t local_sizes[SL_MEM_COUNT] = {512u << 10, 64u << 10, 64u << 10, 256u << 10,
                                                 SL_KL_UB_BYTES};

static pthread_key_t local_key;
static pthread_once_t local_once = PTHREAD_ONCE_INIT;

/* Free a thread's buffers when it exits (the key's value is the tl_local array). */
static void free_locals(void *p) {
  void **mem = p;
  for (int i = 0; i < SL_MEM_COUNT; i++) {
    sl_rt_free(mem[i]);
    mem[i] = NULL;
  }
}
static void make_key(void) { pthread_key_create(&local_key, free_locals); }

void *sl_local(sl_mem space) {
  if ((unsigned)space >= SL_MEM_COUNT) return NULL;
  if (!tl_local[space]) {
    pthread_once(&local_once, make_key);
    tl_local[space] = sl_rt_calloc(1, local_sizes[space]);
    pthread_setspecific(local_key, tl_local);
  }
  return tl_local[space];
}

size_t sl_local_size(sl_mem space) {
  return (unsigned)space < SL_MEM_COUNT ? local_sizes[space] : 0;
}

void sl_set_pipe_tracer(const sl_pipe_tracer *tracer) { tl_tracer = tracer; }
const sl_pipe_tracer *sl_get_pipe_tracer(void) { return tl_tracer; }
void sl_set_subblockid(int lane) { tl_subblock = lane; }
int sl_get_subblockid(void) { return tl_subblock; }

static void trace(sl_pipe pipe, const char *mn, uint64_t work, sl_pipe peer, int ev, const char *file,
                  int line) {
  const sl_pipe_tracer *t = tl_tracer;
  if (!t || !t->on_instr) return;
  sl_instr ins = {pipe, mn, work, peer, ev, file, line, NULL, 0};
  if (tl_site_depth > 0) { /* inside a library helper: the kernel's line first */
    ins.lib_file = file;
    ins.lib_line = line;
    ins.file = tl_site_file;
    ins.line = tl_site_line;
  }
  t->on_instr(t->ctx, &ins);
}

void sl_site_enter(const char *file, int line) {
  if (tl_site_depth++ == 0) {
    tl_site_file = file;
    tl_site_line = line;
  }
}

void sl_site_leave(void) {
  if (tl_site_depth > 0) tl_site_depth--;
}

/* ---- context + descriptors ------------------------------------------------------------ */

int32_t sl_get_block_idx(const int64_t *args) {
  const sl_local_context *lc = (const sl_local_context *)(uintptr_t)args[SL_SPMD_LOCAL_CONTEXT_INDEX];
  return lc ? lc->block_idx : 0;
}
int32_t sl_get_block_num(const int64_t *args) {
  const sl_local_context *lc = (const sl_local_context *)(uintptr_t)args[SL_SPMD_LOCAL_CONTEXT_INDEX];
  return lc && lc->block_num > 0 ? lc->block_num : 1;
}
int32_t sl_get_sub_block_id(const int64_t *args) {
  const sl_global_context *gc =
      (const sl_global_context *)(uintptr_t)args[SL_SPMD_GLOBAL_CONTEXT_INDEX];
  return gc ? gc->sub_block_id : 0;
}

size_t sl_dtype_size(int dtype) {
  /* FLOAT32 FLOAT16 INT32 INT16 INT8 UINT8 BFLOAT16 INT64 UINT64 UINT16 UINT32 BOOL FP8 FP8 FP4 */
  static const unsigned char sz[] = {4, 2, 4, 2, 1, 1, 2, 8, 8, 2, 4, 1, 1, 1, 1};
  return dtype >= 0 && dtype < (int)sizeof sz ? sz[dtype] : 0;
}

int sl_tensor_ndims(const sl_tensor_desc *t) { return (int)SL_TD_NDIMS(t); }
int64_t sl_tensor_dim(const sl_tensor_desc *t, int i) {
  return i >= 0 && i < (int)SL_TD_NDIMS(t) && i < SL_TD_MAX_DIMS ? (int64_t)SL_TD_SHAPE(t, i) : 0;
}
int64_t sl_tensor_stride(const sl_tensor_desc *t, int i) {
  return i >= 0 && i < (int)SL_TD_NDIMS(t) && i < SL_TD_MAX_DIMS ? (int64_t)SL_TD_STRIDE(t, i) : 0;
}
uint64_t sl_tensor_numel(const sl_tensor_desc *t) {
  uint64_t n = 1;
  for (int i = 0; i < (int)SL_TD_NDIMS(t) && i < SL_TD_MAX_DIMS; i++) n *= SL_TD_SHAPE(t, i);
  return n;
}
int sl_tensor_dtype(const sl_tensor_desc *t) { return (int)SL_TD_DTYPE(t); }

void *sl_tensor_data(const sl_tensor_desc *t) {
  return (char *)(uintptr_t)SL_TD_ADDR(t) + (size_t)SL_TD_START(t) * sl_dtype_size(SL_TD_DTYPE(t));
}

sl_view2d sl_tensor_view2d(const sl_tensor_desc *t) {
  sl_view2d v = {sl_tensor_data(t), 1, 1, 1, sl_dtype_size(SL_TD_DTYPE(t))};
  int nd = (int)SL_TD_NDIMS(t);
  if (nd <= 0) return v;
  if (nd == 1) {
    v.cols = SL_TD_SHAPE(t, 0);
    v.ld = v.cols;
    return v;
  }
  /* Fold leading dimensions into rows (they are laid out row-major in our workloads). */
  v.cols = SL_TD_SHAPE(t, nd - 1);
  v.rows = 1;
  for (int i = 0; i < nd - 1; i++) v.rows *= SL_TD_SHAPE(t, i);
  v.ld = SL_TD_STRIDE(t, nd - 2);
  return v;
}

uint64_t sl_arg_u64(const int64_t *args, int slot) { return (uint64_t)args[slot]; }
float sl_arg_f32(const int64_t *args, int slot) {
  uint32_t bits = (uint32_t)(uint64_t)args[slot];
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

/* ---- intrinsics ------------------------------------------------------------------------ */

void sl_copy_at(sl_pipe pipe, const char *mnemonic, void *dst, const void *src, size_t bytes,
                const char *file, int line) {
  if (bytes) memmove(dst, src, bytes);
  trace(pipe, mnemonic, bytes, pipe, 0, file, line);
}

void sl_mmad_at(float *c, const float *a, const float *b, int m, int k, int n, int accumulate,
                const char *file, int line) {
  for (int i = 0; i < m; i++) {
    float *crow = c + (size_t)i * n;
    if (!accumulate)
      for (int j = 0; j < n; j++) crow[j] = 0.0f;
    for (int p = 0; p < k; p++) {
      float av = a[(size_t)i * k + p];
      const float *brow = b + (size_t)p * n;
      for (int j = 0; j < n; j++) crow[j] += av * brow[j];
    }
  }
  trace(SL_PIPE_CUBE, "MMAD", (uint64_t)m * k * n, SL_PIPE_CUBE, 0, file, line);
}

static const char *const vop_names[] = { /* ORDER sl_vop */
    "VADD", "VSUB", "VMUL", "VDIV", "VMAX"};

void sl_vbinary_at(sl_vop op, float *d, const float *a, const float *b, int n, const char *file,
                   int line) {
  for (int i = 0; i < n; i++) {
    float x = a[i], y = b[i];
    switch (op) {
      case SL_VADD: d[i] = x + y; break;
      case SL_VSUB: d[i] = x - y; break;
      case SL_VMUL: d[i] = x * y; break;
      case SL_VDIV: d[i] = x / y; break;
      case SL_VMAX: d[i] = x > y ? x : y; break;
    }
  }
  trace(SL_PIPE_VECTOR, vop_names[op], (uint64_t)n, SL_PIPE_VECTOR, 0, file, line);
}

void sl_vscalar_at(const char *mnemonic, float *d, const float *a, float s, int mul, int n,
                   const char *file, int line) {
  for (int i = 0; i < n; i++) d[i] = mul ? a[i] * s : a[i] + s;
  trace(SL_PIPE_VECTOR, mnemonic, (uint64_t)n, SL_PIPE_VECTOR, 0, file, line);
}

void sl_vexp_at(float *d, const float *a, int n, const char *file, int line) {
  for (int i = 0; i < n; i++) d[i] = expf(a[i]);
  trace(SL_PIPE_VECTOR, "VEXP", (uint64_t)n, SL_PIPE_VECTOR, 0, file, line);
}

float sl_vreduce_at(const char *mnemonic, const float *a, int n, int is_max, const char *file,
                    int line) {
  float r = is_max ? -INFINITY : 0.0f;
  for (int i = 0; i < n; i++) r = is_max ? (a[i] > r ? a[i] : r) : r + a[i];
  trace(SL_PIPE_VECTOR, mnemonic, (uint64_t)n, SL_PIPE_VECTOR, 0, file, line);
  return r;
}

void sl_scalar_at(int ops, const char *file, int line) {
  /* scalar work is named after its pipe */
  trace(SL_PIPE_SCALAR, sl_pipe_lane_names[SL_PIPE_SCALAR], (uint64_t)(ops > 0 ? ops : 0), SL_PIPE_SCALAR, 0, file,
        line);
}

void sl_flag_at(int set, sl_pipe src, sl_pipe dst, int event_id, const char *file, int line) {
  /* Pipes of one simulated core run in program order, so flags only need reporting. */
  trace(set ? src : dst, set ? "SET_FLAG" : "WAIT_FLAG", 0, set ? dst : src, event_id, file, line);
}

void sl_barrier_at(sl_pipe pipe, const char *file, int line) {
  trace(pipe, "PIPE_BARRIER", 0, pipe, 0, file, line);
}
