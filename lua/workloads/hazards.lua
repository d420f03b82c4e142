--[[
** hazards.lua — one case per memory hazard the tensormap must order, each with a golden.
** A slow SPIN task (explicit dep) holds the earlier access back, so the later access
** would overtake it if the hazard were not ordered:
**   raw    B reads X after A (held back) wrote it              Z = 2 * 50
**   war    B overwrites X while A (held back) still reads it   Z = 1 + 1 (old X)
**   waw    A (held back) and B both write X; B's must stay     X = 1 + 1
**   views  strided column slices and partial row overlaps of one 4x8 matrix:
**          A (held back) writes columns 2..5, R reads columns 0..3 (RAW through a
**          partial overlap), W then overwrites columns 3..7 (WAR with R, WAW with A)
--]]
local SPIN = 30000000 -- iterations: long enough that an unordered access would win

local function hold(rt)
  local cnt = rt:tensor{ shape = { 1 }, dtype = "int64", init = "zeros" }
  return rt:submit{ func = 1, args = { cnt }, scalars = { SPIN } }
end

local cases = {
  raw = function(rt)
    local X, P = rt:tensor{ shape = { 4, 8 }, init = "zeros" }, rt:tensor{ shape = { 4, 8 }, init = 50 }
    local Z, O = rt:tensor{ shape = { 4, 8 }, init = "zeros" }, rt:tensor{ shape = { 4, 8 }, init = "zeros" }
    rt:submit{ func = 0, args = { P, P, X }, deps = { hold(rt) } }
    rt:submit{ func = 0, args = { X, O, Z } }
    return { out = Z, want = 100 }
  end,
  war = function(rt)
    local X, Y = rt:tensor{ shape = { 4, 8 }, init = 1 }, rt:tensor{ shape = { 4, 8 }, init = 1 }
    local Z, P = rt:tensor{ shape = { 4, 8 }, init = "zeros" }, rt:tensor{ shape = { 4, 8 }, init = 50 }
    rt:submit{ func = 0, args = { X, Y, Z }, deps = { hold(rt) } }
    rt:submit{ func = 0, args = { P, P, X } }
    return { out = Z, want = 2 }
  end,
  waw = function(rt)
    local X, Y = rt:tensor{ shape = { 4, 8 }, init = "zeros" }, rt:tensor{ shape = { 4, 8 }, init = 1 }
    local P = rt:tensor{ shape = { 4, 8 }, init = 50 }
    rt:submit{ func = 0, args = { P, P, X }, deps = { hold(rt) } }
    rt:submit{ func = 0, args = { Y, Y, X } }
    return { out = X, want = 2 }
  end,
  views = function(rt)
    local M = rt:tensor{ shape = { 4, 8 }, init = 1 }
    local P, Q = rt:tensor{ shape = { 4, 4 }, init = 50 }, rt:tensor{ shape = { 4, 4 }, init = "zeros" }
    local Z = rt:tensor{ shape = { 4, 4 }, init = "zeros" }
    local S, T = rt:tensor{ shape = { 4, 5 }, init = 3 }, rt:tensor{ shape = { 4, 5 }, init = 4 }
    rt:submit{ func = 0, args = { P, P, M:view{ offset = { 0, 2 }, shape = { 4, 4 } } }, deps = { hold(rt) } }
    rt:submit{ func = 0, args = { M:view{ offset = { 0, 0 }, shape = { 4, 4 } }, Q, Z } }
    rt:submit{ func = 0, args = { S, T, M:view{ offset = { 0, 3 }, shape = { 4, 5 } } } }
    -- Z row: columns 0,1 untouched (1), 2,3 from A (100); M row: 1 1 100 | 7 7 7 7 7
    return { out = Z, want_row = { 1, 1, 100, 100 }, M = M, want_m = { 1, 1, 100, 7, 7, 7, 7, 7 } }
  end,
}

local function expect_rows(t, cols, row, what)
  for i = 0, t:numel() - 1 do
    local want = row[i % cols + 1]
    if t:get(i) ~= want then
      error(string.format("%s: element %d = %s, expected %s", what, i, tostring(t:get(i)), tostring(want)))
    end
  end
end

local function case(name)
  return { name = name, platforms = { "a2a3sim", "a5sim" }, params = { hazard = name } }
end

return {
  class = "Hazards",
  incores = {
    { func_id = 0, name = "ADD", source = "runtime/kernels/add.c", core_type = "aiv", signature = { "in", "in", "out" } },
    { func_id = 1, name = "SPIN", source = "runtime/kernels/spin.c", core_type = "aiv", signature = { "inout", "scalar" } },
  },
  cases = { case("war"), case("raw"), case("waw"), case("views") },
  orchestrate = function(rt, p) return cases[p.hazard](rt) end,
  check = function(rt, p, s)
    if s.want_row then
      expect_rows(s.out, 4, s.want_row, p.hazard .. " Z")
      expect_rows(s.M, 8, s.want_m, p.hazard .. " M")
    else
      expect_rows(s.out, 8, { s.want, s.want, s.want, s.want, s.want, s.want, s.want, s.want },
                  p.hazard .. " (" .. p.hazard:upper() .. " violated?)")
    end
  end,
}
