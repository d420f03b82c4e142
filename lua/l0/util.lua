--[[
** l0/util.lua — helpers the L0 workspace templates share.
--]]
local M = {}

-- A string buffer: add(fmt, ...) appends one formatted line; lines() counts
-- the lines added so far (for #line directives).
function M.buffer()
  local parts = {}
  local b = {}
  local n = 0
  function b.add(fmt, ...)
    local s = select("#", ...) > 0 and string.format(fmt, ...) or fmt
    parts[#parts + 1] = s
    parts[#parts + 1] = "\n"
    n = n + 1 + select(2, s:gsub("\n", ""))
  end
  function b.lines() return n end
  function b.text() return table.concat(parts) end
  return b
end

-- A whole file's text, or nil when it cannot be read.
function M.read(path)
  local f = io.open(path, "r")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

-- C string literal body.
function M.cstr(s)
  return (s:gsub("[\\\"]", "\\%0"):gsub("\n", "\\n"))
end

-- Shell single-quoted word.
function M.shq(s)
  return "'" .. s:gsub("'", "'\\''") .. "'"
end

-- CMake double-quoted argument.
function M.cmq(s)
  return '"' .. s:gsub('[\\"$]', "\\%0") .. '"'
end

-- File-scope names a kernel source defines with `static` (functions and
-- variables). Two kernels in one translation unit would clash on them, so
-- the kernel template renames each per func_id.
function M.static_names(path)
  local names, seen = {}, {}
  local f = io.open(path, "r")
  if not f then return names end
  for line in f:lines() do
    if line:match("^static[%s]") then
      local fn = line:match("^static[%w_%s%*]-([%a_][%w_]*)%s*%(")
      local var = fn and nil or line:match("^static[^=;(]*[%s%*]([%a_][%w_]*)%s*[=;%[]")
      local name = fn or var
      if name and not seen[name] and name ~= "inline" then
        seen[name] = true
        names[#names + 1] = name
      end
    end
  end
  f:close()
  return names
end

return M
