/*
** l0_expect.c — how many MMAD and FIX_L0C_TO_DST a task must issue, derived
** from what its members compute, not from the replay.
**
** A workload's incore says what its cube kernel computes (`l0_expect =
** "matmul" | "pa_qk" | "pa_pv"`); with the shipped tiling (sl_kernel_tiles.h)
** and the task's reconstructed args (tensor shapes, scalars, control-tensor
** contents, the SPMD block) that fixes the instruction counts:
**
**   matmul  C[m x n] = A[m x k] @ B        one MMAD per (row tile, col tile, k tile),
**                                          one FIX per row of C per col tile
**   pa_pv   O = P @ V over `len` keys      matmul with k = len (all of P's columns if 0)
**   pa_qk   S = Q @ K^T, block_size keys   a matmul per key block of S's columns
**           at a time
**
** A vector member's `l0_expect = "vbinary:S"` says it computes out = a (op) b into
** slot S through sl_kl_binary: per row of its block and per UB chunk of the row
** (SL_KL_BINARY_CHUNK floats) one vector op, two GM -> UB loads (MTE2) and one
** UB -> GM store (MTE3); a lone AIV source runs on both vector lanes of the cluster.
**
** The replay can disagree (a broken kernel, a truncated export, a model bug);
** the self-check reports it. An AIV member issues no cube work.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "l0_internal.h"
#include "sl_kernel_tiles.h"

typedef struct view {
  int64_t rows, cols;
} view;

static int64_t ceil_div(int64_t a, int64_t b) { return b > 0 ? (a + b - 1) / b : 0; }

/* The 2-D view kernels take of a tensor: leading dims folded into rows. */
static int view_of(const sl_l0_task *t, int slot, view *v) {
  const sl_l0_arg *a = sl_l0_task_arg((sl_l0_task *)t, slot);
  if (!a || !a->is_tensor || a->ndims < 1) return -1;
  v->rows = 1;
  for (int i = 0; i + 1 < a->ndims; i++) v->rows *= a->shape[i];
  v->cols = a->shape[a->ndims - 1];
  return 0;
}

static int scalar_of(const sl_l0_task *t, int slot, int64_t *out) {
  const sl_l0_arg *a = sl_l0_task_arg((sl_l0_task *)t, slot);
  if (!a || a->is_tensor) return -1;
  *out = (int64_t)a->raw;
  return 0;
}

/* Element `i` of an int32 control tensor as the replay initialises it. */
static int int32_at(const sl_l0_task *t, int slot, int64_t i, int64_t *out) {
  const sl_l0_arg *a = sl_l0_task_arg((sl_l0_task *)t, slot);
  if (!a || !a->is_tensor || strcmp(a->dtype, "INT32") != 0) return -1;
  if (a->init == L0_INIT_ZERO) *out = 0;
  else if (a->init == L0_INIT_FILL) *out = (int32_t)a->fill;
  else {
    uint64_t off = (a->start_offset + (uint64_t)i * (uint64_t)(a->ndims ? a->strides[0] : 1)) * 4;
    if (!a->payload || off + 4 > a->alloc_bytes) return -1;
    int32_t v;
    memcpy(&v, a->payload + off, 4);
    *out = v;
  }
  return 0;
}

/* One tiled matmul over rows [0, m / block_num) (block 0 of the SPMD split). */
static void matmul_counts(int64_t m, int64_t n, int64_t k, int block_num, long *mmad, long *fix) {
  int64_t rows = m / (block_num > 0 ? block_num : 1);
  int64_t ct = ceil_div(n, SL_KL_TILE_N);
  *mmad += (long)(ceil_div(rows, SL_KL_TILE_M) * ct * ceil_div(k, SL_KL_TILE_K));
  *fix += (long)(rows * ct);
}

/* The valid key length of paged attention: n_blocks * block_size, else context_lens[batch]. */
static int pa_len(const sl_l0_task *t, int64_t *len) {
  int64_t nb, bs, batch;
  if (scalar_of(t, 4, &nb) || scalar_of(t, 6, &bs) || scalar_of(t, 5, &batch)) return -1;
  if (nb > 0) {
    *len = nb * bs;
    return 0;
  }
  return int32_at(t, 2, batch, len);
}

