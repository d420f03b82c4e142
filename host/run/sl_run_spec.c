/*
** sl_run_spec.c — the pieces of a task spec table both rt:submit (sl_run_lua.c)
** and rt:graph / rt:submit_graph (sl_run_graph.c) read: kernels, tensor
** directions, `args` tensors, `scalars`, `deps`; plus the tensor userdata check
** and the dtype names they share. Errors are Lua errors (luaL_error).
*/
#include <lauxlib.h>
#include <lua.h>
#include <string.h>

#include "sl_run_internal.h"

int sl_run_dtype_parse(const char *s) {
  if (!strcmp(s, "float32")) return DT_FLOAT32;
  if (!strcmp(s, "int32")) return DT_INT32;
  if (!strcmp(s, "int64")) return DT_INT64;
  if (!strcmp(s, "uint64")) return DT_UINT64;
  if (!strcmp(s, "uint32")) return DT_UINT32;
  if (!strcmp(s, "bool")) return DT_BOOL;
  return -1;
}

sl_rt_tensor *sl_run_lua_check_tensor(lua_State *L, int idx) {
  return (sl_rt_tensor *)luaL_checkudata(L, idx, SL_RUN_TENSOR_MT);
}

/* Read a kernel field (func_id) of the submit table; -1 when absent. */
static int kernel_field(lua_State *L, int spec, const char *key) {
  lua_getfield(L, spec, key);
  int v = -1;
  if (!lua_isnil(L, -1)) {
    if (!lua_isinteger(L, -1)) luaL_error(L, "submit: '%s' must be a func_id", key);
    v = (int)lua_tointeger(L, -1);
  }
  lua_pop(L, 1);
  return v;
}

static void read_scalar(lua_State *L, int idx, sl_rt_scalar *s) {
  s->dtype = DT_INT64;
  if (lua_istable(L, idx)) {
    lua_rawgeti(L, idx, 2);
    if (lua_isstring(L, -1)) {
      s->dtype = sl_run_dtype_parse(lua_tostring(L, -1));
      if (s->dtype < 0) luaL_error(L, "submit: unknown scalar dtype '%s'", lua_tostring(L, -1));
    }
    lua_pop(L, 1);
    lua_rawgeti(L, idx, 1);
    int v = lua_gettop(L);
    if (!lua_isnumber(L, v) && !lua_isboolean(L, v))
      luaL_error(L, "submit: scalar {value, dtype} needs a number or boolean value");
    if (s->dtype == DT_FLOAT32) {
      float f = (float)lua_tonumber(L, v);
      uint32_t bits;
      memcpy(&bits, &f, 4);
      s->raw = bits;
    } else if (s->dtype == DT_BOOL) {
      s->raw = lua_toboolean(L, v) ? 1 : 0;
    } else {
      s->raw = (uint64_t)lua_tointeger(L, v);
    }
    lua_pop(L, 1);
    return;
  }
  if (lua_isinteger(L, idx)) {
    s->raw = (uint64_t)lua_tointeger(L, idx);
  } else if (lua_isnumber(L, idx)) {
    float f = (float)lua_tonumber(L, idx);
    uint32_t bits;
    memcpy(&bits, &f, 4);
    s->raw = bits;
    s->dtype = DT_FLOAT32;
  } else if (lua_isboolean(L, idx)) {
    s->raw = lua_toboolean(L, idx);
    s->dtype = DT_BOOL;
  } else {
    luaL_error(L, "submit: a scalar must be a number, a boolean or {value, dtype}");
  }
}

/* The kernels of a task spec at `spec` (aic / aiv0 / aiv1 / func): ids, functions,
** and the widest member (whose signature gives the payload); NULL for a dummy. */
const sl_incore *sl_run_lua_kernels(lua_State *L, sl_run_ctx *c, int spec, int ids[3], sl_kernel_fn fns[3]) {
  ids[0] = kernel_field(L, spec, "aic");
  ids[1] = kernel_field(L, spec, "aiv0");
  ids[2] = kernel_field(L, spec, "aiv1");
  int f = kernel_field(L, spec, "func");
  if (f >= 0) {
    const sl_incore *ic = sl_workload_incore(c->wl, f);
    if (!ic) luaL_error(L, "submit: func_id %d is not an incore of this workload", f);
    ids[ic->is_aic ? 0 : 1] = f;
  }
  const sl_incore *widest = NULL;
  for (int i = 0; i < 3; i++) {
    fns[i] = NULL;
    if (ids[i] < 0) continue;
    const sl_incore *ic = sl_workload_incore(c->wl, ids[i]);
    if (!ic) luaL_error(L, "submit: func_id %d is not an incore of this workload", ids[i]);
    if (ic->is_aic != (i == 0))
      luaL_error(L, "submit: func_id %d (%s) is an %s kernel, placed in an %s slot", ic->func_id, ic->name,
                 ic->is_aic ? "aic" : "aiv", i == 0 ? "aic" : "aiv");
    fns[i] = ic->fn;
    if (!widest || ic->nsig > widest->nsig) widest = ic;
  }
  return widest;
}

int sl_run_lua_list(lua_State *L, int spec, const char *key, int max, const char *who, const char *what,
                    void (*read)(lua_State *L, int i, void *out), void *out) {
  int n = 0;
  lua_getfield(L, spec, key);
  if (!lua_isnil(L, -1)) {
    luaL_checktype(L, -1, LUA_TTABLE);
    n = (int)lua_rawlen(L, -1);
    if (n > max) luaL_error(L, "%s: more than %d %s", who, max, what);
    for (int i = 0; i < n; i++) {
      lua_rawgeti(L, -1, i + 1);
      read(L, i, out);
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  return n;
}

static void scalar_item(lua_State *L, int i, void *out) { read_scalar(L, lua_gettop(L), (sl_rt_scalar *)out + i); }
static void tensor_item(lua_State *L, int i, void *out) { ((sl_rt_tensor *)out)[i] = *sl_run_lua_check_tensor(L, -1); }
static void dep_item(lua_State *L, int i, void *out) { ((uint64_t *)out)[i] = (uint64_t)luaL_checkinteger(L, -1); }

/* The `scalars` list of the spec at `spec`; returns the count. */
int sl_run_lua_scalars(lua_State *L, int spec, sl_rt_scalar *out) {
  return sl_run_lua_list(L, spec, "scalars", SL_RT_MAX_SCALAR_ARGS, "submit", "scalars", scalar_item, out);
}

/* The `args` list (tensors) of the spec at `spec`; returns the count. */
int sl_run_lua_tensors(lua_State *L, int spec, sl_rt_tensor *out) {
  return sl_run_lua_list(L, spec, "args", SL_RT_MAX_TENSOR_ARGS, "submit", "tensor args", tensor_item, out);
}

/* The `deps` list (task ids) of the spec at `spec`; returns the count. */
int sl_run_lua_deps(lua_State *L, int spec, uint64_t *out, int max) {
  return sl_run_lua_list(L, spec, "deps", max, "submit", "deps", dep_item, out);
}

/* The tensor directions of `widest`'s signature (tensor slots only, in order). */
void sl_run_lua_dirs(const sl_incore *widest, sl_arg_dir *dirs, int ntensors) {
  for (int i = 0, k = 0; i < ntensors; k++) {
    if (widest->sig[k] == SL_ARG_SCALAR) continue;
    dirs[i++] = widest->sig[k];
  }
}
