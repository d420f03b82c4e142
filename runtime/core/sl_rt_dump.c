/*
** sl_rt_dump.c — the args dump (--dump-args): what each task read before it ran
** and what it wrote after, one entry per tensor argument (and per scalar before
** dispatch), with a row-major copy of the tensor's bytes when the mode keeps
** payloads. Entries are appended under dump_mu in the order the threads reach
** them; the views in sl_runtime.c read them after the run.
*/
#include <string.h>

#include "sl_rt_internal.h"
#include "sl_rt_mem.h"

static void push_dump(sl_rt *rt, const sl_rt_dump_entry *e) { *SL_RT_PUSH(rt->dump, rt->ndump, rt->capdump) = *e; }

/* Gather a view into a logical row-major copy. */
static void *gather(const sl_rt_tensor *t, uint64_t *bytes) {
  size_t es = sl_dtype_size(t->dtype);
  uint64_t numel = 1;
  for (int i = 0; i < t->ndims; i++) numel *= (uint64_t)(t->shape[i] > 0 ? t->shape[i] : 0);
  *bytes = numel * es;
  unsigned char *out = sl_rt_alloc(*bytes ? (size_t)*bytes : 1);
  const unsigned char *base = t->buf->data;
  int64_t idx[5] = {0, 0, 0, 0, 0};
  for (uint64_t k = 0; k < numel; k++) {
    int64_t off = t->start_offset;
    for (int i = 0; i < t->ndims; i++) off += idx[i] * t->strides[i];
    memcpy(out + k * es, base + (size_t)off * es, es);
    for (int i = t->ndims - 1; i >= 0; i--) {
      if (++idx[i] < t->shape[i]) break;
      idx[i] = 0;
    }
  }
  return out;
}

/* stage 0: inputs, inouts and scalars before dispatch; stage 1: outputs and inouts
** after completion. Dummies and allocs have nothing to dump. */
void sl_rt_dump_task(sl_rt *rt, sl_rt_task *t, int stage) {
  if (t->is_dummy || t->is_alloc || t->graph || !t->predicate) return; /* nothing ran */
  /* every entry starts from the task's own fields, everything else zero */
  sl_rt_dump_entry task = {.task_id = t->id, .stage = stage};
  for (int i = 0; i < 3; i++)
    if (t->kernel_ids[i] >= 0) task.func_ids[task.nfunc++] = t->kernel_ids[i];
  int with_payload = rt->cfg.dump_args == 1 || rt->cfg.dump_args == 2;
  pthread_mutex_lock(&rt->dump_mu);
  for (int i = 0; i < t->ntensors; i++) {
    sl_arg_dir d = t->dirs[i];
    if (stage == 0 && d == SL_ARG_OUT) continue;
    if (stage == 1 && d == SL_ARG_IN) continue;
    const sl_rt_tensor *tt = &t->tensors[i];
    sl_rt_dump_entry e = task;
    e.arg_index = i;
    e.role = d == SL_ARG_IN ? 0 : d == SL_ARG_OUT ? 1 : 2;
    e.dtype = tt->dtype;
    e.ndims = tt->ndims;
    memcpy(e.shape, tt->shape, sizeof e.shape);
    memcpy(e.strides, tt->strides, sizeof e.strides);
    e.start_offset = tt->start_offset;
    if (with_payload) e.payload = gather(tt, &e.payload_bytes);
    push_dump(rt, &e);
  }
  if (stage == 0)
    for (int i = 0; i < t->nscalars; i++) {
      sl_rt_dump_entry e = task;
      e.arg_index = t->ntensors + i;
      e.is_scalar = 1;
      e.dtype = t->scalars[i].dtype;
      e.value = t->scalars[i].raw;
      push_dump(rt, &e);
    }
  pthread_mutex_unlock(&rt->dump_mu);
}

