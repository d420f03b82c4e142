--[[
** strict.lua — the schema's vocabulary: every key each kind of entry may hold and its
** type. An unknown key (a typo such as `varient`) or a value of the wrong type is an
** error naming file, entry and key; every such error of every file is reported in one
** run, and the semantic checks (model.lua) only run on a schema that passes these.
--]]
local M = {}

-- key -> type: "string" | "int" | "bool" | "number" | "table" | "list" | "int|list" | "any"
local S, I, B, T, L = "string", "int", "bool", "table", "list"

local KINDS = {
  records_file = { records = L, capture = L },
  phases_file = { phases = L, aliases = T, retired = L, orch_phases = L, orch_aliases = T, orch_retired = L,
                  host_phases = L },
  lanes_file = { views = L, lanes = L, producer_lanes = T, rank_pid_stride = I, flows = L, pipes = L },
  levels_file = { levels = L },
  platforms_file = { platforms = L, constants = L, checks = L },
  dtypes_file = { dtypes = L },
  record = { name = S, doc = S, size = "int|table", align = I, per_platform = B, min_level = S, buffer = T,
             proto = S, writer = S, phase_kind = S, orch_kind = S, fields = L, export = T, metrics = T, reserved = L,
             spans = L },
  span = { label = S, from = S, to = S },
  buffer = { kind = S, id = I, capacity = S, buffers = S, pool = S },
  field = { name = S, type = S, count = "any", offset = I, pb = "int|list", elements = L, doc = S,
            default = S, variants = L },
  variant = { name = S, fields = L, compose = L },
  compose = { name = S, hi = S, lo = S },
  export = { section = S, shape = S, context = L, columns = L },
  context = { name = S, type = S },
  column = { key = S, field = S, ctx = S, phase_name = S, orch_phase_name = S, compose = S, when = S },
  message = { name = S, doc = S, fields = L, reserved = L },
  message_field = { name = S, type = S, pb = I, repeated = B, doc = S },
  phase = { id = I, name = S, display = S, aicore_display = S, role = S, producers = L, runtimes = L,
            lane = S, lane_by_runtime = T, parent = L, cname = S, variant = S, aicore_variant = S,
            render_as = S, tasks_processed = S },
  retired = { id = I, name = S, why = S, aicore_display = S, aicore_variant = S },
  orch_phase = { id = I, name = S, display = S, lane = S, cname = S, default = B, dispatch_flow = I },
  orch_retired = { id = I, name = S, why = S },
  host_phase = { name = S, display = S, lane = S, cname = S, bytes = S },
  view = { pid = I, key = S, process_name = S, sort_index = I, name_variants = T, when = S, pid_stride = I },
  flow = { key = S, name = S, doc = S },
  pipe = { id = I, name = S, doc = S },
  lane = { key = S, view = S, tid_base = I, tid_stride = I, name = S, sort_index = I, indexed_by = S },
  level = { value = I, name = S, collects = S, device = S, host = S, notes = S },
  platform = { name = S, sim_of = S, transport = S, hbg_producer = S }, -- + every platform constant (int), added by M.check
  constant = { name = S, value = I, doc = S },
  check = { field = S, equals = L },
  dtype = { name = S, raw = I, size = I, is_integer = B, replayable = B },
}

local function is_list(v)
  if type(v) ~= "table" then return false end
  local n = 0
  for _ in pairs(v) do n = n + 1 end
  return n == #v
end

local function type_ok(want, v)
  if want == "any" then return true end
  if want == "int|list" then return math.type(v) == "integer" or is_list(v) end
  if want == "int|table" then return math.type(v) == "integer" or type(v) == "table" end
  if want == "int" then return math.type(v) == "integer" end
  if want == "bool" then return type(v) == "boolean" end
  if want == "list" then return is_list(v) end
  return type(v) == want
end

local TYPE_WORDS = { int = "an integer", bool = "a boolean", list = "a list", table = "a table",
                     string = "a string", number = "a number", ["int|list"] = "an integer or a list",
                     ["int|table"] = "an integer or a table { platform = integer }" }

-- Checks entry `e` of `kind`; `who` names it ("phase 'release'"). Returns true when clean.
local function check_entry(file, who, kind, e, err)
  local spec = KINDS[kind]
  if type(e) ~= "table" then return true end -- reported by the semantic checks
  local ok = true
  local keys = {}
  for k in pairs(e) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  for _, k in ipairs(keys) do
    if type(k) == "string" then
      local want = spec[k]
      if not want then
        err(file, who, "unknown key '" .. k .. "'")
        ok = false
      elseif not type_ok(want, e[k]) then
        err(file, who, string.format("key '%s' must be %s (got %s)", k, TYPE_WORDS[want], type(e[k])))
        ok = false
      end
    else
      err(file, who, "unexpected positional value #" .. tostring(k) .. " (entries take name = value keys)")
      ok = false
    end
  end
  return ok
