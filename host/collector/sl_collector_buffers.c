/*
** sl_collector_buffers.c — where record buffers come from and go back to.
**
** Every buffer is allocated here (and remembered, so destroy frees each one
** exactly once whatever state the run ended in). A live pool is seeded with
** its platform count: up to min(slot_count, count - 1) straight into its free
** queue (the same limit every later top-up keeps), the rest into the kind's
** recycled lane. After the collector copies a buffer out it goes on
** the done list; the replenish thread moves it back to the recycled lane,
** and drain threads top free queues up from there. Unless the configuration
** fixes the buffer count, lanes that run below their watermark grow, up to
** four times the initial count per kind.
*/
#include "sl_collector_internal.h"
#include "sl_mem.h"
#include "sl_vec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sl_buflist_init(sl_buflist *l) {
  pthread_mutex_init(&l->mu, NULL);
  l->bufs = NULL;
  l->n = l->cap = 0;
}

void sl_buflist_destroy(sl_buflist *l) {
  pthread_mutex_destroy(&l->mu);
  sl_mem_free(l->bufs);
  l->bufs = NULL;
  l->n = l->cap = 0;
}

void sl_buflist_push(sl_buflist *l, uint64_t buf) {
  pthread_mutex_lock(&l->mu);
  *sl_array_push(l->bufs, l->n, l->cap) = buf;
  pthread_mutex_unlock(&l->mu);
}

static uint64_t buflist_pop(sl_buflist *l) {
  pthread_mutex_lock(&l->mu);
  uint64_t b = l->n ? l->bufs[--l->n] : 0;
  pthread_mutex_unlock(&l->mu);
  return b;
}

/* A new, prepared buffer of `kind` (device memory through the transport),
** registered for destroy; 0 on failure. */
static uint64_t new_buffer(sl_collector *c, unsigned kind) {
  void *host = NULL;
  uint64_t dev = sl_coll_buf_alloc(c, c->dp->buffer_bytes[kind], &host);
  if (!dev) return 0;
  sl_coll_prepare(c, kind, dev);
  sl_buflist_push(&c->blocks, dev);
  c->allocated[kind]++;
  return dev;
}

/* Push onto a free queue of the host view, then write back exactly what changed:
** the slot, then the tail that publishes it. */
static int fq_push(sl_collector *c, sl_free_queue *fq, uint64_t buf) {
  unsigned slots = c->dp->g.slot_count;
  uint32_t tail = sl_ld_rlx32(&fq->tail);
  if (sl_fq_push(fq, slots, buf) != 0) return -1;
  sl_coll_wb(c, &fq->buffer_ptrs[tail % slots], sizeof(uint64_t));
  sl_coll_wb(c, &fq->tail, sizeof(uint32_t));
  return 0;
}

int sl_coll_buffers_init(sl_collector *c) {
  sl_devprof *dp = c->dp;
  sl_buflist_init(&c->done);
  sl_buflist_init(&c->blocks);
  for (unsigned k = 0; k < SL_BUF_KIND_COUNT; k++) {
    sl_buflist_init(&c->recycled[k]);
    int n = sl_devprof_pool_count(dp, k);
    c->pool_mu[k] = sl_mem_calloc((size_t)n, sizeof(pthread_mutex_t));
    for (int i = 0; i < n; i++) pthread_mutex_init(&c->pool_mu[k][i], NULL);
  }
  unsigned slots = dp->g.slot_count;
  for (unsigned k = 0; k < SL_BUF_KIND_COUNT; k++) {
    /* A pool never queues more than its own share minus the active buffer,
    ** so with a fixed buffer count one pool cannot hoard what another needs. */
    unsigned share = c->per_pool[k] > 1 ? c->per_pool[k] - 1 : 1;
    c->fq_limit[k] = share < slots ? share : slots;
    int live = 0;
    for (int i = 0; i < sl_devprof_pool_count(dp, k); i++) {
      if (!sl_devprof_pool_live(dp, k, i)) continue;
      live++;
      sl_free_queue *fq = &c->hv->pools[k][i].free_queue;
      for (unsigned b = 0; b < c->per_pool[k]; b++) {
        uint64_t buf = new_buffer(c, k);
        if (!buf) return -1;
        if (b >= c->fq_limit[k] || fq_push(c, fq, buf) != 0) sl_buflist_push(&c->recycled[k], buf);
      }
    }
    c->max_buffers[k] = c->cfg.fixed_buffers ? c->allocated[k] : c->allocated[k] * 4;
    /* enough spare that every live pool can be refilled once without waiting */
    c->watermark[k] = c->cfg.fixed_buffers ? 0 : (size_t)live;
  }
  return 0;
}

