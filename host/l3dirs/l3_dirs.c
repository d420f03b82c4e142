/*
** l3_dirs.c — rankN/dK discovery in a dfx_outputs directory (sl_l3_dirs.h).
*/
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sl_base.h"
#include "sl_mem.h"
#include "sl_vec.h"
#include "sl_l3_dirs.h"

#define L3_DIRS_MAX 256

/* "<prefix><digits>" -> the number, else -1. */
long sl_l3_numbered(const char *name, const char *prefix) {
  size_t n = strlen(prefix);
  if (strncmp(name, prefix, n) || !name[n]) return -1;
  for (const char *p = name + n; *p; p++)
    if (*p < '0' || *p > '9' || p - name > 12) return -1;
  return strtol(name + n, NULL, 10);
}

int sl_l3_is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

int sl_l3_is_file(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Numbers of the <prefix>N subdirectories of dir (sorted, deduplication checked). */
int sl_l3_list_numbered(const char *dir, const char *prefix, long *out, int max, int *n) {
  DIR *d = opendir(dir);
  if (!d) return sl_error(dir, "cannot read the directory: %s", strerror(errno)), -1;
  char seen_name[L3_DIRS_MAX][64];
  struct dirent *e;
  int rc = 0;
  *n = 0;
  while (rc == 0 && (e = readdir(d)) != NULL) {
    long v = sl_l3_numbered(e->d_name, prefix);
    char *p = v >= 0 ? sl_path_join(dir, e->d_name) : NULL;
    int ok = p && sl_l3_is_dir(p);
    sl_mem_free(p);
    if (!ok) continue;
    for (int i = 0; i < *n; i++)
      if (out[i] == v) {
        sl_error(dir, "duplicated %s%ld: both %s/ and %s/ name it", prefix, v, seen_name[i], e->d_name);
        rc = -1;
      }
    if (rc == 0 && *n >= max) rc = -1, sl_error(dir, "more than %d %sN directories", max, prefix);
    if (rc == 0) {
      snprintf(seen_name[*n], sizeof seen_name[0], "%.60s", e->d_name);
      out[(*n)++] = v;
    }
  }
  closedir(d);
  for (int i = 1; i < *n; i++) /* insertion sort: a handful of entries */
    for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
      long t = out[j];
      out[j] = out[j - 1];
      out[j - 1] = t;
    }
  return rc;
}

char *sl_l3_records_path(const char *dir, const char *want) {
  static const char *const names[2] = {"chip_swimlane_records.json", "chip_swimlane_records.pb"};
  for (int i = 0; i < 2; i++) {
    if (want && strcmp(want, i ? "pb" : "json")) continue;
    char *p = sl_path_join(dir, names[i]);
    if (p && sl_l3_is_file(p)) return p;
    sl_mem_free(p);
  }
  return NULL;
}

void sl_l3_free_list(char **v, size_t n) {
  for (size_t i = 0; v && i < n; i++) sl_mem_free(v[i]);
  sl_mem_free(v);
}

int sl_l3_capture_dirs(const char *root, long dnum, char ***dirs, char ***labels, size_t *n) {
  long ranks[L3_DIRS_MAX], ds[L3_DIRS_MAX];
  int nr = 0, nd = 0;
  *n = 0;
  *dirs = *labels = NULL;
  if (sl_l3_list_numbered(root, "rank", ranks, L3_DIRS_MAX, &nr)) return -1;
  size_t cap = 0;
  for (int i = 0; i < nr; i++) {
    char rel[64];
    snprintf(rel, sizeof rel, "rank%ld", ranks[i]);
    char *rd = sl_path_join(root, rel);
    int rc = sl_l3_list_numbered(rd, "d", ds, L3_DIRS_MAX, &nd);
    sl_mem_free(rd);
    if (rc) return sl_l3_free_list(*dirs, *n), sl_l3_free_list(*labels, *n), -1;
    for (int k = 0; k < nd; k++) {
      if (dnum >= 0 && ds[k] != dnum) continue;
      size_t capd = cap; /* dirs and labels grow in step */
      *dirs = sl_array_grow(*dirs, &capd, *n + 1, sizeof **dirs);
      *labels = sl_array_grow(*labels, &cap, *n + 1, sizeof **labels);
      snprintf(rel, sizeof rel, "rank%ld/d%ld", ranks[i], ds[k]);
      (*labels)[*n] = sl_mem_strdup(rel);
      (*dirs)[(*n)++] = sl_path_join(root, rel);
    }
  }
  return 0;
}
