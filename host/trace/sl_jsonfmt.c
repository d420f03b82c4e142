/*
** sl_jsonfmt.c — Python-compatible float repr and ensure_ascii string escaping.
*/
#include "sl_jsonfmt.h"
#include "sl_mem.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Round the 17 significant digits d17 to n digits into out; returns the decimal
** exponent change (1 when rounding carried into a new leading digit), or -1 when
** d17 sits exactly on a rounding midpoint, where rounding twice could differ
** from rounding x once (the caller then asks printf directly). */
static int round_digits(const char *d17, int n, char *out) {
  if (d17[n] == '5') {
    int rest_zero = 1;
    for (int i = n + 1; i < 17; i++)
      if (d17[i] != '0') rest_zero = 0;
    if (rest_zero) return -1;
  }
  memcpy(out, d17, (size_t)n);
  if (d17[n] < '5') return 0;
  int i = n - 1;
  while (i >= 0 && out[i] == '9') out[i--] = '0';
  if (i >= 0) {
    out[i]++;
    return 0;
  }
  out[0] = '1'; /* 999.. -> 1000.. */
  return 1;
}

static int roundtrips(const char *digits, int n, int e, double x) {
  char buf[48];
  int k = 0;
  buf[k++] = digits[0];
  buf[k++] = '.';
  memcpy(buf + k, digits + 1, (size_t)(n - 1));
  k += n - 1;
  snprintf(buf + k, sizeof buf - (size_t)k, "e%d", e);
  return strtod(buf, NULL) == x;
}

/* Shortest digits that round-trip, correctly rounded (what Python's repr picks).
** glibc printf rounds correctly and a double carries more than 15 significant
** digits, so if 15 digits round-trip the shortest string is those 15 without
** trailing zeros; otherwise 16 or 17. One printf gives 17 digits; the 15- and
** 16-digit candidates are rounded from it (x > 0 here). */
/* Subnormals carry fewer significant bits: search every precision. */
static int shortest_digits_slow(double x, char *digits, int *exp10) {
  char tmp[40];
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(tmp, sizeof tmp, "%.*e", prec - 1, x);
    if (strtod(tmp, NULL) == x) break;
  }
  int n = 0;
  const char *p = tmp;
  for (; *p && *p != 'e'; p++)
    if (*p >= '0' && *p <= '9') digits[n++] = *p;
  *exp10 = atoi(p + 1);
  while (n > 1 && digits[n - 1] == '0') n--;
  digits[n] = 0;
  return n;
}

static int shortest_digits(double x, char *digits, int *exp10) {
  if (x < DBL_MIN) return shortest_digits_slow(x, digits, exp10);
  char tmp[40], d17[18];
  snprintf(tmp, sizeof tmp, "%.16e", x);
  int n = 0;
  const char *p = tmp;
  for (; *p && *p != 'e'; p++)
    if (*p >= '0' && *p <= '9') d17[n++] = *p;
  int e17 = atoi(p + 1);
  /* if 15 digits round-trip so do 16 (the 15 padded with a zero), so a failing
  ** 16 settles the common 17-digit case with one strtod */
  int found = 0;
  char d16[18];
  int e16 = e17;
  int c16 = round_digits(d17, 16, d16);
  if (c16 < 0) {
    snprintf(tmp, sizeof tmp, "%.15e", x);
    int k = 0;
    for (p = tmp; *p && *p != 'e'; p++)
      if (*p >= '0' && *p <= '9') d16[k++] = *p;
    e16 = atoi(p + 1);
  } else {
    e16 += c16;
  }
  if (roundtrips(d16, 16, e16, x)) {
    /* A 15-digit midpoint (c15 < 0) never round-trips: every 15-digit decimal is at
    ** least 0.495 units of the 15th digit from x, about 5e-16 of x, and half an ulp
    ** is at most 1.1e-16 of x. So only a rounded candidate is tried. */
    int c15 = round_digits(d17, 15, digits);
    int e15 = e17 + c15;
    if (c15 >= 0 && roundtrips(digits, 15, e15, x)) {
      n = 15;
      *exp10 = e15;
    } else {
      memcpy(digits, d16, 16);
      n = 16;
      *exp10 = e16;
    }
    found = 1;
  }
  if (!found) {
    memcpy(digits, d17, 17);
    n = 17;
    *exp10 = e17;
  }
  while (n > 1 && digits[n - 1] == '0') n--;
  digits[n] = 0;
  return n;
}

