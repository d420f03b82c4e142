/*
** sl_rt_hbg.c — the device half of the host_build_graph runtime (docs/runtimes.md):
** the P thread. The AICPU schedulers dispatch and collect FINs as under TMR, but
** hand every completed task through their SPSC completion slots (one ring per
** scheduler, this scheduler -> P) to the dedicated P thread, which runs three
** standalone, mutually exclusive phases: resolve_standalone (the slots), async_poll
** (landed async waits) and dummy (explicit dummies, false predicates). Consecutive
** empty polls are compacted into one async_poll(0) record whose duration is the sum
** of the polls. The host half (orchestration records, the upload, the anchors) is
** sl_rt_host.c; sl_rt_run.c runs the two halves in order.
*/
#include <string.h>

#include "sl_rt_phase.h"

/* ---- SPSC completion slots ------------------------------------------------------------- */

/* Scheduler side: one slot per completed task (the async due time rides on the task). */
void sl_rt_hbg_post(phase_ctx *pc, sl_rt_task *t, uint64_t finish) {
  sl_rt_sched *s = pc->s;
  sl_rt *rt = pc->rt;
  if (t->async_cycles) t->async_due = (finish ? finish : now(pc)) + t->async_cycles;
  uint32_t head = atomic_load_explicit(&s->done_head, memory_order_relaxed);
  while (head - atomic_load_explicit(&s->done_tail, memory_order_acquire) == SL_RT_SPSC_SLOTS) {
    if (atomic_load_explicit(&rt->interrupted, memory_order_acquire)) return; /* P may be gone */
    sl_rt_ring(&rt->pthr); /* full: P is behind */
    if (rt->clock.vc) sl_vclock_idle(rt->clock.vc); /* P needs the baton to drain them */
    else sl_rt_spin_hint();
  }
  s->done_slot[head % SL_RT_SPSC_SLOTS] = t;
  atomic_store_explicit(&s->done_head, head + 1, memory_order_release);
  sl_rt_ring(&rt->pthr);
}

static int slots_pending(sl_rt *rt) {
  for (int i = 0; i < rt->cfg.num_sched; i++)
    if (atomic_load_explicit(&rt->sched[i].done_head, memory_order_acquire) !=
        atomic_load_explicit(&rt->sched[i].done_tail, memory_order_relaxed))
      return 1;
  return 0;
}

/* ---- the P thread ---------------------------------------------------------------------- */

/* Consecutive empty polls, waiting to be flushed as one async_poll(0). */
typedef struct poll_agg {
  uint64_t sum;  /* cycles spent inside the polls */
  int n;
  int16_t d0[3]; /* depths at the first poll */
} poll_agg;

/* The aggregate ends at `at` (now, or the start of the poll that landed work). */
static void flush_polls_at(phase_ctx *pc, poll_agg *a, uint64_t at) {
  if (!a->n) return;
  emit(pc, async_poll, at - a->sum, at, 0, a->d0);
  a->n = 0;
  a->sum = 0;
}

static void flush_polls(phase_ctx *pc, poll_agg *a) {
  if (a->n) flush_polls_at(pc, a, now(pc));
}

/* resolve_standalone: drain every scheduler's completion slots. */
static int p_resolve(phase_ctx *pc, poll_agg *agg) {
  sl_rt *rt = pc->rt;
  if (!slots_pending(rt)) return 0;
  if (pc->dp) flush_polls(pc, agg);
  int16_t d0[3] = {0, 0, 0};
  uint64_t t0 = 0;
  if (pc->dp) {
    depths(rt, d0);
    t0 = now(pc);
  }
  int n = 0;
  for (int i = 0; i < rt->cfg.num_sched; i++) {
    sl_rt_sched *s = &rt->sched[i];
    uint32_t tail = atomic_load_explicit(&s->done_tail, memory_order_relaxed);
    uint32_t head = atomic_load_explicit(&s->done_head, memory_order_acquire);
    for (; tail != head; tail++, n++) {
      sl_rt_task *t = s->done_slot[tail % SL_RT_SPSC_SLOTS];
      if (t->async_cycles) { /* its transfer lands later: async_poll completes it */
        t->async_next = pc->s->async_head;
        pc->s->async_head = t;
      } else {
        sl_rt_on_task_complete(pc, t, d0);
      }
    }
    atomic_store_explicit(&s->done_tail, tail, memory_order_release);
  }
  if (pc->dp) emit(pc, resolve_standalone, t0, now(pc), n, d0);
  return n;
}

