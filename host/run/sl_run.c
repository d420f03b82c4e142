/*
** sl_run.c — `swimlane run WORKLOAD`: parse the options, load the workload, build
** the simulated chip and the collector, run, check the results, and write the
** output directory <out>/<Class>_<Case>_<YYYYMMDD_HHMMSS>/.
*/
#include <errno.h>
#include <limits.h>
#include <lua.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "sl_run.h"
#include "sl_base.h"
#include "sl_collector.h"
#include "sl_levels.h"
#include "sl_opt.h"
#include "sl_platforms.h"
#include "sl_run_internal.h"
#include "sl_ticker.h"
#include "sl_mem.h"

typedef struct run_opts {
  const char *workload, *case_name, *platform, *out_root;
  int level, dep_gen, dump_args, rounds;
  int aic, aiv, sched, ring;
  int quiet, backpressure;
  int no_convert, list;
  int runtime, clock_anchors;  /* SL_RT_TMR / SL_RT_HBG; --clock-anchors */
  const char *runtime_name;    /* --runtime tmr|hbg */
  const char *clock;           /* --clock wall|virtual */
  int virtual_clock;           /* --clock virtual */
  int pool_records;            /* --pool-records N: one fixed N-record buffer per pool (0 = defaults) */
  int stall_collector;         /* --stall-collector: the host drains nothing until the run ends */
  sl_l3_request l3;            /* the L3 options (host/l3 reads them from here) */
} run_opts;

/* Set by the CLI when `convert` is built in: the capture is converted when it completes. */
int (*sl_run_convert)(int argc, char **argv);

/* The platform's virtual-clock latencies (schema/platforms.lua vclock_*). */
static sl_vclock_model sl_run_vclock_model(const sl_platform_info *p) {
  sl_vclock_model m = {.poll = p->vclock_poll_cycles,
                       .read = p->vclock_read_cycles,
                       .dispatch = p->vclock_dispatch_cycles,
                       .receive = p->vclock_receive_cycles,
                       .fin = p->vclock_fin_cycles,
                       .pop = p->vclock_pop_cycles,
                       .submit = p->vclock_submit_cycles,
                       .kernel_base = p->vclock_kernel_base_cycles,
                       .kernel_instr = p->vclock_kernel_instr_cycles,
                       .work_per_cycle = p->vclock_work_per_cycle};
  return m;
}

/* --full-chip: the whole a2a3 die's cores and scheduler threads. */
static int set_full_chip(void *target, const char *value, char *err, size_t errlen) {
  (void)value, (void)err, (void)errlen;
  run_opts *o = target;
  o->aic = 24;
  o->aiv = 48;
  o->sched = 3;
  return 0;
}

static void run_more_help(FILE *f) {
  char plats[128];
  sl_platform_names(plats, sizeof plats, 1);
  fprintf(f, "Platforms: %s (default %s).\n", plats, sl_platform_default_sim());
  fputs("Defaults: 2 AIC + 4 AIV, 2 scheduler threads + 1 orchestrator; --full-chip = 24 AIC + 48 AIV,\n"
        "3 scheduler threads. --clock virtual: deterministic simulated device time (docs/run.md).\n"
        "Drop-path testing: --pool-records N gives every profiler pool one fixed buffer of N records;\n"
        "--stall-collector starts no host drain until the run ends, so what does not fit is dropped.\n",
        f);
}

/* The L3 options go into the request host/l3 takes over with (sl_l3_request); a
** count of 0 and a bound of -1 mean "not given". */
#define RUN_L3_OPT(nm, field, min, max, text) \
  {.name = nm, .kind = SL_OPT_INT, .arg = "N", .help = text, .target = &g_parsed.l3.field, .lo = min, .hi = max}
/* The hidden options the L3 scheduler starts a rank process with (sl_l3_run.h). */
#define RUN_L3_WORKER_OPT(nm, field) {.name = nm, .kind = SL_OPT_STRING, .arg = "V", .target = &g_parsed.l3.field}

