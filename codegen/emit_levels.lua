--[[
** emit_levels.lua — generated/sl_levels.h/.c: perf levels 0..4, what each gates,
** and the minimum level of every record kind's device writer.
--]]
local util = require("util")

local HEADER = [[
${banner}
#ifndef SL_LEVELS_H
#define SL_LEVELS_H

enum sl_level {
${enum}
};
#define SL_LEVEL_COUNT ${count}u
#define SL_LEVEL_MAX ${max}u

/* Minimum level at which each record kind is written (device writers test it). */
${min_levels}

typedef struct sl_level_info {
  unsigned value;
  const char *name;
  const char *collects;
  const char *device;   /* what the device does at this level        */
  const char *host;     /* what the host allocates / exports          */
  const char *notes;
} sl_level_info;

extern const sl_level_info sl_level_table[SL_LEVEL_COUNT]; /* index = value */

/* NULL when out of range / unknown. */
const sl_level_info *sl_level_by_value(unsigned value);
const sl_level_info *sl_level_by_name(const char *name);

#endif /* SL_LEVELS_H */
]]

local SOURCE = [[
${banner}
#include "sl_levels.h"

#include <stddef.h>
#include <string.h>

const sl_level_info sl_level_table[SL_LEVEL_COUNT] = {
${rows}
};

const sl_level_info *sl_level_by_value(unsigned value) {
  return value < SL_LEVEL_COUNT ? &sl_level_table[value] : NULL;
}

const sl_level_info *sl_level_by_name(const char *name) {
  for (unsigned i = 0; name && i < SL_LEVEL_COUNT; i++)
    if (strcmp(sl_level_table[i].name, name) == 0) return &sl_level_table[i];
  return NULL;
}
]]

return function(model)
  local enum, rows = {}, {}
  for _, l in ipairs(model.levels) do
    enum[#enum + 1] = string.format("  SL_LEVEL_%s = %d, /* %s */", util.upper(l.name), l.value, l.collects)
    rows[#rows + 1] = string.format("    {%d, %s,\n     %s,\n     %s,\n     %s,\n     %s},", l.value,
      util.cstr(l.name), util.cstr(l.collects), util.cstr(l.device), util.cstr(l.host), util.cstr(l.notes))
  end
  local mins = {}
  for _, rec in ipairs(model.writers) do
    mins[#mins + 1] = string.format("#define SL_MIN_LEVEL_%s %du /* %s */", util.upper(rec.spec.writer),
      rec.min_level.value, rec.ctype)
  end
  local banner = util.banner("c", { "levels.lua", "records.lua" }, "Perf levels and what each gates.")
  return {
    { path = "sl_levels.h", text = util.fill(HEADER, { banner = banner, enum = table.concat(enum, "\n"),
      count = #model.levels, max = model.levels[#model.levels].value, min_levels = table.concat(mins, "\n") }) },
    { path = "sl_levels.c", text = util.fill(SOURCE, { banner = banner, rows = table.concat(rows, "\n") }) },
  }
end
