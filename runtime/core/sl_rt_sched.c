/*
** sl_rt_sched.c — one AICPU scheduler thread. Each loop iteration runs the outer
** phases in order — complete (with nested resolve), async_poll, graph_prepare,
** early_dispatch / drain (sl_rt_sync.c), dispatch, dummy (sl_rt_task.c), release —
** and, at level >= 3, emits one phase record per phase that did work. Idle iterations emit
** nothing, read no clock and yield the CPU.
**
** Timestamps are reused like a lap timer: when an outer phase follows a recorded
** one with nothing but a few loads in between, it starts at the previous phase's
** end (time and queue-depth snapshot) instead of reading both again.
*/
#include "sl_rt_phase.h"

/* ---- complete -------------------------------------------------------------------------- */

static int phase_complete(phase_ctx *pc) {
  sl_rt *rt = pc->rt;
  sl_rt_sched *s = pc->s;
  int16_t d0[3] = {0, 0, 0};
  uint64_t t0 = 0;
  int done = 0;
  pc->lap = 0; /* a new iteration */
  for (int i = 0; i < s->ncores; i++) {
    sl_rt_core *c = &rt->cores[s->cores[i]];
    int seen = sl_rt_core_poll(pc, c);
    if (seen == SL_RT_CORE_ACKED) pc->lap = 0;
    if (seen != SL_RT_CORE_FIN) continue;
    /* One clock read serves as this FIN's finish time and, for the first FIN of
    ** the pass, as the phase start. */
    uint64_t finish = rt->cfg.level >= SL_MIN_LEVEL_AICPU_TASK ? now(pc) : 0;
    if (!done && pc->dp) {
      t0 = finish;
      depths(rt, d0);
    }
    pc->lap = 0;
    sl_rt_task *t = sl_rt_core_collect(pc, c, finish);
    done++;
    if (atomic_fetch_sub_explicit(&t->pending, 1, memory_order_acq_rel) != 1) continue;
    if (rt->cfg.runtime == SL_RT_HBG) sl_rt_hbg_post(pc, t, finish); /* the P thread resolves */
    else if (!sl_rt_async_defer(pc, t, finish)) sl_rt_on_task_complete(pc, t, d0);
  }
  if (done && pc->dp) /* ends at the last walk if only loads followed it */
    emit_outer(pc, complete, t0, pc->lap ? pc->lap_ts : now(pc), done, d0);
  return done;
}

/* ---- dispatch -------------------------------------------------------------------------- */

static uint64_t dispatch_one(phase_ctx *pc, sl_rt_core *c, sl_rt_task *t, int slot, int block, int lane) {
  sl_rt_stage_one(pc, c, t, slot, block, lane);
  return sl_rt_publish_staged(pc, c);
}

/* Pop one block from queue `shape` for an idle slot; counts hits and misses. */
static sl_rt_task *pop(phase_ctx *pc, int shape, int *block) {
  sl_readyq *q = &pc->rt->queues[shape];
  if (!sl_readyq_depth(q)) return NULL;
  sl_rt_vadvance(pc->rt, pc->rt->vc.m.pop);
  sl_rt_task *t = sl_readyq_pop_block(q, block);
  if (t) pc->s->pop_hit++;
  else pc->s->pop_miss++;
  return t;
}

/* Could phase_dispatch publish anything: an idle core (or whole idle cluster) of
** ours whose ready queue is not empty? Only loads: the scheduler-private busy
** flags and the queue depths. */
static int dispatch_possible(sl_rt *rt, sl_rt_sched *s) {
  int idle_aic = 0, idle_aiv = 0, idle_cluster = 0;
  for (int i = 0; i < s->ncores; i++) {
    const sl_rt_core *c = &rt->cores[s->cores[i]];
    if (c->busy) continue;
    if (c->is_aic) idle_aic = 1;
    else idle_aiv = 1;
  }
  sl_rt_core *members[3];
  for (int k = 0; k < s->nclusters && !idle_cluster; k++) idle_cluster = sl_rt_cluster_cores(rt, s->clusters[k], members);
  return (idle_aic && sl_readyq_depth(&rt->queues[SL_SHAPE_AIC])) ||
         (idle_aiv && sl_readyq_depth(&rt->queues[SL_SHAPE_AIV])) ||
         (idle_cluster && sl_readyq_depth(&rt->queues[SL_SHAPE_MIX]));
}

