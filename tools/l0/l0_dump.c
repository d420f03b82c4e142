/*
** l0_dump.c — step 2: capture a fresh args dump with this very binary.
**
** Runs `<self> run WORKLOAD --case C --platform P --dump-args 3` and takes the
** args_dump.json that appeared under outputs/ during that run. A dump that
** existed before is never reused: if the run made none, that is an error.
*/
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "l0_internal.h"
#include "sl_base.h"
#include "sl_mem.h"
#include "sl_vec.h"

typedef struct dump_list {
  char **paths;
  int n;
  size_t cap;
} dump_list;

static void list_dumps(dump_list *l) {
  memset(l, 0, sizeof *l);
  DIR *d = opendir("outputs");
  struct dirent *e;
  while (d && (e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char p[1024];
    snprintf(p, sizeof p, "outputs/%s/args_dump/args_dump.json", e->d_name);
    if (access(p, F_OK) != 0) continue;
    *sl_array_push(l->paths, l->n, l->cap) = sl_mem_strdup(p);
  }
  if (d) closedir(d);
}

static void free_dumps(dump_list *l) {
  for (int i = 0; i < l->n; i++) sl_mem_free(l->paths[i]);
  sl_mem_free(l->paths);
}

static int listed(const dump_list *l, const char *p) {
  for (int i = 0; i < l->n; i++)
    if (!strcmp(l->paths[i], p)) return 1;
  return 0;
}

char *sl_l0_run_dump(const char *workload, const char *case_name, const char *platform) {
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) {
    sl_error("/proc/self/exe", "cannot locate the swimlane binary");
    return NULL;
  }
  self[n] = '\0';
  dump_list before, after;
  list_dumps(&before);
  char *argv[16];
  int k = 0;
  argv[k++] = self;
  argv[k++] = (char *)"run";
  argv[k++] = (char *)workload;
  if (case_name) {
    argv[k++] = (char *)"--case";
    argv[k++] = (char *)case_name;
  }
  argv[k++] = (char *)"--platform";
  argv[k++] = (char *)platform;
  argv[k++] = (char *)"--dump-args";
  argv[k++] = (char *)"3";
  argv[k] = NULL;
  printf(L0_PREFIX "capturing args: %s run %s%s%s --platform %s --dump-args 3\n", self, workload,
         case_name ? " --case " : "", case_name ? case_name : "", platform);
  int st = sl_l0_spawn(argv, NULL);
  if (st != 0) {
    sl_error(workload, "the args-dump run failed (exit %d); see its messages above", st);
    free_dumps(&before);
    return NULL;
  }
  list_dumps(&after);
  char *best = NULL;
  time_t best_t = 0;
  for (int i = 0; i < after.n; i++) {
    if (listed(&before, after.paths[i])) continue;
    struct stat st2;
    if (stat(after.paths[i], &st2) == 0 && (!best || st2.st_mtime >= best_t)) {
      best = after.paths[i];
      best_t = st2.st_mtime;
    }
  }
  char *out = best ? sl_mem_strdup(best) : NULL;
  if (!out)
    sl_error(workload,
             "the run produced no NEW outputs/*/args_dump/args_dump.json — the args dump was skipped (the "
             "incore signature likely does not match the dispatched payload). Refusing to reuse a stale dump.");
  free_dumps(&before);
  free_dumps(&after);
  return out;
}
