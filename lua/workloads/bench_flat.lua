--[[
** bench_flat.lua — many tiny tasks for the capture-overhead benchmark: n spin tasks
** spread over `chains` independent counters (each counter is a chain of inouts).
--]]
return {
  class = "BenchFlat",
  incores = {
    { func_id = 0, name = "SPIN", source = "runtime/kernels/spin.c", core_type = "aiv",
      signature = { "inout", "scalar" } },
  },
  cases = {
    { name = "default", platforms = { "a2a3sim", "a5sim" }, params = { n = 100000, chains = 64, iters = 1 } },
    { name = "small", platforms = { "a2a3sim", "a5sim" }, params = { n = 2000, chains = 16, iters = 1 } },
    -- the golden-file case (tests/golden): the same shape, small enough to keep in the tree
    { name = "tiny", platforms = { "a2a3sim", "a5sim" }, params = { n = 48, chains = 4, iters = 1 } },
  },

  orchestrate = function(rt, p)
    local cnt = {}
    for c = 1, p.chains do cnt[c] = rt:tensor{ shape = { 1 }, dtype = "int64", init = "zeros" } end
    for i = 0, p.n - 1 do
      rt:submit{ func = 0, args = { cnt[i % p.chains + 1] }, scalars = { p.iters } }
    end
    return cnt
  end,

  check = function(rt, p, cnt)
    for c = 1, p.chains do
      local tasks = p.n // p.chains + ((c - 1) < p.n % p.chains and 1 or 0)
      local got = cnt[c]:get(0)
      if got ~= tasks * p.iters then
        error(string.format("counter %d = %d, expected %d", c, got, tasks * p.iters))
      end
    end
  end,
}
