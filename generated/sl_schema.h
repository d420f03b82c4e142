/*
** generated from schema/records.lua, schema/phases.lua, schema/lanes.lua, schema/levels.lua, schema/platforms.lua, schema/dtypes.lua by codegen/main.lua; do not edit.
** Umbrella header: everything generated from the schema.
** Regenerate: cmake --build <build dir> --target regen
*/

#ifndef SL_SCHEMA_H
#define SL_SCHEMA_H

#include "sl_fingerprint.h"
#include "sl_records.h"
#include "sl_levels.h"
#include "sl_lanes.h"
#include "sl_phases.h"
#include "sl_platforms.h"
#include "sl_dtypes.h"
#include "sl_writers.h"
#include "sl_export.h"
#include "sl_proto_glue.h"
#include "sl_read_fields.h"

#endif /* SL_SCHEMA_H */
