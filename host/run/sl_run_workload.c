/*
** sl_run_workload.c — find a workload file, run it, and check the table it returns
** (class, incores, cases, orchestrate); every problem names the file.
*/
#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "sl_base.h"
#include "sl_run_internal.h"
#include "sl_mem.h"

/* Bounded copy that always terminates (truncating long names). */
static void copy_str(char *dst, size_t len, const char *src) {
  size_t n = strlen(src);
  if (n >= len) n = len - 1;
  memcpy(dst, src, n);
  dst[n] = 0;
}

static int is_file(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The workload file arg names: a path (with '/' or ending in .lua), else
** <home>/lua/workloads/<arg>.lua; a path that is no file is tried there too
** (`l3/mixed_pair`). 0 found (in out), -1 not, with the message in msg. */
static int find_path(const char *arg, char *out, size_t len, char *msg, size_t mlen) {
  size_t n = strlen(arg);
  int is_path = strchr(arg, '/') || (n > 4 && !strcmp(arg + n - 4, ".lua"));
  if (is_path && is_file(arg)) return snprintf(out, len, "%s", arg), 0;
  if (is_path && (n > 4 && !strcmp(arg + n - 4, ".lua")))
    return snprintf(msg, mlen, "no such workload file"), -1;
  char rel[512];
  snprintf(rel, sizeof rel, "lua/workloads/%s.lua", arg);
  char *p = sl_path_join(sl_home(), rel);
  int ok = is_file(p);
  if (ok) snprintf(out, len, "%s", p);
  else if (is_path) snprintf(msg, mlen, "no such workload file");
  else snprintf(msg, mlen, "unknown workload '%s' (no %s)", arg, p);
  sl_mem_free(p);
  return ok ? 0 : -1;
}

static int resolve_path(sl_workload *wl, const char *arg) {
  char msg[1200];
  if (find_path(arg, wl->path, sizeof wl->path, msg, sizeof msg)) {
    if (strchr(arg, '/') || strstr(arg, ".lua")) sl_error(arg, "%s", msg);
    else sl_error(NULL, "%s", msg);
    return -1;
  }
  const char *base = strrchr(wl->path, '/');
  base = base ? base + 1 : wl->path;
  copy_str(wl->name, sizeof wl->name, base);
  char *dot = strrchr(wl->name, '.');
  if (dot) *dot = 0;
  return 0;
}

static int field_string(lua_State *L, int idx, const char *key, char *out, size_t len) {
  lua_getfield(L, idx, key);
  int ok = lua_type(L, -1) == LUA_TSTRING;
  if (ok) copy_str(out, len, lua_tostring(L, -1));
  lua_pop(L, 1);
  return ok;
}

/* Optional `runtimes = { "tmr", "hbg" }` (default: both). */
static int parse_runtimes(lua_State *L, int t, const char *f, unsigned *out) {
  lua_getfield(L, t, "runtimes");
  *out = 0;
  if (lua_isnil(L, -1)) *out = 1u << SL_RT_TMR | 1u << SL_RT_HBG;
  else if (lua_istable(L, -1))
    for (lua_Integer i = 1; i <= (lua_Integer)lua_rawlen(L, -1); i++) {
      lua_rawgeti(L, -1, i);
      const char *r = lua_tostring(L, -1);
      if (r && !strcmp(r, "tmr")) *out |= 1u << SL_RT_TMR;
      else if (r && !strcmp(r, "hbg")) *out |= 1u << SL_RT_HBG;
      else *out = 0, i = (lua_Integer)lua_rawlen(L, -2);
      lua_pop(L, 1);
    }
  lua_pop(L, 1);
  if (*out) return 0;
  sl_error(f, "'runtimes' must be a non-empty list of \"tmr\" / \"hbg\"");
  return -1;
}

/* Optional `l3 = { ranks = N [, dispatches = K] }`: the workload is an L3 group of N
** chips (`run` then runs as `run --ranks N`). Reported when f is not NULL. */
static int parse_l3(lua_State *L, int t, const char *f, int *ranks, int *dispatches) {
  *ranks = *dispatches = 0;
  lua_getfield(L, t, "l3");
  int ok = 1;
  if (!lua_isnil(L, -1)) {
    ok = lua_istable(L, -1);
    lua_Integer v[2] = {0, 0};
    static const char *const keys[] = {"ranks", "dispatches"};
    for (int k = 0; k < 2 && ok; k++) {
      lua_getfield(L, -1, keys[k]);
      if (!lua_isnil(L, -1) || k == 0) {
        v[k] = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : 0;
        ok = v[k] >= 1 && v[k] <= SL_WORKLOAD_MAX_RANKS;
      }
      lua_pop(L, 1);
    }
    *ranks = (int)v[0];
    *dispatches = (int)v[1];
  }
  lua_pop(L, 1);
  if (ok) return 0;
  *ranks = *dispatches = 0;
  if (f) sl_error(f, "'l3' must be a table { ranks = 1..%d [, dispatches = 1..%d] }", SL_WORKLOAD_MAX_RANKS,
                  SL_WORKLOAD_MAX_RANKS);
  return -1;
}

int sl_workload_l3_group(const char *arg, int *ranks, int *dispatches) {
  char path[1024], msg[1200];
  *ranks = *dispatches = 0;
  if (find_path(arg, path, sizeof path, msg, sizeof msg)) return 0;
  lua_State *L = sl_lua_new();
  if (!L) return 0;
  /* silent: a broken file is reported by the run that loads it */
  if (luaL_loadfilex(L, path, "t") == LUA_OK && lua_pcall(L, 0, 1, 0) == LUA_OK && lua_istable(L, -1))
    parse_l3(L, lua_gettop(L), NULL, ranks, dispatches);
  lua_close(L);
  return *ranks > 0;
}

static int parse_dir(const char *s, sl_arg_dir *d) {
  if (!strcasecmp(s, "in")) *d = SL_ARG_IN;
  else if (!strcasecmp(s, "out")) *d = SL_ARG_OUT;
  else if (!strcasecmp(s, "inout")) *d = SL_ARG_INOUT;
  else if (!strcasecmp(s, "scalar")) *d = SL_ARG_SCALAR;
  else return -1;
  return 0;
}

static int load_incore(sl_workload *wl, lua_State *L, int i, sl_incore *ic) {
  const char *f = wl->path;
  int t = lua_gettop(L);
  lua_getfield(L, t, "func_id");
  if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 0 || lua_tointeger(L, -1) > 0xFFFE) {
    sl_error(f, "incores[%d].func_id must be an integer >= 0", i);
    return -1;
  }
  ic->func_id = (int)lua_tointeger(L, -1);
  lua_pop(L, 1);
  if (!field_string(L, t, "source", ic->source, sizeof ic->source)) {
    sl_error(f, "incores[%d].source must be a string (kernel C file relative to the repository root)", i);
    return -1;
  }
  ic->fn = sl_kernel_find(ic->source);
  if (!ic->fn) {
    sl_error(f, "incores[%d].source '%s' is not a kernel built into swimlane", i, ic->source);
    return -1;
  }
  if (!field_string(L, t, "name", ic->name, sizeof ic->name)) {
    const char *b = strrchr(ic->source, '/');
    copy_str(ic->name, sizeof ic->name, b ? b + 1 : ic->source);
    char *dot = strrchr(ic->name, '.');
    if (dot) *dot = 0;
  }
  char ct[16];
  if (!field_string(L, t, "core_type", ct, sizeof ct) || (strcmp(ct, "aic") && strcmp(ct, "aiv"))) {
    sl_error(f, "incores[%d].core_type must be \"aic\" or \"aiv\"", i);
    return -1;
  }
  ic->is_aic = !strcmp(ct, "aic");
  lua_getfield(L, t, "signature");
  if (!lua_istable(L, -1)) {
    sl_error(f, "incores[%d].signature must be a list of \"in\"/\"out\"/\"inout\"/\"scalar\"", i);
    return -1;
  }
  int n = (int)lua_rawlen(L, -1);
  if (n > 64) n = 64;
  for (int k = 1; k <= n; k++) {
    lua_rawgeti(L, -1, k);
    const char *s = lua_tostring(L, -1);
    if (!s || parse_dir(s, &ic->sig[k - 1])) {
      sl_error(f, "incores[%d].signature[%d] must be \"in\", \"out\", \"inout\" or \"scalar\"", i, k);
      return -1;
    }
    if (ic->sig[k - 1] != SL_ARG_SCALAR) ic->nsig_tensors++;
    lua_pop(L, 1);
  }
  ic->nsig = n;
  lua_pop(L, 1);
  return 0;
}

