/*
** sl_prof_gates.c — the pop and push gates of the device producers.
*/
#include "sl_prof_gates.h"

#include <sched.h>
#include <time.h>

uint64_t sl_prof_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t sl_gate_pop_free(sl_devprof *dp, sl_buffer_pool *pool) {
  uint64_t buf = sl_fq_pop(&pool->free_queue, dp->g.slot_count);
  if (buf || !dp->g.backpressure) return buf;
  /* Contended: ask the host for a freeze (it refills every free queue) and
  ** wait for an entry; only the timeout gives up. */
  sl_st_rel32(&dp->bp->fq_contended, 1);
  sl_bell_ring(&dp->host_bell);
  uint64_t deadline = sl_prof_now_ns() + dp->g.backpressure_timeout_ns;
  for (;;) {
    sched_yield();
    buf = sl_fq_pop(&pool->free_queue, dp->g.slot_count);
    if (buf) return buf;
    if (sl_ld_acq32(&dp->bp->fq_contended) == 0 && sl_ld_acq32(&dp->bp->fq_freeze_active) == 0) {
      sl_st_rel32(&dp->bp->fq_contended, 1); /* host consumed the flag but no freeze: ask again */
      sl_bell_ring(&dp->host_bell);
    }
    if (sl_prof_now_ns() > deadline) return 0;
  }
}

/* Batched doorbell: a publish rings the host bell only when the host is
** needed soon — the publishing pool has at most two empty buffers left
** queued, the ready ring is a quarter full, back-pressure is on (a producer
** may be about to wait) — or when this thread has not rung for
** SL_PROF_RING_GAP_NS. The drain thread a ring wakes takes every buffer
** published since in one pass, so at high record rates one wakeup (one
** system call, one context switch on a core the device threads use) serves
** many buffers instead of one each; at low rates every publish still rings. */
#define SL_PROF_RING_GAP_NS 500000u

static int host_needed_soon(sl_devprof *dp, int q, const sl_ready_ring *ring, uint32_t kind, uint32_t index) {
  if (dp->g.backpressure) return 1;
  const sl_free_queue *fq = &dp->pools[kind][index].free_queue;
  uint32_t free_left = sl_ld_acq32(&fq->tail) - sl_ld_rlx32(&fq->head);
  uint32_t queued = (sl_ld_rlx32(ring->tail) + ring->size - sl_ld_acq32(ring->head)) % ring->size;
  if (free_left <= 2 || queued * 4 >= ring->size) return 1;
  uint64_t now = sl_prof_now_ns(), *last = &dp->last_ring_ns[(size_t)q * 8];
  if (now - *last < SL_PROF_RING_GAP_NS) return 0;
  *last = now;
  return 1;
}

int sl_gate_push_ready(sl_devprof *dp, int q, uint32_t kind, uint32_t index, uint64_t buf, uint32_t seq) {
  sl_ready_ring ring = sl_devprof_ring(dp, q);
  if (sl_rq_push(&ring, kind, index, buf, seq) != 0) {
    if (!dp->g.backpressure) return -1;
    sl_st_rel32(&dp->bp->rq_contended, 1);
    sl_bell_ring(&dp->host_bell);
    uint64_t deadline = sl_prof_now_ns() + dp->g.backpressure_timeout_ns;
    for (;;) {
      sched_yield();
      if (sl_rq_push(&ring, kind, index, buf, seq) == 0) break;
      if (sl_prof_now_ns() > deadline) return -1;
    }
  }
  if (host_needed_soon(dp, q, &ring, kind, index)) sl_bell_ring(&dp->host_bell); /* a drain may be asleep */
  if (dp->g.backpressure && sl_ld_acq32(&dp->bp->rq_freeze_active)) {
    /* The host is catching up: park until it releases the freeze. The entry is
    ** already published, so a timeout here loses nothing. */
    uint64_t deadline = sl_prof_now_ns() + dp->g.backpressure_timeout_ns;
    while (sl_ld_acq32(&dp->bp->rq_freeze_active) && sl_prof_now_ns() <= deadline) sched_yield();
  }
  return 0;
}
