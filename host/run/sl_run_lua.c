/*
** sl_run_lua.c — the orchestration API a workload's Lua sees as `rt`: tensors
** (host buffers standing in for GM) and their views, submit, dummy, alloc_tensors.
** orchestrate() runs on the orchestrator thread; check() on the main thread after
** the run. The Lua state is never used by two threads at once.
*/
#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sl_run_internal.h"

static sl_run_ctx *ctx_of(lua_State *L) {
  return (sl_run_ctx *)lua_touserdata(L, lua_upvalueindex(1));
}

static sl_rt_tensor *push_tensor(lua_State *L, const sl_rt_tensor *t) {
  sl_rt_tensor *u = lua_newuserdatauv(L, sizeof *u, 0);
  *u = *t;
  luaL_setmetatable(L, SL_RUN_TENSOR_MT);
  return u;
}

static int64_t numel(const sl_rt_tensor *t) {
  int64_t n = 1;
  for (int i = 0; i < t->ndims; i++) n *= t->shape[i];
  return n;
}

/* Byte address of logical element i (row-major over the view). */
static void *elem(const sl_rt_tensor *t, int64_t i) {
  int64_t off = t->start_offset;
  for (int d = t->ndims - 1; d >= 0; d--) {
    off += (i % t->shape[d]) * t->strides[d];
    i /= t->shape[d];
  }
  return (char *)t->buf->data + off * (int64_t)sl_dtype_size(t->dtype);
}

static void store(lua_State *L, const sl_rt_tensor *t, int64_t i, int vidx) {
  void *p = elem(t, i);
  switch (t->dtype) {
    case DT_FLOAT32: *(float *)p = (float)luaL_checknumber(L, vidx); break;
    case DT_INT32: *(int32_t *)p = (int32_t)luaL_checkinteger(L, vidx); break;
    case DT_UINT32: *(uint32_t *)p = (uint32_t)luaL_checkinteger(L, vidx); break;
    case DT_BOOL: *(uint8_t *)p = (uint8_t)lua_toboolean(L, vidx); break;
    default: *(int64_t *)p = (int64_t)luaL_checkinteger(L, vidx); break;
  }
}

static void load(lua_State *L, const sl_rt_tensor *t, int64_t i) {
  void *p = elem(t, i);
  switch (t->dtype) {
    case DT_FLOAT32: lua_pushnumber(L, *(float *)p); break;
    case DT_INT32: lua_pushinteger(L, *(int32_t *)p); break;
    case DT_UINT32: lua_pushinteger(L, *(uint32_t *)p); break;
    case DT_BOOL: lua_pushboolean(L, *(uint8_t *)p); break;
    default: lua_pushinteger(L, *(int64_t *)p); break;
  }
}

