/*
** sl_rt_hbg.c — the host_build_graph runtime (docs/runtimes.md).
**
** The host runs the orchestration on the calling thread before any device thread
** exists: every submit builds its task and dependencies with the same tensormap and
** ready queues as TMR, and leaves one host-orchestrator record (host monotonic ns).
** The graph is then uploaded (arena / graph / tensor H2D steps that copy the bytes
** into a device-side image), and the device runs it: the AICPU schedulers dispatch
** and collect FINs as under TMR, but hand every completed task through their SPSC
** completion slots to the dedicated P thread, which runs three standalone, mutually
** exclusive phases: resolve_standalone (the slots), async_poll (landed async waits)
** and dummy (explicit dummies, false predicates). Consecutive empty polls are
** compacted into one async_poll(0) record whose duration is the sum of the polls.
**
** Clock anchors: SL_RT_ANCHOR_SAMPLES samples before host orchestration and after
** device execution (TMR samples before kernel launch, sl_runtime.c).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sl_park.h"
#include "sl_rt_phase.h"
#include "sl_rt_mem.h"

static int64_t (*g_host_clock)(void);

void sl_rt_set_host_clock(int64_t (*now_ns)(void)) { g_host_clock = now_ns; }

uint64_t sl_rt_host_ns(void) {
  if (g_host_clock) return (uint64_t)g_host_clock();
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t sl_rt_run_host_ns(sl_rt *rt) {
  if (!rt->clock.vc) return sl_rt_host_ns();
  uint64_t c = sl_rt_now(&rt->clock);
  return SL_RT_VHOST_EPOCH_NS + (uint64_t)((unsigned __int128)c * 1000000000u / rt->clock.freq_hz);
}

/* ---- host records ---------------------------------------------------------------------- */

/* One more record for host pool `pool` holding `kept` records: 1 when it has room,
** else 0 and the record counts as dropped (the pool's capacity is cfg.host_pool_records). */
static int host_pool_take(sl_rt *rt, int pool, size_t kept) {
  rt->host_attempted[pool]++;
  if (rt->cfg.host_pool_records > 0 && kept >= (size_t)rt->cfg.host_pool_records) {
    rt->host_dropped[pool]++;
    return 0;
  }
  return 1;
}

void sl_rt_host_pool(const sl_rt *rt, int pool, uint64_t *attempted, uint64_t *dropped) {
  int ok = pool >= 0 && pool < SL_RT_HOST_POOLS;
  *attempted = ok ? rt->host_attempted[pool] : 0;
  *dropped = ok ? rt->host_dropped[pool] : 0;
}

void sl_rt_host_submit_record(sl_rt *rt, uint64_t start_ns, uint64_t id, uint32_t submit_idx) {
  if (rt->cfg.level < SL_MIN_LEVEL_ORCH_PHASE) return;
  if (!host_pool_take(rt, SL_RT_HOST_POOL_SUBMITS, rt->nhost_subs)) return;
  if (rt->nhost_subs == rt->caphost_subs) {
    size_t cap = rt->caphost_subs ? 2 * rt->caphost_subs : 256;
    rt->host_subs = sl_rt_realloc(rt->host_subs, cap * sizeof *rt->host_subs);
    rt->caphost_subs = cap;
  }
  rt->host_subs[rt->nhost_subs++] = (sl_rt_host_submit){submit_idx, id, start_ns, sl_rt_run_host_ns(rt)};
}

size_t sl_rt_host_submits(const sl_rt *rt, const sl_rt_host_submit **out) {
  *out = rt->host_subs;
  return rt->nhost_subs;
}
size_t sl_rt_uploads(const sl_rt *rt, const sl_rt_upload **out) {
  *out = rt->uploads;
  return (size_t)rt->nuploads;
}
size_t sl_rt_anchors(const sl_rt *rt, const sl_rt_anchor **out) {
  *out = rt->anchors;
  return (size_t)rt->nanchors;
}

void sl_rt_anchor_sample(sl_rt *rt, int position) {
  for (int i = 0; i < SL_RT_ANCHOR_SAMPLES && rt->nanchors < 2 * SL_RT_ANCHOR_SAMPLES; i++) {
    sl_rt_anchor *a = &rt->anchors[rt->nanchors++];
    a->position = position;
    a->sample_idx = i;
    a->host_before_ns = sl_rt_run_host_ns(rt);
    a->device_cycles = sl_rt_now(&rt->clock);
    a->host_after_ns = sl_rt_run_host_ns(rt);
  }
}

/* ---- upload ---------------------------------------------------------------------------- */

/* Under the virtual clock a copy costs its bytes at the model's work per cycle. */
static void upload_step(sl_rt *rt, int kind, uint64_t t0, uint64_t bytes) {
  sl_rt_vadvance(rt, bytes / (rt->vc.m.work_per_cycle ? rt->vc.m.work_per_cycle : 1));
  /* the copy happened; only its record goes through the host pool (capture on) */
  if (rt->cfg.level >= SL_MIN_LEVEL_ORCH_PHASE && !host_pool_take(rt, SL_RT_HOST_POOL_UPLOADS, (size_t)rt->nuploads))
    return;
  rt->uploads[rt->nuploads++] = (sl_rt_upload){kind, t0, sl_rt_run_host_ns(rt), bytes};
}