static int phase_dispatch(phase_ctx *pc) {
  sl_rt *rt = pc->rt;
  sl_rt_sched *s = pc->s;
  const int stamped = pc->dp || rt->cfg.level >= SL_MIN_LEVEL_AICPU_TASK;
  /* Nothing to publish: no pop would be tried and no record written, so take no
  ** timestamp either (this runs on every iteration, idle ones included). */
  if (stamped && !dispatch_possible(rt, s)) return 0;
  int16_t d0[3] = {0, 0, 0};
  uint64_t t0 = 0;
  int published = 0;
  if (pc->dp) t0 = phase_start(pc, d0);
  /* MIX first: a whole idle cluster takes one block of a MIX task. */
  for (int k = 0; k < s->nclusters; k++) {
    sl_rt_core *targets[3];
    if (!sl_rt_cluster_cores(rt, s->clusters[k], targets)) continue;
    int block;
    sl_rt_task *t = pop(pc, SL_SHAPE_MIX, &block);
    if (!t) break;
    for (int slot = 0; slot < 3; slot++) {
      if (t->kernel_ids[slot] < 0) continue;
      dispatch_one(pc, targets[slot], t, slot, block, slot == 2 ? 1 : 0);
      published++;
    }
  }
  for (int i = 0; i < s->ncores; i++) {
    sl_rt_core *c = &rt->cores[s->cores[i]];
    if (c->busy) continue;
    int block;
    sl_rt_task *t = pop(pc, c->is_aic ? SL_SHAPE_AIC : SL_SHAPE_AIV, &block);
    if (!t) continue;
    int slot = c->is_aic ? 0 : (t->kernel_ids[1] >= 0 ? 1 : 2);
    dispatch_one(pc, c, t, slot, block, c->is_aic ? 0 : (c->id - rt->cfg.num_aic) & 1);
    published++;
  }
  /* A pass whose pops all missed (another thread took the block between the depth
  ** check and the pop) is recorded too, where it happened: otherwise its misses
  ** would wait for a later dispatch and, when none comes, ride on a zero-width
  ** dispatch(0) bar drawn at scheduler exit. Such a pass counts as work, so its
  ** iteration keeps its loop_iter. */
  if ((published || s->pop_miss) && pc->dp) {
    emit_outer(pc, dispatch, t0, now(pc), published, s->pop_hit, s->pop_miss, d0);
    s->total_hit += s->pop_hit;
    s->total_miss += s->pop_miss;
    s->pop_hit = s->pop_miss = 0;
    return published ? published : 1;
  }
  pc->lap = 0; /* pops ran without a record */
  return published;
}

/* ---- release: give completed tasks' ring slots back to the orchestrator ---------------- */

static int phase_release(phase_ctx *pc) {
  sl_rt_sched *s = pc->s;
  if (!s->release_head) return 0;
  int16_t d0[3] = {0, 0, 0};
  uint64_t t0 = pc->dp ? phase_start(pc, d0) : 0;
  int n = sl_rt_release_list(pc->rt, s);
  if (pc->dp) emit_outer(pc, release, t0, now(pc), n, d0);
  return n;
}

/* Anything that would make the next iteration do work (checked before parking):
** a FIN to collect, ready work some idle core of ours could take, dummies, graphs,
** sync-start work, a landed async wait, releases, or the end of the run. A thread
** whose cores are lent to a drain does not look at them. */
static int work_pending(void *arg) {
  phase_ctx *pc = arg;
  sl_rt *rt = pc->rt;
  sl_rt_sched *s = pc->s;
  if (!sl_rt_sync_lent(rt, s)) {
    for (int i = 0; i < s->ncores; i++) {
      sl_rt_core *c = &rt->cores[s->cores[i]];
      if (c->busy && atomic_load_explicit(&c->cond, memory_order_acquire) == (c->token | SL_REG_FIN_BIT))
        return 1;
    }
    if (dispatch_possible(rt, s)) return 1;
  }
  int dummies = rt->cfg.runtime != SL_RT_HBG && sl_readyq_depth(&rt->dummyq); /* HBG: P's */
  return dummies || sl_readyq_depth(&rt->graphq) || sl_readyq_depth(&rt->syncq) ||
         s->release_head || sl_rt_async_due(pc) || atomic_load(&rt->interrupted) || atomic_load(&rt->orch_done);
}