end

local function name_of(e, i, key)
  if type(e) == "table" and e[key or "name"] ~= nil then return "'" .. tostring(e[key or "name"]) .. "'" end
  return "#" .. i
end

local function each(list, fn)
  if type(list) ~= "table" then return end
  for i, e in ipairs(list) do fn(i, e) end
end

local function check_fields(file, who, fields, err)
  each(fields, function(i, f)
    local fw = who .. ": field " .. name_of(f, i)
    check_entry(file, fw, "field", f, err)
    if type(f) ~= "table" then return end
    each(f.variants, function(j, v)
      local vw = fw .. ": variant " .. name_of(v, j)
      check_entry(file, vw, "variant", v, err)
      if type(v) ~= "table" then return end
      check_fields(file, vw, v.fields, err)
      each(v.compose, function(k, c) check_entry(file, vw .. ": compose " .. name_of(c, k), "compose", c, err) end)
    end)
  end)
end

local function check_records(schema, err)
  local file, R = schema.paths.records, schema.records
  each(R.records, function(i, r)
    local who = "record " .. name_of(r, i)
    check_entry(file, who, "record", r, err)
    if type(r) ~= "table" then return end
    if type(r.buffer) == "table" then check_entry(file, who .. ": buffer", "buffer", r.buffer, err) end
    check_fields(file, who, r.fields, err)
    each(r.spans, function(j, sp) check_entry(file, who .. ": span " .. name_of(sp, j, "label"), "span", sp, err) end)
    for _, key in ipairs({ "export", "metrics" }) do
      local x = r[key]
      if type(x) == "table" then
        check_entry(file, who .. ": " .. key, "export", x, err)
        each(x.context, function(j, c) check_entry(file, who .. ": " .. key .. " context " .. name_of(c, j), "context", c, err) end)
        each(x.columns, function(j, c) check_entry(file, who .. ": " .. key .. " column #" .. j, "column", c, err) end)
      end
    end
  end)
  each(R.capture, function(i, m)
    local who = "capture message " .. name_of(m, i)
    check_entry(file, who, "message", m, err)
    if type(m) == "table" then
      each(m.fields, function(j, f) check_entry(file, who .. ": field " .. name_of(f, j), "message_field", f, err) end)
    end
  end)
end

-- Every file's entries; `platform_fields` = the platform constants' names.
function M.check(schema, platform_fields, err)
  for _, f in ipairs(platform_fields) do KINDS.platform[f] = I end
  for _, name in ipairs({ "records", "phases", "lanes", "levels", "platforms", "dtypes" }) do
    check_entry(schema.paths[name], "top level", name .. "_file", schema[name], err)
  end
  check_records(schema, err)
  local P, Ln = schema.phases, schema.lanes
  local lists = {
    { schema.paths.phases, P.phases, "phase", "phase" },
    { schema.paths.phases, P.retired, "retired", "retired" },
    { schema.paths.phases, P.orch_phases, "orch_phase", "orchestrator phase" },
    { schema.paths.phases, P.orch_retired, "orch_retired", "retired orchestrator phase" },
    { schema.paths.phases, P.host_phases, "host_phase", "host phase" },
    { schema.paths.lanes, Ln.views, "view", "view", "key" },
    { schema.paths.lanes, Ln.lanes, "lane", "lane", "key" },
    { schema.paths.lanes, Ln.flows, "flow", "flow", "key" },
    { schema.paths.lanes, Ln.pipes, "pipe", "pipe" },
    { schema.paths.levels, schema.levels.levels, "level", "level" },
    { schema.paths.platforms, schema.platforms.platforms, "platform", "platform" },
    { schema.paths.platforms, schema.platforms.constants, "constant", "constant" },
    { schema.paths.platforms, schema.platforms.checks, "check", "check", "field" },
    { schema.paths.dtypes, schema.dtypes.dtypes, "dtype", "dtype" },
  }
  for _, l in ipairs(lists) do
    each(l[2], function(i, e) check_entry(l[1], l[4] .. " " .. name_of(e, i, l[5]), l[3], e, err) end)
  end
end

return M
