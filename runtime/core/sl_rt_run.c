/*
** sl_rt_run.c — running a workload on the simulated chip. Under TMR
** (tensormap_and_ringbuffer) the device threads start first — one per AICore, one
** per AICPU scheduler — and the orchestration runs on its own thread beside them,
** submitting while the schedulers dispatch; the run ends when the orchestration has
** returned and every submitted task is released. Under HBG (host_build_graph) the
** orchestration runs on the calling thread before any device thread exists, the
** built graph is uploaded (sl_rt_host.c), and the device threads then run it: the
** schedulers and the P thread (sl_rt_hbg.c), or on a5 the AICore Schedulers
** (sl_rt_aisched.c). Either way the threads that started are joined, and a start
** that fails interrupts the run so the started threads drain and exit.
**
** Under --clock virtual every thread has one virtual-clock slot (cores, schedulers,
** then the orchestrator, or HBG's P thread); a thread that never started gives its
** turns up, so the others do not wait for it.
*/
#include <stdio.h>

#include "sl_rt_internal.h"

typedef struct orch_arg {
  sl_rt *rt;
  sl_rt_orch_fn fn;
  void *ctx;
  int rc;
} orch_arg;

/* TMR: the orchestration thread (the orchestrator's virtual-clock slot). */
static void *orch_main(void *p) {
  orch_arg *a = p;
  if (a->rt->clock.vc) sl_vclock_enter(a->rt->clock.vc, sl_rt_vslot_orch(a->rt));
  a->rt->orch_start = sl_rt_now(&a->rt->clock);
  a->rc = a->fn(a->ctx, a->rt);
  a->rt->orch_end = sl_rt_now(&a->rt->clock);
  if (a->rt->cfg.level >= SL_MIN_LEVEL_ORCH_PHASE && a->rt->cfg.dp) sl_devprof_flush_orch(a->rt->cfg.dp);
  atomic_store_explicit(&a->rt->orch_done, 1, memory_order_release);
  sl_rt_ring_all(a->rt);
  if (a->rt->clock.vc) sl_vclock_leave(a->rt->clock.vc);
  return NULL;
}

/* Start the AICore threads, then the scheduler threads (and the HBG P thread); *cores
** and *sched say how many started. 0 ok; else the run is interrupted and -1. */
static int start_device(sl_rt *rt, int *cores, int *sched) {
  int c = 0, n = 0;
  for (; c < rt->ncores; c++)
    if (pthread_create(&rt->cores[c].thread, NULL, sl_rt_aicore_main, &rt->cores[c])) break;
  /* a5 HBG: the AICPU threads run the control plane around the AICore Scheduler */
  void *(*sched_fn)(void *) = rt->aicore_sched ? sl_rt_aisched_main : sl_rt_sched_main;
  int p_thread = rt->cfg.runtime == SL_RT_HBG && !rt->aicore_sched;
  for (; c == rt->ncores && n < rt->cfg.num_sched; n++)
    if (pthread_create(&rt->sched[n].thread, NULL, sched_fn, &rt->sched[n])) break;
  /* HBG: the P thread counts as one more scheduler thread (joined first below) */
  if (n == rt->cfg.num_sched && p_thread && !pthread_create(&rt->pthr.thread, NULL, sl_rt_p_main, &rt->pthr))
    n++;
  *cores = c;
  *sched = n;
  int want = rt->cfg.num_sched + p_thread;
  if (c == rt->ncores && n == want) return 0;
  snprintf(rt->err, sizeof rt->err, "could not start the simulated chip's threads");
  atomic_store(&rt->interrupted, 1);
  atomic_store(&rt->orch_done, 1);
  sl_rt_ring_all(rt);
  return -1;
}

/* Join what start_device started (the P thread first). */
static void join_device(sl_rt *rt, int cores, int sched) {
  if (sched > rt->cfg.num_sched) pthread_join(rt->pthr.thread, NULL);
  for (int s = 0; s < sched && s < rt->cfg.num_sched; s++) pthread_join(rt->sched[s].thread, NULL);
  if (sched < rt->cfg.num_sched) /* schedulers never started: stop the cores here */
    for (int i = 0; i < cores; i++)
      atomic_store_explicit(&rt->cores[i].data_main_base, SL_REG_EXIT, memory_order_release);
  for (int i = 0; i < cores; i++) pthread_join(rt->cores[i].thread, NULL);
}

/* Virtual clock: threads that never started give up their turns (cores, schedulers,
** and the last slot, the orchestrator / P thread, unless last_started). */
static void vretire_unstarted(sl_rt *rt, int cores, int sched, int last_started) {
  for (int i = 0; i <= sl_rt_vslot_orch(rt); i++) {
    int started = i < rt->ncores ? i < cores : i < sl_rt_vslot_orch(rt) ? i - rt->ncores < sched : last_started;
    if (!started) sl_vclock_retire(&rt->vc, i);
  }
}

