/* ** sl_readyq.c — mutex-guarded ring of ready tasks with SPMD block claiming. */
#include "sl_readyq.h"


#include "sl_rt_internal.h"
#include "sl_rt_mem.h"

int sl_readyq_init(sl_readyq *q) {
  q->cap = 64;
  q->head = q->count = 0;
  q->ring = sl_rt_alloc(q->cap * sizeof *q->ring);
  atomic_init(&q->depth, 0);
  return pthread_mutex_init(&q->mu, NULL) ? -1 : 0;
}

void sl_readyq_free(sl_readyq *q) {
  if (!q->ring) return;
  sl_rt_free(q->ring);
  q->ring = NULL;
  pthread_mutex_destroy(&q->mu);
}

static void grow(sl_readyq *q) {
  size_t ncap = q->cap * 2;
  sl_rt_task **n = sl_rt_alloc(ncap * sizeof *n);
  for (size_t i = 0; i < q->count; i++) n[i] = q->ring[(q->head + i) % q->cap];
  sl_rt_free(q->ring);
  q->ring = n;
  q->cap = ncap;
  q->head = 0;
}

void sl_readyq_push(sl_readyq *q, sl_rt_task *t) {
  pthread_mutex_lock(&q->mu);
  if (q->count == q->cap) grow(q);
  q->ring[(q->head + q->count) % q->cap] = t;
  q->count++;
  atomic_fetch_add_explicit(&q->depth, 1, memory_order_relaxed);
  pthread_mutex_unlock(&q->mu);
}

sl_rt_task *sl_readyq_pop_block(sl_readyq *q, int *block) {
  pthread_mutex_lock(&q->mu);
  if (!q->count) {
    pthread_mutex_unlock(&q->mu);
    return NULL;
  }
  sl_rt_task *t = q->ring[q->head];
  *block = t->next_block++;
  if (t->next_block >= t->block_num) {
    q->head = (q->head + 1) % q->cap;
    q->count--;
    atomic_fetch_sub_explicit(&q->depth, 1, memory_order_relaxed);
  }
  pthread_mutex_unlock(&q->mu);
  return t;
}

sl_rt_task *sl_readyq_pop_task(sl_readyq *q) {
  pthread_mutex_lock(&q->mu);
  sl_rt_task *t = NULL;
  if (q->count) {
    t = q->ring[q->head];
    t->next_block = t->block_num;
    q->head = (q->head + 1) % q->cap;
    q->count--;
    atomic_fetch_sub_explicit(&q->depth, 1, memory_order_relaxed);
  }
  pthread_mutex_unlock(&q->mu);
  return t;
}
