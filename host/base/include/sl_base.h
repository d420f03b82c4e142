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

#include "sl_file.h" /* all-or-nothing output files (sl_outfile), whole-file reading */

struct lua_State;

/* ---- errors ------------------------------------------------------------------ */

/* Print "swimlane: <file>: <message>\n" to stderr (file may be NULL). */
void sl_error(const char *file, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sl_verror(const char *file, const char *fmt, va_list ap);
/* Same, prefixed "warning: ". */
void sl_warn(const char *file, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- standard streams ---------------------------------------------------------- */

/* Process start: a closed stdin/stdout/stderr is reopened so files never land on
** descriptors 0-2 (stdout on /dev/full, so writes to it fail). */
void sl_stdio_guard(void);
/* Process end: flush stdout; -1 with "swimlane: <stdout>: write failed: ..." if
** anything written to it was lost (full disk, closed pipe). */
int sl_stdout_finish(void);

/* ---- paths -------------------------------------------------------------------- */

/* The swimlane source/install root holding schema/ and lua/: $SWIMLANE_HOME if
** set, else <binary>/../share/swimlane when installed there (cmake --install),
** else the source directory baked in at build time. */
const char *sl_home(void);
/* Join into a new string (free it): sl_path_join("a", "b/c") -> "a/b/c". Never NULL. */
char *sl_path_join(const char *dir, const char *rel);
/* mkdir -p; 0 ok, -1 error (reported). */
int sl_mkdirs(const char *path);

/* ---- JSON text ---------------------------------------------------------------- */

/* One past the '}' closing the JSON object that opens at p (*p == '{'), matching
** braces outside strings; NULL when it does not close before end. Used to cut a
** small block (metadata) out of the head of a large capture without parsing it all. */
const char *sl_json_object_end(const char *p, const char *end);

/* ---- embedded Lua ------------------------------------------------------------- */

/* A new Lua state with the standard libraries, sandboxed (sl_lua_sandbox), under
** the instruction budget, and package.path covering <home>/lua/?.lua and
** <home>/lua/?/init.lua. NULL on allocation failure. */
struct lua_State *sl_lua_new(void);
/* Take away what user Lua must not do (sl_lua_sandbox.c): os.execute, io.popen,
** C modules, bytecode, removing files, exiting, writing outside the write folder.
** 0 ok, -1 on allocation failure. */
int sl_lua_sandbox(struct lua_State *L);
/* The folder user Lua may write files in (NULL: none, the default). */
void sl_lua_set_write_dir(const char *dir);
/* Every state made afterwards stops a script with an error after about n VM
** instructions (0 = no limit; the default allows about 2e10, $SWIMLANE_LUA_LIMIT
** overrides the default). */
void sl_lua_set_instruction_limit(unsigned long long n);
/* Put a state made elsewhere (the schema compiler's) under that same budget. */
void sl_lua_limit(struct lua_State *L);
/* Run a Lua file, leaving its results on the stack; on error print
** "swimlane: <file>: <lua message>" and return -1. */
int sl_lua_dofile(struct lua_State *L, const char *path, int nresults);

#endif /* SL_BASE_H */
