/*
** sl_l3_args.c — how `swimlane run` hands over to the L3 scheduler or a rank
** worker, and the argv editing both need.
*/
#include <stdlib.h>
#include <string.h>

#include "sl_l3_run.h"
#include "sl_run_internal.h"

int sl_l3_find_opt(int argc, char **argv, const char *name) {
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], name)) return i;
  return 0;
}

char **sl_l3_argv_without(int argc, char **argv, const char *const *drop, int extra, int *out_argc) {
  char **v = calloc((size_t)argc + (size_t)extra + 1, sizeof *v);
  if (!v) return NULL;
  int n = 0;
  for (int i = 0; i < argc; i++) {
    int skip = 0;
    for (const char *const *d = drop; *d && i > 0; d++) skip |= !strcmp(argv[i], *d);
    if (skip) i++; /* and its value */
    else v[n++] = argv[i];
  }
  *out_argc = n;
  return v;
}

int sl_l3_run_maybe(int argc, char **argv) {
  if (sl_l3_find_opt(argc, argv, "--l3-worker")) return sl_l3_worker_main(argc, argv);
  if (sl_l3_find_opt(argc, argv, "--ranks")) return sl_l3_sched_main(argc, argv);
  return -1;
}
