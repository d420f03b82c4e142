/*
** sl_jsonfmt.c — Python-compatible float repr and ensure_ascii string escaping.
*/
#include "sl_jsonfmt.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Shortest digits that round-trip. glibc printf rounds correctly, and a double
** carries more than 15 significant digits, so if 15 digits round-trip then the
** shortest string is those 15 with trailing zeros removed; otherwise 16 or 17. */
static int shortest_digits(double x, char *digits, int *exp10) {
  char tmp[40];
  for (int prec = 15; prec <= 17; prec++) {
    snprintf(tmp, sizeof tmp, "%.*e", prec - 1, x);
    if (prec == 17 || strtod(tmp, NULL) == x) break;
  }
  /* tmp = "d.ddddde[+-]XX" (x > 0 here) */
  int n = 0;
  const char *p = tmp;
  for (; *p && *p != 'e'; p++)
    if (*p >= '0' && *p <= '9') digits[n++] = *p;
  *exp10 = atoi(p + 1);
  while (n > 1 && digits[n - 1] == '0') n--;
  digits[n] = 0;
  return n;
}

size_t sl_fmt_pyfloat(char *buf, double x) {
  if (isnan(x)) return (size_t)sprintf(buf, "NaN");
  if (isinf(x)) return (size_t)sprintf(buf, x > 0 ? "Infinity" : "-Infinity");
  char *o = buf;
  if (signbit(x)) {
    *o++ = '-';
    x = -x;
  }
  if (x == 0) {
    strcpy(o, "0.0");
    return (size_t)(o - buf) + 3;
  }
  char d[24];
  int e;
  int n = shortest_digits(x, d, &e);
  if (e >= -4 && e < 16) {
    if (e < 0) {
      *o++ = '0';
      *o++ = '.';
      for (int i = 0; i < -e - 1; i++) *o++ = '0';
      memcpy(o, d, (size_t)n);
      o += n;
    } else {
      for (int i = 0; i <= e; i++) *o++ = i < n ? d[i] : '0';
      *o++ = '.';
      if (n > e + 1) {
        memcpy(o, d + e + 1, (size_t)(n - e - 1));
        o += n - e - 1;
      } else {
        *o++ = '0';
      }
    }
    *o = 0;
  } else {
    *o++ = d[0];
    if (n > 1) {
      *o++ = '.';
      memcpy(o, d + 1, (size_t)(n - 1));
      o += n - 1;
    }
    o += sprintf(o, "e%c%02d", e < 0 ? '-' : '+', e < 0 ? -e : e);
  }
  return (size_t)(o - buf);
}

/* Decode one UTF-8 code point; returns bytes used (>= 1), *cp = U+FFFD if invalid. */
static int utf8_next(const unsigned char *s, uint32_t *cp) {
  unsigned c = s[0];
  int len;
  uint32_t v;
  if (c < 0x80) {
    *cp = c;
    return 1;
  } else if ((c & 0xE0) == 0xC0) {
    len = 2;
    v = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    len = 3;
    v = c & 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    len = 4;
    v = c & 0x07;
  } else {
    *cp = 0xFFFD;
    return 1;
  }
  for (int i = 1; i < len; i++) {
    if ((s[i] & 0xC0) != 0x80) {
      *cp = 0xFFFD;
      return 1;
    }
    v = (v << 6) | (s[i] & 0x3F);
  }
  *cp = v > 0x10FFFF ? 0xFFFD : v;
  return len;
}

void sl_fput_jsonstr(FILE *fp, const char *str) {
  const unsigned char *s = (const unsigned char *)str;
  putc('"', fp);
  while (*s) {
    unsigned c = *s;
    if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
      /* fast path: a run of plain ASCII */
      const unsigned char *run = s;
      while (*s >= 0x20 && *s < 0x7F && *s != '"' && *s != '\\') s++;
      fwrite(run, 1, (size_t)(s - run), fp);
      continue;
    }
    switch (c) {
    case '"': fputs("\\\"", fp); s++; continue;
    case '\\': fputs("\\\\", fp); s++; continue;
    case '\n': fputs("\\n", fp); s++; continue;
    case '\r': fputs("\\r", fp); s++; continue;
    case '\t': fputs("\\t", fp); s++; continue;
    case '\b': fputs("\\b", fp); s++; continue;
    case '\f': fputs("\\f", fp); s++; continue;
    default: break;
    }
    uint32_t cp;
    s += utf8_next(s, &cp);
    if (cp >= 0x10000) {
      cp -= 0x10000;
      fprintf(fp, "\\u%04x\\u%04x", 0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF));
    } else {
      fprintf(fp, "\\u%04x", cp);
    }
  }
  putc('"', fp);
}
