/*
** sl_run_internal.h — state shared by the pieces of `swimlane run`: the loaded
** workload, the Lua bindings of the orchestration API, and the output writers.
*/
#ifndef SL_RUN_INTERNAL_H
#define SL_RUN_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "sl_base.h"
#include "sl_dtypes.h"
#include "sl_mem.h"
#include "sl_runtime.h"
#include "sl_vec.h"

struct lua_State;

#define SL_RUN_MAX_INCORES 64

typedef struct sl_incore {
  int func_id;
  char name[64];
  char source[256];
  int is_aic;
  sl_kernel_fn fn;
  sl_arg_dir sig[64];
  int nsig;            /* signature entries (tensors + scalars) */
  int nsig_tensors;
} sl_incore;

typedef struct sl_workload {
  char path[1024];     /* the .lua file */
  char name[128];      /* file base name without .lua */
  char klass[128];
  char orch_name[128];
  int has_orch_name;
  unsigned runtimes;   /* bit SL_RT_TMR / SL_RT_HBG: runtimes the workload supports */
  int l3_ranks;        /* `l3 = { ranks = N, dispatches = K }`: an L3 group (0 = none) */
  int l3_dispatches;   /* 0 = the L3 scheduler's default */
  sl_incore incores[SL_RUN_MAX_INCORES];
  int nincores;
  struct lua_State *L;
  int table_ref;       /* the returned workload table */
} sl_workload;

typedef struct sl_run_ctx {
  sl_workload *wl;
  sl_rt *rt;
  int case_ref;        /* params table */
  int state_ref;       /* orchestrate's return value */
  uint64_t rng;
  int next_slot;       /* rt:set_task_timing_slot(n) for the next submit, -1 none */
  char err[1024];
} sl_run_ctx;

/* sl_run_hbg.c: the host_build_graph capture additions (metadata: orchestrator source,
** host capture status, clock anchors; sections: host_orchestrator_phases,
** host_device_uploads). Anchors alone for a TMR run that sampled them. */
struct sl_collector;
/* pool_records: --pool-records (the host pools' capacity; 0 = unbounded). */
void sl_run_add_host_capture(struct sl_collector *coll, const sl_rt *rt, int runtime, int pool_records);

/* sl_run_workload.c: load + validate; 0 ok, -1 error reported. */
int sl_workload_load(sl_workload *wl, const char *name_or_path);
void sl_workload_free(sl_workload *wl);
/* The L3 group a workload declares (its `l3` field), read without a message for any
** problem (the run that loads the workload reports it): 1 declared (ranks, dispatches
** set; dispatches 0 = not given), 0 not. */
#define SL_WORKLOAD_MAX_RANKS 64
int sl_workload_l3_group(const char *name_or_path, int *ranks, int *dispatches);
const sl_incore *sl_workload_incore(const sl_workload *wl, int func_id);
/* Find a case: by name (NULL = first listing platform). Pushes nothing; returns the
** case index (1-based) or 0 with the error reported. */
int sl_workload_case(sl_workload *wl, const char *case_name, const char *platform, char *out_name,
                     size_t out_len);

/* sl_run_lua.c: the orchestration function run on the orchestrator thread, and the
** result check run afterwards. 0 ok, else ctx->err holds the message. */
int sl_run_orchestrate(void *ctx, sl_rt *rt);
int sl_run_check(sl_run_ctx *ctx);
/* sl_run_spec.c: the tensor userdata (metatable name, checked access) and the
** dtype names a workload may give (the codes are the schema's, sl_dtypes.h). */
#define SL_RUN_TENSOR_MT "swimlane.tensor"
enum {
  DT_FLOAT32 = SL_DTYPE_FLOAT32,
  DT_INT32 = SL_DTYPE_INT32,
  DT_INT64 = SL_DTYPE_INT64,
  DT_UINT64 = SL_DTYPE_UINT64,
  DT_UINT32 = SL_DTYPE_UINT32,
  DT_BOOL = SL_DTYPE_BOOL,
};
/* The dtype code of `s`, -1 when it is not one of the names above. */
int sl_run_dtype_parse(const char *s);
/* Each item of the optional list field `key` of the table at `spec`, in order, read by
** read(L, i, out) while it is on top of the stack; more than max items is a Lua error
** "<who>: more than <max> <what>". Returns the count. */
int sl_run_lua_list(struct lua_State *L, int spec, const char *key, int max, const char *who, const char *what,
                    void (*read)(struct lua_State *L, int i, void *out), void *out);
