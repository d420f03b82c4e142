--[[
** emit_umbrella.lua — generated/sl_schema.h: includes every generated header.
--]]
local util = require("util")
local ALL = require("load").FILES_LUA

local HEADERS = { "sl_fingerprint.h", "sl_records.h", "sl_levels.h", "sl_lanes.h", "sl_phases.h",
                  "sl_platforms.h", "sl_dtypes.h", "sl_writers.h", "sl_export.h", "sl_proto_glue.h",
                  "sl_read_fields.h" }

return function(model)
  local b = util.buffer()
  b:add(util.banner("c", ALL, "Umbrella header: everything generated from the schema."))
  b:add("#ifndef SL_SCHEMA_H")
  b:add("#define SL_SCHEMA_H")
  b:add("")
  for _, h in ipairs(HEADERS) do b:addf('#include "%s"', h) end
  b:add("")
  b:add("#endif /* SL_SCHEMA_H */")
  return { { path = "sl_schema.h", text = b:text() } }
end
