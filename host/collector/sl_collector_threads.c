/*
** sl_collector_threads.c — the host threads that stream buffers out while the
** device runs.
**
**  drain shard i    polls the ready queues q = i, i+n, ... ; for each entry it
**                   tops the originating pool's free queue up from the
**                   recycled lane and hands the entry to collector shard i;
**                   idle, it also tops up the pools it owns (index % n == i).
**  collector i      copies the records of each handed-off buffer into host
**                   vectors, then puts the buffer on the done list.
**  replenish        done list -> recycled lanes (+ growth), and the
**                   back-pressure freeze state machine.
**
** Drain threads never block on the device; the hand-off grows instead of
** dropping, so the host never loses a buffer it has popped.
*/
#include "sl_collector_internal.h"
#include "sl_prof_atomic.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void nap_us(unsigned us) {
  struct timespec ts = {0, (long)us * 1000};
  nanosleep(&ts, NULL);
}

int sl_vec_append(sl_vec *v, const void *recs, size_t n, size_t recsz) {
  if (v->n + n > v->cap) {
    size_t cap = v->cap ? v->cap : 64;
    while (cap < v->n + n) cap *= 2;
    unsigned char *d = realloc(v->data, cap * recsz);
    if (!d) return -1;
    v->data = d;
    v->cap = cap;
  }
  memcpy(v->data + v->n * recsz, recs, n * recsz);
  v->n += n;
  return 0;
}

/* ---- hand-off ----------------------------------------------------------------- */

static int handoff_push(sl_handoff *h, const sl_ready_entry *e) {
  pthread_mutex_lock(&h->mu);
  if (h->n == h->cap) {
    size_t cap = h->cap ? h->cap * 2 : 64;
    sl_ready_entry *items = malloc(cap * sizeof *items);
    if (!items) {
      pthread_mutex_unlock(&h->mu);
      return -1;
    }
    for (size_t i = 0; i < h->n; i++) items[i] = h->items[(h->head + i) % h->cap];
    free(h->items);
    h->items = items;
    h->head = 0;
    h->cap = cap;
  }
  h->items[(h->head + h->n) % h->cap] = *e;
  h->n++;
  pthread_cond_signal(&h->cv);
  pthread_mutex_unlock(&h->mu);
  return 0;
}

/* 1 = got one, 0 = timed out / empty. */
static int handoff_pop(sl_handoff *h, sl_ready_entry *out, int wait) {
  pthread_mutex_lock(&h->mu);
  if (h->n == 0 && wait) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 100 * 1000 * 1000;
    if (ts.tv_nsec >= 1000000000) {
      ts.tv_sec++;
      ts.tv_nsec -= 1000000000;
    }
    pthread_cond_timedwait(&h->cv, &h->mu, &ts);
  }
  int got = 0;
  if (h->n) {
    *out = h->items[h->head];
    h->head = (h->head + 1) % h->cap;
    h->n--;
    got = 1;
  }
  pthread_mutex_unlock(&h->mu);
  return got;
}

/* ---- drain -------------------------------------------------------------------- */

static int frozen(const sl_collector *c) {
  return sl_ld_acq32(&c->dp->bp->rq_freeze_active) || sl_ld_acq32(&c->dp->bp->fq_freeze_active);
}

static int entry_valid(const sl_collector *c, const sl_ready_entry *e) {
  return e->kind < SL_BUF_KIND_COUNT && (int)e->core_index < sl_devprof_pool_count(c->dp, e->kind) &&
         e->buffer_ptr != 0 && (e->buffer_ptr & 63) == 0;
}

/* One pass over this shard's ready queues; returns entries handled. */
static size_t drain_pass(sl_shard *s) {
  sl_collector *c = s->c;
  size_t handled = 0;
  for (int q = s->index; q < c->dp->g.num_threads; q += c->nshards) {
    sl_ready_ring ring = sl_devprof_ring(c->dp, q);
    sl_ready_entry e;
    int rc;
    while ((rc = sl_rq_pop(&ring, &e)) == 1) {
      handled++;
      if (!entry_valid(c, &e)) {
        s->bad_entries++;
        continue;
      }
      /* During a freeze the replenish thread refills every queue itself. */
      if (!frozen(c)) sl_coll_topup(c, e.kind, (int)e.core_index);
      if (handoff_push(&s->handoff, &e) != 0) s->bad_entries++;
    }
    if (rc < 0) s->bad_entries++;
  }
  return handled;
}

