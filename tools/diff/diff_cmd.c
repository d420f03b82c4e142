/*
** diff_cmd.c — `swimlane diff BASE NEW` / `swimlane diff BASE... -- NEW...`: read and
** check every capture first, so a refusal writes nothing; then the trace (all or
** nothing), the report, and the --fail-if verdict.
*/
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sl_base.h"
#include "sl_diff.h"
#include "ts_shift.h"
#include "sl_levels.h"
#include "sl_opt.h"
#include "sl_mem.h"

typedef struct opts {
  const char *paths[2][SL_DIFF_MAX_RUNS];
  size_t n[2];
  const char *out, *format, *trace_format;
  int phases, dashdash;
  sl_failif bounds[32];
  size_t n_bounds;
} opts;

static opts g_o; /* what the table below fills */

/* --fail-if BOUND, repeatable. */
static int add_bound(void *target, const char *value, char *err, size_t errlen) {
  opts *o = target;
  if (o->n_bounds == sizeof o->bounds / sizeof o->bounds[0])
    return snprintf(err, errlen, "at most %zu --fail-if bounds", o->n_bounds), -1;
  if (sl_failif_parse(value, &o->bounds[o->n_bounds]) != 0)
    return snprintf(err, errlen, "bad --fail-if '%s' (e.g. makespan>5%%, MATMUL.exec>10us)", value), -1;
  o->n_bounds++;
  return 0;
}

/* BASE... before "--", NEW... after it. */
static int add_capture(void *ctx, const char *arg, char *err, size_t errlen) {
  opts *o = ctx;
  if (!strcmp(arg, "--")) {
    if (o->dashdash) return snprintf(err, errlen, "'--' given twice"), -1;
    o->dashdash = 1;
    return 0;
  }
  if (o->n[o->dashdash] == SL_DIFF_MAX_RUNS)
    return snprintf(err, errlen, "at most %d captures per side", SL_DIFF_MAX_RUNS), -1;
  o->paths[o->dashdash][o->n[o->dashdash]++] = arg;
  return 0;
}

static const sl_opt diff_table[] = {
    {.name = "output", .short_name = 'o', .kind = SL_OPT_STRING, .arg = "OUT", .target = &g_o.out,
     .help = "write the diff trace (both runs on one time axis)"},
    {.name = "format", .kind = SL_OPT_CHOICE, .choices = "text|json|proto", .arg = "FMT", .target = &g_o.format,
     .help = "report as text (default) or json; 'proto' = protobuf trace"},
    {.name = "trace-format", .kind = SL_OPT_CHOICE, .choices = "json|proto", .arg = "FMT",
     .target = &g_o.trace_format, .help = "diff trace as json (default; .pftrace/.pb names: proto) or proto"},
    {.name = "phases", .kind = SL_OPT_FLAG, .target = &g_o.phases,
     .help = "require the scheduler-phase section"},
    {.name = "fail-if", .kind = SL_OPT_CALL, .arg = "BOUND", .call = add_bound, .target = &g_o,
     .help = "exit 1 when a delta exceeds BOUND (repeatable):\n"
             "makespan>5%  MATMUL>10us  MATMUL.latency>3%  '*.exec>20%'\n"
             "metrics: contribution exec latency head tail (default exec)"},
    {.name = NULL},
};

static void diff_more_help(FILE *out) {
  fprintf(out, "--phases needs captures at level >= %u.\n", SL_MIN_LEVEL_SCHED_PHASE);
}

static const sl_opt_spec diff_spec = {
    .cmd = "diff",
    .synopsis = "BASE NEW [options]\nBASE... -- NEW... [options]",
    .about = "Compare captures (chip_swimlane_records.json or .pb, with a sibling deps.json and\n"
             "name map when present) of one workload: what got slower, where, and whether it is\n"
             "beyond the run-to-run noise (several captures per side give each delta a spread).",
    .opts = diff_table,
    .on_arg = add_capture,
    .arg_ctx = &g_o,
    .dashdash_is_arg = 1,
    .more_help = diff_more_help,
};

static int ends_with(const char *s, const char *suf) {
  size_t a = strlen(s), b = strlen(suf);
  return a >= b && !strcmp(s + a - b, suf);
}

