/*
** sl_l3_args.c — how `swimlane run` hands over to the L3 scheduler or a rank
** worker (the argv editing both need is sl_l3_argv.c's).
*/
#include "sl_l3_run.h"
#include "sl_run_internal.h"

int sl_l3_run_maybe(int argc, char **argv, const sl_run_entry *entry) {
  if (sl_l3_find_opt(argc, argv, "--l3-worker")) return sl_l3_worker_main(argc, argv, entry);
  if (sl_l3_find_opt(argc, argv, "--ranks")) return sl_l3_sched_main(argc, argv, entry->convert);
  return -1;
}
