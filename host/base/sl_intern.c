/*
** sl_intern.c — the string interner.
**
** Design. Two structures that always agree: strs, the array of interned copies
** indexed by id (so id -> text is one load), and ids, an sl_map of kind
** SL_MAP_STR_BORROWED whose keys are those same copies (so text -> id is one
** probe and every text is stored once). Adding a text copies it, appends the
** copy to strs and maps the copy to its index. Ids are never reused or
** removed, which keeps every id and every returned address valid until
** sl_intern_free.
*/
#include "sl_intern.h"

#include "sl_mem.h"
#include "sl_vec.h"

#include <stdlib.h>
#include <string.h>

void sl_intern_init(sl_intern *t) {
  memset(t, 0, sizeof *t);
  sl_map_init(&t->ids, SL_MAP_STR_BORROWED);
  t->n = 1; /* id 0 is SL_INTERN_NONE */
}

void sl_intern_free(sl_intern *t) {
  for (size_t i = 1; i < t->n; i++) sl_mem_free(t->strs[i]);
  sl_mem_free(t->strs);
  sl_map_free(&t->ids);
  memset(t, 0, sizeof *t);
}

uint32_t sl_intern_find(const sl_intern *t, const char *s, size_t len) {
  uint64_t id;
  return sl_map_str_get(&t->ids, s, len, &id) ? (uint32_t)id : SL_INTERN_NONE;
}

uint32_t sl_intern_add(sl_intern *t, const char *s, size_t len) {
  uint32_t id = sl_intern_find(t, s, len);
  if (id != SL_INTERN_NONE) return id;
  if (t->n == 0) sl_intern_init(t); /* a zeroed interner works too */
  if (t->n > UINT32_MAX - 1) sl_mem_fail(0);
  char *copy = sl_mem_strndup(s, len);
  t->strs = sl_array_grow(t->strs, &t->cap, t->n + 1, sizeof *t->strs);
  t->strs[t->n] = copy;
  sl_map_str_put(&t->ids, copy, len, t->n);
  return (uint32_t)t->n++;
}

const char *sl_intern_str(const sl_intern *t, uint32_t id) {
  return id != SL_INTERN_NONE && id < t->n ? t->strs[id] : NULL;
}
