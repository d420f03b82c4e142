/*
** sl_collector_threads.c — the host threads that stream buffers out while the
** device runs.
**
**  drain shard i    pops the ready queues q = i, i+n, ... ; for each entry it
**                   tops the originating pool's free queue up from the
**                   recycled lane and hands the entry to collector shard i;
**                   then it also tops up the pools it owns (index % n == i).
**  collector i      copies the records of each handed-off buffer into host
**                   chunk lists, then puts the buffer on the done list.
**  replenish        done list -> recycled lanes (+ growth), tops every free
**                   queue up, and runs the back-pressure freeze.
**
** All of them are event driven, so a host with few CPUs is not taken from the
** device threads while nothing flows: drains sleep on the device's host bell
** (rung, batched, after publishes and on back-pressure), the replenish thread
** on the collector's bell (rung by collectors after each buffer, by drains to
** pass a back-pressure request on), collectors on their hand-off's condition
** variable; stop wakes them all at once.
**
** Drain threads never block on the device; the hand-off grows instead of
** dropping, so the host never loses a buffer it has popped.
*/
#include "sl_collector_internal.h"
#include "sl_mem.h"
#include "sl_prof_atomic.h"
#include "sl_vec.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

/* Longest sleep of an idle host thread; every real event rings the bell
** first, so this bounds only the cost of a lost wake. */
#define SL_COLL_SAFETY_NAP_NS 20000000L

static void nap_us(unsigned us) {
  struct timespec ts = {0, (long)us * 1000};
  nanosleep(&ts, NULL);
}

/* Named threads show up as such in top / perf / /proc/<pid>/task. */
static void name_thread(const char *role, int index) {
  char name[32];
  if (index >= 0) snprintf(name, sizeof name, "%.12s%u", role, (unsigned)index % 100u);
  else snprintf(name, sizeof name, "%.15s", role);
  name[15] = '\0'; /* the kernel keeps 15 characters */
  prctl(PR_SET_NAME, name, 0, 0, 0);
}

/* The life of every host thread: named, its loop, then its CPU time added to the
** collector's statistics (one place, so no thread can leave without it). */
static void run_host_thread(sl_collector *c, const char *role, int index, void (*loop)(void *), void *arg) {
  name_thread(role, index);
  loop(arg);
  struct timespec ts;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
    atomic_fetch_add(&c->host_cpu_ns, (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec);
}

static void bell_sleep(sl_collector *c, sl_prof_bell *bell, uint32_t seen) {
  atomic_fetch_add_explicit(&c->host_sleeps, 1, memory_order_relaxed);
  sl_bell_wait(bell, seen, SL_COLL_SAFETY_NAP_NS);
}

/* Chunks start small and double up to this many records (a few MB). */
#define SL_COLL_CHUNK_MAX 65536u

void sl_coll_records_append(sl_coll_records *v, const void *recs, size_t n, size_t recsz) {
  const unsigned char *src = recs;
  while (n) {
    sl_coll_chunk *t = v->tail;
    if (!t || t->n == t->cap) {
      size_t cap = t ? t->cap * 2 : 256;
      if (cap > SL_COLL_CHUNK_MAX) cap = SL_COLL_CHUNK_MAX;
      sl_coll_chunk *nc = sl_mem_alloc(sizeof *nc + cap * recsz);
      nc->next = NULL;
      nc->n = 0;
      nc->cap = cap;
      if (t) t->next = nc;
      else v->head = nc;
      v->tail = t = nc;
    }
    size_t take = t->cap - t->n < n ? t->cap - t->n : n;
    memcpy(t->data + t->n * recsz, src, take * recsz);
    t->n += take;
    v->n += take;
    src += take * recsz;
    n -= take;
  }
}

void sl_coll_records_free(sl_coll_records *v) {
  for (sl_coll_chunk *ch = v->head, *next; ch; ch = next) {
    next = ch->next;
    sl_mem_free(ch);
  }
  v->head = v->tail = NULL;
  v->n = 0;
}

/* ---- hand-off ----------------------------------------------------------------- */

/* The queue is items[head, n), an sl_vec.h array: a push appends (the base growth rule),
** a pop takes items[head]; the array restarts at 0 when it empties, and a push first
** moves the waiting entries down once the taken front is as long as they are, so the
** array stays within twice the longest backlog. Empty <=> n == 0. */
static void handoff_push(sl_handoff *h, const sl_ready_entry *e) {
  pthread_mutex_lock(&h->mu);
  if (h->head && h->head >= h->n - h->head) {
    memmove(h->items, h->items + h->head, (h->n - h->head) * sizeof *h->items);
    h->n -= h->head;
    h->head = 0;
  }
  *sl_array_push(h->items, h->n, h->cap) = *e;
  pthread_cond_signal(&h->cv);
  pthread_mutex_unlock(&h->mu);
}

/* 1 = got one, 0 = timed out / empty / closed. `closed` (read under the lock)
** is the stop signal: handoff_close sets it and wakes the waiter at once. */
static int handoff_pop(sl_handoff *h, sl_ready_entry *out, int wait) {
  pthread_mutex_lock(&h->mu);
  if (h->n == 0 && wait && !h->closed) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 100 * 1000 * 1000;
    if (ts.tv_nsec >= 1000000000) {
      ts.tv_sec++;
      ts.tv_nsec -= 1000000000;
    }
    h->sleeps++;
    pthread_cond_timedwait(&h->cv, &h->mu, &ts);
  }
  int got = 0;
  if (h->n) {
    *out = h->items[h->head++];
    if (h->head == h->n) h->head = h->n = 0;
    got = 1;
  }
  pthread_mutex_unlock(&h->mu);
  return got;
}

