--[[
** emit_proto.lua — generated/swimlane_capture.proto: one message per capture record
** kind plus the Capture container (records.lua `capture`). Arrays become one field
** per named element; a union becomes the flattened fields of all its variants
** (only the phase kind's variant is set).
--]]
local util = require("util")
local layout = require("layout")

-- Proto fields of a record: list of { name, type, pb, doc }
local function record_fields(rec)
  local out = {}
  for _, leaf in ipairs(layout.leaves(rec.layout)) do
    local m = leaf.member
    if not m.pad then
      local doc = m.spec.doc
      if leaf.variant then doc = string.format("%s view of %s%s", leaf.variant.name, leaf.union.name, doc and ("; " .. doc) or "") end
      if #m.dims > 0 then
        for i, el in ipairs(m.spec.elements) do
          out[#out + 1] = { name = m.name .. "_" .. el, type = m.prim.pb, pb = m.spec.pb[i], doc = i == 1 and doc or nil,
                            member = m, element = i - 1, leaf = leaf }
        end
      else
        out[#out + 1] = { name = m.name, type = m.prim.pb, pb = m.spec.pb, doc = doc, member = m, leaf = leaf }
      end
    end
  end
  return out
end

-- "  reserved 16, 17;" for the proto numbers of removed fields (records.lua `reserved`).
local function add_reserved(b, list)
  if type(list) ~= "table" or #list == 0 then return end
  local nums = {}
  for i, n in ipairs(list) do nums[i] = tostring(n) end
  b:addf("  reserved %s;  // removed fields: never reuse", table.concat(nums, ", "))
end

local function emit(model)
  local b = util.buffer()
  b:add(util.banner("proto", { "records.lua", "phases.lua" }, "The protobuf capture format (chip_swimlane_records.pb)."))
  b:add('syntax = "proto3";')
  b:add("")
  b:add("package swimlane;")
  b:add("")
  b:add("// Scheduler phase kinds (schema/phases.lua): the values of SchedPhaseRecord.kind, which")
  b:add("// stays a plain uint32 so captures with kinds newer than the reader still decode.")
  b:add("enum PhaseKind {")
  if #model.phases == 0 or model.phases[1].id ~= 0 then b:add("  PHASE_KIND_UNSPECIFIED = 0;") end
  for _, p in ipairs(model.phases) do
    b:addf("  PHASE_%s = %d;  // %s, lane %s", util.upper(p.name), p.id, p.role, p.lane)
  end
  if #model.retired_ids > 0 then
    local ids = {}
    for i, id in ipairs(model.retired_ids) do ids[i] = tostring(id) end
    b:addf("  reserved %s;  // retired ids", table.concat(ids, ", "))
  end
  b:add("}")
  for _, rec in ipairs(model.records) do
    if rec.spec.proto then
      b:add("")
      b:addf("// %s (%s, %d bytes on the device)", rec.spec.doc or rec.name, rec.ctype, rec.layout.size)
      b:addf("message %s {", rec.spec.proto)
      for _, f in ipairs(record_fields(rec)) do
        b:addf("  %s %s = %d;%s", f.type, f.name, f.pb, f.doc and ("  // " .. f.doc) or "")
      end
      add_reserved(b, rec.spec.reserved)
      b:add("}")
    end
  end
  for _, m in ipairs(model.capture) do
    b:add("")
    if m.doc then b:add("// " .. m.doc) end
    b:addf("message %s {", m.name)
    for _, f in ipairs(m.fields) do
      b:addf("  %s%s %s = %d;%s", f.repeated and "repeated " or "", f.type, f.name, f.pb,
        f.doc and ("  // " .. f.doc) or "")
    end
    add_reserved(b, m.reserved)
    b:add("}")
  end
  return { { path = "swimlane_capture.proto", text = b:text() } }
end

return setmetatable({ record_fields = record_fields }, { __call = function(_, model) return emit(model) end })
