/*
** convert_cmd.c — `swimlane convert`: pick the inputs, read, draw, write all or
** nothing, and print what the reference converter prints (anchor-converter §13).
*/
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sl_base.h"
#include "sl_filekind.h"
#include "sl_convert.h"
#include "sl_l3.h"
#include "sl_phases.h"

static void usage(FILE *out) {
  fputs("usage: swimlane convert [RECORDS] [-o OUT] [--deps-json F] [--func-names F]\n"
        "                        [--rules F.lua] [--format json|proto] [--overhead]\n"
        "                        [--summary-json F] [-v] [-q]\n"
        "       swimlane convert DFX_DIR [...]  (an L3 run's ranks: swimlane convert DFX_DIR --help)\n"
        "\n"
        "Convert a chip swimlane capture to a Perfetto trace and print a per-function\n"
        "summary. RECORDS defaults to the newest outputs/*/chip_swimlane_records.json;\n"
        "a sibling deps.json and name_map_*.json are picked up. The default output is\n"
        "merged_swimlane.json (merged_swimlane.pftrace with --format proto) beside RECORDS.\n"
        "\n"
        "  -o, --output OUT   output trace path ('-' = standard output; the report then\n"
        "                     goes to standard error)\n"
        "  --deps-json F      dep_gen deps.json (dependency arrows, function ids)\n"
        "  --func-names F     name_map_<case>.json (function names)\n"
        "  --rules F.lua      conversion rules script (default lua/convert/default.lua)\n"
        "  --format FMT       json (Chrome trace, default) or proto (Perfetto protobuf)\n"
        "  --overhead         add the scheduler-overhead counter tracks (needs deps.json)\n"
        "  --reference-flows  flow events where the reference writes them (byte parity;\n"
        "                     Chrome DevTools then binds no arrows)\n"
        "  --summary-json F   also write the per-function summary as JSON ('-' = stdout)\n"
        "  -v, --verbose      print the reading / generation details\n"
        "  -q, --quiet        print only warnings and errors\n",
        out);
}

/* "<dir of input>/<name>", keeping a relative input relative like the reference. */
static char *sibling(const char *input, const char *name) {
  const char *slash = strrchr(input, '/');
  if (!slash) return strdup(name);
  char *d = strndup(input, (size_t)(slash - input + 1));
  if (!d) return NULL;
  size_t n = strlen(d) + strlen(name) + 1;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s%s", d, name);
  free(d);
  return p;
}

static void print_data_info(FILE *out, const sl_capture *c) {
  fprintf(out, "\n=== Performance Data ===\n");
  fprintf(out, "  L2 perf level: %d\n", c->level);
  fprintf(out, "  Task Count: %zu\n", c->n_tasks);
  if (c->n_tasks) {
    double lo = c->tasks[0].start_us, hi = c->tasks[0].end_us;
    for (size_t i = 1; i < c->n_tasks; i++) {
      if (c->tasks[i].start_us < lo) lo = c->tasks[i].start_us;
      if (c->tasks[i].end_us > hi) hi = c->tasks[i].end_us;
    }
    fprintf(out, "  Time Range: %.3f us - %.3f us (span: %.3f us)\n", lo, hi, hi - lo);
  }
  fputc('\n', out);
  if (c->n_streams) {
    fprintf(out, "  Scheduler threads: %zu\n", c->n_streams);
    fprintf(out, "  Total phase records: %zu\n", c->n_phases);
  }
  if (c->n_orch) {
    fprintf(out, "  Orchestrator threads: %zu\n", c->n_orch_threads);
    fprintf(out, "  Total orchestrator phase records: %zu\n", c->n_orch);
    size_t submits = 0, fanins = 0;
    for (size_t i = 0; i < c->n_orch; i++) {
      const char *ph = sl_str_get(c, c->orch[i].phase);
      if (!ph || !strcmp(ph, SL_ORCH_PHASE_DEFAULT)) submits++;
      else if (!strcmp(ph, "orch_fanin")) fanins++;
    }
    size_t n = submits ? submits : fanins;
    if (n) fprintf(out, "  Orchestrator: %zu tasks submitted\n", n);
  }
  if (c->n_core_to_thread) fprintf(out, "  Core-to-thread mapping: %zu cores\n", c->n_core_to_thread);
}

