/*
** generated from schema/records.lua, schema/phases.lua, schema/lanes.lua, schema/levels.lua, schema/platforms.lua, schema/dtypes.lua by codegen/main.lua; do not edit.
** The schema as a Lua chunk returning one data table.
** Regenerate: cmake --build <build dir> --target regen
*/

#ifndef SL_SCHEMA_LUA_H
#define SL_SCHEMA_LUA_H

extern const char sl_schema_lua[];
extern const unsigned long sl_schema_lua_len;

#endif /* SL_SCHEMA_LUA_H */