/* ---- fast path: x in [1e-5, 1e15), 80-bit long double arithmetic -------------------
** x * 10^n with an exactly representable 10^n (n <= 27) is off by at most 2^-64
** relative, far below the decimal rounding steps we look at; whenever a result sits
** too close to a rounding boundary to be sure, the fast path gives up and the exact
** printf / strtod path above decides. */
static const long double pow10l_tab[28] = {
    1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,  1e7L,  1e8L,  1e9L,
    1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L,
    1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L};

/* Does D * 10^k (D < 2^64, |k| <= 27) read back as x? 1 yes, 0 no, -1 unsure. */
static int ld_roundtrips(uint64_t D, int k, double x) {
  long double v = k >= 0 ? (long double)D * pow10l_tab[k] : (long double)D / pow10l_tab[-k];
  long double diff = v - (long double)x;
  long double half = diff >= 0 ? ((long double)nextafter(x, INFINITY) - (long double)x) / 2
                               : ((long double)x - (long double)nextafter(x, 0.0)) / 2;
  long double a = diff < 0 ? -diff : diff;
  long double margin = (long double)x * 0x1p-61L;
  if (a < half - margin) return 1;
  if (a > half + margin) return 0;
  return -1;
}

/* Correctly rounded p-digit significand of y (y's integer part has 17 digits):
** round(y / 10^(17-p)); -1 when too close to a midpoint to be sure. */
static int64_t ld_round(long double y, int p) {
  long double t = y / pow10l_tab[17 - p];
  long double f = floorl(t);
  long double frac = t - f;
  if (frac > 0.49L && frac < 0.51L) return -1;
  return (int64_t)f + (frac > 0.5L);
}

/* Shortest digits via the fast path; 0 if it cannot decide. */
static int fast_digits(double x, char *digits, int *exp10) {
#if LDBL_MANT_DIG < 64
  return 0; /* the error bounds below need at least x87's 64-bit significand */
#endif
  if (!(x >= 1e-5 && x < 1e15)) return 0;
  int e10 = (int)floor(log10(x));
  long double y = 0;
  for (int tries = 0; tries < 2; tries++) {
    int n = 16 - e10; /* y = x * 10^n in [1e16, 1e17) */
    if (n < 0 || n > 27) return 0;
    y = (long double)x * pow10l_tab[n];
    if (y < 1e16L) {
      e10--;
      continue;
    }
    if (y >= 1e17L) {
      e10++;
      continue;
    }
    break;
  }
  if (!(y >= 1e16L && y < 1e17L)) return 0;
  for (int p = 15; p <= 17; p++) {
    int64_t D = ld_round(y, p);
    if (D < 0) return 0;
    int e = e10;
    if (D >= (int64_t)pow10l_tab[p]) { /* 999.. rounded up to 1000.. */
      D /= 10;
      e++;
    }
    int ok = ld_roundtrips((uint64_t)D, e - (p - 1), x);
    if (ok < 0) return 0;
    if (!ok && p < 17) continue;
    if (!ok) return 0; /* 17 digits always round-trip: we were wrong, bail out */
    char tmp[20];
    int n = 0;
    do {
      tmp[n++] = (char)('0' + D % 10);
      D /= 10;
    } while (D);
    if (n != p) return 0;
    for (int i = 0; i < n; i++) digits[i] = tmp[n - 1 - i];
    while (n > 1 && digits[n - 1] == '0') n--;
    digits[n] = 0;
    *exp10 = e;
    return n;
  }
  return 0;
}

