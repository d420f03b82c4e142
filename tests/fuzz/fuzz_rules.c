/*
** fuzz_rules.c — libFuzzer target: a user conversion-rules script (--rules F.lua)
** through the rules loader, which runs it and checks the table it returns. Lua
** runs with a small instruction budget so a mutated loop ends in an error.
*/
#include <stddef.h>
#include <stdint.h>

#include "convert_rules.h"
#include "fuzz_file.h"
#include "sl_base.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  sl_lua_set_instruction_limit(2000000);
  sl_rules *r = sl_rules_load(fuzz_write("rules.lua", data, size));
  sl_rules_free(r);
  return 0;
}
