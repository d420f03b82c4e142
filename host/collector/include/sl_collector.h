/*
** sl_collector.h — the host half of the chip-swimlane profiler.
**
** The collector owns the shared region the simulated device writes into (pools,
** free queues, ready queues, record buffers), runs the host threads that stream
** full buffers out while the workload executes, checks the loss accounting and
** writes the capture (chip_swimlane_records.json + chip_swimlane_records.pb).
**
** Lifecycle (the order `swimlane run` follows):
**
**   sl_collector *c = sl_collector_create(&cfg);        // allocate region + buffers
**   sl_devprof *dp = sl_collector_device(c);            // NULL at level 0
**   sl_collector_start(c, &err);                        // drain / collector / replenish threads
**     ... launch AICPU + AICore threads, pass them dp, join them ...
**   sl_collector_stop(c);                               // join host threads after a final drain
**   sl_collector_read_metadata(c);                      // core_to_thread from the region
**   sl_collector_reconcile(c);                          // collected + dropped == total, every pool
**   sl_collector_export(c, out_dir);                    // JSON + protobuf, all-or-nothing
**   sl_collector_destroy(c);
**
** sl_collector_finish() does stop → read_metadata → reconcile → export in one call.
** Every step after a skipped one runs the skipped one first, so calling only
** sl_collector_export() after joining the device threads is also correct.
**
** Level 0: create returns a collector that allocates no region and starts no
** threads; sl_collector_device() returns NULL; export writes nothing and returns 0.
*/
#ifndef SL_COLLECTOR_H
#define SL_COLLECTOR_H

#include "sl_err.h"
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sl_devprof.h"

struct sl_platform_info; /* generated/sl_platforms.h */

typedef struct sl_collector sl_collector;

/* Core type per core id, as metadata.core_types prints it. */
enum sl_core_type { SL_CORE_AIC = 0, SL_CORE_AIV = 1 };

/* Pool geometry. A zero field means "the platform's default"
** (generated/sl_platforms.h); tests set tiny values to force rotation,
** back-pressure and drops. */
typedef struct sl_pool_sizes {
  unsigned prof_buffer_size;         /* AICPU task records per buffer         (1000)  */
  unsigned aicore_buffer_size;       /* AICore records per buffer             (1024)  */
  unsigned phase_records;            /* sched / orch phase records per buffer (16384) */
  unsigned slot_count;               /* free-queue capacity, 1..4             (4)     */
  unsigned prof_buffers_per_core;    /* AICPU task buffers per core           (8)     */
  unsigned aicore_buffers_per_core;  /* AICore buffers per core               (4)     */
  unsigned sched_buffers_per_thread; /* sched phase buffers per sched thread  (6)     */
  unsigned orch_buffers_per_thread;  /* orch phase buffers (orchestrator)     (8)     */
  unsigned readyqueue_size;          /* ready-queue ring size; usable = size-1 (992)  */
} sl_pool_sizes;

/* How the host reaches the device region (shared memory or the host shadow: docs/a5.md). AUTO = the platform's
** `transport` (schema/platforms.lua): a2a3 shares host-registered memory, a5 has none. */
enum sl_transport { SL_TRANSPORT_AUTO = 0, SL_TRANSPORT_SHARED = 1, SL_TRANSPORT_SHADOW = 2 };

/* The device-memory callbacks of a transport (the reference's MemoryOps). Shared memory
** uses the first three (reg maps the device block into the host: *host = dev); the
** host-shadow transport pairs every device block with a host shadow and moves bytes
** only through the two copies. Copies take 4-byte aligned addresses and sizes. */
typedef struct sl_memops {
  void *(*alloc)(void *ctx, size_t bytes);                      /* zeroed device memory, 64-aligned */
  int (*reg)(void *ctx, void *dev, size_t bytes, void **host);  /* the host's view of `dev`         */
  void (*free_)(void *ctx, void *dev, void *host);
  int (*copy_to_device)(void *ctx, void *dev, const void *host, size_t bytes);
  int (*copy_from_device)(void *ctx, void *host, const void *dev, size_t bytes);
  void *ctx;
} sl_memops;

