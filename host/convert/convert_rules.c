/*
** convert_rules.c — load the Lua rules table and answer the engine's questions.
**
** Answers are cached (phase styles by (phase, producer, runtime), function names
** by id), so Lua runs once per distinct thing, not per record.
*/
#include "convert_rules.h"

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert_labels.h"
#include "sl_base.h"
#include "sl_generated_gate.h"
#include "sl_intern.h"
#include "sl_lanes.h"
#include "sl_map.h"
#include "sl_mem.h"
#include "sl_schema_lua.h"

struct sl_rules {
  lua_State *L;
  int ref;                 /* registry ref of the rules table */
  char *script;            /* what errors name */
  int failed;
  sl_view views[SL_VIEW_COUNT];
  sl_intern strings;       /* every string handed out (once per text), freed with the rules */
  sl_map phases;           /* "phase|producer|runtime|platform" -> sl_phase_style *, each
                           ** allocated on its own so the pointers handed out stay valid */
  sl_map funcs;            /* func id -> name (const char *) */
  /* R.hidden_args answers, per extra-field name (a handful per capture) */
  struct hidden_arg { const char *key; int hidden; } hidden[32];
  size_t nhidden;
};

/* A copy of s that lives as long as the rules (one per distinct text: the
** orchestrator colour is asked once per record). */
static const char *keep(sl_rules *r, const char *s) {
  if (!s) return NULL;
  return sl_intern_str(&r->strings, sl_intern_add(&r->strings, s, strlen(s)));
}

static void fail(sl_rules *r, const char *what) {
  if (!r->failed) sl_error(r->script, "%s", what);
  r->failed = 1;
}

/* Push R[field] (a function) or fail. */
static int push_fn(sl_rules *r, const char *field) {
  lua_rawgeti(r->L, LUA_REGISTRYINDEX, r->ref);
  lua_getfield(r->L, -1, field);
  lua_remove(r->L, -2);
  if (lua_type(r->L, -1) != LUA_TFUNCTION) {
    lua_pop(r->L, 1);
    char msg[160];
    snprintf(msg, sizeof msg, "rules table has no function '%s'", field);
    fail(r, msg);
    return -1;
  }
  return 0;
}

/* pcall with nargs on the stack above the function; one result. */
static int call(sl_rules *r, const char *field, int nargs) {
  if (lua_pcall(r->L, nargs, 1, 0) != LUA_OK) {
    char msg[512];
    snprintf(msg, sizeof msg, "in rules.%s: %s", field, lua_tostring(r->L, -1));
    lua_pop(r->L, 1);
    fail(r, msg);
    return -1;
  }
  return 0;
}

/* The schema view each engine view kind draws into (the rules may move or rename it). */
static const enum sl_view_id view_of_kind[SL_VIEW_COUNT] = {
    SL_VIEW_ORCHESTRATOR, SL_VIEW_SCHEDULER,       SL_VIEW_SCHEDULER_VIEW,
    SL_VIEW_WORKER_VIEW,  SL_VIEW_GRAPH_EXECUTION, SL_VIEW_AICPU_LIFECYCLE, SL_VIEW_TASK_TIMING};

static int load_views(sl_rules *r) {
  lua_State *L = r->L;
  lua_rawgeti(L, LUA_REGISTRYINDEX, r->ref);
  lua_getfield(L, -1, "views");
  if (!lua_istable(L, -1)) {
    lua_pop(L, 2);
    fail(r, "rules table has no 'views' table");
    return -1;
  }
  for (int v = 0; v < SL_VIEW_COUNT; v++) {
    const sl_view_info *info = &sl_view_table[view_of_kind[v]];
    r->views[v].pid = info->pid;
    r->views[v].sort = info->sort_index >= 0 ? info->sort_index : r->views[v].pid;
    r->views[v].name = info->process_name;
    lua_getfield(L, -1, info->key);
    if (lua_istable(L, -1)) {
      lua_getfield(L, -1, "pid");
      if (lua_isinteger(L, -1)) r->views[v].pid = lua_tointeger(L, -1);
      lua_getfield(L, -2, "sort");
      if (lua_isinteger(L, -1)) r->views[v].sort = lua_tointeger(L, -1);
      lua_getfield(L, -3, "name");
      if (lua_type(L, -1) == LUA_TSTRING) r->views[v].name = keep(r, lua_tostring(L, -1));
      lua_pop(L, 3);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 2);
  return 0;
}

/* package.preload["swimlane.schema"]: the schema compiled into this binary, parsed
** only when a script requires it (a script that does not pays nothing). */
static int load_schema(lua_State *L) {
  if (luaL_loadbufferx(L, sl_schema_lua, sl_schema_lua_len, "=swimlane.schema", "t") != LUA_OK)
    return luaL_error(L, "the compiled schema does not load: %s", lua_tostring(L, -1));
  lua_call(L, 0, 1);
  return 1;
}

static void preload_schema(lua_State *L) {
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "preload");
  lua_pushcfunction(L, load_schema);
  lua_setfield(L, -2, "swimlane.schema");
  lua_pop(L, 2);
}

