/*
** sl_collector_internal.h — the collector's private state, shared by its
** modules: lifecycle (sl_collector.c), buffer supply (sl_collector_buffers.c),
** host threads (sl_collector_threads.c), reconcile, JSON and protobuf export.
*/
#ifndef SL_COLLECTOR_INTERNAL_H
#define SL_COLLECTOR_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "sl_collector.h"
#include "sl_map.h"
#include "sl_devprof_region.h"
#include "sl_prof_atomic.h"

/* Raw records of one kind, in a list of chunks that are never moved: growing
** a contiguous array while the device runs would copy (realloc) everything
** collected so far, again and again, on the CPUs the device threads need.
** sl_coll_merged() makes the records contiguous at export time. */
typedef struct sl_coll_chunk {
  struct sl_coll_chunk *next;
  size_t n, cap;               /* in records */
  _Alignas(16) unsigned char data[];
} sl_coll_chunk;

typedef struct sl_coll_records {
  sl_coll_chunk *head, *tail;
  size_t n;                    /* records over all chunks */
} sl_coll_records;

/* A mutex-guarded stack of buffer addresses (recycled lanes, the done list). */
typedef struct sl_buflist {
  pthread_mutex_t mu;
  uint64_t *bufs;
  size_t n, cap;
} sl_buflist;

/* Drain thread -> collector thread hand-off of one shard (FIFO, never drops). */
typedef struct sl_handoff {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  sl_ready_entry *items; /* the waiting entries are items[head, n) (sl_vec.h growth) */
  size_t head, n, cap;
  int closed;            /* stop: nothing more will be pushed (guarded by mu) */
  uint64_t sleeps;       /* waits of the collector thread (statistics)     */
} sl_handoff;

typedef struct sl_shard {
  struct sl_collector *c;
  int index;
  pthread_t drain_tid, collect_tid;
  int drain_started, collect_started;
  sl_handoff handoff;
  sl_coll_records *records[SL_BUF_KIND_COUNT];      /* [pool instance]                 */
  uint64_t *collected[SL_BUF_KIND_COUNT];  /* [pool instance]                 */
  uint64_t uncommitted;                    /* AICore slots never committed    */
  uint64_t bad_entries;                    /* malformed ready entries         */
} sl_shard;

/* One device block the host mirrors, and where its shadow lives. */
typedef struct sl_mirror_span {
  void *host;
  void *dev;
  size_t bytes;
  int per_tick;   /* mirrored at the top of every tick (else only at stop) */
} sl_mirror_span;

/* Device buffer -> its host view (shadow transport only). */
typedef struct sl_bufmap {
  pthread_mutex_t mu;
  sl_map map;      /* device address -> (uintptr_t) host address */
} sl_bufmap;

struct sl_collector {
  sl_collector_config cfg;
  sl_notes notes;              /* what reconciling and export found, for sl_collector_report
                                  (single-threaded: the end of a run) */
  const struct sl_platform_info *plat;
  char platform[32];           /* "a2a3" / "a5" for scheduler streams */
  char runtime[64];
  unsigned char *core_types;   /* [num_cores] */
  sl_pool_sizes sizes;         /* resolved geometry */
  sl_devprof *dp;              /* NULL at level 0; the device region (host code reads only
                                  its geometry and rings its doorbell)                    */
  sl_devprof *hv;              /* the host's view of the region: dp itself under shared
                                  memory, a mirrored shadow under host_shadow             */

  /* transport */
  int shadow;                  /* 1 = host_shadow                                        */
  sl_memops ops;
  pthread_mutex_t shadow_mu;   /* one tick at a time owns the shadow                     */
  sl_mirror_span *spans;
  int nspans;
  sl_bufmap bufmap;
  _Atomic uint64_t n_mirrors, n_writebacks, n_pulls;

  /* buffer supply */
  unsigned per_pool[SL_BUF_KIND_COUNT];    /* buffers seeded per live pool        */
  size_t allocated[SL_BUF_KIND_COUNT];     /* buffers in existence, per kind      */
  size_t max_buffers[SL_BUF_KIND_COUNT];   /* growth cap                          */
  size_t watermark[SL_BUF_KIND_COUNT];     /* recycled low-water mark             */
  unsigned fq_limit[SL_BUF_KIND_COUNT];    /* free-queue fill target per pool     */
  pthread_mutex_t *pool_mu[SL_BUF_KIND_COUNT]; /* one host writer per free queue  */
  sl_buflist recycled[SL_BUF_KIND_COUNT];
  sl_buflist done;                         /* collected buffers awaiting recycle  */
  sl_buflist blocks;                       /* every allocation, freed at destroy  */

  /* threads */
  int nshards;
  sl_shard *shards;
  pthread_t replenish_tid;
  int replenish_started;
  atomic_int running;
  atomic_int execution_complete;
  atomic_int truncated;
  atomic_uint freezes;         /* freeze windows opened (statistics) */
  sl_prof_bell repl_bell;      /* rung by collectors (done list) and drains (back-pressure) */
  _Atomic uint64_t host_cpu_ns; /* CPU time of exited host threads (statistics) */
  _Atomic uint64_t host_sleeps; /* times a host thread went to sleep (statistics) */
  int started, stopped;