/* ---- drain -------------------------------------------------------------------- */

/* The region is read through the host view (hv) inside a tick (sl_coll_tick_begin). */
static int frozen(const sl_collector *c) {
  return sl_ld_acq32(&c->hv->bp->rq_freeze_active) || sl_ld_acq32(&c->hv->bp->fq_freeze_active);
}

static int contended(const sl_collector *c) {
  return sl_ld_acq32(&c->hv->bp->rq_contended) || sl_ld_acq32(&c->hv->bp->fq_contended);
}

static int entry_valid(const sl_collector *c, const sl_ready_entry *e) {
  return e->kind < SL_BUF_KIND_COUNT && (int)e->core_index < sl_devprof_pool_count(c->dp, e->kind) &&
         e->buffer_ptr != 0 && (e->buffer_ptr & 63) == 0;
}

/* One pass over this shard's ready queues (inside a tick); returns entries handled. */
static size_t drain_pass(sl_shard *s) {
  sl_collector *c = s->c;
  size_t handled = 0;
  for (int q = s->index; q < c->dp->g.num_threads; q += c->nshards) {
    sl_ready_ring ring = sl_devprof_ring(c->hv, q);
    sl_ready_entry e;
    int rc;
    uint32_t head0 = sl_ld_rlx32(ring.head);
    while ((rc = sl_rq_pop(&ring, &e)) == 1) {
      handled++;
      if (!entry_valid(c, &e)) {
        s->bad_entries++;
        continue;
      }
      /* During a freeze the replenish thread refills every queue itself. */
      if (!frozen(c)) sl_coll_topup(c, e.kind, (int)e.core_index);
      handoff_push(&s->handoff, &e);
    }
    if (rc < 0) s->bad_entries++;
    if (sl_ld_rlx32(ring.head) != head0) sl_coll_wb(c, ring.head, sizeof(uint32_t)); /* the advanced head */
  }
  return handled;
}

/* An idle pass (woken by the bell or by the sleep's timeout) tops up every free queue of
** this shard's pools: the answer to a pool's low-water doorbell. A queue can run low while
** the recycled lane holds buffers (they came back while the queue was full, so that
** recycle's top-up had no room), and the device then rings with nothing published: no
** ready entry, no recycle, so only this pass refills it (test_prof_stress
** low_water_bell_refills_the_queue; a device waiting for a full queue hangs without it). */
static void topup_owned(sl_shard *s) {
  sl_collector *c = s->c;
  if (frozen(c)) return;
  for (unsigned k = 0; k < SL_BUF_KIND_COUNT; k++)
    for (int i = s->index; i < sl_devprof_pool_count(c->dp, k); i += c->nshards) sl_coll_topup(c, k, i);
}

