/*
** l0_internal.h — the pieces of `swimlane l0` (core swimlane) and what they share.
**
**   l0_workload.c     step 1: the workload's incores and cases (Lua data)
**   l0_dump.c         step 2: run `swimlane run --dump-args 3`, find the NEW dump
**   l0_args.c         step 3: reconstruct one task's args from args_dump.json
**   l0_restore.c      step 3: --restore-arg payloads from args.bin
**   l0_workspace.c    step 4: render lua/l0 templates, smoke build
**   l0_collect.c      step 5: run the replay, write both traces, self-check
**   l0_perfetto.c     Insight -> Perfetto transform, MMAD/FIX counting
**   l0_expect.c       self-check: MMAD/FIX counts derived from tile shapes and args
**   l0_verify.c       self-check: independent invariants of the modelled timeline
**   l0_cli.c          option parsing and the five steps in order
**   l0_util.c         reading and writing files, running child processes
*/
#ifndef L0_INTERNAL_H
#define L0_INTERNAL_H

#include <cjson/cJSON.h>
#include <yajl/yajl_tree.h>

#include "sl_dtypes.h"
#include <stddef.h>
#include <stdint.h>

#define L0_PREFIX "[l0_swimlane] "
#define L0_MAX_DIMS 5
#define L0_ARG_SLOTS 50
#define L0_MAX_MIX 3

/* ---- step 1: workload ------------------------------------------------------------------ */

typedef struct sl_l0_incore {
  int func_id;
  char *name;      /* defaults to the source's base name */
  char *source;    /* absolute path                      */
  char *core_type; /* "aic" / "aiv"                       */
  char *expect;    /* l0_expect: what its cube work computes ("matmul", ...), or NULL */
} sl_l0_incore;

typedef struct sl_l0_case {
  char *name;
  char **platforms;
  int nplatforms;
} sl_l0_case;

typedef struct sl_l0_workload {
  char *path;  /* the workload file */
  char *class_name;
  sl_l0_incore *incores;
  int nincores;
  sl_l0_case *cases;
  int ncases;
} sl_l0_workload;

/* Resolve WORKLOAD (a path, or a name under <home>/lua/workloads) to a file path. */
char *sl_l0_workload_resolve(const char *spec);
int sl_l0_workload_load(const char *path, sl_l0_workload *w);   /* 0 / -1 (reported) */
void sl_l0_workload_free(sl_l0_workload *w);
const sl_l0_incore *sl_l0_workload_incore(const sl_l0_workload *w, int func_id);
/* First case listing `platform`, NULL if none. */
const sl_l0_case *sl_l0_workload_auto_case(const sl_l0_workload *w, const char *platform);
const sl_l0_case *sl_l0_workload_case(const sl_l0_workload *w, const char *name);

/* ---- dtypes ------------------------------------------------------------------------------ */

/* The generated dtype table (schema/dtypes.lua): name, raw, size, is_integer, replayable. */
typedef sl_dtype_info sl_l0_dtype;

const sl_l0_dtype *sl_l0_dtype_find(const char *name); /* case-insensitive; NULL if unknown */

/* ---- step 3: reconstructed args ---------------------------------------------------------- */

enum { L0_INIT_ZERO = 0, L0_INIT_FILL, L0_INIT_RESTORE };

typedef struct sl_l0_arg {
  int slot;
  int is_tensor;
  char dtype[24];
  const sl_l0_dtype *dt; /* NULL when the name is unknown */
  /* tensors */
  int ndims;
  int64_t shape[L0_MAX_DIMS];
  int64_t strides[L0_MAX_DIMS];
  uint64_t start_offset;
  char role[12], stage[20];
  uint64_t bin_offset, bin_size;
  int truncated, overwritten;
  uint64_t alloc_bytes; /* (start_offset + extent) * elem */
  int contiguous;       /* row-major strides and start_offset 0 */
  int init;             /* L0_INIT_* */
  int64_t fill;
  unsigned char *payload; /* restore: the physical buffer, alloc_bytes long */
  /* scalars */
  uint64_t raw; /* the args[] slot value, exact */
  int set_by_user;
} sl_l0_arg;

typedef struct sl_l0_task {
  char task_id[40];
  int mix[L0_MAX_MIX];
  int nmix;
  sl_l0_arg *args; /* tensors first (by slot), then scalars (by slot) */
  int nargs, ntensors, nscalars;
} sl_l0_task;

typedef struct sl_l0_manifest {
  char *path;
  char *dir; /* directory holding it (args.bin is looked up there) */
  yajl_val root;
} sl_l0_manifest;

/* Parse args_dump.json (64-bit integers kept exact). 0 / -1 (reported). */
int sl_l0_manifest_load(const char *path, sl_l0_manifest *m);
void sl_l0_manifest_free(sl_l0_manifest *m);

/* Select the task whose func_id set equals want[] (lowest task_id unless
** task_id given) and reconstruct its positional args. 0 / -1 (reported). */
int sl_l0_reconstruct(const sl_l0_manifest *m, const int *want, int nwant, const char *task_id, sl_l0_task *t);
void sl_l0_task_free(sl_l0_task *t);
sl_l0_arg *sl_l0_task_arg(sl_l0_task *t, int slot);

