/*
** sl_collector.c — collector lifecycle: configuration, creation of the region
** and its buffers, start / stop of the host threads, metadata, destroy (finish is the
** export's: sl_collector_json.c; the merged view is the buffers': sl_collector_buffers.c).
*/
#include <stdarg.h>

#include "sl_collector_internal.h"
#include "sl_levels.h"
#include "sl_mem.h"
#include "sl_vec.h"
#include "sl_platforms.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WHAT "collector"

void sl_collector_config_init(sl_collector_config *cfg, const struct sl_platform_info *platform) {
  memset(cfg, 0, sizeof *cfg);
  cfg->platform = platform;
  cfg->level = SL_LEVEL_MAX;
  cfg->num_cores = 6;
  cfg->num_aicpu_threads = 3;
}

static unsigned pick(unsigned override, unsigned dflt) { return override ? override : dflt; }

/* Resolve overrides against the platform table. */
static void resolve_sizes(sl_collector *c) {
  const sl_platform_info *p = c->plat;
  const sl_pool_sizes *o = &c->cfg.sizes;
  sl_pool_sizes *s = &c->sizes;
  s->prof_buffer_size = pick(o->prof_buffer_size, p->prof_buffer_size);
  s->aicore_buffer_size = pick(o->aicore_buffer_size, p->aicore_buffer_size);
  s->phase_records = pick(o->phase_records, p->phase_records_per_thread);
  s->slot_count = pick(o->slot_count, p->slot_count);
  s->prof_buffers_per_core = pick(o->prof_buffers_per_core, p->prof_buffers_per_core);
  s->aicore_buffers_per_core = pick(o->aicore_buffers_per_core, p->aicore_buffers_per_core);
  s->sched_buffers_per_thread = pick(o->sched_buffers_per_thread, p->sched_buffers_per_thread);
  s->orch_buffers_per_thread = pick(o->orch_buffers_per_thread, p->orch_buffers_per_thread);
  s->readyqueue_size = pick(o->readyqueue_size, p->readyqueue_size);
}

static sl_status check_config(const sl_collector_config *cfg, sl_err *err) {
  if (!cfg || !cfg->platform)
    return sl_err_set(err, WHAT, "no platform given");
  const sl_platform_info *p = cfg->platform;
  if (cfg->level > SL_LEVEL_MAX)
    return sl_err_set(err, WHAT, "perf level %u out of range 0..%u", cfg->level, SL_LEVEL_MAX);
  if (cfg->num_cores < 1 || (unsigned)cfg->num_cores > p->max_cores)
    return sl_err_set(err, WHAT, "%d cores, %s allows 1..%u", cfg->num_cores, p->name, (unsigned)p->max_cores);
  if (cfg->num_aicpu_threads < 1 || cfg->num_aicpu_threads > 64)
    return sl_err_set(err, WHAT, "%d AICPU threads, expected 1..64", cfg->num_aicpu_threads);
  if (cfg->core_types)
    for (int i = 0; i < cfg->num_cores; i++)
      if (cfg->core_types[i] > SL_CORE_AIV)
        return sl_err_set(err, WHAT, "core %d: unknown core type %u", i, cfg->core_types[i]);
  return SL_OK;
}

/* One drain + one collector shard per AICPU thread, capped by the platform
** and by half the host's CPUs: the simulated device threads run on the same
** CPUs, and more host threads than that only add context switches. */
static int shard_count(const sl_collector_config *cfg, const sl_platform_info *plat) {
  int n = cfg->host_shards > 0 ? cfg->host_shards : cfg->num_aicpu_threads;
  if ((unsigned)n > plat->max_aicpu_threads) n = (int)plat->max_aicpu_threads;
  if (cfg->host_shards <= 0) {
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int cap = cpus > 3 ? (int)(cpus / 2) : 1;
    if (n > cap) n = cap;
  }
  if (n > cfg->num_aicpu_threads) n = cfg->num_aicpu_threads;
  return n < 1 ? 1 : n;
}

static void alloc_shards(sl_collector *c) {
  c->shards = sl_mem_calloc((size_t)c->nshards, sizeof *c->shards);
  for (int i = 0; i < c->nshards; i++) {
    sl_shard *s = &c->shards[i];
    s->c = c;
    s->index = i;
    pthread_mutex_init(&s->handoff.mu, NULL);
    pthread_cond_init(&s->handoff.cv, NULL);
    for (unsigned k = 0; k < SL_BUF_KIND_COUNT; k++) {
      size_t n = (size_t)sl_devprof_pool_count(c->dp, k);
      s->records[k] = sl_mem_calloc(n, sizeof(sl_coll_records));
      s->collected[k] = sl_mem_calloc(n, sizeof(uint64_t));
    }
  }
}

