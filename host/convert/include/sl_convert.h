/*
** sl_convert.h — the conversion engine: a joined capture (tools/reader) plus
** deps.json and a name map, drawn by the Lua rules through a trace sink.
*/
#ifndef SL_CONVERT_H
#define SL_CONVERT_H

#include <stdint.h>

#include "sl_err.h"
#include <stdio.h>

#include "convert_rules.h"
#include "sl_capture.h"
#include "sl_trace_sink.h"

typedef struct sl_convert_opts {
  int verbose;     /* print the reference's -v lines on `out`             */
  int overhead;    /* emit the --overhead counter tracks                  */
  FILE *out;       /* stdout of the command (verbose lines, warnings)     */
  int reference_flows; /* flow events at the reference's ts / cat (no flow_place) */
} sl_convert_opts;

/* What the summary needs to know after emission. */
typedef struct sl_convert_result {
  uint64_t total_events;     /* every event written, before overhead counters */
  uint64_t flow_pairs;       /* flow ids used (all kinds)                     */
  uint64_t dep_pairs;        /* Worker View dependency + hb_violation pairs   */
  uint64_t hb_pairs;         /* Worker View hb_violation pairs                */
  uint64_t spmd_tasks;       /* logical tasks in the SPMD set                 */
  uint64_t overhead_points;  /* --overhead counter events                     */
  int core_map_inferred;     /* core -> thread came from voting               */
  size_t core_map_size;
  int overhead_skipped;      /* --overhead without deps                       */
  /* what the trace cannot show (a missing successor with -v, a dummy without its
  ** scheduler record), in the order found: the command prints them */
  sl_notes warnings;
} sl_convert_result;

/* Emit the whole trace into sink (not finished). 0 ok, -1 on a rules error
** (already reported). d and m may be NULL. Function ids must already be resolved
** (sl_capture_resolve_func_ids). */
int sl_convert_emit(const sl_capture *c, const sl_deps *d, const sl_namemap *m, sl_rules *r,
                    sl_trace_sink *sink, const sl_convert_opts *o, sl_convert_result *res);

/* Per-function sums over a capture's task rows: the numbers of the table below
** (head / tail / latency only at level >= 2, in n_head rows). */
typedef struct sl_func_stat {
  int64_t func_id;
  uint64_t count;                 /* task rows */
  double sum_exec, sum_latency, sum_head, sum_tail, sum_prop, sum_local;
  uint64_t n_head, n_prop, n_local;
} sl_func_stat;
/* Sorted by func_id (sl_mem_free it); *n = 0 and NULL when there are no rows. */
sl_func_stat *sl_convert_func_stats(const sl_capture *c, size_t *n);

/* The per-function statistics table and the lines after it (docs/convert.md, Output on stdout). */
void sl_convert_print_stats(FILE *out, const sl_capture *c, sl_rules *r, const sl_namemap *m);
/* The capture's task-timing slots (metadata.task_timing_slots, convert_slots.c): one
** "device_wall.task_slot_<N> = X us" line each, as `run` prints them; nothing without
** slots. The _json form adds them to the object root as "task_timing_slots". */
void sl_convert_print_task_slots(FILE *out, const sl_capture *c);
struct cJSON;
void sl_convert_task_slots_json(struct cJSON *root, const sl_capture *c);
/* The progress line on a terminal (convert_progress.c): NULL (and nothing drawn)
** unless enabled and stderr is a TTY. _writing switches it to the output's size. */
typedef struct sl_progress sl_progress;
sl_progress *sl_progress_start(const char *input, int enabled);
void sl_progress_writing(sl_progress *p, const char *tmp_path, const uint64_t *events);
void sl_progress_clear(sl_progress *p); /* erase it before printing a line of our own */
void sl_progress_stop(sl_progress *p); /* erases the line; NULL is fine */

/* --summary-json: the per-function table as JSON (numbers exact, null where the
** table prints "-"). 0 ok, -1 error (reported). */
int sl_convert_write_summary_json(const char *path, const sl_capture *c, sl_rules *r,
                                  const sl_namemap *m);
/* The same JSON as text (what the file gets, without its newline; sl_mem_free it). */
char *sl_convert_summary_json_text(const sl_capture *c, sl_rules *r, const sl_namemap *m);
/* One line "swimlane: <input>: capture complete|complete with drops|TRUNCATED: <pool> N of M,
** <pool> D dropped of M, ..." from the capture's metadata.capture (capture->health, JSON
** or .pb; convert_health.c); with quiet, only when something was lost or the health is
** unknown. */
void sl_convert_print_health(FILE *out, const char *input, const sl_capture *c, int quiet);
/* When the capture lost records or was truncated: one "records dropped" counter sample on
** process pid at ts 0, one series per pool (its dropped count) plus "truncated" (0/1). */
void sl_convert_emit_loss(sl_trace_sink *s, const sl_capture *c, int64_t pid);

/* `swimlane convert ...` */
int sl_cmd_convert(int argc, char **argv);

#endif
