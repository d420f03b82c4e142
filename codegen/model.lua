--[[
** model.lua — validate the loaded schema and build the model the emitters read.
**
** Every problem is reported as "<file>: <entry>: <what>"; all problems are
** collected so one run shows them all. Nothing is written when any exists.
--]]
local util = require("util")
local layout = require("layout")

local M = {}

local ROLES = { outer = true, inner = true, marker = true }
local PRODUCERS = { aicpu = 1, aicore = 2 }
local RUNTIMES = { tmr = 1, hbg = 2 }
-- the runtime names captures carry for the short names phases.lua uses
local RUNTIME_NAMES = { tmr = "tensormap_and_ringbuffer", hbg = "host_build_graph" }

local PLATFORM_FIELDS = {
  "clock_freq_hz", "max_blockdim", "cores_per_blockdim", "max_cores", "max_aicpu_threads",
  "default_aicpu_threads", "launch_aicpu_threads", "sim_blockdim", "prof_buffer_size",
  "aicore_buffer_size", "phase_records_per_thread", "slot_count", "prof_buffers_per_core",
  "aicore_buffers_per_core", "sched_buffers_per_thread", "orch_buffers_per_thread",
  "readyqueue_buffers_per_thread", "readyqueue_size", "num_queue_shapes",
  "backpressure_timeout_seconds", "prof_timeout_seconds", "host_phase_records_per_buffer",
  "host_phase_buffers",
  "vclock_poll_cycles", "vclock_read_cycles", "vclock_dispatch_cycles", "vclock_receive_cycles",
  "vclock_fin_cycles", "vclock_pop_cycles", "vclock_submit_cycles", "vclock_kernel_base_cycles",
  "vclock_kernel_instr_cycles", "vclock_work_per_cycle", "memops_callbacks",
}
M.PLATFORM_FIELDS = PLATFORM_FIELDS
-- text facts of a platform (strings), each from a closed set
local PLATFORM_CHOICES = {
  transport = { shared_memory = true, host_shadow = true, _list = "shared_memory, host_shadow" },
  hbg_producer = { aicpu = true, aicore = true, _list = "aicpu, aicore" },
}
M.PLATFORM_CHOICES = PLATFORM_CHOICES

local function is_int(v) return math.type(v) == "integer" end

-- Optional text fields must be strings when present.
local function check_strings(entry, keys, file, who, err)
  local ok = true
  for _, k in ipairs(keys) do
    if entry[k] ~= nil and type(entry[k]) ~= "string" then
      err(file, who, k .. " must be a string")
      ok = false
    end
  end
  return ok
end

