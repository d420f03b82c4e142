--[[
** spmd_multiblock.lua — SPMD tasks whose block_num exceeds the core count.
**   aiv: an AIV add over `rows` rows in `blocks` blocks, then an AIV mul on its result.
**   mix: MIX tasks (MATMUL on the AIC + the same add_lanes source on both AIV lanes,
**        routed by sub_block_id) in `blocks` blocks, chained twice.
--]]
local ref = require("workloads.lib.ref")

local MIX = { "in", "in", "out", "in", "in", "out" }

return {
  class = "SpmdMultiblock",
  orchestrator_name = "SpmdOrch",
  incores = {
    { func_id = 0, name = "SPMD_ADD_AIV", source = "runtime/kernels/add.c", core_type = "aiv",
      signature = { "in", "in", "out" }, l0_expect = "vbinary:2" },
    { func_id = 1, name = "SPMD_MUL_AIV", source = "runtime/kernels/mul.c", core_type = "aiv",
      signature = { "in", "in", "out" }, l0_expect = "vbinary:2" },
    { func_id = 2, name = "SPMD_MATMUL", source = "runtime/kernels/matmul.c", core_type = "aic", signature = MIX,
      l0_expect = "matmul" },
    { func_id = 3, name = "SPMD_ADD_LANE0", source = "runtime/kernels/add_lanes.c", core_type = "aiv", signature = MIX },
    { func_id = 4, name = "SPMD_ADD_LANE1", source = "runtime/kernels/add_lanes.c", core_type = "aiv", signature = MIX },
  },
  cases = {
    { name = "aiv", platforms = { "a2a3sim", "a5sim" }, params = { mode = "aiv", rows = 192, cols = 64, blocks = 96 } },
    { name = "mix", platforms = { "a2a3sim", "a5sim" }, params = { mode = "mix", rows = 128, cols = 32, blocks = 32 } },
  },

  orchestrate = function(rt, p)
    local shape = { p.rows, p.cols }
    local s = { a = rt:tensor{ shape = shape, init = "random" }, b = rt:tensor{ shape = shape, init = "random" } }
    if p.mode == "aiv" then
      s.c = rt:tensor{ shape = shape, init = "zeros" }
      s.d = rt:tensor{ shape = shape, init = "zeros" }
      rt:submit{ func = 0, args = { s.a, s.b, s.c }, block_num = p.blocks }
      rt:submit{ func = 1, args = { s.c, s.a, s.d }, block_num = p.blocks }
    else
      s.w = rt:tensor{ shape = { p.cols, p.cols }, init = "random" }
      s.c1 = rt:tensor{ shape = shape, init = "zeros" }
      s.s1 = rt:tensor{ shape = shape, init = "zeros" }
      s.c2 = rt:tensor{ shape = shape, init = "zeros" }
      s.s2 = rt:tensor{ shape = shape, init = "zeros" }
      rt:submit{ aic = 2, aiv0 = 3, aiv1 = 4, args = { s.a, s.w, s.c1, s.a, s.b, s.s1 }, block_num = p.blocks }
      rt:submit{ aic = 2, aiv0 = 3, aiv1 = 4, args = { s.c1, s.w, s.c2, s.s1, s.b, s.s2 }, block_num = p.blocks }
    end
    return s
  end,

  check = function(rt, p, s)
    local a, b = ref.read(s.a), ref.read(s.b)
    if p.mode == "aiv" then
      local c = ref.add(a, b)
      ref.expect("c", s.c, c)
      ref.expect("d", s.d, ref.mul(c, a))
    else
      local w = ref.read(s.w)
      local c1 = ref.matmul(a, w, p.rows, p.cols, p.cols)
      local s1 = ref.add(a, b)
      ref.expect("c1", s.c1, c1, 1e-3)
      ref.expect("s1", s.s1, s1)
      ref.expect("c2", s.c2, ref.matmul(c1, w, p.rows, p.cols, p.cols), 1e-3)
      ref.expect("s2", s.s2, ref.add(s1, b))
    end
  end,
}
