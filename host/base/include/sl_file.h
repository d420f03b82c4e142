/*
** sl_file.h — files read whole and files written all or nothing.
**
** Output: an sl_outfile is written to "<target>.tmp.<pid>" and renamed over the
** target by sl_outfile_commit. sl_outfile_abort (or a failed commit) removes the
** temporary, and so do SIGINT/SIGTERM/SIGHUP (sl_outfile_trap_signals) and the
** out-of-memory path (sl_mem.h), so a failed run never leaves a half-written
** file behind. The target is what the path names: "-" is stdout; a symlink is
** kept and its file replaced; an existing device or FIFO is written in place
** (direct), never replaced by a regular file.
**
** Each operation comes in two forms: one that records its error on an sl_err
** (for libraries; the caller prints) and the older one that prints it itself
** as "swimlane: <file>: <what>" (for commands).
*/
#ifndef SL_FILE_H
#define SL_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "sl_err.h"

/* ---- reading ------------------------------------------------------------------ */

/* The whole file at path in a new buffer (free it), NUL-terminated one past
** *len. Fails with "cannot read: <reason>". */
SL_MUST_CHECK sl_status sl_file_read(const char *path, char **data, size_t *len, sl_err *err);

/* ---- all-or-nothing output ----------------------------------------------------- */

typedef struct sl_outfile {
  FILE *fp;
  char *path;     /* as given (messages) */
  char *target;   /* the regular file renamed over; NULL when direct */
  char *tmp_path; /* NULL when direct */
  int direct;
} sl_outfile;

SL_MUST_CHECK sl_status sl_outfile_begin(sl_outfile *of, const char *path, sl_err *err);
/* Close, check every write arrived, rename into place; the outfile is released
** either way. */
SL_MUST_CHECK sl_status sl_outfile_end(sl_outfile *of, sl_err *err);
/* Drop the output: close and remove the temporary. */
void sl_outfile_abort(sl_outfile *of);
/* path's whole new content is data[0..len), all or nothing. */
SL_MUST_CHECK sl_status sl_file_write(const char *path, const void *data, size_t len, sl_err *err);

/* The printing forms: 0 ok, -1 error (reported). */
int sl_outfile_open(sl_outfile *of, const char *path);
int sl_outfile_commit(sl_outfile *of);
/* path's whole new content is text and a newline, all or nothing ("-": stdout). */
int sl_file_write_line(const char *path, const char *text);
/* Before the work starts: can an output be written at path? 0 yes, -1 no (reported). */
int sl_output_check(const char *path);

/* SIGINT/SIGTERM/SIGHUP (when not already handled) remove every open outfile's
** temporary, then end the process by the signal. */
void sl_outfile_trap_signals(void);
/* Remove every open outfile's temporary now (async-signal-safe). */
void sl_outfile_remove_temporaries(void);

#endif /* SL_FILE_H */
