/*
** sl_runtime.h — the simulated chip and its tensormap_and_ringbuffer runtime.
**
** Threads: one AICore worker per core, S AICPU scheduler threads, one orchestrator
** thread (AICPU thread index S). The orchestrator runs the caller's orchestration
** function, which creates tensors and submits tasks through this API; dependencies
** come from overlapping tensor regions (the tensormap). Schedulers pop ready tasks
** per shape (AIC / AIV / MIX), dispatch them through per-core registers
** (DATA_MAIN_BASE token, COND ACK/FIN) and resolve successors on completion.
**
** Profiling goes through runtime/profiler/sl_devprof.h; a NULL devprof is level 0
** and no timestamp is taken for it.
*/
#ifndef SL_RUNTIME_H
#define SL_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "sl_devprof.h"
#include "sl_kernel_api.h"
#include "sl_kernels.h"
#include "sl_vclock.h"

#define SL_RT_MAX_TENSOR_ARGS 32
#define SL_RT_MAX_SCALAR_ARGS 16
#define SL_RT_MAX_CORES 108
#define SL_RT_MAX_SCHED 8
#define SL_RT_MAX_RINGS 4 /* orchestration scope depths: ring 0 .. 3 */

typedef struct sl_rt sl_rt;
typedef struct sl_rt_task sl_rt_task;

/* Core type of core id i: ids [0, num_aic) are AIC, the rest AIV. Cluster c is
** AIC c with AIV num_aic + 2c and num_aic + 2c + 1. */
typedef struct sl_rt_config {
  uint64_t clock_freq_hz;  /* device clock: 50 MHz a2a3, 1 GHz a5           */
  int num_aic, num_aiv;    /* cores                                          */
  int num_sched;           /* AICPU scheduler threads (orchestrator is extra) */
  unsigned level;          /* 0..4 (gates the hooks)                         */
  sl_devprof *dp;          /* NULL at level 0                                */
  int ring_size;           /* tasks in flight before submit waits (0 = 4096) */
  int dep_gen;             /* keep the graph for deps.json                    */
  int dump_args;           /* 0..3: args dump level                           */
  int runtime;             /* SL_RT_TMR (0) or SL_RT_HBG                      */
  int clock_anchors;       /* sample clock anchors (HBG at level 4: always)   */
  const sl_vclock_model *vclock; /* non-NULL: deterministic virtual time (sl_vclock.h) */
  int host_pool_records;   /* HBG host pools: records each holds (0 = as many as come) */
} sl_rt_config;

/* host_build_graph on a5 (the platform's hbg_producer "aicore"): the AICore Scheduler
** schedules (runtime/core/sl_rt_aisched.c), the AICPU threads only run the control plane
** (aicpu_lifecycle_records), and there is no P thread. Call after sl_rt_create, before
** sl_rt_run; ignored unless the runtime is SL_RT_HBG. */
void sl_rt_use_aicore_scheduler(sl_rt *rt);

/* Runtimes (docs/runtimes.md): tensormap_and_ringbuffer orchestrates on an AICPU thread
** while the device runs; host_build_graph builds the whole graph on the host first,
** uploads it, then the device runs it with a dedicated P (completion) thread. */
enum { SL_RT_TMR = 0, SL_RT_HBG = 1 };

/* Argument directions (signature entries). */
typedef enum sl_arg_dir { SL_ARG_IN = 0, SL_ARG_OUT = 1, SL_ARG_INOUT = 2, SL_ARG_SCALAR = 3 } sl_arg_dir;

/* A host buffer standing in for GM. */
typedef struct sl_rt_buffer {
  void *data;
  uint64_t bytes;
  uint64_t creator_task;  /* alloc_tensors task id, UINT64_MAX when created directly */
  int32_t version;
  uint64_t vaddr;            /* --clock virtual: simulated address for ids (0 = use data) */
  struct sl_rt_buffer *next; /* runtime's list, for freeing */
} sl_rt_buffer;

/* A tensor (view) as the orchestration sees it. */
typedef struct sl_rt_tensor {
  sl_rt_buffer *buf;
  int dtype;                 /* raw DataType (FLOAT32 = 0 ...) */
  int ndims;
  int64_t shape[5];
  int64_t strides[5];        /* elements */
  int64_t start_offset;      /* elements */
} sl_rt_tensor;

/* Row-major contiguous: every dimension longer than 1 has the stride of the dimensions
** after it (a tensor's or an args-dump entry's shape and strides, in elements). */
int sl_rt_view_contiguous(int ndims, const int64_t *shape, const int64_t *strides);

