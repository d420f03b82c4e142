/*
** l3_cmd.c — `swimlane convert DFX_DIR`: the options of the directory form, and
** the order of the merge: layout and refusals, host-log binding, placement, then
** one all-or-nothing output (host block, each rank, metadata).
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "l3.h"
#include "sl_base.h"
#include "sl_opt.h"
#include "sl_l3.h"
#include "sl_mem.h"

static l3_opts g_o; /* what the table below fills */

/* --rank-pid R=P[:I], repeatable: kept as given, resolved by the host-log binding. */
static int add_rank_pid(void *target, const char *value, char *err, size_t errlen) {
  l3_opts *o = target;
  if (o->n_rank_pid == L3_MAX_RANKS) return snprintf(err, errlen, "at most %d --rank-pid", L3_MAX_RANKS), -1;
  o->rank_pid[o->n_rank_pid++] = value;
  return 0;
}

static int set_max_drift(void *target, const char *value, char *err, size_t errlen) {
  char *end;
  double v = strtod(value, &end);
  if (end == value || *end || !(v > 0 && v <= 10000))
    return snprintf(err, errlen, "--max-drift-ppm expects a value in (0, 10000], got '%s'", value), -1;
  *(double *)target = v;
  return 0;
}

/* Single-capture options have no meaning here: each rank brings its own. */
static int per_capture_only(void *target, const char *value, char *err, size_t errlen) {
  (void)value;
  snprintf(err, errlen, "%s applies to one capture; the directory form reads each rank's own",
           (const char *)target);
  return -1;
}

static const sl_opt l3_table[] = {
    {.name = "output", .short_name = 'o', .kind = SL_OPT_STRING, .arg = "OUT", .target = &g_o.output,
     .help = "the merged trace (default DFX_DIR/l3_swimlane.json)"},
    {.name = "dispatch", .kind = SL_OPT_STRING, .arg = "dN", .target = &g_o.dispatch,
     .help = "the local capture index (default: the first one, d0)"},
    {.name = "dispatch-id", .kind = SL_OPT_STRING, .arg = "R:S", .target = &g_o.dispatch_id,
     .help = "the submit group run_id:task_slot, resolved per rank through\ndispatch_identity.json"},
    {.name = "host-log", .kind = SL_OPT_STRING, .arg = "PATH", .target = &g_o.host_log,
     .help = "where the run's host.<pid>.log files are (default DFX_DIR)"},
    {.name = "rank-pid", .kind = SL_OPT_CALL, .arg = "R=P[:I]", .call = add_rank_pid, .target = &g_o,
     .help = "pin rank R to host log pid P (invocation I); repeatable"},
    {.name = "records", .kind = SL_OPT_CHOICE, .choices = "json|pb", .target = &g_o.records,
     .help = "which rank capture to read (default: the .json, else the .pb)"},
    {.name = "jobs", .short_name = 'j', .kind = SL_OPT_INT, .arg = "N", .lo = 1, .hi = 64, .target = &g_o.jobs,
     .help = "ranks read concurrently (default 2)"},
    {.name = "rules", .kind = SL_OPT_STRING, .arg = "F.lua", .target = &g_o.rules,
     .help = "conversion rules script"},
    {.name = "format", .kind = SL_OPT_CHOICE, .choices = "json|proto", .target = &g_o.format,
     .help = "json (default) or proto"},
    {.name = "cross-host", .kind = SL_OPT_FLAG, .target = &g_o.cross_host,
     .help = "merge ranks of other host clock domains through the dispatcher's\n"
             "windows and the clock anchors (bound published per rank)"},
    {.name = "max-drift-ppm", .kind = SL_OPT_CALL, .arg = "A", .call = set_max_drift, .target = &g_o.max_drift_ppm,
     .help = "assumed bound on the host clocks' relative drift (default 200)"},
    {.name = "quiet", .short_name = 'q', .kind = SL_OPT_FLAG, .target = &g_o.quiet, .help = "print errors only"},
    {.name = "deps-json", .kind = SL_OPT_CALL, .arg = "F", .call = per_capture_only, .target = (char *)"--deps-json"},
    {.name = "func-names", .kind = SL_OPT_CALL, .arg = "F", .call = per_capture_only, .target = (char *)"--func-names"},
    {.name = "overhead", .kind = SL_OPT_CALL, .call = per_capture_only, .target = (char *)"--overhead"},
    {.name = NULL},
};

