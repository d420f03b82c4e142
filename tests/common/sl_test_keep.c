/*
** sl_test_keep.c — copy the traces a test wrote out of its scratch directory before
** the test removes it, so that the real-client test loads every trace the end-to-end
** tests write (not only the ones it makes itself).
*/
#define _XOPEN_SOURCE 700
#include "sl_test_keep.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sl_test_file.h"

#define HEAD_BYTES 4096 /* "traceEvents" is the first key of every trace we write */

static struct {
  const char *scratch, *dst;
  int kept, calls;  /* calls: this process's, numbering each call's copies */
  char cleaned[256]; /* the name whose folder this process emptied */
} g_keep;

static int is_trace(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  char head[HEAD_BYTES + 1];
  size_t n = fread(head, 1, HEAD_BYTES, f);
  fclose(f);
  head[n] = 0;
  return strstr(head, "\"traceEvents\"") != NULL;
}

static int keep_one(const char *path, const struct stat *st, int type, struct FTW *ftw) {
  (void)ftw;
  size_t n = strlen(path);
  if (type != FTW_F || n < 5 || strcmp(path + n - 5, ".json") || !is_trace(path)) return 0;
  size_t len = 0;
  char *bytes = st->st_size < (1 << 28) ? sl_test_read_file(path, &len) : NULL;
  if (!bytes) return 0;
  char out[4096];
  int k = snprintf(out, sizeof out, "%s/%d__", g_keep.dst, g_keep.calls);
  for (const char *p = path + strlen(g_keep.scratch); *p && k + 3 < (int)sizeof out; p++) {
    if (*p == '/' && p == path + strlen(g_keep.scratch)) continue; /* the separator after scratch */
    if (*p == '/') out[k++] = '_', out[k++] = '_';
    else out[k++] = *p;
  }
  out[k] = 0;
  FILE *f = fopen(out, "wb");
  if (f && fwrite(bytes, 1, len, f) == len) g_keep.kept++;
  if (f) fclose(f);
  free(bytes);
  return 0;
}

int sl_test_keep_traces(const char *scratch, const char *name) {
  const char *root = getenv("SL_KEEP_TRACES");
  if (!root || !*root) return 0;
  char dst[2048], cmd[4200];
  snprintf(dst, sizeof dst, "%s/%s", root, name);
  /* the folder holds this test binary's traces of this run only */
  if (strcmp(g_keep.cleaned, name)) snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", dst, dst);
  else snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dst);
  if (system(cmd) != 0) return 0;
  snprintf(g_keep.cleaned, sizeof g_keep.cleaned, "%s", name);
  g_keep.calls++;
  g_keep.scratch = scratch;
  g_keep.dst = dst;
  g_keep.kept = 0;
  nftw(scratch, keep_one, 16, FTW_PHYS);
  return g_keep.kept;
}
