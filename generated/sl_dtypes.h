/*
** generated from schema/dtypes.lua by codegen/main.lua; do not edit.
** Tensor element types.
** Regenerate: cmake --build <build dir> --target regen
*/

#ifndef SL_DTYPES_H
#define SL_DTYPES_H

#include <stdint.h>

enum sl_dtype {
  SL_DTYPE_FLOAT32 = 0,
  SL_DTYPE_FLOAT16 = 1,
  SL_DTYPE_INT32 = 2,
  SL_DTYPE_INT16 = 3,
  SL_DTYPE_INT8 = 4,
  SL_DTYPE_UINT8 = 5,
  SL_DTYPE_BFLOAT16 = 6,
  SL_DTYPE_INT64 = 7,
  SL_DTYPE_UINT64 = 8,
  SL_DTYPE_UINT16 = 9,
  SL_DTYPE_UINT32 = 10,
  SL_DTYPE_BOOL = 11,
  SL_DTYPE_FP8E4M3FN = 12,
  SL_DTYPE_FP8E8M0 = 13,
  SL_DTYPE_FP4E2M1 = 14,
};
#define SL_DTYPE_COUNT 15u

typedef struct sl_dtype_info {
  const char *name;   /* upper-case, as in args dumps         */
  uint8_t raw;        /* value stored in sl_tensor_desc.dtype */
  unsigned size;      /* bytes per element                    */
  int is_integer;     /* integer literals allowed             */
  int replayable;     /* supported by the L0 replay           */
} sl_dtype_info;

extern const sl_dtype_info sl_dtype_table[]; /* sorted by raw */
extern const unsigned sl_dtype_table_len;

/* Case-insensitive; NULL for unknown names. */
const sl_dtype_info *sl_dtype_by_name(const char *name);
/* NULL for unknown raw values. */
const sl_dtype_info *sl_dtype_by_raw(unsigned raw);

#endif /* SL_DTYPES_H */