sl_rules *sl_rules_load(const char *path) {
  sl_rules *r = sl_mem_calloc(1, sizeof *r);
  r->ref = LUA_NOREF;
  sl_intern_init(&r->strings);
  sl_map_init(&r->phases, SL_MAP_STR);
  sl_map_init(&r->funcs, SL_MAP_U64);
  r->script = sl_mem_strdup(path ? path : "lua/convert/default.lua");
  r->L = sl_lua_new();
  if (!r->L) {
    sl_error(path, "cannot create the Lua state");
    sl_rules_free(r);
    return NULL;
  }
  lua_State *L = r->L;
  preload_schema(L);
  int ok;
  if (path) {
    ok = sl_lua_dofile(L, path, 1) == 0;
  } else {
    lua_getglobal(L, "require");
    lua_pushstring(L, "convert.default");
    ok = lua_pcall(L, 1, 1, 0) == LUA_OK;
    if (!ok) {
      sl_error(r->script, "%s", lua_tostring(L, -1));
      lua_pop(L, 1);
    }
  }
  if (!ok) {
    sl_rules_free(r);
    return NULL;
  }
  if (!lua_istable(L, -1)) {
    sl_error(r->script, "rules script must return a table (got %s)", luaL_typename(L, -1));
    sl_rules_free(r);
    return NULL;
  }
  r->ref = luaL_ref(L, LUA_REGISTRYINDEX);
  if (load_views(r) != 0) {
    sl_rules_free(r);
    return NULL;
  }
  /* fail early on a script missing a required function */
  static const char *required[] = {"phase", "func_name", "worker_lane", "sched_lane",
                                   "aicpu_lane", "orch_lane", "orchestrator_name"};
  for (size_t i = 0; i < sizeof required / sizeof *required; i++) {
    if (push_fn(r, required[i]) != 0) {
      sl_rules_free(r);
      return NULL;
    }
    lua_pop(L, 1);
  }
  return r;
}

void sl_rules_free(sl_rules *r) {
  if (!r) return;
  if (r->L) lua_close(r->L);
  sl_intern_free(&r->strings);
  for (size_t i = sl_map_next(&r->phases, 0); i < r->phases.cap; i = sl_map_next(&r->phases, i + 1))
    sl_mem_free((void *)(uintptr_t)r->phases.vals[i]);
  sl_map_free(&r->phases);
  sl_map_free(&r->funcs);
  sl_mem_free(r->script);
  sl_mem_free(r);
}

int sl_rules_failed(const sl_rules *r) { return r->failed; }

const sl_view *sl_rules_view(sl_rules *r, enum sl_view_kind v) { return &r->views[v]; }

static void push_opt_str(lua_State *L, const char *s) {
  if (s)
    lua_pushstring(L, s);
  else
    lua_pushnil(L);
}

static const char *field_str(lua_State *L, int idx, const char *k) {
  lua_getfield(L, idx, k);
  const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
  lua_pop(L, 1); /* the string stays alive: it is referenced by the table */
  return s;
}

/* R.lanes[key]'s tid_base / tid_stride (left alone when absent); 1 when the lane exists. */
static int lane_geometry(sl_rules *r, const char *key, int64_t *base, int64_t *stride) {
  lua_State *L = r->L;
  int top = lua_gettop(L), found = 0;
  const sl_lane_info *info = sl_lane_by_key(key);
  if (info) {
    *base = info->tid_base;
    *stride = info->tid_stride;
  }
  lua_rawgeti(L, LUA_REGISTRYINDEX, r->ref);
  lua_getfield(L, -1, "lanes");
  if (lua_istable(L, -1) && lua_getfield(L, -1, key) == LUA_TTABLE) {
    found = 1;
    lua_getfield(L, -1, "tid_base");
    if (lua_isinteger(L, -1)) *base = lua_tointeger(L, -1);
    lua_getfield(L, -2, "tid_stride");
    if (lua_isinteger(L, -1)) *stride = lua_tointeger(L, -1);
  }
  lua_settop(L, top);
  return found;
}

