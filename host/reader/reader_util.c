/*
** reader_util.c — growable arrays, interning, the uint64 map, exact integers.
*/
#include "reader_util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sl_grow(void **arr, size_t *cap, size_t need, size_t esz) {
  if (need <= *cap) return 0;
  size_t nc = *cap ? *cap : 16;
  while (nc < need) {
    if (nc > SIZE_MAX / 2 / esz) return -1;
    nc *= 2;
  }
  void *p = realloc(*arr, nc * esz);
  if (!p) return -1;
  *arr = p;
  *cap = nc;
  return 0;
}

/* FNV-1a: small strings (phase names, core types), so speed hardly matters. */
static uint32_t str_hash(const char *s, size_t len) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
  return h;
}

int sl_strtab_init(sl_strtab *t) {
  memset(t, 0, sizeof *t);
  t->cap = 16;
  t->strs = calloc(t->cap, sizeof *t->strs);
  t->hcap = 32;
  t->hash = calloc(t->hcap, sizeof *t->hash);
  if (!t->strs || !t->hash) return -1;
  t->n = 1; /* slot 0 = SL_STR_NONE */
  return 0;
}

void sl_strtab_free(sl_strtab *t) {
  if (t->strs)
    for (uint32_t i = 1; i < t->n; i++) free(t->strs[i]);
  free(t->strs);
  free(t->hash);
  memset(t, 0, sizeof *t);
}

static int strtab_rehash(sl_strtab *t) {
  uint32_t nc = t->hcap * 2;
  uint32_t *h = calloc(nc, sizeof *h);
  if (!h) return -1;
  for (uint32_t i = 1; i < t->n; i++) {
    uint32_t j = str_hash(t->strs[i], strlen(t->strs[i])) & (nc - 1);
    while (h[j]) j = (j + 1) & (nc - 1);
    h[j] = i;
  }
  free(t->hash);
  t->hash = h;
  t->hcap = nc;
  return 0;
}

sl_str sl_strtab_intern(sl_strtab *t, const char *s, size_t len) {
  uint32_t j = str_hash(s, len) & (t->hcap - 1);
  while (t->hash[j]) {
    const char *c = t->strs[t->hash[j]];
    if (strlen(c) == len && memcmp(c, s, len) == 0) return t->hash[j];
    j = (j + 1) & (t->hcap - 1);
  }
  if ((t->n + 1) * 2 > t->hcap) {
    if (strtab_rehash(t) != 0) return SL_STR_NONE;
    j = str_hash(s, len) & (t->hcap - 1);
    while (t->hash[j]) j = (j + 1) & (t->hcap - 1);
  }
  if (t->n == t->cap) {
    char **p = realloc(t->strs, (size_t)t->cap * 2 * sizeof *p);
    if (!p) return SL_STR_NONE;
    t->strs = p;
    t->cap *= 2;
  }
  char *c = malloc(len + 1);
  if (!c) return SL_STR_NONE;
  memcpy(c, s, len);
  c[len] = 0;
  t->strs[t->n] = c;
  t->hash[j] = t->n;
  return t->n++;
}

/* ---- uint64 map: open addressing, linear probing ---- */

static size_t u64_slot(uint64_t k, size_t cap) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  return (size_t)k & (cap - 1);
}

void sl_u64map_free(sl_u64map *m) {
  free(m->keys);
  free(m->vals);
  memset(m, 0, sizeof *m);
}

static int u64map_resize(sl_u64map *m, size_t nc) {
  uint64_t *k = malloc(nc * sizeof *k);
  uint32_t *v = malloc(nc * sizeof *v);
  if (!k || !v) {
    free(k);
    free(v);
    return -1;
  }
  memset(v, 0xff, nc * sizeof *v);
  for (size_t i = 0; i < m->cap; i++) {
    if (m->vals[i] == UINT32_MAX) continue;
    size_t j = u64_slot(m->keys[i], nc);
    while (v[j] != UINT32_MAX) j = (j + 1) & (nc - 1);
    k[j] = m->keys[i];
    v[j] = m->vals[i];
  }
  free(m->keys);
  free(m->vals);
  m->keys = k;
  m->vals = v;
  m->cap = nc;
  return 0;
}

int sl_u64map_put(sl_u64map *m, uint64_t key, uint32_t val) {
  if ((m->n + 1) * 2 > m->cap && u64map_resize(m, m->cap ? m->cap * 2 : 64) != 0) return -1;
  size_t j = u64_slot(key, m->cap);
  while (m->vals[j] != UINT32_MAX) {
    if (m->keys[j] == key) {
      m->vals[j] = val;
      return 0;
    }
    j = (j + 1) & (m->cap - 1);
  }
  m->keys[j] = key;
  m->vals[j] = val;
  m->n++;
  return 0;
}

int sl_u64map_get(const sl_u64map *m, uint64_t key, uint32_t *val) {
  if (!m->cap) return 0;
  size_t j = u64_slot(key, m->cap);
  while (m->vals[j] != UINT32_MAX) {
    if (m->keys[j] == key) {
      *val = m->vals[j];
      return 1;
    }
    j = (j + 1) & (m->cap - 1);
  }
  return 0;
}

/* ---- numbers ---- */

int sl_parse_int(const char *s, size_t len, int *neg, uint64_t *mag) {
  size_t i = 0;
  *neg = 0;
  if (i < len && (s[i] == '-' || s[i] == '+')) {
    *neg = s[i] == '-';
    i++;
  }
  if (i == len) return -1;
  uint64_t v = 0;
  for (; i < len; i++) {
    if (s[i] < '0' || s[i] > '9') return -1;
    unsigned d = (unsigned)(s[i] - '0');
    if (v > (UINT64_MAX - d) / 10) return -2;
    v = v * 10 + d;
  }
  *mag = v;
  return 0;
}

int sl_normalize_id(const char *s, size_t len, uint64_t *out) {
  /* Python int() accepts surrounding whitespace */
  while (len && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')) s++, len--;
  while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\n' || s[len - 1] == '\r')) len--;
  int neg;
  uint64_t mag;
  if (sl_parse_int(s, len, &neg, &mag) != 0) return -1;
  if (neg && mag > (uint64_t)1 << 63) return -1; /* below int64 range: treated as unparsable */
  *out = neg ? (uint64_t)0 - mag : mag;
  return 0;
}

char *sl_strdupf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) return NULL;
  char *s = malloc((size_t)n + 1);
  if (!s) return NULL;
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

char *sl_slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    size_t r = fread(buf + n, 1, cap - n, f);
    n += r;
    if (n < cap) break;
    char *nb = realloc(buf, cap * 2);
    if (!nb) {
      free(buf);
      buf = NULL;
      errno = ENOMEM;
      break;
    }
    buf = nb;
    cap *= 2;
  }
  int err = ferror(f);
  fclose(f);
  if (buf && err) {
    free(buf);
    errno = EIO;
    return NULL;
  }
  if (buf) *len = n;
  return buf;
}