/* SL_OPT_GO, else the exit status (0 after --help, 2 on a usage error). */
static int parse(int argc, char **argv, opts *o) {
  memset(&g_o, 0, sizeof g_o);
  g_o.format = "text";
  int rc = sl_opt_parse(&diff_spec, argc, argv);
  *o = g_o;
  if (rc != SL_OPT_GO) return rc;
  if (!o->dashdash && o->n[0] == 2) { /* BASE NEW */
    o->paths[1][0] = o->paths[0][1];
    o->n[0] = o->n[1] = 1;
  }
  if (!o->n[0] || !o->n[1] || (!o->dashdash && o->n[0] != 1))
    return sl_opt_usage_error("diff", "need BASE and NEW captures (or BASE... -- NEW...)");
  return SL_OPT_GO;
}

static int want_proto(const opts *o) {
  if (o->trace_format) return !strcmp(o->trace_format, "proto");
  if (!strcmp(o->format, "proto")) return 1;
  return o->out && (ends_with(o->out, ".pftrace") || ends_with(o->out, ".pb") ||
                    ends_with(o->out, ".perfetto-trace"));
}

static int write_trace(const opts *o, const sl_diff_run *b, const sl_diff_run *n,
                       const sl_diff_match *m) {
  int proto = want_proto(o);
  sl_outfile of = {0};
  if (sl_outfile_open(&of, o->out) != 0) return -1;
  sl_trace_sink *sink = proto ? sl_trace_sink_proto_new(of.fp) : sl_trace_sink_json_new(of.fp);
  /* the axis starts at SL_CONVERT_ORIGIN_US as convert's does: DevTools hides a slice at ts 0 */
  sl_trace_sink *shift = sl_ts_shift_new(sink, SL_CONVERT_ORIGIN_US);
  sl_diff_trace_emit(shift, b, n, m);
  int rc = -1;
  if (sl_sink_end(sink, o->out) != 0 || sl_outfile_commit(&of) != 0) {
    if (of.fp) sl_error(o->out, "write failed: %s", strerror(errno));
  } else {
    rc = 0;
  }
  sl_sink_destroy(shift);
  sl_sink_destroy(sink);
  if (rc != 0 && of.fp) sl_outfile_abort(&of);
  return rc;
}

static int load_all(const opts *o, sl_diff_run *runs[2]) {
  for (int s = 0; s < 2; s++)
    for (size_t i = 0; i < o->n[s]; i++)
      if (sl_diff_run_load(&runs[s][i], o->paths[s][i]) != 0) return -1;
  for (int s = 0; s < 2; s++)
    for (size_t i = 0; i < o->n[s]; i++)
      if ((s || i) && sl_diff_runs_comparable(&runs[0][0], &runs[s][i]) != 0) return -1;
  return 0;
}

int sl_cmd_diff(int argc, char **argv) {
  opts o;
  int prc = parse(argc, argv, &o);
  if (prc != SL_OPT_GO) return prc;
  sl_diff_run *runs[2] = {sl_mem_calloc(o.n[0], sizeof(sl_diff_run)), sl_mem_calloc(o.n[1], sizeof(sl_diff_run))};
  sl_diff_report rep = {0};
  int rc = 1;
  if (load_all(&o, runs) != 0) goto done;
  if (sl_diff_report_build(runs[0], o.n[0], runs[1], o.n[1], o.phases, &rep) != 0) goto done;
  int hits = sl_failif_check(o.bounds, o.n_bounds, &rep, stderr);
  if (hits < 0) goto done;
  if (o.out && write_trace(&o, &runs[0][0], &runs[1][0], &rep.match) != 0) goto done;
  if (!strcmp(o.format, "json")) sl_diff_print_json(stdout, &rep, &runs[0][0], &runs[1][0]);
  else sl_diff_print_text(stdout, &rep, &runs[0][0], &runs[1][0]);
  if (o.out && strcmp(o.format, "json") != 0) fprintf(stdout, "\ndiff trace: %s\n", o.out);
  rc = hits > 0;
done:
  sl_diff_report_free(&rep);
  for (int s = 0; s < 2; s++) {
    for (size_t i = 0; i < o.n[s]; i++) sl_diff_run_free(&runs[s][i]);
    sl_mem_free(runs[s]);
  }
  return rc;
}
