/*
** generated from schema/records.lua, schema/phases.lua, schema/lanes.lua, schema/levels.lua, schema/platforms.lua, schema/dtypes.lua by codegen/main.lua; do not edit.
** Capture layout and its fingerprint (FNV-1a 64 of SL_SCHEMA_LAYOUT).
** Regenerate: cmake --build <build dir> --target regen
*/

#ifndef SL_FINGERPRINT_H
#define SL_FINGERPRINT_H

#define SL_SCHEMA_FINGERPRINT "28435dac1035aadb"
/* what the generator emits; hand-written code checks it (sl_generated_gate.h) */
#define SL_GENERATED_FORMAT 2
/* every capture field: "<message>.<path>=<type>@<pb>", ";"-separated */
#define SL_SCHEMA_LAYOUT \
  "AicpuTaskRecord.dispatch_time=u64@1;" \
  "AicpuTaskRecord.finish_time=u64@2;" \
  "AicpuTaskRecord.reg_task_id=u32@3;" \
  "AicpuTaskRecord.member=u32@4;" \
  "AicoreTaskRecord.start_time=u64@1;" \
  "AicoreTaskRecord.end_time=u64@2;" \
  "AicoreTaskRecord.task_token_raw=u64@3;" \
  "AicoreTaskRecord.reg_task_id=u32@4;" \
  "AicoreTaskRecord.receive_to_start_cycles=u32@5;" \
  "SchedPhaseRecord.start_time=u64@1;" \
  "SchedPhaseRecord.end_time=u64@2;" \
  "SchedPhaseRecord.loop_iter=u32@3;" \
  "SchedPhaseRecord.kind=u32@4;" \
  "SchedPhaseRecord.tasks_processed=u32@5;" \
  "SchedPhaseRecord.phase_data.dispatch.pop_hit=u32@6;" \
  "SchedPhaseRecord.phase_data.dispatch.pop_miss=u32@7;" \
  "SchedPhaseRecord.phase_data.task.local_id=u32@8;" \
  "SchedPhaseRecord.phase_data.task.ring_id=u32@9;" \
  "SchedPhaseRecord.shared_depth_at_start=i16x3@10,11,12;" \
  "SchedPhaseRecord.shared_depth_at_end=i16x3@13,14,15;" \
  "OrchPhaseRecord.start_time=u64@1;" \
  "OrchPhaseRecord.end_time=u64@2;" \
  "OrchPhaseRecord.task_id=u64@3;" \
  "OrchPhaseRecord.submit_idx=u32@4;" \
  "AicpuLifecycleRecord.aicpu_thread_id=u32@1;" \
  "AicpuLifecycleRecord.handshake_start_cycles=u64@2;" \
  "AicpuLifecycleRecord.handshake_complete_cycles=u64@3;" \
  "AicpuLifecycleRecord.config_start_cycles=u64@4;" \
  "AicpuLifecycleRecord.topology_complete_cycles=u64@5;" \
  "AicpuLifecycleRecord.context_publish_start_cycles=u64@6;" \
  "AicpuLifecycleRecord.context_publish_complete_cycles=u64@7;" \
  "AicpuLifecycleRecord.bootstrap_wait_start_cycles=u64@8;" \
  "AicpuLifecycleRecord.bootstrap_complete_cycles=u64@9;" \
  "AicpuLifecycleRecord.register_release_start_cycles=u64@10;" \
  "AicpuLifecycleRecord.register_release_end_cycles=u64@11;" \
  "AicpuLifecycleRecord.exit_signal_start_cycles=u64@12;" \
  "AicpuLifecycleRecord.exit_signal_end_cycles=u64@13;" \
  "AicpuLifecycleRecord.exit_wait_start_cycles=u64@14;" \
  "AicpuLifecycleRecord.exit_wait_end_cycles=u64@15;" \
  "Metadata.clock_freq_hz=uint64@1;" \
  "Metadata.num_cores=uint32@2;" \
  "Metadata.core_types=string[]@3;" \
  "Metadata.core_to_thread=sint32[]@4;" \
  "Metadata.platform=string@5;" \
  "Metadata.runtime=string@6;" \
  "Metadata.task_producer=string@7;" \
  "Metadata.host_clock_domain_id=string@8;" \
  "Metadata.clock_anchors=ClockAnchorSample[]@9;" \
  "Metadata.device_wall=DeviceWall@10;" \
  "ClockAnchorSample.position=string@1;" \
  "ClockAnchorSample.sample_idx=uint32@2;" \
  "ClockAnchorSample.host_before_ns=int64@3;" \
  "ClockAnchorSample.device_cycles=uint64@4;" \
  "ClockAnchorSample.host_after_ns=int64@5;" \
  "DeviceWall.open_cycles=uint64@1;" \
  "DeviceWall.sched_start_cycles=uint64@2;" \
  "DeviceWall.sched_end_cycles=uint64@3;" \
  "DeviceWall.close_cycles=uint64@4;" \
  "StreamCapture.committed=uint64@1;" \
  "StreamCapture.dropped=uint64@2;" \
  "StreamCapture.truncated=bool@3;" \
  "AicoreTaskStream.core_id=uint32@1;" \
  "AicoreTaskStream.capture=StreamCapture@2;" \
  "AicoreTaskStream.records=AicoreTaskRecord[]@3;" \
  "AicpuTaskStream.core_id=uint32@1;" \
  "AicpuTaskStream.capture=StreamCapture@2;" \
  "AicpuTaskStream.records=AicpuTaskRecord[]@3;" \
  "SchedPhaseStream.scheduler_id=uint32@1;" \
  "SchedPhaseStream.worker_id=uint32@2;" \
  "SchedPhaseStream.platform=string@3;" \
  "SchedPhaseStream.runtime=string@4;" \
  "SchedPhaseStream.producer=string@5;" \
  "SchedPhaseStream.core_type=string@6;" \
  "SchedPhaseStream.physical_core_id=sint64@7;" \
  "SchedPhaseStream.capture=StreamCapture@8;" \
  "SchedPhaseStream.records=SchedPhaseRecord[]@9;" \
  "OrchPhaseStream.thread_id=uint32@1;" \
  "OrchPhaseStream.capture=StreamCapture@2;" \
  "OrchPhaseStream.records=OrchPhaseRecord[]@3;" \
  "Capture.schema_fingerprint=string@1;" \
  "Capture.chip_swimlane_level=uint32@2;" \
  "Capture.metadata=Metadata@3;" \
  "Capture.aicore_tasks=AicoreTaskStream[]@4;" \
  "Capture.scheduler_tasks=AicpuTaskStream[]@5;" \
  "Capture.scheduler_records=SchedPhaseStream[]@6;" \
  "Capture.orchestrator_phases=OrchPhaseStream[]@7;" \
  "Capture.aicpu_lifecycle_records=AicpuLifecycleRecord[]@8;" \
  "Capture.num_orch_phase_threads=uint32@9;" \
  "Capture.schema_layout=string@10;" \
  "phase.0=complete;" \
  "phase.1=dispatch;" \
  "phase.2=release;" \
  "phase.4=dummy;" \
  "phase.5=early_dispatch;" \
  "phase.6=resolve;" \
  "phase.7=dummy_task;" \
  "phase.8=drain;" \
  "phase.9=drain_prepare;" \
  "phase.10=drain_publish;" \
  "phase.11=async_poll;" \
  "phase.12=predicated_skip;" \
  "phase.13=graph_prepare;" \
  "phase.14=resolve_standalone;" \
  "phase.15=bootstrap;" \
  "phase.16=state_probe;" \
  "phase.17=worksteal;" \
  "phase.18=refill"

#endif /* SL_FINGERPRINT_H */
