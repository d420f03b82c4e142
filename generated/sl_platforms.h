/*
** generated from schema/platforms.lua, schema/records.lua by codegen/main.lua; do not edit.
** Platform constants.
** Regenerate: cmake --build <build dir> --target regen
*/

#ifndef SL_PLATFORMS_H
#define SL_PLATFORMS_H

#include <stddef.h>
#include <stdint.h>

/* Protocol constants (all platforms). */
#define SL_TASK_ID_MASK 0x7FFFFFFFu /* reg_task_id bits (COND bits 30..0) */
#define SL_TASK_STATE_MASK 0x80000000u /* COND bit 31: 0 = ACK, 1 = FIN */
#define SL_AICORE_EXIT_SIGNAL 0x7FFFFFF0u /* DATA_MAIN_BASE value that stops an AICore */
#define SL_AICORE_IDLE_TASK_ID 0x7FFFFFFFu /* reserved reg_task_id */
#define SL_AICORE_EXIT_TASK_ID 0x7FFFFFFEu /* reserved reg_task_id */
#define SL_AICPU_IDLE_TASK_ID 0x7FFFFFFDu /* reserved reg_task_id */
#define SL_REG_TASK_ID_LIMIT 0x7FFFFFF0u /* tokens >= this are skipped (wrap) */
#define SL_DFX_FLAG_CHIP_SWIMLANE 0x2u /* enable_profiling_flag bit 1 */
#define SL_QUEUE_SHAPE_AIC 0x0u /* ready-queue shape index */
#define SL_QUEUE_SHAPE_AIV 0x1u /* ready-queue shape index */
#define SL_QUEUE_SHAPE_MIX 0x2u /* ready-queue shape index */

/* Largest value of each platform constant over all platforms (static array bounds). */
#define SL_PLATFORM_MAX_MAX_BLOCKDIM 36u
#define SL_PLATFORM_MAX_CORES_PER_BLOCKDIM 3u
#define SL_PLATFORM_MAX_MAX_CORES 108u
#define SL_PLATFORM_MAX_MAX_AICPU_THREADS 5u
#define SL_PLATFORM_MAX_DEFAULT_AICPU_THREADS 5u
#define SL_PLATFORM_MAX_LAUNCH_AICPU_THREADS 14u
#define SL_PLATFORM_MAX_SIM_BLOCKDIM 8u
#define SL_PLATFORM_MAX_PROF_BUFFER_SIZE 1000u
#define SL_PLATFORM_MAX_AICORE_BUFFER_SIZE 1024u
#define SL_PLATFORM_MAX_PHASE_RECORDS_PER_THREAD 16384u
#define SL_PLATFORM_MAX_SLOT_COUNT 4u
#define SL_PLATFORM_MAX_PROF_BUFFERS_PER_CORE 8u
#define SL_PLATFORM_MAX_AICORE_BUFFERS_PER_CORE 4u
#define SL_PLATFORM_MAX_SCHED_BUFFERS_PER_THREAD 6u
#define SL_PLATFORM_MAX_ORCH_BUFFERS_PER_THREAD 8u
#define SL_PLATFORM_MAX_READYQUEUE_BUFFERS_PER_THREAD 16u
#define SL_PLATFORM_MAX_READYQUEUE_SIZE 1456u
#define SL_PLATFORM_MAX_NUM_QUEUE_SHAPES 3u
#define SL_PLATFORM_MAX_BACKPRESSURE_TIMEOUT_SECONDS 30u
#define SL_PLATFORM_MAX_PROF_TIMEOUT_SECONDS 30u
#define SL_PLATFORM_MAX_HOST_PHASE_RECORDS_PER_BUFFER 512u
#define SL_PLATFORM_MAX_HOST_PHASE_BUFFERS 24u
#define SL_PLATFORM_MAX_VCLOCK_POLL_CYCLES 40u
#define SL_PLATFORM_MAX_VCLOCK_READ_CYCLES 20u
#define SL_PLATFORM_MAX_VCLOCK_DISPATCH_CYCLES 60u
#define SL_PLATFORM_MAX_VCLOCK_RECEIVE_CYCLES 100u
#define SL_PLATFORM_MAX_VCLOCK_FIN_CYCLES 40u
#define SL_PLATFORM_MAX_VCLOCK_POP_CYCLES 40u
#define SL_PLATFORM_MAX_VCLOCK_SUBMIT_CYCLES 400u
#define SL_PLATFORM_MAX_VCLOCK_KERNEL_BASE_CYCLES 1000u
#define SL_PLATFORM_MAX_VCLOCK_KERNEL_INSTR_CYCLES 20u
#define SL_PLATFORM_MAX_VCLOCK_WORK_PER_CYCLE 64u
#define SL_PLATFORM_MAX_MEMOPS_CALLBACKS 5u