/* ---- exact fixed-notation path: x in [1e-4, 2^53), integer arithmetic only -------
** x = m * 2^q. Its rounding interval, in units of 2^(q-2), is [4m-2, 4m+2] (the
** lower end is 4m-1 at a power of two, where the spacing below halves); whether its
** ends belong to it never decides anything here (see fixed_repr). A decimal D * 10^-k
** lies in it iff lo * 10^k <= D * 2^(2-q) <= hi * 10^k. The first k with such a D gives the fewest
** fractional digits, hence (x >= 1e-4 fixes the notation) the fewest significant
** digits; among several, repr takes the one nearest x, ties to even D. Everything
** fits 128 bits: 4m < 2^55 and k <= 20 (10^20 < 2^67), since 17 significant digits
** always round-trip and x >= 1e-4. This is exact, never a heuristic: the
** printf/strtod and long double paths only see exponent-form and huge values. */
/* D * 10^-k in fixed notation, with at least one digit on each side of the point. */
static size_t put_fixed(char *o, uint64_t D, int k) {
  char t[24];
  int n = 0;
  do {
    t[n++] = (char)('0' + D % 10);
    D /= 10;
  } while (D);
  char *w = o;
  if (n > k) {
    for (int i = n - 1; i >= k; i--) *w++ = t[i];
    *w++ = '.';
    if (k == 0) *w++ = '0';
    for (int i = k - 1; i >= 0; i--) *w++ = t[i];
  } else {
    *w++ = '0';
    *w++ = '.';
    for (int i = n; i < k; i++) *w++ = '0';
    for (int i = n - 1; i >= 0; i--) *w++ = t[i];
  }
  *w = 0;
  return (size_t)(w - o);
}

/* ---- picosecond path: almost every value we write is a time in µs that is the double
** nearest a whole number N of ps (N * 10^-6). For x in [1e-4, 2^32) the rounding interval
** of x is narrower than 10^-6 (ulp <= 2^-20), so N * 10^-6 is the only decimal with at
** most 6 fractional digits that reads back as x: it is the shortest repr, N with its
** trailing zeros dropped. (double)N / 1e6 is correctly rounded, so the test is exact. */
static size_t ps_repr(char *o, double x) {
  if (!(x >= 1e-4 && x < 4294967296.0)) return 0;
  uint64_t N = (uint64_t)(x * 1e6 + 0.5);
  if ((double)N / 1e6 != x) return 0;
  int k = 6;
  while (k > 0 && N % 10 == 0) {
    N /= 10;
    k--;
  }
  return put_fixed(o, N, k);
}

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 u128;

/* Writes x's repr (x > 0) into o and returns its length, or 0 if x is out of range. */
static size_t fixed_repr(char *o, double x) {
  if (!(x >= 1e-4 && x < 9007199254740992.0)) return 0; /* [1e-4, 2^53) */
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  int be = (int)(bits >> 52); /* x > 0: no sign bit; x >= 1e-4: normal */
  uint64_t frac = bits & ((1ull << 52) - 1);
  uint64_t m = frac | (1ull << 52);
  int s = 1075 - be + 2; /* 2 - q: x in [2^-14, 2^53) gives s in [2, 68] */
  u128 lo = 4 * (u128)m - (frac == 0 ? 1 : 2), hi = 4 * (u128)m + 2, mid = 4 * (u128)m;
  /* Whether the rounding interval's ends belong to it (round-half-even: they do for an
  ** even mantissa) never matters here: an end times 10^k is an integer only from a k at
  ** which the interval is 50 or more units wide, and the loop stops at the first k whose
  ** interval holds an integer, where it is at most 10 units wide. */
  for (int k = 0; k <= 21; k++, lo *= 10, hi *= 10, mid *= 10) { /* bounds * 10^k */
    u128 L = lo, U = hi, X = mid;
    u128 dlo = L >> s, dhi = U >> s;
    if ((dlo << s) != L) dlo++; /* ceil */
    if (dlo > dhi) continue;
    u128 d = X >> s, rem = X - (d << s), half = (u128)1 << (s - 1);
    if (rem > half || (rem == half && (d & 1))) d++;
    if (d < dlo) d = dlo;
    if (d > dhi) d = dhi;
    uint64_t D = (uint64_t)d; /* <= 17 digits */
    while (k > 0 && D % 10 == 0) { /* cannot happen at the first k; kept for safety */
      D /= 10;
      k--;
    }
    return put_fixed(o, D, k);
  }
  return 0;
}
#else
static size_t fixed_repr(char *o, double x) {
  (void)o;
  (void)x;
  return 0;
}
#endif