static void free_shards(sl_collector *c) {
  if (!c->shards) return;
  for (int i = 0; i < c->nshards; i++) {
    sl_shard *s = &c->shards[i];
    pthread_mutex_destroy(&s->handoff.mu);
    pthread_cond_destroy(&s->handoff.cv);
    sl_mem_free(s->handoff.items);
    for (unsigned k = 0; k < SL_BUF_KIND_COUNT; k++) {
      if (s->records[k])
        for (int j = 0; j < sl_devprof_pool_count(c->dp, k); j++) sl_coll_records_free(&s->records[k][j]);
      sl_mem_free(s->records[k]);
      sl_mem_free(s->collected[k]);
    }
  }
  sl_mem_free(c->shards);
  c->shards = NULL;
}

sl_collector *sl_collector_create(const sl_collector_config *cfg) {
  sl_err err = SL_ERR_INIT;
  sl_collector *c = sl_collector_open(cfg, &err);
  if (!c) (void)sl_err_report(&err);
  return c;
}

sl_collector *sl_collector_open(const sl_collector_config *cfg, sl_err *err) {
  if (check_config(cfg, err) != SL_OK) return NULL;
  sl_collector *c = sl_mem_calloc(1, sizeof *c);
  c->cfg = *cfg;
  c->plat = cfg->platform;
  /* scheduler streams name the chip family: "a2a3sim" -> "a2a3" */
  snprintf(c->platform, sizeof c->platform, "%s", cfg->platform_name ? cfg->platform_name : c->plat->name);
  size_t pl = strlen(c->platform);
  if (pl > 3 && strcmp(c->platform + pl - 3, "sim") == 0) c->platform[pl - 3] = '\0';
  snprintf(c->runtime, sizeof c->runtime, "%s", cfg->runtime ? cfg->runtime : "tensormap_and_ringbuffer");
  c->core_types = sl_mem_alloc((size_t)cfg->num_cores);
  for (int i = 0; i < cfg->num_cores; i++)
    c->core_types[i] = cfg->core_types ? cfg->core_types[i] : (unsigned char)SL_CORE_AIV;
  atomic_init(&c->running, 0);
  atomic_init(&c->execution_complete, 0);
  atomic_init(&c->truncated, 0);
  atomic_init(&c->freezes, 0);
  atomic_init(&c->host_cpu_ns, 0);
  atomic_init(&c->host_sleeps, 0);
  if (cfg->level == SL_LEVEL_DISABLED) return c; /* disabled: no region, no threads */

  resolve_sizes(c);
  sl_devprof_geometry g = {0};
  g.level = cfg->level;
  g.num_cores = cfg->num_cores;
  g.num_threads = cfg->num_aicpu_threads;
  g.records[SL_BUF_AICPU_TASK] = c->sizes.prof_buffer_size;
  g.records[SL_BUF_AICORE_TASK] = c->sizes.aicore_buffer_size;
  g.records[SL_BUF_SCHED_PHASE] = c->sizes.phase_records;
  g.records[SL_BUF_ORCH_PHASE] = c->sizes.phase_records;
  g.slot_count = c->sizes.slot_count;
  g.readyqueue_size = c->sizes.readyqueue_size;
  g.backpressure = cfg->backpressure;
  g.backpressure_timeout_ns = cfg->backpressure_timeout_ns ? cfg->backpressure_timeout_ns : 30000000000ull;
  if (cfg->backpressure && c->sizes.aicore_buffers_per_core < 2 && cfg->fixed_buffers) {
    sl_err_set(err, WHAT, "back-pressure with fixed buffers needs >= 2 AICore buffers per core "
                          "(one is held until the core acknowledges the rotation)");
    goto fail;
  }
  char why[128];
  c->dp = sl_devprof_create(&g, why, sizeof why);
  if (!c->dp) {
    sl_err_set(err, WHAT, "%s", why);
    goto fail;
  }
  c->per_pool[SL_BUF_AICPU_TASK] = c->sizes.prof_buffers_per_core;
  c->per_pool[SL_BUF_AICORE_TASK] = c->sizes.aicore_buffers_per_core;
  c->per_pool[SL_BUF_SCHED_PHASE] = c->sizes.sched_buffers_per_thread;
  c->per_pool[SL_BUF_ORCH_PHASE] = c->sizes.orch_buffers_per_thread;
  if (sl_coll_transport_init(c, err) != SL_OK) goto fail;
  if (sl_coll_buffers_init(c) != 0) { /* the memory operations refused a device buffer */
    sl_err_set(err, WHAT, "cannot allocate the device record buffers: a MemoryOps alloc or reg failed");
    goto fail;
  }
  c->nshards = shard_count(cfg, c->plat);
  alloc_shards(c);
  return c;
fail:
  sl_collector_destroy(c);
  return NULL;
}

void sl_collector_host_stats(const sl_collector *c, uint64_t *cpu_ns, uint64_t *sleeps) {
  if (cpu_ns) *cpu_ns = c ? atomic_load(&c->host_cpu_ns) : 0;
  if (sleeps) *sleeps = c ? atomic_load(&c->host_sleeps) : 0;
}