/* Size, alignment and field offsets of sl_data_header_<arch>. */
typedef struct sl_data_header_layout {
  size_t size, align;
  size_t queues;
  size_t queue_heads;
  size_t queue_tails;
  size_t num_cores;
  size_t chip_swimlane_level;
  size_t num_sched_phase_threads;
  size_t num_orch_phase_threads;
  size_t num_phase_cores;
  size_t core_to_thread;
  size_t backpressure;
} sl_data_header_layout;

/* The chip generations (platforms.lua `arch`), in order of first appearance. */
enum sl_arch {
  SL_ARCH_A2A3 = 0,
  SL_ARCH_A5 = 1,
  SL_ARCH_COUNT
};
extern const char *const sl_arch_names[SL_ARCH_COUNT];

typedef struct sl_platform_info {
  const char *name;        /* "a2a3", "a2a3sim", "a5", "a5sim"  */
  const char *arch;        /* "a2a3" | "a5"                      */
  int arch_id;             /* enum sl_arch                       */
  int is_sim;
  uint64_t clock_freq_hz;
  const char *transport;   /* "shared_memory" | "host_shadow" (host <-> device transport) */
  const char *hbg_producer; /* "aicpu" | "aicore": the host_build_graph scheduler producer */
  unsigned max_blockdim;
  unsigned cores_per_blockdim;
  unsigned max_cores;
  unsigned max_aicpu_threads;
  unsigned default_aicpu_threads;
  unsigned launch_aicpu_threads;
  unsigned sim_blockdim;
  unsigned prof_buffer_size;
  unsigned aicore_buffer_size;
  unsigned phase_records_per_thread;
  unsigned slot_count;
  unsigned prof_buffers_per_core;
  unsigned aicore_buffers_per_core;
  unsigned sched_buffers_per_thread;
  unsigned orch_buffers_per_thread;
  unsigned readyqueue_buffers_per_thread;
  unsigned readyqueue_size;
  unsigned num_queue_shapes;
  unsigned backpressure_timeout_seconds;
  unsigned prof_timeout_seconds;
  unsigned host_phase_records_per_buffer;
  unsigned host_phase_buffers;
  unsigned vclock_poll_cycles;
  unsigned vclock_read_cycles;
  unsigned vclock_dispatch_cycles;
  unsigned vclock_receive_cycles;
  unsigned vclock_fin_cycles;
  unsigned vclock_pop_cycles;
  unsigned vclock_submit_cycles;
  unsigned vclock_kernel_base_cycles;
  unsigned vclock_kernel_instr_cycles;
  unsigned vclock_work_per_cycle;
  unsigned memops_callbacks;
  const sl_data_header_layout *data_header;
} sl_platform_info;

extern const sl_platform_info sl_platform_table[];
extern const unsigned sl_platform_table_len;

/* "a2a3", "a2a3sim", "a5", "a5sim"; NULL for anything else. */
const sl_platform_info *sl_platform_by_name(const char *name);
/* The platform names, ", "-separated, into buf (sims_only: the simulated ones); returns buf. */
char *sl_platform_names(char *buf, size_t size, int sims_only);
/* The platform commands default to: the first simulated one of the table. */
const char *sl_platform_default_sim(void);

#endif /* SL_PLATFORMS_H */
