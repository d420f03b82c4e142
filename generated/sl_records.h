/*
** generated from schema/records.lua, schema/platforms.lua by codegen/main.lua; do not edit.
** Record and shared-region structs, byte-exact.
** Regenerate: cmake --build <build dir> --target regen
*/

#ifndef SL_RECORDS_H
#define SL_RECORDS_H

#include <stddef.h>
#include <stdint.h>

/* What a ready-queue entry carries (sl_ready_entry.kind). */
enum sl_buffer_kind {
  SL_BUF_AICPU_TASK = 0, /* sl_aicpu_task_record */
  SL_BUF_SCHED_PHASE = 1, /* sl_sched_phase_record */
  SL_BUF_ORCH_PHASE = 2, /* sl_orch_phase_record */
  SL_BUF_AICORE_TASK = 3, /* sl_aicore_task_record */
  SL_BUF_KIND_COUNT
};

/* AICPU per-dispatch timing, written on FIN (level >= 2) — 32 B, align 32 */
typedef struct sl_aicpu_task_record {
  _Alignas(32) uint64_t dispatch_time; /* @0 sys-cnt right before DATA_MAIN_BASE is written */
  uint64_t finish_time; /* @8 sys-cnt at FIN observation */
  uint32_t reg_task_id; /* @16 per-core dispatch token; join key with the AICore record */
  uint32_t member; /* @20 which member of the task this dispatch ran: 1 + its index in the task's kernel_ids (1 AIC, 2 first AIV, 3 second AIV); 0 = not recorded */
  uint8_t _tail_pad[8]; /* @24 padding */
} sl_aicpu_task_record;
_Static_assert(sizeof(sl_aicpu_task_record) == 32, "sl_aicpu_task_record size");
_Static_assert(_Alignof(sl_aicpu_task_record) == 32, "sl_aicpu_task_record alignment");
_Static_assert(offsetof(sl_aicpu_task_record, dispatch_time) == 0, "sl_aicpu_task_record.dispatch_time offset");
_Static_assert(offsetof(sl_aicpu_task_record, finish_time) == 8, "sl_aicpu_task_record.finish_time offset");
_Static_assert(offsetof(sl_aicpu_task_record, reg_task_id) == 16, "sl_aicpu_task_record.reg_task_id offset");
_Static_assert(offsetof(sl_aicpu_task_record, member) == 20, "sl_aicpu_task_record.member offset");

/* AICore per-task timing (level >= 1) — 32 B, align 32 */
typedef struct sl_aicore_task_record {
  _Alignas(32) uint64_t start_time; /* @0 sys-cnt after payload read + ACK; kernel starts next */
  uint64_t end_time; /* @8 sys-cnt right after the kernel returns */
  uint64_t task_token_raw; /* @16 (ring_id << 32) | local_id; identity, not a join key */
  uint32_t reg_task_id; /* @24 the DATA_MAIN_BASE token AICore consumed */
  uint32_t receive_to_start_cycles; /* @28 start_time - receive time */
} sl_aicore_task_record;
_Static_assert(sizeof(sl_aicore_task_record) == 32, "sl_aicore_task_record size");
_Static_assert(_Alignof(sl_aicore_task_record) == 32, "sl_aicore_task_record alignment");
_Static_assert(offsetof(sl_aicore_task_record, start_time) == 0, "sl_aicore_task_record.start_time offset");
_Static_assert(offsetof(sl_aicore_task_record, end_time) == 8, "sl_aicore_task_record.end_time offset");
_Static_assert(offsetof(sl_aicore_task_record, task_token_raw) == 16, "sl_aicore_task_record.task_token_raw offset");
_Static_assert(offsetof(sl_aicore_task_record, reg_task_id) == 24, "sl_aicore_task_record.reg_task_id offset");
_Static_assert(offsetof(sl_aicore_task_record, receive_to_start_cycles) == 28, "sl_aicore_task_record.receive_to_start_cycles offset");