const sl_phase_style *sl_rules_phase(sl_rules *r, const char *phase, const char *producer,
                                     const char *runtime, const char *platform) {
  static const sl_phase_style hidden = {.route = SL_ROUTE_HIDE, .label = SL_LABEL_COUNT, .display = ""};
  char key[256];
  snprintf(key, sizeof key, "%s|%s|%s|%s", phase, producer ? producer : "",
           runtime ? runtime : "", platform ? platform : "");
  uint64_t known;
  if (sl_map_str_get(&r->phases, key, strlen(key), &known)) return (const sl_phase_style *)(uintptr_t)known;
  if (r->failed) return &hidden;
  lua_State *L = r->L;
  if (push_fn(r, "phase") != 0) return &hidden;
  lua_pushstring(L, phase);
  lua_createtable(L, 0, 3);
  push_opt_str(L, producer);
  lua_setfield(L, -2, "producer");
  push_opt_str(L, runtime);
  lua_setfield(L, -2, "runtime");
  push_opt_str(L, platform);
  lua_setfield(L, -2, "platform");
  if (call(r, "phase", 2) != 0) return &hidden;
  sl_phase_style st = {.route = SL_ROUTE_HIDE, .label = SL_LABEL_COUNT};
  if (lua_istable(L, -1)) {
    const char *route = field_str(L, -1, "route");
    const char *label = field_str(L, -1, "label");
    st.cname = keep(r, field_str(L, -1, "cname"));
    st.display = keep(r, field_str(L, -1, "display"));
    if (!route || !strcmp(route, "hide"))
      st.route = SL_ROUTE_HIDE;
    else if (!strcmp(route, "sched"))
      st.route = SL_ROUTE_SCHED;
    else if (!strcmp(route, "sub"))
      st.route = SL_ROUTE_SUB;
    else if (!strcmp(route, "marker"))
      st.route = SL_ROUTE_MARKER;
    else if (!strncmp(route, "lane:", 5) && route[5]) {
      st.route = SL_ROUTE_LANE;
      st.lane = keep(r, route + 5);
      st.per_thread = lane_geometry(r, st.lane, &st.tid_base, &st.tid_stride);
      if (!st.per_thread) lane_geometry(r, sl_lane_table[SL_LANE_CUSTOM].key, &st.tid_base, &st.tid_stride);
    } else {
      char msg[300];
      snprintf(msg, sizeof msg, "rules.phase('%s'): unknown route '%s'", phase, route);
      fail(r, msg);
    }
    if (label && !strcmp(label, "task"))
      st.label = SL_LABEL_TASK;
    else if (label && !strcmp(label, "name"))
      st.label = SL_LABEL_NAME;
  } else if (!lua_isnil(L, -1) && lua_toboolean(L, -1)) {
    fail(r, "rules.phase must return a table or nil");
  }
  lua_pop(L, 1);
  if (!st.display) st.display = keep(r, phase);
  sl_phase_style *e = sl_mem_alloc(sizeof *e);
  *e = st;
  sl_map_str_put(&r->phases, key, strlen(key), (uintptr_t)e);
  return e;
}

const char *sl_rules_orch_color(sl_rules *r, const char *phase) {
  lua_State *L = r->L;
  lua_rawgeti(L, LUA_REGISTRYINDEX, r->ref);
  lua_getfield(L, -1, "orch_colors");
  const char *c = NULL;
  if (lua_istable(L, -1)) c = field_str(L, -1, phase);
  if (!c) {
    lua_pop(L, 1);
    lua_getfield(L, -1, "orch_default_color");
    c = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "generic_work";
  }
  c = keep(r, c);
  lua_pop(L, 2);
  return c;
}

int sl_rules_arg_hidden(sl_rules *r, const char *key) {
  for (size_t i = 0; i < r->nhidden; i++)
    if (!strcmp(r->hidden[i].key, key)) return r->hidden[i].hidden;
  lua_State *L = r->L;
  lua_rawgeti(L, LUA_REGISTRYINDEX, r->ref);
  lua_getfield(L, -1, "hidden_args");
  int hidden = 0;
  if (lua_istable(L, -1)) {
    lua_getfield(L, -1, key);
    hidden = lua_toboolean(L, -1);
    lua_pop(L, 1);
  }
  lua_pop(L, 2);
  const char *k = keep(r, key);
  if (k && r->nhidden < sizeof r->hidden / sizeof *r->hidden)
    r->hidden[r->nhidden++] = (struct hidden_arg){k, hidden};
  return hidden;
}

const char *sl_rules_orch_display(sl_rules *r, const char *phase) {
  lua_State *L = r->L;
  lua_rawgeti(L, LUA_REGISTRYINDEX, r->ref);
  lua_getfield(L, -1, "orch_display");
  const char *d = lua_istable(L, -1) ? field_str(L, -1, phase) : NULL; /* kept alive by the table */
  lua_pop(L, 2);
  return d;
}

