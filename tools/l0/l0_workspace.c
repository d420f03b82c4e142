/*
** l0_workspace.c — step 4: render the replay workspace and smoke-build it.
**
** The files come from the Lua templates in lua/l0 (render(spec)); this side
** builds the spec — the task's members and args, and where this build's
** headers and libraries are (l0_config.lua, written by CMake next to the
** library, or the installed one under share/swimlane/l0/) — and writes each file
** all-or-nothing.
*/
#include <inttypes.h>
#include <lauxlib.h>
#include <lua.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "l0_internal.h"
#include "sl_base.h"
#include "sl_mem.h"

#ifndef SL_L0_CONFIG
#define SL_L0_CONFIG "l0_config.lua"
#endif

static void set_str(lua_State *L, const char *key, const char *v) {
  lua_pushstring(L, v ? v : "");
  lua_setfield(L, -2, key);
}

static void set_int(lua_State *L, const char *key, lua_Integer v) {
  lua_pushinteger(L, v);
  lua_setfield(L, -2, key);
}

static void set_u64(lua_State *L, const char *key, uint64_t v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%" PRIu64, v);
  set_str(L, key, buf);
}

static void push_i64_list(lua_State *L, const int64_t *v, int n) {
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) {
    lua_pushinteger(L, (lua_Integer)v[i]);
    lua_rawseti(L, -2, i + 1);
  }
}

/* Push the spec table render() takes. The config table is at index cfg. */
static void push_spec(lua_State *L, const sl_l0_plan *p, int cfg) {
  const sl_l0_task *t = p->task;
  lua_newtable(L);
  set_str(L, "label", p->label);
  set_str(L, "task_id", t->task_id);
  set_str(L, "manifest", p->manifest);
  set_str(L, "platform", p->platform);
  set_str(L, "arch", p->arch);
  set_str(L, "kernel", p->members[0] ? p->members[0]->name : "task");
  lua_pushboolean(L, p->debug_line);
  lua_setfield(L, -2, "debug_line");
  set_int(L, "spmd_block_num", p->spmd_block_num);
  set_int(L, "max_time", (lua_Integer)(p->max_time + 0.999));
  set_str(L, "repo_root", sl_home());
  /* build_dir, cc, libs, include_dirs, extra_flags come from the config */
  static const char *const keys[] = {"build_dir", "cc", "libs", "dep_libs", "include_dirs", "extra_flags"};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
    lua_getfield(L, cfg, keys[i]);
    lua_setfield(L, -2, keys[i]);
  }
  lua_createtable(L, p->nmembers, 0);
  for (int i = 0; i < p->nmembers; i++) {
    const sl_l0_incore *m = p->members[i];
    lua_newtable(L);
    set_int(L, "func_id", m->func_id);
    set_str(L, "name", m->name);
    set_str(L, "core_type", m->core_type);
    set_str(L, "source", m->source);
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "members");
  lua_newtable(L);
  int nt = 0;
  for (int i = 0; i < t->nargs; i++) {
    const sl_l0_arg *a = &t->args[i];
    if (!a->is_tensor) continue;
    lua_newtable(L);
    set_int(L, "slot", a->slot);
    set_str(L, "dtype", a->dtype);
    set_int(L, "dtype_raw", a->dt->raw);
    set_int(L, "elem", a->dt->size);
    push_i64_list(L, a->shape, a->ndims);
    lua_setfield(L, -2, "shape");
    push_i64_list(L, a->strides, a->ndims);
    lua_setfield(L, -2, "strides");
    set_u64(L, "start_offset", a->start_offset);
    set_u64(L, "alloc_bytes", a->alloc_bytes);
    lua_pushboolean(L, a->contiguous);
    lua_setfield(L, -2, "contiguous");
    set_str(L, "init", a->init == L0_INIT_FILL ? "fill" : a->init == L0_INIT_RESTORE ? "restore" : "zero");
    set_int(L, "fill", (lua_Integer)a->fill);
    if (a->init == L0_INIT_RESTORE) {
      lua_pushlstring(L, (const char *)a->payload, (size_t)a->alloc_bytes);
      lua_setfield(L, -2, "payload");
    }
    lua_rawseti(L, -2, ++nt);
  }
  lua_setfield(L, -2, "tensors");
  lua_newtable(L);
  int ns = 0;
  for (int i = 0; i < t->nargs; i++) {
    const sl_l0_arg *a = &t->args[i];
    if (a->is_tensor) continue;
    char raw[32], text[64];
    snprintf(raw, sizeof raw, "0x%016" PRIx64, a->raw);
    sl_l0_scalar_text(a, text, sizeof text);
    lua_newtable(L);
    set_int(L, "slot", a->slot);
    set_str(L, "raw", raw);
    set_str(L, "text", text);
    set_str(L, "dtype", a->dtype);
    lua_rawseti(L, -2, ++ns);
  }
  lua_setfield(L, -2, "scalars");
}

static int write_file(const char *dir, const char *name, const char *text, size_t len) {
  char *path = sl_path_join(dir, name);
  sl_outfile of;
  int rc = -1;
  if (path && sl_outfile_open(&of, path) == 0) {
    fwrite(text, 1, len, of.fp);
    rc = sl_outfile_commit(&of);
  }
  if (rc == 0 && strlen(name) > 3 && !strcmp(name + strlen(name) - 3, ".sh")) chmod(path, 0755);
  sl_mem_free(path);
  return rc;
}