void sl_coll_buffers_free(sl_collector *c) {
  for (size_t i = 0; i < c->blocks.n; i++) sl_coll_buf_free(c, c->blocks.bufs[i]);
  sl_buflist_destroy(&c->blocks);
  sl_buflist_destroy(&c->done);
  for (unsigned k = 0; k < SL_BUF_KIND_COUNT; k++) {
    sl_buflist_destroy(&c->recycled[k]);
    if (c->pool_mu[k] && c->dp)
      for (int i = 0; i < sl_devprof_pool_count(c->dp, k); i++) pthread_mutex_destroy(&c->pool_mu[k][i]);
    sl_mem_free(c->pool_mu[k]);
    c->pool_mu[k] = NULL;
  }
}

unsigned sl_coll_topup(sl_collector *c, unsigned kind, int index) {
  sl_devprof *dp = c->dp;
  if (!sl_devprof_pool_live(dp, kind, index)) return 0;
  sl_free_queue *fq = &c->hv->pools[kind][index].free_queue;
  unsigned pushed = 0;
  pthread_mutex_lock(&c->pool_mu[kind][index]);
  while (sl_fq_depth(fq) < c->fq_limit[kind]) {
    uint64_t buf = buflist_pop(&c->recycled[kind]);
    if (!buf) break;
    if (fq_push(c, fq, buf) != 0) { /* cannot happen: we are the only writer */
      sl_buflist_push(&c->recycled[kind], buf);
      break;
    }
    pushed++;
  }
  pthread_mutex_unlock(&c->pool_mu[kind][index]);
  return pushed;
}

unsigned sl_coll_topup_all(sl_collector *c) {
  unsigned pushed = 0;
  for (unsigned k = 0; k < SL_BUF_KIND_COUNT; k++)
    for (int i = 0; i < sl_devprof_pool_count(c->dp, k); i++) pushed += sl_coll_topup(c, k, i);
  return pushed;
}

size_t sl_coll_recycle(sl_collector *c) {
  size_t moved = 0;
  /* done -> recycled, by the kind recorded with each buffer */
  pthread_mutex_lock(&c->done.mu);
  size_t n = c->done.n;
  uint64_t *items = NULL;
  if (n) {
    items = c->done.bufs;
    c->done.bufs = NULL;
    c->done.n = c->done.cap = 0;
  }
  pthread_mutex_unlock(&c->done.mu);
  for (size_t i = 0; i < n; i++) {
    unsigned kind = (unsigned)(items[i] & 3u); /* kind rides in the low bits (64-aligned) */
    uint64_t buf = items[i] & ~(uint64_t)63;
    sl_coll_prepare(c, kind, buf);
    sl_buflist_push(&c->recycled[kind], buf);
    moved++;
  }
  sl_mem_free(items);
  /* growth */
  for (unsigned k = 0; k < SL_BUF_KIND_COUNT; k++) {
    pthread_mutex_lock(&c->recycled[k].mu);
    size_t have = c->recycled[k].n;
    pthread_mutex_unlock(&c->recycled[k].mu);
    while (have < c->watermark[k] && c->allocated[k] < c->max_buffers[k]) {
      uint64_t buf = new_buffer(c, k);
      if (!buf) break;
      sl_buflist_push(&c->recycled[k], buf);
      have++;
      moved++;
    }
  }
  return moved;
}

/* ---- merged per-instance view --------------------------------------------------- */

sl_coll_view sl_coll_merged(const sl_collector *c, unsigned kind, int index) {
  sl_coll_view v = {NULL, 0, 0};
  size_t recsz = c->dp->record_size[kind], total = 0, chunks = 0;
  const sl_coll_chunk *only = NULL;
  for (int s = 0; s < c->nshards; s++)
    for (const sl_coll_chunk *ch = c->shards[s].records[kind][index].head; ch; ch = ch->next)
      if (ch->n) {
        total += ch->n;
        chunks++;
        only = ch;
      }
  if (chunks == 0) return v;
  if (chunks == 1) { /* small captures: one chunk holds them all */
    v.data = only->data;
    v.n = total;
    return v;
  }
  unsigned char *d = sl_mem_array(NULL, total, recsz);
  size_t at = 0;
  for (int s = 0; s < c->nshards; s++) /* shard order, then chunk order */
    for (const sl_coll_chunk *ch = c->shards[s].records[kind][index].head; ch; ch = ch->next) {
      memcpy(d + at * recsz, ch->data, ch->n * recsz);
      at += ch->n;
    }
  v.data = d;
  v.n = total;
  v.owned = 1;
  return v;
}

void sl_coll_view_free(sl_coll_view *v) {
  if (v->owned) sl_mem_free((void *)v->data);
  v->data = NULL;
  v->n = 0;
  v->owned = 0;
}
