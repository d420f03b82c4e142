/*
** l3.h — the pieces of the L3 merge (tools/l3): layout discovery and refusals
** (l3_layout.c), capture-side metadata (l3_meta.c), host-log binding and
** placement (l3_place.c), the namespacing sink (l3_sink.c), the host block and
** trace metadata (l3_host.c), and the per-rank pipeline (l3_ranks.c).
*/
#ifndef L3_H
#define L3_H

#include <stddef.h>
#include <stdint.h>

#include "sl_capture.h"
#include "sl_hostlog.h"
#include "sl_lanes.h"
#include "sl_trace_sink.h"

#define L3_MAX_RANKS 256

/* Pid layout of the merged trace (schema/lanes.lua, generated sl_lanes.h). Perfetto orders
** process groups by pid, so the pid assignment is the layout: the host block (the views
** l3_dispatcher, then l3_rank_host per rank) below SL_L3_RANK_PID_STRIDE, then each rank's
** chip views at (rank + 1) * SL_L3_RANK_PID_STRIDE + their pid. */

typedef struct l3_identity {
  int present;
  int64_t run_id, task_slot, group_index, group_size, chip_rank, local_capture_index, dispatch_id;
  int64_t endpoint_pid;         /* the worker that wrote it (0 = not given): its host.<pid>.log */
} l3_identity;

typedef struct l3_rank {
  int rank;                     /* N of rankN */
  char *dir;                    /* <root>/rankN/dK */
  char *records;                /* <dir>/chip_swimlane_records.json (or .pb: sl_l3_records_path) */
  char *identity_path;          /* <dir>/dispatch_identity.json (may not exist) */
  int dnum;                     /* K */
  l3_identity id;
  /* from the capture's metadata head */
  char domain[160];
  uint64_t freq_hz;
  int has_sched_window;
  uint64_t sched_start_cycles;
  int has_anchors;
  int64_t anchor_host_ns[2];    /* pre / post: host mid ns */
  uint64_t anchor_cycles[2];
  int64_t anchor_unc_ns[2];
  int64_t anchor_rtt_ns[2];
  int host_mode;                /* a host_build_graph capture (orchestrator_source "host") */
  /* the host-log invocation it belongs to */
  const sl_hostlog *log;
  int inv;
  int64_t run_start_ns, run_dur_ns;       /* chip.run (host) */
  int64_t runner_start_ns, runner_dur_ns; /* chip.run.runner_run (host) */
  int64_t wall_dur_ns, sched_rel_ns;      /* chip.run.device_wall / .sched start (dev ns) */
  /* placement (l3_place) */
  int64_t slack_ns;
  int has_residual;
  int64_t residual_ns;
  double shift_us;              /* added to the engine's ts (µs from base_cycles) ... */
  double scale;                 /* ... after scaling it by this (1 unless cross-host) */
  /* cross-host placement (l3_xhost): the rank's host clock is not the dispatcher's */
  int xhost;
  uint64_t dev_open_cycles;     /* the device window's opening */
  double map_y0_ns, map_rate;   /* device cycles c -> axis ns y0 + (c - open) * rate */
  double hb1, hx1, hslope;      /* rank host ns x -> axis ns x + hb1 + (x - hx1) * hslope */
  double xopen_ns;              /* the device window's opening, rank host ns (anchored) */
  int64_t bound_ns, anchor_bound_ns;
  double drift_ppm_lo, drift_ppm_hi; /* what the windows allow */
  int windows;
  int anchored;                 /* host_build_graph on the dispatcher's host: placed through
                                ** the capture's clock anchors (l3_anchor.c), map_* as above */
  int64_t origin_ns;            /* the trace's host-ns zero */
  /* loaded by l3_ranks */
  sl_capture *cap;
  sl_deps *deps;
  sl_namemap *names;
  sl_notes notes;               /* what reading it found (the reader's error or warnings, deps.json's
                                ** and the name map's warnings), moved to l3_run.notes in rank order */
  char *engine_meta;            /* the engine's metadata object, if it wrote one */
} l3_rank;

typedef struct l3_opts {
  const char *root, *output, *dispatch, *dispatch_id, *host_log, *rules, *format;
  const char *records;          /* "json" / "pb": which rank capture; NULL = JSON, else .pb */
  int quiet;                    /* -q: only errors */
  const char *rank_pid[L3_MAX_RANKS];
  int n_rank_pid;
  int jobs;                     /* ranks read concurrently */
  int cross_host;               /* merge ranks of other host clock domains (l3_xhost) */
  double max_drift_ppm;         /* assumed bound on host clock drift (cross-host) */
  int verbose;
} l3_opts;

typedef struct l3_run {
  l3_opts o;
  size_t n;                     /* ranks */
  l3_rank ranks[L3_MAX_RANKS];
  char dispatch_label[64];      /* "d0" / "17:5" */
  size_t n_logs;
  sl_hostlog **logs;
  int64_t origin_ns, span_end_ns;
  sl_notes notes;               /* l3_emit_ranks: the ranks' read and draw warnings, and the error
                                ** that stopped the merge, in rank order; the command prints them */
} l3_run;

/* l3_layout.c: find rankN/dK, pick the dispatch, read identities, refuse what
** cannot be merged. 0 ok, -1 reported. */
int l3_layout(l3_run *run);
void l3_run_free(l3_run *run);
/* l3_meta.c */
int l3_read_identity(const char *path, l3_identity *id);
int l3_read_capture_meta(l3_rank *r);
/* l3_place.c: load the host logs, bind each rank to its chip.run invocation, place it. */
int l3_bind(l3_run *run);
int l3_place(l3_run *run);
/* After the capture is read: the containment check and the join residual. */
int l3_place_capture(l3_run *run, l3_rank *r);
/* l3_xhost.c: place a rank whose host clock differs from the dispatcher's, from
** the dispatching level's windows and the rank's clock anchors. */
int l3_xhost_place(l3_run *run, l3_rank *r);
/* A rank's host-log ns, and a device-ns offset into its device window, on the axis. */
double l3_host_axis_ns(const l3_rank *r, int64_t host_ns);
/* Device cycles -> the rank's host ns through its two clock anchors (interpolated). */
double l3_anchor_host_ns(const l3_rank *r, double cycles);
/* l3_anchor.c: a host_build_graph rank on the dispatcher's host: its host records are
** on the host logs' clock already, its device records go through its clock anchors. */
int l3_anchor_place(l3_run *run, l3_rank *r);
int l3_anchor_place_capture(l3_run *run, l3_rank *r, double end_us);
double l3_dev_axis_ns(const l3_rank *r, int64_t rel_dev_ns);

/* l3_sink.c: a sink forwarding to inner with rank r's namespaces and placement. */
sl_trace_sink *l3_sink_new(sl_trace_sink *inner, const l3_rank *r);
char *l3_sink_take_meta(sl_trace_sink *s);
/* l3_host.c */
void l3_emit_host_block(l3_run *run, sl_trace_sink *sink);
char *l3_metadata_json(const l3_run *run);
/* l3_ranks.c: read ranks in parallel (at most o.jobs at once), emit in rank order; what
** reading and drawing found (the readers' errors and warnings) goes on run->notes, printed by
** the command. 0 ok, -1 failed (the reason on run->notes or already printed). */
int l3_emit_ranks(l3_run *run, sl_trace_sink *sink);

#endif
