--[[
** emit_fingerprint.lua — generated/sl_fingerprint.h: the capture layout this build
** reads and writes, and its fingerprint.
**
** SL_SCHEMA_LAYOUT lists every capture field as "<message>.<field path>=<type>@<pb>"
** (arrays: "<type>x<n>@<pb>,<pb>,..."), the JSON columns of every row record
** ("columns.<message>=<name>,..."), every container field and every phase id's name,
** ";"-separated. SL_SCHEMA_FINGERPRINT is FNV-1a 64 of that text: it changes when a
** record layout, a field id, a wire type or a phase id changes, never for colours,
** labels or prose. Captures carry both; readers compare them on read (reader_schema.c).
--]]
local util = require("util")
local layout = require("layout")
local ALL = require("load").FILES_LUA

local M = {}

function M.describe(model)
  local out = {}
  for _, rec in ipairs(model.records) do
    if rec.spec.proto and rec.layout then
      for _, leaf in ipairs(layout.leaves(rec.layout)) do
        local m = leaf.member
        if not m.pad and m.prim then
          local n = 1
          for _, d in ipairs(m.dims) do n = n * d end
          local pbs = type(m.spec.pb) == "table" and m.spec.pb or { m.spec.pb }
          local ty = m.spec.type .. (#m.dims > 0 and ("x" .. n) or "")
          local nums = {}
          for i, pb in ipairs(pbs) do nums[i] = tostring(pb) end
          out[#out + 1] = string.format("%s.%s=%s@%s", rec.spec.proto, leaf.path, ty, table.concat(nums, ","))
        end
      end
    end
  end
  -- the JSON columns of each row record, in order (context columns by their name): a JSON
  -- capture describes its own rows, so a reader names a newer writer's extra columns and
  -- refuses a reordering that would misread them
  for _, rec in ipairs(model.records) do
    local ex = rec.spec.export
    if rec.spec.proto and ex and ex.shape == "row" then
      local cols = {}
      for i, c in ipairs(ex.columns) do cols[i] = c.ctx or c.field or c.compose or c.phase_name or c.orch_phase_name end
      out[#out + 1] = string.format("columns.%s=%s", rec.spec.proto, table.concat(cols, ","))
    end
  end
  for _, msg in ipairs(model.capture) do
    for _, f in ipairs(msg.fields) do
      out[#out + 1] = string.format("%s.%s=%s%s@%d", msg.name, f.name, f.type, f.repeated and "[]" or "", f.pb)
    end
  end
  for _, p in ipairs(model.phases) do out[#out + 1] = string.format("phase.%d=%s", p.id, p.name) end
  for _, o in ipairs(model.orch_phases or {}) do out[#out + 1] = string.format("orch.%d=%s", o.id, o.name) end
  return table.concat(out, ";")
end

M.hash = util.fnv1a64

function M.emit(model)
  local b = util.buffer()
  b:add(util.banner("c", ALL, "Capture layout and its fingerprint (FNV-1a 64 of SL_SCHEMA_LAYOUT)."))
  b:add("#ifndef SL_FINGERPRINT_H")
  b:add("#define SL_FINGERPRINT_H")
  b:add("")
  b:addf('#define SL_SCHEMA_FINGERPRINT "%s"', model.fingerprint)
  b:add("/* what the generator emits; hand-written code checks it (sl_generated_gate.h) */")
  b:addf("#define SL_GENERATED_FORMAT %d", util.FORMAT)
  b:add("/* every capture field: \"<message>.<path>=<type>@<pb>\", \";\"-separated */")
  b:add("#define SL_SCHEMA_LAYOUT \\")
  local text = model.layout_text
  local parts = {}
  for item in text:gmatch("[^;]+") do parts[#parts + 1] = item end
  for i, item in ipairs(parts) do
    b:add("  ", util.cstr(item .. (i < #parts and ";" or "")), i < #parts and " \\" or "")
  end
  b:add("")
  b:add("#endif /* SL_FINGERPRINT_H */")
  return { { path = "sl_fingerprint.h", text = b:text() } }
end

return setmetatable(M, { __call = function(_, model) return M.emit(model) end })
