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
  sl_bell_ring(&dp->host_bell); /* a drain thread may be asleep: wake it */
  if (dp->g.backpressure && sl_ld_acq32(&dp->bp->rq_freeze_active)) {
    /* The host is catching up: park until it releases the freeze. The entry is
    ** already published, so a timeout here loses nothing. */
    uint64_t deadline = sl_prof_now_ns() + dp->g.backpressure_timeout_ns;
    while (sl_ld_acq32(&dp->bp->rq_freeze_active) && sl_prof_now_ns() <= deadline) sched_yield();
  }
  return 0;
}
