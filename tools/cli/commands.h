/*
** commands.h — the `swimlane` subcommands. Each is implemented by the module
** that owns it and returns the process exit status (0 ok, 1 error, 2 usage).
** argv[0] is the subcommand name.
*/
#ifndef SL_COMMANDS_H
#define SL_COMMANDS_H

int sl_cmd_schema(int argc, char **argv);         /* codegen: schema summary        */
int sl_cmd_convert(int argc, char **argv);        /* tools/convert                  */
int sl_cmd_check_trace(int argc, char **argv);    /* tools/check                    */
int sl_cmd_sched_overhead(int argc, char **argv); /* tools/overhead                 */
int sl_cmd_l0(int argc, char **argv);             /* tools/l0                       */
int sl_cmd_diff(int argc, char **argv);           /* tools/diff                     */

/* `run` (sl_cmd_run, sl_run_convert) is declared by its own module: sl_run.h. */

#endif
