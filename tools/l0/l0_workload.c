/*
** l0_workload.c — step 1: read a workload's incores and cases.
**
** The workload is the same Lua file `swimlane run` executes (docs/workloads.md);
** L0 only reads its data: class, incores {func_id, name, source, core_type},
** cases {name, platforms}. Kernel sources are relative to the repository root.
*/
#include <lauxlib.h>
#include <lua.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "l0_internal.h"
#include "sl_base.h"
#include "sl_mem.h"

char *sl_l0_workload_resolve(const char *spec) {
  if (access(spec, R_OK) == 0) return sl_mem_strdup(spec);
  if (!strchr(spec, '/')) {
    char rel[512];
    snprintf(rel, sizeof rel, "lua/workloads/%s%s", spec,
             strlen(spec) > 4 && !strcmp(spec + strlen(spec) - 4, ".lua") ? "" : ".lua");
    char *p = sl_path_join(sl_home(), rel);
    if (p && access(p, R_OK) == 0) return p;
    sl_mem_free(p);
  }
  return NULL;
}

static char *field_str(lua_State *L, int idx, const char *key) {
  lua_getfield(L, idx, key);
  char *s = lua_type(L, -1) == LUA_TSTRING ? sl_mem_strdup(lua_tostring(L, -1)) : NULL;
  lua_pop(L, 1);
  return s;
}

static char *base_name(const char *path) {
  const char *b = strrchr(path, '/');
  b = b ? b + 1 : path;
  const char *dot = strrchr(b, '.');
  return dot ? sl_mem_strndup(b, (size_t)(dot - b)) : sl_mem_strdup(b);
}

static int load_incores(lua_State *L, const char *path, sl_l0_workload *w) {
  lua_getfield(L, -1, "incores");
  if (!lua_istable(L, -1)) {
    sl_error(path, "workload has no incores table");
    return -1;
  }
  int n = (int)luaL_len(L, -1);
  w->incores = sl_mem_calloc((size_t)(n ? n : 1), sizeof *w->incores);
  for (int i = 1; i <= n; i++) {
    lua_geti(L, -1, i);
    int top = lua_gettop(L);
    sl_l0_incore *ic = &w->incores[w->nincores];
    lua_getfield(L, top, "func_id");
    int ok = lua_isinteger(L, -1);
    ic->func_id = ok ? (int)lua_tointeger(L, -1) : -1;
    lua_pop(L, 1);
    char *src = field_str(L, top, "source");
    ic->core_type = field_str(L, top, "core_type");
    ic->name = field_str(L, top, "name");
    ic->expect = field_str(L, top, "l0_expect");
    lua_pop(L, 1);
    if (!ok || !src || !ic->core_type) {
      sl_error(path, "incores[%d]: needs an integer func_id, a source and a core_type", i);
      sl_mem_free(src);
      sl_mem_free(ic->core_type);
      sl_mem_free(ic->name);
      sl_mem_free(ic->expect);
      memset(ic, 0, sizeof *ic);
      return -1;
    }
    ic->source = src[0] == '/' ? sl_mem_strdup(src) : sl_path_join(sl_home(), src);
    if (!ic->name) ic->name = base_name(src);
    sl_mem_free(src);
    w->nincores++;
  }
  lua_pop(L, 1);
  return 0;
}

static int load_cases(lua_State *L, const char *path, sl_l0_workload *w) {
  lua_getfield(L, -1, "cases");
  if (!lua_istable(L, -1)) {
    lua_pop(L, 1);
    return 0; /* a workload without cases: --case is then required to be absent */
  }
  int n = (int)luaL_len(L, -1);
  w->cases = sl_mem_calloc((size_t)(n ? n : 1), sizeof *w->cases);
  for (int i = 1; i <= n; i++) {
    lua_geti(L, -1, i);
    int top = lua_gettop(L);
    sl_l0_case *c = &w->cases[w->ncases];
    c->name = field_str(L, top, "name");
    if (!c->name) {
      sl_error(path, "cases[%d] has no name", i);
      lua_pop(L, 1);
      return -1;
    }
    lua_getfield(L, top, "platforms");
    if (lua_istable(L, -1)) {
      int np = (int)luaL_len(L, -1);
      c->platforms = sl_mem_calloc((size_t)(np ? np : 1), sizeof *c->platforms);
      for (int k = 1; k <= np; k++) {
        lua_geti(L, -1, k);
        if (lua_type(L, -1) == LUA_TSTRING) c->platforms[c->nplatforms++] = sl_mem_strdup(lua_tostring(L, -1));
        lua_pop(L, 1);
      }
    }
    lua_pop(L, 2);
    w->ncases++;
  }
  lua_pop(L, 1);
  return 0;
}

int sl_l0_workload_load(const char *path, sl_l0_workload *w) {
  memset(w, 0, sizeof *w);
  lua_State *L = sl_lua_new();
  if (!L) {
    sl_error(path, "cannot create a Lua state");
    return -1;
  }
  int rc = -1;
  if (sl_lua_dofile(L, path, 1) != 0) goto out;
  if (!lua_istable(L, -1)) {
    sl_error(path, "a workload must return a table");
    goto out;
  }
  w->path = sl_mem_strdup(path);
  w->class_name = field_str(L, -1, "class");
  if (!w->class_name) {
    sl_error(path, "workload has no class name");
    goto out;
  }
  if (load_incores(L, path, w) != 0 || load_cases(L, path, w) != 0) goto out;
  rc = 0;
out:
  lua_close(L);
  if (rc != 0) sl_l0_workload_free(w);
  return rc;
}

void sl_l0_workload_free(sl_l0_workload *w) {
  for (int i = 0; i < w->nincores; i++) {
    sl_mem_free(w->incores[i].name);
    sl_mem_free(w->incores[i].source);
    sl_mem_free(w->incores[i].expect);
    sl_mem_free(w->incores[i].core_type);
  }
  for (int i = 0; i < w->ncases; i++) {
    sl_mem_free(w->cases[i].name);
    for (int k = 0; k < w->cases[i].nplatforms; k++) sl_mem_free(w->cases[i].platforms[k]);
    sl_mem_free(w->cases[i].platforms);
  }
  sl_mem_free(w->incores);
  sl_mem_free(w->cases);
  sl_mem_free(w->class_name);
  sl_mem_free(w->path);
  memset(w, 0, sizeof *w);
}

const sl_l0_incore *sl_l0_workload_incore(const sl_l0_workload *w, int func_id) {
  for (int i = 0; i < w->nincores; i++)
    if (w->incores[i].func_id == func_id) return &w->incores[i];
  return NULL;
}

const sl_l0_case *sl_l0_workload_auto_case(const sl_l0_workload *w, const char *platform) {
  for (int i = 0; i < w->ncases; i++)
    for (int k = 0; k < w->cases[i].nplatforms; k++)
      if (!strcmp(w->cases[i].platforms[k], platform)) return &w->cases[i];
  return NULL;
}

const sl_l0_case *sl_l0_workload_case(const sl_l0_workload *w, const char *name) {
  const char *sep = strstr(name, "::"); /* ClassName::Case */
  if (sep) name = sep + 2;
  for (int i = 0; i < w->ncases; i++)
    if (!strcmp(w->cases[i].name, name)) return &w->cases[i];
  return NULL;
}
