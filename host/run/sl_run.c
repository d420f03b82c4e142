/*
** sl_run.c — `swimlane run WORKLOAD`: parse the options, load the workload, build
** the simulated chip and the collector, run, check the results, and write the
** output directory <out>/<Class>_<Case>_<YYYYMMDD_HHMMSS>/.
*/
#include <errno.h>
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
#include "sl_platforms.h"
#include "sl_run_internal.h"
#include "sl_ticker.h"

typedef struct run_opts {
  const char *workload, *case_name, *platform, *out_root;
  int level, dep_gen, dump_args, rounds;
  int aic, aiv, sched, ring;
  int quiet, backpressure;
  int no_convert, list;
  int runtime, clock_anchors;  /* SL_RT_TMR / SL_RT_HBG; --clock-anchors */
  int virtual_clock;           /* --clock virtual */
  int pool_records;            /* --pool-records N: one fixed N-record buffer per pool (0 = defaults) */
  int stall_collector;         /* --stall-collector: the host drains nothing until the run ends */
} run_opts;

/* Set by the CLI when `convert` is built in: the capture is converted when it completes. */
int (*sl_run_convert)(int argc, char **argv);

/* The platform's virtual-clock latencies (schema/platforms.lua vclock_*). */
static sl_vclock_model sl_run_vclock_model(const sl_platform_info *p) {
  sl_vclock_model m = {p->vclock_poll_cycles,        p->vclock_read_cycles,  p->vclock_dispatch_cycles,
                       p->vclock_receive_cycles,     p->vclock_fin_cycles,   p->vclock_pop_cycles,
                       p->vclock_submit_cycles,      p->vclock_kernel_base_cycles,
                       p->vclock_kernel_instr_cycles, p->vclock_work_per_cycle};
  return m;
}

static void usage(FILE *f) {
  char plats[128];
  sl_platform_names(plats, sizeof plats, 1);
  fputs("usage: swimlane run WORKLOAD [--case NAME] [--platform NAME]\n"
        "                    [--enable-chip-swimlane [0-4]] [--enable-dep-gen] [--dump-args 0-3]\n"
        "                    [--rounds N] [-o DIR] [--aic N] [--aiv N] [--sched-threads N]\n"
        "                    [--full-chip] [--ring N] [--backpressure] [--clock wall|virtual]\n"
        "                    [--no-convert] [-q] [--runtime tmr|hbg] [--clock-anchors]\n"
        "                    [--pool-records N] [--stall-collector]\n"
        "       swimlane run WORKLOAD --ranks N [--dispatches K] [--rate-error-ppm P]\n"
        "                    [--hosts H] [--host-drift-ppm D] [the options above]\n"
        "       swimlane run --list\n"
        "\nWORKLOAD is a name under lua/workloads/ (mixed_example) or a path to a .lua file.\n"
        "A bare --enable-chip-swimlane means level 4; --rounds above 1 disables capture.\n"
        "A completed capture is converted to merged_swimlane.json beside the records\n"
        "(--no-convert skips it). --list prints the workloads, their cases and the platforms.\n"
        "--ranks N: an L3 run, one process per chip plus the L3 scheduler, merged into\n"
        "<case dir>/l3_swimlane.json (docs/l3.md).\n",
        f);
  fprintf(f, "Platforms: %s (default %s).\n", plats, sl_platform_default_sim());
  fputs(
        "Defaults: 2 AIC + 4 AIV, 2 scheduler threads + 1 orchestrator; --full-chip = 24 AIC + 48 AIV,\n"
        "3 scheduler threads. --clock virtual: deterministic simulated device time (docs/run.md).\n"
        "Drop-path testing: --pool-records N gives every profiler pool one fixed buffer of N records;\n"
        "--stall-collector starts no host drain until the run ends, so what does not fit is dropped.\n",
        f);
}

/* Parse a whole decimal integer in [lo, hi]; -1 on anything else. */
static int parse_int(const char *s, long lo, long hi, long *out) {
  if (!s || !*s) return -1;
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (*end || errno || v < lo || v > hi) return -1;
  *out = v;
  return 0;
}

