/*
** sl_rt_sync.c — sync-start tasks: every block must start together. A scheduler
** thread claims a ready sync-start task whole. When its own cores of the task's
** type suffice it stages blocks onto them as they fall idle (early_dispatch, one
** record per pass that staged something) and publishes every token back to back
** once the last block is staged. Otherwise it runs a global drain: it announces a
** drain (drain_word), every other thread stops dispatching, lets its cores finish
** and hands them over (frozen_word = the drain); the owner then prepares one block
** per idle core across the chip (drain_prepare), publishes them (drain_publish),
** both nested in one drain record, and ends the drain, giving the cores back.
** The hand-over is a release/acquire pair on frozen_word / drain_word, so the
** owner's writes to another thread's core state happen-before that thread's next
** look at it.
*/
#include "sl_rt_phase.h"

static int shape_is_aic(const sl_rt_task *t) { return t->shape == SL_SHAPE_AIC; }

static int lane_of(const sl_rt *rt, const sl_rt_core *c) {
  return c->is_aic ? 0 : (c->id - rt->cfg.num_aic) & 1;
}

static int own_cores(const sl_rt *rt, const sl_rt_sched *s, int is_aic) {
  int n = 0;
  for (int i = 0; i < s->ncores; i++) n += rt->cores[s->cores[i]].is_aic == is_aic;
  return n;
}

/* This thread has handed its cores to the drain in progress. */
static int frozen(sl_rt *rt, sl_rt_sched *s) {
  uint64_t w = atomic_load_explicit(&rt->drain_word, memory_order_acquire);
  return w && atomic_load_explicit(&s->frozen_word, memory_order_relaxed) == w;
}

int sl_rt_sync_busy(sl_rt *rt, sl_rt_sched *s) { return s->staging || s->drain_task || frozen(rt, s); }
int sl_rt_sync_lent(sl_rt *rt, sl_rt_sched *s) { return frozen(rt, s); }

int sl_rt_sync_blocks_dispatch(phase_ctx *pc) {
  return atomic_load_explicit(&pc->rt->drain_word, memory_order_acquire) != 0 || pc->s->drain_task;
}

/* ---- early dispatch: staged on our own cores ------------------------------------------- */

static int stage_pass(phase_ctx *pc) {
  sl_rt *rt = pc->rt;
  sl_rt_sched *s = pc->s;
  sl_rt_task *t = s->staging;
  int16_t d0[3] = {0, 0, 0};
  uint64_t t0 = 0;
  int n = 0;
  for (int i = 0; i < s->ncores && s->staged < t->block_num; i++) {
    sl_rt_core *c = &rt->cores[s->cores[i]];
    if (c->busy || c->is_aic != shape_is_aic(t)) continue;
    if (!n && pc->dp) t0 = phase_start(pc, d0);
    sl_rt_stage_one(pc, c, t, c->is_aic ? 0 : 1, s->staged, lane_of(rt, c));
    s->stage_cores[s->staged++] = c->id;
    n++;
  }
  if (!n) return 0;
  if (s->staged == t->block_num) { /* all staged: start them together */
    for (int b = 0; b < s->staged; b++) sl_rt_publish_staged(pc, &rt->cores[s->stage_cores[b]]);
    s->staging = NULL;
  }
  if (pc->dp) emit_outer(pc, early_dispatch, t0, now(pc), n, d0);
  else pc->lap = 0;
  return n;
}

/* ---- global drain --------------------------------------------------------------------- */

/* Every other thread has handed its cores over, and enough cores are idle. */
static int drain_ready(sl_rt *rt, sl_rt_sched *s, uint64_t w, const sl_rt_task *t) {
  int idle = 0;
  for (int k = 0; k < rt->cfg.num_sched; k++) {
    sl_rt_sched *o = &rt->sched[k];
    if (o != s && atomic_load_explicit(&o->frozen_word, memory_order_acquire) != w) return 0;
  }
  for (int i = 0; i < rt->ncores; i++)
    idle += !rt->cores[i].busy && rt->cores[i].is_aic == shape_is_aic(t);
  return idle >= t->block_num;
}