static int cmp_ids(const void *a, const void *b) {
  long long p = strtoll(*(char *const *)a, NULL, 10), q = strtoll(*(char *const *)b, NULL, 10);
  return p < q ? -1 : p > q;
}

static void print_names(FILE *out, const sl_namemap *m, const char *path, int discovered) {
  fprintf(out, "%s%s\n", discovered ? "Auto-discovered func names from: " : "Loading func names from: ",
          path);
  fprintf(out, "  Loaded %zu function name mappings:\n", m->n);
  size_t *order = malloc((m->n ? m->n : 1) * sizeof *order);
  char **keys = malloc((m->n ? m->n : 1) * sizeof *keys);
  if (order && keys) {
    for (size_t i = 0; i < m->n; i++) keys[i] = m->keys[i];
    qsort(keys, m->n, sizeof *keys, cmp_ids);
    for (size_t i = 0; i < m->n; i++) {
      const char *name = NULL;
      for (size_t j = 0; j < m->n; j++)
        if (m->keys[j] == keys[i]) name = m->names[j];
      fprintf(out, "    func_id=%s: %s\n", keys[i], name ? name : "");
    }
  }
  free(order);
  free(keys);
  if (m->orchestrator_name) fprintf(out, "  Orchestrator: %s\n", m->orchestrator_name);
  fputc('\n', out);
}

static size_t unique_cores(const sl_capture *c) {
  size_t n = 0, maxc = 0;
  for (size_t i = 0; i < c->n_tasks; i++)
    if (c->tasks[i].core_id + 1u > maxc) maxc = c->tasks[i].core_id + 1u;
  unsigned char *seen = calloc(maxc ? maxc : 1, 1);
  if (!seen) return 0;
  for (size_t i = 0; i < c->n_tasks; i++)
    if (!seen[c->tasks[i].core_id]++) n++;
  free(seen);
  return n;
}

/* Any name_map*.json beside the input? (Skips the reader's discovery when there
** is nothing to find; it only needs to run when a candidate exists.) */
static int has_sibling_name_map(const char *input) {
  const char *slash = strrchr(input, '/');
  char *dir = slash ? strndup(input, (size_t)(slash - input + (slash == input))) : strdup(".");
  if (!dir) return 0;
  DIR *d = opendir(dir);
  free(dir);
  if (!d) return 0;
  int found = 0;
  struct dirent *e;
  while (!found && (e = readdir(d)) != NULL) {
    size_t len = strlen(e->d_name);
    found = !strncmp(e->d_name, "name_map", 8) && len > 13 && !strcmp(e->d_name + len - 5, ".json");
  }
  closedir(d);
  return found;
}

/* SL_TIMING=1: CPU seconds per stage on stderr (for benchmarks). */
static void stage(const char *what) {
  static double last = -1;
  static int on = -1;
  if (on < 0) on = getenv("SL_TIMING") != NULL;
  if (!on) return;
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  double now = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
  if (last >= 0 && what) fprintf(stderr, "timing: %-8s %.2f s cpu\n", what, now - last);
  last = now;
}

static int file_exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* deps.json is parsed on a second thread while the records are read: the two are
** independent and each takes seconds on a big capture. Quietly, so that a deps.json
** with anything to warn about is simply read again in order, warnings and all. */
typedef struct deps_job {
  pthread_t thread;
  const char *path;
  sl_deps *deps;
  int started;
} deps_job;

static void *deps_job_main(void *arg) {
  deps_job *jb = arg;
  jb->deps = sl_deps_load_quiet(jb->path);
  return NULL;
}

static void deps_job_start(deps_job *jb, const char *path) {
  jb->path = path;
  jb->deps = NULL;
  jb->started = pthread_create(&jb->thread, NULL, deps_job_main, jb) == 0;
}

