/*
** sl_runtime.c — building the simulated chip (cores dealt to schedulers, queues,
** the tensormap), taking it down, and the read-only views of the run (stats, task
** graph, args dump) afterwards. Running a workload is sl_rt_run.c.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sl_rt_internal.h"
#include "sl_rt_mem.h"

static _Thread_local char config_err[256];
const char *sl_rt_config_error(void) { return config_err; }

sl_rt *sl_rt_create(const sl_rt_config *cfg) {
  config_err[0] = 0;
  int ncores = cfg->num_aic + cfg->num_aiv;
  if (cfg->num_aic < 0 || cfg->num_aiv < 0 || ncores < 1 || ncores > SL_RT_MAX_CORES) {
    snprintf(config_err, sizeof config_err, "core counts must give 1..%d cores (got %d AIC + %d AIV)",
             SL_RT_MAX_CORES, cfg->num_aic, cfg->num_aiv);
    return NULL;
  }
  if (cfg->num_sched < 1 || cfg->num_sched > SL_RT_MAX_SCHED) {
    snprintf(config_err, sizeof config_err, "scheduler threads must be 1..%d (got %d)", SL_RT_MAX_SCHED,
             cfg->num_sched);
    return NULL;
  }
  if (cfg->level > SL_LEVEL_MAX || !cfg->clock_freq_hz) {
    snprintf(config_err, sizeof config_err, "bad level %u or clock frequency", cfg->level);
    return NULL;
  }
  sl_rt *rt = sl_rt_calloc(1, sizeof *rt);
  rt->cfg = *cfg;
  rt->clock = sl_rt_clock_make(cfg->clock_freq_hz);
  if (rt->cfg.level == SL_LEVEL_DISABLED) rt->cfg.dp = NULL;
  if (!rt->cfg.dp) rt->cfg.level = SL_LEVEL_DISABLED;
  rt->ncores = ncores;
  rt->nclusters = cfg->num_aic < cfg->num_aiv / 2 ? cfg->num_aic : cfg->num_aiv / 2;
  rt->cores = sl_rt_aligned(64, sizeof(sl_rt_core) * (size_t)ncores);
  memset(rt->cores, 0, sizeof(sl_rt_core) * (size_t)ncores);
  /* Ownership: cluster c (its AIC and two AIVs) goes to scheduler c % S; cores outside
  ** any cluster are dealt round-robin after that. */
  int *owner = sl_rt_alloc(sizeof(int) * (size_t)ncores);
  for (int i = 0; i < ncores; i++) owner[i] = -1;
  for (int c = 0; c < rt->nclusters; c++) {
    int s = c % cfg->num_sched;
    owner[c] = owner[cfg->num_aic + 2 * c] = owner[cfg->num_aic + 2 * c + 1] = s;
    rt->sched[s].clusters[rt->sched[s].nclusters++] = c;
  }
  int rr = 0;
  for (int i = 0; i < ncores; i++)
    if (owner[i] < 0) owner[i] = rr++ % cfg->num_sched;
  for (int i = 0; i < ncores; i++) {
    sl_rt_core *c = &rt->cores[i];
    c->id = i;
    c->is_aic = i < cfg->num_aic;
    c->owner = owner[i];
    c->rt = rt;
    sl_rt_sched *s = &rt->sched[owner[i]];
    s->cores[s->ncores++] = i;
  }
  sl_rt_free(owner);
  for (int s = 0; s < cfg->num_sched; s++) {
    rt->sched[s].rt = rt;
    rt->sched[s].idx = s;
    rt->sched[s].phys_aiv = -1;
  }
  rt->pthr.rt = rt;
  rt->pthr.idx = cfg->num_sched;
  sl_tensormap_init(&rt->tm, 4096);
  rt->tm.finished = sl_rt_task_done;
  int bad = 0; /* a mutex the system refuses */
  for (int q = 0; q < SL_SHAPE_COUNT; q++) bad |= sl_readyq_init(&rt->queues[q]);
  bad |= sl_readyq_init(&rt->dummyq);
  bad |= sl_readyq_init(&rt->syncq);
  atomic_init(&rt->sched_start, UINT64_MAX);
  for (int i = 0; i < SL_RT_TIMING_SLOTS; i++) atomic_init(&rt->slot_start[i], UINT64_MAX);
  bad |= sl_readyq_init(&rt->graphq);
  for (int s = 0; s < cfg->num_sched; s++) { /* AICore Scheduler Inboxes (a5 HBG) */
    for (int q = 0; q < SL_SHAPE_COUNT; q++) bad |= sl_readyq_init(&rt->sched[s].inbox[q]);
    bad |= sl_readyq_init(&rt->sched[s].inbox_dummies);
  }
  pthread_mutex_init(&rt->dump_mu, NULL);
  if (bad) {
    snprintf(config_err, sizeof config_err, "the system refused a ready queue's mutex");
    sl_rt_destroy(rt);
    return NULL;
  }
  return rt;
}

