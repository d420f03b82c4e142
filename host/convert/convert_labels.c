/*
** convert_labels.c — task id display, function letters, SPMD suffix.
*/
#include "convert_labels.h"
#include "sl_mem.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Decimal digits of v at o; returns the end. */
static char *put_dec(char *o, uint64_t v) {
  char t[24];
  int n = 0;
  do {
    t[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  while (n) *o++ = t[--n];
  return o;
}

/* Called for every drawn task and phase: digits by hand, not snprintf. */
char *sl_tdisp(char *buf, uint64_t raw) {
  unsigned ring = (unsigned)((raw >> 32) & 0xFF);
  char *o = buf;
  if (ring) {
    *o++ = 'r';
    o = put_dec(o, ring);
  }
  *o++ = 't';
  *put_dec(o, raw & 0xFFFFFFFFu) = 0;
  return buf;
}

char *sl_func_letters(char *buf, int64_t func_id) {
  int n = snprintf(buf, 40, "%" PRId64 "_", func_id);
  if (func_id < 0) return buf;
  /* bijective base 26 of func_id + 1, most significant letter first */
  char rev[16];
  int k = 0;
  uint64_t v = (uint64_t)func_id + 1;
  while (v > 0) {
    v -= 1;
    rev[k++] = (char)('a' + (int)(v % 26));
    v /= 26;
  }
  while (k > 0) buf[n++] = rev[--k];
  buf[n] = 0;
  return buf;
}

char *sl_func_default_name(char *buf, int64_t func_id) {
  char l[40];
  snprintf(buf, 48, "func_%s", sl_func_letters(l, func_id));
  return buf;
}

static int contains_spmd(const char *s, size_t n) {
  for (size_t i = 0; i + 4 <= n; i++)
    if (tolower((unsigned char)s[i]) == 's' && tolower((unsigned char)s[i + 1]) == 'p' &&
        tolower((unsigned char)s[i + 2]) == 'm' && tolower((unsigned char)s[i + 3]) == 'd')
      return 1;
  return 0;
}

char *sl_spmd_suffix(const char *label) {
  const char *paren = strchr(label, '(');
  size_t base_len = paren ? (size_t)(paren - label) : strlen(label);
  if (!paren || contains_spmd(label, base_len)) return sl_mem_strdup(label);
  size_t len = strlen(label);
  char *out = sl_mem_alloc(len + 6);
  memcpy(out, label, base_len);
  memcpy(out + base_len, "_spmd", 5);
  memcpy(out + base_len + 5, paren, len - base_len + 1);
  return out;
}

char *sl_task_label(const char *base, uint64_t raw, int spmd) {
  char t[32];
  sl_tdisp(t, raw);
  size_t nb = strlen(base), nt = strlen(t);
  char *s = sl_mem_alloc(nb + nt + 3);
  memcpy(s, base, nb);
  s[nb] = '(';
  memcpy(s + nb + 1, t, nt);
  memcpy(s + nb + 1 + nt, ")", 2);
  if (!spmd) return s;
  char *r = sl_spmd_suffix(s);
  sl_mem_free(s);
  return r;
}