static run_opts g_parsed;
static const sl_opt run_table[] = {
    {.name = "case", .kind = SL_OPT_STRING, .arg = "NAME", .help = "the workload case (or Class::Case)",
     .target = &g_parsed.case_name},
    {.name = "platform", .short_name = 'p', .kind = SL_OPT_STRING, .arg = "NAME",
     .help = "the simulated platform", .target = &g_parsed.platform},
    {.name = "enable-chip-swimlane", .kind = SL_OPT_INT, .arg = "LEVEL", .flags = SL_OPT_OPTIONAL_VALUE,
     .lo = SL_LEVEL_DISABLED, .hi = SL_LEVEL_MAX, .set = SL_LEVEL_MAX, .target = &g_parsed.level,
     .help = "capture the chip swimlane at LEVEL (bare: the highest)"},
    {.name = "enable-dep-gen", .kind = SL_OPT_FLAG, .help = "write the task DAG (deps.json)",
     .target = &g_parsed.dep_gen},
    {.name = "dump-args", .kind = SL_OPT_INT, .arg = "0-3", .lo = 0, .hi = 3, .target = &g_parsed.dump_args,
     .help = "dump task arguments (args_dump/) at this depth"},
    {.name = "rounds", .kind = SL_OPT_INT, .arg = "N", .lo = 1, .hi = 1000000, .target = &g_parsed.rounds,
     .help = "run N times (above 1 disables capture)"},
    {.name = "output", .short_name = 'o', .kind = SL_OPT_STRING, .arg = "DIR", .target = &g_parsed.out_root,
     .help = "where the run directory is made (default outputs)"},
    {.name = "aic", .kind = SL_OPT_INT, .arg = "N", .lo = 0, .hi = 108, .target = &g_parsed.aic,
     .help = "AIC cores"},
    {.name = "aiv", .kind = SL_OPT_INT, .arg = "N", .lo = 0, .hi = 108, .target = &g_parsed.aiv,
     .help = "AIV cores"},
    {.name = "sched-threads", .kind = SL_OPT_INT, .arg = "N", .lo = 1, .hi = 8, .target = &g_parsed.sched,
     .help = "scheduler threads"},
    {.name = "full-chip", .kind = SL_OPT_CALL, .call = set_full_chip, .target = &g_parsed,
     .help = "24 AIC + 48 AIV cores, 3 scheduler threads"},
    {.name = "ring", .kind = SL_OPT_INT, .arg = "N", .lo = 1, .hi = 1 << 24, .target = &g_parsed.ring,
     .help = "task ring size"},
    {.name = "backpressure", .kind = SL_OPT_FLAG, .target = &g_parsed.backpressure,
     .help = "a full profiler pool blocks its producer instead of dropping"},
    {.name = "clock", .kind = SL_OPT_CHOICE, .choices = "wall|virtual", .target = &g_parsed.clock,
     .help = "device time: wall (default) or virtual (deterministic)"},
    {.name = "no-convert", .kind = SL_OPT_FLAG, .target = &g_parsed.no_convert,
     .help = "keep the capture, do not convert it"},
    {.name = "quiet", .short_name = 'q', .kind = SL_OPT_FLAG, .target = &g_parsed.quiet,
     .help = "print errors only"},
    {.name = "runtime", .kind = SL_OPT_CHOICE, .choices = "tmr|hbg", .target = &g_parsed.runtime_name,
     .help = "tensormap_and_ringbuffer (default) or host_build_graph"},
    {.name = "clock-anchors", .kind = SL_OPT_FLAG, .target = &g_parsed.clock_anchors,
     .help = "record host/device clock anchors"},
    {.name = "pool-records", .kind = SL_OPT_INT, .arg = "N", .lo = 1, .hi = 1 << 20,
     .target = &g_parsed.pool_records, .help = "one fixed N-record buffer per profiler pool"},
    {.name = "stall-collector", .kind = SL_OPT_FLAG, .target = &g_parsed.stall_collector,
     .help = "no host drain until the run ends"},
    {.name = "list", .kind = SL_OPT_FLAG, .target = &g_parsed.list,
     .help = "list the workloads, their cases and the platforms"},
    RUN_L3_OPT("ranks", ranks, 1, SL_WORKLOAD_MAX_RANKS,
               "an L3 run: one process per chip plus the L3 scheduler,\n"
               "merged into <case dir>/l3_swimlane.json (docs/l3.md)"),
    RUN_L3_OPT("dispatches", dispatches, 1, SL_WORKLOAD_MAX_RANKS, "with --ranks: dispatches per rank"),
    RUN_L3_OPT("rate-error-ppm", rate_error_ppm, 0, 1000, "with --ranks: device counter rate error bound"),
    RUN_L3_OPT("hosts", hosts, 1, SL_WORKLOAD_MAX_RANKS, "with --ranks: simulated hosts the ranks are spread over"),
    RUN_L3_OPT("host-drift-ppm", host_drift_ppm, 0, 1000, "with --ranks: host clock drift bound"),
    RUN_L3_WORKER_OPT("l3-worker", worker_rank),
    RUN_L3_WORKER_OPT("l3-root", worker_root),
    RUN_L3_WORKER_OPT("l3-counter-offset", counter_offset),
    RUN_L3_WORKER_OPT("l3-rate-ppb", rate_ppb),
    RUN_L3_WORKER_OPT("l3-host", host),
    RUN_L3_WORKER_OPT("l3-host-offset", host_offset),
    RUN_L3_WORKER_OPT("l3-host-drift-ppb", host_ppb),
    RUN_L3_WORKER_OPT("l3-host-epoch", host_epoch),
    {.name = NULL},
};

