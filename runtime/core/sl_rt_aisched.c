/*
** sl_rt_aisched.c — host_build_graph on a5: the AICore Scheduler (docs/a5.md).
**
** Scheduling is done by one AIV core per scheduler (its physical id names the
** Scheduler_<id> lane); the AICPU threads only run the control plane around it.
** Each thread of this module is one AICPU thread and, between its register release
** and its exit signal, the AICore Scheduler it released:
**
**   control plane  handshake (every owned core's thread is up), topology (leader
**                  only: each scheduler's physical AIV core), context publication
**                  (its Inbox is live), bootstrap wait (every context published),
**                  register release (owned cores' registers cleared) ... exit
**                  signal (EXIT to owned cores), exit wait (they are gone); each a
**                  start/end pair in aicpu_lifecycle_records (level >= 2).
**   scheduler      bootstrap: claim this scheduler's share of the tasks the host's
**                  orchestration left ready into its Inbox; then per iteration:
**                  complete (one FIN'd task) -> resolve (its consumers; ready ones
**                  enter this Inbox) and, for every free Cluster Slot (a whole
**                  cluster for MIX, else one core), state_probe (claim from the own
**                  Inbox, else steal from another non-empty one) -> exactly one of
**                  refill (the slot completed this iteration), worksteal (the task
**                  came from another Inbox) or dispatch. Task-bound records carry
**                  the task id (local_id / ring_id); phases never overlap.
**
** Dependency-only tasks (explicit dummies, false predicates) are retired inline in
** resolve: a5 host_build_graph has no dummy phase. Sync-start, graph and async-wait
** tasks are refused at submit under this producer (the run fails with a message).
*/
#include <string.h>

#include "sl_rt_phase.h"

/* ---- bootstrap share ---------------------------------------------------------------- */

void sl_rt_aisched_prepare(sl_rt *rt) {
  uint64_t ready = (uint64_t)sl_readyq_depth(&rt->dummyq);
  for (int q = 0; q < SL_SHAPE_COUNT; q++) ready += (uint64_t)sl_readyq_depth(&rt->queues[q]);
  uint64_t s = (uint64_t)rt->cfg.num_sched;
  rt->boot_quota = (ready + s - 1) / s;
}

/* ---- records ------------------------------------------------------------------------- */

/* One AICore Scheduler record (no start snapshot: the depths at its start read 0). */
static const int16_t aisched_no_depths[3] = {0, 0, 0};