/* The timed orchestrator steps are schema orchestrator kinds (phases.lua orch_phases): their
** label names the device-log counter (g_orch_<label>_cycle). */
const char *sl_rt_orch_step_name(int step) {
  static const enum sl_orch_phase_kind kind[SL_ORCH_STEPS] = {
      SL_ORCH_PHASE_SYNC, SL_ORCH_PHASE_ALLOC, SL_ORCH_PHASE_PARAMS, SL_ORCH_PHASE_LOOKUP, SL_ORCH_PHASE_INSERT,
      SL_ORCH_PHASE_FANIN};
  const sl_orch_phase_info *o = step >= 0 && step < SL_ORCH_STEPS ? sl_orch_phase_by_id(kind[step]) : NULL;
  return o ? o->display : "?";
}

sl_rt_timing sl_rt_get_timing(const sl_rt *rt) {
  sl_rt *r = (sl_rt *)rt;
  sl_rt_timing t;
  memset(&t, 0, sizeof t);
  t.freq_hz = rt->cfg.clock_freq_hz;
  t.run_start = rt->run_start;
  t.run_end = rt->run_end;
  t.orch_start = rt->orch_start;
  t.orch_end = rt->orch_end;
  t.sched_start = atomic_load(&r->sched_start);
  t.sched_end = atomic_load(&r->sched_end);
  memcpy(t.orch_cycles, rt->orch_cycles, sizeof t.orch_cycles);
  t.submits = rt->orch_submits;
  for (int i = 0; i < SL_RT_TIMING_SLOTS; i++) {
    t.slot_start[i] = atomic_load(&r->slot_start[i]);
    t.slot_end[i] = atomic_load(&r->slot_end[i]);
    t.slot_set[i] = t.slot_start[i] != UINT64_MAX && t.slot_end[i] >= t.slot_start[i];
  }
  return t;
}

void sl_rt_use_aicore_scheduler(sl_rt *rt) { rt->aicore_sched = rt->cfg.runtime == SL_RT_HBG; }

/* Async-signal-safe: one store; parked schedulers notice within their park timeout. */
void sl_rt_interrupt(sl_rt *rt) { atomic_store_explicit(&rt->interrupted, 1, memory_order_release); }
int sl_rt_get_runtime(const sl_rt *rt) { return rt->cfg.runtime; }

int sl_rt_interrupted(const sl_rt *rt) {
  return atomic_load_explicit(&((sl_rt *)rt)->interrupted, memory_order_acquire);
}

