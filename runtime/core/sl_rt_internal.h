/*
** sl_rt_internal.h — the runtime's private state: tasks, per-core registers,
** scheduler threads. Shared by the orchestrator, scheduler and AICore modules.
*/
#ifndef SL_RT_INTERNAL_H
#define SL_RT_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "sl_levels.h"
#include "sl_park.h"
#include "sl_phases.h"
#include "sl_readyq.h"
#include "sl_runtime.h"
#include "sl_tensormap.h"
#include "sl_vclock.h"

/* Register protocol (the chip's handshake register): COND bit 31 = FIN, bits 30..0 = token. */
#define SL_REG_TASK_MASK 0x7FFFFFFFu
#define SL_REG_FIN_BIT 0x80000000u
#define SL_REG_TOKEN_LIMIT 0x7FFFFFF0u
#define SL_REG_EXIT 0x7FFFFFF0u

/* Queue shapes (sl_platforms: queue_shape_aic/aiv/mix). */
enum { SL_SHAPE_AIC = 0, SL_SHAPE_AIV = 1, SL_SHAPE_MIX = 2, SL_SHAPE_COUNT = 3 };

/* The device clock: host CLOCK_MONOTONIC scaled to the platform frequency, the
** same value sl_rt_cycles returns, but inline and with the scale worked out once
** (the profiled hot paths read it several times per task). */
typedef struct sl_rt_clock {
  uint64_t freq_hz;
  uint64_t ns_per_cycle; /* 1e9 / freq when that divides evenly, else 0 */
  sl_vclock *vc;         /* --clock virtual: the simulation clock, else NULL */
} sl_rt_clock;

static inline sl_rt_clock sl_rt_clock_make(uint64_t freq_hz) {
  sl_rt_clock c = {freq_hz, freq_hz && 1000000000u % freq_hz == 0 ? 1000000000u / freq_hz : 0, NULL};
  return c;
}

static inline uint64_t sl_rt_clock_scale(const sl_rt_clock *c, uint64_t ns) {
  /* constant divisors for the two platform clocks (a5 1 GHz, a2a3 50 MHz) */
  if (c->ns_per_cycle == 1) return ns;
  if (c->ns_per_cycle == 20) return ns / 20u;
  if (c->ns_per_cycle) return ns / c->ns_per_cycle;
  return (uint64_t)((unsigned __int128)ns * c->freq_hz / 1000000000u);
}

/* The simulated device-counter model (sl_rt_set_device_clock): a multi-rank run
** gives each chip its own counter offset and rate error. Off (0) by default. */
extern int sl_rt_devclk_on;
uint64_t sl_rt_devclk_apply(uint64_t cycles);