static int finished(sl_rt *rt, sl_rt_sched *s) {
  if (sl_rt_sync_busy(rt, s) && !atomic_load_explicit(&rt->interrupted, memory_order_acquire)) return 0;
  if (sl_rt_sync_lent(rt, s)) return 0; /* wait until the drain gives our cores back */
  if (sl_rt_sched_busy(rt, s) || s->release_head) return 0;
  if (atomic_load_explicit(&rt->interrupted, memory_order_acquire)) return 1;
  if (s->async_head || !atomic_load_explicit(&rt->orch_done, memory_order_acquire)) return 0;
  return atomic_load_explicit(&rt->released, memory_order_acquire) ==
         atomic_load_explicit(&rt->submitted, memory_order_acquire);
}

/* One loop iteration: the outer phases in order; returns the work done. A thread
** whose cores are lent to another thread's drain leaves them alone. */
static int iterate(phase_ctx *pc) {
  sl_rt *rt = pc->rt;
  pc->lap = 0; /* a new iteration */
  int lent = sl_rt_sync_lent(rt, pc->s);
  int work = lent ? 0 : phase_complete(pc);
  work += sl_rt_phase_async_poll(pc);
  if (!atomic_load_explicit(&rt->interrupted, memory_order_acquire)) {
    work += sl_rt_phase_graph_prepare(pc);
    if (!lent) work += sl_rt_phase_sync(pc);
    if (!lent && !sl_rt_sync_blocks_dispatch(pc)) work += phase_dispatch(pc);
    if (rt->cfg.runtime != SL_RT_HBG) work += sl_rt_phase_dummy(pc); /* HBG: on the P thread */
  } else if (!lent) {
    sl_rt_phase_sync(pc); /* gives up staging / a drain */
  }
  work += phase_release(pc);
  return work;
}

void *sl_rt_sched_main(void *arg) {
  sl_rt_sched *s = arg;
  sl_rt *rt = s->rt;
  phase_ctx pc = {.rt = rt, .s = s, .dp = rt->cfg.level >= SL_MIN_LEVEL_SCHED_PHASE ? rt->cfg.dp : NULL,
                  .clock = rt->clock};
  if (pc.dp)
    for (int i = 0; i < s->ncores; i++) sl_devprof_set_core_thread(pc.dp, s->cores[i], s->idx);
  if (rt->clock.vc) sl_vclock_enter(rt->clock.vc, sl_rt_vslot_sched(rt, s->idx));
  sl_rt_atomic_min(&rt->sched_start, now(&pc));
  int idle = 0;
  for (;;) {
    pc.iter++;
    if (iterate(&pc)) {
      idle = 0;
      continue;
    }
    if (finished(rt, s)) break;
    pc.iter--; /* idle iterations are not counted as loop iterations */
    sl_rt_idle_step(rt, &idle, &s->doorbell, &s->sleeping, work_pending, &pc);
  }
  /* Every pop is in a dispatch record (phase_dispatch records miss-only passes), so
  ** no residual delta is left for a zero-width carrier at exit; below level 3 the
  ** counts only feed the totals. */
  s->total_hit += s->pop_hit;
  s->total_miss += s->pop_miss;
  s->pop_hit = s->pop_miss = 0;
  for (int i = 0; i < s->ncores; i++) sl_rt_publish(&rt->cores[s->cores[i]], SL_REG_EXIT);
  sl_rt_atomic_max(&rt->sched_end, now(&pc));
  if (rt->cfg.dp) sl_devprof_flush_scheduler(rt->cfg.dp, s->idx, s->cores, s->ncores);
  if (rt->clock.vc) sl_vclock_leave(rt->clock.vc);
  return NULL;
}