static void topup_owned(sl_shard *s) {
  sl_collector *c = s->c;
  if (frozen(c)) return;
  for (unsigned k = 0; k < SL_BUF_KIND_COUNT; k++)
    for (int i = s->index; i < sl_devprof_pool_count(c->dp, k); i += c->nshards) sl_coll_topup(c, k, i);
}

/* Idle back-off: 64 quiet polls, then naps that double from 20 us to 1 ms,
** so an idle collector leaves the (few) host CPUs to the device threads. */
static unsigned backoff_us(unsigned naps) { return naps >= 6 ? 1000u : 20u << naps; }

static void *drain_main(void *arg) {
  sl_shard *s = arg;
  sl_collector *c = s->c;
  unsigned idle = 0, naps = 0;
  while (atomic_load(&c->running)) {
    if (drain_pass(s)) {
      idle = naps = 0;
      continue;
    }
    if (++idle % 64 == 0) {
      topup_owned(s);
      nap_us(backoff_us(naps++));
    }
  }
  drain_pass(s); /* the device threads are joined: one last full pass */
  return NULL;
}

/* ---- collector ---------------------------------------------------------------- */

void sl_coll_consume(sl_shard *s, const sl_ready_entry *e) {
  sl_collector *c = s->c;
  sl_devprof *dp = c->dp;
  unsigned kind = e->kind;
  int index = (int)e->core_index;
  void *buf = (void *)(uintptr_t)e->buffer_ptr;
  uint32_t count = *sl_devprof_buffer_count(dp, kind, buf);
  if (count > dp->g.records[kind]) {
    s->bad_entries++;
    count = dp->g.records[kind];
  }
  size_t recsz = dp->record_size[kind];
  sl_vec *v = &s->records[kind][index];
  if (kind == SL_BUF_AICORE_TASK) {
    /* copy committed runs; a slot never committed is not a record */
    const sl_aicore_task_record *r = buf;
    uint32_t i = 0;
    while (i < count) {
      uint32_t j = i;
      while (j < count && r[j].reg_task_id != SL_AICORE_UNCOMMITTED) j++;
      if (j > i && sl_vec_append(v, r + i, j - i, recsz) == 0) s->collected[kind][index] += j - i;
      if (j < count) s->uncommitted++;
      i = j + 1;
    }
  } else if (count && sl_vec_append(v, buf, count, recsz) == 0) {
    s->collected[kind][index] += count;
  }
}

static void *collect_main(void *arg) {
  sl_shard *s = arg;
  sl_collector *c = s->c;
  for (;;) {
    sl_ready_entry e;
    if (handoff_pop(&s->handoff, &e, 1)) {
      sl_coll_consume(s, &e);
      if (c->cfg.test_collect_delay_us) nap_us(c->cfg.test_collect_delay_us);
      /* the kind rides in the low bits of the 64-aligned address */
      sl_buflist_push(&c->done, e.buffer_ptr | e.kind);
      continue;
    }
    if (atomic_load(&c->execution_complete)) {
      pthread_mutex_lock(&s->handoff.mu);
      size_t left = s->handoff.n;
      pthread_mutex_unlock(&s->handoff.mu);
      if (!left) break;
    }
  }
  return NULL;
}

/* ---- replenish + freeze ------------------------------------------------------- */

static int all_ready_empty(sl_collector *c) {
  for (int q = 0; q < c->dp->g.num_threads; q++) {
    sl_ready_ring ring = sl_devprof_ring(c->dp, q);
    if (!sl_rq_empty(&ring)) return 0;
  }
  return 1;
}

