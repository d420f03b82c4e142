--[[
** graph_exec.lua — a graph definition reused by several instances. The graph is
** a 4-node diamond over parameters (x, w, y, t1, t2): t1 = x + w, t2 = x * w,
** y = t1 + t2, then y = y * w in place. Each instance is one ring-0 task to the
** tensormap; when it is ready the scheduler expands it (graph_prepare) into ring-1
** node tasks (1 << 32 | outer_local << 10 | node), drawn in the Graph Execution view.
** Instance k reads instance k-1's y, so the instances chain through the tensormap.
--]]
local ref = require("workloads.lib.ref")

return {
  class = "GraphExec",
  incores = {
    { func_id = 0, name = "ADD", source = "runtime/kernels/add.c", core_type = "aiv", signature = { "in", "in", "out" } },
    { func_id = 1, name = "MUL", source = "runtime/kernels/mul.c", core_type = "aiv", signature = { "in", "in", "out" } },
  },
  cases = {
    { name = "default", platforms = { "a2a3sim", "a5sim" }, params = { instances = 3 } },
    { name = "many", platforms = { "a2a3sim", "a5sim" }, params = { instances = 40 } },
  },
  orchestrate = function(rt, p)
    local g = rt:graph{
      params = { "in", "in", "out", "inout", "inout" },
      nodes = {
        { func = 0, args = { 1, 2, 4 } },              -- t1 = x + w
        { func = 1, args = { 1, 2, 5 } },              -- t2 = x * w
        { func = 0, args = { 4, 5, 3 }, deps = { 1, 2 } }, -- y = t1 + t2
        { func = 1, args = { 3, 2, 3 }, deps = { 3 }, block_num = 2 }, -- y = y * w
      },
    }
    local w = rt:tensor{ shape = { 4, 16 }, init = 0.5 }
    local x = rt:tensor{ shape = { 4, 16 }, init = "random" }
    local first = x
    for _ = 1, p.instances do
      local y = rt:tensor{ shape = { 4, 16 }, init = "zeros" }
      local t1 = rt:tensor{ shape = { 4, 16 }, init = "zeros" }
      local t2 = rt:tensor{ shape = { 4, 16 }, init = "zeros" }
      rt:submit_graph{ graph = g, args = { x, w, y, t1, t2 } }
      x = y
    end
    return { first = first, last = x, w = w }
  end,
  check = function(rt, p, s)
    local x, w = ref.read(s.first), ref.read(s.w)
    for _ = 1, p.instances do
      local y = ref.add(ref.add(x, w), ref.mul(x, w))
      x = ref.mul(y, w)
    end
    ref.expect("y", s.last, x, 1e-5)
  end,
}
