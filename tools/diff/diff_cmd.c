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

static void usage(FILE *out) {
  fprintf(out, "usage: swimlane diff BASE NEW [options]\n"
        "       swimlane diff BASE... -- NEW... [options]\n"
        "\n"
        "Compare captures (chip_swimlane_records.json or .pb, with a sibling deps.json and\n"
        "name map when present) of one workload: what got slower, where, and whether it is\n"
        "beyond the run-to-run noise (several captures per side give each delta a spread).\n"
        "\n"
        "  -o, --output OUT       write the diff trace (both runs on one time axis)\n"
        "  --format FMT           report as text (default) or json; 'proto' = protobuf trace\n"
        "  --trace-format FMT     diff trace as json (default; .pftrace/.pb names: proto) or proto\n"
        "  --phases               require the scheduler-phase section (level >= %u captures)\n"
        "  --fail-if BOUND        exit 1 when a delta exceeds BOUND (repeatable):\n"
        "                         makespan>5%%  MATMUL>10us  MATMUL.latency>3%%  '*.exec>20%%'\n"
        "                         metrics: contribution exec latency head tail (default exec)\n",
          SL_MIN_LEVEL_SCHED_PHASE);
}

typedef struct opts {
  const char *paths[2][SL_DIFF_MAX_RUNS];
  size_t n[2];
  const char *out, *format, *trace_format;
  int phases;
  sl_failif bounds[32];
  size_t n_bounds;
} opts;

static int ends_with(const char *s, const char *suf) {
  size_t a = strlen(s), b = strlen(suf);
  return a >= b && !strcmp(s + a - b, suf);
}

/* 0 ok, 2 usage error (reported), 1 --help printed */
static int parse(int argc, char **argv, opts *o) {
  memset(o, 0, sizeof *o);
  o->format = "text";
  int side = 0, dashdash = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char **slot = NULL;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 1;
    } else if (!strcmp(a, "--") && !dashdash) {
      dashdash = 1;
      side = 1;
    } else if (!strcmp(a, "--phases")) {
      o->phases = 1;
    } else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
      slot = &o->out;
    } else if (!strcmp(a, "--format")) {
      slot = &o->format;
    } else if (!strcmp(a, "--trace-format")) {
      slot = &o->trace_format;
    } else if (!strcmp(a, "--fail-if")) {
      if (i + 1 >= argc || o->n_bounds == 32) goto bad_value;
      if (sl_failif_parse(argv[++i], &o->bounds[o->n_bounds++]) != 0) {
        fprintf(stderr, "swimlane diff: bad --fail-if '%s' (e.g. makespan>5%%, MATMUL.exec>10us)\n",
                argv[i]);
        return 2;
      }
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "swimlane diff: unknown option '%s'\n", a);
      usage(stderr);
      return 2;
    } else if (o->n[side] == SL_DIFF_MAX_RUNS) {
      fprintf(stderr, "swimlane diff: at most %d captures per side\n", SL_DIFF_MAX_RUNS);
      return 2;
    } else {
      o->paths[side][o->n[side]++] = a;
    }
    if (slot) {
      if (i + 1 >= argc) goto bad_value;
      *slot = argv[++i];
    }
  }
  if (!dashdash && o->n[0] == 2) { /* BASE NEW */
    o->paths[1][0] = o->paths[0][1];
    o->n[0] = o->n[1] = 1;
  }
  if (!o->n[0] || !o->n[1] || (!dashdash && o->n[0] != 1)) {
    fputs("swimlane diff: need BASE and NEW captures (or BASE... -- NEW...)\n", stderr);
    usage(stderr);
    return 2;
  }
  if (strcmp(o->format, "text") && strcmp(o->format, "json") && strcmp(o->format, "proto")) {
    fprintf(stderr, "swimlane diff: --format must be text, json or proto (got '%s')\n", o->format);
    return 2;
  }
  if (o->trace_format && strcmp(o->trace_format, "json") && strcmp(o->trace_format, "proto")) {
    fprintf(stderr, "swimlane diff: --trace-format must be json or proto\n");
    return 2;
  }
  return 0;
bad_value:
  fprintf(stderr, "swimlane diff: %s needs a value\n", argv[argc - 1]);
  return 2;
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
  sl_trace_sink *shift = sink ? sl_ts_shift_new(sink, SL_CONVERT_ORIGIN_US) : NULL;
  int rc = -1;
  if (!shift || sl_diff_trace_emit(shift, b, n, m) != 0) {
    sl_error(o->out, "out of memory");
  } else if (sl_sink_finish(sink) != 0 || sl_outfile_commit(&of) != 0) {
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
  if (prc) return prc == 1 ? 0 : 2;
  sl_diff_run *runs[2] = {calloc(o.n[0], sizeof(sl_diff_run)), calloc(o.n[1], sizeof(sl_diff_run))};
  sl_diff_report rep = {0};
  int rc = 1;
  if (!runs[0] || !runs[1]) goto done;
  if (load_all(&o, runs) != 0) goto done;
  if (sl_diff_report_build(runs[0], o.n[0], runs[1], o.n[1], o.phases, &rep) != 0) goto done;
  int hits = sl_failif_check(o.bounds, o.n_bounds, &rep, stderr);
  if (hits < 0) goto done;
  if (o.out && write_trace(&o, &runs[0][0], &runs[1][0], &rep.match) != 0) goto done;
  if (!strcmp(o.format, "json")) {
    if (sl_diff_print_json(stdout, &rep, &runs[0][0], &runs[1][0]) != 0) goto done;
  } else {
    sl_diff_print_text(stdout, &rep, &runs[0][0], &runs[1][0]);
  }
  if (o.out && strcmp(o.format, "json") != 0) fprintf(stdout, "\ndiff trace: %s\n", o.out);
  rc = hits > 0;
done:
  sl_diff_report_free(&rep);
  for (int s = 0; s < 2; s++) {
    for (size_t i = 0; runs[s] && i < o.n[s]; i++) sl_diff_run_free(&runs[s][i]);
    free(runs[s]);
  }
  return rc;
}
