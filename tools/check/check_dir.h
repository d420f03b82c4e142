/*
** check_dir.h — `swimlane check-trace DFX_DIR` (check_dir.c): every trace of an
** L3 run checked one by one with the command's options, then a tally.
*/
#ifndef SL_CHECK_DIR_H
#define SL_CHECK_DIR_H

/* Checks one trace file; argv is the command line with the directory replaced by
** the file (sl_cmd_check_trace). Passed in, so check_dir.c calls nothing above it. */
typedef int (*sl_check_file_fn)(int argc, char **argv);

/* 1 (and *at = its argv index) when the command line names an L3 directory. */
int sl_check_dir_wanted(int argc, char **argv, int *at);
int sl_check_cmd_dir(int argc, char **argv, int at, sl_check_file_fn check_file);

#endif
