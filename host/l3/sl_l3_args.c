/*
** sl_l3_args.c — how `swimlane run` hands over to the L3 scheduler or a rank
** worker (the argv editing both need is sl_l3_argv.c's): `--ranks N`, or a
** workload that declares an L3 group (`l3 = { ranks = N, dispatches = K }`), whose
** counts are the defaults `--ranks` / `--dispatches` override.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sl_l3_run.h"
#include "sl_run_internal.h"
#include "sl_mem.h"

/* Set while this process is a rank worker: its rounds are single-chip runs, whatever
** the workload declares. */
static int g_in_worker;

/* argv with the declared group's --ranks / --dispatches added where not given. */
static int run_declared(int argc, char **argv, int ranks, int dispatches, const sl_run_entry *entry) {
  char **v = sl_mem_calloc((size_t)argc + 5, sizeof *v);
  memcpy(v, argv, (size_t)argc * sizeof *v);
  int n = argc;
  char rs[16], ds[16];
  snprintf(rs, sizeof rs, "%d", ranks);
  snprintf(ds, sizeof ds, "%d", dispatches);
  if (!sl_l3_find_opt(argc, argv, "--ranks")) v[n++] = (char *)"--ranks", v[n++] = rs;
  if (dispatches && !sl_l3_find_opt(argc, argv, "--dispatches")) v[n++] = (char *)"--dispatches", v[n++] = ds;
  int rc = sl_l3_sched_main(n, v, entry->convert);
  sl_mem_free(v);
  return rc;
}

int sl_l3_run_maybe(int argc, char **argv, const sl_run_entry *entry) {
  if (g_in_worker) return -1;
  if (sl_l3_find_opt(argc, argv, "--l3-worker")) {
    g_in_worker = 1;
    int rc = sl_l3_worker_main(argc, argv, entry);
    g_in_worker = 0;
    return rc;
  }
  const char *wl = sl_l3_workload_arg(argc, argv);
  int ranks = 0, dispatches = 0;
  if (wl && sl_workload_l3_group(wl, &ranks, &dispatches)) return run_declared(argc, argv, ranks, dispatches, entry);
  if (sl_l3_find_opt(argc, argv, "--ranks")) return sl_l3_sched_main(argc, argv, entry->convert);
  return -1;
}
