/*
** sl_l3_argv.c — the argv editing the L3 scheduler and the rank worker share:
** finding an option, and copying argv without some options.
*/
#include <stdlib.h>
#include <string.h>

#include "sl_l3_run.h"
#include "sl_mem.h"

int sl_l3_find_opt(int argc, char **argv, const char *name) {
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], name)) return i;
  return 0;
}

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
