/*
** reader_util.c — exact integers, the accepted levels for messages.
*/
#include "reader_util.h"

#include <stdio.h>
#include <string.h>

#include "sl_levels.h"

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

const char *sl_levels_accepted(char *buf, size_t cap) {
  size_t n = 0;
  buf[0] = 0;
  for (unsigned v = SL_LEVEL_AICORE_TIMING; v <= SL_LEVEL_MAX && n < cap; v++)
    n += (size_t)snprintf(buf + n, cap - n, "%s%s%u", v == SL_LEVEL_AICORE_TIMING ? "" : ", ",
                          v == SL_LEVEL_MAX && v > SL_LEVEL_AICORE_TIMING ? "or " : "", v);
  return buf;
}