/* Dual freeze: open on contention (flag set before the request is cleared,
** so the device never sees neither), release when the host has caught up. */
static int update_freeze(sl_collector *c) {
  sl_backpressure *bp = c->dp->bp;
  int acted = 0;
  if (!sl_ld_acq32(&bp->rq_freeze_active) && sl_ld_acq32(&bp->rq_contended)) {
    sl_st_rel32(&bp->rq_freeze_active, 1);
    sl_st_rel32(&bp->rq_contended, 0);
    atomic_fetch_add(&c->freezes, 1);
    acted = 1;
  }
  if (!sl_ld_acq32(&bp->fq_freeze_active) && sl_ld_acq32(&bp->fq_contended)) {
    sl_st_rel32(&bp->fq_freeze_active, 1);
    sl_st_rel32(&bp->fq_contended, 0);
    atomic_fetch_add(&c->freezes, 1);
    acted = 1;
  }
  if (sl_ld_acq32(&bp->rq_freeze_active) || sl_ld_acq32(&bp->fq_freeze_active)) {
    unsigned pushed = sl_coll_topup_all(c);
    if (pushed == 0 && all_ready_empty(c)) {
      sl_st_rel32(&bp->rq_freeze_active, 0);
      sl_st_rel32(&bp->fq_freeze_active, 0);
    }
    acted = 1;
  }
  return acted;
}

static void *replenish_main(void *arg) {
  sl_collector *c = arg;
  unsigned naps = 0;
  while (atomic_load(&c->running)) {
    size_t work = sl_coll_recycle(c);
    if (c->dp->g.backpressure) work += (size_t)update_freeze(c);
    if (work) naps = 0;
    else nap_us(backoff_us(naps++));
  }
  /* never leave a producer parked */
  sl_st_rel32(&c->dp->bp->rq_freeze_active, 0);
  sl_st_rel32(&c->dp->bp->fq_freeze_active, 0);
  return NULL;
}

/* ---- start / stop ------------------------------------------------------------- */

int sl_coll_threads_start(sl_collector *c) {
  atomic_store(&c->running, 1);
  atomic_store(&c->execution_complete, 0);
  sl_coll_topup_all(c);
  for (int i = 0; i < c->nshards; i++) {
    sl_shard *s = &c->shards[i];
    if (pthread_create(&s->drain_tid, NULL, drain_main, s) != 0) goto fail;
    s->drain_started = 1;
  }
  if (pthread_create(&c->replenish_tid, NULL, replenish_main, c) != 0) goto fail;
  c->replenish_started = 1;
  for (int i = 0; i < c->nshards; i++) {
    sl_shard *s = &c->shards[i];
    if (pthread_create(&s->collect_tid, NULL, collect_main, s) != 0) goto fail;
    s->collect_started = 1;
  }
  return 0;
fail:
  fprintf(stderr, "swimlane: collector: cannot start host threads: %s\n", strerror(errno));
  sl_coll_threads_stop(c);
  return -1;
}

void sl_coll_threads_stop(sl_collector *c) {
  atomic_store(&c->running, 0);
  for (int i = 0; i < c->nshards; i++)
    if (c->shards[i].drain_started) {
      pthread_join(c->shards[i].drain_tid, NULL);
      c->shards[i].drain_started = 0;
    }
  if (c->replenish_started) {
    pthread_join(c->replenish_tid, NULL);
    c->replenish_started = 0;
  }
  atomic_store(&c->execution_complete, 1);
  for (int i = 0; i < c->nshards; i++)
    if (c->shards[i].collect_started) {
      pthread_join(c->shards[i].collect_tid, NULL);
      c->shards[i].collect_started = 0;
    }
}

/* Without host threads (never started): drain and collect on the caller's
** thread, so a capture is complete whichever way the collector was driven. */
void sl_coll_drain_sync(sl_collector *c) {
  for (int i = 0; i < c->nshards; i++) {
    sl_shard *s = &c->shards[i];
    drain_pass(s);
    sl_ready_entry e;
    while (handoff_pop(&s->handoff, &e, 0)) {
      sl_coll_consume(s, &e);
      sl_buflist_push(&c->done, e.buffer_ptr | e.kind);
    }
  }
  sl_coll_recycle(c);
}
