/*
** sl_gen_host.c — the embedded-Lua host of the schema generator.
**
** Lua has no portable directory primitives, so the host adds a few to a global
** `slgen` table: mkdirs, mkdtemp, rmdir, isdir; and fnv1a64 (the schema
** fingerprint's hash, byte by byte in Lua it was half of a `swimlane schema` run).
** Everything else (loading, validation, layout, emitters, atomic output) is Lua in
** codegen/.
*/
#include "sl_gen_host.h"

#include <errno.h>
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sl_base.h"
#include "sl_mem.h"

static int push_errno(lua_State *L, const char *what) {
  lua_pushnil(L);
  lua_pushfstring(L, "%s: %s", what, strerror(errno));
  return 2;
}

/* slgen.mkdirs(path) -> true | nil, err   (mkdir -p) */
static int l_mkdirs(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  char *p = sl_mem_strdup(path);
  for (char *c = p + 1; *c; c++) {
    if (*c != '/') continue;
    *c = '\0';
    if (mkdir(p, 0755) != 0 && errno != EEXIST) {
      sl_mem_free(p);
      return push_errno(L, path);
    }
    *c = '/';
  }
  int rc = mkdir(p, 0755);
  sl_mem_free(p);
  if (rc != 0 && errno != EEXIST) return push_errno(L, path);
  lua_pushboolean(L, 1);
  return 1;
}

/* slgen.mkdtemp(prefix) -> path | nil, err   (prefix gets "XXXXXX" appended) */
static int l_mkdtemp(lua_State *L) {
  const char *prefix = luaL_checkstring(L, 1);
  char *tmpl = sl_mem_printf("%sXXXXXX", prefix);
  if (!mkdtemp(tmpl)) {
    sl_mem_free(tmpl);
    return push_errno(L, prefix);
  }
  lua_pushstring(L, tmpl);
  sl_mem_free(tmpl);
  return 1;
}

/* slgen.rmdir(path) -> true | nil, err   (empty directories only) */
static int l_rmdir(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  if (rmdir(path) != 0) return push_errno(L, path);
  lua_pushboolean(L, 1);
  return 1;
}

/* slgen.isdir(path) -> boolean */
static int l_isdir(lua_State *L) {
  struct stat st;
  lua_pushboolean(L, stat(luaL_checkstring(L, 1), &st) == 0 && S_ISDIR(st.st_mode));
  return 1;
}

/* slgen.fnv1a64(text) -> 16 hex digits (FNV-1a 64) */
static int l_fnv1a64(lua_State *L) {
  size_t n;
  const unsigned char *s = (const unsigned char *)luaL_checklstring(L, 1, &n);
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; i++) h = (h ^ s[i]) * 0x100000001b3ull;
  char hex[17];
  snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
  lua_pushstring(L, hex);
  return 1;
}

static const luaL_Reg slgen_funcs[] = {{"mkdirs", l_mkdirs}, {"mkdtemp", l_mkdtemp}, {"rmdir", l_rmdir},
                                       {"isdir", l_isdir},   {"fnv1a64", l_fnv1a64}, {NULL, NULL}};

static void set_string(lua_State *L, const char *key, const char *value) {
  lua_pushstring(L, value);
  lua_setfield(L, -2, key);
}

#define MAIN_KEY "sl_gen_main"

lua_State *sl_gen_open(const char *prog, const char *codegen_dir, const char *default_schema,
                       const char *default_out) {
  lua_State *L = luaL_newstate();
  if (!L) {
    fprintf(stderr, "%s: cannot create a Lua state\n", prog);
    return NULL;
  }
  sl_lua_limit(L); /* a schema file that loops forever ends with an error */
  luaL_openlibs(L);

  luaL_newlib(L, slgen_funcs);
  set_string(L, "prog", prog);
  set_string(L, "codegen_dir", codegen_dir);
  set_string(L, "default_schema", default_schema);
  set_string(L, "default_out", default_out);
  lua_setglobal(L, "slgen");

  /* codegen modules are found next to main.lua */
  lua_getglobal(L, "package");
  lua_pushfstring(L, "%s/?.lua", codegen_dir);
  lua_setfield(L, -2, "path");
  lua_pop(L, 1);

  lua_pushfstring(L, "%s/main.lua", codegen_dir);
  if (luaL_loadfile(L, lua_tostring(L, -1)) != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    fprintf(stderr, "%s: %s\n", prog, msg ? msg : "(non-string Lua error)");
    lua_close(L);
    return NULL;
  }
  lua_setfield(L, LUA_REGISTRYINDEX, MAIN_KEY);
  lua_pop(L, 1);
  return L;
}

int sl_gen_call(lua_State *L, int argc, char **argv) {
  sl_lua_limit(L); /* the budget is per run */
  lua_createtable(L, argc, 0);
  for (int i = 1; i < argc; i++) {
    lua_pushstring(L, argv[i]);
    lua_rawseti(L, -2, i);
  }
  lua_setglobal(L, "arg");
  lua_getfield(L, LUA_REGISTRYINDEX, MAIN_KEY);
  int status = 1;
  if (lua_pcall(L, 0, 1, 0) != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    lua_getglobal(L, "slgen");
    lua_getfield(L, -1, "prog");
    const char *prog = lua_tostring(L, -1);
    fprintf(stderr, "%s: %s\n", prog ? prog : "swimlane", msg ? msg : "(non-string Lua error)");
    lua_pop(L, 2);
  } else {
    status = lua_isinteger(L, -1) ? (int)lua_tointeger(L, -1) : 0;
  }
  lua_pop(L, 1);
  return status;
}

void sl_gen_close(lua_State *L) {
  if (L) lua_close(L);
}

int sl_gen_run(const char *prog, const char *codegen_dir, const char *default_schema,
               const char *default_out, int argc, char **argv) {
  lua_State *L = sl_gen_open(prog, codegen_dir, default_schema, default_out);
  if (!L) return 1;
  int status = sl_gen_call(L, argc, argv);
  sl_gen_close(L);
  return status;
}