/* one scheduler phase (level >= 3); kind is a phase id from phases.lua — 64 B, align 8 */
typedef struct sl_sched_phase_record {
  uint64_t start_time; /* @0 */
  uint64_t end_time; /* @8 */
  uint32_t loop_iter; /* @16 scheduler-loop iteration on this thread */
  uint32_t kind; /* @20 enum sl_phase_kind */
  uint32_t tasks_processed; /* @24 */
  union { /* @28 interpretation selected by the phase's variant */
    struct {
      uint32_t pop_hit; /* @0 ready-queue pop hits since the last dispatch emit */
      uint32_t pop_miss; /* @4 */
    } dispatch;
    struct {
      uint32_t local_id; /* @0 task id bits 31..0 */
      uint32_t ring_id; /* @4 task id bits 63..32 */
    } task;
  } phase_data;
  int16_t shared_depth_at_start[3]; /* @36 shared ready-queue depth per shape at phase start */
  int16_t shared_depth_at_end[3]; /* @42 */
  uint32_t _pad[4]; /* @48 */
} sl_sched_phase_record;
_Static_assert(sizeof(sl_sched_phase_record) == 64, "sl_sched_phase_record size");
_Static_assert(_Alignof(sl_sched_phase_record) == 8, "sl_sched_phase_record alignment");
_Static_assert(offsetof(sl_sched_phase_record, start_time) == 0, "sl_sched_phase_record.start_time offset");
_Static_assert(offsetof(sl_sched_phase_record, end_time) == 8, "sl_sched_phase_record.end_time offset");
_Static_assert(offsetof(sl_sched_phase_record, loop_iter) == 16, "sl_sched_phase_record.loop_iter offset");
_Static_assert(offsetof(sl_sched_phase_record, kind) == 20, "sl_sched_phase_record.kind offset");
_Static_assert(offsetof(sl_sched_phase_record, tasks_processed) == 24, "sl_sched_phase_record.tasks_processed offset");
_Static_assert(offsetof(sl_sched_phase_record, phase_data) == 28, "sl_sched_phase_record.phase_data offset");
_Static_assert(offsetof(sl_sched_phase_record, shared_depth_at_start) == 36, "sl_sched_phase_record.shared_depth_at_start offset");
_Static_assert(offsetof(sl_sched_phase_record, shared_depth_at_end) == 42, "sl_sched_phase_record.shared_depth_at_end offset");
_Static_assert(offsetof(sl_sched_phase_record, _pad) == 48, "sl_sched_phase_record._pad offset");
_Static_assert(offsetof(sl_sched_phase_record, phase_data.dispatch.pop_hit) == 28, "sl_sched_phase_record.phase_data.dispatch.pop_hit offset");
_Static_assert(offsetof(sl_sched_phase_record, phase_data.dispatch.pop_miss) == 32, "sl_sched_phase_record.phase_data.dispatch.pop_miss offset");
_Static_assert(offsetof(sl_sched_phase_record, phase_data.task.local_id) == 28, "sl_sched_phase_record.phase_data.task.local_id offset");
_Static_assert(offsetof(sl_sched_phase_record, phase_data.task.ring_id) == 32, "sl_sched_phase_record.phase_data.task.ring_id offset");

/* one orchestrator submit_task() / alloc_tensors() envelope (level 4) — 32 B, align 8 */
typedef struct sl_orch_phase_record {
  uint64_t start_time; /* @0 */
  uint64_t end_time; /* @8 */
  uint64_t task_id; /* @16 full task id */
  uint32_t submit_idx; /* @24 monotonic submit counter */
  uint32_t kind; /* @28 orchestrator phase id (phases.lua orch_phases) */
} sl_orch_phase_record;
_Static_assert(sizeof(sl_orch_phase_record) == 32, "sl_orch_phase_record size");
_Static_assert(_Alignof(sl_orch_phase_record) == 8, "sl_orch_phase_record alignment");
_Static_assert(offsetof(sl_orch_phase_record, start_time) == 0, "sl_orch_phase_record.start_time offset");
_Static_assert(offsetof(sl_orch_phase_record, end_time) == 8, "sl_orch_phase_record.end_time offset");
_Static_assert(offsetof(sl_orch_phase_record, task_id) == 16, "sl_orch_phase_record.task_id offset");
_Static_assert(offsetof(sl_orch_phase_record, submit_idx) == 24, "sl_orch_phase_record.submit_idx offset");
_Static_assert(offsetof(sl_orch_phase_record, kind) == 28, "sl_orch_phase_record.kind offset");