/* Event driven: the device rings the host bell (batched: when a pool is down
** to two queued buffers, on back-pressure, else at most every 0.5 ms per
** AICPU thread; sl_prof_gates.c), so an idle drain sleeps and one wakeup takes every
** buffer published since. The bell is read before the pass, so a ring during
** the pass is never slept through; the timeout is only a safety net (and
** bounds how long an unrung buffer at the end of a burst waits). */
static void drain_loop(void *arg) {
  sl_shard *s = arg;
  sl_collector *c = s->c;
  size_t taken = 0;
  while (atomic_load(&c->running)) {
    uint32_t seen = sl_bell_read(&c->dp->host_bell);
    sl_coll_tick_begin(c);
    /* the device rings one bell; pass a back-pressure request on */
    if (c->dp->g.backpressure && contended(c)) sl_bell_ring(&c->repl_bell);
    size_t n = drain_pass(s);
    if (!n) topup_owned(s);
    sl_coll_tick_end(c);
    taken += n;
    if (c->cfg.test_drain_dies_after && taken >= c->cfg.test_drain_dies_after) return; /* killed */
    if (n) continue;
    if (atomic_load(&c->running)) bell_sleep(c, &c->dp->host_bell, seen);
  }
  sl_coll_tick_begin(c);
  drain_pass(s); /* the device threads are joined: one last full pass */
  sl_coll_tick_end(c);
}

static void *drain_main(void *arg) {
  sl_shard *s = arg;
  run_host_thread(s->c, "sl-drain", s->index, drain_loop, s);
  return NULL;
}

/* ---- collector ---------------------------------------------------------------- */

void sl_coll_consume(sl_shard *s, const sl_ready_entry *e) {
  sl_collector *c = s->c;
  sl_devprof *dp = c->dp;
  unsigned kind = e->kind;
  int index = (int)e->core_index;
  uint32_t count = 0;
  void *buf = sl_coll_pull(c, kind, e->buffer_ptr, &count); /* on demand (host_shadow) */
  if (!buf) {
    s->bad_entries++;
    return;
  }
  if (count > dp->g.records[kind]) {
    s->bad_entries++;
    count = dp->g.records[kind];
  }
  size_t recsz = dp->record_size[kind];
  sl_coll_records *v = &s->records[kind][index];
  if (kind == SL_BUF_AICORE_TASK) {
    /* copy committed runs; a slot never committed is not a record */
    const sl_aicore_task_record *r = buf;
    uint32_t i = 0;
    while (i < count) {
      uint32_t j = i;
      while (j < count && r[j].reg_task_id != SL_AICORE_UNCOMMITTED) j++;
      if (j > i) {
        sl_coll_records_append(v, r + i, j - i, recsz);
        s->collected[kind][index] += j - i;
      }
      if (j < count) s->uncommitted++;
      i = j + 1;
    }
  } else if (count) {
    sl_coll_records_append(v, buf, count, recsz);
    s->collected[kind][index] += count;
  }
}

/* Stop: no more entries will arrive; wake the collector so it finishes now
** instead of at its wait timeout. */
static void handoff_close(sl_handoff *h) {
  pthread_mutex_lock(&h->mu);
  h->closed = 1;
  pthread_cond_broadcast(&h->cv);
  pthread_mutex_unlock(&h->mu);
}

static int handoff_drained(sl_handoff *h) {
  pthread_mutex_lock(&h->mu);
  int done = h->closed && h->n == 0;
  pthread_mutex_unlock(&h->mu);
  return done;
}

static void collect_loop(void *arg) {
  sl_shard *s = arg;
  sl_collector *c = s->c;
  for (;;) {
    sl_ready_entry e;
    if (handoff_pop(&s->handoff, &e, 1)) {
      sl_coll_consume(s, &e);
      if (c->cfg.test_collect_delay_us) nap_us(c->cfg.test_collect_delay_us);
      /* the kind rides in the low bits of the 64-aligned address */
      sl_buflist_push(&c->done, e.buffer_ptr | e.kind);
      sl_bell_ring(&c->repl_bell); /* the replenish thread recycles it now */
      continue;
    }
    if (handoff_drained(&s->handoff)) break;
  }
}

static void *collect_main(void *arg) {
  sl_shard *s = arg;
  run_host_thread(s->c, "sl-collect", s->index, collect_loop, s);
  return NULL;
}

/* ---- replenish + freeze ------------------------------------------------------- */

static int all_ready_empty(sl_collector *c) {
  for (int q = 0; q < c->dp->g.num_threads; q++) {
    sl_ready_ring ring = sl_devprof_ring(c->hv, q);
    if (!sl_rq_empty(&ring)) return 0;
  }
  return 1;
}

