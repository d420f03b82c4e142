/*
** sl_tables.h — small containers for the trace writer and checker: string
** interning, a uint64 -> uint64 hash map, and array growth.
*/
#ifndef SL_TABLES_H
#define SL_TABLES_H

#include <stddef.h>
#include <stdint.h>

/* Interned strings: equal strings get equal ids (0, 1, 2, ... in first-seen order). */
typedef struct sl_strset {
  char **strs;
  size_t n, cap;
  uint32_t *slots; /* open addressing: id + 1, 0 = empty */
  size_t nslots;
} sl_strset;

uint32_t sl_strset_intern(sl_strset *t, const char *s, size_t len);
const char *sl_strset_get(const sl_strset *t, uint32_t id);
void sl_strset_free(sl_strset *t);

/* uint64 -> uint64 map (open addressing). */
typedef struct sl_idmap {
  uint64_t *keys, *vals;
  uint8_t *used;
  size_t n, cap;
} sl_idmap;

/* Pointer to the value of key (inserted as 0 when absent; *fresh tells which). */
uint64_t *sl_idmap_put(sl_idmap *m, uint64_t key, int *fresh);
uint64_t *sl_idmap_get(const sl_idmap *m, uint64_t key);
void sl_idmap_free(sl_idmap *m);

/* Grow a dynamic array: sl_vec_grow((void **)&a, &cap, n + 1, sizeof *a). Aborts on OOM. */
void sl_vec_grow(void **arr, size_t *cap, size_t need, size_t elem);

/* qsort that accepts an empty (NULL) array. */
void sl_vec_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

/* 64-bit hashes for composite keys. */
uint64_t sl_fnv64(const void *p, size_t len, uint64_t seed);
uint64_t sl_mix64(uint64_t x);

#endif /* SL_TABLES_H */