#define AISCHED_PHASE(pc, name, t0, t1, n, ...)                                                   \
  do {                                                                                           \
    int16_t d1_[3];                                                                              \
    depths((pc)->rt, d1_);                                                                       \
    SL_RT_PHASE_WITH(pc, sl_write_aicore_phase_##name, t0, t1, n, __VA_ARGS__ aisched_no_depths, d1_); \
  } while (0)

#define emit_task(pc, name, t0, t1, n, t)                                                         \
  do {                                                                                           \
    if ((pc)->dp) AISCHED_PHASE(pc, name, t0, t1, n, (t)->id, );                                 \
  } while (0)

/* ---- resolve ------------------------------------------------------------------------- */

/* Retire the dependency-only tasks that became ready on this scheduler (inline,
** no record); their own consumers may add more. Returns consumers visited. */
static int retire_dummies(phase_ctx *pc) {
  sl_rt_sched *s = pc->s;
  int visited = 0, block;
  sl_rt_task *t;
  while ((t = sl_readyq_pop_block(&s->inbox_dummies, &block)) != NULL) {
    if (block != 0) continue; /* an SPMD task predicated off is retired once */
    if (pc->rt->cfg.dump_args) sl_rt_dump_task(pc->rt, t, 1);
    visited += sl_rt_task_finished(pc->rt, t);
    t->release_next = s->release_head;
    s->release_head = t;
  }
  return visited;
}

static void resolve(phase_ctx *pc, sl_rt_task *t) {
  uint64_t r0 = pc->dp ? now(pc) : 0;
  if (pc->rt->cfg.dump_args) sl_rt_dump_task(pc->rt, t, 1);
  int visited = sl_rt_task_finished(pc->rt, t);
  visited += retire_dummies(pc);
  t->release_next = pc->s->release_head;
  pc->s->release_head = t;
  emit_task(pc, resolve, r0, pc->dp ? now(pc) : 0, (uint32_t)visited, t);
}

/* ---- complete ------------------------------------------------------------------------ */

/* Collect every FIN of this scheduler's cores: one complete record per FIN, then the
** task's resolve when it was its last subtask. freed[i] marks slots emptied here. */
static int complete(phase_ctx *pc, unsigned char *freed) {
  sl_rt *rt = pc->rt;
  sl_rt_sched *s = pc->s;
  int done = 0;
  for (int i = 0; i < s->ncores; i++) {
    sl_rt_core *c = &rt->cores[s->cores[i]];
    if (sl_rt_core_poll(pc, c) != SL_RT_CORE_FIN) continue;
    uint64_t finish = (rt->cfg.level >= SL_MIN_LEVEL_AICPU_TASK || pc->dp) ? now(pc) : 0;
    sl_rt_task *t = sl_rt_core_collect(pc, c, finish);
    freed[i] = 1;
    int last = atomic_fetch_sub_explicit(&t->pending, 1, memory_order_acq_rel) == 1;
    emit_task(pc, complete, finish, pc->dp ? now(pc) : 0, 1, t); /* ends before resolve */
    if (last) resolve(pc, t);
    done++;
  }
  return done;
}

/* ---- state probe and publication ----------------------------------------------------- */

/* Claim one block of `shape`: own Inbox first, else another non-empty Inbox. */
static sl_rt_task *claim(phase_ctx *pc, int shape, int *block, int *stolen) {
  sl_rt *rt = pc->rt;
  sl_rt_task *t = sl_readyq_depth(&pc->s->inbox[shape]) ? sl_readyq_pop_block(&pc->s->inbox[shape], block) : NULL;
  *stolen = 0;
  for (int k = 1; !t && k < rt->cfg.num_sched; k++) {
    sl_rt_sched *o = &rt->sched[(pc->s->idx + k) % rt->cfg.num_sched];
    if (sl_readyq_depth(&o->inbox[shape]) && (t = sl_readyq_pop_block(&o->inbox[shape], block)) != NULL)
      *stolen = 1;
  }
  return t;
}

static int inbox_has(sl_rt *rt, int shape) {
  for (int k = 0; k < rt->cfg.num_sched; k++)
    if (sl_readyq_depth(&rt->sched[k].inbox[shape])) return 1;
  return 0;
}

/* One free Cluster Slot (`n` cores: one, or a cluster AIC, AIV0, AIV1 for MIX): probe,
** then publish; `refill` = the slot was emptied by a completion this iteration. */
static int place(phase_ctx *pc, int shape, sl_rt_core **cores, int n, int refill) {
  if (!inbox_has(pc->rt, shape)) return 0; /* nothing Ready anywhere: no probe */
  uint64_t t0 = pc->dp ? now(pc) : 0;
  int block, stolen;
  sl_rt_task *t = claim(pc, shape, &block, &stolen);
  if (!t) return 0;
  uint64_t t1 = pc->dp ? now(pc) : 0;
  emit_task(pc, state_probe, t0, t1, 1, t);
  int published = 0;
  for (int i = 0; i < n; i++) {
    sl_rt_core *c = cores[i];
    int slot = shape == SL_SHAPE_MIX ? i : c->is_aic ? 0 : (t->kernel_ids[1] >= 0 ? 1 : 2);
    if (t->kernel_ids[slot] < 0) continue;
    int lane = shape == SL_SHAPE_MIX ? (i == 2) : c->is_aic ? 0 : (c->id - pc->rt->cfg.num_aic) & 1;
    sl_rt_stage_one(pc, c, t, slot, block, lane);
    sl_rt_publish_staged(pc, c);
    published++;
  }
  uint64_t t2 = pc->dp ? now(pc) : 0;
  if (refill)
    emit_task(pc, refill, t1, t2, (uint32_t)published, t);
  else if (stolen)
    emit_task(pc, worksteal, t1, t2, (uint32_t)published, t);
  else
    emit_task(pc, dispatch, t1, t2, (uint32_t)published, t);
  return published;
}

static int local_index(const sl_rt_sched *s, int core) {
  for (int i = 0; i < s->ncores; i++)
    if (s->cores[i] == core) return i;
  return -1;
}

static int publish_all(phase_ctx *pc, const unsigned char *freed) {
  sl_rt *rt = pc->rt;
  sl_rt_sched *s = pc->s;
  int published = 0;
  for (int k = 0; k < s->nclusters; k++) { /* MIX: a whole idle cluster is one slot */
    sl_rt_core *cs[3];
    if (!sl_rt_cluster_cores(rt, s->clusters[k], cs)) continue;
    int refill = 0;
    for (int j = 0; j < 3; j++) refill |= freed[local_index(s, cs[j]->id)];
    published += place(pc, SL_SHAPE_MIX, cs, 3, refill);
  }
  for (int i = 0; i < s->ncores; i++) {
    sl_rt_core *c = &rt->cores[s->cores[i]];
    if (!c->busy) published += place(pc, c->is_aic ? SL_SHAPE_AIC : SL_SHAPE_AIV, &c, 1, freed[i]);
  }
  return published;
}

/* ---- bootstrap ----------------------------------------------------------------------- */

static sl_rt_task *pop_global(sl_rt *rt, sl_readyq **into, sl_rt_sched *s) {
  if (sl_readyq_depth(&rt->dummyq)) {
    sl_rt_task *t = sl_readyq_pop_task(&rt->dummyq);
    if (t) {
      *into = &s->inbox_dummies;
      return t;
    }
  }
  for (int q = 0; q < SL_SHAPE_COUNT; q++) {
    sl_rt_task *t = sl_readyq_depth(&rt->queues[q]) ? sl_readyq_pop_task(&rt->queues[q]) : NULL;
    if (t) {
      *into = &s->inbox[q];
      return t;
    }
  }
  return NULL;
}

/* Classify this scheduler's share of the initially Ready tasks into its Inbox. */
static void bootstrap(phase_ctx *pc) {
  sl_rt *rt = pc->rt;
  uint64_t t0 = pc->dp ? now(pc) : 0;
  uint32_t n = 0;
  sl_readyq *into;
  sl_rt_task *t;
  while (n < rt->boot_quota && (t = pop_global(rt, &into, pc->s)) != NULL) {
    t->next_block = 0; /* out of every queue: its blocks are unclaimed again */
    sl_readyq_push(into, t);
    n++;
  }
  retire_dummies(pc);
  if (pc->dp) AISCHED_PHASE(pc, bootstrap, t0, now(pc), n, );
}

/* ---- the loop ------------------------------------------------------------------------ */

static int finished(sl_rt *rt, sl_rt_sched *s) {
  if (sl_rt_sched_busy(rt, s) || s->release_head) return 0;
  if (atomic_load_explicit(&rt->interrupted, memory_order_acquire)) return 1;
  return atomic_load_explicit(&rt->released, memory_order_acquire) ==
         atomic_load_explicit(&rt->submitted, memory_order_acquire);
}

static int work_pending(void *arg) {
  phase_ctx *pc = arg;
  sl_rt *rt = pc->rt;
  sl_rt_sched *s = pc->s;
  for (int i = 0; i < s->ncores; i++) {
    sl_rt_core *c = &rt->cores[s->cores[i]];
    if (c->busy ? atomic_load_explicit(&c->cond, memory_order_acquire) == (c->token | SL_REG_FIN_BIT)
                : inbox_has(rt, c->is_aic ? SL_SHAPE_AIC : SL_SHAPE_AIV) || inbox_has(rt, SL_SHAPE_MIX))
      return 1;
  }
  return atomic_load(&rt->interrupted) || finished(rt, s);
}

static void schedule(phase_ctx *pc) {
  sl_rt *rt = pc->rt;
  sl_rt_sched *s = pc->s;
  unsigned char freed[SL_RT_MAX_CORES];
  int idle = 0;
  bootstrap(pc);
  for (;;) {
    pc->iter++;
    memset(freed, 0, (size_t)s->ncores);
    int work = complete(pc, freed);
    if (!atomic_load_explicit(&rt->interrupted, memory_order_acquire)) work += publish_all(pc, freed);
    if (s->release_head) work += sl_rt_release_list(rt, s); /* counts only: no ring under HBG */
    if (work) {
      idle = 0;
      continue;
    }
    if (finished(rt, s)) break;
    pc->iter--; /* idle iterations are not loop iterations */
    sl_rt_idle_step(rt, &idle, &s->doorbell, &s->sleeping, work_pending, pc); /* never under the virtual clock */
  }
  sl_rt_ring_all(rt); /* the others may be waiting for released == submitted */
}

/* ---- the AICPU control plane --------------------------------------------------------- */

static void wait_until(sl_rt *rt, _Atomic int *v, int want) {
  while (atomic_load_explicit(v, memory_order_acquire) < want && !atomic_load(&rt->interrupted)) sl_rt_spin_hint();
}

/* Leader only: which physical AIV core each scheduler runs on (its first AIV, else its
** first core), published for every thread. */
static void configure_topology(sl_rt *rt) {
  for (int k = 0; k < rt->cfg.num_sched; k++) {
    sl_rt_sched *o = &rt->sched[k];
    o->phys_aiv = o->ncores ? o->cores[0] : -1;
    for (int i = 0; i < o->ncores; i++)
      if (!rt->cores[o->cores[i]].is_aic) {
        o->phys_aiv = o->cores[i];
        break;
      }
  }
  atomic_store_explicit(&rt->topology_ready, 1, memory_order_release);
}

static int all_published(sl_rt *rt) {
  for (int k = 0; k < rt->cfg.num_sched; k++)
    if (!atomic_load_explicit(&rt->sched[k].ctx_published, memory_order_acquire)) return 0;
  return 1;
}

void *sl_rt_aisched_main(void *arg) {
  sl_rt_sched *s = arg;
  sl_rt *rt = s->rt;
  phase_ctx pc = {.rt = rt, .s = s, .dp = rt->cfg.level >= SL_LEVEL_SCHED_PHASES ? rt->cfg.dp : NULL,
                  .clock = rt->clock, .standalone = 1};
  const sl_rt_clock *ck = &rt->clock;
  sl_aicpu_lifecycle_record lc;
  memset(&lc, 0, sizeof lc);
  lc.aicpu_thread_id = (uint32_t)s->idx;
  lc.handshake_start_cycles = sl_rt_now(ck);
  for (int i = 0; i < s->ncores; i++) wait_until(rt, &rt->cores[s->cores[i]].alive, 1);
  lc.handshake_complete_cycles = sl_rt_now(ck);
  if (s->idx == 0) {
    lc.config_start_cycles = sl_rt_now(ck);
    configure_topology(rt);
    lc.topology_complete_cycles = sl_rt_now(ck);
  }
  lc.context_publish_start_cycles = sl_rt_now(ck);
  wait_until(rt, &rt->topology_ready, 1); /* our physical AIV id comes from the leader */
  sl_rt_set_inbox_owner(s);
  atomic_store_explicit(&s->ctx_published, 1, memory_order_release);
  lc.context_publish_complete_cycles = sl_rt_now(ck);
  lc.bootstrap_wait_start_cycles = sl_rt_now(ck);
  while (!all_published(rt) && !atomic_load(&rt->interrupted)) sl_rt_spin_hint();
  lc.bootstrap_complete_cycles = sl_rt_now(ck);
  lc.register_release_start_cycles = sl_rt_now(ck);
  for (int i = 0; i < s->ncores; i++) {
    sl_rt_core *c = &rt->cores[s->cores[i]];
    if (pc.dp) sl_devprof_set_core_thread(pc.dp, c->id, s->idx);
    atomic_store_explicit(&c->cond, 0, memory_order_release);
  }
  /* An interrupted run can get here before the leader published the topology (every wait
  ** above gives way to rt->interrupted): phys_aiv is ours to read only once it is ready. */
  if (rt->cfg.dp && atomic_load_explicit(&rt->topology_ready, memory_order_acquire))
    sl_devprof_set_sched_core(rt->cfg.dp, s->idx, s->phys_aiv);
  lc.register_release_end_cycles = sl_rt_now(ck);
  sl_rt_atomic_min(&rt->sched_start, now(&pc));
  schedule(&pc);
  sl_rt_atomic_max(&rt->sched_end, now(&pc));
  lc.exit_signal_start_cycles = sl_rt_now(ck);
  for (int i = 0; i < s->ncores; i++) sl_rt_publish(&rt->cores[s->cores[i]], SL_REG_EXIT);
  lc.exit_signal_end_cycles = sl_rt_now(ck);
  lc.exit_wait_start_cycles = sl_rt_now(ck);
  for (int i = 0; i < s->ncores; i++) wait_until(rt, &rt->cores[s->cores[i]].alive, 2);
  lc.exit_wait_end_cycles = sl_rt_now(ck);
  sl_rt_set_inbox_owner(NULL);
  if (rt->cfg.dp) {
    sl_devprof_flush_scheduler(rt->cfg.dp, s->idx, s->cores, s->ncores);
    /* the stamps above into the record through its generated writer (level gate, padding) */
    sl_aicpu_lifecycle_record rec;
    if (sl_write_lifecycle(rt->cfg.level, &rec, lc.aicpu_thread_id, lc.handshake_start_cycles,
                           lc.handshake_complete_cycles, lc.config_start_cycles, lc.topology_complete_cycles,
                           lc.context_publish_start_cycles, lc.context_publish_complete_cycles,
                           lc.bootstrap_wait_start_cycles, lc.bootstrap_complete_cycles,
                           lc.register_release_start_cycles, lc.register_release_end_cycles,
                           lc.exit_signal_start_cycles, lc.exit_signal_end_cycles, lc.exit_wait_start_cycles,
                           lc.exit_wait_end_cycles))
      sl_devprof_lifecycle(rt->cfg.dp, s->idx, &rec);
  }
  return NULL;
}
