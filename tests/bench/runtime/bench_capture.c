/*
** bench_capture.c — benchmark (b): a 100k-task workload run at level 4 and at level
** 0 on the same machine in one process, alternating, printing the overhead ratio of
** the run windows (collector start -> threads start -> all joined -> collector stop;
** pool allocation and file export excluded): median and minimum of each (the minimum is the better estimate
** on a shared machine, where other processes only ever add time), and the CPU time the
** collector's host threads used. No thresholds: it reports, it does not judge.
** It also prints the process CPU time (user + system, every thread) of the same
** windows: on a machine shared with other work the wall time of a run mostly
** measures the neighbours, while the CPU the run itself burned does not.
**
**   bench_capture [tasks=100000] [rounds=5] [chains=64] [bp|nobp] [level=4]
**
** `level` (1..4) is the profiled level compared with level 0 (what each level costs).
** `bp` runs level 4 with the collector's block-on-contention back-pressure, so the
** capture is complete (zero drops) and any host slowness shows up as time instead.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sl_collector.h"
#ifdef SL_BENCH_NOOP_DEVPROF
/* bench_hooks: level 4 through hooks that do nothing, no collector */
sl_devprof *noop_devprof(void);
#define sl_collector_create(cfg) ((sl_collector *)NULL)
#define sl_collector_start(c, err) SL_OK
#define sl_collector_device(c) noop_devprof()
#define sl_collector_stop(c) ((void)(c))
#define sl_collector_reconcile(c) ((void)(c))
#define sl_collector_destroy(c) ((void)(c))
#define sl_collector_host_stats(c, cpu, sleeps) (*(cpu) = 0, *(sleeps) = 0)
#endif
#include "sl_platforms.h"
#include "sl_runtime.h"

typedef struct bench {
  int tasks, chains;
  sl_rt_buffer **cnt;
} bench;

static int orch(void *p, sl_rt *rt) {
  bench *b = p;
  b->cnt = calloc((size_t)b->chains, sizeof *b->cnt);
  for (int c = 0; c < b->chains; c++) b->cnt[c] = sl_rt_buffer_new(rt, 8);
  sl_arg_dir dir = SL_ARG_INOUT;
  sl_rt_scalar iters = {1, 7};
  sl_kernel_fn spin = sl_kernel_find("spin");
  for (int i = 0; i < b->tasks; i++) {
    sl_rt_tensor t;
    memset(&t, 0, sizeof t);
    t.buf = b->cnt[i % b->chains];
    t.dtype = 7;
    t.ndims = 1;
    t.shape[0] = 1;
    t.strides[0] = 1;
    sl_rt_submit s;
    memset(&s, 0, sizeof s);
    s.kernel_ids[0] = s.kernel_ids[2] = -1;
    s.kernel_ids[1] = 0;
    s.fns[1] = spin;
    s.tensors = &t;
    s.dirs = &dir;
    s.ntensors = 1;
    s.scalars = &iters;
    s.nscalars = 1;
    s.block_num = 1;
    s.predicate = 1;
    if (sl_rt_submit_task(rt, &s) == UINT64_MAX) return -1;
  }
  return 0;
}

/* Process CPU seconds (all threads: device, runtime and collector). */
static double cpu_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One run; returns its window in seconds, < 0 on failure. */
static int g_backpressure;

static uint64_t g_host_cpu_ns, g_host_sleeps; /* collector threads, summed over level-4 runs */
static double g_cpu; /* process CPU seconds of the last run's window */
#ifndef SL_BENCH_NOOP_DEVPROF
static uint64_t g_records[4], g_profiled_tasks; /* records by buffer kind over the profiled runs */
#endif

