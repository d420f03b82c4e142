--[[
** emit_cmake.lua — generated/CMakeLists.txt: the sl_generated library (the generated
** .c files + protoc-c output of swimlane_capture.proto, compiled at build time).
--]]
local util = require("util")
local ALL = require("load").FILES_LUA

local TEMPLATE = [[
${banner}
set(SL_CAPTURE_PROTO ${CMAKE_CURRENT_SOURCE_DIR}/swimlane_capture.proto)
set(SL_CAPTURE_PB_C ${CMAKE_CURRENT_BINARY_DIR}/swimlane_capture.pb-c.c)
set(SL_CAPTURE_PB_H ${CMAKE_CURRENT_BINARY_DIR}/swimlane_capture.pb-c.h)
add_custom_command(
  OUTPUT ${SL_CAPTURE_PB_C} ${SL_CAPTURE_PB_H}
  COMMAND ${PROTOC_C} --c_out=${CMAKE_CURRENT_BINARY_DIR} -I${CMAKE_CURRENT_SOURCE_DIR} ${SL_CAPTURE_PROTO}
  DEPENDS ${SL_CAPTURE_PROTO}
  COMMENT "protoc-c swimlane_capture.proto"
  VERBATIM)

add_library(sl_generated STATIC
${sources}
  ${SL_CAPTURE_PB_C})
target_include_directories(sl_generated PUBLIC ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR})
target_link_libraries(sl_generated PUBLIC PkgConfig::PROTOBUFC)
if(TARGET regen_if_changed)
  add_dependencies(sl_generated regen_if_changed)
endif()
# .proto and its protoc-c output, for consumers that need the path (e.g. protoc --decode)
set(SL_CAPTURE_PROTO ${SL_CAPTURE_PROTO} PARENT_SCOPE)
]]

-- `files`: what the emitters before this one produced; every .c of them is compiled.
return function(model, files)
  local sources = {}
  for _, f in ipairs(files) do
    if f.path:match("%.c$") then sources[#sources + 1] = f.path end
  end
  table.sort(sources)
  for i, s in ipairs(sources) do sources[i] = "  " .. s end
  -- ${...} of CMake must survive util.fill: fill only our own keys
  local text = TEMPLATE:gsub("%${banner}", function() return util.banner("cmake", ALL, "Builds library sl_generated.") end)
  text = text:gsub("%${sources}", function() return table.concat(sources, "\n") end)
  return { { path = "CMakeLists.txt", text = text } }
end
