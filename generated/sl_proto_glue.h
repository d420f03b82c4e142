/*
** generated from schema/records.lua, schema/phases.lua by codegen/main.lua; do not edit.
** Glue between record structs and protobuf-c messages.
** Regenerate: cmake --build <build dir> --target regen
*/

#ifndef SL_PROTO_GLUE_H
#define SL_PROTO_GLUE_H

#include "sl_records.h"
#include "swimlane_capture.pb-c.h"

/* to_pb initialises *m and fills every field (no allocation: m points nowhere).
** from_pb fills every byte of *r (padding zeroed); -1 if a value does not fit. */

void sl_aicpu_task_record_to_pb(const sl_aicpu_task_record *r, Swimlane__AicpuTaskRecord *m);
int sl_aicpu_task_record_from_pb(const Swimlane__AicpuTaskRecord *m, sl_aicpu_task_record *r);

void sl_aicore_task_record_to_pb(const sl_aicore_task_record *r, Swimlane__AicoreTaskRecord *m);
int sl_aicore_task_record_from_pb(const Swimlane__AicoreTaskRecord *m, sl_aicore_task_record *r);

void sl_sched_phase_record_to_pb(const sl_sched_phase_record *r, Swimlane__SchedPhaseRecord *m);
int sl_sched_phase_record_from_pb(const Swimlane__SchedPhaseRecord *m, sl_sched_phase_record *r);

void sl_orch_phase_record_to_pb(const sl_orch_phase_record *r, Swimlane__OrchPhaseRecord *m);
int sl_orch_phase_record_from_pb(const Swimlane__OrchPhaseRecord *m, sl_orch_phase_record *r);

void sl_aicpu_lifecycle_record_to_pb(const sl_aicpu_lifecycle_record *r, Swimlane__AicpuLifecycleRecord *m);
int sl_aicpu_lifecycle_record_from_pb(const Swimlane__AicpuLifecycleRecord *m, sl_aicpu_lifecycle_record *r);

#endif /* SL_PROTO_GLUE_H */