/* A5 HBG AICPU control-plane spans of one AICPU thread (level >= 2) — 128 B, align 64 */
typedef struct sl_aicpu_lifecycle_record {
  _Alignas(64) uint32_t aicpu_thread_id; /* @0 */
  uint32_t _reserved; /* @4 */
  uint64_t handshake_start_cycles; /* @8 */
  uint64_t handshake_complete_cycles; /* @16 */
  uint64_t config_start_cycles; /* @24 leader thread only */
  uint64_t topology_complete_cycles; /* @32 leader thread only */
  uint64_t context_publish_start_cycles; /* @40 */
  uint64_t context_publish_complete_cycles; /* @48 */
  uint64_t bootstrap_wait_start_cycles; /* @56 */
  uint64_t bootstrap_complete_cycles; /* @64 */
  uint64_t register_release_start_cycles; /* @72 */
  uint64_t register_release_end_cycles; /* @80 */
  uint64_t exit_signal_start_cycles; /* @88 */
  uint64_t exit_signal_end_cycles; /* @96 */
  uint64_t exit_wait_start_cycles; /* @104 */
  uint64_t exit_wait_end_cycles; /* @112 */
  uint8_t _tail_pad[8]; /* @120 padding */
} sl_aicpu_lifecycle_record;
_Static_assert(sizeof(sl_aicpu_lifecycle_record) == 128, "sl_aicpu_lifecycle_record size");
_Static_assert(_Alignof(sl_aicpu_lifecycle_record) == 64, "sl_aicpu_lifecycle_record alignment");
_Static_assert(offsetof(sl_aicpu_lifecycle_record, aicpu_thread_id) == 0, "sl_aicpu_lifecycle_record.aicpu_thread_id offset");
_Static_assert(offsetof(sl_aicpu_lifecycle_record, _reserved) == 4, "sl_aicpu_lifecycle_record._reserved offset");
_Static_assert(offsetof(sl_aicpu_lifecycle_record, handshake_start_cycles) == 8, "sl_aicpu_lifecycle_record.handshake_start_cycles offset");
_Static_assert(offsetof(sl_aicpu_lifecycle_record, handshake_complete_cycles) == 16, "sl_aicpu_lifecycle_record.handshake_complete_cycles offset");
_Static_assert(offsetof(sl_aicpu_lifecycle_record, config_start_cycles) == 24, "sl_aicpu_lifecycle_record.config_start_cycles offset");
_Static_assert(offsetof(sl_aicpu_lifecycle_record, topology_complete_cycles) == 32, "sl_aicpu_lifecycle_record.topology_complete_cycles offset");
_Static_assert(offsetof(sl_aicpu_lifecycle_record, context_publish_start_cycles) == 40, "sl_aicpu_lifecycle_record.context_publish_start_cycles offset");
_Static_assert(offsetof(sl_aicpu_lifecycle_record, context_publish_complete_cycles) == 48, "sl_aicpu_lifecycle_record.context_publish_complete_cycles offset");
_Static_assert(offsetof(sl_aicpu_lifecycle_record, bootstrap_wait_start_cycles) == 56, "sl_aicpu_lifecycle_record.bootstrap_wait_start_cycles offset");
_Static_assert(offsetof(sl_aicpu_lifecycle_record, bootstrap_complete_cycles) == 64, "sl_aicpu_lifecycle_record.bootstrap_complete_cycles offset");
_Static_assert(offsetof(sl_aicpu_lifecycle_record, register_release_start_cycles) == 72, "sl_aicpu_lifecycle_record.register_release_start_cycles offset");
_Static_assert(offsetof(sl_aicpu_lifecycle_record, register_release_end_cycles) == 80, "sl_aicpu_lifecycle_record.register_release_end_cycles offset");
_Static_assert(offsetof(sl_aicpu_lifecycle_record, exit_signal_start_cycles) == 88, "sl_aicpu_lifecycle_record.exit_signal_start_cycles offset");
_Static_assert(offsetof(sl_aicpu_lifecycle_record, exit_signal_end_cycles) == 96, "sl_aicpu_lifecycle_record.exit_signal_end_cycles offset");
_Static_assert(offsetof(sl_aicpu_lifecycle_record, exit_wait_start_cycles) == 104, "sl_aicpu_lifecycle_record.exit_wait_start_cycles offset");
_Static_assert(offsetof(sl_aicpu_lifecycle_record, exit_wait_end_cycles) == 112, "sl_aicpu_lifecycle_record.exit_wait_end_cycles offset");

