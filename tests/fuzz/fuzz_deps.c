/*
** fuzz_deps.c — libFuzzer target: any bytes as deps.json. The loader never
** fails hard (bad content gives None maps); lookups on what it built must be safe.
*/
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "sl_capture.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  sl_deps *d = sl_deps_load_mem("fuzz_deps.json", data, size);
  if (!d) return 0;
  size_t total = 0;
  for (size_t i = 0; i < d->n_preds; i++) {
    size_t n;
    const uint64_t *s = sl_deps_succs(d, d->preds[i], &n);
    if (!s || !n) abort(); /* every pred has at least one successor */
    total += n;
    for (size_t j = 0; j < n; j++) {
      size_t m;
      if (!sl_deps_preds(d, s[j], &m) || !m) abort(); /* and is listed back */
    }
  }
  if (d->has_edges && total != d->n_edges) abort();
  for (size_t i = 0; i < d->n_kernel; i++)
    if (!sl_deps_kernel_ids(d, d->kernel_task[i])) abort();
  for (size_t i = 0; i < d->n_block; i++)
    if (sl_deps_block_num(d, d->block_task[i]) < 1) abort();
  sl_deps_free(d);
  return 0;
}