/* The deps parsed in the background, or NULL when they must be read here. */
static sl_deps *deps_job_take(deps_job *jb) {
  if (!jb->started) return NULL;
  pthread_join(jb->thread, NULL);
  jb->started = 0;
  sl_deps *d = jb->deps;
  jb->deps = NULL;
  if (d && (d->status == SL_DEPS_INVALID || !d->has_edges)) {
    sl_deps_free(d);
    d = NULL;
  }
  return d;
}

int sl_cmd_convert(int argc, char **argv) {
  if (sl_l3_convert_wanted(argc, argv)) return sl_l3_cmd_convert(argc, argv); /* tools/l3 */
  const char *input = NULL, *output = NULL, *deps_arg = NULL, *names_arg = NULL,
             *rules_arg = NULL, *format = "json", *summary_json = NULL;
  int verbose = 0, overhead = 0, quiet = 0, reference_flows = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char **slot = NULL;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
      verbose = 1;
    } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
      quiet = 1;
    } else if (!strcmp(a, "--overhead")) {
      overhead = 1;
    } else if (!strcmp(a, "--reference-flows")) {
      reference_flows = 1;
    } else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
      slot = &output;
    } else if (!strcmp(a, "--deps-json")) {
      slot = &deps_arg;
    } else if (!strcmp(a, "--func-names")) {
      slot = &names_arg;
    } else if (!strcmp(a, "--rules")) {
      slot = &rules_arg;
    } else if (!strcmp(a, "--format")) {
      slot = &format;
    } else if (!strcmp(a, "--summary-json")) {
      slot = &summary_json;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "swimlane convert: unknown option '%s'\n", a);
      usage(stderr);
      return 2;
    } else if (!input) {
      input = a;
    } else {
      fprintf(stderr, "swimlane convert: unexpected argument '%s'\n", a);
      usage(stderr);
      return 2;
    }
    if (slot) {
      if (i + 1 >= argc) {
        fprintf(stderr, "swimlane convert: %s needs a value\n", a);
        return 2;
      }
      *slot = argv[++i];
    }
  }
  int proto = 0;
  if (!strcmp(format, "proto"))
    proto = 1;
  else if (strcmp(format, "json") != 0) {
    fprintf(stderr, "swimlane convert: --format must be json or proto (got '%s')\n", format);
    return 2;
  }
#ifndef SL_HAVE_SINK_PROTO
  if (proto) {
    sl_error(NULL, "--format proto: the Perfetto protobuf backend is not built into this binary");
    return 1;
  }
