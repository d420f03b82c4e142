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

#endif
