/*
** sl_map.h — hash map from uint64 keys or string keys to uint64 values.
**
** One implementation (sl_map.c, open addressing) serves three key kinds, fixed
** at init:
**   SL_MAP_U64           any uint64 value is a key (0 and UINT64_MAX included);
**   SL_MAP_STR           text keys (no NUL inside); the map keeps its own copy;
**   SL_MAP_STR_BORROWED  text keys the caller keeps alive and unchanged for as
**                        long as they are in the map (an interner's strings).
** Values are uint64: an index, a count, or a pointer through (uintptr_t).
**
**   sl_map m;
**   sl_map_init(&m, SL_MAP_U64);
**   sl_map_u64_put(&m, task_id, index);
**   uint64_t v;
**   if (sl_map_u64_get(&m, task_id, &v)) ...
**   *sl_map_u64_ref(&m, key, NULL) += 1;          (insert 0 if absent, then add)
**   for (size_t i = sl_map_next(&m, 0); i < m.cap; i = sl_map_next(&m, i + 1))
**     use(sl_map_key_u64(&m, i), m.vals[i]);      (hash order, not insertion order)
**   sl_map_free(&m);
**
** Inserting never fails (sl_mem.h). A pointer from a _ref call and slot indices
** from sl_map_next stay valid until the next insert or delete.
*/
#ifndef SL_MAP_H
#define SL_MAP_H

#include <stddef.h>
#include <stdint.h>

/* SL_MAP_U64 is 0: a zeroed sl_map ({0}) is an empty uint64 map. */
typedef enum sl_map_kind { SL_MAP_U64 = 0, SL_MAP_STR, SL_MAP_STR_BORROWED } sl_map_kind;

typedef struct sl_map {
  unsigned char *ctrl; /* per slot: 0 = empty, else 0x80 | 7 high bits of the key's hash */
  uint64_t *keys;      /* the key, or the key string's address */
  uint64_t *vals;
  size_t n, cap;       /* live entries; slots (0 or a power of two) */
  sl_map_kind kind;
} sl_map;

void sl_map_init(sl_map *m, sl_map_kind kind);
void sl_map_free(sl_map *m);
/* Room for n entries without growing. */
void sl_map_reserve(sl_map *m, size_t n);

/* 1 and *val (may be NULL) set when key is present, else 0. */
int sl_map_u64_get(const sl_map *m, uint64_t key, uint64_t *val);
/* Insert or overwrite. */
void sl_map_u64_put(sl_map *m, uint64_t key, uint64_t val);
/* The value slot of key, inserted as 0 when absent (*added, if given, says which). */
uint64_t *sl_map_u64_ref(sl_map *m, uint64_t key, int *added);
/* The value slot of key, or NULL when absent (nothing is inserted). */
uint64_t *sl_map_u64_find(sl_map *m, uint64_t key);
/* 1 when key was present and is now removed, else 0. */
int sl_map_u64_del(sl_map *m, uint64_t key);

/* The same for string maps; the key is s[0..len). */
int sl_map_str_get(const sl_map *m, const char *s, size_t len, uint64_t *val);
void sl_map_str_put(sl_map *m, const char *s, size_t len, uint64_t val);
uint64_t *sl_map_str_ref(sl_map *m, const char *s, size_t len, int *added);
int sl_map_str_del(sl_map *m, const char *s, size_t len);

/* The first occupied slot at index >= i, or m->cap when there is none. */
size_t sl_map_next(const sl_map *m, size_t i);
static inline uint64_t sl_map_key_u64(const sl_map *m, size_t slot) { return m->keys[slot]; }
static inline const char *sl_map_key_str(const sl_map *m, size_t slot) {
  return (const char *)(uintptr_t)m->keys[slot];
}

#endif /* SL_MAP_H */