static int run_take_workload(void *ctx, const char *arg, char *err, size_t errlen) {
  run_opts *o = ctx;
  if (o->workload) {
    snprintf(err, errlen, "more than one workload given ('%s' and '%s')", o->workload, arg);
    return -1;
  }
  o->workload = arg;
  return 0;
}

static const sl_opt_spec run_spec = {
    .cmd = "run",
    .synopsis = "WORKLOAD [options]\nWORKLOAD --ranks N [--dispatches K] [--hosts H] [options]\n--list",
    .about = "WORKLOAD is a name under lua/workloads/ (mixed_example) or a path to a .lua file.\n"
             "A completed capture is converted to merged_swimlane.json beside the records\n"
             "(--no-convert skips it).",
    .opts = run_table,
    .on_arg = run_take_workload,
    .arg_ctx = &g_parsed,
    .more_help = run_more_help,
};

/* 0 ok, else the exit status (0 after --help, 2 usage). *done says which. */
static int parse_opts(int argc, char **argv, run_opts *o, int *done) {
  g_parsed = (run_opts){.platform = sl_platform_default_sim(), .out_root = "outputs", .rounds = 1, .aic = 2,
                        .aiv = 4, .sched = 2, .clock = "wall", .runtime_name = "tmr",
                        .l3 = {.rate_error_ppm = -1, .host_drift_ppm = -1}};
  int rc = sl_opt_parse(&run_spec, argc, argv);
  *o = g_parsed;
  *done = rc != SL_OPT_GO;
  if (*done) return rc;
  o->runtime = strcmp(o->runtime_name, "hbg") ? SL_RT_TMR : SL_RT_HBG;
  o->virtual_clock = !strcmp(o->clock, "virtual");
  *done = 1;
  if (!o->workload && !o->list) return sl_opt_usage_error("run", "no WORKLOAD given");
  if (o->stall_collector && o->backpressure) /* a blocked producer would wait for a host that never drains */
    return sl_opt_usage_error("run", "--stall-collector cannot be combined with --backpressure");
  *done = 0;
  return 0;
}

/* <root>/<Class>_<Case>_<YYYYMMDD_HHMMSS>[_N] — a directory no earlier run used. */
static char *make_out_dir(const char *root, const char *klass, const char *kase) {
  char stamp[32], rel[512];
  time_t now = time(NULL);
  struct tm tm;
  localtime_r(&now, &tm);
  strftime(stamp, sizeof stamp, "%Y%m%d_%H%M%S", &tm);
  if (sl_mkdirs(root)) return NULL;
  for (int n = 1; n < 1000; n++) {
    if (n == 1) snprintf(rel, sizeof rel, "%s_%s_%s", klass, kase, stamp);
    else snprintf(rel, sizeof rel, "%s_%s_%s_%d", klass, kase, stamp, n);
    for (char *p = rel; *p; p++)
      if (*p == '/' || *p == ' ') *p = '_';
    char *dir = sl_path_join(root, rel);
    if (mkdir(dir, 0777) == 0) return dir;
    int e = errno;
    if (e != EEXIST) {
      sl_error(dir, "cannot create output directory: %s", strerror(e));
      sl_mem_free(dir);
      return NULL;
    }
    sl_mem_free(dir);
  }
  sl_error(root, "cannot find a free output directory name");
  return NULL;
}

