/*
** sl_rt_phase.h — what one scheduler loop iteration shares between its phases
** (sl_rt_sched.c runs the loop; sl_rt_sync.c, sl_rt_async.c and sl_rt_graph.c hold
** the sync-start, async-wait and graph-expansion phases, sl_rt_task.c the steps of a
** task they all share): the phase context, the record helpers and the lap timer.
*/
#ifndef SL_RT_PHASE_H
#define SL_RT_PHASE_H

#include <string.h>

#include "sl_rt_internal.h"
#include "sl_writers.h"

typedef struct phase_ctx {
  sl_rt *rt;
  sl_rt_sched *s;
  sl_devprof *dp; /* non-NULL only at level >= 3 */
  uint32_t iter;
  sl_rt_clock clock;
  /* The lap (level >= 3): lap_ts / lap_d are the time and depths of the moment the
  ** thread last stopped doing recorded work in this iteration; valid while only
  ** loads have run since. Any hook call, pop or new iteration clears it. */
  int lap;
  uint64_t lap_ts;
  int16_t lap_d[3];
  int standalone; /* HBG P thread: resolve is its own phase, never nested */
} phase_ctx;

static inline uint64_t now(const phase_ctx *pc) { return sl_rt_now(&pc->clock); }

static inline void depths(sl_rt *rt, int16_t d[3]) {
  for (int i = 0; i < SL_SHAPE_COUNT; i++) {
    int v = sl_readyq_depth(&rt->queues[i]);
    d[i] = (int16_t)(v > 32767 ? 32767 : v);
  }
}

/* One phase record written with its generated writer, sl_write_phase_<name>() (sl_writers.h),
** and handed to the profiler. `...` = the writer's arguments after tasks_processed: the
** phase variant's values (none, pop_hit/pop_miss, or the task id), then both depth arrays.
** t0 and t1 are evaluated whether or not profiling is on (a virtual clock read advances). */
#define SL_RT_PHASE(pc, name, t0, t1, n, ...) SL_RT_PHASE_WITH(pc, sl_write_phase_##name, t0, t1, n, __VA_ARGS__)

/* The same through a given writer: an AICore Scheduler's phases use
** sl_write_aicore_phase_<name>() (their own variant: task-bound bars carry the task id). */
#define SL_RT_PHASE_WITH(pc, writer, t0, t1, n, ...)                                                   \
  do {                                                                                                 \
    uint64_t t0_ = (t0), t1_ = (t1);                                                                   \
    sl_sched_phase_record rec_;                                                                        \
    if ((pc)->dp && writer((pc)->rt->cfg.level, &rec_, t0_, t1_, (pc)->iter, (uint32_t)(n),            \
                           __VA_ARGS__))                                                               \
      sl_devprof_sched_phase_put((pc)->dp, (pc)->s->idx, &rec_);                                       \
  } while (0)

/* A phase ending now-ish: `...` = the variant's values, then the depths at its start; the
** depths at its end are read here. */
#define emit(pc, name, t0, t1, n, ...)                                                                 \
  do {                                                                                                 \
    uint64_t e1_ = (t1);                                                                               \
    int16_t d1_[3];                                                                                    \
    depths((pc)->rt, d1_);                                                                             \
    SL_RT_PHASE(pc, name, t0, e1_, n, __VA_ARGS__, d1_);                                               \
  } while (0)

/* Start of an outer phase that is about to do work (level >= 3): the lap if it is
** still valid, else a fresh depth snapshot and clock read. */
static inline uint64_t phase_start(phase_ctx *pc, int16_t d0[3]) {
  if (pc->lap) {
    memcpy(d0, pc->lap_d, sizeof pc->lap_d);
    return pc->lap_ts;
  }
  depths(pc->rt, d0);
  return now(pc);
}

