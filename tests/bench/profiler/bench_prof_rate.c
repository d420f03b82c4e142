/*
** bench_prof_rate.c — benchmark (c): the highest sustained record rate the
** collector absorbs with zero drops at the default (platform) pool sizes.
**
** Producers at a fixed target rate against the real collector threads, for a
** fixed window per step, without back-pressure (so an overrun shows up as
** drops). Each scheduler thread round-robins over its cores; one task =
** an AICore record (dispatch + reserve + commit + ack), an AICPU task record
** and one scheduler phase record; the orchestrator adds one submit record per
** task. The rate rises by 1.5x per step until records drop or the producers
** themselves cannot reach the target; the last clean step is the answer.
**
**   bench_prof_rate [platform] [sched_threads] [cores_per_thread] [window_ms]
*/
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sl_collector.h"
#include "sl_phases.h"
#include "sl_platforms.h"

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct step {
  sl_devprof *dp;
  int thread, first_core, ncores, orch;
  double rate;        /* tasks per second for this thread */
  double t0, window;
  uint64_t tasks;     /* done */
} step;

static void *producer(void *p) {
  step *s = p;
  uint64_t k = 0;
  sl_aicore_cursor cur[64];
  for (int i = 0; i < s->ncores && i < 64; i++) sl_aicore_cursor_init(&cur[i]);
  uint32_t token = 0;
  for (;;) {
    double due = s->t0 + (double)k / s->rate;
    double t = now_s();
    if (t - s->t0 >= s->window) break;
    if (t < due) {
      /* ahead of schedule: sleep rather than spin, the host threads share the CPUs */
      if (due - t > 200e-6) {
        struct timespec ts = {0, (long)((due - t - 100e-6) * 1e9)};
        nanosleep(&ts, NULL);
      } else {
        sched_yield();
      }
      continue;
    }
    if (s->orch) {
      sl_devprof_orch_submit(s->dp, k, k + 3, k, (uint32_t)k);
    } else {
      int c = (int)(k % (uint64_t)s->ncores);
      if (c == 0) token++;
      int core = s->first_core + c;
      sl_devprof_on_dispatch(s->dp, core, s->thread, token);
      sl_aicore_task_record *r = sl_devprof_aicore_reserve(s->dp, core, &cur[c]);
      sl_devprof_aicore_commit(r, k, k + 5, k, token, 1);
      sl_devprof_on_ack(s->dp, core, s->thread, token);
      sl_devprof_complete_task(s->dp, core, s->thread, token, k, k + 9);
      sl_devprof_sched_phase(s->dp, s->thread, SL_PHASE_COMPLETE, k, k + 2, (uint32_t)k, 1, 0, 0, NULL, NULL);
    }
    k++;
  }
  if (s->orch) {
    sl_devprof_flush_orch(s->dp);
  } else {
    int cores[64];
    for (int i = 0; i < s->ncores && i < 64; i++) cores[i] = s->first_core + i;
    sl_devprof_flush_scheduler(s->dp, s->thread, cores, s->ncores);
  }
  s->tasks = k;
  return NULL;
}

typedef struct result {
  double achieved;   /* records / s actually produced */
  uint64_t records, dropped;
  uint64_t sleeps, host_cpu_ns; /* the collector's host threads: how often they slept, CPU */
  int balanced;
} result;

static result run_step(const sl_platform_info *plat, int nsched, int cpt, double task_rate, double window) {
  int ncores = nsched * cpt;
  unsigned char types[256];
  for (int i = 0; i < ncores; i++) types[i] = i < ncores / 3 ? SL_CORE_AIC : SL_CORE_AIV;
  sl_collector_config cfg;
  sl_collector_config_init(&cfg, plat);
  cfg.level = 4;
  cfg.num_cores = ncores;
  cfg.core_types = types;
  cfg.num_aicpu_threads = nsched + 1;
  sl_collector *c = sl_collector_create(&cfg);
  if (!c || sl_collector_start(c, NULL) != SL_OK) exit(1);
  sl_devprof *dp = sl_collector_device(c);
  step st[65];
  pthread_t tid[65];
  double t0 = now_s() + 0.01;
  for (int t = 0; t <= nsched; t++) {
    st[t] = (step){dp, t, t * cpt, cpt, t == nsched, task_rate / nsched, t0, window, 0};
    if (t == nsched) st[t].rate = task_rate; /* one submit per task */
    pthread_create(&tid[t], NULL, producer, &st[t]);
  }
  for (int t = 0; t <= nsched; t++) pthread_join(tid[t], NULL);
  sl_collector_stop(c);
  result r = {0, 0, 0, 0, 0, 0};
  r.balanced = sl_collector_reconcile(c) == 0;
  for (unsigned k = 0; k < SL_BUF_KIND_COUNT; k++) {
    sl_pool_account a = sl_collector_account(c, k);
    r.records += a.total;
    r.dropped += a.dropped;
  }
  r.achieved = (double)r.records / window;
  sl_collector_host_stats(c, &r.host_cpu_ns, &r.sleeps);
  sl_collector_destroy(c);
  return r;
}

int main(int argc, char **argv) {
  const char *pname = argc > 1 ? argv[1] : "a2a3sim";
  int nsched = argc > 2 ? atoi(argv[2]) : 2;
  int cpt = argc > 3 ? atoi(argv[3]) : 3;
  double window = (argc > 4 ? atof(argv[4]) : 400.0) / 1000.0;
  const sl_platform_info *plat = sl_platform_by_name(pname);
  if (!plat || nsched < 1 || nsched > 64 || cpt < 1 || cpt > 64) {
    fprintf(stderr, "usage: bench_prof_rate [a2a3sim|a5sim] [sched_threads 1..64] [cores_per_thread 1..64] [window_ms]\n");
    return 2;
  }
  printf("benchmark (c): sustained record rate with zero drops, %s default pools, %d schedulers x %d cores + "
         "orchestrator, %.0f ms per step\n",
         pname, nsched, cpt, window * 1e3);
  printf("  %14s %14s %12s %10s %12s %12s\n", "target rec/s", "achieved rec/s", "records", "dropped", "host sleeps",
         "host CPU ms");
  double best = 0, rate = 12500; /* tasks/s; 4 records per task */
  const char *why = "rate cap reached";
  for (int i = 0; i < 30; i++, rate *= 1.5) {
    result r = run_step(plat, nsched, cpt, rate, window);
    printf("  %14.0f %14.0f %12llu %10llu %12llu %12.1f%s\n", rate * 4, r.achieved, (unsigned long long)r.records,
           (unsigned long long)r.dropped, (unsigned long long)r.sleeps, (double)r.host_cpu_ns / 1e6,
           r.balanced || r.dropped ? "" : "  (unbalanced!)");
    fflush(stdout);
    if (r.dropped) {
      why = "records dropped";
      break;
    }
    if (r.achieved < 0.8 * rate * 4) {
      why = "producers could not reach the target rate (producer-bound)";
      best = r.achieved > best ? r.achieved : best;
      break;
    }
    best = r.achieved;
  }
  printf("highest sustained zero-drop rate: %.0f records/s (sweep ended: %s)\n", best, why);
  return 0;
}
