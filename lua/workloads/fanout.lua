--[[
** fanout.lua — one producer, many consumers: when the producer completes, the
** scheduler's resolve walk visits every consumer and makes it ready, long enough
** (>= 1 us) to be recorded as the nested resolve phase inside complete; a dummy
** then joins every consumer (its resolve nests inside dummy).
--]]
local ref = require("workloads.lib.ref")

return {
  class = "Fanout",
  incores = {
    { func_id = 0, name = "ADD", source = "runtime/kernels/add.c", core_type = "aiv", signature = { "in", "in", "out" } },
  },
  cases = {
    { name = "default", platforms = { "a2a3sim", "a5sim" }, params = { consumers = 96 } },
    { name = "wide", platforms = { "a2a3sim", "a5sim" }, params = { consumers = 1000 } },
  },
  orchestrate = function(rt, p)
    local a = rt:tensor{ shape = { 2, 16 }, init = "random" }
    local x = rt:tensor{ shape = { 2, 16 }, init = "zeros" }
    rt:submit{ func = 0, args = { a, a, x } } -- x = 2a
    local outs, ids = {}, {}
    for i = 1, p.consumers do
      outs[i] = rt:tensor{ shape = { 2, 16 }, init = "zeros" }
      ids[#ids + 1] = rt:submit{ func = 0, args = { x, a, outs[i] } } -- 3a
    end
    for i = 1, #ids, 64 do -- dummies join the consumers (explicit deps: at most 64 each)
      rt:dummy{ deps = { table.unpack(ids, i, math.min(i + 63, #ids)) } }
    end
    return { a = a, outs = outs }
  end,
  check = function(rt, p, s)
    local a = ref.read(s.a)
    local want = ref.add(ref.add(a, a), a)
    for i, t in ipairs(s.outs) do ref.expect("consumer " .. i, t, want, 1e-6) end
  end,
}