/* a pool's active buffer + accounting; one cache line, single writer (AICPU) — 64 B, align 64 */
typedef struct sl_active_head {
  _Alignas(64) uint64_t current_buf_ptr; /* @0 device address of the active buffer, 0 = none */
  uint32_t current_buf_seq; /* @8 monotonic; AICore pools: rotation generation */
  uint32_t total_record_count; /* @12 */
  uint32_t dropped_record_count; /* @16 */
  uint32_t _pad[11]; /* @20 */
} sl_active_head;
_Static_assert(sizeof(sl_active_head) == 64, "sl_active_head size");
_Static_assert(_Alignof(sl_active_head) == 64, "sl_active_head alignment");
_Static_assert(offsetof(sl_active_head, current_buf_ptr) == 0, "sl_active_head.current_buf_ptr offset");
_Static_assert(offsetof(sl_active_head, current_buf_seq) == 8, "sl_active_head.current_buf_seq offset");
_Static_assert(offsetof(sl_active_head, total_record_count) == 12, "sl_active_head.total_record_count offset");
_Static_assert(offsetof(sl_active_head, dropped_record_count) == 16, "sl_active_head.dropped_record_count offset");
_Static_assert(offsetof(sl_active_head, _pad) == 20, "sl_active_head._pad offset");

/* SPSC ring of empty buffers: host pushes (tail), AICPU pops (head) — 128 B, align 64 */
typedef struct sl_free_queue {
  _Alignas(64) uint64_t buffer_ptrs[4]; /* @0 slot = index % 4 (PROF_SLOT_COUNT) */
  uint32_t head; /* @32 consumer index (AICPU), free-running */
  uint32_t tail; /* @36 producer index (host), free-running */
  uint32_t _pad[13]; /* @40 */
  uint8_t _tail_pad[36]; /* @92 padding */
} sl_free_queue;
_Static_assert(sizeof(sl_free_queue) == 128, "sl_free_queue size");
_Static_assert(_Alignof(sl_free_queue) == 64, "sl_free_queue alignment");
_Static_assert(offsetof(sl_free_queue, buffer_ptrs) == 0, "sl_free_queue.buffer_ptrs offset");
_Static_assert(offsetof(sl_free_queue, head) == 32, "sl_free_queue.head offset");
_Static_assert(offsetof(sl_free_queue, tail) == 36, "sl_free_queue.tail offset");
_Static_assert(offsetof(sl_free_queue, _pad) == 40, "sl_free_queue._pad offset");

/* one pool of any buffer kind: head @0 and free_queue @64 are ABI-locked — 192 B, align 64 */
typedef struct sl_buffer_pool {
  sl_active_head head; /* @0 */
  sl_free_queue free_queue; /* @64 */
} sl_buffer_pool;
_Static_assert(sizeof(sl_buffer_pool) == 192, "sl_buffer_pool size");
_Static_assert(_Alignof(sl_buffer_pool) == 64, "sl_buffer_pool alignment");
_Static_assert(offsetof(sl_buffer_pool, head) == 0, "sl_buffer_pool.head offset");
_Static_assert(offsetof(sl_buffer_pool, free_queue) == 64, "sl_buffer_pool.free_queue offset");

/* one full buffer handed to the host through a per-AICPU-thread ready queue — 32 B, align 32 */
typedef struct sl_ready_entry {
  _Alignas(32) uint32_t core_index; /* @0 core id (task kinds) or pool ordinal (phase kinds) */
  uint32_t kind; /* @4 enum sl_buffer_kind */
  uint64_t buffer_ptr; /* @8 0 = not yet published (torn-read guard) */
  uint32_t buffer_seq; /* @16 */
  uint32_t _pad; /* @20 */
  uint8_t _tail_pad[8]; /* @24 padding */
} sl_ready_entry;
_Static_assert(sizeof(sl_ready_entry) == 32, "sl_ready_entry size");
_Static_assert(_Alignof(sl_ready_entry) == 32, "sl_ready_entry alignment");
_Static_assert(offsetof(sl_ready_entry, core_index) == 0, "sl_ready_entry.core_index offset");
_Static_assert(offsetof(sl_ready_entry, kind) == 4, "sl_ready_entry.kind offset");
_Static_assert(offsetof(sl_ready_entry, buffer_ptr) == 8, "sl_ready_entry.buffer_ptr offset");
_Static_assert(offsetof(sl_ready_entry, buffer_seq) == 16, "sl_ready_entry.buffer_seq offset");
_Static_assert(offsetof(sl_ready_entry, _pad) == 20, "sl_ready_entry._pad offset");

