--[[
** emit_platforms.lua — generated/sl_platforms.h/.c: per-platform constants, the
** protocol constants, and the offsets of every per-platform struct (so code that
** picks the platform at run time can address the shared region).
--]]
local util = require("util")
local model_mod = require("model")

local HEADER = [[
${banner}
#ifndef SL_PLATFORMS_H
#define SL_PLATFORMS_H

#include <stddef.h>
#include <stdint.h>

/* Protocol constants (all platforms). */
${constants}

/* Largest value of each platform constant over all platforms (static array bounds). */
${maxima}
${layout_types}
/* The chip generations (platforms.lua `arch`), in order of first appearance. */
enum sl_arch {
${arch_enum}
  SL_ARCH_COUNT
};
extern const char *const sl_arch_names[SL_ARCH_COUNT];

typedef struct sl_platform_info {
  const char *name;        /* "a2a3", "a2a3sim", "a5", "a5sim"  */
  const char *arch;        /* "a2a3" | "a5"                      */
  int arch_id;             /* enum sl_arch                       */
  int is_sim;
  uint64_t clock_freq_hz;
  const char *transport;   /* "shared_memory" | "host_shadow" (host <-> device transport) */
  const char *hbg_producer; /* "aicpu" | "aicore": the host_build_graph scheduler producer */
${fields}
${layout_fields}
} sl_platform_info;

extern const sl_platform_info sl_platform_table[];
extern const unsigned sl_platform_table_len;

/* "a2a3", "a2a3sim", "a5", "a5sim"; NULL for anything else. */
const sl_platform_info *sl_platform_by_name(const char *name);
/* The platform names, ", "-separated, into buf (sims_only: the simulated ones); returns buf. */
char *sl_platform_names(char *buf, size_t size, int sims_only);
/* The platform commands default to: the first simulated one of the table. */
const char *sl_platform_default_sim(void);

#endif /* SL_PLATFORMS_H */
]]

local SOURCE = [[
${banner}
#include "sl_platforms.h"

#include <stdio.h>
#include <string.h>

#include "sl_records.h"
${layouts}
const sl_platform_info sl_platform_table[] = {
${rows}
};
const unsigned sl_platform_table_len = ${count}u;
const char *const sl_arch_names[SL_ARCH_COUNT] = {${arch_names}};

const sl_platform_info *sl_platform_by_name(const char *name) {
  for (unsigned i = 0; name && i < sl_platform_table_len; i++)
    if (strcmp(sl_platform_table[i].name, name) == 0) return &sl_platform_table[i];
  return NULL;
}

const char *sl_platform_default_sim(void) {
  for (unsigned i = 0; i < sl_platform_table_len; i++)
    if (sl_platform_table[i].is_sim) return sl_platform_table[i].name;
  return NULL;
}

char *sl_platform_names(char *buf, size_t size, int sims_only) {
  size_t n = 0;
  if (size) buf[0] = 0;
  for (unsigned i = 0; i < sl_platform_table_len; i++) {
    if (sims_only && !sl_platform_table[i].is_sim) continue;
    int w = snprintf(buf + n, n < size ? size - n : 0, "%s%s", n ? ", " : "", sl_platform_table[i].name);
    if (w > 0) n += (size_t)w;
  }
  return buf;
}
]]