/* Record an outer phase ending at t1; its end becomes the lap. */
#define emit_outer(pc, name, t0, t1, n, ...)                                                           \
  do {                                                                                                 \
    uint64_t o1_ = (t1);                                                                               \
    depths((pc)->rt, (pc)->lap_d);                                                                     \
    SL_RT_PHASE(pc, name, t0, o1_, n, __VA_ARGS__, (pc)->lap_d);                                       \
    (pc)->lap = 1;                                                                                     \
    (pc)->lap_ts = o1_;                                                                                \
  } while (0)


/* What busy core c's register says about its token in flight: SL_RT_CORE_FIN (it
** finished), SL_RT_CORE_ACKED (acknowledged, seen so for the first time and recorded
** with the profiler), else SL_RT_CORE_QUIET. An idle core is quiet. */
enum { SL_RT_CORE_QUIET, SL_RT_CORE_ACKED, SL_RT_CORE_FIN };

static inline int sl_rt_core_poll(const phase_ctx *pc, sl_rt_core *c) {
  if (!c->busy) return SL_RT_CORE_QUIET;
  uint32_t v = atomic_load_explicit(&c->cond, memory_order_acquire);
  if ((v & SL_REG_TASK_MASK) != c->token) return SL_RT_CORE_QUIET;
  if (v & SL_REG_FIN_BIT) return SL_RT_CORE_FIN;
  sl_devprof *dp = pc->rt->cfg.dp;
  int record = !c->acked && dp;
  if (record) sl_devprof_on_ack(dp, c->id, pc->s->idx, c->token);
  c->acked = 1;
  return record ? SL_RT_CORE_ACKED : SL_RT_CORE_QUIET;
}

/* sl_rt_task.c, a task's way through the chip (every function here calls only down):
** stage block `block` of member `slot` of t on core c (payload and token, core
** reserved, nothing published); publish a staged core (returns its dispatch_time);
** collect a FIN'd core (returns its task); a task's last subtask finished: resolve,
** queue for release (a graph node: count down its instance); the dummy phase
** (explicit dummies, false predicates). (Writing a token, sl_rt_publish, is inline in
** sl_rt_internal.h.) */
void sl_rt_stage_one(phase_ctx *pc, sl_rt_core *c, sl_rt_task *t, int slot, int block, int lane);
/* Cluster cl's cores in a MIX task's slot order (ORDER: AIC, AIV0, AIV1); 1 when all are idle. */
int sl_rt_cluster_cores(sl_rt *rt, int cl, sl_rt_core *out[3]);
uint64_t sl_rt_publish_staged(phase_ctx *pc, sl_rt_core *c);
sl_rt_task *sl_rt_core_collect(phase_ctx *pc, sl_rt_core *c, uint64_t finish);
void sl_rt_on_task_complete(phase_ctx *pc, sl_rt_task *t, const int16_t *d0);
int sl_rt_phase_dummy(phase_ctx *pc);

/* sl_rt_sync.c: sync-start tasks (early_dispatch when this thread's cores suffice,
** else a global drain); nonzero while this thread must not dispatch normal work. */
int sl_rt_phase_sync(phase_ctx *pc);
int sl_rt_sync_blocks_dispatch(phase_ctx *pc);
int sl_rt_sync_busy(sl_rt *rt, sl_rt_sched *s); /* staging, draining or lent: not finished */
int sl_rt_sync_lent(sl_rt *rt, sl_rt_sched *s); /* our cores are handed to another's drain */

/* sl_rt_async.c: tasks whose completion lands later (simulated DMA). */
int sl_rt_async_defer(phase_ctx *pc, sl_rt_task *t, uint64_t finish);
int sl_rt_phase_async_poll(phase_ctx *pc);
int sl_rt_async_due(phase_ctx *pc);
/* Complete the async waits landed by time t (no records); returns how many. */
int sl_rt_async_land(phase_ctx *pc, uint64_t t, const int16_t *d0);
/* sl_rt_hbg.c: a scheduler hands a completed task to the P thread. */
void sl_rt_hbg_post(phase_ctx *pc, sl_rt_task *t, uint64_t finish);

/* sl_rt_graph.c: expand ready graph tasks into their nodes. */
int sl_rt_phase_graph_prepare(phase_ctx *pc);

#endif /* SL_RT_PHASE_H */
