/*
** sl_rt_host.c — the host half of the host_build_graph runtime (docs/runtimes.md):
** the host clock, the host-orchestrator records (one per submit, host monotonic
** ns), the upload that copies the built graph into one device-side image (arena,
** graph and tensor H2D steps, each with its record) and the clock anchors.
**
** Host records go through host pools of cfg.host_pool_records each: a record that
** finds its pool full is counted as dropped, never written. Anchors:
** SL_RT_ANCHOR_SAMPLES samples before host orchestration and after device execution
** under HBG; TMR samples before kernel launch (sl_rt_run.c).
*/
#include <string.h>
#include <time.h>

#include "sl_rt_internal.h"
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
  uint64_t end_ns = sl_rt_run_host_ns(rt);
  *SL_RT_PUSH(rt->host_subs, rt->nhost_subs, rt->caphost_subs) = (sl_rt_host_submit){submit_idx, id, start_ns, end_ns};
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
void sl_rt_host_upload(sl_rt *rt) {
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
}
