/*
** fuzz_workload.c — libFuzzer target: a workload file (`swimlane run F.lua`)
** through the workload loader and the case lookup. Lua runs with a small
** instruction budget so a mutated loop ends in an error.
*/
#include <stddef.h>
#include <stdint.h>

#include "fuzz_file.h"
#include "sl_base.h"
#include "sl_run_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  sl_lua_set_instruction_limit(2000000);
  sl_workload wl;
  if (sl_workload_load(&wl, fuzz_write("workload.lua", data, size)) == 0) {
    char name[128];
    (void)sl_workload_case(&wl, NULL, "a2a3sim", name, sizeof name);
    (void)sl_workload_case(&wl, "Case1", "a5sim", name, sizeof name);
  }
  sl_workload_free(&wl);
  return 0;
}