/* dual freeze flags between host and device (0/1 each) — 16 B, align 4 */
typedef struct sl_backpressure {
  uint32_t rq_freeze_active; /* @0 host -> device */
  uint32_t rq_contended; /* @4 device -> host */
  uint32_t fq_freeze_active; /* @8 host -> device */
  uint32_t fq_contended; /* @12 device -> host */
} sl_backpressure;
_Static_assert(sizeof(sl_backpressure) == 16, "sl_backpressure size");
_Static_assert(_Alignof(sl_backpressure) == 4, "sl_backpressure alignment");
_Static_assert(offsetof(sl_backpressure, rq_freeze_active) == 0, "sl_backpressure.rq_freeze_active offset");
_Static_assert(offsetof(sl_backpressure, rq_contended) == 4, "sl_backpressure.rq_contended offset");
_Static_assert(offsetof(sl_backpressure, fq_freeze_active) == 8, "sl_backpressure.fq_freeze_active offset");
_Static_assert(offsetof(sl_backpressure, fq_contended) == 12, "sl_backpressure.fq_contended offset");

/* start of the shared region: ready queues, their indices and run metadata — 127168 B, align 64, platform a2a3 */
typedef struct sl_data_header_a2a3 {
  _Alignas(64) sl_ready_entry queues[4][992]; /* @0 per-AICPU-thread SPSC rings */
  uint32_t queue_heads[4]; /* @126976 host writes (consumer) */
  uint32_t queue_tails[4]; /* @126992 AICPU writes (producer) */
  uint32_t num_cores; /* @127008 */
  uint32_t chip_swimlane_level; /* @127012 */
  uint32_t num_sched_phase_threads; /* @127016 */
  uint32_t num_orch_phase_threads; /* @127020 */
  uint32_t num_phase_cores; /* @127024 */
  int8_t core_to_thread[72]; /* @127028 -1 = unassigned */
  sl_backpressure backpressure; /* @127100 */
  uint8_t _tail_pad[52]; /* @127116 padding */
} sl_data_header_a2a3;
_Static_assert(sizeof(sl_data_header_a2a3) == 127168, "sl_data_header_a2a3 size");
_Static_assert(_Alignof(sl_data_header_a2a3) == 64, "sl_data_header_a2a3 alignment");
_Static_assert(offsetof(sl_data_header_a2a3, queues) == 0, "sl_data_header_a2a3.queues offset");
_Static_assert(offsetof(sl_data_header_a2a3, queue_heads) == 126976, "sl_data_header_a2a3.queue_heads offset");
_Static_assert(offsetof(sl_data_header_a2a3, queue_tails) == 126992, "sl_data_header_a2a3.queue_tails offset");
_Static_assert(offsetof(sl_data_header_a2a3, num_cores) == 127008, "sl_data_header_a2a3.num_cores offset");
_Static_assert(offsetof(sl_data_header_a2a3, chip_swimlane_level) == 127012, "sl_data_header_a2a3.chip_swimlane_level offset");
_Static_assert(offsetof(sl_data_header_a2a3, num_sched_phase_threads) == 127016, "sl_data_header_a2a3.num_sched_phase_threads offset");
_Static_assert(offsetof(sl_data_header_a2a3, num_orch_phase_threads) == 127020, "sl_data_header_a2a3.num_orch_phase_threads offset");
_Static_assert(offsetof(sl_data_header_a2a3, num_phase_cores) == 127024, "sl_data_header_a2a3.num_phase_cores offset");
_Static_assert(offsetof(sl_data_header_a2a3, core_to_thread) == 127028, "sl_data_header_a2a3.core_to_thread offset");
_Static_assert(offsetof(sl_data_header_a2a3, backpressure) == 127100, "sl_data_header_a2a3.backpressure offset");

