--[[
** scopes.lua — nested orchestration scopes: tasks submitted inside scope depth d take
** ids on ring d, task_id = (d << 32) | local, locals counted per ring, so ids repeat
** their local part across rings (r0t1, r1t1, r2t1 ...) and labels read rXtY.
** Dependencies cross rings through tensors and explicit deps.
--]]
local ref = require("workloads.lib.ref")

return {
  class = "Scopes",
  incores = {
    { func_id = 0, name = "ADD", source = "runtime/kernels/add.c", core_type = "aiv", signature = { "in", "in", "out" } },
    { func_id = 1, name = "MUL", source = "runtime/kernels/mul.c", core_type = "aiv", signature = { "in", "in", "out" } },
  },
  cases = {
    { name = "default", platforms = { "a2a3sim", "a5sim" }, params = { per_scope = 3 } },
  },
  orchestrate = function(rt, p)
    local a = rt:tensor{ shape = { 2, 32 }, init = "random" }
    local x = rt:tensor{ shape = { 2, 32 }, init = "zeros" }
    local ids = {}
    ids[#ids + 1] = rt:submit{ func = 0, args = { a, a, x } }            -- ring 0: x = 2a
    local y, z
    rt:scope(function()
      y = rt:tensor{ shape = { 2, 32 }, init = "zeros" }
      for _ = 1, p.per_scope do
        ids[#ids + 1] = rt:submit{ func = 0, args = { x, a, y } }        -- ring 1: y = x + a (RAW on ring 0)
      end
      rt:scope(function()
        z = rt:tensor{ shape = { 2, 32 }, init = "zeros" }
        for _ = 1, p.per_scope do
          ids[#ids + 1] = rt:submit{ func = 1, args = { y, a, z } }      -- ring 2: z = y * a
        end
      end)
    end)
    ids[#ids + 1] = rt:dummy{ deps = { ids[#ids], ids[2] } }             -- ring 0 waits on rings 1, 2
    return { a = a, y = y, z = z, ids = ids }
  end,
  check = function(rt, p, s)
    local a = ref.read(s.a)
    local y = ref.add(ref.add(a, a), a)
    ref.expect("y", s.y, y)
    ref.expect("z", s.z, ref.mul(y, a))
    local rings = {}
    for _, id in ipairs(s.ids) do rings[id >> 32] = true end
    for r = 0, 2 do
      if not rings[r] then error("no task id on ring " .. r) end
    end
  end,
}
