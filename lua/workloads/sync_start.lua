--[[
** sync_start.lua — sync-start tasks: every block of the task must start together.
** A task whose blocks fit on one scheduler thread's own AIV cores is staged there
** as they fall idle (early_dispatch) and published at once; a wider one needs a
** global drain: the other threads stop dispatching and lend their idle cores, the
** owner prepares and publishes every block (drain > drain_prepare, drain_publish).
** Ordinary AIV work runs around them so the staging has to wait for busy cores.
**   mixed (default)  both kinds; early: only thread-local ones; drain: only wide ones
--]]
local ref = require("workloads.lib.ref")

local function run(rt, p)
  local per_thread = rt.num_aiv // 2 -- AIV cores each of the 2 scheduler threads owns
  local out = {}
  local a = rt:tensor{ shape = { 8, 64 }, init = "random" }
  local b = rt:tensor{ shape = { 8, 64 }, init = "random" }
  for i = 1, p.rounds do
    local busy = rt:tensor{ shape = { 8, 64 }, init = "zeros" }
    rt:submit{ func = 0, args = { a, b, busy } } -- keeps a core busy while staging
    local blocks = (p.kind == "drain" or (p.kind == "mixed" and i % 2 == 0)) and rt.num_aiv or per_thread
    local c = rt:tensor{ shape = { 8, 64 }, init = "zeros" }
    rt:submit{ func = 0, args = { a, b, c }, block_num = blocks, sync_start = true }
    local d = rt:tensor{ shape = { 8, 64 }, init = "zeros" }
    rt:submit{ func = 1, args = { c, a, d } } -- reads the sync-start result
    out[#out + 1] = { c = c, d = d, busy = busy }
  end
  return { a = a, b = b, out = out }
end

local function case(name, kind)
  return { name = name, platforms = { "a2a3sim", "a5sim" }, params = { kind = kind, rounds = 6 } }
end

return {
  class = "SyncStart",
  incores = {
    { func_id = 0, name = "kernel_add", source = "runtime/kernels/add.c", core_type = "aiv",
      signature = { "in", "in", "out" } },
    { func_id = 1, name = "kernel_mul", source = "runtime/kernels/mul.c", core_type = "aiv",
      signature = { "in", "in", "out" } },
  },
  cases = { case("mixed", "mixed"), case("early", "early"), case("drain", "drain") },
  orchestrate = run,
  check = function(rt, p, s)
    local a, b = ref.read(s.a), ref.read(s.b)
    local c = ref.add(a, b)
    local d = ref.mul(c, a)
    for i, o in ipairs(s.out) do
      ref.expect("busy " .. i, o.busy, c)
      ref.expect("sync-start c " .. i, o.c, c)
      ref.expect("d " .. i, o.d, d)
    end
  end,
}
