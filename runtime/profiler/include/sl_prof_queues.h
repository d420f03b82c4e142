/*
** sl_prof_queues.h — the two lock-free single-producer / single-consumer
** rings of the profiler data path, both ends of each.
**
** Free queue (one per pool, in sl_buffer_pool): the host pushes empty buffers,
** the device (AICPU) pops them. Indices are free-running u32; slot = index %
** slots; empty when head == tail, full when tail - head >= slots.
**
** Ready queue (one per AICPU thread): the device pushes full buffers, a host
** drain thread pops them. Indices are stored modulo `size`; empty when head ==
** tail, full when (tail + 1) % size == head, so `size - 1` entries are usable.
**
** Each end publishes its index with a release store after touching the slot and
** reads the other end's index with an acquire load before touching it, so a
** slot is never read and written at once and its contents travel with it.
*/
#ifndef SL_PROF_QUEUES_H
#define SL_PROF_QUEUES_H

#include <stdint.h>

#include "sl_prof_atomic.h"
#include "sl_records.h"

/* ---- free queue ------------------------------------------------------------------ */

/* Host side. 0 = pushed, -1 = full. One host writer per queue at a time. */
static inline int sl_fq_push(sl_free_queue *fq, unsigned slots, uint64_t buf) {
  uint32_t tail = sl_ld_rlx32(&fq->tail);
  uint32_t head = sl_ld_acq32(&fq->head);
  if ((uint32_t)(tail - head) >= slots) return -1;
  sl_st_rlx64(&fq->buffer_ptrs[tail % slots], buf);
  sl_st_rel32(&fq->tail, tail + 1);
  return 0;
}

/* Host side: entries currently queued (a snapshot). */
static inline unsigned sl_fq_depth(const sl_free_queue *fq) {
  return (unsigned)(sl_ld_acq32(&fq->tail) - sl_ld_acq32(&fq->head));
}

/* Device side. 0 = empty. */
static inline uint64_t sl_fq_pop(sl_free_queue *fq, unsigned slots) {
  uint32_t head = sl_ld_rlx32(&fq->head);
  uint32_t tail = sl_ld_acq32(&fq->tail);
  if (head == tail) return 0;
  uint64_t buf = sl_ld_rlx64(&fq->buffer_ptrs[head % slots]);
  sl_st_rel32(&fq->head, head + 1);
  return buf;
}

/* ---- ready queue ----------------------------------------------------------------- */

typedef struct sl_ready_ring {
  sl_ready_entry *entries; /* `size` entries                        */
  uint32_t *head;          /* consumer index (host drain thread)     */
  uint32_t *tail;          /* producer index (the AICPU thread)      */
  uint32_t size;
} sl_ready_ring;

/* Device side: space for one more entry? */
static inline int sl_rq_has_space(const sl_ready_ring *r) {
  uint32_t tail = sl_ld_rlx32(r->tail);
  uint32_t head = sl_ld_acq32(r->head);
  return (tail + 1) % r->size != head;
}

/* Device side. 0 = pushed, -1 = full. */
static inline int sl_rq_push(sl_ready_ring *r, uint32_t kind, uint32_t index, uint64_t buf,
                             uint32_t seq) {
  uint32_t tail = sl_ld_rlx32(r->tail);
  uint32_t head = sl_ld_acq32(r->head);
  uint32_t next = (tail + 1) % r->size;
  if (next == head) return -1;
  sl_ready_entry *e = &r->entries[tail];
  e->core_index = index;
  e->kind = kind;
  e->buffer_ptr = buf;
  e->buffer_seq = seq;
  sl_st_rel32(r->tail, next);
  return 0;
}

/* Host side. 1 = popped into *out, 0 = empty, -1 = corrupt indices. */
static inline int sl_rq_pop(sl_ready_ring *r, sl_ready_entry *out) {
  uint32_t head = sl_ld_rlx32(r->head);
  uint32_t tail = sl_ld_acq32(r->tail);
  if (head >= r->size || tail >= r->size) return -1;
  if (head == tail) return 0;
  *out = r->entries[head];
  sl_st_rel32(r->head, (head + 1) % r->size);
  return 1;
}

/* Host side: is the ring empty right now? */
static inline int sl_rq_empty(const sl_ready_ring *r) {
  return sl_ld_acq32(r->head) == sl_ld_acq32(r->tail);
}

#endif /* SL_PROF_QUEUES_H */
