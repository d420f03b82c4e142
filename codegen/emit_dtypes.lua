--[[
** emit_dtypes.lua — generated/sl_dtypes.h/.c: tensor element types.
--]]
local util = require("util")

local HEADER = [[
${banner}
#ifndef SL_DTYPES_H
#define SL_DTYPES_H

#include <stdint.h>

enum sl_dtype {
${enum}
};
#define SL_DTYPE_COUNT ${count}u

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
]]

local SOURCE = [[
${banner}
#include "sl_dtypes.h"

#include <stddef.h>
#include <strings.h>

const sl_dtype_info sl_dtype_table[] = {
${rows}
};
const unsigned sl_dtype_table_len = ${count}u;

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
]]

return function(model)
  local enum, rows = {}, {}
  for _, d in ipairs(model.dtypes) do
    enum[#enum + 1] = string.format("  SL_DTYPE_%s = %d,", d.name, d.raw)
    rows[#rows + 1] = string.format("    {%s, %d, %d, %d, %d},", util.cstr(d.name), d.raw, d.size,
      d.is_integer and 1 or 0, d.replayable and 1 or 0)
  end
  local banner = util.banner("c", { "dtypes.lua" }, "Tensor element types.")
  return {
    { path = "sl_dtypes.h", text = util.fill(HEADER, { banner = banner, enum = table.concat(enum, "\n"), count = #model.dtypes }) },
    { path = "sl_dtypes.c", text = util.fill(SOURCE, { banner = banner, rows = table.concat(rows, "\n"), count = #model.dtypes }) },
  }
end