/* Print a scalar's value the way the dump shows it (per dtype). */
void sl_l0_scalar_text(const sl_l0_arg *a, char *buf, size_t len);

/* --set-arg: parse "SLOT=VALUE" (0 / -1 with message in err). */
int sl_l0_parse_set_arg(const char *spec, int *slot, char *value, size_t vlen, char *err, size_t errlen);
/* Apply one --set-arg to the task; prints what it does. 0 / -1 (reported). */
int sl_l0_apply_set_arg(sl_l0_task *t, int slot, const char *value, const char *manifest_path);

/* --restore-arg: materialize payloads of the given slots. 0 / -1 (reported). */
int sl_l0_restore_args(const sl_l0_manifest *m, sl_l0_task *t, const int *slots, int nslots);

/* ---- step 4/5 ---------------------------------------------------------------------------- */

typedef struct sl_l0_plan {
  const sl_l0_workload *w;
  const char *case_name;
  const char *manifest; /* args_dump.json path */
  const char *platform; /* a2a3sim ... */
  const char *arch;     /* a2a3 / a5   */
  const sl_l0_task *task;
  const sl_l0_incore *members[L0_MAX_MIX]; /* in mix order */
  int nmembers;
  int spmd_block_num;
  int debug_line;
  double max_time;
  char *label;
  char *ws; /* workspace directory */
} sl_l0_plan;

/* Render the workspace files from lua/l0. 0 / -1 (reported). */
int sl_l0_render_workspace(const sl_l0_plan *p);
/* cmake configure + build + nm check. 0 / -1 (reported). */
int sl_l0_smoke_build(const sl_l0_plan *p);
/* run_collect.sh, both traces, self-check. 0 / -1 (reported). */
int sl_l0_collect(const sl_l0_plan *p);

/* ---- traces ------------------------------------------------------------------------------ */

/* Insight -> Perfetto (new document; NULL with err when insight is not a Chrome trace). */
cJSON *sl_l0_to_perfetto(const cJSON *insight, char *err, size_t errlen);
/* Count MMAD and FIX_L0C_TO_DST slices. */
void sl_l0_count_cube(const cJSON *trace, long *mmad, long *fix);
/* The vector work of a task: binary vector ops (VADD VSUB VMUL VDIV VMAX), GM -> UB
** loads and UB -> GM stores. */
typedef struct sl_l0_vec_counts {
  long vops, loads, stores;
} sl_l0_vec_counts;
/* Count them in a trace (X slices by name). */
void sl_l0_count_vector(const cJSON *trace, sl_l0_vec_counts *out);
/* Self-check of a replay's trace: the timeline's invariants (sl_l0_verify_timeline),
** MMAD / FIX_L0C_TO_DST slices against the counts derived from the task
** (sl_l0_expect_counts), vector ops / loads / stores against theirs
** (sl_l0_expect_vector), and against what the replay issued (otherData.issued: a
** cut export). Prints the result; 1 when a check fails (warning printed), 0 when
** all agree or do not apply. */
int sl_l0_self_check(const sl_l0_plan *p, const cJSON *trace);
/* Expected MMAD / FIX counts of the plan's task from its members' l0_expect, the
** tile shape and the args. 1 derived; 0 not (why says which member). */
int sl_l0_expect_counts(const sl_l0_plan *p, long *mmad, long *fix, char *why, size_t len);
/* Expected vector counts from its AIV members' l0_expect ("vbinary:S"), the UB
** staging and the args. 1 derived; 0 not (why says why). */
int sl_l0_expect_vector(const sl_l0_plan *p, sl_l0_vec_counts *want, char *why, size_t len);
/* Check a timed Insight trace against invariants every correct pipe model keeps
** (l0_verify.c lists them), using only the trace and its otherData.pipe_costs.
** Returns the number of violations (the first described in err), -1 when the
** trace cannot be checked (err says why); *checks = invariants evaluated. */
long sl_l0_verify_timeline(const cJSON *trace, char *err, size_t errlen, size_t *checks);

/* Write a cJSON document all-or-nothing, pretty-printed. 0 / -1 (reported). */
int sl_l0_write_json(const char *path, const cJSON *doc);
/* Read a whole file (NUL-terminated); NULL with the error reported. */
char *sl_l0_read_file(const char *path, size_t *len);

/* Run argv (argv[0] looked up in PATH); returns the exit status, 128+signal, or
** -1. When log_path is set, stdout+stderr are appended there. */
int sl_l0_spawn(char *const argv[], const char *log_path);

/* ---- step 2 ------------------------------------------------------------------------------ */

/* Run `swimlane run WORKLOAD --case C --dump-args 3` with this binary and return
** the path of the args_dump.json it created (never an older one); NULL on error. */
char *sl_l0_run_dump(const char *workload, const char *case_name, const char *platform);

#endif /* L0_INTERNAL_H */
