--[[
** emit_fingerprint.lua — generated/sl_fingerprint.h: a hash of the schema's data,
** stamped into every capture so readers can tell which schema wrote it.
--]]
local util = require("util")
local ALL = require("load").FILES_LUA

return function(model)
  local b = util.buffer()
  b:add(util.banner("c", ALL, "Schema fingerprint (FNV-1a 64 of the schema's canonical data)."))
  b:add("#ifndef SL_FINGERPRINT_H")
  b:add("#define SL_FINGERPRINT_H")
  b:add("")
  b:addf('#define SL_SCHEMA_FINGERPRINT "%s"', model.fingerprint)
  b:add("/* what the generator emits; hand-written code checks it (sl_generated_gate.h) */")
  b:addf("#define SL_GENERATED_FORMAT %d", util.FORMAT)
  b:add("")
  b:add("#endif /* SL_FINGERPRINT_H */")
  return { { path = "sl_fingerprint.h", text = b:text() } }
end
