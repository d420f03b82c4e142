/*
** sl_file.c — whole-file reading and all-or-nothing output files.
**
** Design of the output side. An output's bytes go to a temporary beside the
** file they will replace ("<target>.tmp.<pid>", same folder, so the final
** rename is atomic) and reach the target only by that rename, after every
** write, the flush and the close have succeeded. In order:
**
**   1. output_target decides what the path really names: "-" (stdout), a
**      device, a FIFO or a dangling symlink are written in place ("direct",
**      there is nothing to replace atomically); a symlink to a regular file is
**      followed, so the link stays and its file is replaced; a folder is an
**      error; anything else is a regular file, new or existing.
**   2. the temporary's name enters g_temps, the one list every emergency exit
**      reads: the signal handler (on_fatal_signal) and the out-of-memory path
**      (sl_mem_fail) both call sl_outfile_remove_temporaries, which only
**      unlinks (async-signal-safe).
**   3. commit closes with every error checked, then renames; abort, or a failed
**      commit, unlinks the temporary and forgets its name.
**
** Invariant: a name is in g_temps exactly while its temporary may exist on disk.
** g_temps is a fixed array (a signal handler cannot walk a growing one); the
** lock orders writers, the emergency readers do not take it.
*/
#include "sl_file.h"

#include "sl_base.h"
#include "sl_mem.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- reading ------------------------------------------------------------------ */

sl_status sl_file_read(const char *path, char **data, size_t *len, sl_err *err) {
  *data = NULL;
  *len = 0;
  FILE *f = fopen(path, "rb");
  if (!f) return sl_err_set(err, path, "cannot read: %s", strerror(errno));
  struct stat st;
  size_t cap = 1 << 16, n = 0;
  if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) cap = (size_t)st.st_size + 1;
  char *buf = sl_mem_alloc(cap);
  for (;;) {
    n += fread(buf + n, 1, cap - 1 - n, f);
    if (n < cap - 1 || ferror(f)) break;
    buf = sl_mem_realloc(buf, cap *= 2); /* the file grew, or has no size (a pipe) */
  }
  int e = ferror(f) ? (errno ? errno : EIO) : 0;
  fclose(f);
  if (e) {
    sl_mem_free(buf);
    return sl_err_set(err, path, "cannot read: %s", strerror(e));
  }
  buf[n] = '\0';
  *data = buf;
  *len = n;
  return SL_OK;
}

/* ---- the temporaries an emergency exit removes ----------------------------------- */

#define SL_MAX_TEMPS 32
static char *volatile g_temps[SL_MAX_TEMPS];
static pthread_mutex_t g_temps_lock = PTHREAD_MUTEX_INITIALIZER;

/* The out-of-memory path removes the temporaries too (registered once). */
static pthread_once_t g_temps_once = PTHREAD_ONCE_INIT;
static void register_cleanup(void) { sl_mem_on_failure(sl_outfile_remove_temporaries); }

static void temps_add(char *tmp) {
  pthread_once(&g_temps_once, register_cleanup);
  pthread_mutex_lock(&g_temps_lock);
  for (int i = 0; i < SL_MAX_TEMPS; i++)
    if (!g_temps[i]) {
      g_temps[i] = tmp;
      break;
    }
  pthread_mutex_unlock(&g_temps_lock);
}

static void temps_remove(const char *tmp) {
  pthread_mutex_lock(&g_temps_lock);
  for (int i = 0; i < SL_MAX_TEMPS; i++)
    if (g_temps[i] == tmp) g_temps[i] = NULL;
  pthread_mutex_unlock(&g_temps_lock);
}