typedef struct sl_collector_config {
  const struct sl_platform_info *platform; /* required: sl_platform_by_name("a2a3sim") */
  const char *platform_name;   /* written into scheduler streams; NULL = platform->name  */
  const char *runtime;         /* "tensormap_and_ringbuffer" (default when NULL)         */
  unsigned level;              /* 0..4                                                    */
  int num_cores;               /* 1..platform max_cores                                   */
  const unsigned char *core_types; /* num_cores entries of enum sl_core_type; NULL = all aiv */
  int num_aicpu_threads;       /* schedulers + 1 orchestrator (the last index), >= 1      */
  sl_pool_sizes sizes;         /* overrides; zero fields = platform defaults              */
  int backpressure;            /* 1 = block on contention (dual freeze) instead of dropping */
  uint64_t backpressure_timeout_ns; /* give-up bound for a blocked producer; 0 = 30 s     */
  int fixed_buffers;           /* 1 = never allocate buffers beyond the initial pools      */
  unsigned test_collect_delay_us;   /* tests only: sleep per collected buffer (slow host)  */
  unsigned test_drain_dies_after;   /* tests only: each drain thread ends for good, without
                                       its last pass, once it has taken this many buffers
                                       (a collector thread killed mid-run)               */
  int host_shards;             /* drain + collector thread pairs; 0 = auto (one per AICPU
                                  thread, at most half the host CPUs, at least 1)          */
  enum sl_transport transport; /* AUTO = the platform's                                   */
  const sl_memops *memops;     /* NULL = the simulator's (memcpy-like word copies)         */
  int test_bulk_writeback;     /* tests only, host-shadow: write the whole mirrored region
                                  back every tick (a race with the device writer)         */
} sl_collector_config;

/* Fill `cfg` with defaults for `platform` (level 4, 2 AIC + 4 AIV, 3 AICPU threads). */
void sl_collector_config_init(sl_collector_config *cfg, const struct sl_platform_info *platform);

/* NULL on a bad configuration or when the device buffers cannot be had, with the
** reason on err (the caller prints it). */
sl_collector *sl_collector_open(const sl_collector_config *cfg, sl_err *err);
/* The same, printing the reason ("swimlane: collector: ...") itself. */
sl_collector *sl_collector_create(const sl_collector_config *cfg);
/* The device handle for the runtime's hooks; NULL at level 0. */
sl_devprof *sl_collector_device(sl_collector *c);
unsigned sl_collector_level(const sl_collector *c);
/* "shared_memory" | "host_shadow": the transport this collector uses. */
const char *sl_collector_transport(const sl_collector *c);
/* Host-shadow statistics (valid after stop): region mirrors, field write-backs and
** payload pulls performed. Zeros under shared memory. */
void sl_collector_shadow_stats(const sl_collector *c, uint64_t *mirrors, uint64_t *writebacks,
                               uint64_t *pulls);

/* Print what the collector found at the end of the run (dropped records as warnings,
** accounting or export errors as errors), in the order found, and forget it. The
** library itself prints nothing there: the command decides. */
void sl_collector_report(sl_collector *c);

/* Start the host threads (before launching the device threads); a failure is
** described on err (may be NULL). */
SL_MUST_CHECK sl_status sl_collector_start(sl_collector *c, sl_err *err);
/* After every device thread has been joined: final drain, join host threads. */
int sl_collector_stop(sl_collector *c);
/* Mark the capture truncated (e.g. SIGINT). Async-signal-safe: one atomic store.
** The exported capture then says "truncated": true. */
void sl_collector_mark_truncated(sl_collector *c);
/* Copy core_to_thread (level >= 3) and the phase-thread counts out of the region. */
void sl_collector_read_metadata(sl_collector *c);

/* ---- reconcile ----------------------------------------------------------------- */

/* Per-pool accounting, summed over the pool's instances. */
typedef struct sl_pool_account {
  uint64_t total;      /* records the device attempted (device counter)  */
  uint64_t collected;  /* records the host copied out                    */
  uint64_t dropped;    /* records the device counted as dropped          */
  uint64_t unflushed;  /* records left in an active buffer at stop (flush bug) */
} sl_pool_account;

/* Check collected + dropped == total for all four pools (indexed by
** enum sl_buffer_kind) and that nothing was left unflushed. Prints every
** drop and mismatch on stderr; stores the result for the export's metadata.
** Returns 0 when every pool balances, 1 when not, -1 on error. */
int sl_collector_reconcile(sl_collector *c);
/* Accounting of one pool kind (valid after reconcile). */
sl_pool_account sl_collector_account(const sl_collector *c, unsigned kind);

/* ---- export -------------------------------------------------------------------- */

/* Write <dir>/chip_swimlane_records.json and <dir>/chip_swimlane_records.pb
** (creates dir). Each file appears complete or not at all. Level 0 writes
** nothing. 0 ok, -1 error (reported). */
int sl_collector_export(sl_collector *c, const char *dir);
int sl_collector_export_json(sl_collector *c, const char *path);
int sl_collector_export_pb(sl_collector *c, const char *path);

