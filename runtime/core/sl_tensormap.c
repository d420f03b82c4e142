/* ** sl_tensormap.c — writer / reader map over buffer byte spans, hashed by buffer. */
#include "sl_tensormap.h"

#include <stdlib.h>
#include "sl_rt_mem.h"

void sl_tensormap_init(sl_tensormap *m, size_t nbuckets) {
  m->nbuckets = nbuckets ? nbuckets : 1024;
  m->buckets = sl_rt_calloc(m->nbuckets, sizeof *m->buckets);
}

void sl_tensormap_free(sl_tensormap *m) {
  if (!m->buckets) return;
  for (size_t i = 0; i < m->nbuckets; i++) sl_rt_free(m->buckets[i].v);
  sl_rt_free(m->buckets);
  m->buckets = NULL;
}

static sl_tm_bucket *bucket(const sl_tensormap *m, const void *buf) {
  uintptr_t h = (uintptr_t)buf;
  h ^= h >> 17;
  h *= 0x9E3779B97F4A7C15ull;
  return &m->buckets[(h >> 24) % m->nbuckets];
}

size_t sl_tensormap_lookup(const sl_tensormap *m, const void *buf, uint64_t lo, uint64_t hi,
                           int is_write, sl_tm_hit *hits, size_t max) {
  const sl_tm_bucket *b = bucket(m, buf);
  size_t found = 0;
  for (size_t i = 0; i < b->n; i++) {
    const sl_tm_entry *e = &b->v[i];
    if (e->buf != buf || e->hi <= lo || hi <= e->lo) continue;
    if (!e->is_write && !is_write) continue; /* read after read: no order */
    if (found < max) {
      hits[found].producer = e->producer;
      hits[found].prod_arg = e->prod_arg;
      hits[found].covered = e->lo <= lo && hi <= e->hi;
      hits[found].hazard = !e->is_write ? SL_TM_WAR : is_write ? SL_TM_WAW : SL_TM_RAW;
    }
    found++;
  }
  return found;
}

static void append(sl_tm_bucket *b, sl_tm_entry e) { *SL_RT_PUSH(b->v, b->n, b->cap) = e; }

void sl_tensormap_insert(sl_tensormap *m, const void *buf, uint64_t lo, uint64_t hi,
                        struct sl_rt_task *producer, int prod_arg, int dense) {
  sl_tm_bucket *b = bucket(m, buf);
  if (dense) { /* drop the writers and readers the new write covers: it waits for them */
    size_t w = 0;
    for (size_t i = 0; i < b->n; i++) {
      sl_tm_entry *e = &b->v[i];
      if (e->buf == buf && lo <= e->lo && e->hi <= hi) continue;
      b->v[w++] = *e;
    }
    b->n = w;
  }
  append(b, (sl_tm_entry){.buf = buf, .lo = lo, .hi = hi, .producer = producer, .prod_arg = prod_arg, .is_write = 1});
}

enum { SL_TM_PRUNE_MIN = 256 };

/* Drop the entries of finished readers; the next prune waits until the bucket
** doubles again, so pruning costs O(1) per insert amortized. */
static void prune_readers(const sl_tensormap *m, sl_tm_bucket *b) {
  size_t w = 0;
  for (size_t i = 0; i < b->n; i++) {
    sl_tm_entry *e = &b->v[i];
    if (!e->is_write && m->finished(e->producer)) continue;
    b->v[w++] = *e;
  }
  b->n = w;
  b->prune_at = 2 * w > SL_TM_PRUNE_MIN ? 2 * w : SL_TM_PRUNE_MIN;
}

void sl_tensormap_insert_read(sl_tensormap *m, const void *buf, uint64_t lo, uint64_t hi,
                             struct sl_rt_task *reader, int arg) {
  sl_tm_bucket *b = bucket(m, buf);
  if (m->finished && b->n >= (b->prune_at ? b->prune_at : SL_TM_PRUNE_MIN)) prune_readers(m, b);
  /* the same task reading a span it already reads or writes adds nothing (this
  ** submit's entries are the bucket's newest) */
  for (size_t i = b->n; i-- > 0;) {
    const sl_tm_entry *e = &b->v[i];
    if (e->producer != reader) break;
    if (e->buf == buf && e->lo <= lo && hi <= e->hi) return;
  }
  append(b, (sl_tm_entry){.buf = buf, .lo = lo, .hi = hi, .producer = reader, .prod_arg = arg});
}