int sl_workload_load(sl_workload *wl, const char *arg) {
  memset(wl, 0, sizeof *wl);
  wl->table_ref = LUA_NOREF;
  if (resolve_path(wl, arg)) return -1;
  lua_State *L = sl_lua_new();
  if (!L) {
    sl_error(wl->path, "cannot create a Lua state");
    return -1;
  }
  wl->L = L;
  if (sl_lua_dofile(L, wl->path, 1)) return -1;
  const char *f = wl->path;
  if (!lua_istable(L, -1)) {
    sl_error(f, "a workload file must return a table");
    return -1;
  }
  int t = lua_gettop(L);
  if (!field_string(L, t, "class", wl->klass, sizeof wl->klass)) {
    sl_error(f, "missing string field 'class'");
    return -1;
  }
  wl->has_orch_name = field_string(L, t, "orchestrator_name", wl->orch_name, sizeof wl->orch_name);
  if (parse_runtimes(L, t, f, &wl->runtimes)) return -1;
  if (parse_l3(L, t, f, &wl->l3_ranks, &wl->l3_dispatches)) return -1;
  lua_getfield(L, t, "orchestrate");
  if (!lua_isfunction(L, -1)) {
    sl_error(f, "missing function 'orchestrate'");
    return -1;
  }
  lua_pop(L, 1);
  lua_getfield(L, t, "incores");
  if (!lua_istable(L, -1) || lua_rawlen(L, -1) == 0) {
    sl_error(f, "'incores' must be a non-empty list");
    return -1;
  }
  int n = (int)lua_rawlen(L, -1);
  if (n > SL_RUN_MAX_INCORES) {
    sl_error(f, "too many incores (%d, at most %d)", n, SL_RUN_MAX_INCORES);
    return -1;
  }
  for (int i = 1; i <= n; i++) {
    lua_rawgeti(L, -1, i);
    if (!lua_istable(L, -1)) {
      sl_error(f, "incores[%d] must be a table", i);
      return -1;
    }
    if (load_incore(wl, L, i, &wl->incores[i - 1])) return -1;
    for (int k = 0; k < i - 1; k++)
      if (wl->incores[k].func_id == wl->incores[i - 1].func_id) {
        sl_error(f, "incores[%d]: func_id %d is used twice", i, wl->incores[k].func_id);
        return -1;
      }
    lua_pop(L, 1);
  }
  wl->nincores = n;
  lua_pop(L, 1);
  lua_getfield(L, t, "cases");
  if (!lua_istable(L, -1) || lua_rawlen(L, -1) == 0) {
    sl_error(f, "'cases' must be a non-empty list");
    return -1;
  }
  lua_pop(L, 1);
  wl->table_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  return 0;
}

