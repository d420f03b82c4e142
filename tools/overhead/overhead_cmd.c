/*
** overhead_cmd.c — `swimlane sched-overhead [RECORDS] [--deps-json F]`: the
** scheduler-overhead deep dive on a capture plus the task DAG from deps.json.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "overhead_model.h"
#include "sl_base.h"
#include "sl_capture.h"

int sl_cmd_sched_overhead(int argc, char **argv);

static void usage(FILE *f) {
  fprintf(f,
          "usage: swimlane sched-overhead [RECORDS] [--deps-json F] [--summary-json F]\n"
          "\n"
          "Scheduler-overhead analysis of a chip swimlane capture (level >= 3) with the task\n"
          "DAG from a separately captured deps.json.\n"
          "\n"
          "  RECORDS        chip_swimlane_records.json (or .pb); default: the newest\n"
          "                 outputs/*/chip_swimlane_records.json under the current directory\n"
          "                 (also accepted as --chip-swimlane-records-json RECORDS)\n"
          "  --deps-json F  the DAG; default: deps.json beside RECORDS\n"
          "  --summary-json F  also write the report's numbers as JSON ('-' = stdout)\n");
}

static int is_file(const char *p) {
  struct stat st;
  return stat(p, &st) == 0;
}

static char *sibling_deps(const char *records) {
  const char *slash = strrchr(records, '/');
  if (!slash) return strdup("deps.json");
  size_t n = (size_t)(slash - records);
  char *s = malloc(n + sizeof "/deps.json");
  if (!s) return NULL;
  memcpy(s, records, n);
  strcpy(s + n, "/deps.json");
  return s;
}

int sl_oh_dir_wanted(int argc, char **argv); /* overhead_dir.c: the L3 directory form */
int sl_oh_cmd_dir(int argc, char **argv);

int sl_cmd_sched_overhead(int argc, char **argv) {
  if (sl_oh_dir_wanted(argc, argv)) return sl_oh_cmd_dir(argc, argv);
  const char *records = NULL, *deps_arg = NULL, *summary_json = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "--deps-json") || !strcmp(a, "--chip-swimlane-records-json") ||
               !strcmp(a, "--summary-json")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "swimlane: sched-overhead: %s needs a value\n", a);
        usage(stderr);
        return 2;
      }
      if (!strcmp(a, "--deps-json"))
        deps_arg = argv[++i];
      else if (!strcmp(a, "--summary-json"))
        summary_json = argv[++i];
      else
        records = argv[++i];
    } else if (!strncmp(a, "--deps-json=", 12)) {
      deps_arg = a + 12;
    } else if (!strncmp(a, "--chip-swimlane-records-json=", 29)) {
      records = a + 29;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "swimlane: sched-overhead: unknown option %s\n", a);
      usage(stderr);
      return 2;
    } else if (!records) {
      records = a;
    } else {
      fprintf(stderr, "swimlane: sched-overhead: unexpected argument %s\n", a);
      usage(stderr);
      return 2;
    }
  }
  char *auto_path = NULL;
  if (!records) {
    auto_path = sl_find_latest_records(NULL);
    if (!auto_path) {
      char cwd[4096];
      if (!getcwd(cwd, sizeof cwd)) strcpy(cwd, ".");
      sl_error(NULL, "No outputs/*/chip_swimlane_records.json found under %s/outputs", cwd);
      return 1;
    }
    records = auto_path;
  }
  int rc = 1;
  char *deps_path = NULL;
  sl_capture *c = NULL;
  sl_deps *d = NULL;
  sl_oh_report rep;
  memset(&rep, 0, sizeof rep);
  if (!is_file(records)) {
    sl_error(records, "Perf JSON not found");
    goto out;
  }
  if (summary_json && sl_output_check(summary_json) != 0) goto out;
  c = sl_capture_read(records, NULL);
  if (!c) goto out;
  if (deps_arg) {
    deps_path = strdup(deps_arg);
  } else {
    deps_path = sibling_deps(records);
    if (deps_path && !is_file(deps_path)) {
      free(deps_path);
      deps_path = NULL;
    }
  }
  printf("Perf data:  %s\n", records);
  if (deps_path) printf("Deps JSON:  %s\n", deps_path);
  if (c->n_tasks == 0) {
    fflush(stdout);
    sl_error(records, "No tasks found in perf data");
    goto out;
  }
  if (!deps_path) {
    fflush(stdout);
    sl_error(records, "scheduler-overhead analysis needs the task DAG (deps.json). Capture it in a SEPARATE run "
                      "with --enable-dep-gen (not co-run with --enable-chip-swimlane), then pass --deps-json.");
    goto out;
  }
  d = sl_deps_load(deps_path);
  if (d->status != SL_DEPS_OK) {
    fflush(stdout);
    sl_error(deps_path, "failed to read deps.json: %s", d->status == SL_DEPS_MISSING ? strerror(ENOENT) : d->error);
    goto out;
  }
  if (sl_oh_compute(c, d, &rep) != 0) goto out;
  if (sl_oh_print(stdout, c, &rep) != 0) {
    fflush(stdout);
    sl_error(records, "perf JSON has no aicpu_scheduler_phases \xe2\x80\x94 rerun the case with "
                      "--enable-chip-swimlane so phase data is captured.");
    goto out;
  }
  if (summary_json && sl_oh_write_json(summary_json, c, &rep) != 0) goto out;
  rc = 0;
out:
  fflush(stdout);
  sl_oh_report_free(&rep);
  sl_deps_free(d);
  sl_capture_free(c);
  free(deps_path);
  free(auto_path);
  return rc;
}
