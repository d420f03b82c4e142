--[[
** emit_glue.lua — generated/sl_proto_glue.h/.c: copy each capture record between its
** C struct and its protobuf-c message. to_pb never allocates (arrays are flattened
** to scalar fields); from_pb rejects values that do not fit the C field.
--]]
local util = require("util")
local proto = require("emit_proto")

local RANGE = {
  u8 = { max = "UINT8_MAX" }, u16 = { max = "UINT16_MAX" },
  i8 = { min = "INT8_MIN", max = "INT8_MAX" }, i16 = { min = "INT16_MIN", max = "INT16_MAX" },
}

local function c_access(f)
  local path = "r->" .. f.leaf.path
  if f.element then path = path .. string.format("[%d]", f.element) end
  return path
end

return function(model)
  local h, c = util.buffer(), util.buffer()
  local banner = util.banner("c", { "records.lua", "phases.lua" }, "Glue between record structs and protobuf-c messages.")
  h:add(banner)
  h:add("#ifndef SL_PROTO_GLUE_H")
  h:add("#define SL_PROTO_GLUE_H")
  h:add("")
  h:add('#include "sl_records.h"')
  h:add('#include "swimlane_capture.pb-c.h"')
  h:add("")
  h:add("/* to_pb initialises *m and fills every field (no allocation: m points nowhere).")
  h:add("** from_pb fills every byte of *r (padding zeroed); -1 if a value does not fit. */")

  c:add(banner)
  c:add('#include "sl_proto_glue.h"')
  c:add("")
  c:add("#include <stdint.h>")
  c:add("#include <string.h>")
  c:add("")
  c:add('#include "sl_phases.h"')

  for _, rec in ipairs(model.records) do
    if rec.spec.proto then
      local msg = util.pb_type(rec.spec.proto)
      local fields = proto.record_fields(rec)
      local to, from = {}, {}
      local union = rec.union
      local by_variant = {}
      for _, f in ipairs(fields) do
        if f.leaf.variant then
          by_variant[f.leaf.variant] = by_variant[f.leaf.variant] or {}
          table.insert(by_variant[f.leaf.variant], f)
        else
          to[#to + 1] = string.format("  m->%s = %s;", f.name, c_access(f))
          local rng = RANGE[f.member.type]
          if rng then
            local cond = {}
            if rng.min then cond[#cond + 1] = string.format("m->%s < %s", f.name, rng.min) end
            cond[#cond + 1] = string.format("m->%s > %s", f.name, rng.max)
            from[#from + 1] = string.format("  if (%s) return -1;", table.concat(cond, " || "))
          end
          from[#from + 1] = string.format("  %s = (%s)m->%s;", c_access(f), f.member.ctype, f.name)
        end
      end
      if union then
        local sel = string.format("  enum sl_phase_variant v = sl_phase_variant_of(r->%s);", rec.spec.phase_kind)
        local fix = string.format("  if (v == SL_PHASE_VARIANT_NONE) v = SL_PHASE_VARIANT_%s;", util.upper(union.default.name))
        for _, lines in ipairs({ to, from }) do
          lines[#lines + 1] = sel
          lines[#lines + 1] = fix
          lines[#lines + 1] = "  switch (v) {"
        end
        for _, v in ipairs(union.variants) do
          for _, lines in ipairs({ to, from }) do
            lines[#lines + 1] = string.format("  case SL_PHASE_VARIANT_%s:", util.upper(v.name))
          end
          for _, f in ipairs(by_variant[v] or {}) do
            to[#to + 1] = string.format("    m->%s = %s;", f.name, c_access(f))
            from[#from + 1] = string.format("    %s = (%s)m->%s;", c_access(f), f.member.ctype, f.name)
          end
          to[#to + 1] = "    break;"
          from[#from + 1] = "    break;"
        end
        for _, lines in ipairs({ to, from }) do
          lines[#lines + 1] = "  default:"
          lines[#lines + 1] = "    break;"
          lines[#lines + 1] = "  }"
        end
      end
      local base = rec.ctype
      h:add("")
      h:addf("void %s_to_pb(const %s *r, %s *m);", base, base, msg)
      h:addf("int %s_from_pb(const %s *m, %s *r);", base, msg, base)
      c:add("")
      c:addf("void %s_to_pb(const %s *r, %s *m) {", base, base, msg)
      c:addf("  %s(m);", util.pb_init(rec.spec.proto))
      for _, l in ipairs(to) do c:add(l) end
      c:add("}")
      c:add("")
      c:addf("int %s_from_pb(const %s *m, %s *r) {", base, msg, base)
      c:add("  memset(r, 0, sizeof *r);")
      for _, l in ipairs(from) do c:add(l) end
      c:add("  return 0;")
      c:add("}")
    end
  end
  h:add("")
  h:add("#endif /* SL_PROTO_GLUE_H */")
  return { { path = "sl_proto_glue.h", text = h:text() }, { path = "sl_proto_glue.c", text = c:text() } }
end