/* SIGINT/SIGTERM: stop submitting, let running kernels finish, mark the capture
** truncated; the command then exits 128 + the signal number. */
static sl_rt *volatile g_rt;
static sl_collector *volatile g_coll;
static volatile sig_atomic_t g_sigint;
static void on_sigint(int sig) {
  g_sigint = sig;
  if (g_rt) sl_rt_interrupt(g_rt);
  if (g_coll) sl_collector_mark_truncated(g_coll);
}

/* --pool-records N: one fixed buffer of N records per pool and a one-slot free queue,
** so a stalled host loses exactly what does not fit (the drop-path golden). */
static void set_tiny_pools(sl_pool_sizes *z, unsigned n) {
  z->prof_buffer_size = z->aicore_buffer_size = z->phase_records = n;
  z->slot_count = 1;
  z->prof_buffers_per_core = z->aicore_buffers_per_core = 1;
  z->sched_buffers_per_thread = z->orch_buffers_per_thread = 1;
}

/* The progress line of a run on a terminal (sl_ticker): tasks completed of submitted. */
static int run_progress_line(void *arg, double t, char *line, size_t n) {
  uint64_t submitted, completed;
  sl_rt_progress(arg, &submitted, &completed);
  snprintf(line, n, "run: %llu of %llu tasks completed, %.0f s", (unsigned long long)completed,
           (unsigned long long)submitted, t);
  return 1;
}

/* The collector of a capturing round (types: each core's type, kept by the caller
** while the collector lives); NULL on failure (reported). */
static sl_collector *make_collector(const run_opts *o, const struct sl_platform_info *plat, int level,
                                    const unsigned char *types, int aicore_sched) {
  sl_collector_config cc;
  sl_collector_config_init(&cc, plat);
  cc.platform_name = o->platform;
  cc.level = (unsigned)level;
  cc.num_cores = o->aic + o->aiv;
  cc.core_types = types;
  /* HBG: the P thread is scheduler index S (its phase stream), S + 1 the idle orchestrator
  ** slot; under the AICore Scheduler (a5) there is no P thread */
  cc.num_aicpu_threads = o->sched + 1 + (o->runtime == SL_RT_HBG && !aicore_sched);
  cc.runtime = o->runtime == SL_RT_HBG ? "host_build_graph" : NULL;
  cc.backpressure = o->backpressure;
  if (o->pool_records) {
    set_tiny_pools(&cc.sizes, (unsigned)o->pool_records);
    cc.fixed_buffers = 1;
  }
  return sl_collector_create(&cc);
}

/* The files of the run directory beside the capture; 0 ok, 1 if any failed. */
static int write_round_files(const run_opts *o, sl_workload *wl, sl_rt *rt, const char *case_name,
                             const char *out_dir, const sl_rt_timing *timing) {
  int rc = 0;
  char name[300];
  snprintf(name, sizeof name, "name_map_%s.json", case_name);
  char *p = sl_path_join(out_dir, name);
  if (sl_write_name_map(wl, p)) rc = 1;
  sl_mem_free(p);
  if (o->dep_gen) {
    p = sl_path_join(out_dir, "deps.json");
    if (sl_write_deps_json(rt, p)) rc = 1;
    sl_mem_free(p);
  }
  if (o->dump_args) {
    p = sl_path_join(out_dir, "args_dump");
    if (sl_write_args_dump(rt, o->dump_args, p)) rc = 1;
    sl_mem_free(p);
  }
  if (sl_run_write_device_log(timing, out_dir)) rc = 1;
  return rc;
}

