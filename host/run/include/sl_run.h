/*
** sl_run.h — `swimlane run`: capture a workload on the simulated chip.
** Returns the process exit status (0 ok, 1 error, 2 usage); argv[0] is "run".
*/
#ifndef SL_RUN_H
#define SL_RUN_H

int sl_cmd_run(int argc, char **argv);

/* `run` converts a completed capture through this when convert is built in (the
** CLI sets it to sl_cmd_convert; NULL leaves run capture-only). */
extern int (*sl_run_convert)(int argc, char **argv);

#endif