/* --clock virtual: the host phase (orchestration + upload) is one virtual-clock slot
** on the calling thread; the device phase gets a fresh clock whose slots (cores,
** schedulers, then the P thread in the orchestrator's slot) all start where the host
** phase ended. */
static void vclock_host_begin(sl_rt *rt) {
  if (!rt->cfg.vclock) return;
  sl_vclock_init(&rt->vc, 1, rt->cfg.vclock);
  rt->clock.vc = &rt->vc;
  sl_vclock_enter(&rt->vc, 0);
}

static void vclock_device_begin(sl_rt *rt) {
  if (!rt->clock.vc) return;
  uint64_t t = sl_vclock_now(&rt->vc);
  sl_vclock_leave(&rt->vc);
  sl_vclock_free(&rt->vc);
  rt->clock.vc = NULL;
  sl_vclock_init(&rt->vc, sl_rt_vslot_orch(rt) + 1, rt->cfg.vclock);
  for (int i = 0; i < rt->vc.n; i++) rt->vc.vt[i] = t;
  rt->clock.vc = &rt->vc;
}

/* host_build_graph: the orchestration on the calling thread, the upload, then the
** device threads (schedulers + P, or the AICore Schedulers) run the built graph. */
static int hbg_run(sl_rt *rt, sl_rt_orch_fn orch, void *ctx) {
  int cores = 0, sched = 0;
  vclock_host_begin(rt);
  /* HBG opens its anchors before host orchestration: the interval covers the build,
  ** the upload and the execution */
  if (rt->cfg.clock_anchors || rt->cfg.level >= SL_MIN_LEVEL_ORCH_PHASE) sl_rt_anchor_sample(rt, SL_RT_ANCHOR_PRE);
  rt->run_start = rt->orch_start = sl_rt_now(&rt->clock);
  int rc = orch(ctx, rt);
  rt->orch_end = sl_rt_now(&rt->clock);
  atomic_store_explicit(&rt->orch_done, 1, memory_order_release);
  if (rc == 0) sl_rt_host_upload(rt);
  vclock_device_begin(rt);
  if (rc) atomic_store(&rt->interrupted, 1); /* nothing more will be submitted: drain */
  if (rt->aicore_sched) sl_rt_aisched_prepare(rt);
  if (start_device(rt, &cores, &sched)) {
    rc = -1;
    if (rt->clock.vc) vretire_unstarted(rt, cores, sched, sched > rt->cfg.num_sched);
  }
  join_device(rt, cores, sched);
  rt->run_end = sl_rt_now(&rt->clock);
  if (rt->cfg.clock_anchors || rt->cfg.level >= SL_MIN_LEVEL_ORCH_PHASE) sl_rt_anchor_sample(rt, SL_RT_ANCHOR_POST);
  return rc;
}

int sl_rt_run(sl_rt *rt, sl_rt_orch_fn orch, void *ctx) {
  if (rt->aicore_sched && rt->cfg.vclock) { /* its loops never yield a virtual-clock turn: it would hang */
    snprintf(rt->err, sizeof rt->err, "the AICore Scheduler (host_build_graph on a5) has no virtual-clock mode: use --clock wall");
    return -1;
  }
  if (rt->cfg.runtime == SL_RT_HBG) return hbg_run(rt, orch, ctx);
  int cores = 0, sched = 0, rc = 0;
  if (rt->cfg.vclock) {
    sl_vclock_init(&rt->vc, sl_rt_vslot_orch(rt) + 1, rt->cfg.vclock);
    rt->clock.vc = &rt->vc;
  }
  /* TMR opens its anchors before kernel launch: the interval covers execution only */
  if (rt->cfg.clock_anchors) sl_rt_anchor_sample(rt, SL_RT_ANCHOR_PRE);
  rt->run_start = sl_rt_now(&rt->clock);
  orch_arg oa = {rt, orch, ctx, 0};
  pthread_t ot;
  if (start_device(rt, &cores, &sched) == 0 && pthread_create(&ot, NULL, orch_main, &oa) == 0) {
    pthread_join(ot, NULL);
    rc = oa.rc;
  } else {
    if (!rt->err[0]) snprintf(rt->err, sizeof rt->err, "could not start the simulated chip's threads");
    if (rt->clock.vc) vretire_unstarted(rt, cores, sched, 0);
    atomic_store(&rt->interrupted, 1);
    atomic_store(&rt->orch_done, 1);
    sl_rt_ring_all(rt);
    rc = -1;
  }
  join_device(rt, cores, sched);
  rt->run_end = sl_rt_now(&rt->clock);
  if (rt->cfg.clock_anchors) sl_rt_anchor_sample(rt, SL_RT_ANCHOR_POST);
  return rc;
}
