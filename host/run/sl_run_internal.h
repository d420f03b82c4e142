/*
** sl_run_internal.h — state shared by the pieces of `swimlane run`: the loaded
** workload, the Lua bindings of the orchestration API, and the output writers.
*/
#ifndef SL_RUN_INTERNAL_H
#define SL_RUN_INTERNAL_H

#include <stdint.h>

#include "sl_runtime.h"

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
  char err[1024];
} sl_run_ctx;

/* sl_run_workload.c: load + validate; 0 ok, -1 error reported. */
int sl_workload_load(sl_workload *wl, const char *name_or_path);
void sl_workload_free(sl_workload *wl);
const sl_incore *sl_workload_incore(const sl_workload *wl, int func_id);
/* Find a case: by name (NULL = first listing platform). Pushes nothing; returns the
** case index (1-based) or 0 with the error reported. */
int sl_workload_case(sl_workload *wl, const char *case_name, const char *platform, char *out_name,
                     size_t out_len);

/* sl_run_lua.c: the orchestration function run on the orchestrator thread, and the
** result check run afterwards. 0 ok, else ctx->err holds the message. */
int sl_run_orchestrate(void *ctx, sl_rt *rt);
int sl_run_check(sl_run_ctx *ctx);
/* Push the params table of case `idx` (1-based) and keep a reference in ctx. */
void sl_run_set_case(sl_run_ctx *ctx, int idx);

/* sl_run_outputs.c */
int sl_write_deps_json(const sl_rt *rt, const char *path);
int sl_write_name_map(const sl_workload *wl, const char *path);
int sl_write_args_dump(const sl_rt *rt, int level, const char *dir);

/* host/l3 (multi-rank runs): the device-window hook an L3 rank sets around each
** round's device run (NULL in an ordinary run), and the entry that takes over
** `run --ranks N` and the rank worker; it returns -1 when argv is neither. */
enum { SL_RUN_DEV_OPEN = 0, SL_RUN_DEV_SCHED = 1, SL_RUN_DEV_CLOSE = 2 };
struct sl_collector;
extern void (*sl_run_device_hook)(int event, struct sl_collector *coll);
int sl_l3_run_maybe(int argc, char **argv);

#endif /* SL_RUN_INTERNAL_H */
