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
**   local base = R.func_name
**   R.func_name = function(id, mapped) return id == 0 and "MatMul" or base(id, mapped) end
**   return R
**
** The tables are filled from the schema (schema/phases.lua, schema/lanes.lua)
** when those files are present and have the expected shape; the built-in
** values below are the reference converter's and are used otherwise.
--]]

local R = {}

-- ---- views (Perfetto processes) -------------------------------------------------
R.views = {
  orchestrator = { pid = 1, sort = 1 },            -- name from R.orchestrator_name
  scheduler    = { pid = 2, name = "AICPU Scheduler", sort = 2 },
  sched_view   = { pid = 3, name = "Scheduler View", sort = 3 },
  worker       = { pid = 4, name = "Worker View", sort = 4 },
  graph        = { pid = 5, name = "Graph Execution", sort = 1 },
  lifecycle    = { pid = 6, name = "AICPU Lifecycle", sort = 6 },
}

-- ---- scheduler phases --------------------------------------------------------------
-- route: "sched"  the thread's Sched_N lane
--        "sub"    the thread's resolve sub-lane (Sched_N, tid + 1)
--        "marker" a Worker View AICPU_N marker (dummy_task / predicated_skip)
--        "hide"   not drawn
--        "lane:<name>" a lane of its own under the scheduler view
-- label: "count" -> phase(tasks_processed); "task" -> Display(t23); "name" -> Display
R.phases = {
  complete       = { route = "sched", cname = "good" },
  dispatch       = { route = "sched", cname = "terrible" },
  async_poll     = { route = "sched", cname = "yellow" },
  release        = { route = "sched", cname = "olive" },
  dummy          = { route = "sched", cname = "grey" },
  early_dispatch = { route = "sched", cname = "rail_animation" },
  drain          = { route = "sched", cname = "cq_build_running" },
  drain_prepare  = { route = "sched", cname = "cq_build_attempt_runnable" },
  drain_publish  = { route = "sched", cname = "cq_build_attempt_passed" },
  graph_prepare  = { route = "sched", cname = "rail_animation" },
  resolve        = { route = "sub", cname = "vsync_highlight_color" },
  -- HBG P thread: standalone resolve stays on the main lane, drawn as "resolve"
  resolve_standalone = { route = "sched", cname = "vsync_highlight_color", display = "resolve" },
  dummy_task     = { route = "marker", cname = "grey" },
  predicated_skip = { route = "marker" },
  -- A5 HBG AICore Scheduler phases (Scheduler_N lanes)
  bootstrap      = { route = "sched", cname = "grey", display = "Bootstrap" },
  state_probe    = { route = "sched", cname = "yellow", display = "StateProbe" },
  worksteal      = { route = "sched", cname = "olive", display = "Worksteal" },
  refill         = { route = "sched", cname = "good", display = "Refill" },
}

-- Display names used on A5 HBG AICore Scheduler lanes (task-bound labels).
R.hbg_display = {
  complete = "Completion", resolve = "Resolve", dispatch = "Dispatch",
  state_probe = "StateProbe", worksteal = "Worksteal", refill = "Refill",
  bootstrap = "Bootstrap", idle = "Idle",
  -- accepted legacy names of existing captures
  fanin = "Fanin", ready_claim = "StateProbe", ready_steal = "StateProbe",
  direct_refill = "Refill",
}

-- Orchestrator record colours.
R.orch_colors = {
  orch_submit = "rail_animation", orch_sync = "thread_state_iowait", orch_alloc = "terrible",
  orch_params = "good", orch_lookup = "thread_state_running", orch_insert = "olive",
  orch_fanin = "rail_animation",
}
R.orch_default_color = "generic_work"

-- Retired phases are parsed but never drawn.
R.retired = { scan = true, poll = true, idle = true, fanout = true, prestage = true }

-- stream = { producer = "aicpu"|"aicore"|nil, runtime = "...", platform = "..." }
-- Returns { route = ..., cname = ..., label = "count"|"task"|"name", display = ... }.
function R.phase(name, stream)
  local hbg_core = stream and stream.producer == "aicore"
  if hbg_core then
    -- A5 HBG AICore Scheduler: every phase on the single Scheduler_N lane,
    -- task-bound ones labelled Display(t23), taskless ones by name alone.
    local disp = R.hbg_display[name]
    if not disp then return { route = "hide" } end
    local p = R.phases[name] or {}
    local taskless = (name == "bootstrap" or name == "idle")
    return { route = "sched", cname = p.cname or "generic_work", display = disp,
             label = taskless and "name" or "task" }
  end
  if R.retired[name] then return { route = "hide" } end
  local p = R.phases[name]
  if not p then return { route = "hide" } end
  local route = p.route
  -- host_build_graph keeps resolve on the P thread's main lane
  if name == "resolve" and stream and stream.runtime == "host_build_graph" then
    route = "sched"
  end
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
-- Worker View lane name of a core; return false to hide the core's lane.
function R.worker_lane(core_id, core_type)
  return string.format("%s_%d", string.upper(core_type or "unknown"), core_id)
