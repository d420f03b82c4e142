/*
** generated from schema/dtypes.lua by codegen/main.lua; do not edit.
** Tensor element types.
** Regenerate: cmake --build <build dir> --target regen
*/

#include "sl_dtypes.h"

#include <stddef.h>
#include <strings.h>

const sl_dtype_info sl_dtype_table[] = {
    {"FLOAT32", 0, 4, 0, 1},
    {"FLOAT16", 1, 2, 0, 1},
    {"INT32", 2, 4, 1, 1},
    {"INT16", 3, 2, 1, 1},
    {"INT8", 4, 1, 1, 1},
    {"UINT8", 5, 1, 1, 1},
    {"BFLOAT16", 6, 2, 0, 1},
    {"INT64", 7, 8, 1, 1},
    {"UINT64", 8, 8, 1, 1},
    {"UINT16", 9, 2, 1, 1},
    {"UINT32", 10, 4, 1, 1},
    {"BOOL", 11, 1, 0, 0},
    {"FP8E4M3FN", 12, 1, 0, 0},
    {"FP8E8M0", 13, 1, 0, 0},
    {"FP4E2M1", 14, 1, 0, 0},
};
const unsigned sl_dtype_table_len = 15u;

const sl_dtype_info *sl_dtype_by_name(const char *name) {
  for (unsigned i = 0; name && i < sl_dtype_table_len; i++)
    if (strcasecmp(sl_dtype_table[i].name, name) == 0) return &sl_dtype_table[i];
  return NULL;
}

const sl_dtype_info *sl_dtype_by_raw(unsigned raw) {
  for (unsigned i = 0; i < sl_dtype_table_len; i++)
    if (sl_dtype_table[i].raw == raw) return &sl_dtype_table[i];
  return NULL;
}
