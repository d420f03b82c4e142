/*
** sl_tensormap.h — who last wrote, and who has read since, which region of which
** buffer. A region is the byte span [lo, hi) a view touches (its bounding extent,
** so strided views that interleave are treated as overlapping: conservative, never
** missing an order). Lookups return every overlapping access with its hazard:
** a read meets earlier writers (RAW); a write meets earlier writers (WAW) and the
** readers since them (WAR). A dense write replaces the entries it fully covers (it
** waits for them, so order is kept transitively); a strided write (holes inside its
** span) replaces nothing, so a later access of a hole still names its real writer.
** Single-threaded: only the orchestrator uses it.
*/
#ifndef SL_TENSORMAP_H
#define SL_TENSORMAP_H

#include <stddef.h>
#include <stdint.h>

/* Hazard of an ordering edge (deps.json "kind"). */
typedef enum sl_tm_hazard { SL_TM_RAW = 0, SL_TM_WAR = 1, SL_TM_WAW = 2 } sl_tm_hazard;

typedef struct sl_tm_entry {
  const void *buf;
  uint64_t lo, hi;     /* byte span */
  struct sl_rt_task *producer; /* the accessing task */
  int prod_arg;
  int is_write;
} sl_tm_entry;

typedef struct sl_tm_bucket {
  sl_tm_entry *v;
  size_t n, cap;
  size_t prune_at;     /* entry count that triggers dropping finished readers */
} sl_tm_bucket;

typedef struct sl_tensormap {
  sl_tm_bucket *buckets;
  size_t nbuckets;
  /* optional: 1 when a reader has finished — its entry can order nothing any more,
  ** so a bucket that grows past prune_at drops such readers (a buffer read by many
  ** tasks does not make every later lookup on it linear in all of them) */
  int (*finished)(struct sl_rt_task *t);
} sl_tensormap;

typedef struct sl_tm_hit {
  struct sl_rt_task *producer;
  int prod_arg;
  int covered;         /* query span inside the earlier access's span */
  sl_tm_hazard hazard;
} sl_tm_hit;

void sl_tensormap_init(sl_tensormap *m, size_t nbuckets);
void sl_tensormap_free(sl_tensormap *m);
/* Earlier accesses of [lo, hi) in buf that a new access must wait for: writers
** only for a read, writers and readers for a write (is_write). Writes up to max
** hits, returns the count found (may exceed max). */
size_t sl_tensormap_lookup(const sl_tensormap *m, const void *buf, uint64_t lo, uint64_t hi,
                           int is_write, sl_tm_hit *hits, size_t max);
/* Record `producer` as the last writer of [lo, hi); when `dense` (every byte of
** the span written) the entries it covers are removed. */
void sl_tensormap_insert(sl_tensormap *m, const void *buf, uint64_t lo, uint64_t hi,
                        struct sl_rt_task *producer, int prod_arg, int dense);
/* Record `reader` as reading [lo, hi) since the last write. */
void sl_tensormap_insert_read(sl_tensormap *m, const void *buf, uint64_t lo, uint64_t hi,
                             struct sl_rt_task *reader, int arg);

#endif /* SL_TENSORMAP_H */
