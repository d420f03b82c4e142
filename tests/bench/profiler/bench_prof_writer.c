/*
** bench_prof_writer.c — benchmark (a): what one profiling record costs the
** device, against a plain loop storing the same 32 bytes into a buffer.
**
** Measured in one run, same ring of 1024 slots, same per-iteration compiler
** barrier: the plain store loop; each generated writer alone (AICore task,
** AICPU task, scheduler phase, orchestrator submit); and the
** full device hooks a record goes through at default pool sizes with the real
** collector behind them (AICore: dispatch + reserve + commit + ack, rotation
** every aicore_buffer_size records; AICPU task: complete_task with its buffer
** switch; scheduler phase: sched_phase with lazy rotation). The hooks are timed
** in batches that fit the buffers already queued for the producer (rotations
** and publications included); the waits for the host between batches are
** not the device's cost and are left out.
**
** Every figure is the calling thread's own CPU time (CLOCK_THREAD_CPUTIME_ID):
** on a shared machine a wall clock would also count the time the thread sat
** descheduled behind other processes or the collector's threads, which is not
** what the record costs. The variants run interleaved, R rounds; each prints
** the median ns/record and the median and range of its per-round ratio to the
** plain loop of the same round.
**
**   bench_prof_writer [records] [rounds]      (default 4000000 7)
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sched.h>

#include "sl_collector.h"
#include "sl_collector_internal.h"
#include "sl_phases.h"
#include "sl_platforms.h"
#include "sl_writers.h"

#define BARRIER() __asm__ volatile("" ::: "memory")

static double now_s(void) { /* this thread's CPU time, see the file comment */
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct plain32 {
  uint64_t a, b, c;
  uint32_t d, e;
} plain32;

static double plain_loop(uint64_t n, unsigned slots) {
  plain32 *buf = aligned_alloc(64, sizeof(plain32) * slots);
  double t0 = now_s();
  for (uint64_t i = 0; i < n; i++) {
    plain32 *r = &buf[i & (slots - 1)];
    r->a = i;
    r->b = i + 7;
    r->c = i ^ 0x5555;
    r->d = (uint32_t)i;
    r->e = 3;
    BARRIER();
  }
  double dt = now_s() - t0;
  free(buf);
  return dt;
}

/* One generated writer filling records of its own type into a ring of `slots`
** (the same footprint as the plain loop), timed like it. */
#define WRITER_LOOP(fn_name, rec_type, ...)                                     \
  static double fn_name(uint64_t n, unsigned slots) {                           \
    rec_type *buf = aligned_alloc(64, sizeof(rec_type) * slots);                \
    static const int16_t dep[3] = {1, 2, 3};                                    \
    (void)dep;                                                                  \
    double t0 = now_s();                                                        \
    for (uint64_t i = 0; i < n; i++) {                                          \
      rec_type *r = &buf[i & (slots - 1)];                                      \
      __VA_ARGS__;                                                              \
      BARRIER();                                                                \
    }                                                                           \
    double dt = now_s() - t0;                                                   \
    free(buf);                                                                  \
    return dt;                                                                  \
  }

WRITER_LOOP(generated_writer, sl_aicore_task_record,
            sl_write_aicore_task(SL_MIN_LEVEL_AICORE_TASK, r, i, i + 7, i ^ 0x5555, (uint32_t)i, 3))
WRITER_LOOP(aicpu_writer, sl_aicpu_task_record,
            sl_write_aicpu_task(SL_MIN_LEVEL_AICPU_TASK, r, i, i + 9, (uint32_t)i, 1))
WRITER_LOOP(phase_writer, sl_sched_phase_record,
            sl_write_phase_dispatch(SL_MIN_LEVEL_SCHED_PHASE, r, i, i + 3, (uint32_t)i, 1, 2, 3, dep, dep))
WRITER_LOOP(orch_writer, sl_orch_phase_record,
            sl_write_orch_submit(SL_MIN_LEVEL_ORCH_PHASE, r, i, i + 3, i, (uint32_t)i))

static sl_collector *collector(unsigned level) {
  static const unsigned char types[1] = {SL_CORE_AIV};
  sl_collector_config cfg;
  sl_collector_config_init(&cfg, sl_platform_by_name("a2a3sim"));
  cfg.level = level;
  cfg.num_cores = 1;
  cfg.core_types = types;
  cfg.num_aicpu_threads = 2;
  cfg.backpressure = 1; /* never a drop: a lost record would flatter the figure */
  sl_collector *c = sl_collector_create(&cfg);
  if (!c || sl_collector_start(c, NULL) != SL_OK) exit(1);
  return c;
}

/* Untimed: wait until the host has drained everything and refilled the pool,
** so the timed batch measures the device path, not the host's latency. */
static void await_host(sl_collector *c, unsigned kind) {
  sl_devprof *dp = c->dp;
  sl_ready_ring ring = sl_devprof_ring(dp, 0);
  while (!sl_rq_empty(&ring) || sl_fq_depth(&dp->pools[kind][0].free_queue) < c->fq_limit[kind]) sched_yield();
}

