/*
** reader_util.h — private helpers of the reader library: exact integer parsing and
** the accepted levels for messages. Containers and strings come from the base library
** (sl_vec.h, sl_map.h, sl_intern.h, sl_mem.h).
*/
#ifndef SL_READER_UTIL_H
#define SL_READER_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "sl_capture.h"
#include "sl_mem.h"
#include "sl_vec.h"

/* ---- numbers ---- */
/* Parse a JSON integer text exactly. Returns 0 and sets *neg / *mag, or -1 if the
** text is not an integer (fraction / exponent) and -2 if it overflows 64 bits. */
int sl_parse_int(const char *s, size_t len, int *neg, uint64_t *mag);
/* Python-style id normalization: int text (string or number) -> uint64, negative
** values wrapped modulo 2^64. -1 when not parseable. */
int sl_normalize_id(const char *s, size_t len, uint64_t *out);

/* "1, 2, 3, or 4": the capture levels the reader accepts (SL_LEVEL_AICORE_TIMING up to
** SL_LEVEL_MAX, generated/sl_levels.h), for messages. Returns buf. */
const char *sl_levels_accepted(char *buf, size_t cap);

#endif
