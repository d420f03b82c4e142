/*
** sl_run_list.c — `swimlane run --list`: the shipped workloads with their cases
** and the platforms each case lists, then the platforms `run` accepts (from the
** generated platform table, never a hand copy).
*/
#include <dirent.h>
#include <lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sl_base.h"
#include "sl_platforms.h"
#include "sl_run_internal.h"
#include "sl_mem.h"

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "Case1 [a2a3sim a5sim], Case2 [a2a3sim]" for the loaded workload. */
static void print_cases(FILE *out, sl_workload *wl) {
  lua_State *L = wl->L;
  int top = lua_gettop(L);
  lua_rawgeti(L, LUA_REGISTRYINDEX, wl->table_ref);
  lua_getfield(L, -1, "cases");
  int n = (int)lua_rawlen(L, -1);
  for (int i = 1; i <= n; i++) {
    lua_rawgeti(L, -1, i);
    lua_getfield(L, -1, "name");
    fprintf(out, "%s%s [", i > 1 ? ", " : "", lua_isstring(L, -1) ? lua_tostring(L, -1) : "?");
    lua_pop(L, 1);
    lua_getfield(L, -1, "platforms");
    int np = lua_istable(L, -1) ? (int)lua_rawlen(L, -1) : 0;
    for (int k = 1; k <= np; k++) {
      lua_rawgeti(L, -1, k);
      fprintf(out, "%s%s", k > 1 ? " " : "", lua_isstring(L, -1) ? lua_tostring(L, -1) : "?");
      lua_pop(L, 1);
    }
    fputc(']', out);
    lua_pop(L, 2);
  }
  lua_settop(L, top);
}

/* The workload names under <home>/lua/workloads, sorted; *n set. NULL if none. */
static char **workload_names(const char *dir, size_t *n) {
  *n = 0;
  DIR *d = opendir(dir);
  if (!d) return NULL;
  char **names = NULL;
  size_t cap = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    size_t len = strlen(e->d_name);
    if (len <= 4 || strcmp(e->d_name + len - 4, ".lua") != 0) continue;
    *sl_array_push(names, *n, cap) = sl_mem_strndup(e->d_name, len - 4);
  }
  closedir(d);
  if (names) qsort(names, *n, sizeof *names, cmp_str);
  return names;
}

int sl_run_list(FILE *out) {
  char *dir = sl_path_join(sl_home(), "lua/workloads");
  size_t n;
  char **names = workload_names(dir, &n);
  if (!n) {
    sl_error(dir, "no workloads found");
    sl_mem_free(dir);
    sl_mem_free(names);
    return 1;
  }
  fprintf(out, "workloads (%s):\n", dir);
  int rc = 0;
  for (size_t i = 0; i < n; i++) {
    sl_workload wl;
    if (sl_workload_load(&wl, names[i]) == 0) {
      fprintf(out, "  %-18s %s: ", names[i], wl.klass);
      print_cases(out, &wl);
      fputc('\n', out);
    } else {
      rc = 1; /* the error is reported; list the rest */
    }
    sl_workload_free(&wl);
    sl_mem_free(names[i]);
  }
  sl_mem_free(names);
  sl_mem_free(dir);
  fputs("platforms:\n", out);
  for (unsigned i = 0; i < sl_platform_table_len; i++) {
    const sl_platform_info *p = &sl_platform_table[i];
    if (!p->is_sim) continue;
    fprintf(out, "  %-18s simulated %s, %.0f MHz clock, up to %u cores, %u AICPU threads\n", p->name,
            p->arch, (double)p->clock_freq_hz / 1e6, p->max_cores, p->max_aicpu_threads);
  }
  return rc;
}
