/*
** sl_err.h — error values: libraries return them, commands print them.
**
** A library function that can fail for a reason the user must see (a file that
** cannot be read, bad input) returns an sl_status marked SL_MUST_CHECK and
** describes the failure on an sl_err the caller passed in. Only the first error
** is kept: later ones, usually consequences of the first, are dropped (as
** nanopb keeps the first errmsg on its stream). The command prints it once, as
** "swimlane: <file>: <what>", and chooses the exit status.
**
**   sl_err err = SL_ERR_INIT;
**   if (sl_file_read(path, &buf, &len, &err) != SL_OK) return sl_err_report(&err);
**
** Inside a library:
**   if (bad) return sl_err_set(err, path, "line %d: expected a number", line);
*/
#ifndef SL_ERR_H
#define SL_ERR_H

#include <stdarg.h>
#include <stddef.h>

/* Put on every function that returns a status: ignoring it is a compile warning. */
#define SL_MUST_CHECK __attribute__((warn_unused_result))

typedef enum sl_status { SL_OK = 0, SL_FAIL = -1 } sl_status;

typedef struct sl_err {
  char *file; /* what the message is about (a path, "<stdout>"); NULL: nothing in particular */
  char *msg;  /* NULL while no error is set */
} sl_err;

#define SL_ERR_INIT {NULL, NULL}

/* Record an error unless one is already set; returns SL_FAIL either way, so a
** library can `return sl_err_set(...)`. err may be NULL (nothing recorded). */
sl_status sl_err_set(sl_err *err, const char *file, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
sl_status sl_err_setv(sl_err *err, const char *file, const char *fmt, va_list ap);
/* Non-zero when an error is set. */
int sl_err_is_set(const sl_err *err);
/* Print "swimlane: <file>: <msg>" (nothing when no error is set). */
void sl_err_print(const sl_err *err);
/* The same as a warning: "swimlane: warning: <file>: <msg>". */
void sl_err_warn(const sl_err *err);
/* Forget the error and free its text; the value is SL_ERR_INIT again. */
void sl_err_clear(sl_err *err);
/* A command's last step: print, clear, and return exit status 1. */
int sl_err_report(sl_err *err);

/* Messages a library keeps for its command, in the order found: errors and warnings
** that do not stop the work (records dropped, a task the trace cannot draw). The
** command prints them with sl_notes_print. A zeroed sl_notes ({0}) is empty. */
typedef struct sl_note {
  sl_err what;
  int warning; /* 1: printed as a warning, 0: as an error */
} sl_note;
typedef struct sl_notes {
  sl_note *v;
  size_t n, cap;
} sl_notes;

void sl_notes_add(sl_notes *l, int warning, const char *file, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void sl_notes_addv(sl_notes *l, int warning, const char *file, const char *fmt, va_list ap);
/* Print every note ("swimlane: [warning: ]<file>: <what>") in order, then forget them. */
void sl_notes_print(sl_notes *l);
/* Forget the notes unprinted and release the list. */
void sl_notes_free(sl_notes *l);

#endif /* SL_ERR_H */