/* What the round did: its task counts and timing (not with -q). */
static void print_round(const run_opts *o, const sl_workload *wl, sl_rt *rt, const char *case_name,
                        const sl_rt_timing *timing, double host_us, int round) {
  if (o->quiet) return;
  sl_rt_stats st = sl_rt_get_stats(rt);
  printf("swimlane: %s/%s on %s: %llu tasks (%llu kernel, %llu dummy, %llu predicated off, %llu alloc), "
         "%llu dispatches\n",
         wl->klass, case_name, o->platform, (unsigned long long)st.tasks, (unsigned long long)st.kernel_tasks,
         (unsigned long long)st.dummy_tasks, (unsigned long long)st.skipped_tasks,
         (unsigned long long)st.alloc_tasks, (unsigned long long)st.dispatches);
  sl_run_print_timing(timing, rt, host_us, round, o->rounds);
}

/* One round: build chip + collector, run, write outputs. 0 ok, 1 failure. */
static int run_round(const run_opts *o, sl_workload *wl, int case_idx, const char *case_name,
                     const struct sl_platform_info *plat, int level, const char *out_dir, int round,
                     sl_run_slots *slots) {
  int rc = 0;
  int ncores = o->aic + o->aiv;
  unsigned char types[SL_RT_MAX_CORES];
  for (int i = 0; i < ncores && i < SL_RT_MAX_CORES; i++) types[i] = i < o->aic ? SL_CORE_AIC : SL_CORE_AIV;
  sl_collector *coll = NULL;
  sl_devprof *dp = NULL;
  /* the host_build_graph scheduler producer is a platform fact (schema/platforms.lua) */
  int aicore_sched = o->runtime == SL_RT_HBG && strcmp(plat->hbg_producer, "aicore") == 0;
  if (level > SL_LEVEL_DISABLED) {
    coll = make_collector(o, plat, level, types, aicore_sched);
    if (!coll) return 1;
    dp = sl_collector_device(coll);
  }
  sl_vclock_model vm = sl_run_vclock_model(plat);
  sl_rt_config rc_cfg = {.clock_freq_hz = plat->clock_freq_hz, .num_aic = o->aic, .num_aiv = o->aiv,
                         .num_sched = o->sched, .level = (unsigned)level, .dp = dp, .ring_size = o->ring,
                         .dep_gen = o->dep_gen, .dump_args = o->dump_args, .runtime = o->runtime,
                         .clock_anchors = o->clock_anchors && level > SL_LEVEL_DISABLED,
                         .vclock = o->virtual_clock ? &vm : NULL,
                         .host_pool_records = level > SL_LEVEL_DISABLED ? o->pool_records : 0};
  sl_rt *rt = sl_rt_create(&rc_cfg);
  if (!rt) {
    sl_error(wl->path, "run: %s", sl_rt_config_error());
    sl_collector_destroy(coll);
    return 1;
  }
  if (aicore_sched) sl_rt_use_aicore_scheduler(rt);
  sl_run_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.wl = wl;
  ctx.rng = 0x9E3779B97F4A7C15ull;
  ctx.next_slot = -1;
  sl_run_set_case(&ctx, case_idx);
  g_coll = coll;
  g_rt = rt;
  if (g_sigint) sl_rt_interrupt(rt); /* a signal that came before g_rt was set */
  if (sl_run_device_hook) sl_run_device_hook(SL_RUN_DEV_OPEN, coll);
  sl_err err = SL_ERR_INIT;
  if (coll && !o->stall_collector && sl_collector_start(coll, &err) != SL_OK) {
    sl_rt_destroy(rt);
    sl_collector_destroy(coll);
    return sl_err_report(&err);
  }
  if (sl_run_device_hook) sl_run_device_hook(SL_RUN_DEV_SCHED, coll);
  struct timespec h0, h1;
  clock_gettime(CLOCK_MONOTONIC, &h0);
  sl_ticker *tick = sl_ticker_start(!o->quiet, run_progress_line, rt);
  int orc = sl_rt_run(rt, sl_run_orchestrate, &ctx);
  sl_ticker_stop(tick);
  clock_gettime(CLOCK_MONOTONIC, &h1);
  if (sl_run_device_hook) sl_run_device_hook(SL_RUN_DEV_CLOSE, coll);
  g_rt = NULL;
  sl_rt_timing timing = sl_rt_get_timing(rt);
  sl_run_slots_add(slots, &timing);
  int interrupted = sl_rt_interrupted(rt) || g_sigint;
  /* HBG stops the device the same way after an orchestration error: report the error */
  if (interrupted && !g_sigint && orc && o->runtime == SL_RT_HBG && strcmp(sl_rt_last_error(rt), "interrupted"))
    interrupted = 0;
  if (orc && !interrupted) {
    sl_error(wl->path, "%s", ctx.err[0] ? ctx.err : sl_rt_last_error(rt));
    if (coll) sl_error(wl->path, "the capture holds what ran before the error and is marked truncated");
    rc = 1;
  }
  if (coll) {
    /* an orchestration that stopped early leaves a capture of part of the workload */
    if (interrupted || orc) sl_collector_mark_truncated(coll);
    sl_run_add_host_capture(coll, rt, o->runtime, o->pool_records);
    if (sl_run_slots_to_capture(coll, &timing)) rc = 1;
    if (sl_collector_finish(coll, out_dir)) rc = 1;
    sl_collector_report(coll);
  }
  g_coll = NULL;
  if (out_dir && write_round_files(o, wl, rt, case_name, out_dir, &timing)) rc = 1;
  print_round(o, wl, rt, case_name, &timing,
              (double)(h1.tv_sec - h0.tv_sec) * 1e6 + (double)(h1.tv_nsec - h0.tv_nsec) / 1e3, round);
  if (interrupted) {
    sl_error(wl->path, "interrupted: the capture holds what was collected and is marked truncated");
    rc = 128 + (g_sigint ? (int)g_sigint : SIGINT);
  } else if (rc == 0 && sl_run_check(&ctx)) {
    sl_error(wl->path, "result check failed: %s", ctx.err);
    rc = 1;
  }
  sl_rt_destroy(rt);
  sl_collector_destroy(coll);
  return rc;
}