void sl_rt_destroy(sl_rt *rt) {
  if (!rt) return;
  for (size_t i = 0; i < rt->ntasks; i++) {
    sl_rt_task *t = rt->tasks[i];
    pthread_mutex_destroy(&t->mu);
    sl_rt_free(t->fanout);
    sl_rt_free(t->descs);
    sl_rt_free(t->tensors);
    if (t->nodes) sl_rt_graph_free_nodes(t);
    sl_rt_free(t);
  }
  sl_rt_free(rt->tasks);
  sl_rt_free(rt->host_subs);
  sl_rt_free(rt->dev_arena);
  for (int r = 0; r < SL_RT_MAX_RINGS; r++) sl_rt_free(rt->ring_index[r]);
  sl_rt_graphs_free(rt);
  sl_vclock_free(&rt->vc);
  sl_rt_free(rt->edges);
  for (sl_rt_buffer *b = rt->buffers, *n; b; b = n) {
    n = b->next;
    sl_rt_free(b->data);
    sl_rt_free(b);
  }
  for (size_t i = 0; i < rt->ndump; i++) sl_rt_free(rt->dump[i].payload);
  sl_rt_free(rt->dump);
  pthread_mutex_destroy(&rt->dump_mu);
  sl_tensormap_free(&rt->tm);
  for (int q = 0; q < SL_SHAPE_COUNT; q++) sl_readyq_free(&rt->queues[q]);
  sl_readyq_free(&rt->dummyq);
  sl_readyq_free(&rt->syncq);
  sl_readyq_free(&rt->graphq);
  for (int s = 0; s < rt->cfg.num_sched; s++) {
    for (int q = 0; q < SL_SHAPE_COUNT; q++) sl_readyq_free(&rt->sched[s].inbox[q]);
    sl_readyq_free(&rt->sched[s].inbox_dummies);
  }
  sl_rt_free(rt->cores);
  sl_rt_free(rt);
}

void sl_rt_progress(const sl_rt *rt, uint64_t *submitted, uint64_t *completed) {
  sl_rt *r = (sl_rt *)rt;
  *submitted = atomic_load(&r->submitted);
  *completed = atomic_load(&r->completed);
}

sl_rt_stats sl_rt_get_stats(const sl_rt *rt) {
  sl_rt *r = (sl_rt *)rt;
  sl_rt_stats st = {0};
  st.tasks = atomic_load(&r->submitted);
  st.kernel_tasks = atomic_load(&r->kernel_tasks);
  st.dummy_tasks = atomic_load(&r->dummy_tasks);
  st.skipped_tasks = atomic_load(&r->skipped_tasks);
  st.alloc_tasks = atomic_load(&r->alloc_tasks);
  st.completed = atomic_load(&r->completed);
  memcpy(st.ring_peak, rt->ring_peak, sizeof st.ring_peak);
  for (int s = 0; s < rt->cfg.num_sched; s++) {
    st.dispatches += rt->sched[s].dispatches;
    st.pop_hit += rt->sched[s].total_hit;
    st.pop_miss += rt->sched[s].total_miss;
  }
  return st;
}

size_t sl_rt_task_count(const sl_rt *rt) { return rt->ntasks; }
const sl_rt_task *sl_rt_task_at(const sl_rt *rt, size_t i) { return i < rt->ntasks ? rt->tasks[i] : NULL; }
uint64_t sl_rt_task_id(const sl_rt_task *t) { return t->id; }
void sl_rt_task_kernels(const sl_rt_task *t, int k[3]) { memcpy(k, t->kernel_ids, 3 * sizeof(int)); }
int sl_rt_task_block_num(const sl_rt_task *t) { return t->block_num; }
int sl_rt_task_is_alloc(const sl_rt_task *t) { return t->is_alloc; }
int sl_rt_task_ntensors(const sl_rt_task *t) { return t->ntensors; }
int sl_rt_task_nscalars(const sl_rt_task *t) { return t->nscalars; }
const sl_rt_tensor *sl_rt_task_tensor(const sl_rt_task *t, int i) { return &t->tensors[i]; }
sl_arg_dir sl_rt_task_dir(const sl_rt_task *t, int i) { return t->dirs[i]; }
sl_rt_scalar sl_rt_task_scalar(const sl_rt_task *t, int i) { return t->scalars[i]; }
size_t sl_rt_edge_count(const sl_rt *rt) { return rt->nedges; }
const sl_rt_edge *sl_rt_edge_at(const sl_rt *rt, size_t i) { return i < rt->nedges ? &rt->edges[i] : NULL; }
size_t sl_rt_dump_count(const sl_rt *rt) { return rt->ndump; }
const sl_rt_dump_entry *sl_rt_dump_at(const sl_rt *rt, size_t i) { return i < rt->ndump ? &rt->dump[i] : NULL; }
void sl_rt_core_counts(const sl_rt *rt, int *num_aic, int *num_aiv) {
  *num_aic = rt->cfg.num_aic;
  *num_aiv = rt->cfg.num_aiv;
}
