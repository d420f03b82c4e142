/* ** sl_tensormap.c — last-writer map over buffer byte spans, hashed by buffer. */
#include "sl_tensormap.h"

#include <stdlib.h>

int sl_tensormap_init(sl_tensormap *m, size_t nbuckets) {
  m->nbuckets = nbuckets ? nbuckets : 1024;
  m->buckets = calloc(m->nbuckets, sizeof *m->buckets);
  return m->buckets ? 0 : -1;
}

void sl_tensormap_free(sl_tensormap *m) {
  if (!m->buckets) return;
  for (size_t i = 0; i < m->nbuckets; i++) free(m->buckets[i].v);
  free(m->buckets);
  m->buckets = NULL;
}

static sl_tm_bucket *bucket(const sl_tensormap *m, const void *buf) {
  uintptr_t h = (uintptr_t)buf;
  h ^= h >> 17;
  h *= 0x9E3779B97F4A7C15ull;
  return &m->buckets[(h >> 24) % m->nbuckets];
}

size_t sl_tensormap_lookup(const sl_tensormap *m, const void *buf, uint64_t lo, uint64_t hi,
                           sl_tm_hit *hits, size_t max) {
  const sl_tm_bucket *b = bucket(m, buf);
  size_t found = 0;
  for (size_t i = 0; i < b->n; i++) {
    const sl_tm_entry *e = &b->v[i];
    if (e->buf != buf || e->hi <= lo || hi <= e->lo) continue;
    if (found < max) {
      hits[found].producer = e->producer;
      hits[found].prod_arg = e->prod_arg;
      hits[found].covered = e->lo <= lo && hi <= e->hi;
    }
    found++;
  }
  return found;
}

int sl_tensormap_insert(sl_tensormap *m, const void *buf, uint64_t lo, uint64_t hi,
                        struct sl_rt_task *producer, int prod_arg) {
  sl_tm_bucket *b = bucket(m, buf);
  size_t w = 0;
  for (size_t i = 0; i < b->n; i++) {  /* drop entries the new write covers */
    sl_tm_entry *e = &b->v[i];
    if (e->buf == buf && lo <= e->lo && e->hi <= hi) continue;
    b->v[w++] = *e;
  }
  b->n = w;
  if (b->n == b->cap) {
    size_t ncap = b->cap ? b->cap * 2 : 4;
    sl_tm_entry *nv = realloc(b->v, ncap * sizeof *nv);
    if (!nv) return -1;
    b->v = nv;
    b->cap = ncap;
  }
  b->v[b->n++] = (sl_tm_entry){buf, lo, hi, producer, prod_arg};
  return 0;
}