typedef struct sl_rt_scalar {
  uint64_t raw;
  int dtype;                 /* raw DataType of the value (for args dumps) */
} sl_rt_scalar;

/* One submit. kernel_ids: [aic, aiv0, aiv1], -1 = inactive. */
typedef struct sl_rt_submit {
  int kernel_ids[3];
  sl_kernel_fn fns[3];
  const sl_rt_tensor *tensors;   /* ntensors */
  const sl_arg_dir *dirs;        /* ntensors */
  int ntensors;
  const sl_rt_scalar *scalars;   /* nscalars */
  int nscalars;
  int block_num;                 /* >= 1 */
  int predicate;                 /* 0 = retire without running (predicated_skip) */
  const uint64_t *explicit_deps; /* task ids; dummy tasks use these */
  int ndeps;
  int sync_start;                /* every block must start together (single core type) */
  uint32_t async_us;             /* completes this many device us after its last FIN
                                    (an outstanding DMA the kernel issued); 0 = at FIN */
  int has_timing_slot;           /* set_task_timing_slot(timing_slot): record the task's */
  int timing_slot;               /* dispatch -> finish window in slot 0..15              */
} sl_rt_submit;

/* ---- lifecycle ------------------------------------------------------------------------- */

/* NULL on a bad config or a mutex the system refuses (message in sl_rt_config_error) */
sl_rt *sl_rt_create(const sl_rt_config *cfg);
const char *sl_rt_config_error(void);

/* Start AICore + scheduler threads, run orch(ctx, rt) on the orchestrator thread, wait
** for every submitted task, stop and join all threads. Returns orch's result (0 ok).
** Safe to call once. */
typedef int (*sl_rt_orch_fn)(void *ctx, sl_rt *rt);
int sl_rt_run(sl_rt *rt, sl_rt_orch_fn orch, void *ctx);

/* Ask a running sl_rt_run to stop early (SIGINT): submits fail, queued tasks are
** dropped, running kernels finish. Async-signal-safe. */
void sl_rt_interrupt(sl_rt *rt);
int sl_rt_interrupted(const sl_rt *rt);
int sl_rt_get_runtime(const sl_rt *rt); /* cfg.runtime: SL_RT_TMR / SL_RT_HBG */

void sl_rt_destroy(sl_rt *rt);

/* ---- orchestration API (orchestrator thread) ------------------------------------------- */

/* New zeroed buffer of `bytes`; NULL on allocation failure. */
sl_rt_buffer *sl_rt_buffer_new(sl_rt *rt, uint64_t bytes);
/* Submit a task; returns its id ((ring << 32) | local), UINT64_MAX on error
** (message via sl_rt_last_error). */
uint64_t sl_rt_submit_task(sl_rt *rt, const sl_rt_submit *s);
/* Graph definitions: a reusable graph whose nodes the scheduler expands when an
** instance becomes ready (graph_prepare). Nodes read and write the instance's
** tensor parameters by index and wait for earlier nodes they name; node ids are
** ring 1: (1 << 32) | (outer_local << 10) | node_index. */
#define SL_RT_GRAPH_MAX_NODES 1024
typedef struct sl_rt_graph_node {
  int kernel_ids[3];         /* [aic, aiv0, aiv1], -1 = inactive (a single AIV kernel in aiv0) */
  sl_kernel_fn fns[3];
  int params[SL_RT_MAX_TENSOR_ARGS]; /* tensor slot i = instance parameter params[i] */
  sl_arg_dir dirs[SL_RT_MAX_TENSOR_ARGS];
  int ntensors;
  sl_rt_scalar scalars[SL_RT_MAX_SCALAR_ARGS];
  int nscalars;
  int block_num;
  int deps[16];              /* earlier node indices */
  int ndeps;
} sl_rt_graph_node;
/* Define a graph of n nodes over nparams tensor parameters accessed as dirs[];
** returns its handle (>= 0) or -1 (message via sl_rt_last_error). */
int sl_rt_graph_define(sl_rt *rt, const sl_rt_graph_node *nodes, int n, const sl_arg_dir *dirs, int nparams);
/* Submit one instance of graph `g` over `params` (ordered by the tensormap as one
** task); returns the outer task id (ring 0), UINT64_MAX on error. */
uint64_t sl_rt_submit_graph(sl_rt *rt, int g, const sl_rt_tensor *params, int nparams,
                            const uint64_t *deps, int ndeps);

