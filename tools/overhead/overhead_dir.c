/*
** overhead_dir.c — `swimlane sched-overhead DFX_DIR [--dispatch dN]`: the analysis
** of every rank's capture of an L3 run (rankN/dK, with its own deps.json), then a
** total over the ranks.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "overhead_model.h"
#include "sl_base.h"
#include "sl_opt.h"
#include "sl_l3_dirs.h"
#include "sl_mem.h"

int sl_oh_dir_wanted(int argc, char **argv, const sl_opt *file_opts);
int sl_oh_cmd_dir(int argc, char **argv);

typedef struct oh_total {
  size_t ranks, tasks;
  double window_us, all_us, has_us;  /* summed over the ranks */
  double cp_span;                    /* the longest critical path */
  const char *cp_rank;
  int64_t loops;
  double complete_us, dispatch_us, idle_us;
} oh_total;

/* The directory form: --dispatch, or a directory where RECORDS would be. */
int sl_oh_dir_wanted(int argc, char **argv, const sl_opt *file_opts) {
  for (int i = 1; i < argc; i++) {
    if (!strncmp(argv[i], "--dispatch", 10) && (!argv[i][10] || argv[i][10] == '=')) return 1;
    if (sl_opt_value_follows(file_opts, argv[i])) i++;
    else if (argv[i][0] != '-' && sl_l3_is_dir(argv[i])) return 1;
  }
  return 0;
}

static void add(oh_total *t, const sl_oh_report *r, const char *label) {
  t->ranks++;
  t->tasks += r->n_tasks;
  t->window_us += r->oh.w1 - r->oh.w0;
  t->all_us += r->oh.all_overhead_us;
  t->has_us += r->oh.has_overhead_us;
  if (r->cp.found && r->cp.span > t->cp_span) t->cp_span = r->cp.span, t->cp_rank = label;
  for (size_t i = 0; i < r->n_threads; i++) {
    t->loops += r->threads[i].loops;
    t->complete_us += r->threads[i].complete_us;
    t->dispatch_us += r->threads[i].dispatch_us;
    t->idle_us += r->threads[i].idle_us;
  }
}

/* One rank: its report, added into t. 0 ok, -1 reported. */
static int one_rank(const char *dir, const char *label, oh_total *t) {
  sl_err err = SL_ERR_INIT;
  char *records = sl_l3_records_path(dir, NULL), *deps_path = sl_path_join(dir, "deps.json");
  if (!records) records = sl_path_join(dir, "chip_swimlane_records.json"); /* named in the error */
  sl_capture *c = sl_capture_read(records, NULL);
  sl_deps *d = c ? sl_deps_load(deps_path) : NULL;
  sl_oh_report rep;
  memset(&rep, 0, sizeof rep);
  int rc = -1;
  printf("\n=== %s ===\nPerf data:  %s\nDeps JSON:  %s\n", label, records, deps_path);
  fflush(stdout);
  if (d && d->status != SL_DEPS_OK)
    sl_error(deps_path, "%s: the analysis needs this rank's deps.json (capture with --enable-dep-gen): %s", label,
             d->status == SL_DEPS_MISSING ? strerror(ENOENT) : d->error);
  else if (c && !c->n_tasks)
    sl_error(records, "%s: no tasks in the capture", label);
  else if (d && sl_oh_compute(c, d, &rep, &err) != SL_OK)
    sl_err_report(&err);
  else if (d) {
    if (sl_oh_print(stdout, c, &rep) != 0) {
      fflush(stdout);
      sl_error(records, "%s: no scheduler phases (capture at --enable-chip-swimlane 3 or more)", label);
    } else {
      add(t, &rep, label);
      rc = 0;
    }
  }
  sl_oh_report_free(&rep);
  sl_deps_free(d);
  sl_capture_free(c);
  sl_mem_free(records);
  sl_mem_free(deps_path);
  return rc;
}

static double pct(double x, double d) { return d > 0 ? x / d * 100 : 0; }

/* How many ranks the "rankN/dK" labels name (with --dispatch all, one label per capture). */
static size_t distinct_ranks(char **labels, size_t n) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    size_t len = strcspn(labels[i], "/"), j = 0;
    while (j < i && (strcspn(labels[j], "/") != len || strncmp(labels[j], labels[i], len))) j++;
    k += j == i;
  }
  return k;
}

static void print_total(const oh_total *t, const char *which, size_t ranks) {
  if (t->ranks == ranks) printf("\n=== total over %zu ranks (%s) ===\n", t->ranks, which);
  else printf("\n=== total over %zu captures of %zu ranks (%s) ===\n", t->ranks, ranks, which);
  printf("  Tasks: %zu   summed windows: %.1f us\n", t->tasks, t->window_us);
  printf("  all_overhead %.1f us (%.1f%% of the summed windows)  |  has_overhead %.1f us (%.1f%%)\n", t->all_us,
         pct(t->all_us, t->window_us), t->has_us, pct(t->has_us, t->window_us));
  if (t->cp_rank) printf("  Longest critical path: %.1f us (%s)\n", t->cp_span, t->cp_rank);
  printf("  Scheduler threads: %lld loops, complete %.1f us, dispatch %.1f us, idle %.1f us\n", (long long)t->loops,
         t->complete_us, t->dispatch_us, t->idle_us);
}

static const char *g_root, *g_dispatch;

static const sl_opt dir_table[] = {
    {.name = "dispatch", .kind = SL_OPT_STRING, .arg = "dN|all", .target = &g_dispatch,
     .help = "which capture of every rank (default d0; all: every one)"},
    {.name = NULL},
};

static const sl_opt_spec dir_spec = {
    .cmd = "sched-overhead",
    .synopsis = "DFX_DIR [--dispatch dN|all]",
    .about = "The analysis of every rank's capture of an L3 run (rankN/dK, each with its own\n"
             "deps.json), then a total over the ranks.",
    .opts = dir_table,
    .arg = &g_root,
};

int sl_oh_cmd_dir(int argc, char **argv) {
  g_root = NULL;
  g_dispatch = "d0";
  int prc = sl_opt_parse(&dir_spec, argc, argv);
  if (prc != SL_OPT_GO) return prc;
  const char *root = g_root, *dispatch = g_dispatch;
  long dnum = strcmp(dispatch, "all") ? sl_l3_numbered(dispatch, "d") : -1;
  if (!root) return sl_opt_usage_error("sched-overhead", "no DFX_DIR given");
  if (dnum < 0 && strcmp(dispatch, "all"))
    return sl_opt_usage_error("sched-overhead", "--dispatch expects dN or all, got '%s'", dispatch);
  char **dirs, **labels;
  size_t n;
  if (sl_l3_capture_dirs(root, dnum, &dirs, &labels, &n)) return 1;
  if (!n) sl_error(root, "no rankN/%s capture directories", dispatch);
  oh_total t;
  memset(&t, 0, sizeof t);
  int rc = n ? 0 : 1;
  for (size_t i = 0; i < n && rc == 0; i++)
    if (one_rank(dirs[i], labels[i], &t)) rc = 1;
  if (rc == 0) print_total(&t, dispatch, distinct_ranks(labels, n));
  sl_l3_free_list(dirs, n);
  sl_l3_free_list(labels, n);
  return rc;
}
