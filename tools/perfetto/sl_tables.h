/*
** sl_tables.h — small containers for the trace writer and checker: string
** interning, a uint64 -> uint64 hash map, and array growth.
*/
#ifndef SL_TABLES_H
#define SL_TABLES_H

#include <stddef.h>
#include <stdint.h>

/* Interned strings: equal strings get equal ids (0, 1, 2, ... in first-seen order). */
typedef struct sl_strtab {
  char **strs;
  size_t n, cap;
  uint32_t *slots;   /* open addressing: id + 1, 0 = empty */
  size_t nslots;
} sl_strtab;

uint32_t sl_strtab_intern(sl_strtab *t, const char *s, size_t len);
const char *sl_strtab_get(const sl_strtab *t, uint32_t id);
void sl_strtab_free(sl_strtab *t);

/* uint64 -> uint64 map (open addressing). */
typedef struct sl_u64map {
  uint64_t *keys, *vals;
  uint8_t *used;
  size_t n, cap;
} sl_u64map;

/* Pointer to the value of key (inserted as 0 when absent; *fresh tells which). */
uint64_t *sl_u64map_put(sl_u64map *m, uint64_t key, int *fresh);
uint64_t *sl_u64map_get(const sl_u64map *m, uint64_t key);
void sl_u64map_free(sl_u64map *m);

/* Grow a dynamic array: sl_grow((void **)&a, &cap, n + 1, sizeof *a). Aborts on OOM. */
void sl_grow(void **arr, size_t *cap, size_t need, size_t elem);

/* 64-bit hashes for composite keys. */
uint64_t sl_hash_bytes(const void *p, size_t len, uint64_t seed);
uint64_t sl_mix64(uint64_t x);

#endif /* SL_TABLES_H */
