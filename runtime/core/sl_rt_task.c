/*
** sl_rt_task.c — a submitted task's way through the chip, shared by every thread
** that moves it: made ready (into the queue its kind names, or under the A5 AICore
** Scheduler into the calling scheduler's Inbox), staged onto a core and published
** (payload, then token), collected when a core FINs, finished (its successors
** resolved, the ready ones made ready), retired without running (dummies, false
** predicates), released (its ring slot back to the orchestrator).
**
** This module calls nothing above it: the orchestrator, the scheduler loops (TMR,
** the HBG P thread, the AICore Scheduler) and their phases all call down into it.
** Invariants: a task is made ready exactly once (its fanin reaches 0 once); its
** completion is processed exactly once, by one thread (the scheduler that saw its
** last FIN or retired it, the HBG P thread it was handed to, or the poller of its
** async wait); a graph node's completion counts down its instance, and the
** instance completes through the same path when its last node does.
*/
#include <string.h>

#include "sl_park.h"
#include "sl_rt_phase.h"
#include "sl_rt_mem.h"

/* ---- ready --------------------------------------------------------------------------- */

/* The AICore Scheduler running on this thread (NULL on the host and elsewhere). */
static _Thread_local sl_rt_sched *inbox_owner;

void sl_rt_set_inbox_owner(sl_rt_sched *s) { inbox_owner = s; }

/* A task became ready under the AICore Scheduler: into the calling scheduler's Inbox
** (or the global queues before the device runs). 1 = taken, 0 = not this mode. */
static int route_to_inbox(sl_rt *rt, sl_rt_task *t) {
  if (!rt->aicore_sched) return 0;
  if (!inbox_owner) return 0; /* host orchestration: the global queues, for bootstrap */
  sl_readyq *q = (t->is_dummy || !t->predicate) ? &inbox_owner->inbox_dummies : &inbox_owner->inbox[t->shape];
  sl_readyq_push(q, t);
  sl_rt_ring_all(rt); /* an idle scheduler may steal it */
  return 1;
}

void sl_rt_make_ready(sl_rt *rt, sl_rt_task *t) {
  if (rt->cfg.dump_args) sl_rt_dump_task(rt, t, 0);
  if (route_to_inbox(rt, t)) return; /* a5 HBG: into the AICore Scheduler's Inbox */
  sl_readyq *q = (t->is_dummy || !t->predicate) ? &rt->dummyq
                 : t->graph                       ? &rt->graphq
                 : t->sync_start                  ? &rt->syncq
                                                  : &rt->queues[t->shape];
  sl_readyq_push(q, t);
  sl_rt_ring_all(rt);
}

/* ---- staged and published ------------------------------------------------------------ */

static uint32_t next_token(sl_rt_core *c) {
  uint32_t tok = (++c->seq) & SL_REG_TASK_MASK;
  if (tok >= SL_REG_TOKEN_LIMIT || tok == 0) { /* wrap, keeping parity of the skip even */
    c->seq += (SL_REG_TASK_MASK + 1u - tok) & ~1u;
    tok = (++c->seq) & SL_REG_TASK_MASK;
    if (tok == 0) tok = (++c->seq) & SL_REG_TASK_MASK;
  }
  return tok;
}

int sl_rt_cluster_cores(sl_rt *rt, int cl, sl_rt_core *out[3]) {
  out[0] = &rt->cores[cl];
  out[1] = &rt->cores[rt->cfg.num_aic + 2 * cl];
  out[2] = out[1] + 1;
  return !out[0]->busy && !out[1]->busy && !out[2]->busy;
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

/* ---- collected ----------------------------------------------------------------------- */

/* Core c (busy, its FIN seen at `finish`, 0 when not stamped): the ACK and the member's
** completion go to the profiler, the core is free again, and the task's timing window
** ends here. Returns the task the core ran. */
sl_rt_task *sl_rt_core_collect(phase_ctx *pc, sl_rt_core *c, uint64_t finish) {
  sl_rt *rt = pc->rt;
  sl_devprof *dp = rt->cfg.dp;
  if (dp) {
    if (!c->acked) sl_devprof_on_ack(dp, c->id, pc->s->idx, c->token);
    if (rt->cfg.level >= SL_MIN_LEVEL_AICPU_TASK)
      sl_devprof_complete_member(dp, c->id, pc->s->idx, c->token, c->member, c->dispatch_ts, finish);
  }
  c->busy = 0;
  sl_rt_task *t = c->task;
  c->task = NULL;
  if (t->timing_slot >= 0) /* ... and ends where its last completion processing began */
    sl_rt_atomic_max(&rt->slot_end[t->timing_slot], finish ? finish : now(pc));
  return t;
}

/* ---- finished ------------------------------------------------------------------------ */

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
  if (t->parent) { /* a graph node: its instance is complete when its last node is */
    if (atomic_fetch_sub_explicit(&t->parent->nodes_pending, 1, memory_order_acq_rel) == 1)
      sl_rt_on_task_complete(pc, t->parent, d0);
    return;
  }
  t->release_next = pc->s->release_head;
  pc->s->release_head = t;
}

/* Its completion was processed (any thread; the tensormap asks). */
int sl_rt_task_done(sl_rt_task *t) {
  pthread_mutex_lock(&t->mu);
  int d = t->done;
  pthread_mutex_unlock(&t->mu);
  return d;
}

/* ---- retired without running: explicit dummies and false-predicate tasks ------------ */

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

/* ---- released: completed tasks' ring slots back to the orchestrator ------------------ */

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
