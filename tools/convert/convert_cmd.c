/*
** convert_cmd.c — `swimlane convert`: pick the inputs, read, draw, write all or
** nothing, and print the report lines the reference converter prints (same
** wording, same order), then the per-function summary.
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
#include "sl_opt.h"
#include "sl_filekind.h"
#include "sl_convert.h"
#include "sl_l3.h"
#include "sl_phases.h"
#include "sl_mem.h"

/* "<dir of input>/<name>", keeping a relative input relative like the reference. */
static char *sibling(const char *input, const char *name) {
  const char *slash = strrchr(input, '/');
  if (!slash) return sl_mem_strdup(name);
  char *d = sl_mem_strndup(input, (size_t)(slash - input + 1));
  size_t n = strlen(d) + strlen(name) + 1;
  char *p = sl_mem_alloc(n);
  snprintf(p, n, "%s%s", d, name);
  sl_mem_free(d);
  return p;
}

/* Tasks submitted: the records of the lowest dispatch_flow rank present (phases.lua
** orch_phases: submit records, else the legacy fanin ones). */
static size_t orch_submitted(const sl_capture *c) {
  size_t best = 0;
  int best_rank = -1;
  for (size_t i = 0; i < c->n_orch; i++) {
    const char *ph = sl_str_get(c, c->orch[i].phase);
    const sl_orch_phase_info *k = sl_orch_phase_by_name(ph ? ph : SL_ORCH_PHASE_DEFAULT);
    if (!k || k->dispatch_flow < 0 || (best_rank >= 0 && k->dispatch_flow > best_rank)) continue;
    if (k->dispatch_flow != best_rank) best = 0;
    best_rank = k->dispatch_flow;
    best++;
  }
  return best;
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
    size_t n = orch_submitted(c);
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
  char **keys = sl_mem_alloc((m->n ? m->n : 1) * sizeof *keys);
  for (size_t i = 0; i < m->n; i++) keys[i] = m->keys[i];
  qsort(keys, m->n, sizeof *keys, cmp_ids);
  for (size_t i = 0; i < m->n; i++) {
    const char *name = NULL;
    for (size_t j = 0; j < m->n; j++)
      if (m->keys[j] == keys[i]) name = m->names[j];
    fprintf(out, "    func_id=%s: %s\n", keys[i], name ? name : "");
  }
  sl_mem_free(keys);
  if (m->orchestrator_name) fprintf(out, "  Orchestrator: %s\n", m->orchestrator_name);
  fputc('\n', out);
}

static size_t unique_cores(const sl_capture *c) {
  size_t n = 0, maxc = 0;
  for (size_t i = 0; i < c->n_tasks; i++)
    if (c->tasks[i].core_id + 1u > maxc) maxc = c->tasks[i].core_id + 1u;
  unsigned char *seen = sl_mem_calloc(maxc ? maxc : 1, 1);
  for (size_t i = 0; i < c->n_tasks; i++)
    if (!seen[c->tasks[i].core_id]++) n++;
  sl_mem_free(seen);
  return n;
}

