/*
** l0_restore.c — --restore-arg: give a control tensor its real bytes.
**
** A payload dump (--dump-args 2, or 3 with the tensor marked) stores each
** tensor's LOGICAL bytes (row-major gathered) in args.bin. The replay needs
** the PHYSICAL buffer the descriptor points at, so the logical elements are
** scattered back through start_offset and the strides; gaps stay zero.
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "l0_internal.h"
#include "sl_base.h"
#include "sl_mem.h"

static yajl_val get(yajl_val obj, const char *key) {
  const char *path[] = {key, NULL};
  return yajl_tree_get(obj, path, yajl_t_any);
}

/* Scatter `logical` (row-major elements of a's shape) into a new physical buffer. */
static unsigned char *scatter(const sl_l0_arg *a, const unsigned char *logical) {
  size_t es = (size_t)a->dt->size;
  unsigned char *phys = sl_mem_calloc(1, a->alloc_bytes ? a->alloc_bytes : 1);
  uint64_t numel = 1;
  for (int i = 0; i < a->ndims; i++) numel *= (uint64_t)a->shape[i];
  for (uint64_t lin = 0; lin < numel; lin++) {
    uint64_t rest = lin, off = a->start_offset;
    for (int i = a->ndims - 1; i >= 0; i--) { /* innermost dimension fastest */
      uint64_t dim = (uint64_t)a->shape[i];
      off += (rest % dim) * (uint64_t)a->strides[i];
      rest /= dim;
    }
    memcpy(phys + off * es, logical + lin * es, es);
  }
  return phys;
}

int sl_l0_restore_args(const sl_l0_manifest *m, sl_l0_task *t, const int *slots, int nslots) {
  if (nslots == 0) return 0;
  yajl_val fmt = get(m->root, "bin_format");
  yajl_val type = fmt ? get(fmt, "type") : NULL, order = fmt ? get(fmt, "byte_order") : NULL;
  if (!YAJL_IS_STRING(type) || strcmp(type->u.string, "logical_contiguous") || !YAJL_IS_STRING(order) ||
      strcmp(order->u.string, "little_endian")) {
    sl_error(m->path, "--restore-arg requires bin_format type=logical_contiguous and byte_order=little_endian");
    return -1;
  }
  yajl_val bin = get(m->root, "bin_file");
  if (!YAJL_IS_STRING(bin) || !bin->u.string[0]) {
    sl_error(m->path,
             "--restore-arg requires a payload-carrying dump; this manifest has no bin_file "
             "(capture with --dump-args 2, or mark the tensor for a level-3 payload)");
    return -1;
  }
  char *bin_path = sl_path_join(m->dir, bin->u.string);
  struct stat st;
  if (stat(bin_path, &st) != 0) {
    sl_error(m->path, "--restore-arg payload file not found: %s", bin_path);
    sl_mem_free(bin_path);
    return -1;
  }
  FILE *fp = fopen(bin_path, "rb");
  if (!fp) {
    sl_error(bin_path, "cannot open payload file");
    sl_mem_free(bin_path);
    return -1;
  }
  int rc = -1;
  for (int k = 0; k < nslots; k++) {
    int s = slots[k];
    sl_l0_arg *a = sl_l0_task_arg(t, s);
    const char *why = NULL;
    char msg[256];
    if (!a) why = "is not an arg of this task";
    else if (!a->is_tensor) why = "is a scalar; only tensor payloads can be restored";
    else if (strcmp(a->stage, "before_dispatch"))
      why = "has no before_dispatch payload; output-only tensors cannot initialize a replay";
    else if (a->truncated) why = "payload is truncated";
    else if (a->overwritten) why = "payload was overwritten before export";
    else if (a->init == L0_INIT_FILL) why = "cannot be both restored and uniformly filled";
    else if (a->bin_size == 0)
      why = "has no captured payload; capture with --dump-args 2 (or mark the tensor for a level-3 payload)";
    if (why) {
      sl_error(m->path, "--restore-arg slot %d %s", s, why);
      goto out;
    }
    uint64_t numel = 1;
    for (int i = 0; i < a->ndims; i++) numel *= (uint64_t)a->shape[i];
    uint64_t expect = numel * (uint64_t)a->dt->size;
    if (expect == 0) {
      sl_error(m->path, "--restore-arg slot %d: zero-sized tensor payload cannot be restored", s);
      goto out;
    }
    if (a->bin_size != expect) {
      snprintf(msg, sizeof msg, "bin_size %" PRIu64 " does not match logical tensor size %" PRIu64, a->bin_size,
               expect);
      sl_error(m->path, "--restore-arg slot %d %s", s, msg);
      goto out;
    }
    if (a->bin_offset > (uint64_t)st.st_size || a->bin_size > (uint64_t)st.st_size - a->bin_offset) {
      sl_error(m->path, "--restore-arg slot %d payload range [%" PRIu64 ", %" PRIu64 ") exceeds %s size %lld", s,
               a->bin_offset, a->bin_offset + a->bin_size, bin_path, (long long)st.st_size);
      goto out;
    }
    unsigned char *logical = sl_mem_alloc(a->bin_size);
    size_t got = 0;
    if (fseeko(fp, (off_t)a->bin_offset, SEEK_SET) == 0) got = fread(logical, 1, a->bin_size, fp);
    if (got != a->bin_size) {
      sl_error(bin_path, "--restore-arg slot %d short read: expected %" PRIu64 " bytes, got %zu", s, a->bin_size,
               got);
      sl_mem_free(logical);
      goto out;
    }
    sl_mem_free(a->payload);
    a->payload = scatter(a, logical);
    sl_mem_free(logical);
    if (!a->payload) goto out;
    a->init = L0_INIT_RESTORE;
    printf(L0_PREFIX "restoring tensor slot %d (%s [", s, a->dtype);
    for (int i = 0; i < a->ndims; i++) printf("%s%" PRId64, i ? ", " : "", a->shape[i]);
    printf("]): %" PRIu64 " logical bytes -> %" PRIu64 " physical bytes\n", a->bin_size, a->alloc_bytes);
  }
  rc = 0;
out:
  fclose(fp);
  sl_mem_free(bin_path);
  return rc;
}
