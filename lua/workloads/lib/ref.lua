--[[
** ref.lua — plain Lua reference computations the workloads check kernel results
** against (row-major flat arrays, 1-based).
--]]
local M = {}

-- All elements of a tensor (or view) as a flat Lua array.
function M.read(t)
  local out = {}
  for i = 0, t:numel() - 1 do out[i + 1] = t:get(i) end
  return out
end

function M.matmul(a, b, m, k, n)
  local c = {}
  for i = 0, m - 1 do
    for j = 0, n - 1 do
      local s = 0.0
      for p = 0, k - 1 do s = s + a[i * k + p + 1] * b[p * n + j + 1] end
      c[i * n + j + 1] = s
    end
  end
  return c
end

function M.map2(a, b, f)
  local c = {}
  for i = 1, #a do c[i] = f(a[i], b[i]) end
  return c
end

function M.add(a, b) return M.map2(a, b, function(x, y) return x + y end) end
function M.mul(a, b) return M.map2(a, b, function(x, y) return x * y end) end

-- Compare tensor `t` with the expected flat array; error names the first mismatch.
function M.expect(what, t, want, tol)
  tol = tol or 1e-4
  local n = t:numel()
  if n ~= #want then error(string.format("%s: %d elements, expected %d", what, n, #want), 2) end
  for i = 0, n - 1 do
    local got, w = t:get(i), want[i + 1]
    local scale = math.max(1.0, math.abs(w))
    if not (math.abs(got - w) <= tol * scale) then
      error(string.format("%s[%d] = %.9g, expected %.9g", what, i, got, w), 2)
    end
  end
end

return M
