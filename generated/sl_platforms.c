/*
** generated from schema/platforms.lua, schema/records.lua by codegen/main.lua; do not edit.
** Platform constants.
** Regenerate: cmake --build <build dir> --target regen
*/

#include "sl_platforms.h"

#include <stdio.h>
#include <string.h>

#include "sl_records.h"

static const sl_data_header_layout data_header_a2a3 = {
    sizeof(sl_data_header_a2a3), _Alignof(sl_data_header_a2a3),
    offsetof(sl_data_header_a2a3, queues),
    offsetof(sl_data_header_a2a3, queue_heads),
    offsetof(sl_data_header_a2a3, queue_tails),
    offsetof(sl_data_header_a2a3, num_cores),
    offsetof(sl_data_header_a2a3, chip_swimlane_level),
    offsetof(sl_data_header_a2a3, num_sched_phase_threads),
    offsetof(sl_data_header_a2a3, num_orch_phase_threads),
    offsetof(sl_data_header_a2a3, num_phase_cores),
    offsetof(sl_data_header_a2a3, core_to_thread),
    offsetof(sl_data_header_a2a3, backpressure)};

static const sl_data_header_layout data_header_a5 = {
    sizeof(sl_data_header_a5), _Alignof(sl_data_header_a5),
    offsetof(sl_data_header_a5, queues),
    offsetof(sl_data_header_a5, queue_heads),
    offsetof(sl_data_header_a5, queue_tails),
    offsetof(sl_data_header_a5, num_cores),
    offsetof(sl_data_header_a5, chip_swimlane_level),
    offsetof(sl_data_header_a5, num_sched_phase_threads),
    offsetof(sl_data_header_a5, num_orch_phase_threads),
    offsetof(sl_data_header_a5, num_phase_cores),
    offsetof(sl_data_header_a5, core_to_thread),
    offsetof(sl_data_header_a5, backpressure)};

