/*
** sl_base.c — errors, standard streams, paths, embedded Lua.
** (All-or-nothing output files are in sl_file.c.)
*/
#include "sl_base.h"
#include "sl_mem.h"

#include <errno.h>
#include <fcntl.h>
#include <lauxlib.h>
#include <lua.h>
#include <limits.h>
#include <lualib.h>
#include <pthread.h>
#include <signal.h>
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

/* Standard output closed at start: file descriptor 1 gets /dev/full, so that the
** first write to "stdout" fails instead of landing in an output file that happens
** to be opened on descriptor 1. */
static int g_stdout_closed;

void sl_stdio_guard(void) {
  for (int fd = 0; fd <= 2; fd++) {
    if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    int nfd = open(fd == 1 ? "/dev/full" : "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
    if (nfd >= 0 && nfd != fd) {
      dup2(nfd, fd);
      close(nfd);
    }
    if (fd == 1) g_stdout_closed = 1;
  }
}

int sl_stdout_finish(void) {
  int failed = fflush(stdout) != 0 || ferror(stdout);
  if (!failed) return 0;
  if (g_stdout_closed) sl_error("<stdout>", "write failed: standard output is closed");
  else sl_error("<stdout>", "write failed: %s", strerror(errno));
  return -1;
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

const char *sl_json_object_end(const char *p, const char *end) {
  int depth = 0, in_str = 0;
  for (; p < end; p++) {
    if (in_str) {
      if (*p == '\\' && p + 1 < end) p++;
      else if (*p == '"') in_str = 0;
    } else if (*p == '"') {
      in_str = 1;
    } else if (*p == '{') {
      depth++;
    } else if (*p == '}' && --depth == 0) {
      return p + 1;
    }
  }
  return NULL;
}

char *sl_path_join(const char *dir, const char *rel) {
  size_t a = strlen(dir), b = strlen(rel);
  char *s = sl_mem_alloc(a + b + 2);
  memcpy(s, dir, a);
  size_t n = a;
  if (a > 0 && dir[a - 1] != '/') s[n++] = '/';
  memcpy(s + n, rel, b + 1);
  return s;
}

int sl_mkdirs(const char *path) {
  char *p = sl_mem_strdup(path);
  for (char *c = p + 1; *c; c++) {
    if (*c != '/') continue;
    *c = '\0';
    if (mkdir(p, 0755) != 0 && errno != EEXIST) goto fail;
    *c = '/';
  }
  if (mkdir(p, 0755) != 0 && errno != EEXIST) goto fail;
  sl_mem_free(p);
  return 0;
fail:
  sl_error(path, "cannot create directory: %s", strerror(errno));
  sl_mem_free(p);
  return -1;
}

/* Instruction budget of every state sl_lua_new makes: the count hook fires every
** SL_LUA_HOOK_STEP instructions and raises an error once the budget is spent, so
** a runaway script ends with a message instead of hanging the command. */
#define SL_LUA_HOOK_STEP 10000
static unsigned long long g_lua_limit = 20000000000ull; /* ~ a minute of Lua */
static int g_lua_limit_set;

void sl_lua_set_instruction_limit(unsigned long long n) {
  g_lua_limit = n;
  g_lua_limit_set = 1;
}

/* $SWIMLANE_LUA_LIMIT (instructions, 0 = none) unless the program set one. */
static void lua_limit_from_env(void) {
  const char *e = getenv("SWIMLANE_LUA_LIMIT");
  if (g_lua_limit_set || !e || !*e) return;
  char *end;
  unsigned long long v = strtoull(e, &end, 10);
  if (!*end) g_lua_limit = v;
}

/* The count of the state's main thread: a coroutine has its own extra space (a copy
** made when it was created), and counting there would give every coroutine a fresh
** budget. */
static unsigned long long *budget_used(lua_State *L) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
  lua_State *main_thread = lua_tothread(L, -1);
  lua_pop(L, 1);
  return lua_getextraspace(main_thread ? main_thread : L);
}

static void count_hook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  unsigned long long *used = budget_used(L);
  *used += SL_LUA_HOOK_STEP;
  if (*used > g_lua_limit) {
    char msg[128]; /* lua_pushfstring has no %llu */
    snprintf(msg, sizeof msg, "script exceeded the instruction limit (%llu instructions; a runaway loop?)",
             g_lua_limit);
    luaL_where(L, 0); /* in a hook, level 0 is the Lua function that ran too long */
    lua_pushstring(L, msg);
    lua_concat(L, 2);
    lua_error(L);
  }
}

void sl_lua_limit(lua_State *L) {
  _Static_assert(LUA_EXTRASPACE >= sizeof(unsigned long long), "extra space holds the count");
  *(unsigned long long *)lua_getextraspace(L) = 0;
  lua_limit_from_env();
  if (g_lua_limit) lua_sethook(L, count_hook, LUA_MASKCOUNT, SL_LUA_HOOK_STEP);
}

lua_State *sl_lua_new(void) {
  lua_State *L = luaL_newstate();
  if (!L) return NULL;
  sl_lua_limit(L);
  luaL_openlibs(L);
  if (sl_lua_sandbox(L) != 0) {
    lua_close(L);
    return NULL;
  }
  const char *home = sl_home();
  lua_getglobal(L, "package");
  lua_pushfstring(L, "%s/lua/?.lua;%s/lua/?/init.lua", home, home);
  lua_setfield(L, -2, "path");
  lua_pop(L, 1);
  return L;
}

int sl_lua_dofile(lua_State *L, const char *path, int nresults) {
  if (luaL_loadfilex(L, path, "t") != LUA_OK || lua_pcall(L, 0, nresults, 0) != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    /* luaL_loadfile already prefixes syntax errors with the chunk name */
    if (msg && strncmp(msg, path, strlen(path)) == 0) sl_error(NULL, "%s", msg);
    else sl_error(path, "%s", msg ? msg : "(error object is not a string)");
    lua_pop(L, 1);
    return -1;
  }
  return 0;
}