/* alloc_tensors(): one runtime task (completed inline) creating `n` buffers. */
uint64_t sl_rt_alloc_tensors(sl_rt *rt, const uint64_t *bytes, int n, sl_rt_buffer **out);
const char *sl_rt_last_error(const sl_rt *rt);
/* Nested orchestration scopes: tasks submitted inside scope depth d take ids on
** ring d, (d << 32) | local (locals count per ring). 0 ok, -1 past the deepest
** ring / no open scope. */
int sl_rt_scope_begin(sl_rt *rt);
int sl_rt_scope_end(sl_rt *rt);
void sl_rt_core_counts(const sl_rt *rt, int *num_aic, int *num_aiv);

/* ---- after the run ---------------------------------------------------------------------- */

typedef struct sl_rt_stats {
  uint64_t tasks;            /* submitted tasks (kernel, dummy, predicated)   */
  uint64_t kernel_tasks, dummy_tasks, skipped_tasks, alloc_tasks;
  uint64_t dispatches;       /* subtasks dispatched to cores                   */
  uint64_t completed;        /* tasks completed                                */
  uint64_t pop_hit, pop_miss;
  uint64_t ring_peak[SL_RT_MAX_RINGS]; /* most tasks of each ring in flight at once */
} sl_rt_stats;
sl_rt_stats sl_rt_get_stats(const sl_rt *rt);
/* Tasks submitted and completed so far; safe to call from another thread while
** sl_rt_run runs (the progress line of `run`). */
void sl_rt_progress(const sl_rt *rt, uint64_t *submitted, uint64_t *completed);

/* Selective task-timing slots and the orchestrator's cold-path counters, at every
** level (no collector involved): device cycles. */
#define SL_RT_TIMING_SLOTS 16
/* Orchestrator submit sub-steps (g_orch_<name>_cycle in the device log). */
enum { SL_ORCH_SYNC, SL_ORCH_ALLOC, SL_ORCH_PARAMS, SL_ORCH_LOOKUP, SL_ORCH_INSERT, SL_ORCH_FANIN, SL_ORCH_STEPS };
const char *sl_rt_orch_step_name(int step); /* its orchestrator kind's label: "sync", "alloc", ... */
typedef struct sl_rt_timing {
  uint64_t freq_hz;
  uint64_t run_start, run_end;     /* threads started .. all joined        */
  uint64_t orch_start, orch_end;   /* the orchestration function's window  */
  uint64_t sched_start, sched_end; /* first scheduler start .. last exit   */
  uint64_t orch_cycles[SL_ORCH_STEPS];
  uint64_t submits;
  int slot_set[SL_RT_TIMING_SLOTS]; /* a tagged task ran in this slot     */
  uint64_t slot_start[SL_RT_TIMING_SLOTS], slot_end[SL_RT_TIMING_SLOTS];
} sl_rt_timing;
sl_rt_timing sl_rt_get_timing(const sl_rt *rt);

/* The task graph (kept when cfg.dep_gen or cfg.dump_args). */
/* Why an edge exists. ORDER: deps.json's "source" names (host/run/sl_run_outputs.c). */
typedef enum sl_rt_edge_source {
  SL_RT_EDGE_EXPLICIT,  /* a dependency the orchestration named */
  SL_RT_EDGE_CREATOR,   /* a use of a buffer that alloc_tensors created */
  SL_RT_EDGE_TENSORMAP  /* a conflicting access found by the tensormap */
} sl_rt_edge_source;

typedef struct sl_rt_edge {
  uint64_t pred, succ;
  int arg;                   /* consumer slot, -1 explicit */
  sl_rt_edge_source source;
  int covered;               /* tensormap: consumer region inside producer's */
  uint64_t tensor_id;
  int prod_arg;              /* producer slot (tensormap) */
  int hazard;                /* tensormap: sl_tm_hazard (RAW / WAR / WAW), -1 otherwise */
} sl_rt_edge;

size_t sl_rt_task_count(const sl_rt *rt);
const sl_rt_task *sl_rt_task_at(const sl_rt *rt, size_t i);
const sl_rt_task *sl_rt_task_by_id(const sl_rt *rt, uint64_t id); /* NULL if none */
/* A graph instance's expanded nodes (0 for other tasks or an instance never run), and
** node n's predecessors in the definition (node indices). */
int sl_rt_task_nnodes(const sl_rt_task *t);
const sl_rt_task *sl_rt_task_node(const sl_rt_task *t, int n);
int sl_rt_task_node_deps(const sl_rt_task *t, int n, const int **deps);
uint64_t sl_rt_task_id(const sl_rt_task *t);
void sl_rt_task_kernels(const sl_rt_task *t, int kernel_ids[3]);
int sl_rt_task_block_num(const sl_rt_task *t);
int sl_rt_task_is_alloc(const sl_rt_task *t);
int sl_rt_task_ntensors(const sl_rt_task *t);
int sl_rt_task_nscalars(const sl_rt_task *t);
const sl_rt_tensor *sl_rt_task_tensor(const sl_rt_task *t, int i);
sl_arg_dir sl_rt_task_dir(const sl_rt_task *t, int i);
sl_rt_scalar sl_rt_task_scalar(const sl_rt_task *t, int i);
size_t sl_rt_edge_count(const sl_rt *rt);
const sl_rt_edge *sl_rt_edge_at(const sl_rt *rt, size_t i);

