--[[
** emit_export.lua — generated/sl_export.h/.c: host-side tables per buffer kind
** (record size, capacity per platform, buffer byte layout) and JSON writers for
** the on-disk format of chip_swimlane_records.json (docs/capture-format.md).
--]]
local util = require("util")

local function fmt_of(prim)
  if prim.size == 8 then return prim.signed and "PRId64" or "PRIu64", prim.signed and "int64_t" or "uint64_t" end
  return prim.signed and "PRId32" or "PRIu32", prim.signed and "int32_t" or "uint32_t"
end

local function leaf_of(rec, path)
  local cur = rec.layout.members
  local member
  for part in path:gmatch("[^.]+") do
    member = nil
    for _, m in ipairs(cur) do
      if m.name == part then member = m end
    end
    if member and member.union then
      cur = {}
      for _, v in ipairs(member.variants) do cur[#cur + 1] = { name = v.name, members = v.members, variant = v } end
    elseif member and member.variant then
      cur = member.members
    end
  end
  return member
end

local function ctx_params(spec)
  local out = {}
  for _, c in ipairs(spec.context or {}) do
    local prim = require("layout").PRIMITIVES[c.type]
    out[#out + 1] = { name = c.name, ctype = prim.ctype, prim = prim }
  end
  return out
end

-- C statements writing one JSON row/object for export spec `spec` of record `rec`.
local function writer_body(rec, spec, model)
  local lines = {}
  local union = rec.union
  local needs_variant = false
  for _, c in ipairs(spec.columns) do
    if c.when or c.compose then needs_variant = true end
  end
  if needs_variant then
    lines[#lines + 1] = string.format("  const enum sl_phase_variant v = sl_phase_variant_for(r->%s, producer);", rec.spec.phase_kind)
  end
  local open, close = spec.shape == "row" and "[" or "{", spec.shape == "row" and "]" or "}"
  lines[#lines + 1] = string.format("  fputc('%s', f);", open)
  -- Separators are literal until a column that may be omitted; from there on a
  -- run-time flag says whether anything has been printed yet.
  local dynamic = false
  local ctxs = {}
  for _, c in ipairs(ctx_params(spec)) do ctxs[c.name] = c end
  for i, c in ipairs(spec.columns) do
    local optional = c.when and not c.compose
    if optional and not dynamic then
      lines[#lines + 1] = string.format("  int first = %d;", i == 1 and 1 or 0)
      dynamic = true
    end
    local sep_fmt, sep_arg
    if dynamic then
      sep_fmt, sep_arg = "%s", 'first ? "" : ", ", '
    else
      sep_fmt, sep_arg = (i == 1) and "" or ", ", ""
    end
    local key = spec.shape == "object" and string.format('\\"%s\\": ', c.key) or ""
    local pre = sep_fmt .. key
    local stmt
    if c.ctx then
      local cp = ctxs[c.ctx]
      local fmt, cast = fmt_of(cp.prim)
      stmt = string.format('fprintf(f, "%s%%" %s, %s(%s)%s);', pre, fmt, sep_arg, cast, c.ctx)
    elseif c.phase_name then
      stmt = string.format('{ const sl_phase_info *p = sl_phase_by_id(r->%s); fprintf(f, "%s\\"%%s\\"", %sp ? p->name : "unknown"); }',
        c.phase_name, pre, sep_arg)
    elseif c.orch_phase_name then
      stmt = string.format('{ const sl_orch_phase_info *o = sl_orch_phase_by_id(r->%s); fprintf(f, "%s\\"%%s\\"", %so ? o->name : "unknown"); }',
        c.orch_phase_name, pre, sep_arg)
    elseif c.compose then
      local variant, comp
      for _, v in ipairs(union.variants) do
        for _, cp in ipairs(v.compose) do
          if cp.name == c.compose then variant, comp = v, cp end
        end
      end
      stmt = string.format('if (v == SL_PHASE_VARIANT_%s)\n    fprintf(f, "%s%%" PRIu64, %s((uint64_t)r->%s.%s.%s << 32) | r->%s.%s.%s);\n  else\n    fprintf(f, "%snull"%s);',
        util.upper(variant.name), pre, sep_arg, union.name, variant.name, comp.hi, union.name, variant.name, comp.lo,
        pre, dynamic and (", " .. sep_arg:sub(1, -3)) or "")
    else
      local m = leaf_of(rec, c.field)
      local access = "r->" .. c.field
      local fmt, cast = fmt_of(m.prim)
      if #m.dims > 0 then
        local parts, args = {}, {}
        for k = 0, m.dims[1] - 1 do
          parts[#parts + 1] = '%" ' .. fmt .. ' "'
          args[#args + 1] = string.format("(%s)%s[%d]", cast, access, k)
        end
        stmt = string.format('fprintf(f, "%s[%s]", %s%s);', pre, table.concat(parts, ","), sep_arg, table.concat(args, ", "))
      else
        stmt = string.format('fprintf(f, "%s%%" %s, %s(%s)%s);', pre, fmt, sep_arg, cast, access)
      end
    end
    if optional then
      lines[#lines + 1] = string.format("  if (v == SL_PHASE_VARIANT_%s) {\n    %s\n    first = 0;\n  }", util.upper(c.when), stmt)
    else
      lines[#lines + 1] = "  " .. stmt
      if dynamic then lines[#lines + 1] = "  first = 0;" end
    end
  end
  lines[#lines + 1] = string.format("  fputc('%s', f);", close)
  return table.concat(lines, "\n")
end

return function(model)
  local h, c = util.buffer(), util.buffer()
  local banner = util.banner("c", { "records.lua", "phases.lua", "platforms.lua" },
    "Host-side decode / export tables and JSON writers.")
  h:add(banner)
  h:add("#ifndef SL_EXPORT_H")
  h:add("#define SL_EXPORT_H")
  h:add("")
  h:add("#include <stddef.h>")
  h:add("#include <stdint.h>")
  h:add("#include <stdio.h>")
  h:add("")
  h:add('#include "sl_phases.h"')
  h:add('#include "sl_platforms.h"')
  h:add('#include "sl_records.h"')
  h:add("")
  -- context struct: every context parameter any export uses
  local ctx_all, ctx_seen = {}, {}
  for _, rec in ipairs(model.records) do
    for _, key in ipairs({ "export", "metrics" }) do
      for _, cp in ipairs(rec.spec[key] and ctx_params(rec.spec[key]) or {}) do
        if not ctx_seen[cp.name] then
          ctx_seen[cp.name] = true
          ctx_all[#ctx_all + 1] = cp
        end
      end
    end
  end
  h:add("/* Values a JSON writer needs besides the record (which core / which index). */")
  h:add("typedef struct sl_export_ctx {")
  for _, cp in ipairs(ctx_all) do h:addf("  %s %s;", cp.ctype, cp.name) end
  h:add("} sl_export_ctx;")
  h:add("")
  h:add("/* One buffer kind: what its records are and how a buffer of them is laid out")
  h:add("** (records[capacity], then a u32 count, the whole aligned to 64 bytes). */")
  h:add("typedef struct sl_buffer_kind_info {")
  h:add("  enum sl_buffer_kind kind;")
  h:add("  const char *name;          /* \"AICPU_TASK\", ...                      */")
  h:add("  const char *record_name;   /* C type of one record                    */")
  h:add("  size_t record_size;")
  h:add("  size_t record_align;")
  h:add("  unsigned min_level;        /* lowest perf level that produces it      */")
  h:add("  const char *pool;          /* \"core\" or \"thread\": what a pool serves */")
  h:add("  const char *json_section;  /* where its records go on disk            */")
  h:add("  const char *proto_message; /* its message in swimlane_capture.proto   */")
  h:add("  /* Write one record as its JSON row / object (no surrounding whitespace). */")
  h:add("  void (*write_json)(FILE *f, const void *record, const sl_export_ctx *ctx);")
  h:add("} sl_buffer_kind_info;")
  h:add("")
  h:add("extern const sl_buffer_kind_info sl_buffer_kind_table[SL_BUF_KIND_COUNT];")
  h:add("")
  h:add("/* Records per buffer / buffers per pool of a kind on a platform. */")
  h:add("unsigned sl_buffer_capacity(const sl_platform_info *p, enum sl_buffer_kind kind);")
  h:add("unsigned sl_buffers_per_pool(const sl_platform_info *p, enum sl_buffer_kind kind);")
  h:add("/* Offset of the u32 record count after records[capacity], and the buffer's size. */")
  h:add("size_t sl_buffer_count_offset(enum sl_buffer_kind kind, unsigned capacity);")
  h:add("size_t sl_buffer_bytes(enum sl_buffer_kind kind, unsigned capacity);")
  h:add("")
  h:add("/* JSON writers (docs/capture-format.md on-disk schema). Rows print as [a, b, c], objects as")
  h:add("** {\"key\": value, ...}; 64-bit values exact; nothing before or after. The _for")
  h:add("** forms take the stream's producer (SL_PRODUCER_*): an A5 HBG AICore Scheduler's")
  h:add("** complete / dispatch / resolve records carry a task id instead of pop counts. */")

  c:add(banner)
  c:add('#include "sl_export.h"')
  c:add("")
  c:add("#include <inttypes.h>")
  c:add("")
  c:add('#include "sl_phases.h"')

  local fns = {}
  for _, rec in ipairs(model.records) do
    for _, key in ipairs({ "export", "metrics" }) do
      local spec = rec.spec[key]
      if spec and rec.spec.writer then
        local fname = "sl_json_write_" .. rec.spec.writer .. (key == "metrics" and "_metrics" or "")
        local cps = ctx_params(spec)
        local params = { "FILE *f", "const " .. rec.ctype .. " *r" }
        for _, cp in ipairs(cps) do params[#params + 1] = cp.ctype .. " " .. cp.name end
        h:addf("/* %s: %s */", spec.section, rec.ctype)
        h:addf("void %s(%s);", fname, table.concat(params, ", "))
        if rec.spec.phase_kind then
          -- the union's meaning can depend on the stream's producer (A5 HBG AICore)
          local names = { "f", "r" }
          for _, cp in ipairs(cps) do names[#names + 1] = cp.name end
          names[#names + 1] = "SL_PRODUCER_AICPU"
          local fparams = { table.unpack(params) }
          fparams[#fparams + 1] = "unsigned producer"
          h:addf("void %s_for(%s);", fname, table.concat(fparams, ", "))
          c:add("")
          c:addf("void %s_for(%s) {", fname, table.concat(fparams, ", "))
          c:add(writer_body(rec, spec, model))
          c:add("}")
          c:add("")
          c:addf("void %s(%s) {", fname, table.concat(params, ", "))
          c:addf("  %s_for(%s);", fname, table.concat(names, ", "))
          c:add("}")
        else
          c:add("")
          c:addf("void %s(%s) {", fname, table.concat(params, ", "))
          c:add(writer_body(rec, spec, model))
          c:add("}")
        end
        if key == "export" and rec.spec.buffer then
          local args = {}
          for _, cp in ipairs(cps) do args[#args + 1] = "ctx ? ctx->" .. cp.name .. " : 0" end
          c:add("")
          c:addf("static void %s_any(FILE *f, const void *record, const sl_export_ctx *ctx) {", fname)
          if #cps == 0 then c:add("  (void)ctx;") end
          c:addf("  %s(f, (const %s *)record%s);", fname, rec.ctype, #args > 0 and (", " .. table.concat(args, ", ")) or "")
          c:add("}")
          fns[rec] = fname .. "_any"
        end
      end
    end
  end

  c:add("")
  c:add("const sl_buffer_kind_info sl_buffer_kind_table[SL_BUF_KIND_COUNT] = {")
  for _, k in ipairs(model.buffer_kinds) do
    local rec = k.record
    c:addf("    {SL_BUF_%s, %s, %s, sizeof(%s), _Alignof(%s), %du, %s, %s, %s, %s},", k.kind, util.cstr(k.kind),
      util.cstr(rec.ctype), rec.ctype, rec.ctype, rec.min_level and rec.min_level.value or 0,
      util.cstr(rec.spec.buffer.pool), util.cstr(rec.spec.export and rec.spec.export.section),
      util.cstr(rec.spec.proto), fns[rec] or "NULL")
  end
  c:add("};")
  for _, which in ipairs({ { "sl_buffer_capacity", "capacity" }, { "sl_buffers_per_pool", "buffers" } }) do
    c:add("")
    c:addf("unsigned %s(const sl_platform_info *p, enum sl_buffer_kind kind) {", which[1])
    c:add("  switch (kind) {")
    for _, k in ipairs(model.buffer_kinds) do
      c:addf("  case SL_BUF_%s: return p->%s;", k.kind, k.record.spec.buffer[which[2]])
    end
    c:add("  default: return 0;")
    c:add("  }")
    c:add("}")
  end
  c:add("")
  c:add("size_t sl_buffer_count_offset(enum sl_buffer_kind kind, unsigned capacity) {")
  c:add("  if ((unsigned)kind >= SL_BUF_KIND_COUNT) return 0;")
  c:add("  return sl_buffer_kind_table[kind].record_size * capacity;")
  c:add("}")
  c:add("")
  c:add("size_t sl_buffer_bytes(enum sl_buffer_kind kind, unsigned capacity) {")
  c:add("  size_t end = sl_buffer_count_offset(kind, capacity) + sizeof(uint32_t);")
  c:add("  return (end + 63u) / 64u * 64u;")
  c:add("}")

  h:add("")
  h:add("#endif /* SL_EXPORT_H */")
  return { { path = "sl_export.h", text = h:text() }, { path = "sl_export.c", text = c:text() } }
end