/* Any name_map*.json beside the input? (Skips the reader's discovery when there
** is nothing to find; it only needs to run when a candidate exists.) */
static int has_sibling_name_map(const char *input) {
  const char *slash = strrchr(input, '/');
  char *dir = slash ? sl_mem_strndup(input, (size_t)(slash - input + (slash == input))) : sl_mem_strdup(".");
  DIR *d = opendir(dir);
  sl_mem_free(dir);
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
** independent and each takes seconds on a big capture. Loading prints nothing; its
** warning is kept on the value and printed by load_deps, in order. */
typedef struct deps_job {
  pthread_t thread;
  const char *path;
  sl_deps *deps;
  int started;
} deps_job;

static void *deps_job_main(void *arg) {
  deps_job *jb = arg;
  jb->deps = sl_deps_load(jb->path);
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
  return d;
}

/* The command line. */
typedef struct convert_args {
  const char *input, *output, *deps_arg, *names_arg, *rules_arg, *format, *summary_json;
  int verbose, overhead, quiet, reference_flows, proto;
} convert_args;

static convert_args g_args; /* what the table below fills */

static const sl_opt convert_table[] = {
    {.name = "output", .short_name = 'o', .kind = SL_OPT_STRING, .arg = "OUT", .target = &g_args.output,
     .help = "output trace path ('-' = standard output; the report then\ngoes to standard error)"},
    {.name = "deps-json", .kind = SL_OPT_STRING, .arg = "F", .target = &g_args.deps_arg,
     .help = "dep_gen deps.json (dependency arrows, function ids)"},
    {.name = "func-names", .kind = SL_OPT_STRING, .arg = "F", .target = &g_args.names_arg,
     .help = "name_map_<case>.json (function names)"},
    {.name = "rules", .kind = SL_OPT_STRING, .arg = "F.lua", .target = &g_args.rules_arg,
     .help = "conversion rules script (default lua/convert/default.lua)"},
    {.name = "format", .kind = SL_OPT_CHOICE, .choices = "json|proto", .target = &g_args.format,
     .help = "json (Chrome trace, default) or proto (Perfetto protobuf)"},
    {.name = "overhead", .kind = SL_OPT_FLAG, .target = &g_args.overhead,
     .help = "add the scheduler-overhead counter tracks (needs deps.json)"},
    {.name = "reference-flows", .kind = SL_OPT_FLAG, .target = &g_args.reference_flows,
     .help = "flow events where the reference writes them (byte parity;\nChrome DevTools then binds no arrows)"},
    {.name = "summary-json", .kind = SL_OPT_STRING, .arg = "F", .target = &g_args.summary_json,
     .help = "also write the per-function summary as JSON ('-' = stdout)"},
    {.name = "verbose", .short_name = 'v', .kind = SL_OPT_FLAG, .target = &g_args.verbose,
     .help = "print the reading / generation details"},
    {.name = "quiet", .short_name = 'q', .kind = SL_OPT_FLAG, .target = &g_args.quiet,
     .help = "print only warnings and errors"},
    {.name = NULL},
};

static const sl_opt_spec convert_spec = {
    .cmd = "convert",
    .synopsis = "[RECORDS] [options]\nDFX_DIR [...]  (an L3 run's ranks: swimlane convert DFX_DIR --help)",
    .about = "Convert a chip swimlane capture to a Perfetto trace and print a per-function\n"
             "summary. RECORDS defaults to the newest outputs/*/chip_swimlane_records.json;\n"
             "a sibling deps.json and name_map_*.json are picked up. The default output is\n"
             "merged_swimlane.json (merged_swimlane.pftrace with --format proto) beside RECORDS.",
    .opts = convert_table,
    .arg = &g_args.input,
};

/* -1: go on; else the exit status (0 after --help, 2 on a usage error). */
static int parse_args(int argc, char **argv, convert_args *o) {
  g_args = (convert_args){.format = "json"};
  int rc = sl_opt_parse(&convert_spec, argc, argv);
  *o = g_args;
  o->proto = !strcmp(o->format, "proto");
  if (o->quiet) o->verbose = 0;
  return rc;
}

/* One conversion: what it read, what it writes, what it owns (freed by job_free). */
typedef struct convert_job {
  convert_args a;
  FILE *out;         /* the report: stdout, or stderr when the trace goes to stdout */
  const char *input; /* RECORDS as given, or the auto-selected one */
  char *auto_input, *out_path, *deps_path, *names_path;
  sl_rules *rules;
  sl_capture *cap;
  sl_deps *deps;
  sl_namemap *names;
  sl_trace_sink *sink;
  sl_outfile of;
  int of_open;
  deps_job dj;
  sl_progress *prog;
  sl_convert_result res;
  /* what the reports need once the capture and deps.json are freed, before the sink's
  ** finish (a .pftrace sink's finish is the peak: nothing else is held then) */
  size_t n_streams;
  int deps_edges;
  FILE *stats;        /* the per-function table, printed by report_done */
  char *summary_text; /* --summary-json, written after the trace */
} convert_job;

/* RECORDS (given, or the newest under outputs/), the output path, the deps path. */
static int resolve_paths(convert_job *j) {
  FILE *out = j->out;
  if (!j->input) {
    j->auto_input = sl_find_latest_records(NULL);
    if (!j->auto_input) {
      char cwd[PATH_MAX];
      if (!getcwd(cwd, sizeof cwd)) strcpy(cwd, ".");
      char where[PATH_MAX + 16];
      snprintf(where, sizeof where, "%s/outputs", cwd);
      sl_error(where, "no */chip_swimlane_records.json found; run a capture first "
                      "(swimlane run) or pass RECORDS");
      return -1;
    }
    /* print it as the reference's glob does: outputs/<case>/... */
    j->input = !strncmp(j->auto_input, "./", 2) ? j->auto_input + 2 : j->auto_input;
    if (j->a.verbose) fprintf(out, "Auto-selected latest file: %s\n", j->input);
  } else if (!file_exists(j->input)) {
    sl_error(j->input, "input file not found");
    return -1;
  }
  const char *wrong = sl_file_kind_hint(sl_file_kind_sniff(j->input), "convert");
  if (wrong) {
    sl_error(j->input, "%s", wrong);
    return -1;
  }
  j->out_path = j->a.output ? sl_mem_strdup(j->a.output)
                            : sibling(j->input, j->a.proto ? "merged_swimlane.pftrace" : "merged_swimlane.json");
  if (sl_output_check(j->out_path) != 0) return -1;
  if (j->a.summary_json && sl_output_check(j->a.summary_json) != 0) return -1;
  if (strcmp(j->out_path, "-") != 0) { /* rules may write beside the trace, nowhere else */
    char *dir = sibling(j->out_path, ".");
    sl_lua_set_write_dir(dir);
    sl_mem_free(dir);
  }
  j->deps_path = j->a.deps_arg ? sl_mem_strdup(j->a.deps_arg) : sibling(j->input, "deps.json");
  return 0;
}

/* names: explicit wins, else exactly one sibling name_map*.json */
static int load_names(convert_job *j) {
  int discovered = 0;
  if (j->a.names_arg) {
    if (!file_exists(j->a.names_arg)) {
      sl_error(j->a.names_arg, "func names JSON not found");
      return -1;
    }
    j->names_path = sl_mem_strdup(j->a.names_arg);
  } else {
    fflush(j->out);
    sl_err many = SL_ERR_INIT;
    if (has_sibling_name_map(j->input) && sl_namemap_discover(j->input, &j->names_path, &many) == 1)
      discovered = 1;
    sl_err_warn(&many);
    sl_err_clear(&many);
  }
  if (j->names_path) {
    j->names = sl_namemap_load(j->names_path);
    if (!j->names) return -1;
    if (j->a.verbose) print_names(j->out, j->names, j->names_path, discovered);
  }
  return 0;
}

/* deps.json (read on its own thread meanwhile), and the function ids it recovers. */
static int load_deps(convert_job *j) {
  FILE *out = j->out;
  fflush(out);
  stage(NULL);
  j->deps = deps_job_take(&j->dj);
  if (!j->deps) j->deps = sl_deps_load(j->deps_path);
  sl_err_warn(&j->deps->warning);
  stage("deps");
  sl_deps *deps = j->deps;
  if (deps->has_edges) {
    if (j->a.verbose) {
      fprintf(out, "  Using deps.json edges (%zu total) from %s\n", deps->n_edges, j->deps_path);
    }
  } else {
    fflush(out);
    sl_warn(j->deps_path, "no usable deps.json; the trace will have no dependency arrows "
            "(capture with `swimlane run --enable-dep-gen` and pass --deps-json <path> to add them)");
  }
  if (deps->has_kernel_map) {
    const sl_capture *cap = j->cap;
    size_t before = 0, after = 0;
    for (size_t i = 0; i < cap->n_tasks; i++) before += cap->tasks[i].func_id >= 0;
    sl_capture_resolve_func_ids(j->cap, deps);
    for (size_t i = 0; i < cap->n_tasks; i++) after += cap->tasks[i].func_id >= 0;
    if (j->a.verbose && after > before)
      fprintf(out, "  Using deps.json kernel_ids for %zu tasks (level=1 name recovery)\n",
              after - before);
  }
  return 0;
}

/* The capture, the name map, deps.json. */
static int read_inputs(convert_job *j) {
  FILE *out = j->out;
  deps_job_start(&j->dj, j->deps_path);
  if (j->a.verbose) fprintf(out, "Reading performance data from: %s\n", j->input);
  fflush(out);
  j->prog = sl_progress_start(j->input, !j->a.quiet);
  stage(NULL);
  sl_err err = SL_ERR_INIT;
  sl_capture *cap = sl_capture_load(j->input, NULL, &err);
  stage("read");
  sl_progress_clear(j->prog); /* before the read's error or warnings: the line may be on screen */
  j->cap = sl_capture_report(cap, &err, NULL);
  if (!j->cap) return -1;
  fflush(out);
  sl_convert_print_health(stderr, j->input, j->cap, j->a.quiet);
  if (j->a.verbose) print_data_info(out, j->cap);
  if (load_names(j) != 0) return -1;
  return load_deps(j);
}

/* Everything the reports take from the capture and deps.json, then both freed: the sink's
** finish does not read them. */
static void keep_reports(convert_job *j) {
  j->n_streams = j->cap->n_streams;
  j->deps_edges = j->deps && j->deps->has_edges;
  if (j->a.summary_json) j->summary_text = sl_convert_summary_json_text(j->cap, j->rules, j->names);
  if (!j->a.quiet) {
    j->stats = tmpfile();
    if (!j->stats) return; /* nowhere to keep the table: the capture stays for it */
    sl_convert_print_stats(j->stats, j->cap, j->rules, j->names);
  }
  sl_capture_free(j->cap);
  j->cap = NULL;
  sl_deps_free(j->deps);
  j->deps = NULL;
}

/* The per-function table kept by keep_reports, or printed from the capture when there is
** no temporary file to keep it in. */
static void print_stats(const convert_job *j) {
  if (!j->stats) {
    if (j->cap) sl_convert_print_stats(j->out, j->cap, j->rules, j->names);
    return;
  }
  char buf[1 << 14];
  size_t n;
  rewind(j->stats);
  while ((n = fread(buf, 1, sizeof buf, j->stats)) > 0) fwrite(buf, 1, n, j->out);
}

/* Draw the capture into the output, all or nothing. */
static int write_trace(convert_job *j) {
  FILE *out = j->out;
  if (sl_outfile_open(&j->of, j->out_path) != 0) return -1;
  j->of_open = 1;
  j->sink = j->a.proto ? sl_trace_sink_proto_new(j->of.fp) : sl_trace_sink_json_new(j->of.fp);
  sl_progress_writing(j->prog, j->of.tmp_path, &j->sink->nevents);
  if (j->a.verbose) {
    fprintf(out, "Generating %s...\n", j->a.proto ? "Perfetto protobuf trace" : "Chrome Trace JSON");
    fprintf(out, "  Tasks: %zu\n", j->cap->n_tasks);
    if (j->names) fprintf(out, "  Function names: %zu entries\n", j->names->n);
    fprintf(out, "  Unique cores: %zu\n", unique_cores(j->cap));
  }
  sl_convert_opts opts = {.verbose = j->a.verbose, .overhead = j->a.overhead, .out = out,
                          .reference_flows = j->a.reference_flows};
  stage(NULL);
  int emit_rc = sl_convert_emit(j->cap, j->deps, j->names, j->rules, j->sink, &opts, &j->res);
  sl_notes_print(&j->res.warnings);
  stage("emit");
  if (emit_rc != 0) {
    if (!sl_rules_failed(j->rules)) sl_error(j->out_path, "conversion failed"); /* a rules error says why */
    return -1;
  }
  keep_reports(j);
  int fin_rc = sl_sink_end(j->sink, j->out_path);
  stage("finish");
  sl_progress_stop(j->prog);
  j->prog = NULL;
  if (fin_rc != 0 || sl_outfile_commit(&j->of) != 0) {
    if (j->of.fp) sl_error(j->out_path, "write failed: %s", strerror(errno));
    return -1;
  }
  j->of_open = 0;
  return 0;
}

/* What was drawn (verbose), and the warnings about what could not be. */
static void report_trace(const convert_job *j) {
  FILE *out = j->out;
  const sl_convert_result *res = &j->res;
  int deps_present = j->deps_edges, verbose = j->a.verbose;
  if (verbose && deps_present) {
    fprintf(out, "  Dependency flow events: %llu edges (source: deps.json)\n",
            (unsigned long long)res->dep_pairs);
    if (res->spmd_tasks)
      fprintf(out,
              "  SPMD tasks: %llu logical task(s); dependency arrows independently anchor on each "
              "view's earliest visible slice per function\n",
              (unsigned long long)res->spmd_tasks);
  }
  /* Without arrows the rerun breadcrumb is printed even without -v (the reference
  ** prints it only with -v): a user without arrows needs to know how to get them. */
  if (!deps_present && !j->a.quiet)
    fprintf(out, "  Flow events: 0 (no deps.json \xe2\x80\x94 re-run dep_gen and pass --deps-json "
                 "to add arrows)\n");
  if (verbose) {
    if (res->hb_pairs)
      fprintf(out, "  Happens-before violations: %llu edge(s) flagged as 'hb_violation'\n",
              (unsigned long long)res->hb_pairs);
    if (j->n_streams && res->core_map_size)
      fprintf(out, "  Core-to-thread mapping: %zu cores (%s)\n", res->core_map_size,
              res->core_map_inferred ? "inferred via voting" : "from perf JSON");
    fprintf(out, "  Total events: %llu\n", (unsigned long long)res->total_events);
    fprintf(out, "  Flow events: %llu\n", (unsigned long long)res->flow_pairs);
    if (j->a.overhead && res->overhead_points)
      fprintf(out, "  Overhead Analysis: %llu counter points (8 tracks)\n",
              (unsigned long long)res->overhead_points);
    fprintf(out, "%s written to: %s\n", j->a.proto ? "Trace" : "JSON", j->out_path);
  }
  if (j->a.overhead && !deps_present) {
    fflush(out);
    sl_warn(j->input, "--overhead needs deps.json for task readiness; none found, "
            "the Overhead Analysis track is skipped");
  }
}

static void report_done(const convert_job *j) {
  FILE *out = j->out;
  fprintf(out, "\n\xe2\x9c\x93 Conversion complete\n");
  fprintf(out, "  Input:  %s\n", j->input);
  fprintf(out, "  Output: %s\n", j->out_path);
  fprintf(out, "\nTo visualize: Open https://ui.perfetto.dev/ and drag in %s\n", j->out_path);
  print_stats(j);
  /* The next step, as a command this tool has (the reference names its own script here). */
  if (j->deps_edges)
    fprintf(out, "\nScheduler-overhead deep dive: swimlane sched-overhead %s --deps-json %s\n", j->input,
            j->deps_path);
  else
    fprintf(out, "\nScheduler-overhead deep dive: swimlane sched-overhead %s (task readiness needs the "
                 "deps.json of run --enable-dep-gen)\n", j->input);
}

static void job_free(convert_job *j) {
  sl_progress_stop(j->prog);
  sl_deps_free(deps_job_take(&j->dj)); /* an early exit: wait for it, drop it */
  fflush(j->out);
  if (j->sink) sl_sink_destroy(j->sink);
  if (j->of_open) sl_outfile_abort(&j->of);
  sl_deps_free(j->deps);
  sl_namemap_free(j->names);
  sl_capture_free(j->cap);
  if (j->stats) fclose(j->stats);
  sl_mem_free(j->summary_text);
  sl_rules_free(j->rules);
  sl_mem_free(j->auto_input);
  sl_mem_free(j->out_path);
  sl_mem_free(j->deps_path);
  sl_mem_free(j->names_path);
}

int sl_cmd_convert(int argc, char **argv) {
  if (sl_l3_convert_wanted(argc, argv)) return sl_l3_cmd_convert(argc, argv); /* tools/l3 */
  convert_job j = {0};
  int prc = parse_args(argc, argv, &j.a);
  if (prc >= 0) return prc;
  j.input = j.a.input;
  /* the trace on stdout moves the report to stderr */
  j.out = j.a.output && !strcmp(j.a.output, "-") ? stderr : stdout;
  sl_outfile_trap_signals();
  int rc = 1;
  /* rules first: a broken script fails before anything is read or written */
  j.rules = sl_rules_load(j.a.rules_arg);
  if (j.rules && resolve_paths(&j) == 0 && read_inputs(&j) == 0 && write_trace(&j) == 0) {
    report_trace(&j);
    if (!j.a.summary_json || sl_file_write_line(j.a.summary_json, j.summary_text) == 0) {
      rc = 0;
      if (!j.a.quiet) report_done(&j);
    }
  }
  job_free(&j);
  return rc;
}
