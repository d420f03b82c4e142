/*
** sl_base.h — small services every swimlane tool shares:
** error reporting that names the file, output files that appear only when
** complete (write to a temporary, rename on success), the install home, and
** an embedded Lua state with swimlane's script path.
**
** This is the bottom layer of the host side: it depends on libc and Lua only.
*/
#ifndef SL_BASE_H
#define SL_BASE_H

#include <stdarg.h>
#include <stdio.h>

struct lua_State;

/* ---- errors ------------------------------------------------------------------ */

/* Print "swimlane: <file>: <message>\n" to stderr (file may be NULL). */
void sl_error(const char *file, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sl_verror(const char *file, const char *fmt, va_list ap);
/* Same, prefixed "warning: ". */
void sl_warn(const char *file, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- all-or-nothing output files ---------------------------------------------- */

/* An output file written to "<path>.tmp.<pid>" and renamed over <path> by
** sl_outfile_commit. sl_outfile_abort (or a failed commit) removes the temporary,
** so a failed run never leaves a half-written file behind. */
typedef struct sl_outfile {
  FILE *fp;
  char *path;
  char *tmp_path;
} sl_outfile;

int sl_outfile_open(sl_outfile *of, const char *path);   /* 0 ok, -1 error (reported) */
int sl_outfile_commit(sl_outfile *of);                    /* 0 ok, -1 error (reported) */
void sl_outfile_abort(sl_outfile *of);

/* ---- paths -------------------------------------------------------------------- */

/* The swimlane source/install root holding schema/ and lua/: $SWIMLANE_HOME if
** set, else <binary>/../share/swimlane when installed there (cmake --install),
** else the source directory baked in at build time. */
const char *sl_home(void);
/* Join into a newly malloc'd string: sl_path_join("a", "b/c") -> "a/b/c". */
char *sl_path_join(const char *dir, const char *rel);
/* mkdir -p; 0 ok, -1 error (reported). */
int sl_mkdirs(const char *path);

/* ---- embedded Lua ------------------------------------------------------------- */

/* A new Lua state with the standard libraries and package.path covering
** <home>/lua/?.lua and <home>/lua/?/init.lua. NULL on allocation failure. */
struct lua_State *sl_lua_new(void);
/* Run a Lua file, leaving its results on the stack; on error print
** "swimlane: <file>: <lua message>" and return -1. */
int sl_lua_dofile(struct lua_State *L, const char *path, int nresults);

#endif /* SL_BASE_H */
