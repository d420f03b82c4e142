--[[
** layout.lua — compute the C layout of a record: offsets, padding, size, alignment.
**
** Follows the C rules the compiler will apply (natural alignment, struct size
** rounded up to its alignment) so the generated _Static_asserts hold; a declared
** offset may only move a field forward (the gap becomes explicit padding).
--]]
local util = require("util")

local M = {}

M.PRIMITIVES = {
  u8 = { size = 1, ctype = "uint8_t", pb = "uint32", signed = false },
  u16 = { size = 2, ctype = "uint16_t", pb = "uint32", signed = false },
  u32 = { size = 4, ctype = "uint32_t", pb = "uint32", signed = false },
  u64 = { size = 8, ctype = "uint64_t", pb = "uint64", signed = false },
  i8 = { size = 1, ctype = "int8_t", pb = "sint32", signed = true },
  i16 = { size = 2, ctype = "int16_t", pb = "sint32", signed = true },
  i32 = { size = 4, ctype = "int32_t", pb = "sint32", signed = true },
  i64 = { size = 8, ctype = "int64_t", pb = "sint64", signed = true },
}

local function is_pow2(n) return n > 0 and (n & (n - 1)) == 0 end

-- Resolve a count (number, platform field name, or list of those) to a list of dims.
local function resolve_dims(count, platform, err)
  if count == nil then return {} end
  local list = type(count) == "table" and count or { count }
  local dims = {}
  for i, c in ipairs(list) do
    if math.type(c) == "integer" then
      dims[i] = c
    elseif type(c) == "string" then
      if not platform then
        err(string.format("count '%s' is a platform constant: the record needs per_platform = true", c))
        return nil
      end
      local v = platform[c]
      if math.type(v) ~= "integer" then
        err(string.format("count '%s' is not a constant of platform '%s'", c, platform.name))
        return nil
      end
      dims[i] = v
    else
      err("count must be an integer or a platform constant name")
      return nil
    end
    if dims[i] <= 0 then
      err(string.format("count %d must be positive", dims[i]))
      return nil
    end
  end
  return dims
end

-- Type of one field: { size, align, ctype, prim = primitive entry | nil, record = layout | nil }
local function field_type(f, ctx, err)
  local prim = M.PRIMITIVES[f.type]
  if prim then return { size = prim.size, align = prim.size, ctype = prim.ctype, prim = prim } end
  local rec = ctx.layouts[f.type]
  if rec then return { size = rec.size, align = rec.align, ctype = rec.ctype, record = rec } end
  if ctx.declared[f.type] then
    err(string.format("field '%s': type '%s' is declared later; declare it before use", f.name, f.type))
  else
    err(string.format("field '%s': unknown type '%s'", f.name, tostring(f.type)))
  end
  return nil
end