/* Extra members of the capture's metadata object, written after the capture block
** (e.g. "\"host_clock_domain_id\": \"x\"" — the caller's JSON, comma-separated
** members, no braces). Appends to earlier calls. JSON export only. */
void sl_collector_add_metadata(sl_collector *c, const char *members);
/* The clock facts of one dispatch of an L3 rank (docs/l3.md): the host clock domain,
** the two clock anchors around the device run (host ns before / after one device
** counter read) and the device window in cycles. Written into both exports: the
** JSON metadata's host_clock_domain_id / clock_anchors / device_wall and the same
** Metadata fields of the .pb, so either capture of a rank can be merged. */
typedef struct sl_clock_anchor {
  int64_t before_ns, after_ns;
  uint64_t cycles;
} sl_clock_anchor;
typedef struct sl_dispatch_clock {
  char domain[128];            /* host_clock_domain_id */
  sl_clock_anchor pre, post;   /* pre_host_orchestration / post_device_execution */
  uint64_t open_cycles, sched_start_cycles, sched_end_cycles, close_cycles;
} sl_dispatch_clock;
/* Replaces an earlier call's. */
void sl_collector_set_dispatch_clock(sl_collector *c, const sl_dispatch_clock *d);

/* Extra top-level members of the JSON capture, written after the record sections
** (HBG: host_orchestrator_phases, host_device_uploads). Same rules as above. */
void sl_collector_add_sections(sl_collector *c, const char *members);

/* The host side of a capture for the .pb export (the JSON export takes the same facts
** as text through the two calls above): host_build_graph's host records, upload steps
** and host_capture accounting, and the clock anchors of any run that sampled them.
** Strings must outlive the collector (literals, generated names). */
typedef struct sl_coll_host_rec {
  uint32_t submit_idx;
  uint64_t task_id, start_ns, end_ns;
} sl_coll_host_rec;
typedef struct sl_coll_upload {
  const char *phase;
  uint64_t start_ns, end_ns, bytes;
} sl_coll_upload;
typedef struct sl_coll_anchor {
  const char *position;
  uint32_t sample_idx;
  uint64_t host_before_ns, device_cycles, host_after_ns;
} sl_coll_anchor;
typedef struct sl_coll_host {
  int host_mode;                       /* host_build_graph: the host_* members below */
  uint64_t origin_ns;                  /* host_orchestration_origin_ns */
  const char *status, *error;          /* host_capture (error NULL = null) */
  uint64_t expected, recorded, pool, dropped;
  /* the two host pools (metadata.capture.pools, reconciled like the device's): what
  ** the host tried to record; nrecs / nuploads were kept, the rest dropped */
  uint64_t rec_attempted, rec_dropped, upload_attempted, upload_dropped;
  const sl_coll_host_rec *recs;        /* one host thread */
  size_t nrecs;
  const sl_coll_upload *uploads;
  size_t nuploads;
  const sl_coll_anchor *anchors;       /* none: no clock_anchors */
  size_t nanchors;
  uint32_t samples_per_position;
} sl_coll_host;
/* Copies h (its arrays, not its strings). */
void sl_collector_set_host(sl_collector *c, const sl_coll_host *h);

/* The selective task-timing slots of the captured run (set_task_timing_slot(N)):
** each tagged slot's earliest dispatch and latest finish in device cycles, written
** as metadata.task_timing_slots in both exports. Replaces an earlier call's; n at
** most SL_COLL_MAX_SLOTS. 0 ok, -1 too many. */
#define SL_COLL_MAX_SLOTS 16
typedef struct sl_coll_slot {
  uint32_t slot;
  uint64_t dispatch_cycles, finish_cycles;
} sl_coll_slot;
int sl_collector_set_task_slots(sl_collector *c, const sl_coll_slot *v, size_t n);

/* stop → read_metadata → reconcile → export(dir). Returns -1 on an error,
** else 0 (a reconcile mismatch is reported on stderr and in the capture,
** not as a failure). */
int sl_collector_finish(sl_collector *c, const char *dir);

/* Cost of the host threads (valid after stop): CPU
** time they used, in ns, and how often one of them went to sleep waiting for
** work. Zeros at level 0 or when the threads never ran. */
void sl_collector_host_stats(const sl_collector *c, uint64_t *cpu_ns, uint64_t *sleeps);

/* Stops the threads if still running and frees everything. NULL is ignored. */
void sl_collector_destroy(sl_collector *c);

#endif /* SL_COLLECTOR_H */
