--[[
** async_dma.lua — tasks whose completion arrives asynchronously: each "load" task
** stands for a kernel that issued a DMA, so it completes `dma_us` device
** microseconds after its FIN, when the transfer lands; the scheduler's async_poll
** phase completes it then and only then releases its consumers.
** A chain per lane: load (async) -> scale -> load (async) -> ...
--]]
local ref = require("workloads.lib.ref")

return {
  class = "AsyncDma",
  incores = {
    { func_id = 0, name = "DMA_ADD", source = "runtime/kernels/add.c", core_type = "aiv",
      signature = { "in", "in", "out" } },
    { func_id = 1, name = "MUL", source = "runtime/kernels/mul.c", core_type = "aiv",
      signature = { "in", "in", "out" } },
  },
  cases = {
    { name = "default", platforms = { "a2a3sim", "a5sim" }, params = { lanes = 3, steps = 4, dma_us = 200 } },
    { name = "slow", platforms = { "a2a3sim", "a5sim" }, params = { lanes = 2, steps = 3, dma_us = 5000 } },
  },
  orchestrate = function(rt, p)
    local one = rt:tensor{ shape = { 4, 32 }, init = 1 }
    local two = rt:tensor{ shape = { 4, 32 }, init = 2 }
    local outs = {}
    for l = 1, p.lanes do
      local x = rt:tensor{ shape = { 4, 32 }, init = "zeros" }
      for _ = 1, p.steps do
        local y = rt:tensor{ shape = { 4, 32 }, init = "zeros" }
        rt:submit{ func = 0, args = { x, one, y }, async_us = p.dma_us } -- y = x + 1, lands later
        local z = rt:tensor{ shape = { 4, 32 }, init = "zeros" }
        rt:submit{ func = 1, args = { y, two, z } }                      -- z = y * 2
        x = z
      end
      outs[l] = x
    end
    return outs
  end,
  check = function(rt, p, outs)
    local v = 0
    for _ = 1, p.steps do v = (v + 1) * 2 end
    local want = {}
    for i = 1, 4 * 32 do want[i] = v end
    for l, t in ipairs(outs) do ref.expect("lane " .. l, t, want) end
  end,
}
