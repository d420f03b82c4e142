local R = require("convert.default")
R.phases.dispatch.cname = "good"
R.phases.release.route = "hide"
R.phases.async_poll.route = "lane:Polling"
local base = R.func_name
R.func_name = function(id, mapped, default)
  if id == 0 then return "MatMul" end
  return base(id, mapped, default)
end
local lane = R.worker_lane
R.worker_lane = function(core, ty)
  if core == 1 then return false end
  return lane(core, ty)
end
return R