static int expect_member(const sl_l0_plan *p, const sl_l0_incore *ic, long *mmad, long *fix) {
  const sl_l0_task *t = p->task;
  view a, b, c;
  int64_t len, bs;
  if (!strcmp(ic->expect, "matmul")) {
    if (view_of(t, 0, &a) || view_of(t, 2, &c)) return -1;
    matmul_counts(c.rows, c.cols, a.cols, p->spmd_block_num, mmad, fix);
  } else if (!strcmp(ic->expect, "pa_pv")) {
    if (view_of(t, 0, &a) || view_of(t, 3, &c) || pa_len(t, &len)) return -1;
    matmul_counts(c.rows, c.cols, len > 0 && len < a.cols ? len : a.cols, p->spmd_block_num, mmad, fix);
  } else if (!strcmp(ic->expect, "pa_qk")) {
    if (view_of(t, 0, &a) || view_of(t, 1, &b) || view_of(t, 3, &c) || pa_len(t, &len) || scalar_of(t, 6, &bs) ||
        bs <= 0)
      return -1;
    for (int64_t b0 = 0; b0 < len && b0 < c.cols; b0 += bs)
      matmul_counts(c.rows, len - b0 < bs ? len - b0 : bs, a.cols, p->spmd_block_num, mmad, fix);
  } else {
    return -1;
  }
  return 0;
}

int sl_l0_expect_counts(const sl_l0_plan *p, long *mmad, long *fix, char *why, size_t len) {
  *mmad = *fix = 0;
  for (int i = 0; i < p->nmembers; i++) {
    const sl_l0_incore *ic = p->members[i];
    if (strcmp(ic->core_type, "aic") != 0) continue; /* no cube on a vector lane */
    if (!ic->expect) {
      snprintf(why, len, "%s (func %d) declares no l0_expect", ic->name, ic->func_id);
      return 0;
    }
    if (expect_member(p, ic, mmad, fix) != 0) {
      snprintf(why, len, "%s (func %d): l0_expect \"%s\" does not fit its args", ic->name, ic->func_id, ic->expect);
      return 0;
    }
  }
  return 1;
}

/* One vbinary member: its block's rows x chunks per row. -1 when its args do not fit. */
static int vbinary_member(const sl_l0_plan *p, const sl_l0_incore *ic, long *chunks) {
  char *end;
  long slot = strtol(ic->expect + 8, &end, 10);
  view o;
  if (end == ic->expect + 8 || *end || view_of(p->task, (int)slot, &o)) return -1;
  int64_t rows = o.rows / (p->spmd_block_num > 0 ? p->spmd_block_num : 1); /* block 0 */
  *chunks += (long)(rows * ceil_div(o.cols, SL_KL_BINARY_CHUNK));
  return 0;
}

/* The replay runs one distinct AIV source on both vector lanes of the cluster, two
** distinct ones one lane each (docs/l0.md, replay_kernel.c); same-source members once. */
static int runs_on_both_lanes(const sl_l0_plan *p) {
  const char *first = NULL;
  for (int i = 0; i < p->nmembers; i++) {
    const sl_l0_incore *ic = p->members[i];
    if (strcmp(ic->core_type, "aiv") != 0) continue;
    if (first && strcmp(first, ic->source) != 0) return 0;
    first = ic->source;
  }
  return first != NULL;
}

int sl_l0_expect_vector(const sl_l0_plan *p, sl_l0_vec_counts *want, char *why, size_t len) {
  long chunks = 0;
  int any = 0;
  const char *seen = NULL;
  for (int i = 0; i < p->nmembers; i++) {
    const sl_l0_incore *ic = p->members[i];
    if (strcmp(ic->core_type, "aiv") != 0) continue;
    if (seen && !strcmp(seen, ic->source)) continue; /* same source: replayed once */
    seen = ic->source;
    any = 1;
    if (!ic->expect || strncmp(ic->expect, "vbinary:", 8) != 0) {
      snprintf(why, len, "%s (func %d) declares no vector l0_expect", ic->name, ic->func_id);
      return 0;
    }
    if (vbinary_member(p, ic, &chunks) != 0) {
      snprintf(why, len, "%s (func %d): l0_expect \"%s\" does not fit its args", ic->name, ic->func_id, ic->expect);
      return 0;
    }
  }
  if (!any) {
    snprintf(why, len, "no vector member");
    return 0;
  }
  if (runs_on_both_lanes(p)) chunks *= 2;
  *want = (sl_l0_vec_counts){chunks, 2 * chunks, chunks};
  return 1;
}
