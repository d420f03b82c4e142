/*
** fuzz_argsbin.c — libFuzzer target: args.bin, the payload file of a level-2
** args dump, restored into every tensor of a task of a fixed manifest
** (SL_FUZZ_ARGS_MANIFEST, a test fixture whose offsets point into args.bin).
*/
#include <stddef.h>
#include <stdint.h>

#include "fuzz_file.h"
#include "l0_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int have_manifest;
  if (!have_manifest) {
    size_t len;
    char *text = sl_l0_read_file(SL_FUZZ_ARGS_MANIFEST, &len);
    if (!text) abort();
    fuzz_write("args_dump.json", (const uint8_t *)text, len);
    free(text);
    have_manifest = 1;
  }
  fuzz_write("args.bin", data, size);
  char path[256];
  snprintf(path, sizeof path, "%s/args_dump.json", fuzz_dir());
  sl_l0_manifest m;
  if (sl_l0_manifest_load(path, &m) != 0) abort(); /* the fixture is valid */
  const int want[] = {1};
  sl_l0_task t;
  if (sl_l0_reconstruct(&m, want, 1, NULL, &t) == 0) {
    int slots[64], n = 0;
    for (int i = 0; i < t.nargs && n < 64; i++)
      if (t.args[i].is_tensor) slots[n++] = t.args[i].slot;
    (void)sl_l0_restore_args(&m, &t, slots, n);
  }
  sl_l0_task_free(&t); /* freed whatever reconstruct returned */
  sl_l0_manifest_free(&m);
  return 0;
}
