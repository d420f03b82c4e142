/*
** sl_l3_run.h — `swimlane run WORKLOAD --ranks N`: the L3 scheduler process
** (sl_l3_sched.c) and the rank worker processes it starts (sl_l3_worker.c).
**
** The scheduler re-executes this binary once per rank as
**   swimlane run <the user's options> --l3-worker R --l3-root DIR
**                --l3-counter-offset CYCLES --l3-rate-ppb PPB
** with the command pipe on fd 3 and the reply pipe on fd 4:
**   scheduler -> worker  "dispatch <dN> <run_id> <task_slot> <group_index> <group_size> <sent_ns>"
**                        "quit"
**   worker -> scheduler  "done <dN> <rc>"
*/
#ifndef SL_L3_RUN_H
#define SL_L3_RUN_H

#include <stdint.h>

#define SL_L3_CMD_FD 3
#define SL_L3_REPLY_FD 4

/* sl_l3_argv.c: copy argv without the options in `drop` (each taking one value),
** NULL-terminated, leaving room for `extra` more entries. */
char **sl_l3_argv_without(int argc, char **argv, const char *const *drop, int extra, int *out_argc);

struct sl_run_entry;
struct sl_l3_request;
/* sl_l3_sched.c: the scheduler of req->ranks ranks (req->ranks > 0). */
int sl_l3_sched_main(const struct sl_l3_request *req, int (*convert)(int argc, char **argv));
/* sl_l3_worker.c: one rank (req->worker_rank set). */
int sl_l3_worker_main(const struct sl_l3_request *req, const struct sl_run_entry *entry);

#endif
