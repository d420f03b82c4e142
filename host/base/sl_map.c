/*
** sl_map.c — the hash map (uint64 or string keys, uint64 values).
**
** Design. Open addressing with linear probing over three parallel arrays:
** ctrl (one byte per slot), keys and vals. A slot is empty when its ctrl byte
** is 0; an occupied slot holds 0x80 | the top 7 bits of its key's 64-bit hash.
** The home slot of a key is the hash's low bits (cap is a power of two), so
** tag and position are independent bits of the hash and a probe compares a key
** only when the tag matches: about one string comparison in 128 on a miss.
**
** Hashes: uint64 keys go through the 64-bit finalizer of MurmurHash3 (every
** input bit reaches every output bit, so sequential ids spread); strings are
** FNV-1a, then the same finalizer.
**
** Invariants, which every operation keeps:
**   - load: n * 4 <= cap * 3 after every insert (the table grows by doubling
**     before an insert would cross it), so a probe always reaches an empty slot;
**   - no tombstones: a delete shifts the following entries of its probe run
**     back into the hole when their home slot allows it, so every key stays
**     reachable from its home slot without crossing an empty slot;
**   - SL_MAP_STR keys are private copies freed with the map; borrowed keys are
**     the caller's NUL-terminated strings.
** One probe loop (probe) serves all kinds; only key_eq and the hash differ.
*/
#include "sl_map.h"
#include "sl_hash.h"

#include "sl_mem.h"

#include <stdlib.h>
#include <string.h>

/* A key being looked up: the number, or the text and its length. */
typedef struct key_ref {
  uint64_t u;
  const char *s;
  size_t len;
} key_ref;

static uint64_t str_hash(const char *s, size_t len) {
  uint64_t h = 14695981039346656037ULL;
  for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
  return sl_mix64(h);
}

static const char *slot_str(const sl_map *m, size_t i) { return (const char *)(uintptr_t)m->keys[i]; }

static uint64_t ref_hash(const sl_map *m, const key_ref *k) {
  return m->kind == SL_MAP_U64 ? sl_mix64(k->u) : str_hash(k->s, k->len);
}

static uint64_t slot_hash(const sl_map *m, size_t i) {
  if (m->kind == SL_MAP_U64) return sl_mix64(m->keys[i]);
  const char *s = slot_str(m, i);
  return str_hash(s, strlen(s));
}

static unsigned char tag_of(uint64_t h) { return (unsigned char)(0x80 | (h >> 57)); }

static int key_eq(const sl_map *m, size_t i, const key_ref *k) {
  if (m->kind == SL_MAP_U64) return m->keys[i] == k->u;
  const char *s = slot_str(m, i);
  return strlen(s) == k->len && memcmp(s, k->s, k->len) == 0;
}

/* The slot holding k, or the empty slot where it would go (*found says which).
** m->cap > 0. */
static size_t probe(const sl_map *m, uint64_t h, const key_ref *k, int *found) {
  size_t mask = m->cap - 1;
  unsigned char tag = tag_of(h);
  for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
    if (!m->ctrl[i]) {
      *found = 0;
      return i;
    }
    if (m->ctrl[i] == tag && key_eq(m, i, k)) {
      *found = 1;
      return i;
    }
  }
}

static void resize(sl_map *m, size_t nc) {
  sl_map old = *m;
  m->ctrl = sl_mem_calloc(nc, 1);
  m->keys = sl_mem_array(NULL, nc, sizeof *m->keys);
  m->vals = sl_mem_array(NULL, nc, sizeof *m->vals);
  m->cap = nc;
  for (size_t i = 0; i < old.cap; i++) {
    if (!old.ctrl[i]) continue;
    size_t j = (size_t)slot_hash(&old, i) & (nc - 1);
    while (m->ctrl[j]) j = (j + 1) & (nc - 1);
    m->ctrl[j] = old.ctrl[i];
    m->keys[j] = old.keys[i];
    m->vals[j] = old.vals[i];
  }
  sl_mem_free(old.ctrl);
  sl_mem_free(old.keys);
  sl_mem_free(old.vals);
}

static size_t cap_for(size_t n) {
  size_t c = 16;
  while (c / 4 * 3 < n) c *= 2;
  return c;
}

void sl_map_init(sl_map *m, sl_map_kind kind) {
  memset(m, 0, sizeof *m);
  m->kind = kind;
}

