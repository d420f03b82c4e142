/*
** sl_mem.c — one allocator, one way to fail.
**
** Design. Like Lua's luaM_ layer, all host-side memory comes from one function,
** sl_mem_realloc, and an allocation that cannot be satisfied never returns to
** its caller: sl_mem_fail runs instead. That moves the whole out-of-memory
** story into this file:
**
**   1. the first thread to fail takes g_fail_lock (a second failing thread
**      blocks on it until the process is gone, so exactly one message appears);
**   2. the registered cleanups run, most recent first; sl_file.c registers
**      sl_outfile_remove_temporaries (the routine the signal handler uses) when
**      it opens its first output, so every open output's temporary is unlinked
**      (registering, rather than calling sl_file.c, keeps this file at the
**      bottom: it calls nothing in the tree);
**   3. standard output is flushed (lines already printed are not lost), one
**      line goes to stderr, and the process ends with _exit(1): atexit handlers
**      and stdio of other threads are not run on a heap that just failed.
**
** Invariants: sl_mem_realloc(p, n) with n > 0 returns non-NULL; with n == 0 it
** frees p and returns NULL. Sizes computed from counts are overflow-checked
** here (sl_mem_array, sl_mem_calloc) so a wrapped size never allocates too little.
**
** The fault counter (sl_mem_fail_after) lets tests reach step 2 without
** exhausting the machine; it is one relaxed atomic load per allocation.
*/
#include "sl_mem.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SL_MEM_MAX_CLEANUPS 8

static pthread_mutex_t g_fail_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t g_cleanup_lock = PTHREAD_MUTEX_INITIALIZER;
static void (*g_cleanups[SL_MEM_MAX_CLEANUPS])(void);
static int g_ncleanups;
static atomic_long g_fail_after;

void sl_mem_on_failure(void (*cleanup)(void)) {
  pthread_mutex_lock(&g_cleanup_lock);
  if (g_ncleanups < SL_MEM_MAX_CLEANUPS) g_cleanups[g_ncleanups++] = cleanup;
  pthread_mutex_unlock(&g_cleanup_lock);
}

void sl_mem_fail_after(long n) { atomic_store(&g_fail_after, n); }

_Noreturn void sl_mem_fail(size_t n) {
  pthread_mutex_lock(&g_fail_lock); /* never released: the process ends below */
  pthread_mutex_lock(&g_cleanup_lock);
  for (int i = g_ncleanups - 1; i >= 0; i--) g_cleanups[i]();
  pthread_mutex_unlock(&g_cleanup_lock);
  fflush(stdout);
  if (n) fprintf(stderr, "swimlane: out of memory (could not allocate %zu bytes)\n", n);
  else fputs("swimlane: out of memory\n", stderr);
  fflush(stderr);
  _exit(1);
}

/* True when the fault counter says this allocation is the one to fail. */
static int injected_failure(void) {
  if (atomic_load_explicit(&g_fail_after, memory_order_relaxed) <= 0) return 0;
  return atomic_fetch_sub(&g_fail_after, 1) == 1;
}

void *sl_mem_realloc(void *p, size_t n) {
  if (n == 0) {
    free(p);
    return NULL;
  }
  void *q = injected_failure() ? NULL : realloc(p, n);
  if (!q) sl_mem_fail(n);
  return q;
}

void *sl_mem_alloc(size_t n) { return sl_mem_realloc(NULL, n ? n : 1); }

void *sl_mem_calloc(size_t count, size_t size) {
  if (size && count > SIZE_MAX / size) sl_mem_fail(SIZE_MAX);
  size_t n = count * size;
  if (n == 0) n = 1;
  /* calloc, not realloc + memset: large zeroed blocks stay untouched pages */
  void *q = injected_failure() ? NULL : calloc(1, n);
  if (!q) sl_mem_fail(n);
  return q;
}

void *sl_mem_array(void *p, size_t count, size_t size) {
  if (size && count > SIZE_MAX / size) sl_mem_fail(SIZE_MAX);
  return sl_mem_realloc(p, count * size);
}

void sl_mem_free(void *p) { free(p); }

char *sl_mem_strndup(const char *s, size_t n) {
  size_t len = strnlen(s, n);
  char *c = sl_mem_alloc(len + 1);
  memcpy(c, s, len);
  c[len] = '\0';
  return c;
}

char *sl_mem_strdup(const char *s) { return sl_mem_strndup(s, SIZE_MAX); }

char *sl_mem_printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) n = 0; /* an encoding error: an empty string rather than a crash */
  char *s = sl_mem_alloc((size_t)n + 1);
  s[0] = '\0';
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}