/* start of the shared region: ready queues, their indices and run metadata — 233152 B, align 64, platform a5 */
typedef struct sl_data_header_a5 {
  _Alignas(64) sl_ready_entry queues[5][1456]; /* @0 per-AICPU-thread SPSC rings */
  uint32_t queue_heads[5]; /* @232960 host writes (consumer) */
  uint32_t queue_tails[5]; /* @232980 AICPU writes (producer) */
  uint32_t num_cores; /* @233000 */
  uint32_t chip_swimlane_level; /* @233004 */
  uint32_t num_sched_phase_threads; /* @233008 */
  uint32_t num_orch_phase_threads; /* @233012 */
  uint32_t num_phase_cores; /* @233016 */
  int8_t core_to_thread[108]; /* @233020 -1 = unassigned */
  sl_backpressure backpressure; /* @233128 */
  uint8_t _tail_pad[8]; /* @233144 padding */
} sl_data_header_a5;
_Static_assert(sizeof(sl_data_header_a5) == 233152, "sl_data_header_a5 size");
_Static_assert(_Alignof(sl_data_header_a5) == 64, "sl_data_header_a5 alignment");
_Static_assert(offsetof(sl_data_header_a5, queues) == 0, "sl_data_header_a5.queues offset");
_Static_assert(offsetof(sl_data_header_a5, queue_heads) == 232960, "sl_data_header_a5.queue_heads offset");
_Static_assert(offsetof(sl_data_header_a5, queue_tails) == 232980, "sl_data_header_a5.queue_tails offset");
_Static_assert(offsetof(sl_data_header_a5, num_cores) == 233000, "sl_data_header_a5.num_cores offset");
_Static_assert(offsetof(sl_data_header_a5, chip_swimlane_level) == 233004, "sl_data_header_a5.chip_swimlane_level offset");
_Static_assert(offsetof(sl_data_header_a5, num_sched_phase_threads) == 233008, "sl_data_header_a5.num_sched_phase_threads offset");
_Static_assert(offsetof(sl_data_header_a5, num_orch_phase_threads) == 233012, "sl_data_header_a5.num_orch_phase_threads offset");
_Static_assert(offsetof(sl_data_header_a5, num_phase_cores) == 233016, "sl_data_header_a5.num_phase_cores offset");
_Static_assert(offsetof(sl_data_header_a5, core_to_thread) == 233020, "sl_data_header_a5.core_to_thread offset");
_Static_assert(offsetof(sl_data_header_a5, backpressure) == 233128, "sl_data_header_a5.backpressure offset");

/* 128-byte tensor descriptor a kernel argument slot points to — 128 B, align 64 */
typedef struct sl_tensor_desc {
  _Alignas(64) uint64_t addr; /* @0 device byte address of the buffer */
  uint64_t size; /* @8 buffer bytes */
  uint64_t owner_task_id; /* @16 */
  uint64_t start_offset; /* @24 view origin, in elements */
  int32_t version; /* @32 */
  uint32_t ndims; /* @36 */
  uint8_t dtype; /* @40 enum sl_dtype */
  uint8_t manual_dep; /* @41 */
  uint8_t is_contiguous; /* @42 */
  uint8_t address_space; /* @43 0 host, 1 device */
  uint32_t shapes[5]; /* @44 */
  uint64_t extent_elem_cache; /* @64 */
  uint32_t strides[5]; /* @72 element strides, > 0 */
  uint8_t reserved[36]; /* @92 */
} sl_tensor_desc;
_Static_assert(sizeof(sl_tensor_desc) == 128, "sl_tensor_desc size");
_Static_assert(_Alignof(sl_tensor_desc) == 64, "sl_tensor_desc alignment");
_Static_assert(offsetof(sl_tensor_desc, addr) == 0, "sl_tensor_desc.addr offset");
_Static_assert(offsetof(sl_tensor_desc, size) == 8, "sl_tensor_desc.size offset");
_Static_assert(offsetof(sl_tensor_desc, owner_task_id) == 16, "sl_tensor_desc.owner_task_id offset");
_Static_assert(offsetof(sl_tensor_desc, start_offset) == 24, "sl_tensor_desc.start_offset offset");
_Static_assert(offsetof(sl_tensor_desc, version) == 32, "sl_tensor_desc.version offset");
_Static_assert(offsetof(sl_tensor_desc, ndims) == 36, "sl_tensor_desc.ndims offset");
_Static_assert(offsetof(sl_tensor_desc, dtype) == 40, "sl_tensor_desc.dtype offset");
_Static_assert(offsetof(sl_tensor_desc, manual_dep) == 41, "sl_tensor_desc.manual_dep offset");
_Static_assert(offsetof(sl_tensor_desc, is_contiguous) == 42, "sl_tensor_desc.is_contiguous offset");
_Static_assert(offsetof(sl_tensor_desc, address_space) == 43, "sl_tensor_desc.address_space offset");
_Static_assert(offsetof(sl_tensor_desc, shapes) == 44, "sl_tensor_desc.shapes offset");
_Static_assert(offsetof(sl_tensor_desc, extent_elem_cache) == 64, "sl_tensor_desc.extent_elem_cache offset");
_Static_assert(offsetof(sl_tensor_desc, strides) == 72, "sl_tensor_desc.strides offset");
_Static_assert(offsetof(sl_tensor_desc, reserved) == 92, "sl_tensor_desc.reserved offset");

#endif /* SL_RECORDS_H */
