/*
** sl_vec.c — the growth rule of every growable array.
**
** Design. An array of `cap` slots grows to the smallest power-of-two multiple
** of its capacity (16 for an empty one) that holds `need` elements, so n pushes
** cost O(n) copies in total and a capacity is always 0 or 16 * 2^k. The byte
** size is checked against SIZE_MAX before it is formed; an overflow or a
** failed allocation ends in sl_mem_fail, never in a short array.
*/
#include "sl_vec.h"

#include "sl_mem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void *sl_array_grow(void *arr, size_t *cap, size_t need, size_t esz) {
  if (need <= *cap) return arr;
  size_t nc = *cap ? *cap : 16;
  while (nc < need) {
    if (nc > SIZE_MAX / 2) sl_mem_fail(SIZE_MAX);
    nc *= 2;
  }
  arr = sl_mem_array(arr, nc, esz);
  *cap = nc;
  return arr;
}

void *sl_array_zero(void *arr, size_t i, size_t esz) {
  char *e = (char *)arr + i * esz;
  memset(e, 0, esz);
  return e;
}

void sl_array_free(void *arr) { sl_mem_free(arr); }

void sl_array_sort(void *arr, size_t n, size_t esz, int (*cmp)(const void *, const void *)) {
  if (n > 1) qsort(arr, n, esz, cmp);
}
