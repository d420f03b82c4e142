/*
** sl_l3_argv.c — the argv editing the L3 scheduler and the rank worker share:
** the user's run options, passed on to a rank process or a round, without the
** options that only the scheduler (or only the worker) reads.
*/
#include <string.h>

#include "sl_l3_run.h"
#include "sl_mem.h"

char **sl_l3_argv_without(int argc, char **argv, const char *const *drop, int extra, int *out_argc) {
  char **v = sl_mem_calloc((size_t)argc + (size_t)extra + 1, sizeof *v);
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
