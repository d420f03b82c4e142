/*
** sl_collector_transport.c — how the host reaches the device region.
**
** shared_memory (a2a3): the region and every buffer are host-registered memory;
** the host view `hv` is the device region itself and every call here is a no-op.
**
** host_shadow (a5, docs/a5.md): the host never dereferences device memory.
** Every device buffer is paired with a host shadow (reg), the region with a
** host copy of itself (`hv`). At the top of every tick the host thread that
** owns the shadow mirrors the whole region device -> host; it then reads and
** changes only the shadow and pushes back exactly the fields it changed
** (ready-queue heads, free-queue slots and tails, freeze flags) with
** copy_to_device. Writing the whole shadow back instead would roll back every
** device-owned field the device advanced since the mirror (ready-queue tails,
** free-queue heads, active heads, counters) — `test_bulk_writeback` does that
** on purpose so a test can show the race. Buffer payloads are pulled on
** demand when a popped ready entry names them.
**
** The simulator's copies are word-wise atomic loads (acquire) and stores
** (release): plain memcpy semantics, without a data race on words the device
** writes concurrently. Indices are mirrored before the entries they guard, so
** an entry below a mirrored tail is never older than the tail.
*/
#include "sl_base.h"
#include "sl_collector_internal.h"
#include "sl_mem.h"
#include "sl_platforms.h"

#include <stdlib.h>
#include <string.h>

/* ---- the simulator's MemoryOps --------------------------------------------------- */

static void *zalloc64(size_t bytes) {
  size_t rounded = (bytes + 63) & ~(size_t)63;
  void *p = aligned_alloc(64, rounded ? rounded : 64);
  if (p) memset(p, 0, rounded ? rounded : 64);
  return p;
}

static void *sim_alloc(void *ctx, size_t bytes) {
  (void)ctx;
  return zalloc64(bytes);
}

static int sim_reg_shared(void *ctx, void *dev, size_t bytes, void **host) {
  (void)ctx, (void)bytes;
  *host = dev; /* host-registered: one memory, two names */
  return 0;
}

static int sim_reg_shadow(void *ctx, void *dev, size_t bytes, void **host) {
  (void)ctx, (void)dev;
  *host = zalloc64(bytes);
  return *host ? 0 : -1;
}

static void sim_free(void *ctx, void *dev, void *host) {
  (void)ctx;
  if (host && host != dev) sl_mem_free(host);
  sl_mem_free(dev);
}

/* Word copies (8 bytes where both ends allow, else 4). */
static int sim_copy(void *dst, const void *src, size_t bytes, int to_device) {
  if (((uintptr_t)dst | (uintptr_t)src | bytes) & 3u) return -1;
  unsigned char *d = dst;
  const unsigned char *s = src;
  size_t i = 0;
  for (; i < bytes;) {
    if (!(((uintptr_t)(d + i) | (uintptr_t)(s + i)) & 7u) && bytes - i >= 8) {
      uint64_t v = to_device ? *(const uint64_t *)(const void *)(s + i) : sl_ld_acq64((const uint64_t *)(const void *)(s + i));
      if (to_device) sl_st_rel64((uint64_t *)(void *)(d + i), v);
      else *(uint64_t *)(void *)(d + i) = v;
      i += 8;
    } else {
      uint32_t v = to_device ? *(const uint32_t *)(const void *)(s + i) : sl_ld_acq32((const uint32_t *)(const void *)(s + i));
      if (to_device) sl_st_rel32((uint32_t *)(void *)(d + i), v);
      else *(uint32_t *)(void *)(d + i) = v;
      i += 4;
    }
  }
  return 0;
}

static int sim_to_device(void *ctx, void *dev, const void *host, size_t bytes) {
  (void)ctx;
  return sim_copy(dev, host, bytes, 1);
}

static int sim_from_device(void *ctx, void *host, const void *dev, size_t bytes) {
  (void)ctx;
  return sim_copy(host, dev, bytes, 0);
}

static const sl_memops sim_shared_ops = {sim_alloc, sim_reg_shared, sim_free, NULL, NULL, NULL};
static const sl_memops sim_shadow_ops = {sim_alloc, sim_reg_shadow, sim_free, sim_to_device, sim_from_device,
                                         NULL};

/* ---- buffer map ------------------------------------------------------------------ */

static void *map_get(sl_bufmap *m, uint64_t dev) {
  uint64_t host = 0;
  pthread_mutex_lock(&m->mu);
  sl_map_u64_get(&m->map, dev, &host);
  pthread_mutex_unlock(&m->mu);
  return (void *)(uintptr_t)host;
}

/* ---- region spans ---------------------------------------------------------------- */

