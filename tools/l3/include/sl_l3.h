/*
** sl_l3.h — the L3 merge: `swimlane convert DFX_DIR` puts every rank of one
** dispatch of a multi-rank run on one host timeline (placement by containment in
** the rank's chip.run.runner_run window, read off the run's host.<pid>.log files),
** drawing each rank with the ordinary conversion engine (sl_convert_emit) through a
** namespacing sink.
*/
#ifndef SL_L3_H
#define SL_L3_H

/* 1 when this `convert` command line asks for the directory form (a directory
** input, or one of --dispatch / --dispatch-id / --host-log / --rank-pid). */
int sl_l3_convert_wanted(int argc, char **argv);
/* `swimlane convert DFX_DIR [...]` */
int sl_l3_cmd_convert(int argc, char **argv);

#endif