const sl_platform_info sl_platform_table[] = {
    {.name = "a2a3", .arch = "a2a3", .arch_id = SL_ARCH_A2A3, .is_sim = 0,
     .clock_freq_hz = 50000000ull, .transport = "shared_memory", .hbg_producer = "aicpu",
     .max_blockdim = 24, .cores_per_blockdim = 3, .max_cores = 72, .max_aicpu_threads = 4,
     .default_aicpu_threads = 4, .launch_aicpu_threads = 6, .sim_blockdim = 8,
     .prof_buffer_size = 1000, .aicore_buffer_size = 1024, .phase_records_per_thread = 16384,
     .slot_count = 4, .prof_buffers_per_core = 8, .aicore_buffers_per_core = 4,
     .sched_buffers_per_thread = 6, .orch_buffers_per_thread = 8,
     .readyqueue_buffers_per_thread = 16, .readyqueue_size = 992, .num_queue_shapes = 3,
     .backpressure_timeout_seconds = 30, .prof_timeout_seconds = 30,
     .host_phase_records_per_buffer = 512, .host_phase_buffers = 24, .vclock_poll_cycles = 2,
     .vclock_read_cycles = 1, .vclock_dispatch_cycles = 3, .vclock_receive_cycles = 5,
     .vclock_fin_cycles = 2, .vclock_pop_cycles = 2, .vclock_submit_cycles = 20,
     .vclock_kernel_base_cycles = 50, .vclock_kernel_instr_cycles = 1, .vclock_work_per_cycle = 64,
     .memops_callbacks = 3, .data_header = &data_header_a2a3},
    {.name = "a2a3sim", .arch = "a2a3", .arch_id = SL_ARCH_A2A3, .is_sim = 1,
     .clock_freq_hz = 50000000ull, .transport = "shared_memory", .hbg_producer = "aicpu",
     .max_blockdim = 24, .cores_per_blockdim = 3, .max_cores = 72, .max_aicpu_threads = 4,
     .default_aicpu_threads = 4, .launch_aicpu_threads = 6, .sim_blockdim = 8,
     .prof_buffer_size = 1000, .aicore_buffer_size = 1024, .phase_records_per_thread = 16384,
     .slot_count = 4, .prof_buffers_per_core = 8, .aicore_buffers_per_core = 4,
     .sched_buffers_per_thread = 6, .orch_buffers_per_thread = 8,
     .readyqueue_buffers_per_thread = 16, .readyqueue_size = 992, .num_queue_shapes = 3,
     .backpressure_timeout_seconds = 30, .prof_timeout_seconds = 30,
     .host_phase_records_per_buffer = 512, .host_phase_buffers = 24, .vclock_poll_cycles = 2,
     .vclock_read_cycles = 1, .vclock_dispatch_cycles = 3, .vclock_receive_cycles = 5,
     .vclock_fin_cycles = 2, .vclock_pop_cycles = 2, .vclock_submit_cycles = 20,
     .vclock_kernel_base_cycles = 50, .vclock_kernel_instr_cycles = 1, .vclock_work_per_cycle = 64,
     .memops_callbacks = 3, .data_header = &data_header_a2a3},
    {.name = "a5", .arch = "a5", .arch_id = SL_ARCH_A5, .is_sim = 0, .clock_freq_hz = 1000000000ull,
     .transport = "host_shadow", .hbg_producer = "aicore", .max_blockdim = 36,
     .cores_per_blockdim = 3, .max_cores = 108, .max_aicpu_threads = 5, .default_aicpu_threads = 5,
     .launch_aicpu_threads = 14, .sim_blockdim = 8, .prof_buffer_size = 1000,
     .aicore_buffer_size = 1024, .phase_records_per_thread = 16384, .slot_count = 4,
     .prof_buffers_per_core = 8, .aicore_buffers_per_core = 4, .sched_buffers_per_thread = 6,
     .orch_buffers_per_thread = 8, .readyqueue_buffers_per_thread = 16, .readyqueue_size = 1456,
     .num_queue_shapes = 3, .backpressure_timeout_seconds = 30, .prof_timeout_seconds = 30,
     .host_phase_records_per_buffer = 512, .host_phase_buffers = 24, .vclock_poll_cycles = 40,
     .vclock_read_cycles = 20, .vclock_dispatch_cycles = 60, .vclock_receive_cycles = 100,
     .vclock_fin_cycles = 40, .vclock_pop_cycles = 40, .vclock_submit_cycles = 400,
     .vclock_kernel_base_cycles = 1000, .vclock_kernel_instr_cycles = 20,
     .vclock_work_per_cycle = 4, .memops_callbacks = 5, .data_header = &data_header_a5},
    {.name = "a5sim", .arch = "a5", .arch_id = SL_ARCH_A5, .is_sim = 1,
     .clock_freq_hz = 1000000000ull, .transport = "host_shadow", .hbg_producer = "aicore",
     .max_blockdim = 36, .cores_per_blockdim = 3, .max_cores = 108, .max_aicpu_threads = 5,
     .default_aicpu_threads = 5, .launch_aicpu_threads = 14, .sim_blockdim = 8,
     .prof_buffer_size = 1000, .aicore_buffer_size = 1024, .phase_records_per_thread = 16384,
     .slot_count = 4, .prof_buffers_per_core = 8, .aicore_buffers_per_core = 4,
     .sched_buffers_per_thread = 6, .orch_buffers_per_thread = 8,
     .readyqueue_buffers_per_thread = 16, .readyqueue_size = 1456, .num_queue_shapes = 3,
     .backpressure_timeout_seconds = 30, .prof_timeout_seconds = 30,
     .host_phase_records_per_buffer = 512, .host_phase_buffers = 24, .vclock_poll_cycles = 40,
     .vclock_read_cycles = 20, .vclock_dispatch_cycles = 60, .vclock_receive_cycles = 100,
     .vclock_fin_cycles = 40, .vclock_pop_cycles = 40, .vclock_submit_cycles = 400,
     .vclock_kernel_base_cycles = 1000, .vclock_kernel_instr_cycles = 20,
     .vclock_work_per_cycle = 4, .memops_callbacks = 5, .data_header = &data_header_a5},
};
const unsigned sl_platform_table_len = 4u;
const char *const sl_arch_names[SL_ARCH_COUNT] = {"a2a3", "a5"};

const sl_platform_info *sl_platform_by_name(const char *name) {
  for (unsigned i = 0; name && i < sl_platform_table_len; i++)
    if (strcmp(sl_platform_table[i].name, name) == 0) return &sl_platform_table[i];
  return NULL;
}

const char *sl_platform_default_sim(void) {
  for (unsigned i = 0; i < sl_platform_table_len; i++)
    if (sl_platform_table[i].is_sim) return sl_platform_table[i].name;
  return NULL;
}

char *sl_platform_names(char *buf, size_t size, int sims_only) {
  size_t n = 0;
  if (size) buf[0] = 0;
  for (unsigned i = 0; i < sl_platform_table_len; i++) {
    if (sims_only && !sl_platform_table[i].is_sim) continue;
    int w = snprintf(buf + n, n < size ? size - n : 0, "%s%s", n ? ", " : "", sl_platform_table[i].name);
    if (w > 0) n += (size_t)w;
  }
  return buf;
}
