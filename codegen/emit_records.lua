--[[
** emit_records.lua — generated/sl_records.h: every record and shared-region struct,
** with _Static_assert on sizeof, _Alignof and the offset of every field.
--]]
local util = require("util")
local layout = require("layout")

local function dims_text(dims)
  local s = ""
  for _, d in ipairs(dims) do s = s .. string.format("[%d]", d) end
  return s
end

local function member_lines(b, m, indent, align_prefix)
  local doc = m.spec and m.spec.doc
  local note = string.format("/* @%d%s */", m.offset, doc and (" " .. doc) or "")
  if m.gap then note = string.format("/* @%d padding */", m.offset) end
  if m.union then
    b:add(indent, align_prefix, "union { ", note)
    for _, v in ipairs(m.variants) do
      b:add(indent, "  struct {")
      for _, vm in ipairs(v.members) do member_lines(b, vm, indent .. "    ", "") end
      b:add(indent, "  } ", v.name, ";")
    end
    b:add(indent, "} ", m.name, ";")
  else
    b:add(indent, align_prefix, m.ctype, " ", m.name, dims_text(m.dims), "; ", note)
  end
end

local function emit_struct(b, lay)
  local spec = lay.spec
  b:add("")
  b:addf("/* %s — %d B, align %d%s */", spec.doc or lay.name, lay.size, lay.align,
    lay.platform and (", platform " .. lay.platform.name) or "")
  b:add("typedef struct ", lay.ctype, " {")
  for i, m in ipairs(lay.members) do
    local prefix = (i == 1 and lay.explicit_align) and string.format("_Alignas(%d) ", lay.align) or ""
    member_lines(b, m, "  ", prefix)
  end
  b:add("} ", lay.ctype, ";")
  b:addf("_Static_assert(sizeof(%s) == %d, \"%s size\");", lay.ctype, lay.size, lay.ctype)
  b:addf("_Static_assert(_Alignof(%s) == %d, \"%s alignment\");", lay.ctype, lay.align, lay.ctype)
  for _, m in ipairs(lay.members) do
    if not m.gap then
      b:addf("_Static_assert(offsetof(%s, %s) == %d, \"%s.%s offset\");", lay.ctype, m.name, m.offset,
        lay.ctype, m.name)
    end
  end
  for _, leaf in ipairs(layout.leaves(lay)) do
    if leaf.variant then
      b:addf("_Static_assert(offsetof(%s, %s) == %d, \"%s.%s offset\");", lay.ctype, leaf.path, leaf.offset,
        lay.ctype, leaf.path)
    end
  end
end

return function(model)
  local b = util.buffer()
  b:add(util.banner("c", { "records.lua", "platforms.lua" }, "Record and shared-region structs, byte-exact."))
  b:add("#ifndef SL_RECORDS_H")
  b:add("#define SL_RECORDS_H")
  b:add("")
  b:add("#include <stddef.h>")
  b:add("#include <stdint.h>")
  b:add("")
  b:add("/* What a ready-queue entry carries (sl_ready_entry.kind). */")
  b:add("enum sl_buffer_kind {")
  for _, k in ipairs(model.buffer_kinds) do
    b:addf("  SL_BUF_%s = %d, /* %s */", k.kind, k.id, k.record.ctype)
  end
  b:add("  SL_BUF_KIND_COUNT")
  b:add("};")
  for _, rec in ipairs(model.records) do
    if rec.layout then
      emit_struct(b, rec.layout)
    else
      for _, lay in ipairs(rec.layouts) do emit_struct(b, lay) end
    end
  end
  b:add("")
  b:add("#endif /* SL_RECORDS_H */")
  return { { path = "sl_records.h", text = b:text() } }
end