static void add_span(sl_collector *c, void *host, void *dev, size_t bytes, int per_tick) {
  sl_mirror_span *s = sl_mem_array(c->spans, (size_t)c->nspans + 1, sizeof *s);
  c->spans = s;
  s[c->nspans++] = (sl_mirror_span){host, dev, bytes, per_tick};
}

/* Indices first (tails, heads), then what they guard; device-private state
** (per-core rotation state, lifecycle records) only once the device is done. */
static void build_spans(sl_collector *c) {
  sl_devprof *d = c->dp, *h = c->hv;
  size_t nt = (size_t)d->g.num_threads, nc = (size_t)d->g.num_cores;
  add_span(c, h->rq_tail, d->rq_tail, 64 * nt, 1);
  add_span(c, h->rq_head, d->rq_head, 64 * nt, 1);
  add_span(c, h->bp, d->bp, sizeof *d->bp, 1);
  for (unsigned k = 0; k < SL_BUF_KIND_COUNT; k++)
    add_span(c, h->pools[k], d->pools[k], sizeof(sl_buffer_pool) * (size_t)sl_devprof_pool_count(d, k), 1);
  add_span(c, h->core_to_thread, d->core_to_thread, sizeof(int32_t) * nc, 1);
  add_span(c, h->rq_entries, d->rq_entries, sizeof(sl_ready_entry) * nt * d->g.readyqueue_size, 1);
  add_span(c, h->cores, d->cores, sizeof(sl_core_state) * nc, 0);
  add_span(c, h->lifecycle_set, d->lifecycle_set, sizeof(uint32_t) * nt, 0);
  add_span(c, h->sched_core, d->sched_core, sizeof(int32_t) * nt, 0);
  add_span(c, h->lifecycle, d->lifecycle, sizeof(sl_aicpu_lifecycle_record) * nt, 0);
}

sl_status sl_coll_transport_init(sl_collector *c, sl_err *err) {
  enum sl_transport t = c->cfg.transport;
  if (t == SL_TRANSPORT_AUTO)
    t = (c->plat->transport && strcmp(c->plat->transport, "host_shadow") == 0) ? SL_TRANSPORT_SHADOW
                                                                              : SL_TRANSPORT_SHARED;
  c->shadow = t == SL_TRANSPORT_SHADOW;
  c->ops = c->cfg.memops ? *c->cfg.memops : c->shadow ? sim_shadow_ops : sim_shared_ops;
  if (c->shadow && (!c->ops.copy_to_device || !c->ops.copy_from_device)) {
    return sl_err_set(err, "collector", "the host-shadow transport needs all five MemoryOps callbacks");
  }
  pthread_mutex_init(&c->shadow_mu, NULL);
  pthread_mutex_init(&c->bufmap.mu, NULL);
  atomic_init(&c->n_mirrors, 0);
  atomic_init(&c->n_writebacks, 0);
  atomic_init(&c->n_pulls, 0);
  if (!c->shadow) {
    c->hv = c->dp;
    return SL_OK;
  }
  c->hv = sl_devprof_create(&c->dp->g, NULL, 0); /* the device's geometry, already accepted */
  build_spans(c);
  sl_coll_final_mirror(c); /* the shadow starts as the device's initial state */
  return SL_OK;
}

void sl_coll_transport_free(sl_collector *c) {
  if (!c->ops.alloc) return; /* never initialised */
  if (c->hv && c->hv != c->dp) sl_devprof_destroy(c->hv);
  c->hv = NULL;
  sl_mem_free(c->spans);
  c->spans = NULL;
  c->nspans = 0;
  sl_map_free(&c->bufmap.map);
  pthread_mutex_destroy(&c->bufmap.mu);
  pthread_mutex_destroy(&c->shadow_mu);
}

/* ---- ticks ----------------------------------------------------------------------- */

static void mirror(sl_collector *c, int all) {
  for (int i = 0; i < c->nspans; i++)
    if (all || c->spans[i].per_tick)
      c->ops.copy_from_device(c->ops.ctx, c->spans[i].host, c->spans[i].dev, c->spans[i].bytes);
  atomic_fetch_add_explicit(&c->n_mirrors, 1, memory_order_relaxed);
}

void sl_coll_tick_begin(sl_collector *c) {
  if (!c->shadow) return;
  pthread_mutex_lock(&c->shadow_mu);
  mirror(c, 0);
}

void sl_coll_tick_end(sl_collector *c) {
  if (!c->shadow) return;
  if (c->cfg.test_bulk_writeback) /* the forbidden variant: rolls device fields back */
    for (int i = 0; i < c->nspans; i++)
      if (c->spans[i].per_tick)
        c->ops.copy_to_device(c->ops.ctx, c->spans[i].dev, c->spans[i].host, c->spans[i].bytes);
  pthread_mutex_unlock(&c->shadow_mu);
}

