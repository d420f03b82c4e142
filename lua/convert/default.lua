--[[
** convert/default.lua — the default conversion rules: which view (Perfetto
** process) and lane each thing is drawn on, its colour and its label.
**
** The C engine loops over records; it asks these rules once per distinct
** thing (phase kind of a stream, function id, core, scheduler thread), never
** per record. A user's rules script extends this one:
**
**   local R = require("convert.default")
**   R.phases.dispatch.cname = "good"             -- recolour
**   R.phases.release.route = "hide"              -- hide a phase
**   R.phases.async_poll.route = "lane:Polling"   -- a lane of its own
**   R.hidden_args.acid_extra = true              -- keep a record field out of the args
**   local base = R.func_name
**   R.func_name = function(id, mapped) return id == 0 and "MatMul" or base(id, mapped) end
**   return R
**
** Every table is derived from the schema compiled into the binary (the module
** "swimlane.schema", generated from schema/*.lua): views, lanes with their tid
** bases and name patterns, phases with their lanes, colours and labels, retired
** names. No schema source is read at run time and there is no hand copy here.
--]]

local S = require("swimlane.schema")
local R = { schema = S }

-- Record fields the reader has no meaning for (schema fields newer than the converter) are
-- shown in their slices' args; a name set true here keeps that field out of them.
R.hidden_args = {}

-- "{index}" / "{TYPE}" / "{name}" of a lane's name pattern.
local function fill(pattern, vars)
  return (pattern:gsub("{(%w+)}", function(k) return vars[k] ~= nil and tostring(vars[k]) or "{" .. k .. "}" end))
end

-- ---- views (Perfetto processes) and lanes, by schema key ------------------------------
R.views = {}
for _, v in ipairs(S.views) do
  R.views[v.key] = { pid = v.pid, name = v.process_name, sort = v.sort_index or v.pid,
                     name_variants = v.name_variants }
end
-- Lanes by key: { tid_base, tid_stride, name (pattern), sort_index, pid, view }.
R.lanes = {}
for _, l in ipairs(S.lanes) do
  R.lanes[l.key] = { tid_base = l.tid_base, tid_stride = l.tid_stride, name = l.name,
                     sort_index = l.sort_index, pid = l.pid, view = l.view }
end

-- ---- scheduler phases --------------------------------------------------------------
-- route: "sched"  the stream's main lane (its producer's lane: Sched_N, Scheduler_N)
--        "sub"    the lane one tid above the main lane, same stride (Sched_N resolve sub-lane)
--        "marker" a Worker View marker (a phase whose lane lives in another view)
--        "hide"   not drawn
--        "lane:<key>"  a per-thread schema lane: tid = tid_base + thread * tid_stride,
--                      named by its pattern ({index} = scheduler thread)
--        "lane:<name>" (not a lane key) a lane of that name of its own under the scheduler
-- label: "count" -> phase(tasks_processed); "task" -> Display(t23); "name" -> Display
local main_of = {}               -- lane key -> true when it is a producer's main lane
main_of[S.producer_lanes.aicpu or "sched"] = true
for _, key in pairs(S.producer_lanes) do main_of[key] = true end
local main = R.lanes[S.producer_lanes.aicpu or "sched"]

local function route_of(key)
  local l = R.lanes[key]
  if main_of[key] then return "sched" end
  if l.view ~= main.view then return "marker" end
  if l.tid_base == main.tid_base and l.tid_stride == main.tid_stride then return "sched" end
  if l.tid_base == main.tid_base + 1 and l.tid_stride == main.tid_stride then return "sub" end
  return "lane:" .. key
end

R.phases, R.aicore_display = {}, {}
for _, p in ipairs(S.phases) do
  local e = { route = route_of(p.lane), cname = p.cname, runtime_routes = {},
              display = p.render_as or p.display }
  for rt, lane in pairs(p.lane_by_runtime or {}) do e.runtime_routes[rt] = route_of(lane) end
  R.phases[p.name] = e
  for _, who in ipairs(p.producers) do
    if who == "aicore" then
      R.aicore_display[p.name] = { display = p.aicore_display, task = p.aicore_variant == "task" }
    end
  end
end
-- Retired phases are parsed but never drawn (an AICore lane may still label a legacy name).
R.retired = {}
for _, r in ipairs(S.retired) do
  if r.name then
    R.retired[r.name] = true
    if r.aicore_display then R.aicore_display[r.name] = { display = r.aicore_display, task = r.aicore_variant == "task" } end
  end
end

-- Orchestrator records: colour and label stem by kind (schema orch_phases).
R.orch_colors, R.orch_display = {}, {}
for _, o in ipairs(S.orch_phases) do
  R.orch_colors[o.name], R.orch_display[o.name] = o.cname, o.display
  if o.default then R.orch_default = o.name end
end
R.orch_default_color = "generic_work"

-- stream = { producer = "aicpu"|"aicore"|nil, runtime = "...", platform = "..." }
-- Returns { route = ..., cname = ..., label = "count"|"task"|"name", display = ..., lane = ... }.
function R.phase(name, stream)
  if stream and stream.producer and stream.producer ~= "aicpu" and S.producer_lanes[stream.producer] then
    -- e.g. the A5 HBG AICore Scheduler: every phase on the producer's single lane,
    -- task-bound ones labelled Display(t23), taskless ones by name alone.
    local a = R.aicore_display[name]
    if not a then return { route = "hide" } end
    local p = R.phases[name] or {}
    return { route = "sched", cname = p.cname or "generic_work", display = a.display,
             label = a.task and "task" or "name" }
  end
  if R.retired[name] then return { route = "hide" } end
  local p = R.phases[name]
  if not p then return { route = "hide" } end
  local rt = stream and S.runtimes[stream.runtime or ""]
  local route = (p.runtime_routes and rt and p.runtime_routes[rt]) or p.route
  return { route = route, cname = p.cname, label = p.label or "count",
           display = p.display or name }
end

-- ---- labels --------------------------------------------------------------------------
-- Base of a task label for a function id; `mapped` is the name-map entry (or nil),
-- `default` the reference's fallback ("task" for id < 0, else "func_<letters>").
function R.func_name(func_id, mapped, default)
  if func_id < 0 then return "task" end
  return mapped or default
end

-- ---- lanes ---------------------------------------------------------------------------
-- Name of instance `index` of a schema lane (its pattern filled in).
function R.lane_name(key, index, vars)
  local l = R.lanes[key]
  if not l then return nil end
  local v = { index = index }
  for k, x in pairs(vars or {}) do v[k] = x end
  return fill(l.name, v)
end

-- Worker View lane name of a core; return false to hide the core's lane.
function R.worker_lane(core_id, core_type)
  return R.lane_name("worker_core", core_id, { TYPE = string.upper(core_type or "unknown") })
end

function R.sched_lane(thread) return R.lane_name(S.producer_lanes.aicpu or "sched", thread) end
function R.hbg_lane(physical_id) return R.lane_name(S.producer_lanes.aicore, physical_id) end
function R.aicpu_lane(i) return R.lane_name("worker_aicpu", i) end
-- source "host" = the host orchestrator's lanes, "host_prepare" = the H2D upload lane
local orch_lane_keys = { host = "host_orch", host_prepare = "host_h2d" }
function R.orch_lane(i, source) return R.lane_name(orch_lane_keys[source] or "orch", i) end
function R.lifecycle_lane(thread) return R.lane_name("lifecycle", thread) end

function R.orchestrator_name(source, name)
  local v = R.views.orchestrator
  if source == "host" then return v.name_variants.host end
  if source == "host_prepare" then return v.name_variants.prepare end
  if name then return fill(v.name_variants.named, { name = name }) end
  return v.name
end

-- AICPU lifecycle spans: { label, start field, end field }, the lifecycle record's `spans`
-- in the schema (its field names, which the generator checks).
R.lifecycle = {}
for _, sp in ipairs(S.record_spans.aicpu_lifecycle_record or {}) do
  R.lifecycle[#R.lifecycle + 1] = { sp.label, sp.from, sp.to }
end

return R
