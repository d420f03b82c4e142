/*
** prof_harness.c — the miniature simulated device (see prof_harness.h).
*/
#include "prof_harness.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "sl_phases.h"
#include "sl_platforms.h"

#define FIN_BIT 0x80000000u
#define EXIT_TOKEN 0x7FFFFFF0u

typedef struct regs {
  _Alignas(64) _Atomic uint32_t data; /* DATA_MAIN_BASE: token to run       */
  _Alignas(64) _Atomic uint32_t cond; /* COND: token (ACK) | FIN_BIT (done) */
} regs;

typedef struct sim {
  sl_devprof *dp;
  const harness_cfg *hc;
  regs *r;
} sim;

typedef struct arg {
  sim *s;
  int index;
} arg;

void harness_config(sl_collector_config *cfg, const harness_cfg *hc, unsigned level) {
  static unsigned char types[256];
  int ncores = hc->sched_threads * hc->cores_per_thread;
  sl_collector_config_init(cfg, sl_platform_by_name("a2a3sim"));
  for (int i = 0; i < ncores && i < 256; i++) types[i] = i < ncores / 2 ? SL_CORE_AIC : SL_CORE_AIV;
  cfg->level = level;
  cfg->num_cores = ncores;
  cfg->core_types = types;
  cfg->num_aicpu_threads = hc->sched_threads + 1;
  /* one host shard per AICPU thread whatever the machine's CPU count, so the
  ** multi-shard paths (queue striping, merged per-instance views) stay tested */
  cfg->host_shards = cfg->num_aicpu_threads;
}

static void *aicore_main(void *p) {
  arg *a = p;
  sim *s = a->s;
  int core = a->index;
  regs *r = &s->r[core];
  sl_aicore_cursor cur;
  sl_aicore_cursor_init(&cur);
  uint32_t last = 0;
  for (;;) {
    uint32_t token = atomic_load_explicit(&r->data, memory_order_acquire);
    if (token == last) {
      sched_yield();
      continue;
    }
    if (token == EXIT_TOKEN) break;
    sl_aicore_task_record *rec = sl_devprof_aicore_reserve(s->dp, core, &cur);
    atomic_store_explicit(&r->cond, token, memory_order_release); /* ACK */
    uint64_t start = h_aicore_start(core, token);
    if (s->hc->fin_before_commit) {
      atomic_store_explicit(&r->cond, token | FIN_BIT, memory_order_release);
      sl_devprof_aicore_commit(rec, start, start + 5, h_aicore_token_raw(core, token), token, (uint32_t)core);
    } else {
      sl_devprof_aicore_commit(rec, start, start + 5, h_aicore_token_raw(core, token), token, (uint32_t)core);
      atomic_store_explicit(&r->cond, token | FIN_BIT, memory_order_release);
    }
    last = token;
  }
  return NULL;
}

static void *sched_main(void *p) {
  arg *a = p;
  sim *s = a->s;
  const harness_cfg *hc = s->hc;
  int t = a->index, first = t * hc->cores_per_thread, n = hc->cores_per_thread;
  uint32_t phase_n = 0;
  static const uint32_t kinds[] = {SL_PHASE_DISPATCH, SL_PHASE_COMPLETE, SL_PHASE_DUMMY_TASK, SL_PHASE_RESOLVE};
  for (int c = first; c < first + n; c++) sl_devprof_set_core_thread(s->dp, c, t);
  for (uint32_t token = 1; token <= (uint32_t)hc->tasks_per_core; token++) {
    for (int c = first; c < first + n; c++) {
      sl_devprof_on_dispatch(s->dp, c, t, token);
      atomic_store_explicit(&s->r[c].data, token, memory_order_release);
    }
    for (int c = first; c < first + n; c++) {
      uint32_t v;
      while ((v = atomic_load_explicit(&s->r[c].cond, memory_order_acquire)) != (token | FIN_BIT)) {
        if (v == token) sl_devprof_on_ack(s->dp, c, t, token);
        sched_yield();
      }
      sl_devprof_on_ack(s->dp, c, t, token);
      sl_devprof_complete_task(s->dp, c, t, token, h_dispatch(c, token), h_dispatch(c, token) + 9);
    }
    for (int j = 0; j < hc->phases_per_round; j++, phase_n++) {
      int16_t d0[3] = {(int16_t)j, 1, 2}, d1[3] = {-1, (int16_t)t, 3};
      sl_devprof_sched_phase(s->dp, t, kinds[phase_n % 4], h_phase_start(t, phase_n),
                             h_phase_start(t, phase_n) + 2, token, phase_n, phase_n, (uint32_t)t, d0, d1);
    }
  }
  for (int c = first; c < first + n; c++) atomic_store_explicit(&s->r[c].data, EXIT_TOKEN, memory_order_release);
  int cores[64];
  for (int i = 0; i < n && i < 64; i++) cores[i] = first + i;
  sl_devprof_flush_scheduler(s->dp, t, cores, n);
  return NULL;
}

static void *orch_main(void *p) {
  arg *a = p;
  sim *s = a->s;
  for (uint32_t i = 0; i < (uint32_t)s->hc->orch_submits; i++)
    sl_devprof_orch_submit(s->dp, 1000 + 2ull * i, 1001 + 2ull * i, h_orch_task(i), i);
  sl_devprof_flush_orch(s->dp);
  return NULL;
}

void harness_run(sl_devprof *dp, const harness_cfg *hc) {
  int ncores = hc->sched_threads * hc->cores_per_thread;
  sim s = {dp, hc, NULL};
  s.r = aligned_alloc(64, sizeof(regs) * (size_t)ncores);
  memset(s.r, 0, sizeof(regs) * (size_t)ncores);
  int nthreads = ncores + hc->sched_threads + 1;
  pthread_t *tids = calloc((size_t)nthreads, sizeof *tids);
  arg *args = calloc((size_t)nthreads, sizeof *args);
  int k = 0;
  for (int c = 0; c < ncores; c++, k++) {
    args[k] = (arg){&s, c};
    pthread_create(&tids[k], NULL, aicore_main, &args[k]);
  }
  for (int t = 0; t < hc->sched_threads; t++, k++) {
    args[k] = (arg){&s, t};
    pthread_create(&tids[k], NULL, sched_main, &args[k]);
  }
  args[k] = (arg){&s, hc->sched_threads};
  pthread_create(&tids[k], NULL, orch_main, &args[k]);
  k++;
  for (int i = 0; i < k; i++) pthread_join(tids[i], NULL);
  free(tids);
  free(args);
  free(s.r);
}

void harness_tiny_pools(sl_collector_config *cfg) {
  cfg->sizes.prof_buffer_size = 2;
  cfg->sizes.aicore_buffer_size = 2;
  cfg->sizes.phase_records = 2;
  cfg->sizes.slot_count = 1;
  cfg->sizes.prof_buffers_per_core = 2;
  cfg->sizes.aicore_buffers_per_core = 2;
  cfg->sizes.sched_buffers_per_thread = 2;
  cfg->sizes.orch_buffers_per_thread = 2;
  cfg->sizes.readyqueue_size = 4;
  cfg->fixed_buffers = 1;
  cfg->backpressure_timeout_ns = 20000000000ull;
}