static void finish(sl_collector *c, unsigned kind, uint64_t n) {
  sl_collector_stop(c);
  sl_collector_reconcile(c);
  sl_pool_account a = sl_collector_account(c, kind);
  if (a.total != n || a.collected != n) {
    fprintf(stderr, "bench: incomplete capture: total %llu collected %llu\n", (unsigned long long)a.total,
            (unsigned long long)a.collected);
    exit(1);
  }
  sl_collector_destroy(c);
}

/* Records per timed batch: what the pool's queued buffers hold, minus one
** buffer of margin — rotations happen inside the batch and are timed. */
static uint64_t batch_of(sl_collector *c, unsigned kind) {
  unsigned limit = c->fq_limit[kind];
  return limit > 1 ? (uint64_t)(limit - 1) * c->dp->g.records[kind] : c->dp->g.records[kind] / 2;
}

/* ---- the hooks: one record per call of op(); kind and level say which pool ---- */

typedef struct hook_ctx {
  sl_devprof *dp;
  sl_aicore_cursor cur;
} hook_ctx;

static void aicore_op(hook_ctx *h, uint64_t i) {
  uint32_t tok = (uint32_t)(i % 0x7FFFFFE0u) + 1;
  sl_devprof_on_dispatch(h->dp, 0, 0, tok);
  sl_aicore_task_record *r = sl_devprof_aicore_reserve(h->dp, 0, &h->cur);
  sl_devprof_aicore_commit(r, i, i + 7, i ^ 0x5555, tok, 3);
  sl_devprof_on_ack(h->dp, 0, 0, tok);
}

static void aicpu_op(hook_ctx *h, uint64_t i) { sl_devprof_complete_task(h->dp, 0, 0, (uint32_t)i, i, i + 9); }

static void phase_op(hook_ctx *h, uint64_t i) {
  static const int16_t d[3] = {1, 2, 3};
  sl_devprof_sched_phase(h->dp, 0, SL_PHASE_DISPATCH, i, i + 3, (uint32_t)i, 1, 2, 3, d, d);
}

typedef struct hook {
  unsigned kind, level;
  void (*op)(hook_ctx *, uint64_t);
} hook;

static const hook k_aicore = {SL_BUF_AICORE_TASK, 1, aicore_op};
static const hook k_aicpu = {SL_BUF_AICPU_TASK, 2, aicpu_op};
static const hook k_phase = {SL_BUF_SCHED_PHASE, 3, phase_op};

static void flush_hooks(sl_devprof *dp, const hook *hk) {
  int cores[1] = {0};
  sl_devprof_flush_scheduler(dp, 0, hk->kind == SL_BUF_SCHED_PHASE ? NULL : cores,
                             hk->kind == SL_BUF_SCHED_PHASE ? 0 : 1);
}

/* With the real collector threads behind the pool (default sizes). */
static double collector_hooks(const hook *hk, uint64_t n) {
  sl_collector *c = collector(hk->level);
  hook_ctx h = {sl_collector_device(c), {0}};
  sl_aicore_cursor_init(&h.cur);
  uint64_t batch = batch_of(c, hk->kind), i = 0;
  double dt = 0;
  while (i < n) {
    await_host(c, hk->kind);
    uint64_t end = i + batch < n ? i + batch : n;
    double t0 = now_s();
    for (; i < end; i++) {
      hk->op(&h, i);
      BARRIER();
    }
    dt += now_s() - t0;
  }
  flush_hooks(h.dp, hk);
  finish(c, hk->kind, n);
  return dt;
}

/* The same hooks on a bare region whose host work (pop the published buffer,
** prepare it, queue it again) the timed thread does itself every 64 records:
** every buffer line stays in this core's cache. What the collector-backed
** figure costs on top of this is cross-core traffic (lines the host last
** touched) and the host threads' wakeups; what this costs on top of the
** generated writer is the hooks' own bookkeeping. */
static double local_hooks(const hook *hk, uint64_t n) {
  sl_collector *c = collector(hk->level); /* only for the default geometry */
  sl_devprof_geometry g = c->dp->g;
  sl_collector_stop(c);
  sl_collector_destroy(c);
  g.backpressure = 0;
  hook_ctx h = {sl_devprof_create(&g, NULL, 0), {0}};
  if (!h.dp) exit(1);
  sl_aicore_cursor_init(&h.cur);
  void *bufs[4];
  sl_free_queue *fq = &h.dp->pools[hk->kind][0].free_queue;
  for (int b = 0; b < 4; b++) {
    bufs[b] = aligned_alloc(64, h.dp->buffer_bytes[hk->kind]);
    memset(bufs[b], 0, h.dp->buffer_bytes[hk->kind]);
    sl_devprof_prepare_buffer(h.dp, hk->kind, bufs[b]);
    if (b < 3) sl_fq_push(fq, g.slot_count, (uint64_t)(uintptr_t)bufs[b]);
  }
  sl_ready_ring ring = sl_devprof_ring(h.dp, 0);
  uint64_t spare = (uint64_t)(uintptr_t)bufs[3], collected = 0;
  double t0 = now_s();
  for (uint64_t i = 0; i < n; i++) {
    hk->op(&h, i);
    BARRIER();
    sl_ready_entry e;
    if ((i & 63) == 63)
      while (sl_rq_pop(&ring, &e) == 1) {
        collected += *sl_devprof_buffer_count(h.dp, hk->kind, (void *)(uintptr_t)e.buffer_ptr);
        sl_devprof_prepare_buffer(h.dp, hk->kind, (void *)(uintptr_t)e.buffer_ptr);
        sl_fq_push(fq, g.slot_count, spare); /* a different buffer than the one just filled */
        spare = e.buffer_ptr;
      }
  }
  double dt = now_s() - t0;
  flush_hooks(h.dp, hk);
  sl_ready_entry e;
  while (sl_rq_pop(&ring, &e) == 1)
    collected += *sl_devprof_buffer_count(h.dp, hk->kind, (void *)(uintptr_t)e.buffer_ptr);
  uint64_t dropped = h.dp->pools[hk->kind][0].head.dropped_record_count;
  if (collected + dropped != n || dropped) {
    fprintf(stderr, "bench: local hooks lost records: collected %llu dropped %llu of %llu\n",
            (unsigned long long)collected, (unsigned long long)dropped, (unsigned long long)n);
    exit(1);
  }
  sl_devprof_destroy(h.dp);
  for (int b = 0; b < 4; b++) free(bufs[b]);
  return dt;
}