/* Traces repeat many values (durations, args): a small per-thread cache of the
** formatted text, keyed by the bit pattern, skips most of the digit search. */
#define PYF_CACHE 8192
typedef struct pyf_entry {
  uint64_t bits;
  uint8_t len, used;
  char text[30];
} pyf_entry;
static _Thread_local pyf_entry *pyf_cache;

static size_t fmt_pyfloat_uncached(char *buf, double x);

size_t sl_fmt_pyfloat(char *buf, double x) {
  if (x > 0) { /* the common case, cheaper than the cache's memory access */
    size_t n = ps_repr(buf, x);
    if (n) return n;
  }
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  if (!pyf_cache) pyf_cache = sl_mem_calloc(PYF_CACHE, sizeof *pyf_cache);
  pyf_entry *e = &pyf_cache[(bits * 0x9E3779B97F4A7C15ull) >> 51];
  if (e->used && e->bits == bits) {
    memcpy(buf, e->text, e->len + 1u);
    return e->len;
  }
  size_t n = fmt_pyfloat_uncached(buf, x);
  if (n < sizeof e->text) {
    e->bits = bits;
    e->used = 1;
    e->len = (uint8_t)n;
    memcpy(e->text, buf, n + 1);
  }
  return n;
}

static size_t fmt_pyfloat_uncached(char *buf, double x) {
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
  size_t fixed = fixed_repr(o, x);
  if (fixed) return (size_t)(o - buf) + fixed;
  char d[24];
  int e;
  int n = fast_digits(x, d, &e);
  if (n == 0) n = shortest_digits(x, d, &e);
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

size_t sl_json_escape(char *dst, const char *str) {
  static const char hex[] = "0123456789abcdef";
  const unsigned char *s = (const unsigned char *)str;
  char *o = dst;
  *o++ = '"';
  while (*s) {
    unsigned c = *s;
    if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
      /* copy the run of plain ASCII in one go */
      const unsigned char *run = s;
      do
        s++;
      while (*s >= 0x20 && *s < 0x7F && *s != '"' && *s != '\\');
      memcpy(o, run, (size_t)(s - run));
      o += s - run;
      continue;
    }
    const char *esc = NULL;
    switch (c) {
    case '"': esc = "\\\""; break;
    case '\\': esc = "\\\\"; break;
    case '\n': esc = "\\n"; break;
    case '\r': esc = "\\r"; break;
    case '\t': esc = "\\t"; break;
    case '\b': esc = "\\b"; break;
    case '\f': esc = "\\f"; break;
    default: break;
    }
    if (esc) {
      *o++ = esc[0];
      *o++ = esc[1];
      s++;
      continue;
    }
    uint32_t cp;
    s += utf8_next(s, &cp);
    uint32_t units[2];
    int nu = 0;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      units[nu++] = 0xD800 + (cp >> 10);
      units[nu++] = 0xDC00 + (cp & 0x3FF);
    } else {
      units[nu++] = cp;
    }
    for (int i = 0; i < nu; i++) {
      *o++ = '\\';
      *o++ = 'u';
      *o++ = hex[(units[i] >> 12) & 15];
      *o++ = hex[(units[i] >> 8) & 15];
      *o++ = hex[(units[i] >> 4) & 15];
      *o++ = hex[units[i] & 15];
    }
  }
  *o++ = '"';
  *o = 0;
  return (size_t)(o - dst);
}

void sl_fput_jsonstr(FILE *fp, const char *str) {
  size_t n = strlen(str);
  char small[512];
  char *buf = n * 6 + 3 <= sizeof small ? small : sl_mem_alloc(n * 6 + 3);
  fwrite(buf, 1, sl_json_escape(buf, str), fp);
  if (buf != small) sl_mem_free(buf);
}