static int parse_opts(int argc, char **argv, run_opts *o) {
  *o = (run_opts){.platform = sl_platform_default_sim(), .out_root = "outputs", .rounds = 1, .aic = 2, .aiv = 4,
                  .sched = 2, .runtime = SL_RT_TMR};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    long v;
#define NEED_VALUE()                                                   \
  do {                                                                 \
    if (i + 1 >= argc) {                                               \
      sl_error(NULL, "run: option %s needs a value", a);               \
      return 2;                                                        \
    }                                                                  \
  } while (0)
#define INT_OPT(name, lo, hi, dst)                                                    \
  if (!strcmp(a, name)) {                                                             \
    NEED_VALUE();                                                                     \
    if (parse_int(argv[++i], lo, hi, &v)) {                                           \
      sl_error(NULL, "run: %s expects an integer in %d..%d, got '%s'", name, lo, hi, argv[i]); \
      return 2;                                                                       \
    }                                                                                 \
    dst = (int)v;                                                                     \
    continue;                                                                         \
  }
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 1;
    }
    if (!strncmp(a, "--enable-chip-swimlane", 22)) {
      const char *val = a[22] == '=' ? a + 23 : NULL;
      if (a[22] && a[22] != '=') {
        sl_error(NULL, "run: unknown option '%s'", a);
        return 2;
      }
      if (!val && i + 1 < argc && argv[i + 1][0] != '-' && parse_int(argv[i + 1], -1000000, 1000000, &v) == 0)
        val = argv[++i];
      if (!val) {
        o->level = SL_LEVEL_MAX;
        continue;
      }
      if (parse_int(val, SL_LEVEL_DISABLED, SL_LEVEL_MAX, &v)) {
        sl_error(NULL, "run: bad chip swimlane level '%s' (expected %d..%d)", val, SL_LEVEL_DISABLED,
                 (int)SL_LEVEL_MAX);
        return 2;
      }
      o->level = (int)v;
      continue;
    }
    if (!strcmp(a, "--no-convert")) {
      o->no_convert = 1;
      continue;
    }
    if (!strcmp(a, "--list")) {
      o->list = 1;
      continue;
    }
    if (!strcmp(a, "--enable-dep-gen")) {
      o->dep_gen = 1;
      continue;
    }
    if (!strcmp(a, "-q")) {
      o->quiet = 1;
      continue;
    }
    if (!strcmp(a, "--backpressure")) {
      o->backpressure = 1;
      continue;
    }
    if (!strcmp(a, "--clock-anchors")) {
      o->clock_anchors = 1;
      continue;
    }
    if (!strcmp(a, "--runtime")) {
      NEED_VALUE();
      const char *r = argv[++i];
      if (strcmp(r, "tmr") && strcmp(r, "hbg")) {
        sl_error(NULL, "run: --runtime expects tmr or hbg, got '%s'", r);
        return 2;
      }
      o->runtime = strcmp(r, "hbg") ? SL_RT_TMR : SL_RT_HBG;
      continue;
    }
    if (!strcmp(a, "--full-chip")) {
      o->aic = 24;
      o->aiv = 48;
      o->sched = 3;
      continue;
    }
    INT_OPT("--dump-args", 0, 3, o->dump_args)
    INT_OPT("--rounds", 1, 1000000, o->rounds)
    INT_OPT("--aic", 0, 108, o->aic)
    INT_OPT("--aiv", 0, 108, o->aiv)
    INT_OPT("--sched-threads", 1, 8, o->sched)
    INT_OPT("--ring", 1, 1 << 24, o->ring)
    INT_OPT("--pool-records", 1, 1 << 20, o->pool_records)
    if (!strcmp(a, "--stall-collector")) {
      o->stall_collector = 1;
      continue;
    }
    if (!strcmp(a, "--clock") || !strncmp(a, "--clock=", 8)) {
      const char *val = a[7] == '=' ? a + 8 : NULL;
      if (!val) {
        NEED_VALUE();
        val = argv[++i];
      }
      if (strcmp(val, "wall") && strcmp(val, "virtual")) {
        sl_error(NULL, "run: --clock expects 'wall' or 'virtual', got '%s'", val);
        return 2;
      }
      o->virtual_clock = !strcmp(val, "virtual");
      continue;
    }
    if (!strcmp(a, "--case")) {
      NEED_VALUE();
      o->case_name = argv[++i];
      continue;
    }
    if (!strcmp(a, "--platform") || !strcmp(a, "-p")) {
      NEED_VALUE();
      o->platform = argv[++i];
      continue;
    }
    if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
      NEED_VALUE();
      o->out_root = argv[++i];
      continue;
    }
    if (a[0] == '-') {
      sl_error(NULL, "run: unknown option '%s'", a);
      return 2;
    }
    if (o->workload) {
      sl_error(NULL, "run: more than one workload given ('%s' and '%s')", o->workload, a);
      return 2;
    }
    o->workload = a;
  }
  if (!o->workload && !o->list) {
    usage(stderr);
    return 2;
  }
  if (o->stall_collector && o->backpressure) { /* a blocked producer would wait for a host that never drains */
    sl_error(NULL, "run: --stall-collector cannot be combined with --backpressure");
    return 2;
  }
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
    if (!dir) return NULL;
    if (mkdir(dir, 0777) == 0) return dir;
    int e = errno;
    if (e != EEXIST) {
      sl_error(dir, "cannot create output directory: %s", strerror(e));
      free(dir);
      return NULL;
    }
    free(dir);
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
    sl_collector_config cc;
    sl_collector_config_init(&cc, plat);
    cc.platform_name = o->platform;
    cc.level = (unsigned)level;
    cc.num_cores = ncores;
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
    coll = sl_collector_create(&cc);
    if (!coll) return 1;
    dp = sl_collector_device(coll);
  }
  sl_vclock_model vm = sl_run_vclock_model(plat);
  sl_rt_config rc_cfg = {plat->clock_freq_hz, o->aic, o->aiv, o->sched, (unsigned)level, dp, o->ring,
                         o->dep_gen, o->dump_args, o->runtime, o->clock_anchors && level > SL_LEVEL_DISABLED,
                         o->virtual_clock ? &vm : NULL, level > SL_LEVEL_DISABLED ? o->pool_records : 0};
  sl_rt *rt = sl_rt_create(&rc_cfg);
  if (!rt) {
    sl_error(wl->path, "run: %s", sl_rt_config_error()[0] ? sl_rt_config_error() : "out of memory");
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
  if (coll && !o->stall_collector && sl_collector_start(coll)) {
    sl_rt_destroy(rt);
    sl_collector_destroy(coll);
    return 1;
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
    rc = 1;
  }
  if (coll) {
    if (interrupted) sl_collector_mark_truncated(coll);
    if (sl_run_add_host_capture(coll, rt, o->runtime, o->pool_records)) rc = 1;
    if (sl_run_slots_to_capture(coll, &timing)) rc = 1;
    if (sl_collector_finish(coll, out_dir)) rc = 1;
  }
  g_coll = NULL;
  if (out_dir) {
    char name[300];
    snprintf(name, sizeof name, "name_map_%s.json", case_name);
    char *p = sl_path_join(out_dir, name);
    if (!p || sl_write_name_map(wl, p)) rc = 1;
    free(p);
    if (o->dep_gen) {
      p = sl_path_join(out_dir, "deps.json");
      if (!p || sl_write_deps_json(rt, p)) rc = 1;
      free(p);
    }
    if (o->dump_args) {
      p = sl_path_join(out_dir, "args_dump");
      if (!p || sl_write_args_dump(rt, o->dump_args, p)) rc = 1;
      free(p);
    }
    if (sl_run_write_device_log(&timing, out_dir)) rc = 1;
  }
  sl_rt_stats st = sl_rt_get_stats(rt);
  if (!o->quiet)
    printf("swimlane: %s/%s on %s: %llu tasks (%llu kernel, %llu dummy, %llu predicated off, %llu alloc), "
           "%llu dispatches\n",
           wl->klass, case_name, o->platform, (unsigned long long)st.tasks, (unsigned long long)st.kernel_tasks,
           (unsigned long long)st.dummy_tasks, (unsigned long long)st.skipped_tasks,
           (unsigned long long)st.alloc_tasks, (unsigned long long)st.dispatches);
  if (!o->quiet)
    sl_run_print_timing(&timing, rt, (double)(h1.tv_sec - h0.tv_sec) * 1e6 + (double)(h1.tv_nsec - h0.tv_nsec) / 1e3,
                        round, o->rounds);
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
  if (!rec) return 1;
  char *argv[] = {"convert", rec, quiet ? "-q" : NULL, NULL};
  fflush(stdout);
  int rc = sl_run_convert(quiet ? 3 : 2, argv);
  free(rec);
  return rc == 0 ? 0 : 1;
}

