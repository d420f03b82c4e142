/*
** sl_l3_args.c — how `swimlane run` hands over to the L3 scheduler or a rank
** worker: `--ranks N`, or a workload that declares an L3 group (`l3 = { ranks = N,
** dispatches = K }`), whose counts are the defaults `--ranks` / `--dispatches`
** override. Everything comes parsed in the request (sl_run_internal.h).
*/
#include "sl_l3_run.h"
#include "sl_run_internal.h"

/* Set while this process is a rank worker: its rounds are single-chip runs, whatever
** the workload declares. */
static int g_in_worker;

int sl_l3_run_maybe(const sl_l3_request *req, const sl_run_entry *entry) {
  if (g_in_worker) return -1;
  if (req->worker_rank) {
    g_in_worker = 1;
    int rc = sl_l3_worker_main(req, entry);
    g_in_worker = 0;
    return rc;
  }
  sl_l3_request r = *req;
  int ranks = 0, dispatches = 0;
  if (!r.ranks && r.workload && sl_workload_l3_group(r.workload, &ranks, &dispatches)) {
    r.ranks = ranks;
    if (!r.dispatches) r.dispatches = dispatches;
  }
  return r.ranks ? sl_l3_sched_main(&r, entry->convert) : -1;
}
