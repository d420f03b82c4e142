/*
** sl_intern.h — string interner: each distinct text gets one small id.
**
** Ids are dense and given in first-seen order, starting at 1; id 0
** (SL_INTERN_NONE) means "no string". The interned copy of a text lives as long
** as the interner, so its address can be kept and compared instead of the text.
**
**   sl_intern t;
**   sl_intern_init(&t);
**   uint32_t id = sl_intern_add(&t, name, strlen(name));
**   const char *s = sl_intern_str(&t, id);
**   sl_intern_free(&t);
*/
#ifndef SL_INTERN_H
#define SL_INTERN_H

#include <stddef.h>
#include <stdint.h>

#include "sl_map.h"

#define SL_INTERN_NONE 0u

typedef struct sl_intern {
  sl_map ids;  /* text -> id; keys borrowed from strs */
  char **strs; /* strs[id]; strs[0] unused */
  size_t n, cap; /* n = 1 + the number of strings */
} sl_intern;

void sl_intern_init(sl_intern *t);
void sl_intern_free(sl_intern *t);
/* The id of s[0..len) (a text without NUL), added when new. Never fails. */
uint32_t sl_intern_add(sl_intern *t, const char *s, size_t len);
/* The id of s[0..len), or SL_INTERN_NONE when it was never added. */
uint32_t sl_intern_find(const sl_intern *t, const char *s, size_t len);
/* The interned text of id; NULL for SL_INTERN_NONE or an id never given out. */
const char *sl_intern_str(const sl_intern *t, uint32_t id);
/* How many distinct strings it holds. */
static inline size_t sl_intern_count(const sl_intern *t) { return t->n ? t->n - 1 : 0; }

#endif /* SL_INTERN_H */
