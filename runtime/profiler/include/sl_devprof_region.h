/*
** sl_devprof_region.h — the layout of the profiler's shared region and the
** host's view of it. The host collector creates the region, seeds the free
** queues with buffers it allocates, drains the ready queues and reads the
** counters; the device hooks (sl_devprof.c) run against the same struct.
**
** Differences from the reference ABI (one fixed block per platform): the ready
** queues, pools and per-core state are sized from the run's geometry so tests
** can shrink every pool; the record structs, pool / head / free-queue / ready-
** entry / back-pressure structs are the generated, size-asserted ones.
**
** A record buffer is `records[n]` followed by a u32 `count` (the number of
** valid records, stamped by the AICPU before publication), padded to 64 B.
*/
#ifndef SL_DEVPROF_REGION_H
#define SL_DEVPROF_REGION_H

#include <stddef.h>
#include <stdint.h>

#include "sl_devprof.h"
#include "sl_levels.h"
#include "sl_prof_bell.h"
#include "sl_prof_queues.h"

/* reg_task_id of an AICore slot that was handed out but not committed yet.
** Real tokens are < 0x7FFFFFF0, so this never names a task. */
#define SL_AICORE_UNCOMMITTED 0xFFFFFFFFu

typedef struct sl_devprof_geometry {
  unsigned level;                        /* 1..4                                  */
  int num_cores;
  int num_threads;                       /* AICPU threads; orchestrator = last    */
  unsigned records[SL_BUF_KIND_COUNT];   /* records per buffer, by buffer kind    */
  unsigned slot_count;                   /* free-queue capacity 1..4              */
  unsigned readyqueue_size;              /* >= 2                                  */
  int backpressure;                      /* block on contention instead of drop   */
  uint64_t backpressure_timeout_ns;      /* give-up bound of a blocked producer   */
} sl_devprof_geometry;

/* AICPU-private state of one core (written only by the scheduler owning it). */
typedef struct sl_core_state {
  _Alignas(64) uint64_t dispatched; /* AICore dispatches so far (== AICore total) */
  uint64_t gen_start;      /* dispatch index at which the active generation began */
  uint64_t gen_buf;        /* buffer of the active generation; 0 = none           */
  uint32_t gen_seq;        /* head seq of the active generation                   */
  uint32_t last_token;     /* reg_task_id of the latest dispatch                  */
  struct {                 /* a rotated-out AICore buffer awaiting the ACK gate   */
    uint64_t buf;          /* 0 = nothing stashed                                 */
    uint32_t seq, count;
    uint32_t gate;         /* token of the boundary dispatch that stashed it      */
    uint32_t last_token;   /* token of its last record                            */
    int gate_passed;       /* the core has moved past it; publish may retry      */
  } stash;
  _Atomic int owner;      /* AICPU thread that dispatches to this core (others read it) */
} sl_core_state;

struct sl_devprof {
  sl_devprof_geometry g;
  size_t record_size[SL_BUF_KIND_COUNT];
  size_t buffer_bytes[SL_BUF_KIND_COUNT]; /* records + count, rounded up to 64 */
  int orch_thread;                        /* num_threads - 1                   */

  /* shared with the host */
  sl_ready_entry *rq_entries;             /* [num_threads][readyqueue_size]    */
  uint32_t *rq_head;                      /* [num_threads], 64 B apart         */
  uint32_t *rq_tail;                      /* [num_threads], 64 B apart         */
  sl_backpressure *bp;                    /* own cache line                    */
  sl_buffer_pool *pools[SL_BUF_KIND_COUNT]; /* per kind: [pool_count(kind)]    */
  int32_t *core_to_thread;                /* [num_cores], -1 = unassigned      */
  int32_t *sched_core;                    /* [num_threads]: physical AIV core of an
                                             AICore Scheduler, -1 = AICPU producer */
  uint32_t num_sched_phase_threads;       /* written at creation               */
  uint32_t num_orch_phase_threads;
  _Alignas(64) sl_prof_bell host_bell;    /* rung on publish / contention; own line */

  /* device-private */
  sl_core_state *cores;                   /* [num_cores]                       */
  sl_aicpu_lifecycle_record *lifecycle;   /* [num_threads]                     */
  uint32_t *lifecycle_set;                /* [num_threads], 1 = filled         */
  uint64_t *last_ring_ns;                 /* [num_threads], 64 B apart: when the
                                             thread last rang host_bell         */
};

/* Allocate a region for `g` (no record buffers yet). NULL on a bad geometry, with
** the first bound it breaks and the value written to why (may be NULL); the
** allocation itself cannot fail (sl_rt_mem). */
sl_devprof *sl_devprof_create(const sl_devprof_geometry *g, char *why, size_t why_len);
void sl_devprof_destroy(sl_devprof *dp);

/* Pool instances of a kind: cores for the task kinds, threads for the phase kinds. */
int sl_devprof_pool_count(const sl_devprof *dp, unsigned kind);
static inline sl_buffer_pool *sl_devprof_pool(sl_devprof *dp, unsigned kind, int index) {
  return &dp->pools[kind][index];
}
/* Does this pool ever receive buffers at the run's level / thread layout?
** Inline: the phase hooks ask on every record. */
static inline int sl_devprof_pool_live(const sl_devprof *dp, unsigned kind, int index) {
  unsigned level = dp->g.level;
  switch (kind) {
  case SL_BUF_AICORE_TASK: return level >= SL_MIN_LEVEL_AICORE_TASK;
  case SL_BUF_AICPU_TASK: return level >= SL_MIN_LEVEL_AICPU_TASK;
  case SL_BUF_SCHED_PHASE:
    /* every scheduler thread; the orchestrator only when it is the sole thread */
    return level >= SL_MIN_LEVEL_SCHED_PHASE &&
           (index < dp->g.num_threads - 1 || dp->g.num_threads == 1);
  case SL_BUF_ORCH_PHASE: return level >= SL_MIN_LEVEL_ORCH_PHASE && index == 0;
  default: return 0;
  }
}

/* The ready ring of AICPU thread `q`. */
static inline sl_ready_ring sl_devprof_ring(sl_devprof *dp, int q) {
  sl_ready_ring r = {dp->rq_entries + (size_t)q * dp->g.readyqueue_size,
                     dp->rq_head + (size_t)q * 16, dp->rq_tail + (size_t)q * 16,
                     dp->g.readyqueue_size};
  return r;
}

/* The count word that follows a buffer's records. */
static inline uint32_t *sl_devprof_buffer_count(const sl_devprof *dp, unsigned kind, void *buf) {
  return (uint32_t *)((char *)buf + dp->record_size[kind] * dp->g.records[kind]);
}

/* Host: prepare a buffer before it enters a free queue (AICore buffers get
** every slot marked uncommitted so a never-written slot is recognisable). */
void sl_devprof_prepare_buffer(const sl_devprof *dp, unsigned kind, void *buf);

/* Host, after the device threads are joined: records an instance still holds
** in an active (unpublished) buffer — non-zero means a missing flush. */
uint64_t sl_devprof_unflushed(const sl_devprof *dp, unsigned kind, int index);

#endif /* SL_DEVPROF_REGION_H */
