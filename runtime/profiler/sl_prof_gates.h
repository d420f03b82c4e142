/*
** sl_prof_gates.h — how a device producer gets an empty buffer and hands over
** a full one. Without back-pressure both are one attempt (an empty free queue
** or a full ready queue becomes a counted drop). With back-pressure the
** producer raises the matching `*_contended` flag and spins (yielding) until
** the host makes room or the timeout passes; after every publish it also parks
** while the host holds the ready-queue freeze open (dual freeze, see
** host/collector: the replenish thread opens it on contention and releases it
** once every ready queue is empty and every free queue is topped up).
*/
#ifndef SL_PROF_GATES_H
#define SL_PROF_GATES_H

#include "sl_devprof_region.h"

/* An empty buffer from `pool`'s free queue, 0 if none (after the gate). */
uint64_t sl_gate_pop_free(sl_devprof *dp, sl_buffer_pool *pool);
/* Publish a full buffer on AICPU thread q's ready queue. 0 ok, -1 not published. */
int sl_gate_push_ready(sl_devprof *dp, int q, uint32_t kind, uint32_t index, uint64_t buf, uint32_t seq);
/* Monotonic nanoseconds (timeouts only; never written into records). */
uint64_t sl_prof_now_ns(void);

#endif /* SL_PROF_GATES_H */
