--[[
** emit_luadata.lua — generated/sl_schema_lua.c: the schema's facts the read side needs
** (views, lanes, phases, aliases, retired names, levels, platforms, dtypes, buffer kinds,
** record fields), as one Lua chunk compiled into the binary as a C string. The converter
** hands it to its Lua rules as the module "swimlane.schema": no schema source file is
** read at run time.
--]]
local util = require("util")
local ALL = require("load").FILES_LUA

-- Deterministic Lua literal of a data value (sorted keys, lists as lists).
local function lit(v, indent)
  local t = type(v)
  if t == "string" then return string.format("%q", v) end
  if t == "number" or t == "boolean" then return tostring(v) end
  if t ~= "table" then error("cannot serialise " .. t) end
  local n = #v
  local parts = {}
  local pad = indent .. "  "
  for i = 1, n do parts[#parts + 1] = pad .. lit(v[i], pad) end
  for _, k in ipairs(util.sorted_keys(v)) do
    if not (math.type(k) == "integer" and k >= 1 and k <= n) then
      local key = type(k) == "string" and k:match("^[%a_][%w_]*$") and k or ("[" .. lit(k, pad) .. "]")
      parts[#parts + 1] = pad .. key .. " = " .. lit(v[k], pad)
    end
  end
  if #parts == 0 then return "{}" end
  return "{\n" .. table.concat(parts, ",\n") .. ",\n" .. indent .. "}"
end

local function pick(src, keys)
  local out = {}
  for _, k in ipairs(keys) do out[k] = src[k] end
  return out
end

local function data(model)
  local d = { fingerprint = model.fingerprint, layout_fingerprint = model.layout_fingerprint,
              views = {}, lanes = {}, phases = {}, aliases = {}, retired = {}, levels = {},
              platforms = {}, dtypes = {}, buffer_kinds = {}, producer_lanes = {}, runtimes = {},
              orch_phases = model.orch_phases, orch_aliases = {}, orch_retired = model.orch_retired,
              host_phases = model.host_phases }
  for _, v in ipairs(model.views) do
    d.views[#d.views + 1] = pick(v, { "key", "pid", "process_name", "sort_index", "name_variants" })
  end
  for _, l in ipairs(model.lanes) do
    d.lanes[#d.lanes + 1] = pick(l, { "key", "view", "pid", "tid_base", "tid_stride", "name", "sort_index" })
  end
  for _, p in ipairs(model.phases) do
    local e = pick(p, { "id", "name", "display", "aicore_display", "role", "lane", "cname", "render_as",
                        "producers", "runtimes", "parent", "lane_by_runtime" })
    e.variant = p.variant and p.variant.name
    e.aicore_variant = p.aicore_variant and p.aicore_variant.name
    d.phases[#d.phases + 1] = e
  end
  for _, a in ipairs(model.aliases) do d.aliases[a.from] = a.to end
  for _, a in ipairs(model.orch_aliases) do d.orch_aliases[a.from] = a.to end
  -- the spans a record's timestamp pairs draw (records.lua `spans`), by record name
  d.record_spans = {}
  for _, rec in ipairs(model.records) do
    if rec.spans and #rec.spans > 0 then d.record_spans[rec.name] = rec.spans end
  end
  for _, r in ipairs(model.retired) do d.retired[#d.retired + 1] = r end
  for _, l in ipairs(model.levels) do d.levels[#d.levels + 1] = { value = l.value, name = l.name } end
  for _, p in ipairs(model.platforms) do
    d.platforms[#d.platforms + 1] = { name = p.name, arch = p.arch, is_sim = p.is_sim }
  end
  for _, t in ipairs(model.dtypes) do d.dtypes[#d.dtypes + 1] = pick(t, { "name", "raw", "size" }) end
  for _, k in ipairs(model.buffer_kinds) do
    d.buffer_kinds[#d.buffer_kinds + 1] = { id = k.id, kind = k.kind, record = k.record.name }
  end
  for _, pl in ipairs(model.producer_lanes) do d.producer_lanes[pl.producer] = pl.lane end
  for short, long in pairs(model.runtime_names) do d.runtimes[long] = short end
  return d
end

return function(model)
  local chunk = "return " .. lit(data(model), "") .. "\n"
  local b = util.buffer()
  b:add(util.banner("c", ALL, "The schema as a Lua chunk (module \"swimlane.schema\" of the converter's rules)."))
  b:add('#include "sl_schema_lua.h"')
  b:add("")
  b:add("const char sl_schema_lua[] =")
  for line in chunk:gmatch("([^\n]*)\n") do b:add("  ", util.cstr(line .. "\n")) end
  b:add("  ;")
  b:add("const unsigned long sl_schema_lua_len = sizeof sl_schema_lua - 1;")
  local h = util.buffer()
  h:add(util.banner("c", ALL, "The schema as a Lua chunk returning one data table."))
  h:add("#ifndef SL_SCHEMA_LUA_H")
  h:add("#define SL_SCHEMA_LUA_H")
  h:add("")
  h:add("extern const char sl_schema_lua[];")
  h:add("extern const unsigned long sl_schema_lua_len;")
  h:add("")
  h:add("#endif /* SL_SCHEMA_LUA_H */")
  return { { path = "sl_schema_lua.c", text = b:text() }, { path = "sl_schema_lua.h", text = h:text() } }
end