sl_rt_tensor *sl_run_lua_check_tensor(struct lua_State *L, int idx);
/* Pieces of a task spec table at stack index `spec` (raise Lua errors): kernels
** (returns the widest member, NULL for none), tensor directions from its
** signature, `args` tensors, `scalars`, `deps`. */
const sl_incore *sl_run_lua_kernels(struct lua_State *L, sl_run_ctx *c, int spec, int ids[3], sl_kernel_fn fns[3]);
void sl_run_lua_dirs(const sl_incore *widest, sl_arg_dir *dirs, int ntensors);
int sl_run_lua_tensors(struct lua_State *L, int spec, sl_rt_tensor *out);
int sl_run_lua_scalars(struct lua_State *L, int spec, sl_rt_scalar *out);
int sl_run_lua_deps(struct lua_State *L, int spec, uint64_t *out, int max);
/* sl_run_graph.c: rt:graph{params=, nodes=} and rt:submit_graph{graph=, args=, deps=}. */
int sl_run_lua_graph(struct lua_State *L);
int sl_run_lua_submit_graph(struct lua_State *L);
/* Push the params table of case `idx` (1-based) and keep a reference in ctx. */
void sl_run_set_case(sl_run_ctx *ctx, int idx);

/* sl_run_timing.c: the device log (orch run window + g_orch_*_cycle counters),
** the per-round timing summary, and task-timing slot spans gathered over rounds. */
typedef struct sl_run_slots {
  double *spans[SL_RT_TIMING_SLOTS]; /* us, one per round that ran the tagged task */
  int count[SL_RT_TIMING_SLOTS];
} sl_run_slots;
int sl_run_write_device_log(const sl_rt_timing *t, const char *dir);
void sl_run_print_timing(const sl_rt_timing *t, const sl_rt *rt, double host_wall_us, int round, int rounds);
void sl_run_slots_add(sl_run_slots *acc, const sl_rt_timing *t);
void sl_run_slots_print(sl_run_slots *acc, int rounds);
void sl_run_slots_free(sl_run_slots *acc);
/* The round's tagged slots into the capture (metadata.task_timing_slots). 0 ok. */
int sl_run_slots_to_capture(struct sl_collector *coll, const sl_rt_timing *t);

/* sl_run_outputs.c */
/* `run --list` (sl_run_list.c): workloads, their cases, the simulated platforms. */
int sl_run_list(FILE *out);
int sl_write_deps_json(const sl_rt *rt, const char *path);
int sl_write_name_map(const sl_workload *wl, const char *path);
int sl_write_args_dump(const sl_rt *rt, int level, const char *dir);

/* host/l3 (multi-rank runs): the device-window hook an L3 rank sets around each
** round's device run (NULL in an ordinary run), and the entry that takes over
** `run --ranks N` and the rank worker; it returns -1 when argv is neither. */
enum { SL_RUN_DEV_OPEN = 0, SL_RUN_DEV_SCHED = 1, SL_RUN_DEV_CLOSE = 2 };
struct sl_collector;
typedef void (*sl_run_dev_hook_fn)(int event, struct sl_collector *coll);
extern sl_run_dev_hook_fn sl_run_device_hook;
/* What a rank worker needs of `run`, handed down by sl_cmd_run so that host/l3
** calls nothing in sl_run.c (no circle): the run itself and its device hook. */
typedef struct sl_run_entry {
  int (*run)(int argc, char **argv);
  sl_run_dev_hook_fn *device_hook;
  int (*convert)(int argc, char **argv); /* the merge after --ranks; NULL: print the command */
} sl_run_entry;

/* What `run` parsed that the L3 hand-over needs (sl_cmd_run fills it from its one
** option table, so host/l3 reads no argv of its own). Counts are 0 and ppm bounds
** -1 when not given; the worker_* strings are the hidden --l3-* options the L3
** scheduler gives the rank processes it starts. */
typedef struct sl_l3_request {
  const char *workload, *case_name, *platform, *out_root;
  int quiet, no_convert;                       /* -q, --no-convert */
  int ranks, dispatches, hosts;                /* --ranks, --dispatches, --hosts */
  int rate_error_ppm, host_drift_ppm;          /* --rate-error-ppm, --host-drift-ppm */
  const char *worker_rank, *worker_root;       /* --l3-worker R --l3-root DIR */
  const char *counter_offset, *rate_ppb;       /* --l3-counter-offset, --l3-rate-ppb */
  const char *host, *host_offset, *host_ppb, *host_epoch; /* --l3-host H and its clock */
  int argc;    /* the user's options as given (every --opt=value split in two), */
  char **argv; /* passed on to the rank processes; argv[0] is "run" */
} sl_l3_request;

/* Take over the run when it is an L3 run (--ranks N, or a workload declaring an L3
** group) or one rank of it; -1 when it is neither (an ordinary run). */
int sl_l3_run_maybe(const sl_l3_request *req, const sl_run_entry *entry);

#endif /* SL_RUN_INTERNAL_H */