sl_devprof *sl_collector_device(sl_collector *c) { return c ? c->dp : NULL; }
unsigned sl_collector_level(const sl_collector *c) { return c ? c->cfg.level : 0; }

sl_status sl_collector_start(sl_collector *c, sl_err *err) {
  if (!c || !c->dp || c->started) return SL_OK;
  if (sl_coll_threads_start(c, err) != SL_OK) return SL_FAIL;
  c->started = 1;
  return SL_OK;
}

int sl_collector_stop(sl_collector *c) {
  if (!c || !c->dp || c->stopped) return 0;
  if (c->started) sl_coll_threads_stop(c);
  /* The last pass is the stopping thread's too: a host thread that died (or stalled past
  ** the end) leaves buffers in the ready queues, and their records are collected here
  ** rather than left unaccounted. After a normal stop the queues are already empty. */
  sl_coll_drain_sync(c);
  sl_coll_final_mirror(c); /* the device is done: the host view becomes complete */
  c->stopped = 1;
  return 0;
}

void sl_collector_mark_truncated(sl_collector *c) {
  if (c) atomic_store(&c->truncated, 1);
}

void sl_collector_read_metadata(sl_collector *c) {
  if (!c || !c->dp) return;
  sl_collector_stop(c);
  if (c->metadata_read) return;
  c->core_to_thread = sl_mem_array(NULL, (size_t)c->cfg.num_cores, sizeof(int32_t));
  for (int i = 0; i < c->cfg.num_cores; i++) {
    int32_t t = atomic_load_explicit((_Atomic int32_t *)(void *)&c->hv->core_to_thread[i],
                                     memory_order_relaxed);
    c->core_to_thread[i] = (t >= 0 && t < c->cfg.num_aicpu_threads) ? t : -1;
  }
  c->metadata_read = 1;
}

void sl_collector_report(sl_collector *c) {
  if (c) sl_notes_print(&c->notes);
}

void sl_collector_destroy(sl_collector *c) {
  if (!c) return;
  sl_notes_free(&c->notes);
  if (c->dp) {
    sl_collector_stop(c);
    free_shards(c);
    sl_coll_buffers_free(c);
    sl_coll_transport_free(c);
    sl_devprof_destroy(c->dp);
  }
  sl_mem_free(c->core_to_thread);
  sl_mem_free(c->core_types);
  sl_mem_free(c->extra_metadata);
  sl_mem_free(c->extra_sections);
  sl_mem_free((void *)c->host.recs);
  sl_mem_free((void *)c->host.uploads);
  sl_mem_free((void *)c->host.anchors);
  sl_mem_free(c->dclock);
  sl_mem_free(c);
}

static void *dup_array(const void *src, size_t n, size_t size) {
  if (!n) return NULL;
  void *p = sl_mem_array(NULL, n, size);
  memcpy(p, src, n * size);
  return p;
}

void sl_collector_set_host(sl_collector *c, const sl_coll_host *h) {
  if (!c || !h) return;
  sl_coll_host copy = *h;
  copy.recs = dup_array(h->recs, h->nrecs, sizeof *h->recs);
  copy.uploads = dup_array(h->uploads, h->nuploads, sizeof *h->uploads);
  copy.anchors = dup_array(h->anchors, h->nanchors, sizeof *h->anchors);
  sl_mem_free((void *)c->host.recs);
  sl_mem_free((void *)c->host.uploads);
  sl_mem_free((void *)c->host.anchors);
  c->host = copy;
  c->has_host = 1;
}

/* Append `members` to *buf, comma-separated. */
static void append_members(char **buf, const char *members) {
  size_t old = *buf ? strlen(*buf) : 0, n = strlen(members);
  char *p = sl_mem_realloc(*buf, old + n + 3);
  if (old) memcpy(p + old, ", ", 2), old += 2;
  memcpy(p + old, members, n + 1);
  *buf = p;
}

void sl_collector_add_metadata(sl_collector *c, const char *members) {
  if (c && members) append_members(&c->extra_metadata, members);
}

void sl_collector_set_dispatch_clock(sl_collector *c, const sl_dispatch_clock *d) {
  if (!c || !d) return;
  if (!c->dclock) c->dclock = sl_mem_alloc(sizeof *c->dclock);
  *c->dclock = *d;
}

int sl_collector_set_task_slots(sl_collector *c, const sl_coll_slot *v, size_t n) {
  if (!c) return 0;
  if (n > SL_COLL_MAX_SLOTS) return -1;
  if (n) memcpy(c->slots, v, n * sizeof *v);
  c->nslots = n;
  return 0;
}

void sl_collector_add_sections(sl_collector *c, const char *members) {
  if (c && members) append_members(&c->extra_sections, members);
}