int sl_cmd_run(int argc, char **argv) {
  /* --ranks N, or one rank of such a run */
  int l3 = sl_l3_run_maybe(argc, argv, &(sl_run_entry){.run = sl_cmd_run, .device_hook = &sl_run_device_hook, .convert = sl_run_convert});
  if (l3 >= 0) return l3;
  run_opts o;
  int prc = parse_opts(argc, argv, &o);
  if (prc) return prc == 1 ? 0 : prc;
  if (o.list) return sl_run_list(stdout);
  const struct sl_platform_info *plat = sl_platform_by_name(o.platform);
  if (!plat || !plat->is_sim) { /* run simulates the chip: a simulated platform only */
    char names[256];
    sl_error(NULL, "run: unknown platform '%s' (%s)", o.platform, sl_platform_names(names, sizeof names, 1));
    return 2;
  }
  if (o.aic + o.aiv < 1 || o.aic + o.aiv > (int)plat->max_cores) {
    sl_error(NULL, "run: %d AIC + %d AIV cores do not fit %s (1..%d cores)", o.aic, o.aiv, o.platform,
             (int)plat->max_cores);
    return 2;
  }
  if (o.sched + 1 > (int)plat->max_aicpu_threads) {
    sl_error(NULL, "run: %d scheduler threads + 1 orchestrator exceed %s's %d AICPU threads", o.sched,
             o.platform, (int)plat->max_aicpu_threads);
    return 2;
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
  free(out_dir);
  sl_workload_free(&wl);
  return rc;
}
