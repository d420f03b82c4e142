/*
** check_dir.c — `swimlane check-trace DFX_DIR`: every trace of an L3 run — each
** rank's own (rankN/dK/merged_swimlane.json|.pftrace, where converted) and the
** merged l3_swimlane.json|.pftrace (the total) — checked one by one, then a tally.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_dir.h"
#include "sl_base.h"
#include "sl_l3_dirs.h"
#include "sl_mem.h"


int sl_check_dir_wanted(int argc, char **argv, int *at) {
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--format") || !strcmp(argv[i], "--max-problems")) i++;
    else if (argv[i][0] != '-' && sl_l3_is_dir(argv[i])) return *at = i, 1;
  }
  return 0;
}

/* Check one file with the same options: argv with the directory replaced. */
static int check_one(sl_check_file_fn check_file, int argc, char **argv, int at, char *path,
                     size_t *checked) {
  char *dir = argv[at];
  argv[at] = path;
  printf("== %s\n", path);
  fflush(stdout);
  int rc = check_file(argc, argv);
  fflush(stdout);
  argv[at] = dir;
  (*checked)++;
  return rc != 0;
}

/* The first of <dir>/<name>.json, <dir>/<name>.pftrace that exists, or NULL. */
static char *trace_in(const char *dir, const char *name) {
  char file[96];
  for (int k = 0; k < 2; k++) {
    snprintf(file, sizeof file, "%s.%s", name, k ? "pftrace" : "json");
    char *p = sl_path_join(dir, file);
    if (p && sl_l3_is_file(p)) return p;
    sl_mem_free(p);
  }
  return NULL;
}

int sl_check_cmd_dir(int argc, char **argv, int at, sl_check_file_fn check_file) {
  const char *root = argv[at];
  char **dirs, **labels;
  size_t n, checked = 0, failed = 0;
  if (sl_l3_capture_dirs(root, -1, &dirs, &labels, &n)) return 1;
  for (size_t i = 0; i < n; i++) {
    char *p = trace_in(dirs[i], "merged_swimlane");
    if (p) failed += (size_t)check_one(check_file, argc, argv, at, p, &checked);
    sl_mem_free(p);
  }
  char *total = trace_in(root, "l3_swimlane");
  if (total) failed += (size_t)check_one(check_file, argc, argv, at, total, &checked);
  sl_mem_free(total);
  sl_l3_free_list(dirs, n);
  sl_l3_free_list(labels, n);
  if (!checked) {
    sl_error(root, "no traces to check: neither l3_swimlane.json nor rankN/dK/merged_swimlane.json "
                   "(run swimlane convert %s first)", root);
    return 1;
  }
  printf("check-trace: %zu trace%s checked (%s), %zu failed\n", checked, checked == 1 ? "" : "s",
         total ? "the merged l3_swimlane and the ranks' own" : "the ranks' own; no merged l3_swimlane yet", failed);
  return failed ? 1 : 0;
}
