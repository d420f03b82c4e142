--[[
** vector_example.lua — five AIV tasks on vectors (add / mul chain), plus one task
** whose predicate is false (retired as predicated_skip, its output stays zero). Two tasks
** carry task-timing slots (0 and 1): `run` prints their device_wall.task_slot_<N> spans.
--]]
local ref = require("workloads.lib.ref")

return {
  class = "VectorExample",
  orchestrator_name = "VectorOrch",
  incores = {
    { func_id = 0, name = "kernel_add", source = "runtime/kernels/add.c", core_type = "aiv",
      signature = { "in", "in", "out" }, l0_expect = "vbinary:2" },
    { func_id = 1, name = "kernel_mul", source = "runtime/kernels/mul.c", core_type = "aiv",
      signature = { "in", "in", "out" }, l0_expect = "vbinary:2" },
  },
  cases = {
    { name = "default", platforms = { "a2a3sim", "a5sim" }, params = { rows = 4, cols = 128 } },
    { name = "large", platforms = { "a2a3sim", "a5sim" }, params = { rows = 64, cols = 1024 } },
  },

  orchestrate = function(rt, p)
    local shape = { p.rows, p.cols }
    local t = {
      a = rt:tensor{ shape = shape, init = "random" },
      b = rt:tensor{ shape = shape, init = "random" },
    }
    for _, k in ipairs({ "c", "d", "e", "f", "g", "skipped" }) do
      t[k] = rt:tensor{ shape = shape, init = "zeros" }
    end
    rt:submit{ func = 0, args = { t.a, t.b, t.c } }           -- c = a + b
    rt:submit{ func = 1, args = { t.c, t.a, t.d }, timing_slot = 0 } -- d = c * a (timed: slot 0)
    rt:submit{ func = 0, args = { t.c, t.d, t.e } }           -- e = c + d
    rt:set_task_timing_slot(1)                                -- the next task is timed in slot 1
    rt:submit{ func = 1, args = { t.e, t.e, t.f } }           -- f = e * e
    rt:submit{ func = 0, args = { t.f, t.a, t.g } }           -- g = f + a
    rt:submit{ func = 1, args = { t.g, t.g, t.skipped }, predicate = false }
    return t
  end,

  check = function(rt, p, t)
    local a, b = ref.read(t.a), ref.read(t.b)
    local c = ref.add(a, b)
    local d = ref.mul(c, a)
    local e = ref.add(c, d)
    local f = ref.mul(e, e)
    local g = ref.add(f, a)
    ref.expect("c", t.c, c)
    ref.expect("d", t.d, d)
    ref.expect("e", t.e, e)
    ref.expect("f", t.f, f)
    ref.expect("g", t.g, g)
    local zeros = {}
    for i = 1, #a do zeros[i] = 0.0 end
    ref.expect("skipped (predicate false)", t.skipped, zeros)
  end,
}
