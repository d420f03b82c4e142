/*
** sl_jsonfmt.h — number and string formatting the way Python's json.dump writes
** them, so our traces diff cleanly against the reference's.
*/
#ifndef SL_JSONFMT_H
#define SL_JSONFMT_H

#include <stddef.h>
#include <stdio.h>

/* Python repr(float): shortest round-trip digits, fixed notation for decimal
** exponents in [-4, 16) (always with a fractional part), else 1e-05 / 1.5e+16.
** NaN / Infinity / -Infinity as json.dump writes them. buf needs 32 bytes.
** Returns the length. */
size_t sl_fmt_pyfloat(char *buf, double x);

/* Write a JSON string with ensure_ascii escaping (\uXXXX for non-ASCII, surrogate
** pairs above U+FFFF). Invalid UTF-8 bytes are written as U+FFFD. */
void sl_fput_jsonstr(FILE *fp, const char *s);
/* The same into dst (needs 6 * strlen(s) + 3 bytes); returns the length. */
size_t sl_json_escape(char *dst, const char *s);

#endif