-- The table entries of a list; anything else is reported (and skipped).
local function entries(list, file, what, err)
  local out = {}
  for i, e in ipairs(type(list) == "table" and list or {}) do
    if type(e) == "table" then
      out[#out + 1] = e
    else
      err(file, string.format("%s #%d", what, i), "must be a table (got " .. type(e) .. ")")
    end
  end
  return out
end
local function is_ident(v) return type(v) == "string" and v:match("^[a-z][a-z0-9_]*$") ~= nil end

local function list_of(v, allowed)
  if type(v) ~= "table" or #v == 0 then return false end
  for _, x in ipairs(v) do
    if not allowed[x] then return false end
  end
  return true
end

local function mask(list, bits)
  local m = 0
  for _, x in ipairs(list) do m = m | bits[x] end
  return m
end

-- ---- levels -----------------------------------------------------------------------
local function build_levels(schema, model, err)
  local file = schema.paths.levels
  local levels = {}
  local by_name = {}
  for i, l in ipairs(entries(schema.levels.levels, file, "level", err)) do
    local who = string.format("level %s", tostring(l.name or i))
    if not check_strings(l, { "collects", "device", "host", "notes" }, file, who, err) then
      -- reported
    elseif not is_int(l.value) or not is_ident(l.name) then
      err(file, who, "needs an integer value and a lowercase name")
    elseif by_name[l.name] then
      err(file, who, "name already used")
    else
      by_name[l.name] = l
      levels[#levels + 1] = l
    end
  end
  table.sort(levels, function(a, b) return a.value < b.value end)
  for i, l in ipairs(levels) do
    if l.value ~= i - 1 then
      err(file, "level '" .. l.name .. "'", string.format("value %d breaks the sequence 0..n", l.value))
    end
  end
  model.levels, model.level_by_name = levels, by_name
end

-- ---- platforms --------------------------------------------------------------------
local function eval_term(term, p)
  if is_int(term) then return term end
  if type(term) == "string" then return is_int(p[term]) and p[term] or nil end
  if type(term) ~= "table" then return nil end
  local v = 1
  for _, x in ipairs(term) do
    local y = eval_term(x, p)
    if not is_int(y) then return nil end
    v = v * y
  end
  return v
end

local function build_platforms(schema, model, err)
  local file = schema.paths.platforms
  local out, by_name = {}, {}
  for i, p in ipairs(entries(schema.platforms.platforms, file, "platform", err)) do
    local who = string.format("platform '%s'", tostring(p.name or i))
    if not is_ident(p.name) then
      err(file, who, "needs a lowercase name")
    elseif by_name[p.name] then
      err(file, who, "declared twice")
    else
      local r = { name = p.name }
      if p.sim_of then
        local base = by_name[p.sim_of]
        if not base then
          err(file, who, "sim_of names unknown (or later) platform '" .. tostring(p.sim_of) .. "'")
          base = {}
        end
        for k, v in pairs(base) do r[k] = v end
        r.name, r.arch, r.is_sim = p.name, base.arch or p.sim_of, true
      else
        r.arch, r.is_sim = p.name, false
      end
      for k, v in pairs(p) do
        if k ~= "name" and k ~= "sim_of" then r[k] = v end
      end
      for _, f in ipairs(PLATFORM_FIELDS) do
        if not is_int(r[f]) or r[f] < 0 then err(file, who, "constant '" .. f .. "' must be a non-negative integer") end
      end
      for f, allowed in pairs(PLATFORM_CHOICES) do
        if not allowed[r[f]] then err(file, who, "'" .. f .. "' must be one of: " .. allowed._list) end
      end
      for _, c in ipairs(entries(schema.platforms.checks, file, "check", err)) do
        local op, want = type(c.equals) == "table" and c.equals[1] or nil, nil
        if op == "mul" then
          want = 1
          for j = 2, #c.equals do want = want * (eval_term(c.equals[j], r) or 0) end
        elseif op == "sum" then
          want = 0
          for j = 2, #c.equals do want = want + (eval_term(c.equals[j], r) or 0) end
        end
        if want ~= r[c.field] then
          err(file, who, string.format("%s = %s but the check requires %s", c.field, tostring(r[c.field]), tostring(want)))
        end
      end
      by_name[p.name] = r
      out[#out + 1] = r
    end
  end
  model.platforms, model.platform_by_name = out, by_name
  model.arches = {}
  for _, p in ipairs(out) do
    if not p.is_sim then model.arches[#model.arches + 1] = p end
  end
  model.constants = {}
  local seen = {}
  for _, c in ipairs(entries(schema.platforms.constants, file, "constant", err)) do
    if not check_strings(c, { "doc" }, file, "constant '" .. tostring(c.name) .. "'", err) then
      -- reported
    elseif not is_ident(c.name) or not is_int(c.value) or seen[c.name] then
      err(file, "constant '" .. tostring(c.name) .. "'", "needs a unique lowercase name and an integer value")
    else
      seen[c.name] = true
      model.constants[#model.constants + 1] = c
    end
  end
end

-- ---- dtypes -----------------------------------------------------------------------
local function build_dtypes(schema, model, err)
  local file = schema.paths.dtypes
  local out, names, raws = {}, {}, {}
  for i, d in ipairs(entries(schema.dtypes.dtypes, file, "dtype", err)) do
    local who = string.format("dtype '%s'", tostring(d.name or i))
    if type(d.name) ~= "string" or not d.name:match("^[A-Z][A-Z0-9_]*$") then
      err(file, who, "needs an upper-case name")
    elseif names[d.name] then
      err(file, who, "declared twice")
    elseif not is_int(d.raw) or d.raw < 0 or d.raw > 255 then
      err(file, who, "raw must be 0..255")
    elseif raws[d.raw] then
      err(file, who, string.format("raw %d already used by '%s'", d.raw, raws[d.raw]))
    elseif not is_int(d.size) or d.size <= 0 then
      err(file, who, "size must be a positive integer")
    else
      names[d.name], raws[d.raw] = true, d.name
      out[#out + 1] = d
    end
  end
  table.sort(out, function(a, b) return a.raw < b.raw end)
  model.dtypes = out
end

-- ---- lanes ------------------------------------------------------------------------
local function build_lanes(schema, model, err)
  local file = schema.paths.lanes
  local views, view_by_key, pids = {}, {}, {}
  for i, v in ipairs(entries(schema.lanes.views, file, "view", err)) do
    local who = string.format("view '%s'", tostring(v.key or i))
    if not check_strings(v, { "when" }, file, who, err) then
      -- reported
    elseif not is_ident(v.key) or not is_int(v.pid) or type(v.process_name) ~= "string" then
      err(file, who, "needs key, integer pid and process_name")
    elseif v.sort_index ~= nil and not is_int(v.sort_index) then
      err(file, who, "sort_index must be an integer")
    elseif view_by_key[v.key] then
      err(file, who, "key already used")
    elseif pids[v.pid] then
      err(file, who, string.format("pid %d already used by '%s'", v.pid, pids[v.pid]))
    else
      view_by_key[v.key], pids[v.pid] = v, v.key
      views[#views + 1] = v
    end
  end
  local lanes, lane_by_key = {}, {}
  for i, l in ipairs(entries(schema.lanes.lanes, file, "lane", err)) do
    local who = string.format("lane '%s'", tostring(l.key or i))
    if not check_strings(l, { "indexed_by" }, file, who, err) then
      -- reported
    elseif (l.sort_index ~= nil and not is_int(l.sort_index)) then
      err(file, who, "sort_index must be an integer")
    elseif not is_ident(l.key) or not is_int(l.tid_base) or not is_int(l.tid_stride) or type(l.name) ~= "string" then
      err(file, who, "needs key, integer tid_base / tid_stride and a name pattern")
    elseif lane_by_key[l.key] then
      err(file, who, "key already used")
    elseif not view_by_key[l.view] then
      err(file, who, "view '" .. tostring(l.view) .. "' is not declared")
    else
      l.index = #lanes
      l.pid = view_by_key[l.view].pid
      lane_by_key[l.key] = l
      lanes[#lanes + 1] = l
    end
  end
  model.producer_lanes = {}
  for _, producer in ipairs(util.sorted_keys(schema.lanes.producer_lanes or {})) do
    local key = schema.lanes.producer_lanes[producer]
    if not PRODUCERS[producer] or not lane_by_key[key] then
      err(file, "producer_lanes." .. tostring(producer), "needs a known producer and lane")
    else
      model.producer_lanes[#model.producer_lanes + 1] = { producer = producer, lane = key }
    end
  end
  model.views, model.view_by_key, model.lanes, model.lane_by_key = views, view_by_key, lanes, lane_by_key
  model.rank_pid_stride = schema.lanes.rank_pid_stride or 100
  for _, v in ipairs(views) do
    if v.pid >= model.rank_pid_stride then
      err(file, string.format("view '%s'", v.key), string.format("pid %d is not below rank_pid_stride %d", v.pid, model.rank_pid_stride))
    end
  end
  model.flows = {}
  local flow_keys = {}
  for i, f in ipairs(entries(schema.lanes.flows, file, "flow", err)) do
    local who = string.format("flow '%s'", tostring(f.key or i))
    if not is_ident(f.key) or type(f.name) ~= "string" then
      err(file, who, "needs a key and a name")
    elseif flow_keys[f.key] then
      err(file, who, "key already used")
    else
      flow_keys[f.key] = true
      model.flows[#model.flows + 1] = f
    end
  end
  model.pipes = {}
  local pipe_names = {}
  for i, pp in ipairs(entries(schema.lanes.pipes, file, "pipe", err)) do
    local who = string.format("pipe '%s'", tostring(pp.name or i))
    if pp.id ~= i - 1 then
      err(file, who, string.format("id must be %d (pipes are listed in id order from 0)", i - 1))
    elseif type(pp.name) ~= "string" or pipe_names[pp.name] then
      err(file, who, "needs a name not used by another pipe")
    else
      pipe_names[pp.name] = true
      model.pipes[#model.pipes + 1] = pp
    end
  end
end

-- ---- records ----------------------------------------------------------------------
local function check_columns(file, who, spec, lay, err)
  local ctxs = {}
  for _, c in ipairs(type(spec.context) == "table" and spec.context or {}) do
    if type(c) ~= "table" or not is_ident(c.name) or not layout.PRIMITIVES[c.type] then
      err(file, who, "export context '" .. tostring(type(c) == "table" and c.name or c) .. "' needs a name and a primitive type")
      return false
    end
    ctxs[c.name] = c
  end
  local leaves = {}
  for _, leaf in ipairs(layout.leaves(lay)) do leaves[leaf.path] = leaf end
  local union
  for _, m in ipairs(lay.members) do
    if m.union then union = m end
  end
  if type(spec.columns) ~= "table" or #spec.columns == 0 then
    err(file, who, "export needs a list of columns")
    return false
  end
  for i, c in ipairs(spec.columns) do
    if type(c) ~= "table" then
      err(file, who, string.format("export column %d must be a table", i))
      return false
    end
    local what = string.format("export column %d (%s)", i, tostring(c.key or c.field or c.ctx))
    for _, k in ipairs({ "key", "field", "ctx", "phase_name", "orch_phase_name", "compose", "when" }) do
      if c[k] ~= nil and type(c[k]) ~= "string" then
        err(file, who, what .. ": " .. k .. " must be a string")
        return false
      end
    end
    if spec.shape == "object" and type(c.key) ~= "string" then
      err(file, who, what .. ": object columns need a key")
      return false
    end
    if (c.when or c.compose) and not union then
      err(file, who, what .. ": 'when' / 'compose' need a record with a union")
      return false
    end
    if c.field and not leaves[c.field] then
      err(file, who, what .. ": names missing field '" .. c.field .. "'")
      return false
    elseif c.field and (not leaves[c.field].member.prim or #leaves[c.field].member.dims > 1) then
      err(file, who, what .. ": field '" .. c.field .. "' must be a number or a 1-D array of numbers")
      return false
    elseif c.ctx and not ctxs[c.ctx] then
      err(file, who, what .. ": names missing context '" .. c.ctx .. "'")
      return false
    elseif c.phase_name and not leaves[c.phase_name] then
      err(file, who, what .. ": names missing field '" .. c.phase_name .. "'")
      return false
    elseif c.orch_phase_name and not leaves[c.orch_phase_name] then
      err(file, who, what .. ": names missing field '" .. c.orch_phase_name .. "'")
      return false
    elseif c.compose then
      local found
      for _, v in ipairs(union and union.variants or {}) do
        for _, cp in ipairs(v.compose) do
          if cp.name == c.compose then found = v end
        end
      end
      if not found then
        err(file, who, what .. ": names missing composite '" .. c.compose .. "'")
        return false
      end
    elseif not (c.field or c.ctx or c.phase_name or c.orch_phase_name or c.compose) then
      err(file, who, what .. ": needs field, ctx, phase_name, orch_phase_name or compose")
      return false
    end
    if c.when and not (union and union.variant_by_name[c.when]) then
      err(file, who, what .. ": 'when' names missing union variant '" .. c.when .. "'")
      return false
    end
  end
  return true
end

local function build_records(schema, model, err)
  local file = schema.paths.records
  local declared = {}
  for _, r in ipairs(schema.records.records or {}) do
    if type(r) == "table" and type(r.name) == "string" then declared[r.name] = true end
  end
  local layouts = {}          -- name -> layout (platform-independent records)
  local records, by_name = {}, {}
  local kinds, kind_ids, writers = {}, {}, {}
  local failed_protos, failed_kind = {}, false
  for i, r in ipairs(entries(schema.records.records, file, "record", err)) do
    local who = string.format("record '%s'", tostring(r.name or i))
    local function rerr(msg) err(file, who, msg) end
    if not is_ident(r.name) then
      rerr("needs a lowercase C identifier name")
      goto continue
    end
    if not check_strings(r, { "doc", "proto", "writer", "phase_kind", "orch_kind", "min_level" }, file, who, err) then goto continue end
    if by_name[r.name] then
      rerr("declared twice")
      goto continue
    end
    do
      local rec = { name = r.name, spec = r, ctype = "sl_" .. r.name, index = #records + 1 }
      if r.per_platform then
        rec.layouts = {}
        for _, p in ipairs(model.arches) do
          local lay = layout.layout(r, { platform = p, layouts = layouts, declared = declared, suffix = "_" .. p.name },
            function(msg) err(file, who .. " (" .. p.name .. ")", msg) end)
          if not lay then goto continue end
          rec.layouts[#rec.layouts + 1] = lay
        end
      else
        local lay = layout.layout(r, { layouts = layouts, declared = declared }, rerr)
        if not lay then goto continue end
        rec.layout = lay
        layouts[r.name] = lay
      end
      if r.min_level ~= nil and not model.level_by_name[r.min_level] then
        rerr("min_level '" .. tostring(r.min_level) .. "' is not a level in levels.lua")
      end
      rec.min_level = r.min_level and model.level_by_name[r.min_level]
      if r.buffer then
        local b = r.buffer
        if type(b) ~= "table" or type(b.kind) ~= "string" or not b.kind:match("^[A-Z][A-Z0-9_]*$") or not is_int(b.id) then
          rerr("buffer needs an upper-case kind and an integer id")
        elseif b.pool ~= "core" and b.pool ~= "thread" then
          rerr("buffer.pool must be 'core' or 'thread'")
        elseif kinds[b.kind] or kind_ids[b.id] then
          rerr(string.format("buffer kind %s / id %d already used", b.kind, b.id))
        else
          for _, f in ipairs({ "capacity", "buffers" }) do
            if not util.contains(PLATFORM_FIELDS, b[f]) then
              rerr("buffer." .. f .. " '" .. tostring(b[f]) .. "' is not a platform constant")
            end
          end
          kinds[b.kind], kind_ids[b.id] = rec, rec
        end
      end
      if r.writer then
        if not is_ident(r.writer) or writers[r.writer] then
          rerr("writer name '" .. tostring(r.writer) .. "' is invalid or already used")
        elseif not r.min_level then
          rerr("a record with a writer needs min_level")
        end
        writers[r.writer] = rec
      end
      -- what the writer / exporter emitters can handle
      local unions = 0
      for _, m in ipairs(rec.layout and rec.layout.members or {}) do
        if m.union then
          unions = unions + 1
          rec.union = m
        end
        if (r.writer or r.proto) and not m.gap and not m.union and (not m.prim or #m.dims > 1) then
          rerr("field '" .. m.name .. "': records with a writer or a capture message hold numbers and 1-D arrays only")
        end
      end
      if unions > 0 and (unions > 1 or not r.phase_kind) then
        rerr("a union needs phase_kind (its variant follows the phase) and only one union per record")
      end
      if r.phase_kind then
        local found
        for _, m in ipairs(rec.layout and rec.layout.members or {}) do
          if m.name == r.phase_kind then found = m end
        end
        if not found or not found.prim or #found.dims > 0 or found.prim.signed or found.prim.size ~= 4 then
          rerr("phase_kind '" .. tostring(r.phase_kind) .. "' must name a u32 field")
        end
        if not rec.union then rerr("phase_kind needs a union field") end
        if model.phase_record then rerr("only one record may carry phase_kind") end
        model.phase_record = rec
      end
      if r.orch_kind then
        local found
        for _, m in ipairs(rec.layout and rec.layout.members or {}) do
          if m.name == r.orch_kind then found = m end
        end
        if not found or not found.prim or #found.dims > 0 or found.prim.signed or found.prim.size ~= 4 then
          rerr("orch_kind '" .. tostring(r.orch_kind) .. "' must name a u32 field")
        end
        if model.orch_record then rerr("only one record may carry orch_kind") end
        model.orch_record = rec
      end
      rec.spans = {}
      for j, sp in ipairs(type(r.spans) == "table" and r.spans or {}) do
        local sw = "span " .. (type(sp.label) == "string" and ("'" .. sp.label .. "'") or ("#" .. j))
        if type(sp.label) ~= "string" then rerr(sw .. ": needs a label") end
        for _, end_key in ipairs({ "from", "to" }) do
          local fname, found = sp[end_key], nil
          for _, m in ipairs(rec.layout and rec.layout.members or {}) do
            if m.name == fname and m.prim and #m.dims == 0 then found = m end
          end
          if not found then rerr(sw .. ": " .. end_key .. " '" .. tostring(fname) .. "' is not a scalar field of the record") end
        end
        rec.spans[#rec.spans + 1] = { label = sp.label, from = sp.from, to = sp.to }
      end
      if r.proto then
        local nums = {}
        for _, n in ipairs(type(r.reserved) == "table" and r.reserved or {}) do
          if not is_int(n) then rerr("reserved must list proto field numbers") else nums[n] = "a removed field (reserved)" end
        end
        for _, leaf in ipairs(layout.leaves(rec.layout)) do
          local m = leaf.member
          if not m.pad then
            local pbs = m.spec.pb
            local n = 1
            for _, d in ipairs(m.dims) do n = n * d end
            if m.record then
              rerr("field '" .. m.name .. "': nested structs cannot go into the capture")
            elseif #m.dims > 0 then
              local good_elements = type(m.spec.elements) == "table" and #m.spec.elements == n
              for _, el in ipairs(good_elements and m.spec.elements or {}) do
                if not is_ident(el) then good_elements = false end
              end
              if type(pbs) ~= "table" or #pbs ~= n or not good_elements then
                rerr(string.format("field '%s': an array in the capture needs %d pb numbers and %d element names", m.name, n, n))
                pbs = {}
              end
            else
              if pbs == nil then
                rerr("field '" .. m.name .. "': a capture record's field needs a proto field number (pb)")
              end
              pbs = { pbs }
            end
            for _, pb in ipairs(pbs) do
              if not is_int(pb) or pb < 1 or pb > 536870911 or (pb >= 19000 and pb <= 19999) then
                rerr("field '" .. m.name .. "': invalid proto field number " .. tostring(pb))
              elseif nums[pb] then
                rerr(string.format("field '%s': proto field number %d already used by '%s'", m.name, pb, nums[pb]))
              else
                nums[pb] = m.name
              end
            end
          end
        end
      end
      for _, key in ipairs({ "export", "metrics" }) do
        if r[key] then
          if type(r[key]) ~= "table" or (r[key].shape ~= "row" and r[key].shape ~= "object") then
            rerr(key .. ".shape must be 'row' or 'object'")
          elseif type(r[key].section) ~= "string" then
            rerr(key .. ".section must be a string")
          elseif rec.layout then
            check_columns(file, who, r[key], rec.layout, err)
          end
        end
      end
      by_name[r.name] = rec
      records[#records + 1] = rec
    end
    ::continue::
    if not by_name[r.name] then
      -- a record that failed still "exists" for later checks: no follow-on errors
      if type(r.proto) == "string" then failed_protos[r.proto] = true end
      if r.buffer then failed_kind = true end
    end
  end
  model.records, model.record_by_name = records, by_name
  model.buffer_kinds = {}
  for _, id in ipairs(util.sorted_keys(kind_ids)) do
    local rec = kind_ids[id]
    model.buffer_kinds[#model.buffer_kinds + 1] = { id = id, kind = rec.spec.buffer.kind, record = rec }
  end
  for i, k in ipairs(model.buffer_kinds) do
    if k.id ~= i - 1 and not failed_kind then err(file, "buffer kind " .. k.kind, "ids must be 0..n-1 without gaps") end
  end
  model.writers = {}
  for _, rec in ipairs(records) do
    if rec.spec.writer then model.writers[#model.writers + 1] = rec end
  end

  -- capture container messages
  model.capture = {}
  local msg_names = {}
  for name in pairs(failed_protos) do msg_names[name] = "record" end
  for _, rec in ipairs(records) do
    if rec.spec.proto then msg_names[rec.spec.proto] = "record" end
  end
  for i, m in ipairs(entries(schema.records.capture, file, "capture message", err)) do
    local who = string.format("capture message '%s'", tostring(m.name or i))
    if not check_strings(m, { "doc" }, file, who, err) then
      -- reported
    elseif type(m.name) ~= "string" or not m.name:match("^%u%w*$") or msg_names[m.name] then
      err(file, who, "needs a unique CamelCase name")
    else
      msg_names[m.name] = "capture"
      model.capture[#model.capture + 1] = m
    end
  end
  local SCALARS = { uint32 = 1, uint64 = 1, sint32 = 1, sint64 = 1, string = 1, bool = 1, int32 = 1, int64 = 1 }
  for _, m in ipairs(model.capture) do
    local nums = {}
    for _, n in ipairs(type(m.reserved) == "table" and m.reserved or {}) do nums[n] = true end
    for _, f in ipairs(entries(m.fields, file, "capture message '" .. m.name .. "' field", err)) do
      local who = string.format("capture message '%s': field '%s'", m.name, tostring(f.name))
      if not check_strings(f, { "doc" }, file, who, err) then
        -- reported
      elseif not is_ident(f.name) or not (SCALARS[f.type] or msg_names[f.type]) then
        err(file, who, "unknown type '" .. tostring(f.type) .. "'")
      elseif not is_int(f.pb) or nums[f.pb] then
        err(file, who, "needs a unique proto field number")
      else
        nums[f.pb] = true
      end
    end
  end
end

-- ---- orchestrator phases ------------------------------------------------------------
local function is_orch_name(n) return type(n) == "string" and n:match("^orch_[a-z0-9_]+$") ~= nil end

-- orch_retired: kinds no longer written; their ids and names stay reserved. Returns the
-- reserved ids and names (-> why) and fills model.orch_retired.
local function build_orch_retired(schema, model, err)
  local file = schema.paths.phases
  local ids, names = {}, {}
  model.orch_retired = {}
  for i, r in ipairs(entries(schema.phases.orch_retired, file, "retired orchestrator phase", err)) do
    local who = string.format("retired orchestrator phase %s", r.name and ("'" .. tostring(r.name) .. "'") or ("#" .. i))
    if (r.id ~= nil and (not is_int(r.id) or r.id < 0)) or (r.name ~= nil and not is_orch_name(r.name))
        or (r.id == nil and r.name == nil) then
      err(file, who, "needs an integer id >= 0 and/or a name orch_<lowercase>")
    elseif (r.id ~= nil and ids[r.id]) or (r.name ~= nil and names[r.name]) then
      err(file, who, "retired twice")
    else
      if r.id ~= nil then ids[r.id] = r.why or "retired" end
      if r.name ~= nil then names[r.name] = r.why or "retired" end
      model.orch_retired[#model.orch_retired + 1] = { id = r.id, name = r.name, why = r.why }
    end
  end
  table.sort(model.orch_retired, function(a, b)
    return (a.id or math.maxinteger) < (b.id or math.maxinteger)
        or ((a.id or math.maxinteger) == (b.id or math.maxinteger) and tostring(a.name) < tostring(b.name))
  end)
  return ids, names
end

-- orch_aliases = { old = "new" }: renamed kinds; a capture naming the old one reads as the new.
local function build_orch_aliases(schema, model, err, kinds, retired_names)
  local file = schema.paths.phases
  model.orch_aliases = {}
  local A = schema.phases.orch_aliases or {}
  for _, from in ipairs(util.sorted_keys(A)) do
    local to, who = A[from], "orchestrator alias '" .. tostring(from) .. "'"
    if not is_orch_name(from) then
      err(file, who, "needs a name orch_<lowercase>")
    elseif kinds[from] then
      err(file, who, "is a current orchestrator phase's name")
    elseif retired_names[from] then
      err(file, who, "is a retired orchestrator phase's name")
    elseif not kinds[to] then
      err(file, who, "target '" .. tostring(to) .. "' is not an orchestrator phase")
    else
      model.orch_aliases[#model.orch_aliases + 1] = { from = from, to = to }
    end
  end
end

local function build_orch_phases(schema, model, err, phase_by_name)
  local file = schema.paths.phases
  local out, seen, seen_id, defaults = {}, {}, {}, 0
  local orch_view = model.lane_by_key.orch and model.lane_by_key.orch.view
  local retired_ids, retired_names = build_orch_retired(schema, model, err)
  local declared = {} -- every kind's name, broken entries too (an alias to one is no second error)
  for i, o in ipairs(entries(schema.phases.orch_phases, file, "orchestrator phase", err)) do
    local who = string.format("orchestrator phase '%s'", tostring(o.name or ("#" .. i)))
    local lane = model.lane_by_key[o.lane]
    if is_orch_name(o.name) then declared[o.name] = true end
    if not is_orch_name(o.name) then
      err(file, who, "needs a name orch_<lowercase>")
    elseif seen[o.name] or phase_by_name[o.name] then
      err(file, who, "name already used")
    elseif retired_names[o.name] then
      err(file, who, "name is retired (" .. retired_names[o.name] .. ")")
    elseif math.type(o.id) ~= "integer" or o.id < 0 then
      err(file, who, "needs an id (a stable integer >= 0)")
    elseif seen_id[o.id] then
      err(file, who, string.format("id %d already used by '%s'", o.id, seen_id[o.id]))
    elseif retired_ids[o.id] then
      err(file, who, string.format("id %d is retired (%s) and must not be reused", o.id, retired_ids[o.id]))
    elseif o.default and o.id ~= 0 then
      err(file, who, "the default kind needs id 0 (what a capture without the kind field reads as)")
    elseif type(o.display) ~= "string" or type(o.cname) ~= "string" then
      err(file, who, "needs a display (label stem) and a cname colour")
    elseif not lane then
      err(file, who, "lane '" .. tostring(o.lane) .. "' is not declared in lanes.lua")
    elseif orch_view and lane.view ~= orch_view then
      err(file, who, string.format("lane '%s' is in view '%s', not the orchestrator's '%s'", o.lane, lane.view, orch_view))
    else
      seen[o.name], seen_id[o.id] = true, o.name
      if o.default then defaults = defaults + 1 end
      out[#out + 1] = { id = o.id, name = o.name, display = o.display, lane = o.lane, cname = o.cname,
                        default = o.default or false, dispatch_flow = o.dispatch_flow }
    end
  end
  if defaults ~= 1 then -- (readers name a record without a kind by the default, so one is needed)
    err(file, "orch_phases", string.format("exactly one entry needs default = true (found %d)", defaults))
  end
  model.orch_phases = out
  build_orch_aliases(schema, model, err, declared, retired_names)
end

-- ---- host upload phases (HBG) ----------------------------------------------------------
local function build_host_phases(schema, model, err)
  local file = schema.paths.phases
  local out, seen = {}, {}
  for i, h in ipairs(entries(schema.phases.host_phases, file, "host phase", err)) do
    local who = string.format("host phase '%s'", tostring(h.name or ("#" .. i)))
    local lane = model.lane_by_key[h.lane]
    if type(h.name) ~= "string" or not h.name:match("^[a-z][a-z0-9_]*$") then
      err(file, who, "needs a lowercase name")
    elseif seen[h.name] then
      err(file, who, "name already used")
    elseif type(h.display) ~= "string" or type(h.cname) ~= "string" then
      err(file, who, "needs a display and a cname colour")
    elseif not lane then
      err(file, who, "lane '" .. tostring(h.lane) .. "' is not declared in lanes.lua")
    else
      seen[h.name] = true
      out[#out + 1] = { name = h.name, display = h.display, lane = h.lane, cname = h.cname, bytes = h.bytes }
    end
  end
  model.host_phases = out
end

-- ---- phases -----------------------------------------------------------------------
local function build_phases(schema, model, err)
  local file = schema.paths.phases
  local P = schema.phases
  local retired_ids, retired_names = {}, {}
  model.retired = {}
  for i, r in ipairs(entries(P.retired, file, "retired", err)) do
    local who = string.format("retired #%d", i)
    if (r.id ~= nil and not is_int(r.id)) or (r.name ~= nil and not is_ident(r.name)) or (r.id == nil and r.name == nil) then
      err(file, who, "needs an integer id and/or a lowercase name")
    elseif check_strings(r, { "why", "aicore_display", "aicore_variant" }, file, who, err) then
      if r.id ~= nil then retired_ids[r.id] = r.why or "retired" end
      if r.name ~= nil then retired_names[r.name] = r.why or "retired" end
      model.retired[#model.retired + 1] = { id = r.id, name = r.name, aicore_display = r.aicore_display,
                                             aicore_variant = r.aicore_variant }
    end
  end
  local by_id, by_name, phases = {}, {}, {}
  for i, p in ipairs(entries(P.phases, file, "phase", err)) do
    local who = string.format("phase '%s'", tostring(p.name or ("#" .. i)))
    local ok = true
    local function perr(msg)
      err(file, who, msg)
      ok = false
    end
    if not is_ident(p.name) then perr("needs a lowercase name") end
    if not is_int(p.id) or p.id < 0 or p.id > 0xFFFFFFFF then
      perr("id must be an integer 0..2^32-1")
    elseif by_id[p.id] then
      perr(string.format("id %d already used by '%s'", p.id, by_id[p.id].name))
    elseif retired_ids[p.id] then
      perr(string.format("id %d is retired (%s) and must not be reused", p.id, retired_ids[p.id]))
    end
    if p.name and by_name[p.name] then perr(string.format("name already used by phase id %d", by_name[p.name].id)) end
    if p.name and retired_names[p.name] then perr("name is retired (" .. retired_names[p.name] .. ")") end
    if p.name and P.aliases and P.aliases[p.name] then perr("name is a legacy alias of '" .. P.aliases[p.name] .. "'") end
    if not ROLES[p.role] then perr("role must be outer, inner or marker (got " .. tostring(p.role) .. ")") end
    if not list_of(p.producers, PRODUCERS) then perr("producers must be a list of aicpu / aicore") end
    if not list_of(p.runtimes, RUNTIMES) then perr("runtimes must be a list of tmr / hbg") end
    if not model.lane_by_key[p.lane] then perr("lane '" .. tostring(p.lane) .. "' is not declared in lanes.lua") end
    local home = model.lane_by_key[(schema.lanes.producer_lanes or {}).aicpu or "sched"]
    local lane = model.lane_by_key[p.lane]
    if lane and home and p.role ~= "marker" and lane.view ~= home.view then
      perr(string.format("lane '%s' is in view '%s'; bars are drawn in the scheduler's view '%s' (markers may use another)",
        p.lane, lane.view, home.view))
    end
    if p.lane_by_runtime ~= nil then
      if type(p.lane_by_runtime) ~= "table" then perr("lane_by_runtime must be a table { runtime = lane }") end
      for rt, lane in pairs(type(p.lane_by_runtime) == "table" and p.lane_by_runtime or {}) do
        if not RUNTIMES[rt] then perr("lane_by_runtime: unknown runtime '" .. tostring(rt) .. "'") end
        if not model.lane_by_key[lane] then perr("lane_by_runtime." .. tostring(rt) .. ": lane '" .. tostring(lane) .. "' is not declared in lanes.lua") end
      end
    end
    if type(p.display) ~= "string" then perr("needs a display name") end
    if p.role ~= "marker" and type(p.cname) ~= "string" then perr("bars need a cname colour") end
    if type(p.tasks_processed) ~= "string" then perr("needs tasks_processed (what it counts)") end
    if p.role == "inner" and (type(p.parent) ~= "table" or #p.parent == 0) then perr("inner phases need a parent list") end
    if p.parent ~= nil and type(p.parent) ~= "table" then perr("parent must be a list of phase names") end
    for _, key in ipairs({ "aicore_display", "render_as", "cname" }) do
      if p[key] ~= nil and type(p[key]) ~= "string" then perr(key .. " must be a string") end
    end
    for _, key in ipairs({ "variant", "aicore_variant" }) do
      if p[key] ~= nil then
        local u = model.phase_record and model.phase_record.union
        if not (u and u.variant_by_name[p[key]]) then
          perr(key .. " '" .. tostring(p[key]) .. "' is not a variant of the phase record's union")
        end
      end
    end
    -- known even when broken, so one mistake does not cascade into others
    if is_int(p.id) and not by_id[p.id] then by_id[p.id] = p end
    if is_ident(p.name) and not by_name[p.name] then by_name[p.name] = p end
    if ok then phases[#phases + 1] = p end
  end
  for _, p in ipairs(phases) do
    local who = string.format("phase '%s'", p.name)
    for _, parent in ipairs(type(p.parent) == "table" and p.parent or {}) do
      if not by_name[parent] then
        err(file, who, "parent '" .. tostring(parent) .. "' is not a phase")
      elseif by_name[parent].role ~= "outer" then
        err(file, who, "parent '" .. parent .. "' is not an outer phase")
      end
    end
    if p.render_as and not by_name[p.render_as] then
      err(file, who, "render_as '" .. tostring(p.render_as) .. "' is not a phase")
    end
  end
  table.sort(phases, function(a, b) return a.id < b.id end)
  local out = {}
  for i, p in ipairs(phases) do
    local u = model.phase_record and model.phase_record.union
    out[i] = {
      id = p.id, name = p.name, display = p.display, aicore_display = p.aicore_display or p.display,
      role = p.role, producers = p.producers, producer_mask = mask(p.producers, PRODUCERS),
      runtimes = p.runtimes, runtime_mask = mask(p.runtimes, RUNTIMES),
      lane = p.lane, lane_entry = model.lane_by_key[p.lane], parent = p.parent, cname = p.cname,
      variant = p.variant and u and u.variant_by_name[p.variant] or nil,
      aicore_variant = (p.aicore_variant or p.variant) and u and u.variant_by_name[p.aicore_variant or p.variant] or nil,
      render_as = p.render_as, tasks_processed = p.tasks_processed, lane_by_runtime = p.lane_by_runtime,
      enum = "SL_PHASE_" .. util.upper(p.name),
    }
  end
  model.phases = out
  model.aliases = {}
  for _, from in ipairs(util.sorted_keys(P.aliases or {})) do
    local to = P.aliases[from]
    if not by_name[to] then
      err(file, "alias '" .. tostring(from) .. "'", "target '" .. tostring(to) .. "' is not a phase")
    end
    model.aliases[#model.aliases + 1] = { from = from, to = to }
  end
  build_orch_phases(schema, model, err, by_name)
  build_host_phases(schema, model, err)
  model.retired_ids, model.retired_names = {}, {}
  for _, id in ipairs(util.sorted_keys(retired_ids)) do model.retired_ids[#model.retired_ids + 1] = id end
  for _, n in ipairs(util.sorted_keys(retired_names)) do model.retired_names[#model.retired_names + 1] = n end
end

-- Returns model or nil, list of error lines.
function M.build(schema)
  local errors = {}
  local function err(file, who, msg) errors[#errors + 1] = string.format("%s: %s: %s", file, who, msg) end
  local model = { schema = schema, runtime_names = RUNTIME_NAMES }
  for _, name in ipairs({ "records", "phases", "lanes", "levels", "platforms", "dtypes" }) do
    local list_key = ({ records = "records", phases = "phases", lanes = "lanes", levels = "levels",
                        platforms = "platforms", dtypes = "dtypes" })[name]
    if type(schema[name][list_key]) ~= "table" then
      errors[#errors + 1] = string.format("%s: missing the '%s' list", schema.paths[name], list_key)
    end
  end
  if #errors > 0 then return nil, errors end
  require("strict").check(schema, PLATFORM_FIELDS, err)
  if #errors > 0 then return nil, errors end
  build_levels(schema, model, err)
  build_platforms(schema, model, err)
  build_dtypes(schema, model, err)
  build_lanes(schema, model, err)
  build_records(schema, model, err)
  build_phases(schema, model, err)
  if #errors > 0 then return nil, errors end
  return model
end

return M
