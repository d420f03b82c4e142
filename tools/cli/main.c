/*
** main.c — the `swimlane` command: dispatch to a subcommand.
*/
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "sl_mem.h"
#include "sl_rt_mem.h"
#include "sl_base.h"
#include "sl_fingerprint.h"
#include "sl_run.h"
#ifndef SL_VERSION
#define SL_VERSION "unknown"
#endif

typedef struct subcommand {
  const char *name;
  int (*fn)(int argc, char **argv);
  const char *summary;
} subcommand;

static const subcommand commands[] = {
    {"run", sl_cmd_run, "run a workload on the simulated chip and capture it"},
    {"convert", sl_cmd_convert, "convert a capture to a Perfetto trace"},
    {"sched-overhead", sl_cmd_sched_overhead, "scheduler-overhead analysis of a capture"},
    {"check-trace", sl_cmd_check_trace, "validate a Chrome-JSON or Perfetto protobuf trace"},
    {"diff", sl_cmd_diff, "compare two captures: what got slower, where, is it real"},
    {"l0", sl_cmd_l0, "replay one task under the pipe model (core swimlane)"},
    {"schema", sl_cmd_schema, "summarize the schema: records, phases, lanes, levels"},
};

static void usage(FILE *out) {
  fputs("usage: swimlane <command> [options]\n\ncommands:\n", out);
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf(out, "  %-15s %s\n", commands[i].name, commands[i].summary);
  fputs("\nRun 'swimlane <command> --help' for a command's options; "
        "'swimlane --version' for the version.\n", out);
}

int main(int argc, char **argv) {
  sl_run_convert = sl_cmd_convert;
  sl_rt_mem_on_failure(sl_mem_fail); /* the simulated device runs out of memory the host's way */
  sl_stdio_guard();
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
    usage(stdout);
    return 0;
  }
  if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
    printf("swimlane %s (schema %s)\n", SL_VERSION, SL_SCHEMA_FINGERPRINT);
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
    if (strcmp(argv[1], commands[i].name) != 0) continue;
    int rc = commands[i].fn(argc - 1, argv + 1);
    /* a report lost on the way out (full disk, closed stdout) is a failure */
    if (sl_stdout_finish() != 0 && rc == 0) rc = 1;
    return rc;
  }
  fprintf(stderr, "swimlane: unknown command '%s'\n\n", argv[1]);
  usage(stderr);
  return 2;
}