/* An installed config's path (relative to the data folder) made absolute in place:
** t[key] for a string field, every element for a list. */
static void absolutize(lua_State *L, int t, const char *key) {
  lua_getfield(L, t, key);
  if (lua_isstring(L, -1)) {
    char *abs = sl_path_join(sl_home(), lua_tostring(L, -1));
    lua_pop(L, 1);
    lua_pushstring(L, abs);
    sl_mem_free(abs);
    lua_setfield(L, t, key);
    return;
  }
  if (lua_istable(L, -1)) {
    int list = lua_gettop(L);
    for (lua_Integer i = 1, n = (lua_Integer)lua_rawlen(L, list); i <= n; i++) {
      lua_rawgeti(L, list, i);
      char *abs = lua_isstring(L, -1) ? sl_path_join(sl_home(), lua_tostring(L, -1)) : NULL;
      lua_pop(L, 1);
      lua_pushstring(L, abs ? abs : "");
      sl_mem_free(abs);
      lua_rawseti(L, list, i);
    }
  }
  lua_pop(L, 1);
}

/* The config on top of L: the installed one beside the data (share/swimlane/l0/, from
** cmake --install) when there is one, else this build tree's. 0 ok. */
static int load_config(lua_State *L) {
  char *inst = sl_path_join(sl_home(), "l0/l0_config.lua");
  int installed = inst && access(inst, R_OK) == 0;
  int rc = sl_lua_dofile(L, installed ? inst : SL_L0_CONFIG, 1);
  sl_mem_free(inst);
  if (rc != 0) return -1;
  lua_getfield(L, -1, "relative");
  int relative = lua_toboolean(L, -1);
  lua_pop(L, 1);
  if (relative) {
    static const char *const keys[] = {"build_dir", "libs", "dep_libs", "include_dirs"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) absolutize(L, lua_gettop(L), keys[i]);
  }
  return 0;
}

int sl_l0_render_workspace(const sl_l0_plan *p) {
  lua_State *L = sl_lua_new();
  if (!L) return -1;
  int rc = -1;
  if (load_config(L) != 0) goto out;
  int cfg = lua_gettop(L);
  lua_getglobal(L, "require");
  lua_pushstring(L, "l0");
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
    sl_error(NULL, "lua/l0: %s", lua_tostring(L, -1));
    goto out;
  }
  lua_getfield(L, -1, "render");
  push_spec(L, p, cfg);
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
    sl_error(p->manifest, "task %s: %s", p->task->task_id, lua_tostring(L, -1));
    goto out;
  }
  if (sl_mkdirs(p->ws) != 0) goto out;
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    size_t len;
    const char *text = lua_tolstring(L, -1, &len);
    const char *name = lua_tostring(L, -2);
    if (!text || !name || write_file(p->ws, name, text, len) != 0) goto out;
    lua_pop(L, 1);
  }
  rc = 0;
out:
  lua_close(L);
  return rc;
}

/* ---- smoke build ------------------------------------------------------------------------------- */

static int cfg_string(const char *key, char *buf, size_t len) {
  lua_State *L = sl_lua_new();
  int rc = -1;
  if (L && sl_lua_dofile(L, SL_L0_CONFIG, 1) == 0) {
    lua_getfield(L, -1, key);
    if (lua_type(L, -1) == LUA_TSTRING) {
      snprintf(buf, len, "%s", lua_tostring(L, -1));
      rc = 0;
    }
  }
  if (L) lua_close(L);
  return rc;
}

/* Is `sym` a defined text symbol in the dynamic table of `so`? */
static int has_symbol(const char *so, const char *sym) {
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "nm -D --defined-only '%s' 2>/dev/null", so);
  FILE *fp = popen(cmd, "r");
  if (!fp) return 0;
  char line[512];
  int found = 0;
  while (fgets(line, sizeof line, fp)) {
    char addr[64], type[8], name[400];
    if (sscanf(line, "%63s %7s %399s", addr, type, name) == 3 && !strcmp(type, "T") && !strcmp(name, sym))
      found = 1;
  }
  pclose(fp);
  return found;
}

int sl_l0_smoke_build(const sl_l0_plan *p) {
  char cc[1024];
  if (cfg_string("cc", cc, sizeof cc) != 0) snprintf(cc, sizeof cc, "cc");
  char *build = sl_path_join(p->ws, "build");
  char *log = sl_path_join(p->ws, "build.log");
  char ccdef[1100];
  snprintf(ccdef, sizeof ccdef, "-DCMAKE_C_COMPILER=%s", cc);
  char *configure[] = {(char *)"cmake", (char *)"-S", p->ws, (char *)"-B", build,
                       (char *)"-G", (char *)"Ninja", ccdef, NULL};
  char *make[] = {(char *)"cmake", (char *)"--build", build, NULL};
  int rc = -1;
  if (sl_l0_spawn(configure, log) != 0 || sl_l0_spawn(make, log) != 0) {
    sl_error(log, "smoke build failed (cmake); see this log");
    goto out;
  }
  char *so = sl_path_join(build, "libreplay_kernel.so");
  static const char *const syms[] = {"replay_entry", "launch_replay"};
  for (size_t i = 0; i < 2; i++)
    if (!has_symbol(so, syms[i])) {
      sl_error(so, "smoke build: missing symbol %s", syms[i]);
      sl_mem_free(so);
      goto out;
    }
  sl_mem_free(so);
  printf(L0_PREFIX "smoke build OK (replay_entry, launch_replay present)\n");
  rc = 0;
out:
  sl_mem_free(build);
  sl_mem_free(log);
  return rc;
}