static const sl_opt_spec l3_spec = {
    .cmd = "convert",
    .synopsis = "DFX_DIR [options]",
    .about = "Merge every rankN/dN capture of one dispatch of a multi-rank run (swimlane run --ranks N)\n"
             "onto one host timeline. Default output: DFX_DIR/l3_swimlane.json (.pftrace for proto).",
    .opts = l3_table,
    .arg = &g_o.root,
};

/* Is a the option name, alone or as "name=value"? */
static int is_opt(const char *a, const char *name) {
  size_t n = strlen(name);
  return !strncmp(a, name, n) && (a[n] == '\0' || a[n] == '=');
}

int sl_l3_convert_wanted(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (is_opt(a, "--dispatch") || is_opt(a, "--dispatch-id") || is_opt(a, "--host-log") || is_opt(a, "--rank-pid"))
      return 1;
    if (sl_opt_value_follows(l3_table, a)) {
      i++;
      continue;
    }
    struct stat st;
    if (a[0] != '-' && stat(a, &st) == 0 && S_ISDIR(st.st_mode)) return 1;
  }
  return 0;
}

/* 0 ok, else the exit status (0 after --help, 2 on a usage error). *done says which. */
static int parse(int argc, char **argv, l3_opts *o, int *done) {
  g_o = (l3_opts){.format = "json", .jobs = 2, .max_drift_ppm = 200};
  int rc = sl_opt_parse(&l3_spec, argc, argv);
  *o = g_o;
  *done = 1;
  if (rc != SL_OPT_GO) return rc;
  if (!o->root) return sl_opt_usage_error("convert", "the directory form needs DFX_DIR");
  if (o->dispatch && o->dispatch_id) return sl_opt_usage_error("convert", "--dispatch and --dispatch-id exclude each other");
  *done = 0;
  return 0;
}

/* Host block, ranks, metadata into out_path, all or nothing. */
static int write_trace(l3_run *run, const char *out_path, int proto) {
  sl_outfile of;
  if (sl_outfile_open(&of, out_path)) return -1;
  sl_trace_sink *sink = proto ? sl_trace_sink_proto_new(of.fp) : sl_trace_sink_json_new(of.fp);
  l3_emit_host_block(run, sink);
  int rc = l3_emit_ranks(run, sink);
  sl_notes_print(&run->notes); /* the ranks' read and draw warnings, or why the merge stopped */
  char *meta = rc == 0 ? l3_metadata_json(run) : NULL;
  if (meta) sl_sink_metadata_json(sink, meta);
  sl_mem_free(meta);
  if (rc == 0 && (sl_sink_end(sink, out_path) || sl_outfile_commit(&of))) {
    sl_error(out_path, "write failed: %s", strerror(errno));
    rc = -1;
  } else if (rc != 0) {
    sl_outfile_abort(&of);
  }
  sl_sink_destroy(sink);
  return rc;
}

int sl_l3_cmd_convert(int argc, char **argv) {
  l3_run *run = sl_mem_calloc(1, sizeof *run);
  int done, prc = parse(argc, argv, &run->o, &done);
  if (done) {
    sl_mem_free(run);
    return prc;
  }
  int proto = !strcmp(run->o.format, "proto");
  char *out = run->o.output ? sl_mem_strdup(run->o.output)
                            : sl_path_join(run->o.root, proto ? "l3_swimlane.pftrace" : "l3_swimlane.json");
  int rc = l3_layout(run);
  if (rc == 0) rc = l3_bind(run);
  if (rc == 0) rc = l3_place(run);
  if (rc == 0) {
    if (!run->o.quiet) printf("Merging %zu ranks of dispatch %s from %s\n", run->n, run->dispatch_label, run->o.root);
    rc = write_trace(run, out, proto);
  }
  if (rc == 0 && !run->o.quiet) {
    int64_t sum = 0;
    for (size_t i = 0; i < run->n; i++) sum += run->ranks[i].slack_ns;
    printf("\n\xe2\x9c\x93 L3 merge complete: %zu ranks, cross-rank uncertainty %lld ns\n  Output: %s\n"
           "\nTo visualize: Open https://ui.perfetto.dev/ and drag in %s\n", run->n, (long long)sum, out, out);
  }
  sl_mem_free(out);
  l3_run_free(run);
  sl_mem_free(run);
  return rc == -2 ? 2 : rc ? 1 : 0;
}
