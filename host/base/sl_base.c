/*
** sl_base.c — errors, all-or-nothing output files, paths, embedded Lua.
*/
#include "sl_base.h"

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

static char *dup_printf(const char *fmt, const char *a, long b) {
  int n = snprintf(NULL, 0, fmt, a, b);
  char *s = malloc((size_t)n + 1);
  if (s) snprintf(s, (size_t)n + 1, fmt, a, b);
  return s;
}

/* Temporaries a signal must remove: SIGINT/SIGTERM unlink them (unlink is
** async-signal-safe) and then die of the signal as if nobody had caught it. */
#define SL_MAX_TEMPS 8
static char *volatile g_temps[SL_MAX_TEMPS];

static void temps_add(char *tmp) {
  for (int i = 0; i < SL_MAX_TEMPS; i++)
    if (!g_temps[i]) {
      g_temps[i] = tmp;
      return;
    }
}

static void temps_remove(const char *tmp) {
  for (int i = 0; i < SL_MAX_TEMPS; i++)
    if (g_temps[i] == tmp) g_temps[i] = NULL;
}

void sl_outfile_remove_temporaries(void) {
  for (int i = 0; i < SL_MAX_TEMPS; i++)
    if (g_temps[i]) unlink(g_temps[i]);
}

static void on_fatal_signal(int sig) {
  sl_outfile_remove_temporaries();
  signal(sig, SIG_DFL);
  raise(sig);
}

void sl_outfile_trap_signals(void) {
  static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
    struct sigaction old;
    if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_DFL) continue; /* ignored or owned */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(sigs[i], &sa, NULL);
  }
}

/* Resolve what an output path really names: "-" is stdout, a symlink is followed
** to its target (replaced there, the link kept), an existing non-regular file (a
** device, a FIFO) is written in place. Returns the path to rename over, or NULL
** with *direct set when the file is opened as it is. */
static char *output_target(const char *path, int *direct, int *err) {
  struct stat st;
  *direct = 0;
  *err = 0;
  if (!strcmp(path, "-")) {
    *direct = 1;
    return NULL;
  }
  if (lstat(path, &st) != 0) return strdup(path); /* a new file */
  if (S_ISLNK(st.st_mode)) {
    char *real = realpath(path, NULL);
    if (!real) { /* a dangling link: create its target through it */
      *direct = 1;
      return NULL;
    }
    if (stat(real, &st) == 0 && S_ISREG(st.st_mode)) return real;
    free(real);
  }
  if (S_ISDIR(st.st_mode)) {
    *err = EISDIR;
    return NULL;
  }
  if (!S_ISREG(st.st_mode)) {
    *direct = 1;
    return NULL;
  }
  return strdup(path);
}

int sl_outfile_open(sl_outfile *of, const char *path) {
  memset(of, 0, sizeof *of);
  int direct, err;
  char *target = output_target(path, &direct, &err);
  if (err) {
    sl_error(path, "cannot write the output here: %s", strerror(err));
    return -1;
  }
  of->path = strdup(path);
  if (!of->path || (!direct && !target)) {
    free(target);
    sl_error(path, "out of memory");
    sl_outfile_abort(of);
    return -1;
  }
  if (direct) {
    of->direct = 1;
    of->fp = !strcmp(path, "-") ? stdout : fopen(path, "wb");
  } else {
    of->target = target;
    of->tmp_path = dup_printf("%s.tmp.%ld", target, (long)getpid());
    if (!of->tmp_path) {
      sl_error(path, "out of memory");
      sl_outfile_abort(of);
      return -1;
    }
    temps_add(of->tmp_path);
    of->fp = fopen(of->tmp_path, "wb");
  }
  if (!of->fp) {
    sl_error(path, "cannot create output file: %s", strerror(errno));
    sl_outfile_abort(of);
    return -1;
  }
  return 0;
}

/* Close (never stdout) and report whether every write reached the file. */
static int close_checked(sl_outfile *of) {
  int failed = fflush(of->fp) != 0 || ferror(of->fp);
  int e = errno;
  if (of->fp != stdout && fclose(of->fp) != 0 && !failed) {
    failed = 1;
    e = errno;
  }
  of->fp = NULL;
  if (failed) sl_error(!strcmp(of->path, "-") ? "<stdout>" : of->path, "write failed: %s", strerror(e));
  return failed;
}

int sl_outfile_commit(sl_outfile *of) {
  if (!of->fp) return -1;
  int failed = close_checked(of);
  if (!failed && !of->direct && rename(of->tmp_path, of->target) != 0) {
    sl_error(of->path, "cannot rename temporary output into place: %s", strerror(errno));
    failed = 1;
  }
  sl_outfile_abort(of); /* frees names; removes the temporary if it is still there */
  return failed ? -1 : 0;
}

void sl_outfile_abort(sl_outfile *of) {
  if (of->fp && of->fp != stdout) fclose(of->fp);
  if (of->tmp_path) {
    unlink(of->tmp_path);
    temps_remove(of->tmp_path);
  }
  free(of->path);
  free(of->target);
  free(of->tmp_path);
  memset(of, 0, sizeof *of);
}

int sl_output_check(const char *path) {
  if (!strcmp(path, "-")) return 0;
  struct stat st;
  if (stat(path, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      sl_error(path, "cannot write the output here: %s", strerror(EISDIR));
      return -1;
    }
    if (access(path, W_OK) != 0) {
      sl_error(path, "cannot write the output here: %s", strerror(errno));
      return -1;
    }
    return 0;
  }
  const char *slash = strrchr(path, '/');
  char *dir = slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : strdup(".");
  if (!dir) return -1;
  int ok = stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && access(dir, W_OK | X_OK) == 0;
  if (!ok) sl_error(path, "cannot create the output: folder %s %s", dir,
                    stat(dir, &st) != 0 ? "does not exist" : "is not writable");
  free(dir);
  return ok ? 0 : -1;
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

static void count_hook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  unsigned long long *used = lua_getextraspace(L);
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