static double run_once(unsigned level, int tasks, int chains, uint64_t *dropped) {
  const sl_platform_info *plat = sl_platform_by_name("a2a3sim");
  unsigned char types[6] = {SL_CORE_AIC, SL_CORE_AIC, SL_CORE_AIV, SL_CORE_AIV, SL_CORE_AIV, SL_CORE_AIV};
  sl_collector *coll = NULL;
  sl_devprof *dp = NULL;
  if (level) {
    sl_collector_config cc;
    sl_collector_config_init(&cc, plat);
    cc.level = level;
    cc.num_cores = 6;
    cc.core_types = types;
    cc.num_aicpu_threads = 3;
    cc.backpressure = g_backpressure;
    coll = sl_collector_create(&cc); /* pool allocation is setup: outside the window */
#ifndef SL_BENCH_NOOP_DEVPROF
    if (!coll) return -1;
#endif
    dp = sl_collector_device(coll);
  }
  sl_rt_config cfg = {plat->clock_freq_hz, 2, 4, 2, level, dp, 0, 0, 0, SL_RT_TMR, 0, NULL, 0};
  sl_rt *rt = sl_rt_create(&cfg);
  double t0 = now_s(), c0 = cpu_s();
#ifndef SL_BENCH_NOOP_DEVPROF
  if (coll && sl_collector_start(coll, NULL) != SL_OK) return -1;
#endif
  bench b = {tasks, chains, NULL};
  int rc = rt ? sl_rt_run(rt, orch, &b) : -1;
  if (coll) {
    sl_collector_stop(coll);
    sl_collector_reconcile(coll);
  }
  double dt = now_s() - t0;
  g_cpu = cpu_s() - c0;
  if (coll) {
    uint64_t cpu = 0, sleeps = 0;
    sl_collector_host_stats(coll, &cpu, &sleeps);
    g_host_cpu_ns += cpu;
    g_host_sleeps += sleeps;
  }
  /* the result is real: every counter holds its chain's task count */
  for (int c = 0; rc == 0 && c < chains; c++) {
    int64_t want = tasks / chains + (c < tasks % chains);
    if (*(int64_t *)b.cnt[c]->data != want) rc = -1;
  }
#ifndef SL_BENCH_NOOP_DEVPROF
  if (coll) {
    for (unsigned k = 0; k < 4; k++) {
      *dropped += sl_collector_account(coll, k).dropped;
      g_records[k] += sl_collector_account(coll, k).total;
    }
    g_profiled_tasks += (uint64_t)tasks;
  }
#endif
  free(b.cnt);
  sl_rt_destroy(rt);
  sl_collector_destroy(coll);
  return rc ? -1 : dt;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  int tasks = argc > 1 ? atoi(argv[1]) : 100000, rounds = argc > 2 ? atoi(argv[2]) : 5,
      chains = argc > 3 ? atoi(argv[3]) : 64;
  g_backpressure = argc > 4 && !strcmp(argv[4], "bp");
  unsigned level = argc > 5 ? (unsigned)atoi(argv[5]) : 4;
  if (tasks < 1 || rounds < 1 || rounds > 50 || chains < 1 || level < 1 || level > 4) {
    fprintf(stderr, "usage: bench_capture [tasks] [rounds<=50] [chains] [bp|nobp] [level 1..4]\n");
    return 2;
  }
  double l0[50], l4[50], c0[50], c4[50];
  uint64_t dropped = 0;
  run_once(0, tasks / 10 + 1, chains, &dropped); /* warm-up */
  for (int r = 0; r < rounds; r++) {
    l0[r] = run_once(0, tasks, chains, &dropped);
    c0[r] = g_cpu;
    l4[r] = run_once(level, tasks, chains, &dropped);
    c4[r] = g_cpu;
    if (l0[r] < 0 || l4[r] < 0) {
      fprintf(stderr, "bench_capture: a run failed\n");
      return 1;
    }
  }
  double cr[50]; /* per-round CPU ratio: both runs of a round saw the same neighbours */
  for (int r = 0; r < rounds; r++) cr[r] = c0[r] > 0 ? c4[r] / c0[r] : 0;
  qsort(cr, (size_t)rounds, sizeof *cr, cmp);
  qsort(c0, (size_t)rounds, sizeof *c0, cmp);
  qsort(c4, (size_t)rounds, sizeof *c4, cmp);
  qsort(l0, (size_t)rounds, sizeof *l0, cmp);
  qsort(l4, (size_t)rounds, sizeof *l4, cmp);
  double m0 = l0[rounds / 2], m4 = l4[rounds / 2];
#ifdef SL_BENCH_NOOP_DEVPROF
  printf("bench_hooks (level 4 hooks are no-ops, no collector): ");
#endif
  printf("bench_capture: %d tasks, %d chains, 2 AIC + 4 AIV, 2 sched + 1 orch, %d rounds%s\n", tasks, chains,
         rounds, g_backpressure ? ", profiled level with back-pressure" : "");
  printf("  level 0: median %.3f s, min %.3f s (%.2f us/task)\n", m0, l0[0], l0[0] * 1e6 / tasks);
  printf("  level %u: median %.3f s, min %.3f s (%.2f us/task), records dropped: %llu\n", level, m4, l4[0],
         l4[0] * 1e6 / tasks, (unsigned long long)dropped);
  printf("  overhead ratio level%u/level0: median %.3f, min %.3f\n", level, m4 / m0, l4[0] / l0[0]);
  printf("  process CPU: level 0 median %.3f s, level %u median %.3f s (+%.2f us/task); CPU ratio per round: "
         "median %.3f, range %.3f-%.3f\n", c0[rounds / 2], level, c4[rounds / 2],
         (c4[rounds / 2] - c0[rounds / 2]) * 1e6 / tasks, cr[rounds / 2], cr[0], cr[rounds - 1]);
#ifndef SL_BENCH_NOOP_DEVPROF
  double sum4 = 0;
  for (int r = 0; r < rounds; r++) sum4 += l4[r];
  double pt = g_profiled_tasks ? (double)g_profiled_tasks : 1;
  printf("  records per task: AICore %.2f, AICPU task %.2f, scheduler phase %.2f, orchestrator %.2f\n",
         (double)g_records[SL_BUF_AICORE_TASK] / pt, (double)g_records[SL_BUF_AICPU_TASK] / pt,
         (double)g_records[SL_BUF_SCHED_PHASE] / pt, (double)g_records[SL_BUF_ORCH_PHASE] / pt);
  printf("  collector host threads per level-%u run: %.1f ms CPU (%.1f%% of the run window), %.0f sleeps\n", level,
         (double)g_host_cpu_ns / 1e6 / rounds, (double)g_host_cpu_ns / 1e7 / sum4, (double)g_host_sleeps / rounds);
#endif
  return 0;
}
