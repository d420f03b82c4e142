/*
** sl_rt_mem.c — the device side's allocator (sl_rt_mem.h): the only file of
** runtime/ that calls the C allocator. Every path that cannot get memory goes
** through rt_fail, which hands over to the host's failure function when one is
** installed, so a simulated run that runs out of memory ends exactly as the host
** does (temporaries removed, one message, exit 1).
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sl_rt_mem.h"

static void (*volatile g_fail)(size_t n);

void sl_rt_mem_on_failure(void (*fail)(size_t n)) { g_fail = fail; }

_Noreturn static void rt_fail(size_t n) {
  void (*fail)(size_t) = g_fail;
  if (fail) fail(n); /* does not return */
  fflush(stdout);
  fprintf(stderr, "swimlane: out of memory (could not allocate %zu bytes)\n", n);
  _exit(1);
}

void *sl_rt_realloc(void *p, size_t n) {
  if (n == 0) {
    free(p);
    return NULL;
  }
  void *q = realloc(p, n);
  if (!q) rt_fail(n);
  return q;
}

void *sl_rt_alloc(size_t n) { return sl_rt_realloc(NULL, n ? n : 1); }

void *sl_rt_grow(void *arr, size_t *cap, size_t need, size_t esz) {
  if (need <= *cap) return arr;
  size_t nc = *cap ? *cap : 4;
  while (nc < need) {
    if (nc > SIZE_MAX / 2) rt_fail(SIZE_MAX);
    nc *= 2;
  }
  if (esz && nc > SIZE_MAX / esz) rt_fail(SIZE_MAX);
  arr = sl_rt_realloc(arr, nc * esz);
  *cap = nc;
  return arr;
}

void *sl_rt_try_calloc(size_t count, size_t size) {
  if (size && count > SIZE_MAX / size) return NULL;
  size_t n = count * size;
  return calloc(1, n ? n : 1);
}

void *sl_rt_calloc(size_t count, size_t size) {
  if (size && count > SIZE_MAX / size) rt_fail(SIZE_MAX);
  void *q = sl_rt_try_calloc(count, size);
  if (!q) rt_fail(count * size);
  return q;
}

void *sl_rt_aligned(size_t align, size_t n) {
  size_t rounded = (n + align - 1) & ~(align - 1);
  if (rounded < n) rt_fail(SIZE_MAX);
  void *q = aligned_alloc(align, rounded ? rounded : align);
  if (!q) rt_fail(rounded);
  return q;
}

void sl_rt_free(void *p) { free(p); }

char *sl_rt_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(sl_rt_alloc(n), s, n);
}
