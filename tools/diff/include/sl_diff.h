/*
** sl_diff.h — `swimlane diff`: two (sets of) captures of one workload compared.
**
** Pieces, one file each:
**   diff_stats.c   means, spreads and Welch's t-test (the significance rule)
**   diff_run.c     one capture + its deps.json / name map, folded into logical tasks
**   diff_match.c   pairing the tasks of two runs (by id, or by DAG position)
**   diff_report.c  the numbers of the report (makespan, functions, phases, path)
**   diff_print.c   the report as text or JSON
**   diff_trace.c   the diff trace (both runs on one time axis) through a trace sink
**   diff_failif.c  --fail-if bounds
**   diff_cmd.c     the command line
*/
#ifndef SL_DIFF_H
#define SL_DIFF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sl_capture.h"
#include "sl_trace_sink.h"

/* ---- statistics ------------------------------------------------------------------ */

/* A delta of one metric between the base samples and the new samples (one sample per
** capture, or per task row when each side has a single capture). */
typedef struct sl_delta {
  double base, cur;     /* means */
  double delta, pct;    /* cur - base; 100 * delta / base (NAN when base == 0) */
  double spread;        /* standard error of delta (NAN: not enough samples) */
  double p;             /* two-sided Welch p-value (NAN: not computable) */
  int significant;      /* 1 beyond noise (p < SL_DIFF_ALPHA), 0 within, -1 unknown */
  size_t nb, nn;        /* sample counts */
} sl_delta;

#define SL_DIFF_ALPHA 0.05

double sl_diff_mean(const double *x, size_t n);
/* Sample standard deviation (n - 1); NAN when n < 2. */
double sl_diff_sd(const double *x, size_t n);
/* Two-sided p of Welch's unequal-variance t-test; NAN when either n < 2. */
double sl_diff_welch_p(double m1, double s1, size_t n1, double m2, double s2, size_t n2);
/* Regularized incomplete beta I_x(a, b) (exposed for the tests). */
double sl_diff_ibeta(double x, double a, double b);
sl_delta sl_diff_delta(const double *base, size_t nb, const double *cur, size_t nn);

/* ---- one run ----------------------------------------------------------------------- */

/* A logical task: every row of one (func_id, task id). A MIX task is one logical task
** per kernel (func) it runs; an SPMD task's blocks fold into one. */
typedef struct sl_diff_task {
  int64_t func_id;
  uint64_t task_id;
  uint32_t depth;             /* longest dependency chain above it (0: root / no deps) */
  uint32_t ordinal;           /* rank among tasks of the same (func_id, depth), by id */
  double start, end;          /* min start, max end of its rows */
  double exec;                /* end - start */
  size_t first_row;           /* its first row in cap->tasks */
} sl_diff_task;

typedef struct sl_diff_run {
  const char *path;
  sl_capture *cap;
  sl_deps *deps;              /* never NULL after loading; maps may be None */
  sl_namemap *names;          /* NULL without a name map */
  size_t n_tasks;
  sl_diff_task *tasks;        /* sorted by (func_id, task_id) */
  double t0, t1;              /* earliest dispatch .. latest finish (level 1: receive .. end) */
  double makespan;            /* t1 - t0 */
} sl_diff_run;

/* Read a capture and its siblings (deps.json, one name_map_*.json); refuse an empty
** one. 0 ok, -1 reported ("swimlane: <file>: <what>"). */
int sl_diff_run_load(sl_diff_run *r, const char *path);
void sl_diff_run_free(sl_diff_run *r);
/* Fold rows into logical tasks and compute depths (deps may have no edges). */
void sl_diff_run_index(sl_diff_run *r);
/* Function name: name map, else func_<letters>. buf >= 64. */
const char *sl_diff_func_name(const sl_diff_run *r, int64_t func_id, char *buf);
/* Refuse to compare unlike captures (platform, schema, workload): 0 ok, -1 reported. */
int sl_diff_runs_comparable(const sl_diff_run *base, const sl_diff_run *cur);

/* ---- matching ----------------------------------------------------------------------- */

typedef enum sl_match_rule {
  SL_MATCH_ID = 0,            /* (func_id, task id): the same submission in both runs */
  SL_MATCH_POSITION = 1,      /* (func_id, depth, ordinal): the graphs differ */
} sl_match_rule;

typedef struct sl_diff_match {
  sl_match_rule rule;
  size_t n_pairs;
  size_t (*pairs)[2];         /* [i][0] index in base->tasks, [i][1] in cur->tasks */
  size_t appeared, disappeared;
  size_t *base_to_cur;        /* [base n_tasks]: pair partner or SIZE_MAX */
  size_t *cur_to_base;        /* [new n_tasks]: the same the other way */
} sl_diff_match;

