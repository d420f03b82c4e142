--[[
** load.lua — read schema/*.lua as data.
**
** Each file is run in an empty environment: it can build tables but cannot reach
** any library, so a schema file is data whatever it contains.
--]]
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

return M
