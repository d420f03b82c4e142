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
#include "sl_l3.h"

static const char *const value_opts[] = {"-o", "--output", "--dispatch", "--dispatch-id", "--host-log",
                                         "--rank-pid", "--rules", "--format", "-j", "--jobs",
                                         "--deps-json", "--func-names", "--max-drift-ppm", "--records", NULL};

static int is_value_opt(const char *a) {
  for (const char *const *p = value_opts; *p; p++)
    if (!strcmp(a, *p)) return 1;
  return 0;
}

int sl_l3_convert_wanted(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--dispatch") || !strcmp(a, "--dispatch-id") || !strcmp(a, "--host-log") ||
        !strcmp(a, "--rank-pid"))
      return 1;
    if (is_value_opt(a)) {
      i++;
      continue;
    }
    struct stat st;
    if (a[0] != '-' && stat(a, &st) == 0 && S_ISDIR(st.st_mode)) return 1;
  }
  return 0;
}

static void usage(FILE *f) {
  fputs("usage: swimlane convert DFX_DIR [-o OUT] [--dispatch dN | --dispatch-id RUN_ID:TASK_SLOT]\n"
        "                        [--host-log PATH] [--rank-pid RANK=PID[:INV]]... [-j N]\n"
        "                        [--records json|pb] [--rules F.lua] [--format json|proto] [-q]\n"
        "\nMerge every rankN/dN capture of one dispatch of a multi-rank run (swimlane run --ranks N)\n"
        "onto one host timeline. Default output: DFX_DIR/l3_swimlane.json (.pftrace for proto).\n"
        "\n  --dispatch dN        the local capture index (default: the first one, d0)\n"
        "  --dispatch-id R:S    the submit group run_id:task_slot, resolved per rank through\n"
        "                       dispatch_identity.json\n"
        "  --host-log PATH      where the run's host.<pid>.log files are (default DFX_DIR)\n"
        "  --rank-pid R=P[:I]   pin rank R to host log pid P (invocation I)\n"
        "  --records json|pb    which rank capture to read (default: the .json, else the .pb)\n"
        "  -j, --jobs N         ranks read concurrently (default 2)\n"
        "  --cross-host         merge ranks of other host clock domains through the dispatcher's\n"
        "                       windows and the clock anchors (bound published per rank)\n"
        "  --max-drift-ppm A    assumed bound on the host clocks' relative drift (default 200)\n"
        "  -q, --quiet          print errors only\n",
        f);
}

static int parse(int argc, char **argv, l3_opts *o) {
  memset(o, 0, sizeof *o);
  o->format = "json";
  o->jobs = 2;
  o->max_drift_ppm = 200;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) return usage(stdout), 1;
    if (!strcmp(a, "--deps-json") || !strcmp(a, "--func-names") || !strcmp(a, "--overhead")) {
      sl_error(NULL, "convert: %s applies to one capture; the directory form reads each rank's own", a);
      return 2;
    }
    if (!strcmp(a, "--cross-host")) {
      o->cross_host = 1;
      continue;
    }
    if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
      o->quiet = 1;
      continue;
    }
    if (!is_value_opt(a)) {
      if (a[0] == '-') return sl_error(NULL, "convert: unknown option '%s'", a), usage(stderr), 2;
      if (o->root) return sl_error(NULL, "convert: unexpected argument '%s'", a), 2;
      o->root = a;
      continue;
    }
    if (!v) return sl_error(NULL, "convert: %s needs a value", a), 2;
    i++;
    if (!strcmp(a, "-o") || !strcmp(a, "--output")) o->output = v;
    else if (!strcmp(a, "--dispatch")) o->dispatch = v;
    else if (!strcmp(a, "--dispatch-id")) o->dispatch_id = v;
    else if (!strcmp(a, "--host-log")) o->host_log = v;
    else if (!strcmp(a, "--rules")) o->rules = v;
    else if (!strcmp(a, "--format")) o->format = v;
    else if (!strcmp(a, "-j") || !strcmp(a, "--jobs")) o->jobs = atoi(v);
    else if (!strcmp(a, "--max-drift-ppm")) o->max_drift_ppm = atof(v);
    else if (!strcmp(a, "--records")) o->records = v;
    else if (o->n_rank_pid < L3_MAX_RANKS) o->rank_pid[o->n_rank_pid++] = v;
  }
  if (!o->root) return sl_error(NULL, "convert: the directory form needs DFX_DIR"), 2;
  if (o->dispatch && o->dispatch_id) return sl_error(NULL, "convert: --dispatch and --dispatch-id exclude each other"), 2;
  if (o->records && strcmp(o->records, "json") && strcmp(o->records, "pb"))
    return sl_error(NULL, "convert: --records must be json or pb (got '%s')", o->records), 2;
  if (strcmp(o->format, "json") && strcmp(o->format, "proto"))
    return sl_error(NULL, "convert: --format must be json or proto (got '%s')", o->format), 2;
  if (!(o->max_drift_ppm > 0 && o->max_drift_ppm <= 10000))
    return sl_error(NULL, "convert: --max-drift-ppm expects a value in (0, 10000]"), 2;
  if (o->jobs < 1 || o->jobs > 64) return sl_error(NULL, "convert: --jobs expects 1..64"), 2;
  return 0;
}

/* Host block, ranks, metadata into out_path, all or nothing. */
static int write_trace(l3_run *run, const char *out_path, int proto) {
  sl_outfile of;
  if (sl_outfile_open(&of, out_path)) return -1;
  sl_trace_sink *sink = proto ? sl_trace_sink_proto_new(of.fp) : sl_trace_sink_json_new(of.fp);
  int rc = sink ? 0 : -1;
  if (rc == 0) l3_emit_host_block(run, sink);
  if (rc == 0) rc = l3_emit_ranks(run, sink);
  char *meta = rc == 0 ? l3_metadata_json(run) : NULL;
  if (meta) sl_sink_metadata_json(sink, meta);
  free(meta);
  if (rc == 0 && (sl_sink_finish(sink) || sl_outfile_commit(&of))) {
    sl_error(out_path, "write failed: %s", strerror(errno));
    rc = -1;
  } else if (rc != 0) {
    sl_outfile_abort(&of);
  }
  if (sink) sl_sink_destroy(sink);
  return rc;
}

int sl_l3_cmd_convert(int argc, char **argv) {
  l3_run *run = calloc(1, sizeof *run);
  if (!run) return 1;
  int prc = parse(argc, argv, &run->o);
  if (prc) {
    free(run);
    return prc == 1 ? 0 : prc;
  }
  int proto = !strcmp(run->o.format, "proto");
  char *out = run->o.output ? strdup(run->o.output)
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
  free(out);
  l3_run_free(run);
  free(run);
  return rc == -2 ? 2 : rc ? 1 : 0;
}
