--[[
** mixed_example.lua — three chained 3-way MIX tasks (func 0 MATMUL on the AIC,
** 1 ADD on AIV0, 2 MUL on AIV1, sharing one args[]), a dependency-only dummy
** joining them, then two chained 2-AIV MIX tasks (3 ADD_STD on AIV0 + 4 MUL_STD
** on AIV1).
--]]
local ref = require("workloads.lib.ref")

local MIX3 = { "in", "in", "out", "in", "in", "out", "in", "in", "out" }
local MIX2 = { "in", "in", "out", "in", "in", "out" }

return {
  class = "MixedExample",
  orchestrator_name = "MixedOrch",
  incores = {
    { func_id = 0, name = "MATMUL", source = "runtime/kernels/matmul.c", core_type = "aic", signature = MIX3,
      l0_expect = "matmul" },
    { func_id = 1, name = "ADD", source = "runtime/kernels/add_at3.c", core_type = "aiv", signature = MIX3,
      l0_expect = "vbinary:5" },
    { func_id = 2, name = "MUL", source = "runtime/kernels/mul_at6.c", core_type = "aiv", signature = MIX3,
      l0_expect = "vbinary:8" },
    { func_id = 3, name = "ADD_STD", source = "runtime/kernels/add.c", core_type = "aiv", signature = MIX2,
      l0_expect = "vbinary:2" },
    { func_id = 4, name = "MUL_STD", source = "runtime/kernels/mul_at3.c", core_type = "aiv", signature = MIX2,
      l0_expect = "vbinary:5" },
  },
  cases = {
    { name = "Case1", platforms = { "a2a3sim", "a5sim" }, params = { n = 32, chain = 3 } },
  },

  orchestrate = function(rt, p)
    local n, sq = p.n, { p.n, p.n }
    local s = {
      a0 = rt:tensor{ shape = sq, init = "random" },  -- matmul lhs of the first link
      w = rt:tensor{ shape = sq, init = "random" },   -- matmul rhs, shared
      d0 = rt:tensor{ shape = sq, init = "random" },
      e = rt:tensor{ shape = sq, init = "random" },
      g0 = rt:tensor{ shape = sq, init = "random" },
      h = rt:tensor{ shape = sq, init = "random" },
      c = {}, f = {}, i = {}, ids = {},
    }
    local a, d, g = s.a0, s.d0, s.g0
    for k = 1, p.chain do
      s.c[k] = rt:tensor{ shape = sq, init = "zeros" }
      s.f[k] = rt:tensor{ shape = sq, init = "zeros" }
      s.i[k] = rt:tensor{ shape = sq, init = "zeros" }
      s.ids[k] = rt:submit{ aic = 0, aiv0 = 1, aiv1 = 2,
                            args = { a, s.w, s.c[k], d, s.e, s.f[k], g, s.h, s.i[k] } }
      a, d, g = s.c[k], s.f[k], s.i[k]
    end
    local join = rt:dummy{ deps = s.ids }
    s.x1 = rt:tensor{ shape = sq, init = "zeros" }
    s.y1 = rt:tensor{ shape = sq, init = "zeros" }
    s.x2 = rt:tensor{ shape = sq, init = "zeros" }
    s.y2 = rt:tensor{ shape = sq, init = "zeros" }
    rt:submit{ aiv0 = 3, aiv1 = 4, args = { d, g, s.x1, g, d, s.y1 }, deps = { join } }
    rt:submit{ aiv0 = 3, aiv1 = 4, args = { s.x1, s.y1, s.x2, s.x1, s.y1, s.y2 } }
    return s
  end,

  check = function(rt, p, s)
    local n = p.n
    local a, w = ref.read(s.a0), ref.read(s.w)
    local d, e = ref.read(s.d0), ref.read(s.e)
    local g, h = ref.read(s.g0), ref.read(s.h)
    for k = 1, p.chain do
      a = ref.matmul(a, w, n, n, n)
      d = ref.add(d, e)
      g = ref.mul(g, h)
      ref.expect("C" .. k, s.c[k], a, 1e-3)
      ref.expect("F" .. k, s.f[k], d)
      ref.expect("I" .. k, s.i[k], g)
    end
    local x1, y1 = ref.add(d, g), ref.mul(g, d)
    ref.expect("X1", s.x1, x1)
    ref.expect("Y1", s.y1, y1)
    ref.expect("X2", s.x2, ref.add(x1, y1))
    ref.expect("Y2", s.y2, ref.mul(x1, y1))
  end,
}
