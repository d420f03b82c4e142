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
**   sl_collector_start(c);                              // drain / collector / replenish threads
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
  int host_shards;             /* drain + collector thread pairs; 0 = auto (one per AICPU
                                  thread, at most half the host CPUs, at least 1)          */
} sl_collector_config;

/* Fill `cfg` with defaults for `platform` (level 4, 2 AIC + 4 AIV, 3 AICPU threads). */
void sl_collector_config_init(sl_collector_config *cfg, const struct sl_platform_info *platform);

/* NULL on a bad configuration or allocation failure (reported on stderr). */
sl_collector *sl_collector_create(const sl_collector_config *cfg);
/* The device handle for the runtime's hooks; NULL at level 0. */
sl_devprof *sl_collector_device(sl_collector *c);
unsigned sl_collector_level(const sl_collector *c);

/* Start the host threads (before launching the device threads). 0 ok, -1 error. */
int sl_collector_start(sl_collector *c);
/* After every device thread has been joined: final drain, join host threads. */
int sl_collector_stop(sl_collector *c);
/* Mark the capture truncated (e.g. SIGINT). Async-signal-safe: one atomic store.
** The exported capture then says "truncated": true. */
void sl_collector_mark_truncated(sl_collector *c);
/* Copy core_to_thread (level >= 3) and the phase-thread counts out of the region. */
int sl_collector_read_metadata(sl_collector *c);

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
** members, no braces). Appends to earlier calls. JSON export only. 0 ok, -1 no memory. */
int sl_collector_add_metadata(sl_collector *c, const char *members);
/* Extra top-level members of the JSON capture, written after the record sections
** (HBG: host_orchestrator_phases, host_device_uploads). Same rules as above. */
int sl_collector_add_sections(sl_collector *c, const char *members);

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