static int drain_pass(phase_ctx *pc) {
  sl_rt *rt = pc->rt;
  sl_rt_sched *s = pc->s;
  sl_rt_task *t = s->drain_task;
  uint64_t w = atomic_load_explicit(&rt->drain_word, memory_order_acquire);
  uint64_t mine = 0;
  if (!w) { /* announce a drain of our own */
    mine = ((atomic_fetch_add(&rt->drain_gen, 1) + 1) << 8) | (uint64_t)(s->idx + 1);
    uint64_t zero = 0;
    if (!atomic_compare_exchange_strong(&rt->drain_word, &zero, mine)) return 0;
    sl_rt_ring_all(rt);
    w = mine;
  }
  if ((w & 0xFF) != (uint64_t)(s->idx + 1) || !drain_ready(rt, s, w, t)) return 0;
  int16_t d0[3] = {0, 0, 0};
  uint64_t t0 = pc->dp ? phase_start(pc, d0) : 0;
  int ids[SL_RT_MAX_CORES], n = 0;
  for (int i = 0; i < rt->ncores && n < t->block_num; i++) {
    sl_rt_core *c = &rt->cores[i];
    if (c->busy || c->is_aic != shape_is_aic(t)) continue;
    sl_rt_stage_one(pc, c, t, c->is_aic ? 0 : 1, n, lane_of(rt, c));
    ids[n++] = i;
  }
  uint64_t t1 = pc->dp ? now(pc) : 0;
  for (int b = 0; b < n; b++) sl_rt_publish_staged(pc, &rt->cores[ids[b]]);
  s->drain_task = NULL;
  atomic_store_explicit(&rt->drain_word, 0, memory_order_release); /* cores go back */
  sl_rt_ring_all(rt);
  if (pc->dp) {
    uint64_t t2 = now(pc);
    emit(pc, drain_prepare, t0, t1, n, d0);
    emit(pc, drain_publish, t1, t2, n, NULL);
    emit_outer(pc, drain, t0, t2, n, d0);
  }
  return n;
}

/* Hand our cores to another thread's drain once they are idle. */
static void join_drain(sl_rt *rt, sl_rt_sched *s, uint64_t w) {
  if (atomic_load_explicit(&s->frozen_word, memory_order_relaxed) == w) return;
  if (s->staging || sl_rt_sched_busy(rt, s)) return;
  atomic_store_explicit(&s->frozen_word, w, memory_order_release);
  sl_rt_ring(&rt->sched[(w & 0xFF) - 1]);
}

/* Interrupted: unreserve staged cores (never published), give up a drain. */
static void abandon(sl_rt *rt, sl_rt_sched *s) {
  if (s->staging)
    for (int b = 0; b < s->staged; b++) {
      rt->cores[s->stage_cores[b]].busy = 0;
      rt->cores[s->stage_cores[b]].task = NULL;
    }
  s->staging = NULL;
  s->drain_task = NULL;
  uint64_t w = atomic_load(&rt->drain_word);
  if (w && (w & 0xFF) == (uint64_t)(s->idx + 1)) {
    atomic_store_explicit(&rt->drain_word, 0, memory_order_release);
    sl_rt_ring_all(rt);
  }
}

int sl_rt_phase_sync(phase_ctx *pc) {
  sl_rt *rt = pc->rt;
  sl_rt_sched *s = pc->s;
  if (atomic_load_explicit(&rt->interrupted, memory_order_acquire)) {
    abandon(rt, s);
    return 0;
  }
  uint64_t w = atomic_load_explicit(&rt->drain_word, memory_order_acquire);
  if (w && (w & 0xFF) != (uint64_t)(s->idx + 1)) { /* someone else's drain */
    int n = s->staging ? stage_pass(pc) : 0;
    join_drain(rt, s, w);
    return n;
  }
  if (s->staging) return stage_pass(pc);
  if (s->drain_task) return drain_pass(pc);
  if (!sl_readyq_depth(&rt->syncq)) return 0;
  sl_rt_task *t = sl_readyq_pop_task(&rt->syncq);
  if (!t) return 0;
  pc->lap = 0; /* the queue was locked */
  if (t->block_num <= own_cores(rt, s, shape_is_aic(t))) {
    s->staging = t;
    s->staged = 0;
    return stage_pass(pc) + 1;
  }
  s->drain_task = t;
  return drain_pass(pc) + 1;
}
