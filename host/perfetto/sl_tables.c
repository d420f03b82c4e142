/*
** sl_tables.c — string interning, uint64 map, array growth.
*/
#include "sl_tables.h"

#include <stdlib.h>
#include <string.h>

#include "sl_mem.h"
#include "sl_vec.h"

void sl_vec_grow(void **arr, size_t *cap, size_t need, size_t elem) {
  if (need > *cap) *arr = sl_array_grow(*arr, cap, need, elem);
}

uint64_t sl_fnv64(const void *p, size_t len, uint64_t seed) {
  const unsigned char *s = p;
  uint64_t h = 1469598103934665603ull ^ seed; /* FNV-1a */
  for (size_t i = 0; i < len; i++) h = (h ^ s[i]) * 1099511628211ull;
  return h;
}

static uint64_t hash_bytes(const char *s, size_t len) { return sl_fnv64(s, len, 0); }

uint64_t sl_mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

static void strtab_rehash(sl_strset *t, size_t nslots) {
  uint32_t *slots = sl_mem_calloc(nslots, sizeof *slots);
  for (size_t id = 0; id < t->n; id++) {
    size_t i = hash_bytes(t->strs[id], strlen(t->strs[id])) & (nslots - 1);
    while (slots[i]) i = (i + 1) & (nslots - 1);
    slots[i] = (uint32_t)id + 1;
  }
  sl_mem_free(t->slots);
  t->slots = slots;
  t->nslots = nslots;
}

uint32_t sl_strset_intern(sl_strset *t, const char *s, size_t len) {
  if ((t->n + 1) * 2 > t->nslots) strtab_rehash(t, t->nslots ? t->nslots * 2 : 256);
  size_t i = hash_bytes(s, len) & (t->nslots - 1);
  while (t->slots[i]) {
    const char *o = t->strs[t->slots[i] - 1];
    if (strlen(o) == len && memcmp(o, s, len) == 0) return t->slots[i] - 1;
    i = (i + 1) & (t->nslots - 1);
  }
  sl_vec_grow((void **)&t->strs, &t->cap, t->n + 1, sizeof *t->strs);
  t->strs[t->n] = sl_mem_strndup(s, len);
  t->slots[i] = (uint32_t)t->n + 1;
  return (uint32_t)t->n++;
}

const char *sl_strset_get(const sl_strset *t, uint32_t id) { return id < t->n ? t->strs[id] : ""; }

void sl_strset_free(sl_strset *t) {
  for (size_t i = 0; i < t->n; i++) sl_mem_free(t->strs[i]);
  sl_mem_free(t->strs);
  sl_mem_free(t->slots);
  memset(t, 0, sizeof *t);
}

static void u64map_rehash(sl_idmap *m, size_t cap) {
  sl_idmap nm = {0};
  nm.cap = cap;
  nm.keys = sl_mem_calloc(cap, sizeof *nm.keys);
  nm.vals = sl_mem_calloc(cap, sizeof *nm.vals);
  nm.used = sl_mem_calloc(cap, 1);
  for (size_t i = 0; i < m->cap; i++) {
    if (!m->used[i]) continue;
    size_t j = sl_mix64(m->keys[i]) & (cap - 1);
    while (nm.used[j]) j = (j + 1) & (cap - 1);
    nm.used[j] = 1;
    nm.keys[j] = m->keys[i];
    nm.vals[j] = m->vals[i];
  }
  nm.n = m->n;
  sl_idmap_free(m);
  *m = nm;
}

uint64_t *sl_idmap_put(sl_idmap *m, uint64_t key, int *fresh) {
  if ((m->n + 1) * 2 > m->cap) u64map_rehash(m, m->cap ? m->cap * 2 : 256);
  size_t i = sl_mix64(key) & (m->cap - 1);
  while (m->used[i]) {
    if (m->keys[i] == key) {
      if (fresh) *fresh = 0;
      return &m->vals[i];
    }
    i = (i + 1) & (m->cap - 1);
  }
  m->used[i] = 1;
  m->keys[i] = key;
  m->vals[i] = 0;
  m->n++;
  if (fresh) *fresh = 1;
  return &m->vals[i];
}

uint64_t *sl_idmap_get(const sl_idmap *m, uint64_t key) {
  if (!m->cap) return NULL;
  size_t i = sl_mix64(key) & (m->cap - 1);
  while (m->used[i]) {
    if (m->keys[i] == key) return &m->vals[i];
    i = (i + 1) & (m->cap - 1);
  }
  return NULL;
}

void sl_idmap_free(sl_idmap *m) {
  sl_mem_free(m->keys);
  sl_mem_free(m->vals);
  sl_mem_free(m->used);
  memset(m, 0, sizeof *m);
}

void sl_vec_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  if (n > 1) qsort(base, n, size, cmp);
}
