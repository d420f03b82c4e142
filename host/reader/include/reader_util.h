/*
** reader_util.h — private helpers of the reader library: growable arrays,
** string interning, a uint64 -> index hash map, exact integer parsing.
*/
#ifndef SL_READER_UTIL_H
#define SL_READER_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "sl_capture.h"

/* Grow *arr (element size esz) so it holds at least need elements. 0 ok, -1 OOM. */
int sl_grow(void **arr, size_t *cap, size_t need, size_t esz);
#define SL_PUSH(arr, n, cap) \
  (((n) < (cap) || sl_grow((void **)&(arr), &(cap), (n) + 1, sizeof *(arr)) == 0) ? &(arr)[(n)++] : NULL)

/* ---- strings ---- */
int sl_strtab_init(sl_strtab *t);
void sl_strtab_free(sl_strtab *t);
/* Intern s[0..len); returns its index, SL_STR_NONE on OOM. */
sl_str sl_strtab_intern(sl_strtab *t, const char *s, size_t len);

/* ---- uint64 -> uint32 map ---- */
void sl_u64map_free(sl_u64map *m);
/* Insert or overwrite. 0 ok, -1 OOM. */
int sl_u64map_put(sl_u64map *m, uint64_t key, uint32_t val);
/* 1 found (*val set), 0 missing. */
int sl_u64map_get(const sl_u64map *m, uint64_t key, uint32_t *val);

/* ---- numbers ---- */
/* Parse a JSON integer text exactly. Returns 0 and sets *neg / *mag, or -1 if the
** text is not an integer (fraction / exponent) and -2 if it overflows 64 bits. */
int sl_parse_int(const char *s, size_t len, int *neg, uint64_t *mag);
/* Python-style id normalization: int text (string or number) -> uint64, negative
** values wrapped modulo 2^64. -1 when not parseable. */
int sl_normalize_id(const char *s, size_t len, uint64_t *out);

/* xmalloc-style formatted string; NULL on OOM. */
char *sl_strdupf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Read a whole file. NULL with errno set on failure. */
char *sl_slurp(const char *path, size_t *len);

#endif
