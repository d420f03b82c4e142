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

/* sl_l3_argv.c: index of option `name` in argv (from 1), or 0. */
int sl_l3_find_opt(int argc, char **argv, const char *name);
/* Copy argv without the options in `drop` (each taking one value), NULL-terminated,
** leaving room for `extra` more entries. NULL on no memory. */
char **sl_l3_argv_without(int argc, char **argv, const char *const *drop, int extra, int *out_argc);

/* sl_l3_sched.c: the WORKLOAD positional of a run argv (NULL if none). */
const char *sl_l3_workload_arg(int argc, char **argv);
int sl_l3_sched_main(int argc, char **argv, int (*convert)(int argc, char **argv));
struct sl_run_entry;
int sl_l3_worker_main(int argc, char **argv, const struct sl_run_entry *entry);

#endif
