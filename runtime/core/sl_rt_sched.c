/*
** sl_rt_sched.c — one AICPU scheduler thread. Each loop iteration runs the outer
** phases in order — complete (with nested resolve), async_poll, graph_prepare,
** early_dispatch / drain (sl_rt_sync.c), dispatch, dummy, release — and, at level
** >= 3, emits one phase record per phase that did work. Idle iterations emit
** nothing, read no clock and yield the CPU.
**
** Timestamps are reused like a lap timer: when an outer phase follows a recorded
** one with nothing but a few loads in between, it starts at the previous phase's
** end (time and queue-depth snapshot) instead of reading both again.
*/
#include <stdlib.h>
#include <string.h>

#include "sl_park.h"
#include "sl_rt_phase.h"
#include "sl_rt_mem.h"

/* Resolve a finished task's successors (any thread). Successors whose last
** predecessor this was become ready. Returns the number of consumers visited. */
int sl_rt_task_finished(sl_rt *rt, sl_rt_task *t) {
  pthread_mutex_lock(&t->mu);
  t->done = 1;
  sl_rt_task **fo = t->fanout;
  int n = t->nfanout;
  t->fanout = NULL;
  t->nfanout = t->capfanout = 0;
  pthread_mutex_unlock(&t->mu);
  for (int i = 0; i < n; i++)
    if (atomic_fetch_sub_explicit(&fo[i]->fanin, 1, memory_order_acq_rel) == 1)
      sl_rt_make_ready(rt, fo[i]);
  sl_rt_free(fo);
  atomic_fetch_add_explicit(&rt->completed, 1, memory_order_relaxed);
  return n;
}

/* A task's last subtask finished (or a dummy was retired): resolve, then queue the
** ring slot for the release phase. Emits a nested resolve record when the walk
** took at least 1 us; otherwise the walk's end is the lap (a complete phase that
** ends right after it ends there). */
void sl_rt_on_task_complete(phase_ctx *pc, sl_rt_task *t, const int16_t *d0) {
  if (pc->rt->cfg.dump_args) sl_rt_dump_task(pc->rt, t, 1);
  uint64_t r0 = pc->dp ? now(pc) : 0;
  int visited = sl_rt_task_finished(pc->rt, t);
  if (pc->dp && !pc->standalone) {
    uint64_t r1 = now(pc);
    pc->lap = 0;
    if (r1 - r0 >= pc->clock.freq_hz / 1000000u) {
      emit(pc, resolve, r0, r1, visited, d0);
    } else {
      pc->lap = 1; /* lap_d is not needed: a phase ending here takes fresh depths */
      pc->lap_ts = r1;
    }
  }
  if (t->parent) { /* a graph node: its instance may be complete now */
    sl_rt_graph_node_done(pc, t, d0);
    return;
  }
  t->release_next = pc->s->release_head;
  pc->s->release_head = t;
}

/* ---- complete -------------------------------------------------------------------------- */

