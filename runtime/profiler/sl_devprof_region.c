/*
** sl_devprof_region.c — creation of the shared region from a geometry, and
** the host-side questions about it (pool liveness, unflushed records).
*/
#include "sl_devprof_region.h"
#include "sl_levels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sl_rt_mem.h"

#define FQ_SLOTS (sizeof(((sl_free_queue *)0)->buffer_ptrs) / sizeof(uint64_t))

static void *zalloc64(size_t bytes) {
  size_t rounded = (bytes + 63) & ~(size_t)63;
  void *p = sl_rt_aligned(64, rounded ? rounded : 64);
  memset(p, 0, rounded ? rounded : 64);
  return p;
}

/* The refusal of a geometry: the bound it breaks and the value, kept for the caller. */
static int bad(char *why, size_t why_len, const char *msg, long v) {
  if (why && why_len) snprintf(why, why_len, "%s (%ld)", msg, v);
  return -1;
}

static int check_geometry(const sl_devprof_geometry *g, char *why, size_t why_len) {
  if (g->level <= SL_LEVEL_DISABLED || g->level > SL_LEVEL_MAX)
    return bad(why, why_len, "perf level out of range (0 = disabled has no region)", (long)g->level);
  if (g->num_cores < 1 || g->num_cores > 4096) return bad(why, why_len, "bad core count", g->num_cores);
  if (g->num_threads < 1 || g->num_threads > 127) return bad(why, why_len, "bad AICPU thread count", g->num_threads);
  for (unsigned k = 0; k < SL_BUF_KIND_COUNT; k++)
    if (g->records[k] < 1 || g->records[k] > (1u << 24))
      return bad(why, why_len, "records per buffer must be 1..16777216", (long)g->records[k]);
  if (g->slot_count < 1 || g->slot_count > FQ_SLOTS)
    return bad(why, why_len, "free-queue slot count out of range", (long)g->slot_count);
  if (g->readyqueue_size < 2 || g->readyqueue_size > (1u << 24))
    return bad(why, why_len, "ready-queue size must be >= 2", (long)g->readyqueue_size);
  return 0;
}

int sl_devprof_pool_count(const sl_devprof *dp, unsigned kind) {
  return (kind == SL_BUF_AICPU_TASK || kind == SL_BUF_AICORE_TASK) ? dp->g.num_cores
                                                                   : dp->g.num_threads;
}

sl_devprof *sl_devprof_create(const sl_devprof_geometry *g, char *why, size_t why_len) {
  if (check_geometry(g, why, why_len) != 0) return NULL;
  sl_devprof *dp = zalloc64(sizeof *dp);
  dp->g = *g;
  dp->record_size[SL_BUF_AICPU_TASK] = sizeof(sl_aicpu_task_record);
  dp->record_size[SL_BUF_SCHED_PHASE] = sizeof(sl_sched_phase_record);
  dp->record_size[SL_BUF_ORCH_PHASE] = sizeof(sl_orch_phase_record);
  dp->record_size[SL_BUF_AICORE_TASK] = sizeof(sl_aicore_task_record);
  for (unsigned k = 0; k < SL_BUF_KIND_COUNT; k++)
    dp->buffer_bytes[k] = (dp->record_size[k] * g->records[k] + sizeof(uint32_t) + 63) & ~(size_t)63;
  dp->orch_thread = g->num_threads - 1;

  size_t nt = (size_t)g->num_threads, nc = (size_t)g->num_cores;
  dp->rq_entries = zalloc64(sizeof(sl_ready_entry) * nt * g->readyqueue_size);
  dp->rq_head = zalloc64(64 * nt); /* one cache line per index: 16 u32 apart */
  dp->rq_tail = zalloc64(64 * nt);
  dp->bp = zalloc64(sizeof(sl_backpressure));
  for (unsigned k = 0; k < SL_BUF_KIND_COUNT; k++)
    dp->pools[k] = zalloc64(sizeof(sl_buffer_pool) * (size_t)sl_devprof_pool_count(dp, k));
  dp->core_to_thread = zalloc64(sizeof(int32_t) * nc);
  dp->cores = zalloc64(sizeof(sl_core_state) * nc);
  dp->lifecycle = zalloc64(sizeof(sl_aicpu_lifecycle_record) * nt);
  dp->lifecycle_set = zalloc64(sizeof(uint32_t) * nt);
  dp->sched_core = zalloc64(sizeof(int32_t) * nt);
  dp->last_ring_ns = zalloc64(64 * nt); /* one line per thread: 8 u64 apart */
  for (size_t c = 0; c < nc; c++) {
    dp->core_to_thread[c] = -1;
    /* no owner until a scheduler dispatches to the core: a zero here would
    ** let thread 0 look at (race on) the stash of another thread's core */
    atomic_init(&dp->cores[c].owner, -1);
  }
  for (size_t t = 0; t < nt; t++) dp->sched_core[t] = -1;
  if (g->level >= SL_MIN_LEVEL_SCHED_PHASE)
    dp->num_sched_phase_threads = g->num_threads > 1 ? (uint32_t)g->num_threads - 1 : 1;
  if (g->level >= SL_MIN_LEVEL_ORCH_PHASE) dp->num_orch_phase_threads = 1;
  return dp;
}

void sl_devprof_destroy(sl_devprof *dp) {
  if (!dp) return;
  sl_rt_free(dp->rq_entries);
  sl_rt_free(dp->rq_head);
  sl_rt_free(dp->rq_tail);
  sl_rt_free(dp->bp);
  for (unsigned k = 0; k < SL_BUF_KIND_COUNT; k++) sl_rt_free(dp->pools[k]);
  sl_rt_free(dp->core_to_thread);
  sl_rt_free(dp->cores);
  sl_rt_free(dp->lifecycle);
  sl_rt_free(dp->lifecycle_set);
  sl_rt_free(dp->sched_core);
  sl_rt_free(dp->last_ring_ns);
  sl_rt_free(dp);
}

void sl_devprof_prepare_buffer(const sl_devprof *dp, unsigned kind, void *buf) {
  if (kind != SL_BUF_AICORE_TASK) return;
  sl_aicore_task_record *r = buf;
  for (unsigned i = 0; i < dp->g.records[kind]; i++) r[i].reg_task_id = SL_AICORE_UNCOMMITTED;
}

uint64_t sl_devprof_unflushed(const sl_devprof *dp, unsigned kind, int index) {
  if (kind == SL_BUF_AICORE_TASK) {
    const sl_core_state *cs = &dp->cores[index];
    uint64_t n = cs->stash.buf ? cs->stash.count : 0;
    if (cs->gen_buf) n += cs->dispatched - cs->gen_start;
    return n;
  }
  const sl_active_head *h = &dp->pools[kind][index].head;
  uint64_t buf = sl_ld_acq64(&h->current_buf_ptr);
  if (!buf) return 0;
  return *sl_devprof_buffer_count(dp, kind, (void *)(uintptr_t)buf);
}
