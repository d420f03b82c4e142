/*
** sl_readyq.h — a ready queue of tasks shared by the scheduler threads. SPMD tasks
** stay at the front until every block has been claimed. A mutex guards it; the
** depth is also kept in an atomic so idle schedulers can look without locking.
*/
#ifndef SL_READYQ_H
#define SL_READYQ_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

struct sl_rt_task;

typedef struct sl_readyq {
  pthread_mutex_t mu;
  struct sl_rt_task **tasks; /* the queue is tasks[head, n) (sl_readyq.c) */
  size_t head, n, cap;
  atomic_int depth; /* entries (tasks) in the queue */
} sl_readyq;

int sl_readyq_init(sl_readyq *q);
void sl_readyq_free(sl_readyq *q);
void sl_readyq_push(sl_readyq *q, struct sl_rt_task *t); /* grows as needed (sl_rt_mem never fails) */
/* Claim the next block of the front task: returns the task and sets *block, or NULL
** when empty. The task leaves the queue when its last block is claimed. */
struct sl_rt_task *sl_readyq_pop_block(sl_readyq *q, int *block);
/* Claim the front task whole (every block), or NULL when empty. */
struct sl_rt_task *sl_readyq_pop_task(sl_readyq *q);
static inline int sl_readyq_depth(sl_readyq *q) {
  return atomic_load_explicit(&q->depth, memory_order_relaxed);
}

#endif /* SL_READYQ_H */
