/*
** convert_harness.h — run `swimlane convert` in-process for the tests: a
** scratch directory, captured stdout/stderr, small file helpers, and a cJSON
** view of a written trace.
*/
#ifndef SL_CONVERT_HARNESS_H
#define SL_CONVERT_HARNESS_H

#include <cjson/cJSON.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sl_convert.h"
#include "sl_test_file.h"

/* Make and enter a fresh scratch directory; returns its malloc'd path. */
static inline char *h_scratch(const char *tag) {
  char tmpl[256];
  snprintf(tmpl, sizeof tmpl, "/tmp/sl_convert_%s_XXXXXX", tag);
  char *d = mkdtemp(tmpl);
  if (!d || chdir(d) != 0) return NULL;
  return strdup(d);
}

static inline int h_rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(p);
}

/* Leave the scratch directory and delete it. */
static inline void h_cleanup(char *dir) {
  if (!dir) return;
  if (chdir("/tmp") == 0) nftw(dir, h_rm_one, 16, FTW_DEPTH | FTW_PHYS);
  free(dir);
}

static inline char *h_read(const char *path, size_t *len) { return sl_test_read_file(path, len); }

static inline int h_write(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  fputs(text, f);
  return fclose(f);
}

static inline int h_copy(const char *from, const char *to) {
  size_t n;
  char *b = h_read(from, &n);
  if (!b) return -1;
  FILE *f = fopen(to, "wb");
  if (!f) {
    free(b);
    return -1;
  }
  fwrite(b, 1, n, f);
  free(b);
  return fclose(f);
}

static inline int h_exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0;
}

/* Run sl_cmd_convert with stdout/stderr captured into out.txt / err.txt. */
static inline int h_convert(int argc, char **argv, char **out, char **err) {
  fflush(stdout);
  fflush(stderr);
  int so = dup(1), se = dup(2);
  int fo = open("out.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  int fe = open("err.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  dup2(fo, 1);
  dup2(fe, 2);
  int rc = sl_cmd_convert(argc, argv);
  fflush(stdout);
  fflush(stderr);
  dup2(so, 1);
  dup2(se, 2);
  close(so);
  close(se);
  close(fo);
  close(fe);
  if (out) *out = h_read("out.txt", NULL);
  if (err) *err = h_read("err.txt", NULL);
  return rc;
}

static inline cJSON *h_trace(const char *path) {
  char *b = h_read(path, NULL);
  if (!b) return NULL;
  cJSON *j = cJSON_Parse(b);
  free(b);
  return j;
}

static inline cJSON *h_events(cJSON *trace) { return cJSON_GetObjectItem(trace, "traceEvents"); }

static inline const char *h_str(const cJSON *e, const char *k) {
  const cJSON *v = cJSON_GetObjectItem(e, k);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

static inline double h_num(const cJSON *e, const char *k) {
  const cJSON *v = cJSON_GetObjectItem(e, k);
  return cJSON_IsNumber(v) ? v->valuedouble : -1e300;
}

/* Count X events with this name (and pid/tid when >= 0). */
static inline int h_count_slices(cJSON *trace, const char *name, double pid, double tid) {
  int n = 0;
  cJSON *e;
  cJSON_ArrayForEach(e, h_events(trace)) {
    const char *ph = h_str(e, "ph");
    if (!ph || strcmp(ph, "X")) continue;
    if (name && (!h_str(e, "name") || strcmp(h_str(e, "name"), name))) continue;
    if (pid >= 0 && h_num(e, "pid") != pid) continue;
    if (tid >= 0 && h_num(e, "tid") != tid) continue;
    n++;
  }
  return n;
}

#endif
