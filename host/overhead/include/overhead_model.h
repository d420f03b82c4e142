/*
** overhead_model.h — the scheduler-overhead model (docs/sched-overhead.md,
** as the reference's sched_overhead_analysis): computations separated from the
** report so tests can check the numbers directly.
*/
#ifndef SL_OVERHEAD_MODEL_H
#define SL_OVERHEAD_MODEL_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "sl_capture.h"
#include "sl_err.h"
#include "sl_phases.h"

#define SL_OH_MAX_TYPES 16

/* Part 1: overhead integrated over the makespan. */
typedef struct sl_oh_overhead {
  size_t n_types;
  sl_str types[SL_OH_MAX_TYPES];       /* sorted by name */
  size_t cores[SL_OH_MAX_TYPES];       /* k_T: distinct cores of the type */
  double overhead_us[SL_OH_MAX_TYPES];
  double all_overhead_us, has_overhead_us;
  double w0, w1;
  /* step function of the undispatched-ready count per type: at times[i] the
  ** count becomes cum[type][i] (times ascending, distinct) */
  size_t n_steps;
  double *times;
  int32_t *cum[SL_OH_MAX_TYPES];
} sl_oh_overhead;

/* Part 2: aicore switch. */
typedef struct sl_oh_switch {
  size_t n_cores[SL_OH_MAX_TYPES];
  double core_min[SL_OH_MAX_TYPES], core_max[SL_OH_MAX_TYPES], core_sum[SL_OH_MAX_TYPES];
  size_t n_events[SL_OH_MAX_TYPES];
  double event_sum[SL_OH_MAX_TYPES];
  double split_overhead[SL_OH_MAX_TYPES], split_independent[SL_OH_MAX_TYPES];
  double lower, upper;
} sl_oh_switch;

/* Part 5: one scheduler thread. */
typedef struct sl_oh_thread {
  size_t index;
  int64_t loops, logical_tasks, finishes;
  int64_t pop_hit, pop_miss;
  double complete_us, async_poll_us, dispatch_us, idle_us, total_us;
  /* the other outer phases of the budget (release, dummy, early_dispatch, drain,
  ** graph_prepare, standalone resolve ...), by schema phase id */
  double other_us[SL_PHASE_ID_LIMIT];
  int64_t fanout_edges, fanout_max, fanin_edges, fanin_max;
} sl_oh_thread;

/* Part 6. */
typedef struct sl_oh_cp_step {
  uint64_t task_id;
  double sched;   /* clamped wait before it: start - gating predecessor's end (root: start - dispatch) */
  double exec;    /* clamped end - start of the task (all its rows) */
} sl_oh_cp_step;

typedef struct sl_oh_critical {
  int found;
  size_t hops;
  double span, sched, exec;
  size_t n_steps;          /* hops + 1: the path, from the last-finishing task back to its root */
  sl_oh_cp_step *steps;
} sl_oh_critical;

typedef struct sl_oh_report {
  sl_oh_overhead oh;
  sl_oh_switch sw;
  size_t n_tasks;
  double *heads, *tails;   /* per task row, in the reference's per-core order */
  size_t n_threads;
  sl_oh_thread *threads;   /* only threads with work records */
  int64_t other_records[SL_PHASE_ID_LIMIT]; /* budget records per other phase id */
  sl_oh_critical cp;
} sl_oh_report;

/* Compute every part. SL_OK, or SL_FAIL with the reason on err (the caller prints it). */
SL_MUST_CHECK sl_status sl_oh_compute(const sl_capture *c, const sl_deps *d, sl_oh_report *r, sl_err *err);
void sl_oh_report_free(sl_oh_report *r);

/* Write the report text (Parts 1-6) to f. Returns 1 if Part 5 had no
** scheduler threads (the caller reports the error after Parts 1-4). */
int sl_oh_print(FILE *f, const sl_capture *c, const sl_oh_report *r);

/* --summary-json: the report's numbers as JSON, all or nothing (overhead_json.c).
** SL_OK, or SL_FAIL with the reason on err. */
SL_MUST_CHECK sl_status sl_oh_write_json(const char *path, const sl_capture *c, const sl_oh_report *r, sl_err *err);

#endif
