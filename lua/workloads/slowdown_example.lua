--[[
** slowdown_example.lua — two spin kernels in alternating chains (PRODUCE on the AIV,
** CONSUME on the AIC), for `swimlane diff`: case `base`, and case `slow_consume` where
** only CONSUME spins longer, so a diff of the two must name CONSUME first; case
** `more_links` adds a link to each chain (a different graph).
--]]
return {
  class = "SlowdownExample",
  orchestrator_name = "SlowdownOrch",
  incores = {
    { func_id = 0, name = "PRODUCE", source = "runtime/kernels/spin.c", core_type = "aiv",
      signature = { "inout", "scalar" } },
    { func_id = 1, name = "CONSUME", source = "runtime/kernels/spin.c", core_type = "aic",
      signature = { "inout", "scalar" } },
  },
  cases = {
    { name = "base", platforms = { "a2a3sim", "a5sim" },
      params = { chains = 2, links = 4, produce = 20000, consume = 20000 } },
    { name = "slow_consume", platforms = { "a2a3sim", "a5sim" },
      params = { chains = 2, links = 4, produce = 20000, consume = 400000 } },
    -- one more link per chain: a different graph (diff matches by DAG position)
    { name = "more_links", platforms = { "a2a3sim", "a5sim" },
      params = { chains = 2, links = 5, produce = 20000, consume = 20000 } },
  },

  orchestrate = function(rt, p)
    local cnt = {}
    for c = 1, p.chains do cnt[c] = rt:tensor{ shape = { 1 }, dtype = "int64", init = "zeros" } end
    for _ = 1, p.links do
      for c = 1, p.chains do
        rt:submit{ func = 0, args = { cnt[c] }, scalars = { p.produce } }
        rt:submit{ func = 1, args = { cnt[c] }, scalars = { p.consume } }
      end
    end
    return cnt
  end,

  check = function(rt, p, cnt)
    for c = 1, p.chains do
      local want = p.links * (p.produce + p.consume)
      if cnt[c]:get(0) ~= want then
        error(string.format("counter %d = %d, expected %d", c, cnt[c]:get(0), want))
      end
    end
  end,
}