void sl_map_free(sl_map *m) {
  if (m->kind == SL_MAP_STR)
    for (size_t i = 0; i < m->cap; i++)
      if (m->ctrl[i]) sl_mem_free((void *)(uintptr_t)m->keys[i]);
  sl_mem_free(m->ctrl);
  sl_mem_free(m->keys);
  sl_mem_free(m->vals);
  sl_map_init(m, m->kind);
}

void sl_map_reserve(sl_map *m, size_t n) {
  size_t nc = cap_for(n);
  if (nc > m->cap) resize(m, nc);
}

static uint64_t *ref(sl_map *m, const key_ref *k, int *added) {
  if ((m->n + 1) * 4 > m->cap * 3) resize(m, m->cap ? m->cap * 2 : 16);
  uint64_t h = ref_hash(m, k);
  int found;
  size_t i = probe(m, h, k, &found);
  if (added) *added = !found;
  if (!found) {
    m->ctrl[i] = tag_of(h);
    if (m->kind == SL_MAP_U64) m->keys[i] = k->u;
    else m->keys[i] = (uintptr_t)(m->kind == SL_MAP_STR ? sl_mem_strndup(k->s, k->len) : k->s);
    m->vals[i] = 0;
    m->n++;
  }
  return &m->vals[i];
}

/* The slot holding k, or m->cap when k is absent. */
static size_t find(const sl_map *m, const key_ref *k) {
  if (!m->n) return m->cap;
  int found;
  size_t i = probe(m, ref_hash(m, k), k, &found);
  return found ? i : m->cap;
}

static int get(const sl_map *m, const key_ref *k, uint64_t *val) {
  size_t i = find(m, k);
  if (i == m->cap) return 0;
  if (val) *val = m->vals[i];
  return 1;
}

/* Remove slot i, then walk its probe run: an entry whose home slot is not in
** (hole, j] cyclically may fill the hole, which moves the hole to it. */
static void remove_slot(sl_map *m, size_t i) {
  size_t mask = m->cap - 1, hole = i;
  if (m->kind == SL_MAP_STR) sl_mem_free((void *)(uintptr_t)m->keys[i]);
  for (size_t j = (i + 1) & mask; m->ctrl[j]; j = (j + 1) & mask) {
    size_t home = (size_t)slot_hash(m, j) & mask;
    if (((j - home) & mask) < ((j - hole) & mask)) continue;
    m->ctrl[hole] = m->ctrl[j];
    m->keys[hole] = m->keys[j];
    m->vals[hole] = m->vals[j];
    hole = j;
  }
  m->ctrl[hole] = 0;
  m->n--;
}

static int del(sl_map *m, const key_ref *k) {
  if (!m->n) return 0;
  int found;
  size_t i = probe(m, ref_hash(m, k), k, &found);
  if (found) remove_slot(m, i);
  return found;
}

int sl_map_u64_get(const sl_map *m, uint64_t key, uint64_t *val) {
  key_ref k = {.u = key};
  return get(m, &k, val);
}

void sl_map_u64_put(sl_map *m, uint64_t key, uint64_t val) { *sl_map_u64_ref(m, key, NULL) = val; }

uint64_t *sl_map_u64_find(sl_map *m, uint64_t key) {
  key_ref k = {.u = key};
  size_t i = find(m, &k);
  return i < m->cap ? &m->vals[i] : NULL;
}

uint64_t *sl_map_u64_ref(sl_map *m, uint64_t key, int *added) {
  key_ref k = {.u = key};
  return ref(m, &k, added);
}

int sl_map_u64_del(sl_map *m, uint64_t key) {
  key_ref k = {.u = key};
  return del(m, &k);
}

int sl_map_str_get(const sl_map *m, const char *s, size_t len, uint64_t *val) {
  key_ref k = {.s = s, .len = len};
  return get(m, &k, val);
}

void sl_map_str_put(sl_map *m, const char *s, size_t len, uint64_t val) { *sl_map_str_ref(m, s, len, NULL) = val; }

uint64_t *sl_map_str_ref(sl_map *m, const char *s, size_t len, int *added) {
  key_ref k = {.s = s, .len = len};
  return ref(m, &k, added);
}

int sl_map_str_del(sl_map *m, const char *s, size_t len) {
  key_ref k = {.s = s, .len = len};
  return del(m, &k);
}

size_t sl_map_next(const sl_map *m, size_t i) {
  while (i < m->cap && !m->ctrl[i]) i++;
  return i < m->cap ? i : m->cap;
}
