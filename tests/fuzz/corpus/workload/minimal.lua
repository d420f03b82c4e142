-- the smallest workload shape: one incore, one case, an orchestration
return {
  class = "Minimal",
  incores = { { func_id = 0, name = "ADD", source = "runtime/kernels/add.c", core_type = "aiv",
                signature = { "in", "in", "out" } } },
  cases = { { name = "Case1", platforms = { "a2a3sim", "a5sim" }, params = { n = 4 } } },
  orchestrate = function(rt, p)
    local a = rt:tensor{ shape = { p.n }, dtype = "float32" }
    rt:submit{ func = 0, args = { a, a, a } }
  end,
}
