/*
** generated from schema/records.lua, schema/phases.lua, schema/lanes.lua, schema/levels.lua, schema/platforms.lua, schema/dtypes.lua by codegen/main.lua; do not edit.
** Schema fingerprint (FNV-1a 64 of the schema's canonical data).
** Regenerate: cmake --build <build dir> --target regen
*/

#ifndef SL_FINGERPRINT_H
#define SL_FINGERPRINT_H

#define SL_SCHEMA_FINGERPRINT "3eaa1eb8264fd661"

#endif /* SL_FINGERPRINT_H */