  /* results */
  int metadata_read;
  int32_t *core_to_thread;     /* [num_cores] */
  int reconciled, balanced;
  char *extra_metadata;        /* sl_collector_add_metadata: JSON members, or NULL */
  char *extra_sections;        /* sl_collector_add_sections: JSON members, or NULL */
  sl_coll_host host;           /* sl_collector_set_host: owned arrays (.pb export) */
  int has_host;
  sl_coll_slot slots[SL_COLL_MAX_SLOTS]; /* sl_collector_set_task_slots */
  size_t nslots;
  sl_dispatch_clock *dclock;   /* sl_collector_set_dispatch_clock, or NULL */
  sl_pool_account acct[SL_BUF_KIND_COUNT];
  sl_pool_account host_acct[2]; /* host_orchestrator_phases, host_device_uploads (HBG) */
  uint64_t uncommitted, bad_entries;
};

/* ---- sl_collector_buffers.c ---------------------------------------------------- */
int sl_coll_buffers_init(sl_collector *c);         /* allocate + seed every live pool */
void sl_coll_buffers_free(sl_collector *c);
/* Top `kind`/`index`'s free queue up from the recycled lane; returns pushed count. */
unsigned sl_coll_topup(sl_collector *c, unsigned kind, int index);
unsigned sl_coll_topup_all(sl_collector *c);
/* Move done buffers back into recycled lanes; grow lanes below their watermark.
** Returns how many buffers moved or were allocated. */
size_t sl_coll_recycle(sl_collector *c);
void sl_buflist_push(sl_buflist *l, uint64_t buf);
void sl_buflist_init(sl_buflist *l);
void sl_buflist_destroy(sl_buflist *l);

/* ---- sl_collector_transport.c ------------------------------------------------- */
SL_MUST_CHECK sl_status sl_coll_transport_init(sl_collector *c, sl_err *err); /* after dp exists; sets hv, ops */
void sl_coll_transport_free(sl_collector *c);
/* A host thread's turn at the region: under host_shadow takes the shadow and
** mirrors every per-tick span device -> host; tick_end releases it (the bulk
** test variant first writes every span back). No-ops under shared memory. */
void sl_coll_tick_begin(sl_collector *c);
void sl_coll_tick_end(sl_collector *c);
/* After the device threads are joined: mirror every span, per-tick or not. */
void sl_coll_final_mirror(sl_collector *c);
/* The host modified `bytes` at `host_field` inside hv: push exactly those to the device. */
void sl_coll_wb(sl_collector *c, void *host_field, size_t bytes);
/* A new device buffer and its host view; 0 on failure. */
uint64_t sl_coll_buf_alloc(sl_collector *c, size_t bytes, void **host);
void sl_coll_buf_free(sl_collector *c, uint64_t dev);
/* The host view of a published buffer with its count word and first `count`
** records pulled from the device; NULL if the buffer is unknown. */
void *sl_coll_pull(sl_collector *c, unsigned kind, uint64_t dev, uint32_t *count);
/* Prepare a buffer the host owns for its free queue (on the device). */
void sl_coll_prepare(sl_collector *c, unsigned kind, uint64_t dev);
/* Records an instance left in its active buffer at stop (after final mirror). */
uint64_t sl_coll_unflushed(sl_collector *c, unsigned kind, int index);

/* A 32-bit host-owned field of the region: store into hv, then write it back. */
static inline void sl_coll_set32(sl_collector *c, uint32_t *field, uint32_t v) {
  sl_st_rel32(field, v);
  sl_coll_wb(c, field, sizeof *field);
}

/* Physical AIV core of scheduler stream `t` when an AICore Scheduler produced it
** (A5 host_build_graph), else -1; "aicore" when any stream is one. After stop. */
static inline int sl_coll_stream_core(const sl_collector *c, int t) {
  return atomic_load_explicit((_Atomic int32_t *)(void *)&c->hv->sched_core[t], memory_order_relaxed);
}
const char *sl_coll_task_producer(const sl_collector *c);

/* ---- sl_collector_threads.c ---------------------------------------------------- */
SL_MUST_CHECK sl_status sl_coll_threads_start(sl_collector *c, sl_err *err);
void sl_coll_threads_stop(sl_collector *c);
/* One drain + collect pass on the calling thread (host threads not running). */
void sl_coll_drain_sync(sl_collector *c);
/* Copy one published buffer's records into the shard (exposed for tests). */
void sl_coll_consume(sl_shard *s, const sl_ready_entry *e);

const char *sl_coll_pool_name(unsigned kind);
/* The pools in the order both exports list them (metadata.capture.pools). */
extern const unsigned sl_coll_pool_order[SL_BUF_KIND_COUNT];
/* Every pool metadata.capture lists, in order: the device pools (sl_coll_pool_order),
** then a host_build_graph capture's two host pools. Valid after reconcile. */
#define SL_COLL_HOST_POOLS 2
typedef struct sl_coll_pool_row {
  const char *name;
  sl_pool_account a;
} sl_coll_pool_row;
size_t sl_coll_pool_rows(const sl_collector *c, sl_coll_pool_row rows[SL_BUF_KIND_COUNT + SL_COLL_HOST_POOLS]);

/* ---- vectors ------------------------------------------------------------------- */
void sl_coll_records_append(sl_coll_records *v, const void *recs, size_t n, size_t recsz);
void sl_coll_records_free(sl_coll_records *v);

/* ---- sl_collector_json.c / _pb.c ----------------------------------------------- */
/* All records of one pool instance, shards concatenated in shard order. */
typedef struct sl_coll_view {
  const unsigned char *data;
  size_t n;
  int owned; /* data must be freed */
} sl_coll_view;
sl_coll_view sl_coll_merged(const sl_collector *c, unsigned kind, int index);
void sl_coll_view_free(sl_coll_view *v);

#endif /* SL_COLLECTOR_INTERNAL_H */
