--[[
** load.lua — read schema/*.lua as data and fingerprint it.
**
** Each file is run in an empty environment: it can build tables but cannot reach
** any library, so a schema file is data whatever it contains.
--]]
local util = require("util")

local M = {}

M.FILES = { "records", "phases", "lanes", "levels", "platforms", "dtypes" }
M.FILES_LUA = {}
for i, f in ipairs(M.FILES) do M.FILES_LUA[i] = f .. ".lua" end

-- Returns schema = { records = <records.lua table>, ..., paths = { records = path } }
-- or nil, "<path>: <message>".
function M.load(dir)
  local schema = { paths = {}, dir = dir }
  for _, name in ipairs(M.FILES) do
    local path = dir .. "/" .. name .. ".lua"
    schema.paths[name] = path
    local chunk, err = loadfile(path, "t", {})
    if not chunk then
      if err:find("No such file", 1, true) or err:find("cannot open", 1, true) then
        return nil, path .. ": cannot read schema file"
      end
      return nil, err -- Lua already prefixes syntax errors with the chunk name
    end
    local ok, value = pcall(chunk)
    if not ok then return nil, path .. ": " .. tostring(value) end
    if type(value) ~= "table" then
      return nil, path .. ": must return a table (got " .. type(value) .. ")"
    end
    schema[name] = value
  end
  return schema
end

-- Canonical text of a data value: sorted keys, integers as integers.
local function canon(v, out)
  local t = type(v)
  if t == "table" then
    out[#out + 1] = "{"
    for _, k in ipairs(util.sorted_keys(v)) do
      canon(k, out)
      out[#out + 1] = "="
      canon(v[k], out)
      out[#out + 1] = ","
    end
    out[#out + 1] = "}"
  elseif t == "string" then
    out[#out + 1] = string.format("%q", v)
  elseif t == "number" then
    out[#out + 1] = math.type(v) == "integer" and string.format("%d", v) or string.format("%.17g", v)
  else
    out[#out + 1] = tostring(v)
  end
end

-- FNV-1a 64 over the canonical text of every schema file (comments and layout of
-- the files do not matter, their data does). Lua integers wrap, as FNV needs.
function M.fingerprint(schema)
  local out = {}
  for _, name in ipairs(M.FILES) do
    out[#out + 1] = name
    canon(schema[name], out)
  end
  return util.fnv1a64(table.concat(out))
end

return M
