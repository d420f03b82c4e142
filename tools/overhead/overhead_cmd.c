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
#include "sl_opt.h"
#include "sl_capture.h"
#include "sl_mem.h"

int sl_cmd_sched_overhead(int argc, char **argv);

typedef struct oh_args {
  const char *records, *deps_arg, *summary_json;
} oh_args;

static oh_args g_args; /* what the table below fills */

static const sl_opt oh_table[] = {
    {.name = "deps-json", .kind = SL_OPT_STRING, .arg = "F", .target = &g_args.deps_arg,
     .help = "the DAG; default: deps.json beside RECORDS"},
    {.name = "summary-json", .kind = SL_OPT_STRING, .arg = "F", .target = &g_args.summary_json,
     .help = "also write the report's numbers as JSON ('-' = stdout)"},
    {.name = "chip-swimlane-records-json", .kind = SL_OPT_STRING, .arg = "RECORDS", .target = &g_args.records,
     .help = "RECORDS given as an option"},
    {.name = NULL},
};

static const sl_opt_spec oh_spec = {
    .cmd = "sched-overhead",
    .synopsis = "[RECORDS] [--deps-json F] [--summary-json F]\nDFX_DIR [--dispatch dN|all]",
    .about = "Scheduler-overhead analysis of a chip swimlane capture (level >= 3) with the task\n"
             "DAG from a separately captured deps.json. RECORDS is chip_swimlane_records.json\n"
             "(or .pb); default: the newest outputs/*/chip_swimlane_records.json under the\n"
             "current directory.",
    .opts = oh_table,
    .arg = &g_args.records,
};

static int is_file(const char *p) {
  struct stat st;
  return stat(p, &st) == 0;
}

static char *sibling_deps(const char *records) {
  const char *slash = strrchr(records, '/');
  if (!slash) return sl_mem_strdup("deps.json");
  size_t n = (size_t)(slash - records);
  char *s = sl_mem_alloc(n + sizeof "/deps.json");
  memcpy(s, records, n);
  strcpy(s + n, "/deps.json");
  return s;
}

int sl_oh_dir_wanted(int argc, char **argv, const sl_opt *file_opts); /* overhead_dir.c: the L3 directory form */
int sl_oh_cmd_dir(int argc, char **argv);

int sl_cmd_sched_overhead(int argc, char **argv) {
  if (sl_oh_dir_wanted(argc, argv, oh_table)) return sl_oh_cmd_dir(argc, argv);
  g_args = (oh_args){0};
  int prc = sl_opt_parse(&oh_spec, argc, argv);
  if (prc != SL_OPT_GO) return prc;
  const char *records = g_args.records, *deps_arg = g_args.deps_arg, *summary_json = g_args.summary_json;
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
    deps_path = sl_mem_strdup(deps_arg);
  } else {
    deps_path = sibling_deps(records);
    if (deps_path && !is_file(deps_path)) {
      sl_mem_free(deps_path);
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
  sl_err err = SL_ERR_INIT;
  if (sl_oh_compute(c, d, &rep, &err) != SL_OK) goto failed;
  if (sl_oh_print(stdout, c, &rep) != 0) {
    fflush(stdout);
    sl_error(records, "perf JSON has no aicpu_scheduler_phases \xe2\x80\x94 rerun the case with "
                      "--enable-chip-swimlane so phase data is captured.");
    goto out;
  }
  if (summary_json && sl_oh_write_json(summary_json, c, &rep, &err) != SL_OK) goto failed;
  rc = 0;
  goto out;
failed:
  fflush(stdout);
  rc = sl_err_report(&err);
out:
  fflush(stdout);
  sl_oh_report_free(&rep);
  sl_deps_free(d);
  sl_capture_free(c);
  sl_mem_free(deps_path);
  sl_mem_free(auto_path);
  return rc;
}