end

function R.sched_lane(thread) return "Sched_" .. thread end
function R.hbg_lane(physical_id) return "Scheduler_" .. physical_id end
function R.aicpu_lane(i) return "AICPU_" .. i end
function R.orch_lane(i, source) return (source == "host" and "Host_" or "Orch_") .. i end
function R.lifecycle_lane(thread) return "AICPU_" .. thread end

function R.orchestrator_name(source, name)
  if source == "host" then return "Host Orchestrator" end
  if name then return "AICPU " .. name end
  return "AICPU Orchestrator"
end

-- AICPU lifecycle spans: { label, start field, end field } (sl_capture.h keys).
R.lifecycle = {
  { "Handshake", "handshake_start_cycles", "handshake_complete_cycles" },
  { "TopologyConfig", "config_start_cycles", "topology_complete_cycles" },
  { "ContextPublish", "context_publish_start_cycles", "context_publish_complete_cycles" },
  { "BootstrapWait", "bootstrap_wait_start_cycles", "bootstrap_complete_cycles" },
  { "RegisterRelease", "register_release_start_cycles", "register_release_end_cycles" },
  { "ExitSignal", "exit_signal_start_cycles", "exit_signal_end_cycles" },
  { "ExitWait", "exit_wait_start_cycles", "exit_wait_end_cycles" },
}

-- ---- schema overlay ------------------------------------------------------------------
-- The phase and lane tables come from the schema (schema/phases.lua, lanes.lua) when
-- they are there. The schema is data only; an entry of an unexpected shape is skipped
-- and the built-in value above stays.
local ROUTE_OF_LANE = { sched = "sched", sched_sub = "sub", hbg_p = "sched",
                        aicore_sched = "sched", worker_aicpu = "marker" }

-- Lanes by key: { tid_base =, tid_stride =, name =, sort_index = } (engine reads tids).
R.lanes = {}

local function load_schema(file)
  local home = rawget(_G, "SL_HOME") or os.getenv("SWIMLANE_HOME")
  if not home then return nil end
  local ok, t = pcall(dofile, home .. "/schema/" .. file)
  if ok and type(t) == "table" then return t end
  return nil
end

local function overlay_phases(schema)
  if type(schema.phases) ~= "table" then return end
  for _, p in ipairs(schema.phases) do
    if type(p) == "table" and type(p.name) == "string" then
      local route = ROUTE_OF_LANE[p.lane]
      if route then
        local cur = R.phases[p.name] or {}
        cur.route = route
        if type(p.cname) == "string" then cur.cname = p.cname end
        local disp = p.render_as or p.display
        if type(disp) == "string" and route ~= "marker" then cur.display = disp end
        R.phases[p.name] = cur
        if type(p.aicore_display) == "string" then
          R.hbg_display[p.name] = p.aicore_display
        elseif p.lane == "aicore_sched" and type(p.display) == "string" then
          R.hbg_display[p.name] = p.display
        end
      end
    end
  end
  if type(schema.retired) == "table" then
    for _, r in ipairs(schema.retired) do
      if type(r) == "table" and type(r.name) == "string" then R.retired[r.name] = true end
    end
  end
end

local VIEW_OF_KEY = { orchestrator = "orchestrator", scheduler = "scheduler",
                      scheduler_view = "sched_view", worker_view = "worker",
                      graph_execution = "graph", aicpu_lifecycle = "lifecycle" }

local function overlay_lanes(schema)
  if type(schema.views) == "table" then
    for _, v in ipairs(schema.views) do
      local mine = type(v) == "table" and R.views[VIEW_OF_KEY[v.key] or ""]
      if mine and math.type(v.pid) == "integer" then
        mine.pid = v.pid
        if math.type(v.sort_index) == "integer" then mine.sort = v.sort_index end
        if type(v.process_name) == "string" and mine.name then mine.name = v.process_name end
      end
    end
  end
  if type(schema.lanes) == "table" then
    for _, l in ipairs(schema.lanes) do
      if type(l) == "table" and type(l.key) == "string" and math.type(l.tid_base) == "integer" then
        R.lanes[l.key] = { tid_base = l.tid_base, tid_stride = l.tid_stride or 1,
                           name = l.name, sort_index = l.sort_index }
      end
    end
  end
end

local phases_schema = load_schema("phases.lua")
if phases_schema then overlay_phases(phases_schema) end
local lanes_schema = load_schema("lanes.lua")
if lanes_schema then overlay_lanes(lanes_schema) end

return R
