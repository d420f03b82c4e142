/*
** fuzz_args.c — libFuzzer target: args_dump.json (the `--dump-args` manifest)
** through the L0 manifest reader and the positional-args reconstruction, for the
** func_id sets the shipped workloads use.
*/
#include <stddef.h>
#include <stdint.h>

#include "fuzz_file.h"
#include "l0_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const int sets[][3] = {{0, -1, -1}, {1, -1, -1}, {0, 1, 2}, {3, 4, -1}};
  sl_l0_manifest m;
  if (sl_l0_manifest_load(fuzz_write("args_dump.json", data, size), &m) != 0) return 0;
  for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
    int n = 0;
    while (n < 3 && sets[s][n] >= 0) n++;
    sl_l0_task t; /* the caller frees it whatever reconstruct returns (as l0_cli.c does) */
    if (sl_l0_reconstruct(&m, sets[s], n, NULL, &t) == 0) {
      char buf[128];
      for (int i = 0; i < t.nargs; i++)
        if (!t.args[i].is_tensor) sl_l0_scalar_text(&t.args[i], buf, sizeof buf);
    }
    sl_l0_task_free(&t);
  }
  sl_l0_manifest_free(&m);
  return 0;
}
