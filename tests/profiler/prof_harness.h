/*
** prof_harness.h — a miniature simulated device for the profiler tests: real
** scheduler threads dispatching to real AICore threads through a register
** handshake (token, ACK, FIN), the way the runtime drives the hooks, plus an
** orchestrator thread. Every record value is derived from its identity so the
** tests can check that whatever was collected is intact.
*/
#ifndef PROF_HARNESS_H
#define PROF_HARNESS_H

#include <stdint.h>

#include "sl_collector.h"

typedef struct harness_cfg {
  int sched_threads;     /* scheduler threads; the orchestrator is thread sched_threads */
  int cores_per_thread;  /* cores owned by each scheduler thread                         */
  int tasks_per_core;
  int phases_per_round;  /* sched phase records per thread per dispatch round            */
  int orch_submits;
  int fin_before_commit; /* AICore signals FIN before writing its record (tmr order)     */
} harness_cfg;

/* Values the harness writes, so checks can recompute them. */
static inline uint64_t h_aicore_start(int core, uint32_t token) { return ((uint64_t)core << 40) | token; }
static inline uint64_t h_aicore_token_raw(int core, uint32_t token) {
  return (1ull << 63) | ((uint64_t)core << 32) | token; /* above 2^53 on purpose */
}
static inline uint64_t h_dispatch(int core, uint32_t token) { return ((uint64_t)core << 44) | ((uint64_t)token << 4); }
static inline uint64_t h_phase_start(int thread, uint32_t n) { return ((uint64_t)(thread + 1) << 48) | n; }
static inline uint64_t h_orch_task(uint32_t idx) { return (3ull << 60) | idx; }

/* Collector config for the harness's layout (cores: first half AIC). */
void harness_config(sl_collector_config *cfg, const harness_cfg *hc, unsigned level);
/* Pools of two records, two buffers, one slot and 4-entry ready queues, fixed: buffers
** rotate constantly, queues fill, and records drop unless back-pressure is on. */
void harness_tiny_pools(sl_collector_config *cfg);
/* Run the device to completion against dp (threads joined on return). */
void harness_run(sl_devprof *dp, const harness_cfg *hc);

#endif