/* Dual freeze: open on contention (flag set before the request is cleared,
** so the device never sees neither), release when the host has caught up. */
static int update_freeze(sl_collector *c) {
  sl_backpressure *bp = c->hv->bp;
  int acted = 0;
  if (!sl_ld_acq32(&bp->rq_freeze_active) && sl_ld_acq32(&bp->rq_contended)) {
    sl_coll_set32(c, &bp->rq_freeze_active, 1);
    sl_coll_set32(c, &bp->rq_contended, 0);
    atomic_fetch_add(&c->freezes, 1);
    acted = 1;
  }
  if (!sl_ld_acq32(&bp->fq_freeze_active) && sl_ld_acq32(&bp->fq_contended)) {
    sl_coll_set32(c, &bp->fq_freeze_active, 1);
    sl_coll_set32(c, &bp->fq_contended, 0);
    atomic_fetch_add(&c->freezes, 1);
    acted = 1;
  }
  if (sl_ld_acq32(&bp->rq_freeze_active) || sl_ld_acq32(&bp->fq_freeze_active)) {
    unsigned pushed = sl_coll_topup_all(c);
    if (pushed == 0 && all_ready_empty(c)) {
      sl_coll_set32(c, &bp->rq_freeze_active, 0);
      sl_coll_set32(c, &bp->fq_freeze_active, 0);
    }
    acted = 1;
  }
  return acted;
}

/* Woken by the bell (a collected buffer on the done list, a device's
** back-pressure request), it recycles, tops every free queue up at once (so
** refills never wait for the pool's next publish) and runs the freeze. */
static void replenish_loop(void *arg) {
  sl_collector *c = arg;
  while (atomic_load(&c->running)) {
    uint32_t seen = sl_bell_read(&c->repl_bell);
    size_t work = sl_coll_recycle(c);
    sl_coll_tick_begin(c);
    if (work && !frozen(c)) sl_coll_topup_all(c);
    int freeze_open = c->dp->g.backpressure && update_freeze(c);
    int asked = c->dp->g.backpressure && contended(c);
    sl_coll_tick_end(c);
    if (freeze_open) { /* a freeze is open: keep at it */
      sched_yield(); /* but let the drain threads empty the ready queues */
      continue;
    }
    if (asked) continue; /* raised since update_freeze looked */
    if (!work && atomic_load(&c->running)) bell_sleep(c, &c->repl_bell, seen);
  }
  /* never leave a producer parked */
  sl_coll_tick_begin(c);
  sl_coll_set32(c, &c->hv->bp->rq_freeze_active, 0);
  sl_coll_set32(c, &c->hv->bp->fq_freeze_active, 0);
  sl_coll_tick_end(c);
}

static void *replenish_main(void *arg) {
  run_host_thread(arg, "sl-replenish", -1, replenish_loop, arg);
  return NULL;
}

/* ---- start / stop ------------------------------------------------------------- */

sl_status sl_coll_threads_start(sl_collector *c, sl_err *err) {
  atomic_store(&c->running, 1);
  atomic_store(&c->execution_complete, 0);
  for (int i = 0; i < c->nshards; i++) c->shards[i].handoff.closed = 0; /* no thread yet */
  sl_coll_tick_begin(c);
  sl_coll_topup_all(c);
  sl_coll_tick_end(c);
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
  return SL_OK;
fail:
  sl_err_set(err, "collector", "cannot start host threads: %s", strerror(errno));
  sl_coll_threads_stop(c);
  return SL_FAIL;
}

void sl_coll_threads_stop(sl_collector *c) {
  atomic_store(&c->running, 0);
  sl_bell_ring(&c->dp->host_bell); /* wake the sleepers: they see running == 0 */
  sl_bell_ring(&c->repl_bell);
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
  for (int i = 0; i < c->nshards; i++) handoff_close(&c->shards[i].handoff);
  for (int i = 0; i < c->nshards; i++)
    if (c->shards[i].collect_started) {
      pthread_join(c->shards[i].collect_tid, NULL);
      c->shards[i].collect_started = 0;
      atomic_fetch_add(&c->host_sleeps, c->shards[i].handoff.sleeps); /* joined: no race */
      c->shards[i].handoff.sleeps = 0;
    }
}

/* Without host threads (never started): drain and collect on the caller's
** thread, so a capture is complete whichever way the collector was driven. */
void sl_coll_drain_sync(sl_collector *c) {
  for (int i = 0; i < c->nshards; i++) {
    sl_shard *s = &c->shards[i];
    sl_coll_tick_begin(c);
    drain_pass(s);
    sl_coll_tick_end(c);
    sl_ready_entry e;
    while (handoff_pop(&s->handoff, &e, 0)) {
      sl_coll_consume(s, &e);
      sl_buflist_push(&c->done, e.buffer_ptr | e.kind);
    }
  }
  sl_coll_recycle(c);
}
