--[[
** emit_readside.lua — generated/sl_read_fields.h/.c: the read side of every capture record,
** from the same layouts the writers come from. For each record kind in the capture, one row
** per capture field (arrays flattened per element, unions per variant field) with
**   - its proto field number and C type (the .pb reader decodes by number, whatever the
**     message's other fields are),
**   - where the JSON writer puts it: a key of an object record (or of the metrics object),
**     or a column of a row record; a composite column (task_id = hi << 32 | lo) names its
**     two halves.
** The readers route JSON keys and .pb field numbers through these tables, so a field added
** to schema/records.lua is read, carried on the record and shown in the trace's args with
** no reader edit.
--]]
local util = require("util")
local proto = require("emit_proto")

-- JSON placement of each leaf path: { key, column, metrics, element-list? } from the export specs.
local function placements(rec)
  local by_path, composes = {}, {}
  local function scan(spec, metrics)
    if not spec then return end
    for i, c in ipairs(spec.columns) do
      local at = { key = spec.shape == "object" and c.key or nil,
                   column = spec.shape == "row" and (i - 1) or nil, metrics = metrics }
      local named = c.phase_name or c.orch_phase_name
      if named then at.named = true end
      if c.field or named then
        by_path[c.field or named] = by_path[c.field or named] or at
      elseif c.compose then
        composes[#composes + 1] = { key = c.key, name = c.compose, metrics = metrics }
      end
    end
  end
  scan(rec.spec.export, false)
  scan(rec.spec.metrics, true)
  return by_path, composes
end

local function field_rows(rec)
  local by_path, composes = placements(rec)
  local rows = {}
  for _, f in ipairs(proto.record_fields(rec)) do
    local at = by_path[f.leaf.path] or {}
    rows[#rows + 1] = {
      name = f.name, path = f.leaf.path, pb = f.pb, prim = f.member.prim, element = f.element or -1,
      variant = f.leaf.variant and f.leaf.variant.name or nil, key = at.key, column = at.column,
      metrics = at.metrics, named = at.named,
    }
  end
  -- composite columns: the key goes on both halves (hi / lo), which the reader joins
  for _, cp in ipairs(composes) do
    for _, v in ipairs(rec.union and rec.union.variants or {}) do
      for _, def in ipairs(v.compose or {}) do
        if def.name == cp.name then
          for _, r in ipairs(rows) do
            if r.variant == v.name and (r.name == def.hi or r.name == def.lo) then
              r.compose_key, r.compose_hi, r.metrics = cp.key, r.name == def.hi, cp.metrics
            end
          end
        end
      end
    end
  end
  return rows
end

local function cstr(s) return s and string.format('"%s"', s) or "NULL" end

return function(model)
  local h, c = util.buffer(), util.buffer()
  local banner = util.banner("c", { "records.lua" }, "Read side of the capture records: JSON keys / columns and .pb field numbers per field.")
  h:add(banner)
  h:add("#ifndef SL_READ_FIELDS_H")
  h:add("#define SL_READ_FIELDS_H")
  h:add("")
  h:add("#include <stddef.h>")
  h:add("#include <stdint.h>")
  h:add("")
  h:add("/* One capture field of a record kind. */")
  h:add("typedef struct sl_read_field {")
  h:add("  const char *name;      /* capture field name (proto name; arrays: <field>_<element>) */")
  h:add("  const char *key;       /* JSON key in an object record / its metrics; NULL: none */")
  h:add("  const char *compose;   /* composite JSON key this field is one half of (task_id), or NULL */")
  h:add("  int8_t column;         /* JSON column of a row record (context columns counted), -1 */")
  h:add("  int8_t element;        /* element index of an array field, -1 for a scalar */")
  h:add("  int8_t variant;        /* union variant (enum sl_phase_variant) the field belongs to, -1 */")
  h:add("  uint8_t is_signed;     /* C type signed (sint on the wire) */")
  h:add("  uint8_t bytes;         /* C type size */")
  h:add("  uint8_t metrics;       /* JSON: written in the metrics object, not the record */")
  h:add("  uint8_t compose_hi;    /* the high 32 bits of the composite */")
  h:add("  uint8_t named;         /* JSON writes the id's schema name (a phase kind), .pb the id */")
  h:add("  uint32_t pb;           /* proto field number */")
  h:add("} sl_read_field;")
  h:add("")
  h:add("typedef struct sl_read_record {")
  h:add("  const char *name;      /* record name (aicore_task_record) */")
  h:add("  const char *proto;     /* capture message (AicoreTaskRecord) */")
  h:add("  const sl_read_field *fields;")
  h:add("  uint32_t n_fields;")
  h:add("  uint8_t n_columns;     /* row records: JSON columns written (0 for object records) */")
  h:add("} sl_read_record;")
  h:add("")
  h:add("/* Most fields of one record kind (a reader's per-record bitmask fits in 64 bits). */")
  h:add("#define SL_READ_MAX_FIELDS 64")

  c:add(banner)
  c:add('#include "sl_read_fields.h"')
  c:add("")
  c:add("#include <string.h>")
  c:add("")
  c:add('#include "sl_phases.h"')

  local kinds = {}
  for _, rec in ipairs(model.records) do
    if rec.spec.proto then
      local rows = field_rows(rec)
      if #rows > 64 then error(rec.name .. ": more than 64 capture fields") end
      local up = util.upper(rec.name)
      kinds[#kinds + 1] = { rec = rec, rows = rows, up = up }
      h:add("")
      h:addf("/* %s (%s) */", rec.name, rec.spec.proto)
      h:add("enum {")
      for i, r in ipairs(rows) do h:addf("  SL_RF_%s_%s = %d,", up, util.upper(r.name), i - 1) end
      h:addf("  SL_RF_%s_COUNT = %d", up, #rows)
      h:add("};")
      c:add("")
      c:addf("static const sl_read_field f_%s[] = {", rec.name)
      for _, r in ipairs(rows) do
        local variant = r.variant and ("SL_PHASE_VARIANT_" .. util.upper(r.variant)) or "-1"
        c:addf("  {%s, %s, %s, %d, %d, %s, %d, %d, %d, %d, %d, %d},", cstr(r.name), cstr(r.key), cstr(r.compose_key),
          r.column or -1, r.element, variant, r.prim.signed and 1 or 0, r.prim.size, r.metrics and 1 or 0,
          r.compose_hi and 1 or 0, r.named and 1 or 0, r.pb)
      end
      c:add("};")
    end
  end
  h:add("")
  h:add("enum sl_read_kind {")
  for i, k in ipairs(kinds) do h:addf("  SL_READ_%s = %d,", k.up, i - 1) end
  h:addf("  SL_READ_KIND_COUNT = %d", #kinds)
  h:add("};")
  h:add("extern const sl_read_record sl_read_records[SL_READ_KIND_COUNT];")
  h:add("")
  h:add("/* Field index of a JSON key (object records; metrics keys too), the first element of an")
  h:add("** array key, or the low half of a composite key; -1 when the schema has no such key. */")
  h:add("int sl_read_field_by_key(const sl_read_record *r, const char *key, size_t len);")
  h:add("/* Field index of a JSON column of a row record, -1 past the schema's columns. */")
  h:add("int sl_read_field_by_column(const sl_read_record *r, unsigned column);")
  h:add("/* Field index of a proto field number, -1 when the schema has none (or it is reserved). */")
  h:add("int sl_read_field_by_pb(const sl_read_record *r, uint32_t pb);")
  h:add("")
  h:add("#endif /* SL_READ_FIELDS_H */")

  c:add("")
  c:add("const sl_read_record sl_read_records[SL_READ_KIND_COUNT] = {")
  for _, k in ipairs(kinds) do
    local ncol = 0
    if k.rec.spec.export and k.rec.spec.export.shape == "row" then ncol = #k.rec.spec.export.columns end
    if ncol > 64 then error(k.rec.name .. ": more than 64 JSON columns") end
    c:addf("  {%s, %s, f_%s, %d, %d},", cstr(k.rec.name), cstr(k.rec.spec.proto), k.rec.name, #k.rows, ncol)
  end
  c:add("};")
  c:add("")
  c:add("int sl_read_field_by_key(const sl_read_record *r, const char *key, size_t len) {")
  c:add("  for (uint32_t i = 0; i < r->n_fields; i++) {")
  c:add("    const sl_read_field *f = &r->fields[i];")
  c:add("    const char *k = f->key ? f->key : f->compose;")
  c:add("    if (f->element > 0 || (f->compose && f->compose_hi)) continue;")
  c:add("    if (k && strlen(k) == len && !memcmp(k, key, len)) return (int)i;")
  c:add("  }")
  c:add("  return -1;")
  c:add("}")
  c:add("")
  c:add("int sl_read_field_by_column(const sl_read_record *r, unsigned column) {")
  c:add("  for (uint32_t i = 0; i < r->n_fields; i++)")
  c:add("    if (r->fields[i].column >= 0 && (unsigned)r->fields[i].column == column) return (int)i;")
  c:add("  return -1;")
  c:add("}")
  c:add("")
  c:add("int sl_read_field_by_pb(const sl_read_record *r, uint32_t pb) {")
  c:add("  for (uint32_t i = 0; i < r->n_fields; i++)")
  c:add("    if (r->fields[i].pb == pb) return (int)i;")
  c:add("  return -1;")
  c:add("}")
  return { { path = "sl_read_fields.h", text = h:text() }, { path = "sl_read_fields.c", text = c:text() } }
end
