/*
** sl_run_graph.c — graph definitions in the workload API:
**   g = rt:graph{ params = {"in", "in", "out"}, nodes = { {func = 0, args = {1, 2, 3}},
**                                                        {func = 1, args = {3, 2, 3}, deps = {1}} } }
**   id = rt:submit_graph{ graph = g, args = {X, Y, Z}, deps = {...} }
** A node is a task spec whose `args` are 1-based graph parameter indices and whose
** `deps` are 1-based indices of earlier nodes; the runtime expands each instance
** into ring-1 node tasks when it becomes ready (graph_prepare).
*/
#include <lauxlib.h>
#include <lua.h>
#include <stdlib.h>
#include <string.h>

#include "sl_run_internal.h"

static sl_run_ctx *ctx_of(lua_State *L) { return (sl_run_ctx *)lua_touserdata(L, lua_upvalueindex(1)); }

static sl_arg_dir parse_dir(lua_State *L, const char *s) {
  if (!strcmp(s, "in")) return SL_ARG_IN;
  if (!strcmp(s, "out")) return SL_ARG_OUT;
  if (!strcmp(s, "inout")) return SL_ARG_INOUT;
  luaL_error(L, "graph: parameter direction '%s' (in, out or inout)", s);
  return SL_ARG_IN;
}

/* An integer list item, minus 1 (Lua's 1-based indices). */
static void index_item(lua_State *L, int i, void *out) { ((int *)out)[i] = (int)luaL_checkinteger(L, -1) - 1; }

/* Integer list field `key` of the table at `spec`, minus 1 each. */
static int index_list(lua_State *L, int spec, const char *key, int *out, int max) {
  return sl_run_lua_list(L, spec, key, max, "graph node", key, index_item, out);
}

static void read_node(lua_State *L, sl_run_ctx *c, int spec, sl_rt_graph_node *g) {
  memset(g, 0, sizeof *g);
  const sl_incore *widest = sl_run_lua_kernels(L, c, spec, g->kernel_ids, g->fns);
  if (!widest) luaL_error(L, "graph node: no kernel");
  g->ntensors = index_list(L, spec, "args", g->params, SL_RT_MAX_TENSOR_ARGS);
  if (g->ntensors != widest->nsig_tensors)
    luaL_error(L, "graph node: %s's signature declares %d tensors, the node passes %d", widest->name,
               widest->nsig_tensors, g->ntensors);
  sl_run_lua_dirs(widest, g->dirs, g->ntensors);
  g->nscalars = sl_run_lua_scalars(L, spec, g->scalars);
  g->ndeps = index_list(L, spec, "deps", g->deps, 16);
  lua_getfield(L, spec, "block_num");
  g->block_num = (int)luaL_optinteger(L, -1, 1);
  lua_pop(L, 1);
}

int sl_run_lua_graph(lua_State *L) {
  sl_run_ctx *c = ctx_of(L);
  luaL_checktype(L, 2, LUA_TTABLE);
  sl_arg_dir dirs[SL_RT_MAX_TENSOR_ARGS];
  lua_getfield(L, 2, "params");
  luaL_checktype(L, -1, LUA_TTABLE);
  int np = (int)lua_rawlen(L, -1);
  if (np > SL_RT_MAX_TENSOR_ARGS) return luaL_error(L, "graph: more than 32 parameters");
  for (int i = 0; i < np; i++) {
    lua_rawgeti(L, -1, i + 1);
    dirs[i] = parse_dir(L, luaL_checkstring(L, -1));
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  lua_getfield(L, 2, "nodes");
  luaL_checktype(L, -1, LUA_TTABLE);
  int n = (int)lua_rawlen(L, -1);
  if (n < 1 || n > SL_RT_GRAPH_MAX_NODES) return luaL_error(L, "graph: 1..%d nodes", SL_RT_GRAPH_MAX_NODES);
  sl_rt_graph_node *nodes = lua_newuserdatauv(L, (size_t)n * sizeof *nodes, 0); /* freed by the GC */
  for (int i = 0; i < n; i++) {
    lua_rawgeti(L, -2, i + 1);
    luaL_checktype(L, -1, LUA_TTABLE);
    read_node(L, c, lua_gettop(L), &nodes[i]);
    lua_pop(L, 1);
  }
  int g = sl_rt_graph_define(c->rt, nodes, n, dirs, np);
  if (g < 0) return luaL_error(L, "graph: %s", sl_rt_last_error(c->rt));
  lua_pushinteger(L, g);
  return 1;
}

int sl_run_lua_submit_graph(lua_State *L) {
  sl_run_ctx *c = ctx_of(L);
  luaL_checktype(L, 2, LUA_TTABLE);
  lua_getfield(L, 2, "graph");
  int g = (int)luaL_checkinteger(L, -1);
  lua_pop(L, 1);
  sl_rt_tensor params[SL_RT_MAX_TENSOR_ARGS];
  uint64_t deps[64];
  int np = sl_run_lua_tensors(L, 2, params);
  int nd = sl_run_lua_deps(L, 2, deps, 64);
  uint64_t id = sl_rt_submit_graph(c->rt, g, params, np, deps, nd);
  if (id == UINT64_MAX) return luaL_error(L, "submit_graph: %s", sl_rt_last_error(c->rt));
  lua_pushinteger(L, (lua_Integer)id);
  return 1;
}
