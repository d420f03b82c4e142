/*
** sl_lua_sandbox.c — what user Lua (conversion rules, workloads, L0 templates)
** may do: compute, read files, require modules from the package path. It may
** not run programs (os.execute, io.popen), load C code (package.loadlib, C
** searchers), load precompiled bytecode (it can crash the VM), remove or rename
** files, exit the process, or write files outside the output folder the running
** command declared (sl_lua_set_write_dir; none = no writes at all). Of the debug
** library only debug.traceback is left: the rest reaches what the sandbox hides
** (debug.getupvalue(io.open, 1) is the unconfined io.open, debug.sethook() turns
** the instruction budget off).
*/
#include <errno.h>
#include <lauxlib.h>
#include <limits.h>
#include <lua.h>
#include <stdlib.h>
#include <string.h>

#include "sl_base.h"

static char g_write_dir[PATH_MAX];

void sl_lua_set_write_dir(const char *dir) {
  g_write_dir[0] = '\0';
  if (dir && !realpath(dir, g_write_dir)) g_write_dir[0] = '\0';
}

/* Is path (a file that may not exist yet) inside the write folder? */
static int inside_write_dir(const char *path) {
  if (!g_write_dir[0]) return 0;
  char dir[PATH_MAX], real[PATH_MAX];
  const char *slash = strrchr(path, '/');
  if (!slash) snprintf(dir, sizeof dir, ".");
  else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path) + (slash == path), path);
  if (!realpath(dir, real)) return 0;
  size_t n = strlen(g_write_dir);
  return !strncmp(real, g_write_dir, n) && (real[n] == '\0' || real[n] == '/');
}

/* io.open(path, mode) with write modes confined to the write folder. */
static int sandbox_open(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  const char *mode = luaL_optstring(L, 2, "r");
  if (strpbrk(mode, "wa+") && !inside_write_dir(path)) {
    luaL_pushfail(L);
    lua_pushfstring(L, "%s: writing files outside the output folder is not allowed here", path);
    lua_pushinteger(L, EACCES);
    return 3;
  }
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

static void clear_field(lua_State *L, const char *table, const char *field) {
  lua_getglobal(L, table);
  if (lua_istable(L, -1)) {
    lua_pushnil(L);
    lua_setfield(L, -2, field);
  }
  lua_pop(L, 1);
}

/* debug = {traceback = debug.traceback}, for the global and for require("debug"). */
static void keep_traceback_only(lua_State *L) {
  lua_createtable(L, 0, 1);
  lua_getglobal(L, "debug");
  if (lua_istable(L, -1)) {
    lua_getfield(L, -1, "traceback");
    lua_setfield(L, -3, "traceback");
  }
  lua_pop(L, 1);
  lua_pushvalue(L, -1);
  lua_setglobal(L, "debug");
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  lua_insert(L, -2);
  lua_setfield(L, -2, "debug");
  lua_pop(L, 1);
}

/* Text-only load / loadfile / dofile (the environment argument kept as given). */
static const char prelude[] =
    "local rawload, rawloadfile, select = load, loadfile, select\n"
    "load = function(chunk, name, mode, ...)\n"
    "  if select('#', ...) > 0 then return rawload(chunk, name, 't', ...) end\n"
    "  return rawload(chunk, name, 't')\n"
    "end\n"
    "loadfile = function(file, mode, ...)\n"
    "  if select('#', ...) > 0 then return rawloadfile(file, 't', ...) end\n"
    "  return rawloadfile(file, 't')\n"
    "end\n"
    "dofile = function(file)\n"
    "  local f, err = rawloadfile(file, 't')\n"
    "  if not f then error(err, 2) end\n"
    "  return f()\n"
    "end\n";

int sl_lua_sandbox(lua_State *L) {
  static const char *const os_off[] = {"execute", "exit", "remove", "rename", "tmpname", "setlocale"};
  for (size_t i = 0; i < sizeof os_off / sizeof os_off[0]; i++) clear_field(L, "os", os_off[i]);
  clear_field(L, "io", "popen");
  clear_field(L, "io", "output"); /* io.output("file") would open it for writing */
  clear_field(L, "io", "tmpfile");
  clear_field(L, "package", "loadlib");
  keep_traceback_only(L);
  lua_getglobal(L, "package");
  lua_pushliteral(L, "");
  lua_setfield(L, -2, "cpath");
  lua_getfield(L, -1, "searchers"); /* keep the preload and Lua-file searchers only */
  if (lua_istable(L, -1))
    for (int i = (int)lua_rawlen(L, -1); i > 2; i--) {
      lua_pushnil(L);
      lua_rawseti(L, -2, i);
    }
  lua_pop(L, 2);
  lua_getglobal(L, "io");
  lua_getfield(L, -1, "open");
  lua_pushcclosure(L, sandbox_open, 1);
  lua_setfield(L, -2, "open");
  lua_pop(L, 1);
  if (luaL_loadbuffer(L, prelude, sizeof prelude - 1, "=sandbox") != LUA_OK || lua_pcall(L, 0, 0, 0) != LUA_OK) {
    lua_pop(L, 1);
    return -1;
  }
  return 0;
}