void sl_outfile_remove_temporaries(void) {
  for (int i = 0; i < SL_MAX_TEMPS; i++) {
    char *t = g_temps[i];
    if (t) unlink(t);
  }
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

/* ---- output files ---------------------------------------------------------------- */

/* Resolve what an output path really names (step 1 above). Returns the path to
** rename over, or NULL with *direct set when the file is opened as it is, or
** NULL with *err set (EISDIR). */
static char *output_target(const char *path, int *direct, int *err) {
  struct stat st;
  *direct = 0;
  *err = 0;
  if (!strcmp(path, "-")) {
    *direct = 1;
    return NULL;
  }
  if (lstat(path, &st) != 0) return sl_mem_strdup(path); /* a new file */
  if (S_ISLNK(st.st_mode)) {
    char *real = realpath(path, NULL);
    if (!real) { /* a dangling link: create its target through it */
      *direct = 1;
      return NULL;
    }
    if (stat(real, &st) == 0 && S_ISREG(st.st_mode)) {
      char *t = sl_mem_strdup(real);
      sl_mem_free(real);
      return t;
    }
    sl_mem_free(real);
  }
  if (S_ISDIR(st.st_mode)) {
    *err = EISDIR;
    return NULL;
  }
  if (!S_ISREG(st.st_mode)) {
    *direct = 1;
    return NULL;
  }
  return sl_mem_strdup(path);
}

sl_status sl_outfile_begin(sl_outfile *of, const char *path, sl_err *err) {
  memset(of, 0, sizeof *of);
  int direct, e;
  char *target = output_target(path, &direct, &e);
  if (e) return sl_err_set(err, path, "cannot write the output here: %s", strerror(e));
  of->path = sl_mem_strdup(path);
  if (direct) {
    of->direct = 1;
    of->fp = !strcmp(path, "-") ? stdout : fopen(path, "wb");
  } else {
    of->target = target;
    of->tmp_path = sl_mem_printf("%s.tmp.%ld", target, (long)getpid());
    temps_add(of->tmp_path);
    of->fp = fopen(of->tmp_path, "wb");
  }
  if (!of->fp) {
    e = errno;
    sl_outfile_abort(of);
    return sl_err_set(err, path, "cannot create output file: %s", strerror(e));
  }
  return SL_OK;
}

/* Close (never stdout) and say whether every write reached the file. */
static sl_status close_checked(sl_outfile *of, sl_err *err) {
  int failed = fflush(of->fp) != 0 || ferror(of->fp);
  int e = errno;
  if (of->fp != stdout && fclose(of->fp) != 0 && !failed) {
    failed = 1;
    e = errno;
  }
  of->fp = NULL;
  if (!failed) return SL_OK;
  return sl_err_set(err, !strcmp(of->path, "-") ? "<stdout>" : of->path, "write failed: %s", strerror(e));
}

sl_status sl_outfile_end(sl_outfile *of, sl_err *err) {
  if (!of->fp) return SL_FAIL;
  sl_status st = close_checked(of, err);
  if (st == SL_OK && !of->direct && rename(of->tmp_path, of->target) != 0)
    st = sl_err_set(err, of->path, "cannot rename temporary output into place: %s", strerror(errno));
  sl_outfile_abort(of); /* frees names; removes the temporary if it is still there */
  return st;
}

void sl_outfile_abort(sl_outfile *of) {
  if (of->fp && of->fp != stdout) fclose(of->fp);
  if (of->tmp_path) {
    unlink(of->tmp_path);
    temps_remove(of->tmp_path);
  }
  sl_mem_free(of->path);
  sl_mem_free(of->target);
  sl_mem_free(of->tmp_path);
  memset(of, 0, sizeof *of);
}

sl_status sl_file_write(const char *path, const void *data, size_t len, sl_err *err) {
  sl_outfile of;
  if (sl_outfile_begin(&of, path, err) != SL_OK) return SL_FAIL;
  size_t wrote = len ? fwrite(data, 1, len, of.fp) : 0;
  (void)wrote; /* a short write sets the stream's error flag, which end reports */
  return sl_outfile_end(&of, err);
}

/* The printing forms. */
static int printed(sl_status st, sl_err *err) {
  if (st != SL_OK) (void)sl_err_report(err);
  return st == SL_OK ? 0 : -1;
}

int sl_outfile_open(sl_outfile *of, const char *path) {
  sl_err err = SL_ERR_INIT;
  return printed(sl_outfile_begin(of, path, &err), &err);
}

int sl_outfile_commit(sl_outfile *of) {
  sl_err err = SL_ERR_INIT;
  return printed(sl_outfile_end(of, &err), &err);
}

int sl_file_write_line(const char *path, const char *text) {
  sl_outfile of;
  if (sl_outfile_open(&of, path) != 0) return -1;
  fputs(text, of.fp);
  fputc('\n', of.fp);
  return sl_outfile_commit(&of);
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
  char *dir = slash ? sl_mem_strndup(path, (size_t)(slash - path) + (slash == path)) : sl_mem_strdup(".");
  int ok = stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && access(dir, W_OK | X_OK) == 0;
  if (!ok) sl_error(path, "cannot create the output: folder %s %s", dir,
                    stat(dir, &st) != 0 ? "does not exist" : "is not writable");
  sl_mem_free(dir);
  return ok ? 0 : -1;
}