void sl_workload_free(sl_workload *wl) {
  if (wl->L) lua_close(wl->L);
  wl->L = NULL;
}

const sl_incore *sl_workload_incore(const sl_workload *wl, int func_id) {
  for (int i = 0; i < wl->nincores; i++)
    if (wl->incores[i].func_id == func_id) return &wl->incores[i];
  return NULL;
}

static int lists_platform(lua_State *L, int case_idx, const char *platform) {
  lua_getfield(L, case_idx, "platforms");
  int found = 0;
  if (lua_istable(L, -1)) {
    int n = (int)lua_rawlen(L, -1);
    for (int i = 1; i <= n && !found; i++) {
      lua_rawgeti(L, -1, i);
      const char *s = lua_tostring(L, -1);
      found = s && !strcmp(s, platform);
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  return found;
}

int sl_workload_case(sl_workload *wl, const char *case_name, const char *platform, char *out,
                     size_t outlen) {
  lua_State *L = wl->L;
  lua_rawgeti(L, LUA_REGISTRYINDEX, wl->table_ref);
  lua_getfield(L, -1, "cases");
  int cases = lua_gettop(L), n = (int)lua_rawlen(L, cases), pick = 0;
  char names[512] = "";
  for (int i = 1; i <= n && !pick; i++) {
    lua_rawgeti(L, cases, i);
    int c = lua_gettop(L);
    char nm[128];
    if (!lua_istable(L, c) || !field_string(L, c, "name", nm, sizeof nm)) {
      sl_error(wl->path, "cases[%d] must be a table with a string 'name'", i);
      lua_settop(L, cases - 2);
      return 0;
    }
    size_t used = strlen(names);
    snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "", nm);
    if (case_name ? !strcmp(nm, case_name) : lists_platform(L, c, platform)) {
      if (case_name && !lists_platform(L, c, platform)) {
        sl_error(wl->path, "case '%s' does not list platform '%s' in its platforms", nm, platform);
        lua_settop(L, cases - 2);
        return 0;
      }
      pick = i;
      snprintf(out, outlen, "%s", nm);
    }
    lua_pop(L, 1);
  }
  lua_settop(L, cases - 2);
  if (!pick) {
    if (case_name)
      sl_error(wl->path, "unknown case '%s' (cases: %s)", case_name, names);
    else
      sl_error(wl->path, "no case lists platform '%s' (cases: %s)", platform, names);
  }
  return pick;
}
