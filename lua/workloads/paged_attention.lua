--[[
** paged_attention.lua — per batch a QK -> SF -> PV -> UP chain:
**   QK (AIC)  S = Q K^T * scale over the batch's valid keys, walked block by block
**   SF (AIV)  P = softmax(S) over the valid keys
**   PV (AIC)  O = P V
**   UP (AIV)  Out += O * w   (all batches accumulate into one Out: a chain of inouts)
** The kernels' loop count (key blocks) is the scalar n_blocks (slot 4 of QK) in case
** scalar_loop, and comes from the int32 context_lens control tensor in case ctx_lens
** (n_blocks = 0). The intermediates come from alloc_tensors.
--]]
local ref = require("workloads.lib.ref")

return {
  class = "PagedAttention",
  orchestrator_name = "PagedAttn",
  incores = {
    { func_id = 0, name = "QK", source = "runtime/kernels/pa_qk.c", core_type = "aic",
      signature = { "in", "in", "in", "out", "scalar", "scalar", "scalar", "scalar" }, l0_expect = "pa_qk" },
    { func_id = 1, name = "SF", source = "runtime/kernels/pa_sf.c", core_type = "aiv",
      signature = { "in", "in", "out", "scalar", "scalar", "scalar" } },
    { func_id = 2, name = "PV", source = "runtime/kernels/pa_pv.c", core_type = "aic",
      signature = { "in", "in", "in", "out", "scalar", "scalar", "scalar" }, l0_expect = "pa_pv" },
    { func_id = 3, name = "UP", source = "runtime/kernels/pa_up.c", core_type = "aiv",
      signature = { "in", "inout", "scalar" } },
  },
  cases = {
    { name = "scalar_loop", platforms = { "a2a3sim", "a5sim" },
      params = { batch = 3, q = 4, d = 16, block_size = 8, n_blocks = 4 } },
    { name = "ctx_lens", platforms = { "a2a3sim", "a5sim" },
      params = { batch = 3, q = 4, d = 16, block_size = 8, max_blocks = 4, context_lens = { 20, 32, 9 } } },
  },

  orchestrate = function(rt, p)
    local max_len = (p.n_blocks or p.max_blocks) * p.block_size
    local nb = p.n_blocks or 0                      -- 0: kernels read context_lens
    local lens = p.context_lens or {}
    local s = { q = {}, k = {}, v = {}, scale = 1.0 / math.sqrt(p.d), w = 1.0 / p.batch }
    for b = 1, p.batch do lens[b] = lens[b] or max_len end
    s.lens = lens
    s.ctx = rt:tensor{ shape = { p.batch }, dtype = "int32", init = lens }
    s.out = rt:tensor{ shape = { p.q, p.d }, init = "zeros" }
    for b = 1, p.batch do
      s.q[b] = rt:tensor{ shape = { p.q, p.d }, init = "random" }
      s.k[b] = rt:tensor{ shape = { max_len, p.d }, init = "random" }
      s.v[b] = rt:tensor{ shape = { max_len, p.d }, init = "random" }
      local S, P, O = rt:alloc_tensors{ { shape = { p.q, max_len } }, { shape = { p.q, max_len } },
                                        { shape = { p.q, p.d } } }
      local bi = b - 1
      rt:submit{ func = 0, args = { s.q[b], s.k[b], s.ctx, S },
                 scalars = { nb, bi, p.block_size, { s.scale, "float32" } } }
      rt:submit{ func = 1, args = { S, s.ctx, P }, scalars = { nb, bi, p.block_size } }
      rt:submit{ func = 2, args = { P, s.v[b], s.ctx, O }, scalars = { nb, bi, p.block_size } }
      rt:submit{ func = 3, args = { O, s.out }, scalars = { { s.w, "float32" } } }
    end
    return s
  end,

  check = function(rt, p, s)
    local want = {}
    for i = 1, p.q * p.d do want[i] = 0.0 end
    for b = 1, p.batch do
      local q, k, v = ref.read(s.q[b]), ref.read(s.k[b]), ref.read(s.v[b])
      local len = (p.n_blocks and p.n_blocks * p.block_size) or s.lens[b]
      for r = 0, p.q - 1 do
        local sc, mx = {}, -math.huge
        for j = 0, len - 1 do
          local acc = 0.0
          for x = 0, p.d - 1 do acc = acc + q[r * p.d + x + 1] * k[j * p.d + x + 1] end
          sc[j] = acc * s.scale
          if sc[j] > mx then mx = sc[j] end
        end
        local sum = 0.0
        for j = 0, len - 1 do sc[j] = math.exp(sc[j] - mx); sum = sum + sc[j] end
        for x = 0, p.d - 1 do
          local o = 0.0
          for j = 0, len - 1 do o = o + sc[j] / sum * v[j * p.d + x + 1] end
          want[r * p.d + x + 1] = want[r * p.d + x + 1] + o * s.w
        end
      end
    end
    ref.expect("Out", s.out, want, 1e-3)
  end,
}
