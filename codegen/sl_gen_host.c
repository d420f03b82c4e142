/*
** sl_gen_host.c — the embedded-Lua host of the schema generator.
**
** Lua has no portable directory primitives, so the host adds a few to a global
** `slgen` table: mkdirs, mkdtemp, rmdir, isdir. Everything else (loading,
** validation, layout, emitters, atomic output) is Lua in codegen/.
*/
#include "sl_gen_host.h"

#include <errno.h>
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sl_base.h"

static int push_errno(lua_State *L, const char *what) {
  lua_pushnil(L);
  lua_pushfstring(L, "%s: %s", what, strerror(errno));
  return 2;
}

/* slgen.mkdirs(path) -> true | nil, err   (mkdir -p) */
static int l_mkdirs(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  size_t n = strlen(path);
  char *p = malloc(n + 1);
  if (!p) return luaL_error(L, "out of memory");
  memcpy(p, path, n + 1);
  for (char *c = p + 1; *c; c++) {
    if (*c != '/') continue;
    *c = '\0';
    if (mkdir(p, 0755) != 0 && errno != EEXIST) {
      free(p);
      return push_errno(L, path);
    }
    *c = '/';
  }
  int rc = mkdir(p, 0755);
  free(p);
  if (rc != 0 && errno != EEXIST) return push_errno(L, path);
  lua_pushboolean(L, 1);
  return 1;
}

/* slgen.mkdtemp(prefix) -> path | nil, err   (prefix gets "XXXXXX" appended) */
static int l_mkdtemp(lua_State *L) {
  const char *prefix = luaL_checkstring(L, 1);
  size_t n = strlen(prefix);
  char *tmpl = malloc(n + 7);
  if (!tmpl) return luaL_error(L, "out of memory");
  memcpy(tmpl, prefix, n);
  memcpy(tmpl + n, "XXXXXX", 7);
  if (!mkdtemp(tmpl)) {
    free(tmpl);
    return push_errno(L, prefix);
  }
  lua_pushstring(L, tmpl);
  free(tmpl);
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

static const luaL_Reg slgen_funcs[] = {
    {"mkdirs", l_mkdirs}, {"mkdtemp", l_mkdtemp}, {"rmdir", l_rmdir}, {"isdir", l_isdir}, {NULL, NULL}};

static void set_string(lua_State *L, const char *key, const char *value) {
  lua_pushstring(L, value);
  lua_setfield(L, -2, key);
}

int sl_gen_run(const char *prog, const char *codegen_dir, const char *default_schema,
               const char *default_out, int argc, char **argv) {
  lua_State *L = luaL_newstate();
  if (!L) {
    fprintf(stderr, "%s: cannot create a Lua state\n", prog);
    return 1;
  }
  sl_lua_limit(L); /* a schema file that loops forever ends with an error */
  luaL_openlibs(L);

  luaL_newlib(L, slgen_funcs);
  set_string(L, "prog", prog);
  set_string(L, "codegen_dir", codegen_dir);
  set_string(L, "default_schema", default_schema);
  set_string(L, "default_out", default_out);
  lua_setglobal(L, "slgen");

  lua_createtable(L, argc, 0);
  for (int i = 1; i < argc; i++) {
    lua_pushstring(L, argv[i]);
    lua_rawseti(L, -2, i);
  }
  lua_setglobal(L, "arg");

  /* codegen modules are found next to main.lua */
  lua_getglobal(L, "package");
  lua_pushfstring(L, "%s/?.lua", codegen_dir);
  lua_setfield(L, -2, "path");
  lua_pop(L, 1);

  char *main_path = malloc(strlen(codegen_dir) + sizeof "/main.lua");
  if (!main_path) {
    lua_close(L);
    return 1;
  }
  sprintf(main_path, "%s/main.lua", codegen_dir);
  int status = 1;
  if (luaL_loadfile(L, main_path) != LUA_OK || lua_pcall(L, 0, 1, 0) != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    fprintf(stderr, "%s: %s\n", prog, msg ? msg : "(non-string Lua error)");
  } else {
    status = lua_isinteger(L, -1) ? (int)lua_tointeger(L, -1) : 0;
  }
  free(main_path);
  lua_close(L);
  return status;
}