static double next_random(sl_run_ctx *c) { /* xorshift64*, deterministic per run */
  c->rng ^= c->rng >> 12;
  c->rng ^= c->rng << 25;
  c->rng ^= c->rng >> 27;
  return (double)((c->rng * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0;
}

static void read_shape(lua_State *L, int tidx, const char *key, int64_t *shape, int *nd) {
  lua_getfield(L, tidx, key);
  if (!lua_istable(L, -1)) luaL_error(L, "%s must be a list of sizes", key);
  *nd = (int)lua_rawlen(L, -1);
  if (*nd < 1 || *nd > 5) luaL_error(L, "%s must have 1..5 dimensions", key);
  for (int i = 0; i < *nd; i++) {
    lua_rawgeti(L, -1, i + 1);
    shape[i] = luaL_checkinteger(L, -1);
    if (shape[i] < 0) luaL_error(L, "%s[%d] is negative", key, i + 1);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

static void init_tensor(lua_State *L, sl_run_ctx *c, sl_rt_tensor *t, int spec) {
  lua_getfield(L, spec, "init");
  int64_t n = numel(t);
  if (lua_isnil(L, -1)) {
  } else if (lua_isnumber(L, -1)) {
    for (int64_t i = 0; i < n; i++) store(L, t, i, -1);
  } else if (lua_isstring(L, -1)) {
    const char *how = lua_tostring(L, -1);
    for (int64_t i = 0; i < n; i++) {
      if (!strcmp(how, "zeros")) lua_pushinteger(L, 0);
      else if (!strcmp(how, "ones")) lua_pushinteger(L, 1);
      else if (!strcmp(how, "iota")) lua_pushinteger(L, i);
      else if (!strcmp(how, "random")) {
        double r = next_random(c);
        if (t->dtype == DT_FLOAT32) lua_pushnumber(L, r * 2.0 - 1.0);
        else lua_pushinteger(L, (lua_Integer)(r * 100));
      } else
        luaL_error(L, "unknown init '%s' (zeros, ones, iota, random, a number or a table)", how);
      store(L, t, i, -1);
      lua_pop(L, 1);
    }
  } else if (lua_istable(L, -1)) {
    if ((int64_t)lua_rawlen(L, -1) != n) luaL_error(L, "init table has %d values, tensor has %d",
                                                   (int)lua_rawlen(L, -1), (int)n);
    for (int64_t i = 0; i < n; i++) {
      lua_rawgeti(L, -1, i + 1);
      store(L, t, i, -1);
      lua_pop(L, 1);
    }
  } else {
    luaL_error(L, "bad init value");
  }
  lua_pop(L, 1);
}

static void contiguous_strides(sl_rt_tensor *t) {
  int64_t s = 1;
  for (int i = t->ndims - 1; i >= 0; i--) {
    t->strides[i] = s;
    s *= t->shape[i];
  }
}

/* rt:tensor{shape=..., dtype=..., init=...} */
static int l_tensor(lua_State *L) {
  sl_run_ctx *c = ctx_of(L);
  luaL_checktype(L, 2, LUA_TTABLE);
  sl_rt_tensor t;
  memset(&t, 0, sizeof t);
  read_shape(L, 2, "shape", t.shape, &t.ndims);
  lua_getfield(L, 2, "dtype");
  const char *dt = luaL_optstring(L, -1, "float32");
  t.dtype = sl_run_dtype_parse(dt);
  if (t.dtype < 0) return luaL_error(L, "unknown dtype '%s'", dt);
  lua_pop(L, 1);
  contiguous_strides(&t);
  uint64_t bytes = (uint64_t)numel(&t) * sl_dtype_size(t.dtype);
  t.buf = sl_rt_buffer_new(c->rt, bytes);
  if (!t.buf) return luaL_error(L, "out of memory for a %d-byte tensor", (int)bytes);
  init_tensor(L, c, &t, 2);
  push_tensor(L, &t);
  return 1;
}

/* t:view{offset={...}, shape={...}} */
static int l_view(lua_State *L) {
  sl_rt_tensor *t = sl_run_lua_check_tensor(L, 1);
  luaL_checktype(L, 2, LUA_TTABLE);
  sl_rt_tensor v = *t;
  int nd;
  int64_t off[5] = {0};
  read_shape(L, 2, "shape", v.shape, &nd);
  if (nd != t->ndims) return luaL_error(L, "view shape has %d dims, tensor has %d", nd, t->ndims);
  lua_getfield(L, 2, "offset");
  if (lua_istable(L, -1)) {
    lua_pop(L, 1);
    int ond;
    read_shape(L, 2, "offset", off, &ond);
    if (ond != nd) return luaL_error(L, "view offset has %d dims, tensor has %d", ond, nd);
  } else {
    lua_pop(L, 1);
  }
  for (int i = 0; i < nd; i++) {
    if (off[i] + v.shape[i] > t->shape[i]) return luaL_error(L, "view exceeds dimension %d", i + 1);
    v.start_offset += off[i] * t->strides[i];
  }
  push_tensor(L, &v);
  return 1;
}

static int64_t check_index(lua_State *L, const sl_rt_tensor *t, int idx) {
  lua_Integer i = luaL_checkinteger(L, idx);
  if (i < 0 || i >= numel(t)) luaL_error(L, "index %d out of range (numel %d)", (int)i, (int)numel(t));
  return i;
}
static int l_get(lua_State *L) {
  sl_rt_tensor *t = sl_run_lua_check_tensor(L, 1);
  load(L, t, check_index(L, t, 2));
  return 1;
}
static int l_set(lua_State *L) {
  sl_rt_tensor *t = sl_run_lua_check_tensor(L, 1);
  store(L, t, check_index(L, t, 2), 3);
  return 0;
}
static int l_numel(lua_State *L) {
  lua_pushinteger(L, numel(sl_run_lua_check_tensor(L, 1)));
  return 1;
}
static int l_shape(lua_State *L) {
  sl_rt_tensor *t = sl_run_lua_check_tensor(L, 1);
  lua_createtable(L, t->ndims, 0);
  for (int i = 0; i < t->ndims; i++) {
    lua_pushinteger(L, t->shape[i]);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

static void push_task_id(lua_State *L, uint64_t id) { lua_pushinteger(L, (lua_Integer)id); }

/* rt:submit{aic=, aiv0=, aiv1=, func=, args=, scalars=, block_num=, predicate=, deps=,
**           sync_start=, async_us=} */
static int l_submit(lua_State *L) {
  sl_run_ctx *c = ctx_of(L);
  luaL_checktype(L, 2, LUA_TTABLE);
  sl_rt_submit s;
  memset(&s, 0, sizeof s);
  const sl_incore *widest = sl_run_lua_kernels(L, c, 2, s.kernel_ids, s.fns);
  lua_getfield(L, 2, "block_num");
  s.block_num = (int)luaL_optinteger(L, -1, 1);
  lua_pop(L, 1);
  lua_getfield(L, 2, "predicate");
  s.predicate = lua_isnil(L, -1) ? 1 : lua_toboolean(L, -1);
  lua_pop(L, 1);
  lua_getfield(L, 2, "sync_start");
  s.sync_start = lua_toboolean(L, -1);
  lua_pop(L, 1);
  lua_getfield(L, 2, "async_us");
  lua_Integer async_us = luaL_optinteger(L, -1, 0);
  if (async_us < 0 || async_us > 1000000) return luaL_error(L, "submit: async_us must be 0..1000000");
  s.async_us = (uint32_t)async_us;
  lua_pop(L, 1);
  lua_getfield(L, 2, "timing_slot");
  if (!lua_isnil(L, -1) || c->next_slot >= 0) {
    lua_Integer slot = lua_isnil(L, -1) ? c->next_slot : luaL_checkinteger(L, -1);
    if (slot < 0 || slot >= SL_RT_TIMING_SLOTS) return luaL_error(L, "submit: timing_slot must be 0..15");
    s.has_timing_slot = 1;
    s.timing_slot = (int)slot;
    c->next_slot = -1;
  }
  lua_pop(L, 1);

  sl_rt_tensor tensors[SL_RT_MAX_TENSOR_ARGS];
  sl_arg_dir dirs[SL_RT_MAX_TENSOR_ARGS];
  sl_rt_scalar scalars[SL_RT_MAX_SCALAR_ARGS];
  uint64_t deps[64];
  s.ntensors = sl_run_lua_tensors(L, 2, tensors);
  if (!widest && s.ntensors)
    return luaL_error(L, "submit: a task without kernels (dummy) takes no tensor args");
  if (widest && widest->nsig_tensors != s.ntensors)
    return luaL_error(L, "submit: %s's signature declares %d tensors, the task passes %d", widest->name,
                      widest->nsig_tensors, s.ntensors);
  if (widest) sl_run_lua_dirs(widest, dirs, s.ntensors);
  s.nscalars = sl_run_lua_scalars(L, 2, scalars);
  s.ndeps = sl_run_lua_deps(L, 2, deps, 64);
  s.tensors = tensors;
  s.dirs = dirs;
  s.scalars = scalars;
  s.explicit_deps = deps;
  uint64_t id = sl_rt_submit_task(c->rt, &s);
  if (id == UINT64_MAX) return luaL_error(L, "submit: %s", sl_rt_last_error(c->rt));
  push_task_id(L, id);
  return 1;
}

/* rt:set_task_timing_slot(n): the next submitted task's dispatch -> finish window
** goes to task-timing slot n (0..15). */
static int l_set_slot(lua_State *L) {
  sl_run_ctx *c = ctx_of(L);
  lua_Integer n = luaL_checkinteger(L, 2);
  if (n < 0 || n >= SL_RT_TIMING_SLOTS) return luaL_error(L, "set_task_timing_slot: slot must be 0..15");
  c->next_slot = (int)n;
  return 0;
}

/* rt:scope(fn): fn's submits take ids on the next ring ((depth << 32) | local). */
static int l_scope(lua_State *L) {
  sl_run_ctx *c = ctx_of(L);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  if (sl_rt_scope_begin(c->rt)) return luaL_error(L, "scope: %s", sl_rt_last_error(c->rt));
  lua_pushvalue(L, 2);
  int rc = lua_pcall(L, 0, LUA_MULTRET, 0);
  sl_rt_scope_end(c->rt);
  if (rc != LUA_OK) return lua_error(L);
  return lua_gettop(L) - 2;
}

/* rt:dummy{deps = {...}} */
static int l_dummy(lua_State *L) {
  luaL_checktype(L, 2, LUA_TTABLE);
  lua_getfield(L, 2, "deps");
  lua_newtable(L);
  lua_insert(L, -2);
  lua_setfield(L, -2, "deps");
  lua_replace(L, 2);
  return l_submit(L);
}

/* rt:alloc_tensors{{shape=, dtype=}, ...} -> tensors... */
static int l_alloc(lua_State *L) {
  sl_run_ctx *c = ctx_of(L);
  luaL_checktype(L, 2, LUA_TTABLE);
  int n = (int)lua_rawlen(L, 2);
  if (n < 1 || n > 16) return luaL_error(L, "alloc_tensors: 1..16 tensor specs");
  sl_rt_tensor ts[16];
  uint64_t bytes[16];
  sl_rt_buffer *bufs[16];
  for (int i = 0; i < n; i++) {
    lua_rawgeti(L, 2, i + 1);
    int spec = lua_gettop(L);
    memset(&ts[i], 0, sizeof ts[i]);
    read_shape(L, spec, "shape", ts[i].shape, &ts[i].ndims);
    lua_getfield(L, spec, "dtype");
    ts[i].dtype = sl_run_dtype_parse(luaL_optstring(L, -1, "float32"));
    if (ts[i].dtype < 0) return luaL_error(L, "alloc_tensors: unknown dtype");
    lua_pop(L, 2);
    contiguous_strides(&ts[i]);
    bytes[i] = (uint64_t)numel(&ts[i]) * sl_dtype_size(ts[i].dtype);
  }
  if (sl_rt_alloc_tensors(c->rt, bytes, n, bufs) == UINT64_MAX)
    return luaL_error(L, "alloc_tensors: %s", sl_rt_last_error(c->rt));
  for (int i = 0; i < n; i++) {
    ts[i].buf = bufs[i];
    push_tensor(L, &ts[i]);
  }
  return n;
}

static int l_scalar_f32(lua_State *L) {
  float f = (float)luaL_checknumber(L, -1);
  uint32_t bits;
  memcpy(&bits, &f, 4);
  lua_pushinteger(L, bits);
  return 1;
}

/* rt.close(a, b, tol): |a - b| <= tol * max(1, |b|) */
static int l_close(lua_State *L) {
  double a = luaL_checknumber(L, 1), b = luaL_checknumber(L, 2), tol = luaL_optnumber(L, 3, 1e-4);
  lua_pushboolean(L, fabs(a - b) <= tol * fmax(1.0, fabs(b)));
  return 1;
}

static void push_rt(lua_State *L, sl_run_ctx *c) {
  if (luaL_newmetatable(L, SL_RUN_TENSOR_MT)) {
    static const luaL_Reg methods[] = {{"view", l_view},   {"get", l_get},     {"set", l_set},
                                       {"numel", l_numel}, {"shape", l_shape}, {NULL, NULL}};
    luaL_newlib(L, methods);
    lua_setfield(L, -2, "__index");
  }
  lua_pop(L, 1);
  static const luaL_Reg fns[] = {{"tensor", l_tensor},          {"submit", l_submit},
                                 {"dummy", l_dummy},            {"alloc_tensors", l_alloc},
                                 {"scalar_f32", l_scalar_f32},  {"close", l_close},
                                 {"graph", sl_run_lua_graph},   {"submit_graph", sl_run_lua_submit_graph},
                                 {"scope", l_scope},            {"set_task_timing_slot", l_set_slot},
                                 {NULL, NULL}};
  lua_newtable(L);
  lua_pushlightuserdata(L, c);
  luaL_setfuncs(L, fns, 1);
  int aic = 0, aiv = 0;
  sl_rt_core_counts(c->rt, &aic, &aiv);
  lua_pushinteger(L, aic);
  lua_setfield(L, -2, "num_aic");
  lua_pushinteger(L, aiv);
  lua_setfield(L, -2, "num_aiv");
  lua_pushinteger(L, aic < aiv / 2 ? aic : aiv / 2);
  lua_setfield(L, -2, "num_clusters");
}

void sl_run_set_case(sl_run_ctx *c, int idx) {
  lua_State *L = c->wl->L;
  lua_rawgeti(L, LUA_REGISTRYINDEX, c->wl->table_ref);
  lua_getfield(L, -1, "cases");
  lua_rawgeti(L, -1, idx);
  lua_getfield(L, -1, "params");
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    lua_newtable(L);
  }
  c->case_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_pop(L, 3);
  c->state_ref = LUA_REFNIL;
}

static int traceback(lua_State *L) {
  const char *msg = lua_tostring(L, 1);
  luaL_traceback(L, L, msg ? msg : "(error object is not a string)", 1);
  return 1;
}

static int call_hook(sl_run_ctx *c, const char *name, int want_state) {
  lua_State *L = c->wl->L;
  int base = lua_gettop(L);
  lua_pushcfunction(L, traceback);
  lua_rawgeti(L, LUA_REGISTRYINDEX, c->wl->table_ref);
  lua_getfield(L, -1, name);
  lua_remove(L, -2);
  if (lua_isnil(L, -1)) {
    lua_settop(L, base);
    return 0;
  }
  push_rt(L, c);
  lua_rawgeti(L, LUA_REGISTRYINDEX, c->case_ref);
  int nargs = 2;
  if (want_state) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, c->state_ref);
    nargs = 3;
  }
  int rc = lua_pcall(L, nargs, 1, base + 1);
  if (rc != LUA_OK) {
    snprintf(c->err, sizeof c->err, "%s: %s", name, lua_tostring(L, -1));
    lua_settop(L, base);
    return -1;
  }
  if (!want_state) c->state_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_settop(L, base);
  return 0;
}

int sl_run_orchestrate(void *ctx, sl_rt *rt) {
  sl_run_ctx *c = ctx;
  c->rt = rt;
  return call_hook(c, "orchestrate", 0);
}

int sl_run_check(sl_run_ctx *c) { return call_hook(c, "check", 1); }
