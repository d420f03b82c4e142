/*
** sl_base.c — errors, all-or-nothing output files, paths, embedded Lua.
*/
#include "sl_base.h"

#include <errno.h>
#include <lauxlib.h>
#include <lua.h>
#include <limits.h>
#include <lualib.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef SL_HOME_DIR
#define SL_HOME_DIR "."
#endif
#ifndef SL_DATA_RELDIR
#define SL_DATA_RELDIR "share/swimlane"
#endif

void sl_verror(const char *file, const char *fmt, va_list ap) {
  fputs("swimlane: ", stderr);
  if (file) fprintf(stderr, "%s: ", file);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

void sl_error(const char *file, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sl_verror(file, fmt, ap);
  va_end(ap);
}

void sl_warn(const char *file, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("swimlane: warning: ", stderr);
  if (file) fprintf(stderr, "%s: ", file);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

static char *dup_printf(const char *fmt, const char *a, long b) {
  int n = snprintf(NULL, 0, fmt, a, b);
  char *s = malloc((size_t)n + 1);
  if (s) snprintf(s, (size_t)n + 1, fmt, a, b);
  return s;
}

int sl_outfile_open(sl_outfile *of, const char *path) {
  memset(of, 0, sizeof *of);
  of->path = strdup(path);
  of->tmp_path = dup_printf("%s.tmp.%ld", path, (long)getpid());
  if (!of->path || !of->tmp_path) {
    sl_error(path, "out of memory");
    sl_outfile_abort(of);
    return -1;
  }
  of->fp = fopen(of->tmp_path, "wb");
  if (!of->fp) {
    sl_error(path, "cannot create output file: %s", strerror(errno));
    sl_outfile_abort(of);
    return -1;
  }
  return 0;
}

int sl_outfile_commit(sl_outfile *of) {
  int failed = 0;
  if (!of->fp) return -1;
  if (ferror(of->fp)) failed = 1;
  if (fclose(of->fp) != 0) failed = 1;
  of->fp = NULL;
  if (failed) {
    sl_error(of->path, "write failed: %s", strerror(errno));
  } else if (rename(of->tmp_path, of->path) != 0) {
    sl_error(of->path, "cannot rename temporary output into place: %s", strerror(errno));
    failed = 1;
  }
  sl_outfile_abort(of); /* frees names; removes the temporary if it is still there */
  return failed ? -1 : 0;
}

void sl_outfile_abort(sl_outfile *of) {
  if (of->fp) fclose(of->fp);
  if (of->tmp_path) unlink(of->tmp_path);
  free(of->path);
  free(of->tmp_path);
  memset(of, 0, sizeof *of);
}

/* <dir of the running binary>/../<datadir>/swimlane when it holds the schema
** (an installed swimlane), else NULL. */
static char g_installed_home[PATH_MAX];
static void find_installed_home(void) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return;
  exe[n] = '\0';
  char *slash = strrchr(exe, '/');
  if (!slash) return;
  *slash = '\0';
  char cand[PATH_MAX], probe[PATH_MAX + 32];
  int len = snprintf(cand, sizeof cand, "%s/../%s", exe, SL_DATA_RELDIR);
  if (len < 0 || (size_t)len >= sizeof cand) return;
  snprintf(probe, sizeof probe, "%s/schema/records.lua", cand);
  struct stat st;
  if (stat(probe, &st) != 0 || !S_ISREG(st.st_mode)) return;
  if (!realpath(cand, g_installed_home)) g_installed_home[0] = '\0';
}

const char *sl_home(void) {
  const char *env = getenv("SWIMLANE_HOME");
  if (env && *env) return env;
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, find_installed_home);
  return g_installed_home[0] ? g_installed_home : SL_HOME_DIR;
}

char *sl_path_join(const char *dir, const char *rel) {
  size_t a = strlen(dir), b = strlen(rel);
  char *s = malloc(a + b + 2);
  if (!s) return NULL;
  memcpy(s, dir, a);
  size_t n = a;
  if (a > 0 && dir[a - 1] != '/') s[n++] = '/';
  memcpy(s + n, rel, b + 1);
  return s;
}

int sl_mkdirs(const char *path) {
  char *p = strdup(path);
  if (!p) return -1;
  for (char *c = p + 1; *c; c++) {
    if (*c != '/') continue;
    *c = '\0';
    if (mkdir(p, 0755) != 0 && errno != EEXIST) goto fail;
    *c = '/';
  }
  if (mkdir(p, 0755) != 0 && errno != EEXIST) goto fail;
  free(p);
  return 0;
fail:
  sl_error(path, "cannot create directory: %s", strerror(errno));
  free(p);
  return -1;
}

lua_State *sl_lua_new(void) {
  lua_State *L = luaL_newstate();
  if (!L) return NULL;
  luaL_openlibs(L);
  const char *home = sl_home();
  lua_getglobal(L, "package");
  lua_pushfstring(L, "%s/lua/?.lua;%s/lua/?/init.lua", home, home);
  lua_setfield(L, -2, "path");
  lua_pop(L, 1);
  return L;
}

int sl_lua_dofile(lua_State *L, const char *path, int nresults) {
  if (luaL_loadfile(L, path) != LUA_OK || lua_pcall(L, 0, nresults, 0) != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    /* luaL_loadfile already prefixes syntax errors with the chunk name */
    if (msg && strncmp(msg, path, strlen(path)) == 0) sl_error(NULL, "%s", msg);
    else sl_error(path, "%s", msg ? msg : "(error object is not a string)");
    lua_pop(L, 1);
    return -1;
  }
  return 0;
}
