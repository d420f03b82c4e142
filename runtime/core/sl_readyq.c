/*
** sl_readyq.c — a mutex-guarded FIFO of ready tasks with SPMD block claiming.
**
** The queue is tasks[head, n), an array grown by the runtime's one growth rule
** (SL_RT_PUSH): a push appends, a pop advances head. Taking the front's blocks one
** at a time leaves the task at the front until its last block is claimed. The array
** restarts at 0 whenever it empties, and a push first moves the waiting tasks down
** once the taken front is as long as they are, so the array stays within twice the
** longest backlog and every task is moved O(1) times on average. `depth` mirrors
** n - head for lock-free peeks (a hint: the count under the mutex is the truth).
*/
#include <string.h>

#include "sl_readyq.h"
#include "sl_rt_internal.h"
#include "sl_rt_mem.h"

int sl_readyq_init(sl_readyq *q) {
  q->cap = 64;
  q->head = q->n = 0;
  q->tasks = sl_rt_alloc(q->cap * sizeof *q->tasks);
  atomic_init(&q->depth, 0);
  return pthread_mutex_init(&q->mu, NULL) ? -1 : 0;
}

void sl_readyq_free(sl_readyq *q) {
  if (!q->tasks) return;
  sl_rt_free(q->tasks);
  q->tasks = NULL;
  pthread_mutex_destroy(&q->mu);
}

void sl_readyq_push(sl_readyq *q, sl_rt_task *t) {
  pthread_mutex_lock(&q->mu);
  if (q->head && q->head >= q->n - q->head) {
    memmove(q->tasks, q->tasks + q->head, (q->n - q->head) * sizeof *q->tasks);
    q->n -= q->head;
    q->head = 0;
  }
  *SL_RT_PUSH(q->tasks, q->n, q->cap) = t;
  atomic_fetch_add_explicit(&q->depth, 1, memory_order_relaxed);
  pthread_mutex_unlock(&q->mu);
}

/* The front task leaves the queue (mutex held, queue not empty). */
static void take_front(sl_readyq *q) {
  if (++q->head == q->n) q->head = q->n = 0;
  atomic_fetch_sub_explicit(&q->depth, 1, memory_order_relaxed);
}

sl_rt_task *sl_readyq_pop_block(sl_readyq *q, int *block) {
  pthread_mutex_lock(&q->mu);
  if (q->head == q->n) {
    pthread_mutex_unlock(&q->mu);
    return NULL;
  }
  sl_rt_task *t = q->tasks[q->head];
  *block = t->next_block++;
  if (t->next_block >= t->block_num) take_front(q);
  pthread_mutex_unlock(&q->mu);
  return t;
}

sl_rt_task *sl_readyq_pop_task(sl_readyq *q) {
  pthread_mutex_lock(&q->mu);
  sl_rt_task *t = NULL;
  if (q->head != q->n) {
    t = q->tasks[q->head];
    t->next_block = t->block_num;
    take_front(q);
  }
  pthread_mutex_unlock(&q->mu);
  return t;
}
