/*
** sl_rt_orch.c — the orchestrator side: submit_task / alloc_tensors, dependency
** discovery through the tensormap, ring-slot back-pressure and the recorded graph
** (deps.json). A submitted task whose dependencies are met is made ready through
** sl_rt_task.c; the orchestrator never calls a scheduler loop.
*/
#include <stdio.h>
#include <string.h>

#include "sl_rt_internal.h"
#include "sl_tdesc.h"
#include "sl_rt_mem.h"

static void set_err(sl_rt *rt, const char *msg) { snprintf(rt->err, sizeof rt->err, "%s", msg); }
const char *sl_rt_last_error(const sl_rt *rt) { return rt->err; }

uint64_t sl_rt_tensor_id(const sl_rt_buffer *b) {
  uint64_t h = 0xcbf29ce484222325ull, words[2] = {b->vaddr ? b->vaddr : (uint64_t)(uintptr_t)b->data,
                                            (uint64_t)(uint32_t)b->version};
  const unsigned char *p = (const unsigned char *)words;
  for (size_t i = 0; i < sizeof words; i++) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

sl_rt_buffer *sl_rt_buffer_new(sl_rt *rt, uint64_t bytes) {
  void *data = bytes > SIZE_MAX ? NULL : sl_rt_try_calloc(1, (size_t)bytes); /* the workload chose the size */
  if (!data) return NULL;
  sl_rt_buffer *b = sl_rt_calloc(1, sizeof *b);
  b->data = data;
  b->bytes = bytes;
  b->creator_task = UINT64_MAX;
  if (rt->cfg.vclock) { /* a simulated GM address, so ids repeat from run to run */
    b->vaddr = rt->vaddr_next += 0x1000u;
    rt->vaddr_next += (bytes + 0xFFFu) & ~(uint64_t)0xFFFu;
  }
  b->next = rt->buffers;
  rt->buffers = b;
  return b;
}

/* Byte span [lo, hi) a view touches. */
static void span(const sl_rt_tensor *t, uint64_t *lo, uint64_t *hi) {
  size_t es = sl_dtype_size(t->dtype);
  uint64_t last = (uint64_t)t->start_offset;
  int empty = 0;
  for (int i = 0; i < t->ndims; i++) {
    if (t->shape[i] <= 0) empty = 1;
    else last += (uint64_t)(t->shape[i] - 1) * (uint64_t)t->strides[i];
  }
  *lo = (uint64_t)t->start_offset * es;
  *hi = empty ? *lo : (last + 1) * es;
}

int sl_rt_view_contiguous(int ndims, const int64_t *shape, const int64_t *strides) {
  int64_t expect = 1;
  for (int i = ndims - 1; i >= 0; i--) {
    if (shape[i] != 1 && strides[i] != expect) return 0;
    expect *= shape[i];
  }
  return 1;
}

static int is_contiguous(const sl_rt_tensor *t) { return sl_rt_view_contiguous(t->ndims, t->shape, t->strides); }

/* Every byte of the span is written: contiguous, or any view whose elements tile it. */
static int is_dense(const sl_rt_tensor *t) { return is_contiguous(t); }

void sl_rt_fill_desc(sl_tensor_desc *d, const sl_rt_tensor *t) {
  memset(d, 0, sizeof *d);
  SL_TD_ADDR(d) = (uint64_t)(uintptr_t)t->buf->data;
  SL_TD_SIZE(d) = t->buf->bytes;
  SL_TD_START(d) = (uint64_t)t->start_offset;
  SL_TD_VERSION(d) = t->buf->version;
  SL_TD_NDIMS(d) = (uint32_t)t->ndims;
  SL_TD_DTYPE(d) = (uint8_t)t->dtype;
  SL_TD_CONTIG(d) = (uint8_t)is_contiguous(t);
  for (int i = 0; i < t->ndims && i < SL_TD_MAX_DIMS; i++) {
    SL_TD_SHAPE(d, i) = (uint32_t)t->shape[i];
    SL_TD_STRIDE(d, i) = (uint32_t)t->strides[i];
  }
}

static void push_edge(sl_rt *rt, sl_rt_edge e) {
  if (rt->cfg.dep_gen) *SL_RT_PUSH(rt->edges, rt->nedges, rt->capedges) = e;
}

/* Remember where ring r's next local id lives in tasks[]. */
static void index_ring(sl_rt *rt, int r) {
  size_t local = rt->next_local[r];
  rt->ring_index[r] = sl_rt_grow(rt->ring_index[r], &rt->ring_cap[r], local + 1, sizeof *rt->ring_index[r]);
  rt->ring_index[r][local] = rt->ntasks;
}

int sl_rt_scope_begin(sl_rt *rt) {
  if (rt->ring + 1 >= SL_RT_MAX_RINGS) {
    set_err(rt, "scopes nest at most 3 deep (rings 0..3)");
    return -1;
  }
  rt->ring++;
  return 0;
}

int sl_rt_scope_end(sl_rt *rt) {
  if (rt->ring == 0) {
    set_err(rt, "scope_end without an open scope");
    return -1;
  }
  rt->ring--;
  return 0;
}

static sl_rt_task *new_task(sl_rt *rt) {
  index_ring(rt, rt->ring);
  sl_rt_task *t = sl_rt_calloc(1, sizeof *t);
  pthread_mutex_init(&t->mu, NULL);
  t->id = ((uint64_t)rt->ring << 32) | rt->next_local[rt->ring]++;
  t->block_num = 1;
  t->predicate = 1;
  t->shape = -1;
  t->timing_slot = -1;
  for (int i = 0; i < 3; i++) t->kernel_ids[i] = -1;
  *SL_RT_PUSH(rt->tasks, rt->ntasks, rt->captasks) = t;
  return t;
}

/* Make `succ` wait for `pred` unless pred already finished. */
static void add_dep(sl_rt_task *pred, sl_rt_task *succ) {
  pthread_mutex_lock(&pred->mu);
  if (!pred->done) {
    *SL_RT_PUSH(pred->fanout, pred->nfanout, pred->capfanout) = succ;
    atomic_fetch_add_explicit(&succ->fanin, 1, memory_order_relaxed);
  }
  pthread_mutex_unlock(&pred->mu);
}

/* Wait for a slot of the current scope's ring: every ring has its own budget of
** --ring tasks in flight (an inner scope never waits for an outer scope's tasks, or
** the other way round), and the scheduler's release phase frees them. */
typedef struct ring_wait {
  atomic_uint_fast64_t *inflight;
  uint64_t cap;
} ring_wait;

static int ring_has_slot(void *arg) {
  const ring_wait *w = arg;
  return atomic_load(w->inflight) < w->cap;
}

static int wait_ring(sl_rt *rt) {
  if (rt->cfg.runtime == SL_RT_HBG) return 0; /* the host builds the whole graph: no ring */
  uint64_t cap = (uint64_t)(rt->cfg.ring_size > 0 ? rt->cfg.ring_size : 4096);
  atomic_uint_fast64_t *inflight = &rt->inflight[rt->ring];
  int idle = 0;
  ring_wait w = {inflight, cap};
  while (atomic_load_explicit(inflight, memory_order_acquire) >= cap) {
    if (atomic_load_explicit(&rt->interrupted, memory_order_acquire)) return -1;
    sl_rt_idle_step(rt, &idle, &rt->ring_bell, &rt->orch_sleeping, ring_has_slot, &w);
  }
  return 0;
}

sl_rt_task *sl_rt_find_task(sl_rt *rt, uint64_t id) {
  uint64_t r = id >> 32, local = id & 0xFFFFFFFFu;
  if (r >= SL_RT_MAX_RINGS || local >= rt->next_local[r]) return NULL;
  return rt->tasks[rt->ring_index[r][local]];
}

const sl_rt_task *sl_rt_task_by_id(const sl_rt *rt, uint64_t id) { return sl_rt_find_task((sl_rt *)rt, id); }

/* Cold-path diagnostics: charge the time since the last mark to sub-step k. */
static void orch_lap(sl_rt *rt, int k) {
  uint64_t t = sl_rt_now(&rt->clock);
  rt->orch_cycles[k] += t - rt->orch_mark;
  rt->orch_mark = t;
}

/* Order argument i of t after every earlier access it conflicts with (RAW for a
** read, WAW + WAR for a write; an inout is both). */
static void order_arg(sl_rt *rt, sl_rt_task *t, int i, uint64_t tid) {
  const sl_rt_tensor *tt = &t->tensors[i];
  uint64_t lo, hi;
  span(tt, &lo, &hi);
  int is_write = t->dirs[i] != SL_ARG_IN;
  sl_tm_hit local[64], *hits = local;
  size_t n = sl_tensormap_lookup(&rt->tm, tt->buf, lo, hi, is_write, hits, 64);
  if (n > 64) { /* many small accesses under one span: every one is a dependency */
    hits = sl_rt_alloc(n * sizeof *hits);
    sl_tensormap_lookup(&rt->tm, tt->buf, lo, hi, is_write, hits, n);
  }
  orch_lap(rt, SL_ORCH_LOOKUP);
  for (size_t h = 0; h < n; h++) {
    sl_rt_task *p = hits[h].producer;
    if (p == t) continue;
    /* an inout meeting a writer is RAW (it reads what was written) */
    int hz = hits[h].hazard == SL_TM_WAW && t->dirs[i] == SL_ARG_INOUT ? SL_TM_RAW : (int)hits[h].hazard;
    if (p->order_mark != t) add_dep(p, t);
    push_edge(rt, (sl_rt_edge){.pred = p->id, .succ = t->id, .arg = i, .source = SL_RT_EDGE_TENSORMAP,
                               .covered = hits[h].covered, .tensor_id = tid, .prod_arg = hits[h].prod_arg,
                               .hazard = hz});
    p->order_mark = t; /* one wait per predecessor, however many args meet it */
  }
  if (hits != local) sl_rt_free(hits);
  orch_lap(rt, SL_ORCH_FANIN);
}

/* After ordering: t becomes the last writer of what it writes and a reader of what
** it only reads. */
static void record_accesses(sl_rt *rt, sl_rt_task *t) {
  for (int i = 0; i < t->ntensors; i++) {
    uint64_t lo, hi;
    span(&t->tensors[i], &lo, &hi);
    if (t->dirs[i] == SL_ARG_IN)
      sl_tensormap_insert_read(&rt->tm, t->tensors[i].buf, lo, hi, t, i);
    else
      sl_tensormap_insert(&rt->tm, t->tensors[i].buf, lo, hi, t, i, is_dense(&t->tensors[i]));
  }
}

uint64_t sl_rt_submit_task(sl_rt *rt, const sl_rt_submit *s) { return sl_rt_submit_internal(rt, s, NULL); }

/* Sync-start and async-wait requests that this chip can honour. */
static const char *check_special(const sl_rt *rt, const sl_rt_submit *s, int members, int has_aic) {
  if (!s->sync_start) return NULL;
  if (members != 1) return "sync_start needs a single-kernel task (not MIX, not a dummy)";
  if (s->block_num > (has_aic ? rt->cfg.num_aic : rt->cfg.num_aiv))
    return "sync_start: block_num exceeds the cores of that type (the blocks could never start together)";
  return NULL;
}

/* A task kind the A5 AICore Scheduler has no path for: the message, else NULL. */
static const char *aisched_refuse(const sl_rt *rt, const sl_rt_submit *s, const struct sl_rt_graph *graph) {
  if (!rt->aicore_sched) return NULL;
  if (graph) return "the A5 AICore Scheduler (--runtime hbg on a5) runs no graph task";
  if (s->sync_start) return "the A5 AICore Scheduler (--runtime hbg on a5) runs no sync-start task";
  if (s->async_us) return "the A5 AICore Scheduler (--runtime hbg on a5) runs no async-wait task";
  return NULL;
}

/* A submit the runtime can take: NULL, or what is wrong. */
static const char *check_submit(sl_rt *rt, const sl_rt_submit *s, int *members, int *has_aic) {
  if (s->ntensors < 0 || s->ntensors > SL_RT_MAX_TENSOR_ARGS || s->nscalars < 0 || s->nscalars > SL_RT_MAX_SCALAR_ARGS)
    return "too many task arguments (at most 32 tensors and 16 scalars)";
  *members = *has_aic = 0;
  for (int i = 0; i < 3; i++)
    if (s->kernel_ids[i] >= 0) {
      if (!s->fns[i]) return "task member has no kernel function";
      ++*members;
      if (i == 0) *has_aic = 1;
    }
  if (s->block_num < 1 || s->block_num > (1 << 20)) return "block_num must be 1..1048576";
  if (*members > 1 && rt->nclusters == 0) return "MIX task needs a cluster (1 AIC + 2 AIV), this chip has none";
  if (*members == 1 && ((*has_aic && rt->cfg.num_aic == 0) || (!*has_aic && rt->cfg.num_aiv == 0)))
    return "task needs a core type this chip has none of";
  if (s->has_timing_slot && (s->timing_slot < 0 || s->timing_slot >= SL_RT_TIMING_SLOTS))
    return "timing slot must be 0..15";
  const char *special = check_special(rt, s, *members, *has_aic);
  if (special) return special;
  for (int i = 0; i < s->ndeps; i++)
    if (!sl_rt_find_task(rt, s->explicit_deps[i])) return "explicit dependency names an unknown task id";
  return NULL;
}

/* The task's fields and payload copy. */
static void build_task(sl_rt *rt, sl_rt_task *t, const sl_rt_submit *s, int members, int has_aic,
                       const struct sl_rt_graph *graph) {
  memcpy(t->kernel_ids, s->kernel_ids, sizeof t->kernel_ids);
  memcpy(t->fns, s->fns, sizeof t->fns);
  if (members == 1 && t->kernel_ids[2] >= 0) { /* a single AIV kernel always sits in slot aiv0 */
    t->kernel_ids[1] = t->kernel_ids[2];
    t->fns[1] = t->fns[2];
    t->kernel_ids[2] = -1;
    t->fns[2] = NULL;
  }
  t->nmembers = members;
  t->is_dummy = members == 0 && !graph;
  t->graph = graph;
  t->sync_start = s->sync_start;
  t->async_cycles = (uint64_t)s->async_us * rt->cfg.clock_freq_hz / 1000000u;
  t->timing_slot = s->has_timing_slot ? s->timing_slot : -1;
  t->shape = members == 0 ? -1 : members > 1 ? SL_SHAPE_MIX : has_aic ? SL_SHAPE_AIC : SL_SHAPE_AIV;
  t->block_num = members == 0 ? 1 : s->block_num;
  t->predicate = s->predicate;
  t->ntensors = s->ntensors;
  t->nscalars = s->nscalars;
  atomic_init(&t->pending, t->block_num * (members ? members : 1));
  atomic_init(&t->fanin, 1); /* submit guard */
  if (t->ntensors) {
    t->descs = sl_rt_aligned(64, (size_t)t->ntensors * sizeof(sl_tensor_desc));
  }
  if (t->ntensors || t->nscalars) {
    t->tensors = sl_rt_alloc((size_t)t->ntensors * (sizeof *t->tensors + sizeof *t->dirs) +
                        (size_t)t->nscalars * sizeof *t->scalars + sizeof(sl_rt_scalar));
    /* layout: tensors | scalars | dirs (keeps each array aligned) */
    t->scalars = (sl_rt_scalar *)(t->tensors + t->ntensors);
    t->dirs = (sl_arg_dir *)(t->scalars + t->nscalars);
  }
  orch_lap(rt, SL_ORCH_ALLOC);
  for (int i = 0; i < t->ntensors; i++) {
    t->tensors[i] = s->tensors[i];
    t->dirs[i] = s->dirs[i];
    sl_rt_fill_desc(&t->descs[i], &t->tensors[i]);
  }
  for (int i = 0; i < t->nscalars; i++) t->scalars[i] = s->scalars[i];
  orch_lap(rt, SL_ORCH_PARAMS);
}

/* Dependencies: explicit, creator (each use of an alloc_tensors buffer), tensormap;
** then t's own accesses go into the tensormap. */
static void wire_task(sl_rt *rt, sl_rt_task *t, const sl_rt_submit *s) {
  for (int i = 0; i < s->ndeps; i++) {
    sl_rt_task *p = sl_rt_find_task(rt, s->explicit_deps[i]);
    if (p->order_mark != t) add_dep(p, t);
    p->order_mark = t;
    push_edge(rt, (sl_rt_edge){.pred = p->id, .succ = t->id, .arg = -1, .source = SL_RT_EDGE_EXPLICIT,
                               .prod_arg = -1, .hazard = -1});
  }
  orch_lap(rt, SL_ORCH_FANIN);
  for (int i = 0; i < t->ntensors; i++) {
    const sl_rt_tensor *tt = &t->tensors[i];
    uint64_t tid = rt->cfg.dep_gen ? sl_rt_tensor_id(tt->buf) : 0; /* only deps.json needs it */
    if (tt->buf->creator_task != UINT64_MAX)
      push_edge(rt, (sl_rt_edge){.pred = tt->buf->creator_task, .succ = t->id, .arg = i,
                                 .source = SL_RT_EDGE_CREATOR, .tensor_id = tid, .prod_arg = -1, .hazard = -1});
    order_arg(rt, t, i, tid);
  }
  record_accesses(rt, t);
  orch_lap(rt, SL_ORCH_INSERT);
}

uint64_t sl_rt_submit_internal(sl_rt *rt, const sl_rt_submit *s, const struct sl_rt_graph *graph) {
  sl_devprof *dp = rt->cfg.level >= SL_MIN_LEVEL_ORCH_PHASE ? rt->cfg.dp : NULL;
  sl_rt_vadvance(rt, rt->vc.m.submit);
  uint64_t h0 = rt->cfg.runtime == SL_RT_HBG ? sl_rt_run_host_ns(rt) : 0;
  uint64_t t0 = rt->orch_mark = sl_rt_now(&rt->clock);
  if (atomic_load_explicit(&rt->interrupted, memory_order_acquire)) {
    set_err(rt, "interrupted");
    return UINT64_MAX;
  }
  int members, has_aic;
  const char *bad = check_submit(rt, s, &members, &has_aic);
  if (!bad) bad = aisched_refuse(rt, s, graph);
  if (bad) {
    set_err(rt, bad);
    return UINT64_MAX;
  }
  if (wait_ring(rt)) {
    set_err(rt, "interrupted");
    return UINT64_MAX;
  }
  orch_lap(rt, SL_ORCH_SYNC);
  sl_rt_task *t = new_task(rt);
  build_task(rt, t, s, members, has_aic, graph);
  wire_task(rt, t, s);
  uint64_t ring = t->id >> 32, now_in = atomic_fetch_add_explicit(&rt->inflight[ring], 1, memory_order_acq_rel) + 1;
  if (now_in > rt->ring_peak[ring]) rt->ring_peak[ring] = now_in;
  atomic_fetch_add_explicit(&rt->submitted, 1, memory_order_acq_rel);
  if (t->is_dummy) atomic_fetch_add_explicit(&rt->dummy_tasks, 1, memory_order_relaxed);
  else if (!t->predicate) atomic_fetch_add_explicit(&rt->skipped_tasks, 1, memory_order_relaxed);
  else atomic_fetch_add_explicit(&rt->kernel_tasks, 1, memory_order_relaxed);
  uint64_t id = t->id;
  if (atomic_fetch_sub_explicit(&t->fanin, 1, memory_order_acq_rel) == 1) sl_rt_make_ready(rt, t);
  orch_lap(rt, SL_ORCH_FANIN);
  if (rt->cfg.runtime == SL_RT_HBG) sl_rt_host_submit_record(rt, h0, id, rt->submit_idx);
  else if (dp) sl_devprof_orch_submit(dp, t0, rt->orch_mark, id, rt->submit_idx);
  rt->submit_idx++;
  rt->orch_submits++;
  return id;
}

uint64_t sl_rt_alloc_tensors(sl_rt *rt, const uint64_t *bytes, int n, sl_rt_buffer **out) {
  sl_devprof *dp = rt->cfg.level >= SL_MIN_LEVEL_ORCH_PHASE ? rt->cfg.dp : NULL;
  uint64_t t0 = dp ? sl_rt_now(&rt->clock) : 0;
  uint64_t h0 = rt->cfg.runtime == SL_RT_HBG ? sl_rt_run_host_ns(rt) : 0;
  sl_rt_task *t = new_task(rt);
  t->is_alloc = 1;
  t->done = 1; /* completed inline by the orchestrator */
  for (int i = 0; i < n; i++) {
    out[i] = sl_rt_buffer_new(rt, bytes[i]);
    if (!out[i]) {
      set_err(rt, "out of memory");
      return UINT64_MAX;
    }
    out[i]->creator_task = t->id;
  }
  atomic_fetch_add_explicit(&rt->alloc_tasks, 1, memory_order_relaxed);
  if (rt->cfg.runtime == SL_RT_HBG) sl_rt_host_submit_record(rt, h0, t->id, rt->submit_idx);
  else if (dp) sl_devprof_orch_submit(dp, t0, sl_rt_now(&rt->clock), t->id, rt->submit_idx);
  rt->submit_idx++;
  return t->id;
}