#endif

  int rc = 1;
  char *auto_input = NULL, *out_path = NULL, *deps_path = NULL, *names_path = NULL;
  sl_rules *rules = NULL;
  sl_capture *cap = NULL;
  sl_deps *deps = NULL;
  sl_namemap *names = NULL;
  sl_trace_sink *sink = NULL;
  sl_outfile of = {0};
  int of_open = 0;
  deps_job dj = {0};
  sl_progress *prog = NULL;
  /* the trace on stdout moves the report to stderr */
  FILE *out = output && !strcmp(output, "-") ? stderr : stdout;
  if (quiet) verbose = 0;
  sl_outfile_trap_signals();

  /* rules first: a broken script fails before anything is read or written */
  rules = sl_rules_load(rules_arg);
  if (!rules) goto done;

  if (!input) {
    auto_input = sl_find_latest_records(NULL);
    if (!auto_input) {
      char cwd[PATH_MAX];
      if (!getcwd(cwd, sizeof cwd)) strcpy(cwd, ".");
      char where[PATH_MAX + 16];
      snprintf(where, sizeof where, "%s/outputs", cwd);
      sl_error(where, "no */chip_swimlane_records.json found; run a capture first "
                      "(swimlane run) or pass RECORDS");
      goto done;
    }
    /* print it as the reference's glob does: outputs/<case>/... */
    input = !strncmp(auto_input, "./", 2) ? auto_input + 2 : auto_input;
    if (verbose) fprintf(out, "Auto-selected latest file: %s\n", input);
  } else if (!file_exists(input)) {
    sl_error(input, "input file not found");
    goto done;
  }
  const char *wrong = sl_file_kind_hint(sl_file_kind_sniff(input), "convert");
  if (wrong) {
    sl_error(input, "%s", wrong);
    goto done;
  }
  out_path = output ? strdup(output)
                    : sibling(input, proto ? "merged_swimlane.pftrace" : "merged_swimlane.json");
  if (!out_path || sl_output_check(out_path) != 0) goto done;
  if (summary_json && sl_output_check(summary_json) != 0) goto done;
  if (strcmp(out_path, "-") != 0) { /* rules may write beside the trace, nowhere else */
    char *dir = sibling(out_path, ".");
    sl_lua_set_write_dir(dir);
    free(dir);
  }

  deps_path = deps_arg ? strdup(deps_arg) : sibling(input, "deps.json");
  if (!deps_path) goto done;
  deps_job_start(&dj, deps_path);

  if (verbose) fprintf(out, "Reading performance data from: %s\n", input);
  fflush(out);
  prog = sl_progress_start(input, !quiet);
  stage(NULL);
  cap = sl_capture_read(input, NULL);
  stage("read");
  if (!cap) goto done;
  fflush(out);
  sl_progress_clear(prog);
  sl_convert_print_health(stderr, input, quiet);
  if (verbose) print_data_info(out, cap);

  /* names: explicit wins, else exactly one sibling name_map*.json */
  int discovered = 0;
  if (names_arg) {
    if (!file_exists(names_arg)) {
      sl_error(names_arg, "func names JSON not found");
      goto done;
    }
    names_path = strdup(names_arg);
  } else {
    fflush(out);
    if (has_sibling_name_map(input) && sl_namemap_discover(input, &names_path) == 1)
      discovered = 1;
  }
  if (names_path) {
    names = sl_namemap_load(names_path);
    if (!names) goto done;
    if (verbose) print_names(out, names, names_path, discovered);
  }

  fflush(out);
  stage(NULL);
  deps = deps_job_take(&dj);
  if (!deps) deps = sl_deps_load(deps_path);
  if (!deps) goto done;
  stage("deps");
  if (deps->has_edges) {
    if (verbose) {
      fprintf(out, "  Using deps.json edges (%zu total) from %s\n", deps->n_edges, deps_path);
    }
  } else {
    fflush(out);
    fprintf(stderr,
            "Warning: no usable deps.json at %s; Perfetto trace will have no dependency arrows. "
            "Run a dep_gen capture (--enable-dep-gen) and pass --deps-json <path> to add them.\n",
            deps_path);
  }
  if (deps->has_kernel_map) {
    size_t before = 0, after = 0;
    for (size_t i = 0; i < cap->n_tasks; i++) before += cap->tasks[i].func_id >= 0;
    sl_capture_resolve_func_ids(cap, deps);
    for (size_t i = 0; i < cap->n_tasks; i++) after += cap->tasks[i].func_id >= 0;
    if (verbose && after > before)
      fprintf(out, "  Using deps.json kernel_ids for %zu tasks (level=1 name recovery)\n",
              after - before);
  }

  if (sl_outfile_open(&of, out_path) != 0) goto done;
  of_open = 1;
  sl_progress_writing(prog, of.tmp_path);
#ifdef SL_HAVE_SINK_PROTO
  sink = proto ? sl_trace_sink_proto_new(of.fp) : sl_trace_sink_json_new(of.fp);
#else
  sink = sl_trace_sink_json_new(of.fp);