void sl_coll_final_mirror(sl_collector *c) {
  if (!c->shadow) return;
  pthread_mutex_lock(&c->shadow_mu);
  mirror(c, 1);
  pthread_mutex_unlock(&c->shadow_mu);
}

void sl_coll_wb(sl_collector *c, void *host_field, size_t bytes) {
  if (!c->shadow) return;
  const char *p = host_field;
  for (int i = 0; i < c->nspans; i++) {
    const char *base = c->spans[i].host;
    if (p >= base && p + bytes <= base + c->spans[i].bytes) {
      c->ops.copy_to_device(c->ops.ctx, (char *)c->spans[i].dev + (p - base), p, bytes);
      atomic_fetch_add_explicit(&c->n_writebacks, 1, memory_order_relaxed);
      return;
    }
  }
  sl_error("collector", "write-back outside the mirrored region (a bug)");
  abort();
}

/* ---- buffers --------------------------------------------------------------------- */

uint64_t sl_coll_buf_alloc(sl_collector *c, size_t bytes, void **host) {
  void *dev = c->ops.alloc(c->ops.ctx, bytes);
  if (!dev) return 0;
  if (c->ops.reg(c->ops.ctx, dev, bytes, host) != 0) {
    c->ops.free_(c->ops.ctx, dev, NULL);
    return 0;
  }
  if (c->shadow) {
    pthread_mutex_lock(&c->bufmap.mu);
    sl_map_u64_put(&c->bufmap.map, (uint64_t)(uintptr_t)dev, (uintptr_t)*host);
    pthread_mutex_unlock(&c->bufmap.mu);
  }
  return (uint64_t)(uintptr_t)dev;
}

static void *host_of(sl_collector *c, uint64_t dev) {
  return c->shadow ? map_get(&c->bufmap, dev) : (void *)(uintptr_t)dev;
}

void sl_coll_buf_free(sl_collector *c, uint64_t dev) {
  c->ops.free_(c->ops.ctx, (void *)(uintptr_t)dev, host_of(c, dev));
}

void *sl_coll_pull(sl_collector *c, unsigned kind, uint64_t dev, uint32_t *count) {
  sl_devprof *dp = c->dp;
  void *host = host_of(c, dev);
  if (!host) return NULL;
  uint32_t *hc = sl_devprof_buffer_count(dp, kind, host);
  if (c->shadow) {
    const void *dc = sl_devprof_buffer_count(dp, kind, (void *)(uintptr_t)dev);
    c->ops.copy_from_device(c->ops.ctx, hc, dc, sizeof *hc);
  }
  uint32_t n = *hc;
  if (c->shadow) {
    uint32_t m = n < dp->g.records[kind] ? n : dp->g.records[kind];
    if (m) c->ops.copy_from_device(c->ops.ctx, host, (const void *)(uintptr_t)dev, dp->record_size[kind] * m);
    atomic_fetch_add_explicit(&c->n_pulls, 1, memory_order_relaxed);
  }
  *count = n;
  return host;
}

void sl_coll_prepare(sl_collector *c, unsigned kind, uint64_t dev) {
  if (kind != SL_BUF_AICORE_TASK) return; /* the only kind with a prepared state */
  void *host = host_of(c, dev);
  if (!host) return;
  sl_devprof_prepare_buffer(c->dp, kind, host);
  if (c->shadow)
    c->ops.copy_to_device(c->ops.ctx, (void *)(uintptr_t)dev, host, c->dp->record_size[kind] * c->dp->g.records[kind]);
}

uint64_t sl_coll_unflushed(sl_collector *c, unsigned kind, int index) {
  if (!c->shadow || kind == SL_BUF_AICORE_TASK) return sl_devprof_unflushed(c->hv, kind, index);
  uint64_t buf = sl_ld_acq64(&c->hv->pools[kind][index].head.current_buf_ptr);
  if (!buf) return 0;
  uint32_t n = 0;
  c->ops.copy_from_device(c->ops.ctx, &n, sl_devprof_buffer_count(c->dp, kind, (void *)(uintptr_t)buf), sizeof n);
  return n;
}

const char *sl_coll_task_producer(const sl_collector *c) {
  for (int t = 0; t < c->cfg.num_aicpu_threads; t++)
    if (sl_coll_stream_core(c, t) >= 0) return "aicore";
  return "aicpu";
}

const char *sl_collector_transport(const sl_collector *c) {
  return c && c->shadow ? "host_shadow" : "shared_memory";
}

void sl_collector_shadow_stats(const sl_collector *c, uint64_t *mirrors, uint64_t *writebacks, uint64_t *pulls) {
  if (mirrors) *mirrors = c ? atomic_load(&c->n_mirrors) : 0;
  if (writebacks) *writebacks = c ? atomic_load(&c->n_writebacks) : 0;
  if (pulls) *pulls = c ? atomic_load(&c->n_pulls) : 0;
}
