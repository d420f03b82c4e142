/*
** reader_util.h — private helpers of the reader library: exact integer parsing,
** and the old names of the base library's containers.
*/
#ifndef SL_READER_UTIL_H
#define SL_READER_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "sl_capture.h"
#include "sl_mem.h"
#include "sl_vec.h"

/* Containers come from the base library (sl_vec.h, sl_intern.h, sl_map.h). The three
** names below remain for reader_json.c, reader_pb.c and reader_join.c until they use
** the base library directly; growth never fails (sl_mem.h), so sl_grow returns 0. */
int sl_grow(void **arr, size_t *cap, size_t need, size_t esz);
#define SL_PUSH sl_array_push
static inline sl_str sl_strtab_intern(sl_strtab *t, const char *s, size_t len) { return sl_intern_add(t, s, len); }

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

/* Formatted string (sl_mem_printf; the old name, for reader_join.c). */
#define sl_strdupf sl_mem_printf

#endif
