/*
** sl_tensormap.h — which task last wrote which region of which buffer. A region is
** the element span [lo, hi) a view touches (its bounding extent). A new writer
** replaces entries it fully covers; lookups return every overlapping producer.
** Single-threaded: only the orchestrator uses it.
*/
#ifndef SL_TENSORMAP_H
#define SL_TENSORMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct sl_tm_entry {
  const void *buf;
  uint64_t lo, hi;     /* byte span */
  struct sl_rt_task *producer;
  int prod_arg;
} sl_tm_entry;

typedef struct sl_tm_bucket {
  sl_tm_entry *v;
  size_t n, cap;
} sl_tm_bucket;

typedef struct sl_tensormap {
  sl_tm_bucket *buckets;
  size_t nbuckets;
} sl_tensormap;

typedef struct sl_tm_hit {
  struct sl_rt_task *producer;
  int prod_arg;
  int covered;         /* query span inside the producer's span */
} sl_tm_hit;

int sl_tensormap_init(sl_tensormap *m, size_t nbuckets);
void sl_tensormap_free(sl_tensormap *m);
/* Overlapping producers of [lo, hi) in buf; writes up to max hits, returns the count
** found (may exceed max). */
size_t sl_tensormap_lookup(const sl_tensormap *m, const void *buf, uint64_t lo, uint64_t hi,
                           sl_tm_hit *hits, size_t max);
/* Record `producer` as the last writer of [lo, hi); entries it covers are removed. */
int sl_tensormap_insert(sl_tensormap *m, const void *buf, uint64_t lo, uint64_t hi,
                        struct sl_rt_task *producer, int prod_arg);

#endif /* SL_TENSORMAP_H */