static int phase_complete(phase_ctx *pc) {
  sl_rt *rt = pc->rt;
  sl_rt_sched *s = pc->s;
  const unsigned level = rt->cfg.level;
  sl_devprof *dp = rt->cfg.dp;
  int16_t d0[3] = {0, 0, 0};
  uint64_t t0 = 0;
  int done = 0;
  pc->lap = 0; /* a new iteration */
  for (int i = 0; i < s->ncores; i++) {
    sl_rt_core *c = &rt->cores[s->cores[i]];
    if (!c->busy) continue;
    uint32_t v = atomic_load_explicit(&c->cond, memory_order_acquire);
    if ((v & SL_REG_TASK_MASK) != c->token) continue;
    if (!(v & SL_REG_FIN_BIT)) {
      if (!c->acked && dp) {
        sl_devprof_on_ack(dp, c->id, s->idx, c->token);
        pc->lap = 0;
      }
      c->acked = 1;
      continue;
    }
    /* One clock read serves as this FIN's finish time and, for the first FIN of
    ** the pass, as the phase start. */
    uint64_t finish = level >= SL_MIN_LEVEL_AICPU_TASK ? now(pc) : 0;
    if (!done && pc->dp) {
      t0 = finish;
      depths(rt, d0);
    }
    pc->lap = 0;
    if (dp) {
      if (!c->acked) sl_devprof_on_ack(dp, c->id, s->idx, c->token);
      if (level >= SL_MIN_LEVEL_AICPU_TASK)
        sl_devprof_complete_member(dp, c->id, s->idx, c->token, c->member, c->dispatch_ts, finish);
    }
    c->busy = 0;
    sl_rt_task *t = c->task;
    c->task = NULL;
    if (t->timing_slot >= 0) /* ... and ends where its last completion processing began */
      sl_rt_atomic_max(&rt->slot_end[t->timing_slot], finish ? finish : now(pc));
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

static uint32_t next_token(sl_rt_core *c) {
  uint32_t tok = (++c->seq) & SL_REG_TASK_MASK;
  if (tok >= SL_REG_TOKEN_LIMIT || tok == 0) { /* wrap, keeping parity of the skip even */
    c->seq += (SL_REG_TASK_MASK + 1u - tok) & ~1u;
    tok = (++c->seq) & SL_REG_TASK_MASK;
    if (tok == 0) tok = (++c->seq) & SL_REG_TASK_MASK;
  }
  return tok;
}

/* Reserve core c for block `block` of member `slot` of task t: payload written,
** token chosen, nothing published yet (a staged core looks busy and un-ACKed). */
void sl_rt_stage_one(phase_ctx *pc, sl_rt_core *c, sl_rt_task *t, int slot, int block, int lane) {
  (void)pc;
  c->fn = t->fns[slot];
  memset(c->args, 0, sizeof c->args);
  for (int i = 0; i < t->ntensors; i++) c->args[i] = (int64_t)(uintptr_t)&t->descs[i];
  for (int i = 0; i < t->nscalars; i++) c->args[t->ntensors + i] = (int64_t)t->scalars[i].raw;
  c->lc.block_idx = block;
  c->lc.block_num = t->block_num;
  c->gc.sub_block_id = lane;
  c->args[SL_SPMD_LOCAL_CONTEXT_INDEX] = (int64_t)(uintptr_t)&c->lc;
  c->args[SL_SPMD_GLOBAL_CONTEXT_INDEX] = (int64_t)(uintptr_t)&c->gc;
  c->task_token = t->id;
  c->lane = lane;
  c->member = (uint32_t)slot + 1; /* recorded on FIN: which kernel this core ran */
  c->task = t;
  c->busy = 1;
  c->acked = 0;
  c->token = next_token(c);
}

/* Publish a staged core's token. dispatch_time is this core's own stamp, taken
** when its payload publication is complete, immediately before the register
** write (so it never follows the core's receive); 0 below level 2. */
uint64_t sl_rt_publish_staged(phase_ctx *pc, sl_rt_core *c) {
  sl_rt *rt = pc->rt;
  sl_rt_vadvance(rt, rt->vc.m.dispatch);
  c->dispatch_ts = rt->cfg.level >= SL_MIN_LEVEL_AICPU_TASK ? now(pc) : 0;
  if (c->task->timing_slot >= 0) /* a tagged task: its window starts at its first publication */
    sl_rt_atomic_min(&rt->slot_start[c->task->timing_slot], c->dispatch_ts ? c->dispatch_ts : now(pc));
  /* the core's owner's identity: a drain publishes onto other threads' cores */
  if (rt->cfg.dp) sl_devprof_on_dispatch(rt->cfg.dp, c->id, c->owner, c->token);
  sl_rt_publish(c, c->token);
  pc->s->dispatches++;
  return c->dispatch_ts;
}

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
  for (int k = 0; k < s->nclusters && !idle_cluster; k++) {
    int cl = s->clusters[k];
    idle_cluster = !rt->cores[cl].busy && !rt->cores[rt->cfg.num_aic + 2 * cl].busy &&
                   !rt->cores[rt->cfg.num_aic + 2 * cl + 1].busy;
  }
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
    int cl = s->clusters[k];
    sl_rt_core *aic = &rt->cores[cl], *v0 = &rt->cores[rt->cfg.num_aic + 2 * cl],
               *v1 = &rt->cores[rt->cfg.num_aic + 2 * cl + 1];
    if (aic->busy || v0->busy || v1->busy) continue;
    int block;
    sl_rt_task *t = pop(pc, SL_SHAPE_MIX, &block);
    if (!t) break;
    sl_rt_core *targets[3] = {aic, v0, v1};
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

/* ---- dummy: explicit dummies and false-predicate tasks ------------------------------- */

int sl_rt_phase_dummy(phase_ctx *pc) {
  sl_rt *rt = pc->rt;
  if (!sl_readyq_depth(&rt->dummyq)) return 0;
  int16_t d0[3] = {0, 0, 0};
  uint64_t t0 = pc->dp ? phase_start(pc, d0) : 0;
  int n = 0, block;
  sl_rt_task *t;
  while ((t = sl_readyq_pop_block(&rt->dummyq, &block)) != NULL) {
    if (block != 0) continue; /* an SPMD task predicated off is retired once, not per block */
    if (pc->dp) {
      uint64_t at = now(pc);
      if (t->is_dummy)
        SL_RT_PHASE(pc, dummy_task, at, at, 1, t->id, NULL, NULL);
      else
        SL_RT_PHASE(pc, predicated_skip, at, at, 1, t->id, NULL, NULL);
    }
    sl_rt_on_task_complete(pc, t, d0);
    n++;
  }
  pc->lap = 0; /* the queue was popped (locked) after the last walk */
  if (n && pc->dp) emit_outer(pc, dummy, t0, now(pc), n, d0);
  return n;
}

/* ---- release: give completed tasks' ring slots back to the orchestrator ---------------- */

int sl_rt_release_list(sl_rt *rt, sl_rt_sched *s) {
  int n = 0;
  uint64_t per_ring[SL_RT_MAX_RINGS] = {0};
  for (sl_rt_task *t = s->release_head; t; t = t->release_next, n++) per_ring[t->id >> 32]++;
  s->release_head = NULL;
  for (int r = 0; r < SL_RT_MAX_RINGS; r++)
    if (per_ring[r]) atomic_fetch_sub_explicit(&rt->inflight[r], per_ring[r], memory_order_acq_rel);
  atomic_fetch_add_explicit(&rt->released, (uint64_t)n, memory_order_acq_rel);
  atomic_fetch_add(&rt->ring_bell, 1);
  if (atomic_load(&rt->orch_sleeping)) sl_park_wake(&rt->ring_bell);
  return n;
}

static int phase_release(phase_ctx *pc) {
  sl_rt_sched *s = pc->s;
  if (!s->release_head) return 0;
  int16_t d0[3] = {0, 0, 0};
  uint64_t t0 = pc->dp ? phase_start(pc, d0) : 0;
  int n = sl_rt_release_list(pc->rt, s);
  if (pc->dp) emit_outer(pc, release, t0, now(pc), n, d0);
  return n;
}

static int any_busy(sl_rt *rt, sl_rt_sched *s) {
  for (int i = 0; i < s->ncores; i++)
    if (rt->cores[s->cores[i]].busy) return 1;
  return 0;
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
  if (any_busy(rt, s) || s->release_head) return 0;
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
