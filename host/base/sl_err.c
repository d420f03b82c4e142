/*
** sl_err.c — error values. The first error set on an sl_err wins; its texts
** are heap copies, so the message may name buffers the failing code frees.
*/
#include "sl_err.h"

#include "sl_base.h"
#include "sl_mem.h"
#include "sl_vec.h"

#include <stdio.h>
#include <stdlib.h>

sl_status sl_err_setv(sl_err *err, const char *file, const char *fmt, va_list ap) {
  if (!err || err->msg) return SL_FAIL;
  va_list cp;
  va_copy(cp, ap);
  int n = vsnprintf(NULL, 0, fmt, cp);
  va_end(cp);
  if (n < 0) n = 0;
  err->msg = sl_mem_alloc((size_t)n + 1);
  err->msg[0] = '\0';
  vsnprintf(err->msg, (size_t)n + 1, fmt, ap);
  err->file = file ? sl_mem_strdup(file) : NULL;
  return SL_FAIL;
}

sl_status sl_err_set(sl_err *err, const char *file, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sl_status st = sl_err_setv(err, file, fmt, ap);
  va_end(ap);
  return st;
}

int sl_err_is_set(const sl_err *err) { return err && err->msg; }

void sl_err_print(const sl_err *err) {
  if (sl_err_is_set(err)) sl_error(err->file, "%s", err->msg);
}

void sl_err_warn(const sl_err *err) {
  if (sl_err_is_set(err)) sl_warn(err->file, "%s", err->msg);
}

void sl_err_clear(sl_err *err) {
  sl_mem_free(err->file);
  sl_mem_free(err->msg);
  err->file = err->msg = NULL;
}

int sl_err_report(sl_err *err) {
  sl_err_print(err);
  sl_err_clear(err);
  return 1;
}

void sl_notes_addv(sl_notes *l, int warning, const char *file, const char *fmt, va_list ap) {
  sl_note *n = sl_array_push(l->v, l->n, l->cap);
  *n = (sl_note){.what = SL_ERR_INIT, .warning = warning};
  (void)sl_err_setv(&n->what, file, fmt, ap);
}

void sl_notes_add(sl_notes *l, int warning, const char *file, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sl_notes_addv(l, warning, file, fmt, ap);
  va_end(ap);
}

void sl_notes_print(sl_notes *l) {
  for (size_t i = 0; i < l->n; i++) {
    if (l->v[i].warning) sl_err_warn(&l->v[i].what);
    else sl_err_print(&l->v[i].what);
  }
  sl_notes_free(l);
}

void sl_notes_free(sl_notes *l) {
  for (size_t i = 0; i < l->n; i++) sl_err_clear(&l->v[i].what);
  sl_array_free(l->v);
  *l = (sl_notes){0};
}
