/*
** fuzz_namemap.c — libFuzzer target: any bytes as a name_map_<case>.json.
*/
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "sl_capture.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  sl_namemap *m = sl_namemap_load_mem("fuzz_name_map.json", data, size);
  if (!m) return 0;
  for (int64_t id = -2; id < 40; id++) (void)sl_namemap_lookup(m, id);
  for (size_t i = 0; i < m->n; i++)
    if (!m->keys[i] || !m->names[i]) abort();
  sl_namemap_free(m);
  return 0;
}
