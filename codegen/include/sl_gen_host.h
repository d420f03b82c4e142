/*
** sl_gen_host.h — run the Lua schema generator (codegen/main.lua) on an embedded
** Lua 5.4 state. Shared by the `swimlane-gen` program and `swimlane schema`.
*/
#ifndef SL_GEN_HOST_H
#define SL_GEN_HOST_H

/* Run <codegen_dir>/main.lua with argv[1..argc-1] as its arguments. `prog` prefixes
** error messages ("swimlane-gen: ..."). default_schema / default_out are used when
** --schema / --out are absent. Returns the process exit status (0 ok, 1 error, 2 usage). */
int sl_gen_run(const char *prog, const char *codegen_dir, const char *default_schema,
               const char *default_out, int argc, char **argv);

/* The same in steps, for many runs on one state (the schema fuzz target): open makes
** the state and compiles main.lua (NULL on error, printed); each call runs it with
** argv under a fresh instruction budget, the codegen modules required once. */
struct lua_State;
struct lua_State *sl_gen_open(const char *prog, const char *codegen_dir, const char *default_schema,
                              const char *default_out);
int sl_gen_call(struct lua_State *L, int argc, char **argv);
void sl_gen_close(struct lua_State *L);

#endif
