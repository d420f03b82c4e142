--[[
** emit_writers.lua — generated/sl_writers.h: static inline device writers, one per
** record kind (and one per scheduler phase), each gated by the record's minimum
** perf level. A writer fills every byte of the record (padding zeroed) and
** returns 1, or returns 0 without touching it when `level` is too low.
--]]
local util = require("util")

local POSITIONAL = { "a", "b", "c", "d", "e", "f", "g", "h" }

local function array_param(m)
  return string.format("const %s %s[%d]", m.ctype, m.name, m.dims[1])
end

-- Statements storing member m from a parameter of the same name (arrays: NULL -> zeros).
local function store(lines, m, indent, target)
  target = target or ("r->" .. m.name)
  if m.gap or m.pad then
    lines[#lines + 1] = string.format("%smemset(%s%s, 0, sizeof %s);", indent, #m.dims > 0 and "" or "&", target, target)
  elseif #m.dims > 0 then
    lines[#lines + 1] = string.format("%sfor (unsigned i = 0; i < %d; i++) %s[i] = %s ? %s[i] : 0;", indent,
      m.dims[1], target, m.name, m.name)
  else
    lines[#lines + 1] = string.format("%s%s = %s;", indent, target, m.name)
  end
end

local function check_simple(rec)
  for _, m in ipairs(rec.layout.members) do
    if m.record or #m.dims > 1 then
      error(string.format("writer for %s: field '%s' is a struct or multi-dimensional array", rec.name, m.name))
    end
  end
end

local function plain_writer(b, rec)
  check_simple(rec)
  local params, body = {}, {}
  for _, m in ipairs(rec.layout.members) do
    if not m.pad then params[#params + 1] = #m.dims > 0 and array_param(m) or (m.ctype .. " " .. m.name) end
    store(body, m, "  ")
  end
  local gate = "SL_MIN_LEVEL_" .. util.upper(rec.spec.writer)
  b:add("")
  b:addf("/* %s (%s; level >= %s). */", rec.spec.doc or rec.name, rec.ctype, gate)
  table.insert(params, 1, rec.ctype .. " *r")
  table.insert(params, 1, "unsigned level")
  b:add(util.wrap(string.format("static inline int sl_write_%s(", rec.spec.writer), params, ") {"))
  b:addf("  if (level < %s) return 0;", gate)
  for _, l in ipairs(body) do b:add(l) end
  b:add("  return 1;")
  b:add("}")
end

-- The record carrying a phase id: a generic writer plus one per phase kind.
local function phase_writers(b, rec, model)
  check_simple(rec)
  local kind_field = rec.spec.phase_kind
  local union = rec.union
  local npos = 0
  for _, v in ipairs(union.variants) do
    if #v.members > npos then npos = #v.members end
  end
  local gate = "SL_MIN_LEVEL_" .. util.upper(rec.spec.writer)

  -- generic: (level, r, kind, <other fields>, a, b, ..., <arrays>)
  local params, common = { "uint32_t " .. kind_field }, {}
  local body = {}
  for _, m in ipairs(rec.layout.members) do
    if m.union then
      for i = 1, npos do
        local dm = union.default.members[i]
        params[#params + 1] = string.format("%s %s", dm and dm.ctype or "uint32_t", POSITIONAL[i])
      end
      body[#body + 1] = string.format("  memset(&r->%s, 0, sizeof r->%s);", m.name, m.name)
      body[#body + 1] = string.format("  switch (%s) {", kind_field)
      for _, v in ipairs(union.variants) do
        if v ~= union.default then
          local cases = {}
          for _, p in ipairs(model.phases) do
            if p.variant == v then cases[#cases + 1] = "case " .. p.enum .. ":" end
          end
          if #cases > 0 then
            body[#body + 1] = util.wrap("  ", cases, "", 100):gsub(",", "")
            for i, vm in ipairs(v.members) do
              body[#body + 1] = string.format("    r->%s.%s.%s = (%s)%s;", m.name, v.name, vm.name, vm.ctype, POSITIONAL[i])
            end
            body[#body + 1] = "    break;"
          end
        end
      end
      body[#body + 1] = "  default:"
      for i, vm in ipairs(union.default.members) do
        body[#body + 1] = string.format("    r->%s.%s.%s = %s;", m.name, union.default.name, vm.name, POSITIONAL[i])
      end
      body[#body + 1] = "    break;"
      body[#body + 1] = "  }"
    else
      if not m.pad and m.name ~= kind_field then
        params[#params + 1] = #m.dims > 0 and array_param(m) or (m.ctype .. " " .. m.name)
        common[#common + 1] = m
      end
      store(body, m, "  ")
    end
  end
  b:add("")
  b:addf("/* Any phase kind (%s; level >= %s). The positional values fill the union view", rec.ctype, gate)
  b:add("** of the kind's variant, field by field (the default view for kinds without one);")
  b:add("** NULL arrays are recorded as zeros. */")
  table.insert(params, 1, rec.ctype .. " *r")
  table.insert(params, 1, "unsigned level")
  b:add(util.wrap(string.format("static inline int sl_write_%s(", rec.spec.writer), params, ") {"))
  b:addf("  if (level < %s) return 0;", gate)
  for _, l in ipairs(body) do b:add(l) end
  b:add("  return 1;")
  b:add("}")

  -- one per phase, and one more per phase an AICore Scheduler produces (its own variant:
  -- task-bound bars carry the task id)
  local function phase_writer(p, variant, fname, who)
    local pparams, args = {}, {}
    for _, m in ipairs(common) do
      if #m.dims == 0 then pparams[#pparams + 1] = m.ctype .. " " .. m.name end
    end
    local vals = {}
    if variant then
      local from_compose = {}
      for _, c in ipairs(variant.compose) do
        pparams[#pparams + 1] = "uint64_t " .. c.name
        from_compose[c.hi] = string.format("(uint32_t)(%s >> 32)", c.name)
        from_compose[c.lo] = string.format("(uint32_t)%s", c.name)
      end
      for i, vm in ipairs(variant.members) do
        if not from_compose[vm.name] then pparams[#pparams + 1] = vm.ctype .. " " .. vm.name end
        vals[i] = from_compose[vm.name] or vm.name
      end
    end
    for _, m in ipairs(common) do
      if #m.dims > 0 then pparams[#pparams + 1] = array_param(m) end
    end
    args[#args + 1] = p.enum
    for _, m in ipairs(rec.layout.members) do
      if m.union then
        for i = 1, npos do args[#args + 1] = vals[i] or "0" end
      elseif not m.pad and m.name ~= kind_field then
        args[#args + 1] = m.name
      end
    end
    b:add("")
    b:addf("/* %s (id %d)%s: %s on lane %s. tasks_processed: %s */", p.name, p.id, who, p.role, p.lane,
           p.tasks_processed)
    table.insert(pparams, 1, rec.ctype .. " *r")
    table.insert(pparams, 1, "unsigned level")
    table.insert(args, 1, "r")
    table.insert(args, 1, "level")
    b:add(util.wrap(string.format("static inline int %s(", fname), pparams, ") {"))
    b:add(util.wrap(string.format("  return sl_write_%s(", rec.spec.writer), args, ");"))
    b:add("}")
  end
  for _, p in ipairs(model.phases) do
    phase_writer(p, p.variant, "sl_write_phase_" .. p.name, "")
  end
  for _, p in ipairs(model.phases) do
    for _, producer in ipairs(p.producers or {}) do
      if producer == "aicore" then
        phase_writer(p, p.aicore_variant, "sl_write_aicore_phase_" .. p.name, " from an AICore Scheduler")
      end
    end
  end
end

-- The record carrying an orchestrator phase id: the plain writer plus one per kind.
local function orch_writers(b, rec, model)
  plain_writer(b, rec)
  local kind_field = rec.spec.orch_kind
  for _, o in ipairs(model.orch_phases or {}) do
    local params, args = { "unsigned level", rec.ctype .. " *r" }, { "level", "r" }
    for _, m in ipairs(rec.layout.members) do
      if m.name == kind_field then
        args[#args + 1] = util.orch_enum(o.name)
      elseif not m.pad then
        params[#params + 1] = #m.dims > 0 and array_param(m) or (m.ctype .. " " .. m.name)
        args[#args + 1] = m.name
      end
    end
    b:add("")
    b:addf("/* %s (orchestrator kind %d): drawn %s(...) on lane %s. */", o.name, o.id, o.display, o.lane)
    b:add(util.wrap(string.format("static inline int sl_write_%s(", o.name), params, ") {"))
    b:add(util.wrap(string.format("  return sl_write_%s(", rec.spec.writer), args, ");"))
    b:add("}")
  end
end

return function(model)
  local b = util.buffer()
  b:add(util.banner("c", { "records.lua", "phases.lua", "levels.lua" }, "Device-side record writers."))
  b:add("#ifndef SL_WRITERS_H")
  b:add("#define SL_WRITERS_H")
  b:add("")
  b:add("#include <stdint.h>")
  b:add("#include <string.h>")
  b:add("")
  b:add('#include "sl_levels.h"')
  b:add('#include "sl_phases.h"')
  b:add('#include "sl_records.h"')
  for _, rec in ipairs(model.writers) do
    if rec == model.phase_record then
      phase_writers(b, rec, model)
    elseif rec == model.orch_record then
      orch_writers(b, rec, model)
    else
      plain_writer(b, rec)
    end
  end
  b:add("")
  b:add("#endif /* SL_WRITERS_H */")
  return { { path = "sl_writers.h", text = b:text() } }
end