/* async_poll: one poll call; empty ones are summed, a poll that lands work flushes
** the sum and writes its own record. */
static int p_async_poll(phase_ctx *pc, poll_agg *agg) {
  if (!pc->dp) return pc->s->async_head ? sl_rt_async_land(pc, now(pc), NULL) : 0;
  int16_t d0[3];
  depths(pc->rt, d0);
  uint64_t t0 = now(pc);
  int n = pc->s->async_head ? sl_rt_async_land(pc, t0, d0) : 0;
  uint64_t t1 = now(pc);
  if (n) {
    flush_polls_at(pc, agg, t0);
    emit(pc, async_poll, t0, t1, n, d0);
    return n;
  }
  if (!agg->n) memcpy(agg->d0, d0, sizeof d0);
  agg->n++;
  agg->sum += t1 - t0;
  return 0;
}

static int p_finished(sl_rt *rt, sl_rt_sched *p) {
  if (slots_pending(rt) || p->release_head) return 0;
  if (atomic_load_explicit(&rt->interrupted, memory_order_acquire)) return 1;
  if (p->async_head || sl_readyq_depth(&rt->dummyq)) return 0;
  return atomic_load_explicit(&rt->released, memory_order_acquire) ==
         atomic_load_explicit(&rt->submitted, memory_order_acquire);
}

static int p_work_pending(void *arg) {
  phase_ctx *pc = arg;
  sl_rt *rt = pc->rt;
  return slots_pending(rt) || sl_readyq_depth(&rt->dummyq) || sl_rt_async_due(pc) ||
         atomic_load(&rt->interrupted) || p_finished(rt, pc->s);
}

void *sl_rt_p_main(void *arg) {
  sl_rt_sched *p = arg;
  sl_rt *rt = p->rt;
  phase_ctx pc = {.rt = rt, .s = p, .dp = rt->cfg.level >= SL_MIN_LEVEL_SCHED_PHASE ? rt->cfg.dp : NULL,
                  .clock = rt->clock, .standalone = 1};
  poll_agg agg = {0};
  int idle = 0;
  if (rt->clock.vc) sl_vclock_enter(rt->clock.vc, sl_rt_vslot_orch(rt)); /* P: the orchestrator's slot */
  for (;;) {
    pc.iter++;
    int work = p_resolve(&pc, &agg);
    work += p_async_poll(&pc, &agg);
    if (sl_readyq_depth(&rt->dummyq)) {
      if (pc.dp) flush_polls(&pc, &agg);
      pc.lap = 0;
      work += sl_rt_phase_dummy(&pc);
    }
    if (p->release_head) sl_rt_release_list(rt, p); /* no ring to give back: counts only */
    if (work) {
      idle = 0;
      continue;
    }
    if (p_finished(rt, p)) break;
    sl_rt_idle_step(rt, &idle, &p->doorbell, &p->sleeping, p_work_pending, &pc);
  }
  if (pc.dp) flush_polls(&pc, &agg);
  sl_rt_ring_all(rt); /* schedulers wait for released == submitted */
  if (rt->cfg.dp) sl_devprof_flush_scheduler(rt->cfg.dp, p->idx, p->cores, 0);
  if (rt->clock.vc) sl_vclock_leave(rt->clock.vc);
  return NULL;
}
