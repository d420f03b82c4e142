--[[
** util.lua — small helpers shared by the generator's modules: banners, name
** mangling, text templates, sorted iteration.
--]]
local M = {}

M.GENERATOR = "codegen/main.lua"
-- Version of what the generator emits (names, tables, their shapes). Bump it together with
-- SL_GENERATED_FORMAT_WANTED in host/reader/include/sl_generated_gate.h when that changes.
M.FORMAT = 3

-- Banner lines every generated file starts with; `style` is the comment style.
function M.banner(style, sources, what)
  local src = {}
  for i, s in ipairs(sources) do src[i] = "schema/" .. s end
  local lines = {
    "generated from " .. table.concat(src, ", ") .. " by " .. M.GENERATOR .. "; do not edit.",
    what,
    "Regenerate: cmake --build <build dir> --target regen",
  }
  if style == "c" then
    local out = { "/*" }
    for _, l in ipairs(lines) do out[#out + 1] = "** " .. l end
    out[#out + 1] = "*/"
    return table.concat(out, "\n") .. "\n"
  end
  local prefix = (style == "proto") and "// " or "# "
  local out = {}
  for _, l in ipairs(lines) do out[#out + 1] = prefix .. l end
  return table.concat(out, "\n") .. "\n"
end

function M.upper(s) return (s:gsub("[^%w]", "_"):upper()) end
-- The C enum constant of an orchestrator phase: orch_submit -> SL_ORCH_PHASE_SUBMIT.
function M.orch_enum(name) return "SL_ORCH_PHASE_" .. M.upper(name:gsub("^orch_", "")) end

-- snake_case -> CamelCase
function M.camel(s)
  return (s:gsub("^%l", string.upper):gsub("_(%w)", function(c) return c:upper() end))
end

-- protobuf-c's C names for a message of package swimlane
function M.pb_type(msg) return "Swimlane__" .. msg end
function M.pb_init(msg)
  local snake = msg:gsub("(%l)(%u)", "%1_%2"):gsub("(%u)(%u%l)", "%1_%2"):lower()
  return "swimlane__" .. snake .. "__init"
end

-- C string literal
function M.cstr(s)
  if s == nil then return "NULL" end
  -- bytes above 0x7f (UTF-8 such as the flows' arrow) as 3-digit octal escapes: unlike \x,
  -- an octal escape cannot swallow the hex-looking characters that follow it
  local e = s:gsub('[\\"]', "\\%0"):gsub("\n", "\\n")
  e = e:gsub("[\128-\255]", function(c) return string.format("\\%03o", c:byte()) end)
  return '"' .. e .. '"'
end

-- FNV-1a 64 of a string as 16 hex digits (Lua integers wrap, as FNV needs). The C host
-- (codegen/sl_gen_host.c) has the same function: byte by byte in Lua it was half of a
-- `swimlane schema` run; the Lua one serves states without the host (tests).
function M.fnv1a64(text)
  if slgen and slgen.fnv1a64 then return slgen.fnv1a64(text) end
  local h = -3750763034362895579 -- 0xcbf29ce484222325
  for i = 1, #text do
    h = h ~ text:byte(i)
    h = h * 1099511628211
  end
  return string.format("%016x", h)
end

-- Keys of a table in sorted order (deterministic iteration over maps).
function M.sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    if type(a) == type(b) then return a < b end
    return type(a) < type(b)
  end)
  return keys
end

-- "${name}" substitution in a long-string template. Missing keys are an error.
function M.fill(template, vars)
  return (template:gsub("%${([%w_]+)}", function(k)
    local v = vars[k]
    if v == nil then error("template variable '" .. k .. "' is not set", 2) end
    return tostring(v)
  end))
end

-- A growing list of lines.
function M.buffer()
  local b = { lines = {} }
  function b:add(...)
    local parts = { ... }
    self.lines[#self.lines + 1] = table.concat(parts)
    return self
  end
  function b:addf(fmt, ...)
    self.lines[#self.lines + 1] = string.format(fmt, ...)
    return self
  end
  function b:text() return table.concat(self.lines, "\n") .. "\n" end
  return b
end

-- head .. items joined by ", " .. tail, wrapped at `width` columns; continuation
-- lines are indented to line up after `head`'s opening parenthesis.
function M.wrap(head, items, tail, width)
  width = width or 100
  local pad = string.rep(" ", #head)
  local lines, cur = {}, head
  for i, item in ipairs(items) do
    local piece = item .. (i < #items and "," or tail)
    local sep = (cur == head) and "" or " "
    if cur ~= head and #cur + #sep + #piece > width then
      lines[#lines + 1] = cur
      cur = pad .. piece
    else
      cur = cur .. sep .. piece
    end
  end
  if #items == 0 then cur = cur .. tail end
  lines[#lines + 1] = cur
  return table.concat(lines, "\n")
end

function M.align_up(n, a) return (n + a - 1) // a * a end

function M.contains(list, value)
  for _, v in ipairs(list or {}) do
    if v == value then return true end
  end
  return false
end

return M