sl_run_dev_hook_fn sl_run_device_hook;

/* The reference converts a capture as soon as it completes; so do we, with convert's
** own defaults (sibling deps.json and name map, merged_swimlane.json beside them). */
static int convert_capture(const char *out_dir, int quiet) {
  char *rec = sl_path_join(out_dir, "chip_swimlane_records.json");
  char *argv[] = {(char *)"convert", rec, quiet ? (char *)"-q" : NULL, NULL};
  fflush(stdout);
  int rc = sl_run_convert(quiet ? 3 : 2, argv);
  sl_mem_free(rec);
  return rc == 0 ? 0 : 1;
}

/* The single-chip run, once the L3 hand-over is ruled out. */
static int run_single(run_opts o) {
  if (o.l3.dispatches || o.l3.hosts || o.l3.rate_error_ppm >= 0 || o.l3.host_drift_ppm >= 0)
    return sl_opt_usage_error("run", "--dispatches, --hosts and the ppm bounds need --ranks N");
  const struct sl_platform_info *plat = sl_platform_by_name(o.platform);
  if (!plat || !plat->is_sim) { /* run simulates the chip: a simulated platform only */
    char names[256];
    return sl_opt_usage_error("run", "unknown platform '%s' (%s)", o.platform, sl_platform_names(names, sizeof names, 1));
  }
  if (o.aic + o.aiv < 1 || o.aic + o.aiv > (int)plat->max_cores) {
    return sl_opt_usage_error("run", "%d AIC + %d AIV cores do not fit %s (1..%d cores)", o.aic, o.aiv, o.platform,
                              (int)plat->max_cores);
  }
  if (o.sched + 1 > (int)plat->max_aicpu_threads) {
    return sl_opt_usage_error("run", "%d scheduler threads + 1 orchestrator exceed %s's %d AICPU threads", o.sched,
                              o.platform, (int)plat->max_aicpu_threads);
  }
  int level = o.level;
  if (o.rounds > 1 && level > SL_LEVEL_DISABLED) {
    fprintf(stderr, "swimlane: run: --rounds %d > 1: chip swimlane capture disabled\n", o.rounds);
    level = SL_LEVEL_DISABLED;
  }
  sl_workload wl;
  if (sl_workload_load(&wl, o.workload)) {
    sl_workload_free(&wl);
    return 1;
  }
  if (!(wl.runtimes & (1u << o.runtime))) {
    sl_error(wl.path, "run: this workload does not support --runtime %s (its 'runtimes' list)",
             o.runtime == SL_RT_HBG ? "hbg" : "tmr");
    sl_workload_free(&wl);
    return 1;
  }
  /* --case accepts "Class::Case" too (the L0 tool's spelling) */
  if (o.case_name && strstr(o.case_name, "::")) {
    const char *sep = strstr(o.case_name, "::");
    if ((size_t)(sep - o.case_name) != strlen(wl.klass) || strncmp(o.case_name, wl.klass, strlen(wl.klass))) {
      sl_error(wl.path, "--case %s names class '%.*s', the workload's class is '%s'", o.case_name,
               (int)(sep - o.case_name), o.case_name, wl.klass);
      sl_workload_free(&wl);
      return 1;
    }
    o.case_name = sep + 2;
  }
  char case_name[128];
  int case_idx = sl_workload_case(&wl, o.case_name, o.platform, case_name, sizeof case_name);
  if (!case_idx) {
    sl_workload_free(&wl);
    return 1;
  }
  /* Installed before the output directory exists, so once it does a SIGINT is ours. */
  struct sigaction sa, old, old_term;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  g_sigint = 0;
  sigaction(SIGINT, &sa, &old);
  sigaction(SIGTERM, &sa, &old_term);
  int want_dir = level > SL_LEVEL_DISABLED || o.dep_gen || o.dump_args;
  char *out_dir = want_dir ? make_out_dir(o.out_root, wl.klass, case_name) : NULL;
  if (want_dir && !out_dir) {
    sigaction(SIGINT, &old, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sl_workload_free(&wl);
    return 1;
  }
  if (out_dir) sl_lua_set_write_dir(o.out_root); /* user Lua may write under -o only */
  int rc = 0;
  sl_run_slots slots;
  memset(&slots, 0, sizeof slots);
  for (int r = 0; r < o.rounds && rc == 0 && !g_sigint; r++)
    rc = run_round(&o, &wl, case_idx, case_name, plat, level, r == 0 ? out_dir : NULL, r, &slots);
  if (!o.quiet) sl_run_slots_print(&slots, o.rounds);
  sl_run_slots_free(&slots);
  sigaction(SIGINT, &old, NULL);
  sigaction(SIGTERM, &old_term, NULL);
  if (g_sigint && rc == 0) rc = 128 + (int)g_sigint;
  if (out_dir && !o.quiet) printf("swimlane: outputs in %s\n", out_dir);
  if (rc == 0 && level > SL_LEVEL_DISABLED && out_dir && !o.no_convert && sl_run_convert) rc = convert_capture(out_dir, o.quiet);
  sl_mem_free(out_dir);
  sl_workload_free(&wl);
  return rc;
}

int sl_cmd_run(int argc, char **argv) {
  run_opts o;
  int done, rc = parse_opts(argc, argv, &o, &done);
  if (done) return rc;
  if (o.list) return sl_run_list(stdout);
  /* --ranks N, or one rank of such a run: host/l3 takes over with the parsed request
  ** and the user's options to pass on to its rank processes (every value its own argument) */
  sl_l3_request *req = &o.l3;
  req->workload = o.workload, req->case_name = o.case_name, req->platform = o.platform;
  req->out_root = o.out_root, req->quiet = o.quiet, req->no_convert = o.no_convert;
  req->argv = sl_opt_split_values(run_table, argc, argv, &req->argc);
  rc = sl_l3_run_maybe(req, &(sl_run_entry){.run = sl_cmd_run, .device_hook = &sl_run_device_hook,
                                            .convert = sl_run_convert});
  sl_mem_free(req->argv);
  req->argv = NULL;
  return rc < 0 ? run_single(o) : rc;
}