static double aicore_hooks(uint64_t n) { return collector_hooks(&k_aicore, n); }
static double aicpu_task_hook(uint64_t n) { return collector_hooks(&k_aicpu, n); }
static double sched_phase_hook(uint64_t n) { return collector_hooks(&k_phase, n); }
static double aicore_local(uint64_t n) { return local_hooks(&k_aicore, n); }
static double aicpu_local(uint64_t n) { return local_hooks(&k_aicpu, n); }
static double phase_local(uint64_t n) { return local_hooks(&k_phase, n); }

typedef double (*bench_fn)(uint64_t);

static uint64_t g_slots = 1024;
static double plain_fn(uint64_t n) { return plain_loop(n, (unsigned)g_slots); }
static double gen_fn(uint64_t n) { return generated_writer(n, (unsigned)g_slots); }
static double aicpu_fn(uint64_t n) { return aicpu_writer(n, (unsigned)g_slots); }
static double phase_fn(uint64_t n) { return phase_writer(n, (unsigned)g_slots); }
static double orch_fn(uint64_t n) { return orch_writer(n, (unsigned)g_slots); }
/* The same stores streaming through 4 MiB, as the hooks stream through fresh buffers. */
static double plain_stream_fn(uint64_t n) { return plain_loop(n, 131072); }

static const struct variant {
  const char *label;
  bench_fn fn;
} variants[] = {
    {"plain 32-byte store loop", plain_fn},
    {"plain 32-byte stores streaming 4 MiB", plain_stream_fn},
    {"generated writer (sl_write_aicore_task)", gen_fn},
    {"generated writer (sl_write_aicpu_task)", aicpu_fn},
    {"generated writer (sl_write_phase_dispatch)", phase_fn},
    {"generated writer (sl_write_orch_submit)", orch_fn},
    {"AICore hooks (dispatch+reserve+commit+ack)", aicore_hooks},
    {"AICPU task hook (complete_task)", aicpu_task_hook},
    {"scheduler phase hook (sched_phase)", sched_phase_hook},
    {"AICore hooks, host work on this thread", aicore_local},
    {"AICPU task hook, host work on this thread", aicpu_local},
    {"scheduler phase hook, host work on this thread", phase_local},
};
#define NVAR (sizeof variants / sizeof variants[0])
#define MAX_ROUNDS 25

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_d);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv) {
  uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 4000000ull;
  int rounds = argc > 2 ? atoi(argv[2]) : 7;
  if (n < 1 || rounds < 1 || rounds > MAX_ROUNDS) {
    fprintf(stderr, "usage: bench_prof_writer [records] [rounds 1..%d]\n", MAX_ROUNDS);
    return 2;
  }
  static double t[NVAR][MAX_ROUNDS], r[NVAR][MAX_ROUNDS];
  plain_loop(n / 4, (unsigned)g_slots); /* warm up */
  for (int k = 0; k < rounds; k++) /* interleaved: a disturbance hits every variant alike */
    for (size_t v = 0; v < NVAR; v++) t[v][k] = variants[v].fn(n);
  printf("benchmark (a): device writer cost per record (thread CPU time), %llu records, %d rounds\n",
         (unsigned long long)n, rounds);
  for (size_t v = 0; v < NVAR; v++) {
    for (int k = 0; k < rounds; k++) r[v][k] = t[v][k] / t[0][k];
    double ns = median(t[v], rounds) * 1e9 / (double)n, med = median(r[v], rounds);
    printf("  %-44s %8.2f ns/record  ratio %5.2f (range %.2f-%.2f)\n", variants[v].label, ns, med, r[v][0],
           r[v][rounds - 1]);
  }
  return 0;
}