-- Lay out a list of fields starting at `start`; returns members, end offset, max align.
local function lay_fields(fields, start, ctx, err, allow_union, path_prefix)
  local members, pos, max_align = {}, start, 1
  local seen = {}
  for _, f in ipairs(fields or {}) do
    if type(f) ~= "table" or type(f.name) ~= "string" or not f.name:match("^[%a_][%w_]*$") then
      err("every field needs a C identifier `name`")
      return nil
    end
    if seen[f.name] then
      err(string.format("field '%s' is declared twice", f.name))
      return nil
    end
    if f.doc ~= nil and type(f.doc) ~= "string" then
      err(string.format("field '%s': doc must be a string", f.name))
      return nil
    end
    seen[f.name] = true
    local m = { name = f.name, spec = f, path = path_prefix .. f.name, pad = f.name:sub(1, 1) == "_" }
    local size, align
    if f.type == "union" then
      if not allow_union then
        err(string.format("field '%s': unions cannot nest", f.name))
        return nil
      end
      if type(f.variants) ~= "table" or #f.variants == 0 then
        err(string.format("union '%s' has no variants", f.name))
        return nil
      end
      m.union = true
      m.variants = {}
      size, align = 0, 1
      local vseen = {}
      for vi, v in ipairs(f.variants) do
        if type(v) ~= "table" or type(v.name) ~= "string" or vseen[v.name] then
          err(string.format("union '%s': variant %d needs a unique name", f.name, vi))
          return nil
        end
        vseen[v.name] = true
        local vm, vend, valign = lay_fields(v.fields, 0, ctx, err, false, m.path .. "." .. v.name .. ".")
        if not vm then return nil end
        local byname = {}
        for _, x in ipairs(vm) do byname[x.name] = x end
        for _, c in ipairs(type(v.compose) == "table" and v.compose or {}) do
          if type(c) ~= "table" then
            err(string.format("union '%s': variant '%s': compose entries must be tables", f.name, v.name))
            return nil
          end
          for _, side in ipairs({ "hi", "lo" }) do
            if not byname[c[side]] then
              err(string.format("union '%s': variant '%s': compose '%s' names missing field '%s'",
                f.name, v.name, tostring(c.name), tostring(c[side])))
              return nil
            end
          end
        end
        m.variants[vi] = { name = v.name, index = vi, members = vm, size = vend, align = valign,
                           by_name = byname, compose = v.compose or {} }
        if vend > size then size = vend end
        if valign > align then align = valign end
      end
      size = util.align_up(size, align)
      m.variant_by_name = {}
      for _, v in ipairs(m.variants) do m.variant_by_name[v.name] = v end
      if f.default and not m.variant_by_name[f.default] then
        err(string.format("union '%s': default names missing variant '%s'", f.name, tostring(f.default)))
        return nil
      end
      m.default = m.variant_by_name[f.default] or m.variants[1]
      m.elem_size, m.dims = size, {}
    else
      local ft = field_type(f, ctx, err)
      if not ft then return nil end
      local dims = resolve_dims(f.count, ctx.platform, function(msg) err("field '" .. f.name .. "': " .. msg) end)
      if not dims then return nil end
      local n = 1
      for _, d in ipairs(dims) do n = n * d end
      m.type, m.ctype, m.prim, m.record, m.dims, m.elem_size = f.type, ft.ctype, ft.prim, ft.record, dims, ft.size
      size, align = ft.size * n, ft.align
    end
    local natural = util.align_up(pos, align)
    local offset = natural
    if f.offset ~= nil then
      if math.type(f.offset) ~= "integer" then
        err(string.format("field '%s': offset must be an integer", f.name))
        return nil
      end
      if f.offset < pos then
        local prev = members[#members]
        err(string.format("field '%s' at offset %d overlaps '%s' (bytes %d..%d)", f.name, f.offset,
          prev and prev.name or "?", prev and prev.offset or start, pos - 1))
        return nil
      end
      if f.offset % align ~= 0 then
        err(string.format("field '%s': offset %d is not a multiple of its alignment %d", f.name, f.offset, align))
        return nil
      end
      offset = f.offset
    end
    if offset > pos then
      members[#members + 1] = { name = string.format("_gap_%d", pos - start), gap = true, pad = true,
                                offset = pos, size = offset - pos, dims = { offset - pos },
                                ctype = "uint8_t", elem_size = 1 }
    end
    m.offset, m.size, m.align = offset, size, align
    members[#members + 1] = m
    pos = offset + size
    if align > max_align then max_align = align end
  end
  return members, pos, max_align
end

-- Layout of record `rec` (schema entry). ctx = { platform = resolved platform | nil,
-- layouts = name -> layout, declared = name -> true, suffix = "" | "_a2a3" }.
-- err(msg) reports a problem. Returns the layout or nil.
function M.layout(rec, ctx, err)
  local members, stop, natural_align = lay_fields(rec.fields, 0, ctx, err, true, "")
  if not members then return nil end
  local align = natural_align
  if rec.align ~= nil then
    if math.type(rec.align) ~= "integer" or not is_pow2(rec.align) then
      err("align must be a power of two")
      return nil
    end
    if rec.align < natural_align then
      err(string.format("declared align %d is below the natural alignment %d", rec.align, natural_align))
      return nil
    end
    align = rec.align
  end
  local size = util.align_up(stop, align)
  if size > stop then
    members[#members + 1] = { name = "_tail_pad", gap = true, pad = true, offset = stop, size = size - stop,
                              dims = { size - stop }, ctype = "uint8_t", elem_size = 1 }
  end
  local declared = rec.size
  if type(declared) == "table" then declared = ctx.platform and declared[ctx.platform.name] end
  if declared ~= nil and declared ~= size then
    err(string.format("declared size %s != computed size %d", tostring(declared), size))
    return nil
  end
  if declared == nil then
    err(string.format("no declared size%s (computed %d)", ctx.platform and (" for " .. ctx.platform.name) or "", size))
    return nil
  end
  return {
    name = rec.name .. (ctx.suffix or ""),
    base = rec.name,
    ctype = "sl_" .. rec.name .. (ctx.suffix or ""),
    size = size,
    align = align,
    explicit_align = align > natural_align,
    members = members,
    spec = rec,
    platform = ctx.platform,
  }
end

-- Every leaf of a layout (arrays are one leaf), with C access paths, in offset order.
function M.leaves(layout)
  local out = {}
  for _, m in ipairs(layout.members) do
    if m.union then
      for _, v in ipairs(m.variants) do
        for _, vm in ipairs(v.members) do
          if not vm.gap then
            out[#out + 1] = { member = vm, path = vm.path, offset = m.offset + vm.offset, variant = v, union = m }
          end
        end
      end
    elseif not m.gap then
      out[#out + 1] = { member = m, path = m.path, offset = m.offset }
    end
  end
  return out
end

return M