static inline uint64_t sl_rt_now(const sl_rt_clock *c) {
  if (c->vc) return sl_vclock_now(c->vc);
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  uint64_t cyc = sl_rt_clock_scale(c, (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec);
  return sl_rt_devclk_on ? sl_rt_devclk_apply(cyc) : cyc;
}

struct sl_rt_task {
  uint64_t id;
  int kernel_ids[3];
  sl_kernel_fn fns[3];
  int nmembers;              /* active kernel slots */
  int shape;                 /* SL_SHAPE_*, -1 for dummy / alloc */
  int block_num;
  int next_block;            /* guarded by the ready queue's mutex */
  int predicate;
  int is_dummy, is_alloc;
  int ntensors, nscalars;
  /* the payload: args[] is built from these at dispatch (tensors first, then scalars) */
  sl_rt_tensor *tensors;     /* ntensors; one allocation holding tensors, dirs, scalars */
  sl_arg_dir *dirs;
  sl_rt_scalar *scalars;     /* nscalars */
  sl_tensor_desc *descs;     /* ntensors, 64-byte aligned */

  atomic_int fanin;          /* unresolved predecessors + 1 submit guard */
  atomic_int pending;        /* subtasks not yet FIN'd */
  pthread_mutex_t mu;        /* guards done + fanout against the orchestrator */
  int done;
  int nfanout;               /* next to done: the layout (HBG's modelled upload bytes) is unchanged */
  sl_rt_task **fanout;
  size_t capfanout;
  sl_rt_task *release_next;  /* scheduler's deferred-release list */
  sl_rt_task *order_mark;    /* orchestrator: the submit that last waited on this task */
  int sync_start;            /* blocks start together: early dispatch or a global drain */
  int timing_slot;           /* -1, or the task-timing slot its window goes to */
  uint64_t async_cycles;     /* completion lands this long after the last FIN */
  uint64_t async_due;        /* scheduler: when it lands */
  sl_rt_task *async_next;    /* scheduler's async-wait list */
  /* graphs: an outer graph task owns its expanded nodes; a node points back */
  const struct sl_rt_graph *graph;
  sl_rt_task **nodes;
  int nnodes;
  atomic_int nodes_pending;
  sl_rt_task *parent;
};

/* One simulated AICore: its registers and the payload the scheduler fills before
** publishing a token. Registers are atomics (release writes, acquire reads). */
typedef struct sl_rt_core {
  _Alignas(64) _Atomic uint32_t data_main_base; /* AICPU -> AICore token */
  _Atomic uint32_t cond;           /* AICore -> AICPU ACK / FIN + token  */
  _Atomic int sleeping;            /* AICore parked on data_main_base     */
  _Atomic int alive;               /* 1 from thread start, 2 after its exit */
  char pad0[48];
  /* payload, written by the owning scheduler while the core is idle */
  sl_kernel_fn fn;
  int64_t args[SL_ARG_SLOTS];
  sl_local_context lc;
  sl_global_context gc;
  uint64_t task_token;
  int lane;
  /* scheduler-private */
  int id, is_aic, cluster, owner;
  uint32_t seq;              /* dispatch counter for reg_task_id */
  uint32_t token;            /* token in flight                  */
  uint32_t member;           /* 1 + kernel_ids slot in flight    */
  int busy, acked;
  sl_rt_task *task;
  uint64_t dispatch_ts;
  pthread_t thread;
  sl_rt *rt;
  char pad1[64];
} sl_rt_core;

#define SL_RT_SPSC_SLOTS 256 /* completion slots per scheduler (power of two) */

typedef struct sl_rt_sched {
  _Alignas(64) _Atomic uint32_t doorbell; /* bumped by FINs, new ready work, exit */
  _Atomic int sleeping;                   /* the thread is parked on doorbell    */
  char pad0[56];
  sl_rt *rt;
  int idx;
  int cores[SL_RT_MAX_CORES];
  int ncores;
  int clusters[SL_RT_MAX_CORES];
  int nclusters;
  pthread_t thread;
  sl_rt_task *release_head;  /* completed tasks awaiting release */
  uint32_t pop_hit, pop_miss; /* since the last dispatch record */
  uint64_t total_hit, total_miss, dispatches;
  /* sync-start: a task being staged on our cores (early dispatch), or waiting for
  ** a global drain; frozen_word = the drain this thread handed its cores to */
  sl_rt_task *staging, *drain_task;
  int staged, stage_cores[SL_RT_MAX_CORES];
  _Atomic uint64_t frozen_word;
  sl_rt_task *async_head;    /* async waits not landed yet */
  /* HBG: SPSC completion slots, this scheduler -> the P thread (sl_rt_hbg.c) */
  sl_rt_task *done_slot[SL_RT_SPSC_SLOTS];
  _Atomic uint32_t done_head, done_tail;
  /* A5 HBG AICore Scheduler (sl_rt_aisched.c): its Inbox of Ready tasks per shape
  ** (others steal from it), dependency-only tasks retired inline, the physical AIV
  ** core it runs on, and whether it has published its context (control plane) */
  sl_readyq inbox[SL_SHAPE_COUNT];
  sl_readyq inbox_dummies;
  int phys_aiv;
  _Atomic int ctx_published;
} sl_rt_sched;

struct sl_rt {
  sl_rt_config cfg;
  sl_rt_clock clock;
  sl_vclock vc;              /* used when cfg.vclock is set (clock.vc points here) */
  int ncores, nclusters;
  sl_rt_core *cores;
  sl_rt_sched sched[SL_RT_MAX_SCHED];
  sl_rt_sched pthr;          /* HBG: the P thread (scheduler index num_sched, no cores) */
  /* HBG host side and clock anchors (sl_rt_host.c) */
  sl_rt_host_submit *host_subs;
  size_t nhost_subs, caphost_subs;
  sl_rt_upload uploads[4];
  int nuploads;
  uint64_t host_attempted[SL_RT_HOST_POOLS], host_dropped[SL_RT_HOST_POOLS];
  void *dev_arena;           /* the uploaded image */
  sl_rt_anchor anchors[2 * SL_RT_ANCHOR_SAMPLES];
  int nanchors;
  /* A5 HBG AICore Scheduler: Ready tasks each one claims at bootstrap, and the
  ** leader's topology (published once, read by every AICPU thread) */
  int aicore_sched;          /* sl_rt_use_aicore_scheduler */
  uint64_t boot_quota;
  _Atomic int topology_ready;
  sl_readyq queues[SL_SHAPE_COUNT];
  sl_readyq dummyq;
  sl_readyq syncq;           /* ready sync-start tasks (claimed whole) */
  sl_readyq graphq;          /* ready graph tasks awaiting expansion */
  _Atomic uint64_t drain_word; /* 0, or (generation << 8) | (owner + 1) of the global drain */
  atomic_uint_fast64_t drain_gen;
  struct sl_rt_graph **graphs; /* definitions (orchestrator) */
  /* cold-path diagnostics: orchestrator-private counters, read after the join */
  uint64_t orch_cycles[SL_ORCH_STEPS], orch_mark, orch_submits, orch_start, orch_end;
  uint64_t run_start, run_end;
  atomic_uint_fast64_t sched_start, sched_end; /* min start / max exit */
  /* the fixed device-phase buffer of task-timing slots: earliest dispatch, latest finish */
  atomic_uint_fast64_t slot_start[SL_RT_TIMING_SLOTS], slot_end[SL_RT_TIMING_SLOTS];
  int ngraphs;
  size_t capgraphs;
  sl_tensormap tm;

  /* orchestrator state */
  /* task ids: (ring << 32) | local; the ring is the orchestration scope depth */
  int ring;                          /* current scope depth */
  uint32_t next_local[SL_RT_MAX_RINGS];
  size_t *ring_index[SL_RT_MAX_RINGS]; /* local id -> index in tasks[] */
  size_t ring_cap[SL_RT_MAX_RINGS];
  uint32_t submit_idx;
  sl_rt_task **tasks;        /* every task, in submit order (orchestrator appends) */
  size_t ntasks, captasks;
  sl_rt_edge *edges;
  size_t nedges, capedges;
  sl_rt_buffer *buffers;
  uint64_t vaddr_next;       /* virtual clock: next simulated buffer address */
  char err[256];

  atomic_uint_fast64_t submitted, released;
  atomic_uint_fast64_t inflight[SL_RT_MAX_RINGS]; /* per ring: each has its own --ring budget */
  uint64_t ring_peak[SL_RT_MAX_RINGS]; /* most tasks of a ring in flight (orchestrator-written) */
  _Atomic uint32_t ring_bell;  /* bumped by the release phase             */
  _Atomic int orch_sleeping;   /* orchestrator parked waiting for a slot  */
  atomic_int orch_done;
  atomic_int interrupted;
  atomic_uint_fast64_t completed, kernel_tasks, dummy_tasks, skipped_tasks, alloc_tasks;

  /* args dump */
  pthread_mutex_t dump_mu;
  sl_rt_dump_entry *dump;
  size_t ndump, capdump;
};

/* Virtual clock: the slot of each thread (cores, then schedulers, then the
** orchestrator); advance the caller by d cycles / idle (no-ops on the wall clock). */
static inline int sl_rt_vslot_sched(const sl_rt *rt, int idx) { return rt->ncores + idx; }
static inline int sl_rt_vslot_orch(const sl_rt *rt) { return rt->ncores + rt->cfg.num_sched; }
static inline void sl_rt_vadvance(sl_rt *rt, uint64_t d) {
  if (rt->clock.vc) sl_vclock_advance(rt->clock.vc, d);
}

/* Idle polls (each a sched_yield) before a thread parks. */
#define SL_RT_SPIN_BEFORE_PARK 16

/* Doorbells (inline: the scheduler's dispatch path publishes every block). Wake
** scheduler s if it is parked; publish a token to a core, waking it if parked. */
static inline void sl_rt_ring(sl_rt_sched *s) {
  atomic_fetch_add(&s->doorbell, 1);
  if (atomic_load(&s->sleeping)) sl_park_wake(&s->doorbell);
}
static inline void sl_rt_publish(sl_rt_core *c, uint32_t tok) {
  atomic_store(&c->data_main_base, tok);
  if (atomic_load(&c->sleeping)) sl_park_wake(&c->data_main_base);
}
/* sl_rt_signal.c: ring every scheduler. */
void sl_rt_ring_all(sl_rt *rt);
/* sl_rt_signal.c: one step of an idle thread's wait. Under the virtual clock it gives up
** its turn (sl_vclock_idle); else it yields SL_RT_SPIN_BEFORE_PARK times (*idle counts),
** then announces itself in *sleeping and parks on *bell unless ready(arg) finds work after
** the announcement; after a park *idle restarts halfway, so it parks again soon. */
void sl_rt_idle_step(sl_rt *rt, int *idle, _Atomic uint32_t *bell, _Atomic int *sleeping,
                     int (*ready)(void *), void *arg);

/* Scheduler s has a core running (or staged): its scheduler-private busy flags. */
static inline int sl_rt_sched_busy(const sl_rt *rt, const sl_rt_sched *s) {
  for (int i = 0; i < s->ncores; i++)
    if (rt->cores[s->cores[i]].busy) return 1;
  return 0;
}

/* The modules call each other in one direction only, down this list:
**   sl_rt_run.c                     starts the threads, runs a workload (TMR, HBG)
**   sl_rt_sched.c, sl_rt_aisched.c  the TMR scheduler loop; the A5 AICore Scheduler
**   sl_rt_hbg.c                     the HBG P thread (TMR's schedulers post to it)
**   sl_rt_graph.c                   graph definitions and expansion
**   sl_rt_orch.c                    submit, dependencies, back-pressure
**   sl_rt_sync.c, sl_rt_async.c     sync-start and async-wait phases
**   sl_rt_task.c                    a task's way through the chip, shared by all above
**   sl_rt_host.c, sl_rt_dump.c, sl_rt_signal.c, sl_readyq.c, sl_tensormap.c, sl_vclock.c
** sl_runtime.c (create, destroy, the views) and sl_rt_aicore.c use the rows below them. */

/* sl_rt_task.c */
void sl_rt_make_ready(sl_rt *rt, sl_rt_task *t);
int sl_rt_task_done(sl_rt_task *t); /* its completion was processed (any thread) */
/* Resolve successors of a finished task; returns consumers visited. */
int sl_rt_task_finished(sl_rt *rt, sl_rt_task *t);
/* A scheduler's completed-task list back to the orchestrator (counts). */
int sl_rt_release_list(sl_rt *rt, sl_rt_sched *s);
/* The AICore Scheduler running on the calling thread, whose Inbox takes the tasks it
** makes ready (NULL: none, the global queues). */
void sl_rt_set_inbox_owner(sl_rt_sched *s);
/* sl_rt_dump.c: the args dump of one task, before it runs (stage 0) or after (1). */
void sl_rt_dump_task(sl_rt *rt, sl_rt_task *t, int stage);
/* sl_rt_orch.c */
uint64_t sl_rt_submit_internal(sl_rt *rt, const sl_rt_submit *s, const struct sl_rt_graph *graph);
void sl_rt_fill_desc(sl_tensor_desc *d, const sl_rt_tensor *t);
sl_rt_task *sl_rt_find_task(sl_rt *rt, uint64_t id); /* submitted task by id, NULL if none */
/* sl_rt_signal.c: fold a time into a min / max slot (any thread). */
void sl_rt_atomic_min(atomic_uint_fast64_t *v, uint64_t x);
void sl_rt_atomic_max(atomic_uint_fast64_t *v, uint64_t x);
/* sl_rt_host.c: the host half of host_build_graph (host records, upload, anchors) */
void sl_rt_host_submit_record(sl_rt *rt, uint64_t start_ns, uint64_t id, uint32_t submit_idx);
void sl_rt_anchor_sample(sl_rt *rt, int position);
/* Copy the built graph and the buffers into one device image (with its upload records). */
void sl_rt_host_upload(sl_rt *rt);
/* The host clock of a run, ns: CLOCK_MONOTONIC, or under --clock virtual the virtual
** time read as host ns (SL_RT_VHOST_EPOCH_NS + cycles at the device frequency), so
** host records and anchors repeat from run to run. */
#define SL_RT_VHOST_EPOCH_NS 1000000000000ull
uint64_t sl_rt_run_host_ns(sl_rt *rt);
/* sl_rt_graph.c */
void sl_rt_graphs_free(sl_rt *rt);
void sl_rt_graph_free_nodes(sl_rt_task *t);
/* The thread bodies: sl_rt_sched.c, sl_rt_hbg.c (the P thread), sl_rt_aisched.c (an
** AICPU thread's control plane around its AICore Scheduler loop), sl_rt_aicore.c. */
void *sl_rt_sched_main(void *arg);
void *sl_rt_p_main(void *arg);
void *sl_rt_aisched_main(void *arg);
void *sl_rt_aicore_main(void *arg);
/* sl_rt_aisched.c: before the device threads start, the bootstrap share of each scheduler. */
void sl_rt_aisched_prepare(sl_rt *rt);

static inline void sl_rt_spin_hint(void);
#include <sched.h>
static inline void sl_rt_spin_hint(void) { sched_yield(); }

#endif /* SL_RT_INTERNAL_H */