/* Same (func_id, task id) set and, when both have edges, the same edges? */
int sl_diff_same_graph(const sl_diff_task *b, size_t nb, const sl_deps *db,
                       const sl_diff_task *n, size_t nn, const sl_deps *dn);
/* Pair tasks under `rule` (both arrays sorted as sl_diff_run keeps them). */
void sl_diff_match_tasks(const sl_diff_task *b, size_t nb, const sl_diff_task *n, size_t nn,
                         sl_match_rule rule, sl_diff_match *m);
void sl_diff_match_free(sl_diff_match *m);

/* ---- the report ----------------------------------------------------------------------- */

enum sl_func_metric { SL_FM_CONTRIB, SL_FM_EXEC, SL_FM_LATENCY, SL_FM_HEAD, SL_FM_TAIL, SL_FM_COUNT };
extern const char *const sl_func_metric_names[SL_FM_COUNT]; /* "contribution", "exec", ... */

typedef struct sl_diff_func_row {
  int64_t func_id;
  char name[64];
  uint64_t count_base, count_cur;       /* task rows in the first capture of each side */
  sl_delta m[SL_FM_COUNT];              /* averages per row; contribution = Exec µs on the critical path */
} sl_diff_func_row;

typedef struct sl_diff_named_row {
  char name[64];
  sl_delta total;                       /* µs summed over the run */
  sl_delta count;
} sl_diff_named_row;

typedef struct sl_diff_path_step {
  char label[96];
  int64_t func_id;
  uint64_t task_id;
  int in_new;                           /* on the new run's path (else the base's) */
  double sched, exec;                   /* in its own run (sl_oh_cp_step) */
  int matched;                          /* a partner task in the other run */
  double d_start, d_exec;               /* new - base: start (from each run's t0), exec */
} sl_diff_path_step;

typedef struct sl_diff_path {
  size_t n;
  sl_diff_path_step *steps;             /* root first */
  double span;
} sl_diff_path;

typedef struct sl_diff_report {
  size_t n_base, n_cur;                 /* captures per side */
  int level;                            /* the lower of the two sides' levels */
  int has_deps;                         /* critical paths need edges on both sides */
  sl_diff_match match;                  /* first base vs first new */
  sl_delta makespan;
  sl_delta waits;                       /* critical path: scheduling waits before its tasks */
  sl_delta off_path;                    /* makespan not on the critical path (lead-in, tail) */
  size_t n_funcs;
  sl_diff_func_row *funcs;              /* sorted by contribution delta, largest first */
  int has_phases, has_orch;
  size_t n_phases;
  sl_diff_named_row *phases;            /* scheduler phases, by name (level >= 3) */
  sl_diff_named_row orch;               /* orchestrator submits (level 4) */
  sl_diff_path path_base, path_cur;
  size_t n_moved;
  sl_diff_path_step *moved;             /* critical-path tasks that moved most (both runs) */
} sl_diff_report;

#define SL_DIFF_MAX_RUNS 64 /* captures per side */

/* want_phases: the user asked for the scheduler sections (refused below level 3).
** 0 ok, -1 reported (too many captures, a level refusal, a critical path the
** overhead model refuses). */
int sl_diff_report_build(sl_diff_run *base, size_t nb, sl_diff_run *cur, size_t nn,
                         int want_phases, sl_diff_report *rep);
void sl_diff_report_free(sl_diff_report *rep);

void sl_diff_print_text(FILE *out, const sl_diff_report *rep, const sl_diff_run *base,
                        const sl_diff_run *cur);
void sl_diff_print_json(FILE *out, const sl_diff_report *rep, const sl_diff_run *base,
                        const sl_diff_run *cur);

/* ---- the diff trace ---------------------------------------------------------------- */

/* Both runs as sibling process groups "base / ..." and "new / ...", matched task
** slices linked by flows, a counter of (new - base) busy cores. */
void sl_diff_trace_emit(sl_trace_sink *sink, const sl_diff_run *base, const sl_diff_run *cur,
                        const sl_diff_match *m);

/* ---- --fail-if ------------------------------------------------------------------------- */

typedef struct sl_failif {
  char subject[64];         /* "makespan", a function name or id, or "*" (every function) */
  int metric;               /* enum sl_func_metric (ignored for makespan) */
  double limit;             /* bound on the delta */
  int percent;              /* limit is a percentage of the base */
  const char *text;         /* as given */
} sl_failif;

/* Parse "makespan>5%", "MATMUL>10us", "MATMUL.latency>3%", "*.exec>20%". 0 ok, -1 bad. */
int sl_failif_parse(const char *text, sl_failif *f);
/* Print every row exceeding a bound on err; returns how many did (unknown subject: -1). */
int sl_failif_check(const sl_failif *f, size_t n, const sl_diff_report *rep, FILE *err);

/* `swimlane diff ...` */
int sl_cmd_diff(int argc, char **argv);

#endif
