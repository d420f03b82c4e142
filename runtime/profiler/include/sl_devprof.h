/*
** sl_devprof.h — the device half of the chip-swimlane profiler, as the simulated
** runtime sees it. The runtime (AICPU scheduler / orchestrator threads, AICore
** worker threads) calls these hooks; they fill records through the generated
** writers into rotating buffers in the shared region and hand full buffers to the
** host collector through per-AICPU-thread ready queues.
**
** A NULL sl_devprof* means level 0: every hook is a no-op and callers should
** test `dp` before taking timestamps, so a disabled run executes no profiling code.
**
** Thread roles (indices are AICPU thread indices 0..num_threads-1; the
** orchestrator is the last one):
**   - sl_devprof_on_dispatch / _on_ack / _complete_task / _sched_phase /
**     _flush_scheduler run on the scheduler thread that owns the core;
**   - sl_devprof_orch_submit / _flush_orch run on the orchestrator thread;
**   - sl_devprof_aicore_* run on the AICore thread of that core.
*/
#ifndef SL_DEVPROF_H
#define SL_DEVPROF_H

#include <stdint.h>

#include "sl_records.h" /* generated record structs */

typedef struct sl_devprof sl_devprof; /* lives in the shared region; owned by the host collector */

/* Captured perf level 1..4 of this run. */
unsigned sl_devprof_level(const sl_devprof *dp);

/* ---- AICPU scheduler side ------------------------------------------------------------ */

/* Immediately before publishing reg_task_id to `core` (every level >= 1): counts the
** AICore record and rotates the core's AICore buffer every AICORE_BUFFER_SIZE
** dispatches (completion-before-dispatch makes that safe). */
void sl_devprof_on_dispatch(sl_devprof *dp, int core, int thread, uint32_t reg_task_id);
/* After observing ACK or FIN of reg_task_id on `core`: releases a stashed AICore buffer
** once the core has moved past it. */
void sl_devprof_on_ack(sl_devprof *dp, int core, int thread, uint32_t reg_task_id);
/* Level >= 2, once per completed dispatch. */
void sl_devprof_complete_task(sl_devprof *dp, int core, int thread, uint32_t reg_task_id,
                              uint64_t dispatch_cycles, uint64_t finish_cycles);
/* The same, naming the member of the task the dispatch ran (1 + its kernel_ids
** index; 0 = unknown, what sl_devprof_complete_task records). */
void sl_devprof_complete_member(sl_devprof *dp, int core, int thread, uint32_t reg_task_id,
                                uint32_t member, uint64_t dispatch_cycles,
                                uint64_t finish_cycles);
/* Level >= 3: one scheduler phase record. `a`/`b` fill the phase's union variant
** (dispatch: pop_hit/pop_miss; dummy_task, predicated_skip, graph_prepare:
** local_id/ring_id). Depth arrays are the shared ready-queue depths (AIC, AIV, MIX)
** and may be NULL (recorded as zeros). */
void sl_devprof_sched_phase(sl_devprof *dp, int thread, uint32_t kind, uint64_t start, uint64_t end,
                            uint32_t loop_iter, uint32_t tasks_processed, uint32_t a, uint32_t b,
                            const int16_t depth_start[3], const int16_t depth_end[3]);
/* Level >= 3: a scheduler phase record the runtime filled with its generated writer
** (sl_write_phase_<name>, sl_writers.h), copied into `thread`'s active phase buffer. */
void sl_devprof_sched_phase_put(sl_devprof *dp, int thread, const sl_sched_phase_record *rec);
/* Level >= 3: which scheduler thread retires `core`'s tasks (core_to_thread[]). */
void sl_devprof_set_core_thread(sl_devprof *dp, int core, int thread);
/* Level >= 1: scheduler `thread` is an AICore Scheduler running on physical AIV core
** `core` (A5 host_build_graph): its stream's producer is "aicore". -1 = AICPU. */
void sl_devprof_set_sched_core(sl_devprof *dp, int thread, int core);
/* At scheduler-thread exit: publish every partly filled buffer this thread owns
** (its cores' AICPU-task and AICore buffers, its phase buffer). */
void sl_devprof_flush_scheduler(sl_devprof *dp, int thread, const int *cores, int ncores);
/* (Contract detail) every sl_devprof_on_dispatch to a core must be matched by one
** sl_devprof_aicore_reserve + _commit on that core's AICore thread; the flush waits
** (bounded, 2 s) for the last dispatched record's commit before publishing it. */

/* ---- orchestrator side --------------------------------------------------------------- */

/* Level >= 4: one record per submit_task() / alloc_tensors() call. */
void sl_devprof_orch_submit(sl_devprof *dp, uint64_t start, uint64_t end, uint64_t task_id,
                            uint32_t submit_idx);
void sl_devprof_flush_orch(sl_devprof *dp);

/* ---- AICPU lifecycle (extension) ----------------------------------------------------- */

/* Level >= 2, optional: the control-plane timestamps of AICPU thread `thread`
** (the capture's aicpu_lifecycle_records section). Call once per thread, any time before
** the thread exits; exported only for threads that called it. */
void sl_devprof_lifecycle(sl_devprof *dp, int thread, const sl_aicpu_lifecycle_record *rec);

/* ---- AICore side -------------------------------------------------------------------- */

/* Per-core cursor AICore keeps across tasks (its cached view of the active head). */
typedef struct sl_aicore_cursor {
  void *buf;      /* cached active buffer, NULL = none                  */
  uint32_t seq;   /* generation of `buf`; UINT32_MAX before the first   */
  uint32_t slot;  /* next record index within `buf`                     */
} sl_aicore_cursor;

void sl_aicore_cursor_init(sl_aicore_cursor *cur);
/* Before running a task: reserve the record slot (NULL = no buffer / slot guard). */
sl_aicore_task_record *sl_devprof_aicore_reserve(sl_devprof *dp, int core, sl_aicore_cursor *cur);
/* After the kernel returns: fill the reserved record (NULL is ignored). */
void sl_devprof_aicore_commit(sl_aicore_task_record *rec, uint64_t start, uint64_t end,
                              uint64_t task_token_raw, uint32_t reg_task_id, uint32_t receive_to_start);

#endif /* SL_DEVPROF_H */