/* A string result of R[fn](...) already pushed with nargs; NULL on nil/false. */
static const char *string_result(sl_rules *r, const char *fn, int nargs) {
  if (call(r, fn, nargs) != 0) return NULL;
  const char *s = NULL;
  if (lua_type(r->L, -1) == LUA_TSTRING || lua_type(r->L, -1) == LUA_TNUMBER)
    s = keep(r, lua_tostring(r->L, -1));
  else if (lua_toboolean(r->L, -1)) {
    char msg[160];
    snprintf(msg, sizeof msg, "rules.%s must return a string (got %s)", fn,
             luaL_typename(r->L, -1));
    fail(r, msg);
  }
  lua_pop(r->L, 1);
  return s;
}

const char *sl_rules_func_name(sl_rules *r, int64_t func_id, const char *mapped) {
  uint64_t known;
  if (sl_map_u64_get(&r->funcs, (uint64_t)func_id, &known)) return (const char *)(uintptr_t)known;
  char def[48];
  if (func_id < 0)
    strcpy(def, "task");
  else
    sl_func_default_name(def, func_id);
  const char *name = NULL;
  if (!r->failed && push_fn(r, "func_name") == 0) {
    lua_pushinteger(r->L, func_id);
    push_opt_str(r->L, mapped);
    lua_pushstring(r->L, def);
    name = string_result(r, "func_name", 3);
  }
  if (!name) name = keep(r, def);
  sl_map_u64_put(&r->funcs, (uint64_t)func_id, (uintptr_t)name);
  return name;
}

const char *sl_rules_worker_lane(sl_rules *r, int64_t core, const char *core_type) {
  if (r->failed || push_fn(r, "worker_lane") != 0) return NULL;
  lua_pushinteger(r->L, core);
  push_opt_str(r->L, core_type);
  return string_result(r, "worker_lane", 2);
}

const char *sl_rules_lane(sl_rules *r, const char *fn, int64_t i) {
  if (r->failed || push_fn(r, fn) != 0) return NULL;
  lua_pushinteger(r->L, i);
  return string_result(r, fn, 1);
}

const char *sl_rules_orch_lane(sl_rules *r, int64_t i, const char *source) {
  if (r->failed || push_fn(r, "orch_lane") != 0) return NULL;
  lua_pushinteger(r->L, i);
  push_opt_str(r->L, source);
  return string_result(r, "orch_lane", 2);
}

const char *sl_rules_orchestrator_name(sl_rules *r, const char *source, const char *name) {
  if (r->failed || push_fn(r, "orchestrator_name") != 0) return NULL;
  push_opt_str(r->L, source);
  push_opt_str(r->L, name);
  return string_result(r, "orchestrator_name", 2);
}

int sl_rules_lifecycle_count(sl_rules *r) {
  lua_rawgeti(r->L, LUA_REGISTRYINDEX, r->ref);
  lua_getfield(r->L, -1, "lifecycle");
  int n = lua_istable(r->L, -1) ? (int)luaL_len(r->L, -1) : 0;
  lua_pop(r->L, 2);
  return n;
}

int sl_rules_lifecycle_span(sl_rules *r, int i, const char **label, const char **start_key,
                            const char **end_key) {
  lua_State *L = r->L;
  lua_rawgeti(L, LUA_REGISTRYINDEX, r->ref);
  lua_getfield(L, -1, "lifecycle");
  int ok = 0;
  if (lua_istable(L, -1) && lua_rawgeti(L, -1, i + 1) == LUA_TTABLE) {
    lua_rawgeti(L, -1, 1);
    lua_rawgeti(L, -2, 2);
    lua_rawgeti(L, -3, 3);
    if (lua_isstring(L, -3) && lua_isstring(L, -2) && lua_isstring(L, -1)) {
      *label = keep(r, lua_tostring(L, -3));
      *start_key = keep(r, lua_tostring(L, -2));
      *end_key = keep(r, lua_tostring(L, -1));
      ok = 1;
    }
    lua_pop(L, 3);
  }
  lua_pop(L, 3);
  return ok;
}

void sl_rules_lane_tid(sl_rules *r, const char *key, int64_t *base, int64_t *stride) {
  lane_geometry(r, key, base, stride);
}

const char *sl_rules_lane_name(sl_rules *r, const char *key, int64_t i) {
  if (r->failed || push_fn(r, "lane_name") != 0) return NULL;
  lua_pushstring(r->L, key);
  lua_pushinteger(r->L, i);
  return string_result(r, "lane_name", 2);
}