/* Tensor id as deps.json writes it: FNV-1a over (buffer address, version); the
** simulated address under the virtual clock. */
uint64_t sl_rt_tensor_id(const sl_rt_buffer *b);

/* ---- args dump (cfg.dump_args > 0): captured at ready time (before_dispatch) and on
** completion (after_completion). ---------------------------------------------------------- */
typedef struct sl_rt_dump_entry {
  uint64_t task_id;
  int func_ids[3];
  int nfunc;
  int arg_index;
  int role;                  /* 0 input, 1 output, 2 inout */
  int stage;                 /* 0 before_dispatch, 1 after_completion */
  int is_scalar;
  int dtype;
  uint64_t value;            /* scalars: raw slot */
  int ndims;
  int64_t shape[5], strides[5], start_offset;
  void *payload;             /* logical contiguous copy (level 2, or NULL) */
  uint64_t payload_bytes;
} sl_rt_dump_entry;
size_t sl_rt_dump_count(const sl_rt *rt);
const sl_rt_dump_entry *sl_rt_dump_at(const sl_rt *rt, size_t i);

/* ---- host_build_graph records and clock anchors (after the run) -------------------------- */

/* One host-orchestrator record per submit / alloc_tensors (host monotonic ns). */
typedef struct sl_rt_host_submit {
  uint32_t submit_idx;
  uint64_t task_id;
  uint64_t start_ns, end_ns;
} sl_rt_host_submit;
/* One host -> device upload step: kind = a generated SL_HOST_PHASE_* id. */
typedef struct sl_rt_upload {
  int kind;
  uint64_t start_ns, end_ns, bytes;
} sl_rt_upload;
/* One clock anchor sample: host ns around one device counter read. */
enum { SL_RT_ANCHOR_PRE = 0, SL_RT_ANCHOR_POST = 1 };
#define SL_RT_ANCHOR_SAMPLES 3 /* per position */
typedef struct sl_rt_anchor {
  int position;              /* SL_RT_ANCHOR_PRE / _POST */
  int sample_idx;
  uint64_t host_before_ns, device_cycles, host_after_ns;
} sl_rt_anchor;
size_t sl_rt_host_submits(const sl_rt *rt, const sl_rt_host_submit **out);
/* The host-side record pools (HBG, level 4): what the host tried to record and what it
** dropped because the pool was full (cfg.host_pool_records) or memory ran out; the
** records kept are sl_rt_host_submits / sl_rt_uploads, so kept + dropped == attempted. */
enum { SL_RT_HOST_POOL_SUBMITS = 0, SL_RT_HOST_POOL_UPLOADS = 1, SL_RT_HOST_POOLS };
void sl_rt_host_pool(const sl_rt *rt, int pool, uint64_t *attempted, uint64_t *dropped);
size_t sl_rt_uploads(const sl_rt *rt, const sl_rt_upload **out);
size_t sl_rt_anchors(const sl_rt *rt, const sl_rt_anchor **out);
uint64_t sl_rt_host_ns(void); /* host CLOCK_MONOTONIC, ns (or the clock set below) */
/* The host clock the runtime's host records and clock anchors read from now on: a
** simulated host's (an L3 rank on another host, host/l3); NULL: CLOCK_MONOTONIC again. */
void sl_rt_set_host_clock(int64_t (*now_ns)(void));

/* Device cycles now (monotonic clock scaled to freq). */
uint64_t sl_rt_cycles(uint64_t freq_hz);
/* Simulated device counter of this process (L3 ranks): from now on every device
** timestamp is cycles + offset_cycles + (cycles - epoch) * rate_ppb / 1e9, epoch
** being the counter at this call. Call before any chip is created; (0, 0) = off. */
void sl_rt_set_device_clock(int64_t offset_cycles, int64_t rate_ppb, uint64_t freq_hz);

#endif /* SL_RUNTIME_H */