#endif
  if (!sink) {
    sl_error(out_path, "out of memory");
    goto done;
  }
  if (verbose) {
    fprintf(out, "Generating %s...\n", proto ? "Perfetto protobuf trace" : "Chrome Trace JSON");
    fprintf(out, "  Tasks: %zu\n", cap->n_tasks);
    if (names) fprintf(out, "  Function names: %zu entries\n", names->n);
    fprintf(out, "  Unique cores: %zu\n", unique_cores(cap));
  }
  sl_convert_opts opts = {.verbose = verbose, .overhead = overhead, .out = out,
                          .reference_flows = reference_flows};
  sl_convert_result res;
  stage(NULL);
  int emit_rc = sl_convert_emit(cap, deps, names, rules, sink, &opts, &res);
  stage("emit");
  if (emit_rc != 0) {
    if (!sl_rules_failed(rules)) sl_error(out_path, "conversion failed (out of memory)");
    goto done;
  }
  int fin_rc = sl_sink_finish(sink);
  stage("finish");
  sl_progress_stop(prog);
  prog = NULL;
  if (fin_rc != 0 || sl_outfile_commit(&of) != 0) {
    if (of.fp) sl_error(out_path, "write failed: %s", strerror(errno));
    goto done;
  }
  of_open = 0;

  int deps_present = deps->has_edges;
  if (verbose && deps_present) {
    fprintf(out, "  Dependency flow events: %llu edges (source: deps.json)\n",
            (unsigned long long)res.dep_pairs);
    if (res.spmd_tasks)
      fprintf(out,
              "  SPMD tasks: %llu logical task(s); dependency arrows independently anchor on each "
              "view's earliest visible slice per function\n",
              (unsigned long long)res.spmd_tasks);
  }
  /* The seed (§3.5) prints the rerun breadcrumb whenever arrows are missing; the
  ** reference only does so with -v. The seed wins. */
  if (!deps_present && !quiet)
    fprintf(out, "  Flow events: 0 (no deps.json \xe2\x80\x94 re-run dep_gen and pass --deps-json "
                 "to add arrows)\n");
  if (verbose) {
    if (res.hb_pairs)
      fprintf(out, "  Happens-before violations: %llu edge(s) flagged as 'hb_violation'\n",
              (unsigned long long)res.hb_pairs);
    if (cap->n_streams && res.core_map_size)
      fprintf(out, "  Core-to-thread mapping: %zu cores (%s)\n", res.core_map_size,
              res.core_map_inferred ? "inferred via voting" : "from perf JSON");
    fprintf(out, "  Total events: %llu\n", (unsigned long long)res.total_events);
    fprintf(out, "  Flow events: %llu\n", (unsigned long long)res.flow_pairs);
    if (overhead && res.overhead_points)
      fprintf(out, "  Overhead Analysis: %llu counter points (8 tracks)\n",
              (unsigned long long)res.overhead_points);
    fprintf(out, "%s written to: %s\n", proto ? "Trace" : "JSON", out_path);
  }
  if (overhead && !deps_present) {
    fflush(out);
    fprintf(stderr, "Warning: --overhead needs deps.json for task readiness; no deps found, "
                    "Overhead Analysis track skipped.\n");
  }
  if (summary_json && sl_convert_write_summary_json(summary_json, cap, rules, names) != 0) goto done;
  rc = 0;
  if (quiet) goto done;
  fprintf(out, "\n\xe2\x9c\x93 Conversion complete\n");
  fprintf(out, "  Input:  %s\n", input);
  fprintf(out, "  Output: %s\n", out_path);
  fprintf(out, "\nTo visualize: Open https://ui.perfetto.dev/ and drag in %s\n", out_path);
  sl_convert_print_stats(out, cap, rules, names);
  fprintf(out, "\nScheduler-overhead deep-dive: run sched_overhead_analysis manually with a "
               "separately-captured deps.json (--enable-dep-gen).\n");

done:
  sl_progress_stop(prog);
  sl_deps_free(deps_job_take(&dj)); /* an early exit: wait for it, drop it */
  fflush(out);
  if (sink) sl_sink_destroy(sink);
  if (of_open) sl_outfile_abort(&of);
  sl_deps_free(deps);
  sl_namemap_free(names);
  sl_capture_free(cap);
  sl_rules_free(rules);
  free(auto_input);
  free(out_path);
  free(deps_path);
  free(names_path);
  return rc;
}