local function int_fields()
  local out = {}
  for _, f in ipairs(model_mod.PLATFORM_FIELDS) do
    if f ~= "clock_freq_hz" then out[#out + 1] = f end
  end
  return out
end

return function(model)
  local fields = int_fields()
  local constants, maxima = {}, {}
  for _, c in ipairs(model.constants) do
    constants[#constants + 1] = string.format("#define SL_%s 0x%Xu /* %s */", util.upper(c.name), c.value, c.doc or "")
  end
  for _, f in ipairs(fields) do
    local m = 0
    for _, p in ipairs(model.platforms) do
      if p[f] > m then m = p[f] end
    end
    maxima[#maxima + 1] = string.format("#define SL_PLATFORM_MAX_%s %du", util.upper(f), m)
  end
  local field_decls = {}
  for _, f in ipairs(fields) do field_decls[#field_decls + 1] = "  unsigned " .. f .. ";" end

  -- per-platform structs: a layout type (size + field offsets) and one instance per arch
  local layout_types, layout_fields, layouts = {}, {}, {}
  local per_platform = {}
  for _, rec in ipairs(model.records) do
    if rec.layouts then per_platform[#per_platform + 1] = rec end
  end
  for _, rec in ipairs(per_platform) do
    local t = "sl_" .. rec.name .. "_layout"
    layout_types[#layout_types + 1] = ""
    layout_types[#layout_types + 1] = string.format("/* Size, alignment and field offsets of sl_%s_<arch>. */", rec.name)
    layout_types[#layout_types + 1] = "typedef struct " .. t .. " {"
    layout_types[#layout_types + 1] = "  size_t size, align;"
    for _, m in ipairs(rec.layouts[1].members) do
      if not m.gap then layout_types[#layout_types + 1] = "  size_t " .. m.name .. ";" end
    end
    layout_types[#layout_types + 1] = "} " .. t .. ";"
    layout_fields[#layout_fields + 1] = string.format("  const %s *%s;", t, rec.name)
    for _, lay in ipairs(rec.layouts) do
      local offs = {}
      for _, m in ipairs(lay.members) do
        if not m.gap then offs[#offs + 1] = string.format("offsetof(%s, %s)", lay.ctype, m.name) end
      end
      layouts[#layouts + 1] = string.format("\nstatic const %s %s = {\n    sizeof(%s), _Alignof(%s),\n    %s};",
        t, lay.name, lay.ctype, lay.ctype, table.concat(offs, ",\n    "))
    end
  end

  local arch_enum, arch_names, arch_seen = {}, {}, {}
  for _, p in ipairs(model.platforms) do
    if not arch_seen[p.arch] then
      arch_seen[p.arch] = true
      arch_enum[#arch_enum + 1] = string.format("  SL_ARCH_%s = %d,", util.upper(p.arch), #arch_names)
      arch_names[#arch_names + 1] = util.cstr(p.arch)
    end
  end
  local rows = {}
  for _, p in ipairs(model.platforms) do
    local vals = {}
    for _, f in ipairs(fields) do vals[#vals + 1] = string.format(".%s = %d", f, p[f]) end
    local lays = {}
    for _, rec in ipairs(per_platform) do lays[#lays + 1] = string.format(".%s = &%s_%s", rec.name, rec.name, p.arch) end
    local items = { ".name = " .. util.cstr(p.name), ".arch = " .. util.cstr(p.arch),
                    ".arch_id = SL_ARCH_" .. util.upper(p.arch),
                    ".is_sim = " .. (p.is_sim and 1 or 0), string.format(".clock_freq_hz = %dull", p.clock_freq_hz),
                    ".transport = " .. util.cstr(p.transport), ".hbg_producer = " .. util.cstr(p.hbg_producer) }
    for _, v in ipairs(vals) do items[#items + 1] = v end
    for _, v in ipairs(lays) do items[#items + 1] = v end
    rows[#rows + 1] = util.wrap("    {", items, "},")
  end
  local banner = util.banner("c", { "platforms.lua", "records.lua" }, "Platform constants.")
  return {
    { path = "sl_platforms.h", text = util.fill(HEADER, {
      banner = banner, constants = table.concat(constants, "\n"), maxima = table.concat(maxima, "\n"),
      layout_types = table.concat(layout_types, "\n") .. "\n", fields = table.concat(field_decls, "\n"),
      arch_enum = table.concat(arch_enum, "\n"),
      layout_fields = table.concat(layout_fields, "\n") }) },
    { path = "sl_platforms.c", text = util.fill(SOURCE, {
      banner = banner, layouts = table.concat(layouts, "\n") .. "\n", rows = table.concat(rows, "\n"),
      count = #model.platforms, arch_names = table.concat(arch_names, ", ") }) },
  }
end
