--[[
** l0/init.lua — render a core-swimlane replay workspace.
**
** `swimlane l0` builds a spec table (the task's members and args, the
** platform, where this repository's headers and libraries are) and calls
** render(spec), which returns { [file name] = contents } for the five files of
** the workspace. Errors are raised with error("message", 0).
--]]
local M = {}

local templates = {
  { "replay_kernel.c", "l0.replay_kernel" },
  { "replay_launch.c", "l0.replay_launch" },
  { "replay_host.c",   "l0.replay_host" },
  { "CMakeLists.txt",  "l0.cmakelists" },
  { "run_collect.sh",  "l0.run_collect" },
}

-- Split the members into the AIC member and the distinct AIV members (same
-- source collapses: duplicate ids or two ids compiling one file run once, on
-- both lanes). 1C2V: at most one AIC and two distinct AIV.
function M.plan(spec)
  local aic, aiv, seen = {}, {}, {}
  for _, m in ipairs(spec.members) do
    if m.core_type == "aic" then
      aic[#aic + 1] = m
    elseif m.core_type == "aiv" then
      if not seen[m.source] then
        seen[m.source] = true
        aiv[#aiv + 1] = m
      end
    else
      error(string.format("unsupported core_type %s for func_id %d (only aic/aiv)", tostring(m.core_type), m.func_id), 0)
    end
  end
  if #aic > 1 then
    error(string.format("%d AIC members in one task; 1C2V has a single AIC sub-core", #aic), 0)
  end
  if #aiv > 2 then
    error(string.format("%d distinct AIV members in one task; 1C2V has at most 2 AIV sub-cores", #aiv), 0)
  end
  return { aic = aic[1], aiv = aiv }
end

function M.render(spec)
  local plan = M.plan(spec)
  local files = {}
  for _, t in ipairs(templates) do
    files[t[1]] = require(t[2]).render(spec, plan)
  end
  return files
end

return M