/* Copy the built graph into one device image: the arena (zeroed), the task records
** and their tensor descriptors (graph), then every buffer's contents (tensor H2D).
** The simulated kernels keep reading the host buffers (the simulated GM). */
static int upload(sl_rt *rt) {
  uint64_t graph = 0, tensors = 0;
  for (size_t i = 0; i < rt->ntasks; i++)
    graph += sizeof(sl_rt_task) + (uint64_t)rt->tasks[i]->ntensors * sizeof(sl_tensor_desc);
  for (sl_rt_buffer *b = rt->buffers; b; b = b->next) tensors += b->bytes;
  uint64_t t0 = sl_rt_run_host_ns(rt);
  char *img = sl_rt_alloc((size_t)(graph + tensors) + 1);
  memset(img, 0, (size_t)(graph + tensors));
  rt->dev_arena = img;
  upload_step(rt, SL_HOST_PHASE_ARENA_H2D, t0, graph + tensors);
  t0 = sl_rt_run_host_ns(rt);
  char *p = img;
  for (size_t i = 0; i < rt->ntasks; i++) {
    const sl_rt_task *t = rt->tasks[i];
    memcpy(p, t, sizeof *t);
    p += sizeof *t;
    if (t->ntensors) memcpy(p, t->descs, (size_t)t->ntensors * sizeof(sl_tensor_desc));
    p += (size_t)t->ntensors * sizeof(sl_tensor_desc);
  }
  upload_step(rt, SL_HOST_PHASE_GRAPH_UPLOAD, t0, graph);
  t0 = sl_rt_run_host_ns(rt);
  for (sl_rt_buffer *b = rt->buffers; b; b = b->next) {
    memcpy(p, b->data, (size_t)b->bytes);
    p += b->bytes;
  }
  upload_step(rt, SL_HOST_PHASE_TENSOR_H2D, t0, tensors);
  return 0;
}

/* --clock virtual: the host phase (orchestration + upload) is one virtual-clock slot
** on the calling thread; the device phase gets a fresh clock whose slots (cores,
** schedulers, then the P thread in the orchestrator's slot) all start where the host
** phase ended. */
static int vclock_host_begin(sl_rt *rt) {
  if (!rt->cfg.vclock) return 0;
  if (sl_vclock_init(&rt->vc, 1, rt->cfg.vclock)) return -1;
  rt->clock.vc = &rt->vc;
  sl_vclock_enter(&rt->vc, 0);
  return 0;
}

static int vclock_device_begin(sl_rt *rt) {
  if (!rt->clock.vc) return 0;
  uint64_t t = sl_vclock_now(&rt->vc);
  sl_vclock_leave(&rt->vc);
  sl_vclock_free(&rt->vc);
  rt->clock.vc = NULL;
  if (sl_vclock_init(&rt->vc, sl_rt_vslot_orch(rt) + 1, rt->cfg.vclock)) return -1;
  for (int i = 0; i < rt->vc.n; i++) rt->vc.vt[i] = t;
  rt->clock.vc = &rt->vc;
  return 0;
}

int sl_rt_hbg_run(sl_rt *rt, sl_rt_orch_fn orch, void *ctx) {
  int cores = 0, sched = 0;
  if (vclock_host_begin(rt)) {
    snprintf(rt->err, sizeof rt->err, "out of memory");
    return -1;
  }
  /* HBG opens its anchors before host orchestration: the interval covers the build,
  ** the upload and the execution */
  if (rt->cfg.clock_anchors || rt->cfg.level >= SL_MIN_LEVEL_ORCH_PHASE) sl_rt_anchor_sample(rt, SL_RT_ANCHOR_PRE);
  rt->run_start = rt->orch_start = sl_rt_now(&rt->clock);
  int rc = orch(ctx, rt);
  rt->orch_end = sl_rt_now(&rt->clock);
  atomic_store_explicit(&rt->orch_done, 1, memory_order_release);
  if (rc == 0 && upload(rt)) {
    snprintf(rt->err, sizeof rt->err, "out of memory for the device image");
    rc = -1;
  }
  if (vclock_device_begin(rt)) {
    snprintf(rt->err, sizeof rt->err, "out of memory");
    return -1;
  }
  if (rc) atomic_store(&rt->interrupted, 1); /* nothing more will be submitted: drain */
  if (rt->aicore_sched) sl_rt_aisched_prepare(rt);
  if (sl_rt_start_device(rt, &cores, &sched)) {
    rc = -1;
    if (rt->clock.vc) sl_rt_vretire_unstarted(rt, cores, sched, sched > rt->cfg.num_sched);
  }
  sl_rt_join_device(rt, cores, sched);
  rt->run_end = sl_rt_now(&rt->clock);
  if (rt->cfg.clock_anchors || rt->cfg.level >= SL_MIN_LEVEL_ORCH_PHASE) sl_rt_anchor_sample(rt, SL_RT_ANCHOR_POST);
  return rc;
}

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
