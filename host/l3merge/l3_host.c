/*
** l3_host.c — the host block of the merged trace and its metadata.
**
** Host block (pids below the first rank's chip views, so it groups above them):
**   L3 Scheduler (pid P)   the dispatcher's node.* spans overlapping the ranks' span:
**                          node.run, node.submit_group / node.dispatch, one node.task
**                          lane per rank. Host CLOCK_MONOTONIC: drawn as is, no slack.
**   rankN / Host (pid P)   chip.run      the rank's call tree (chip.run > runner_run)
**                          clk=dev       the log's device phases (device_wall, its
**                                        init head and sched window), placed, slack_ns
**                          Placement Bound  the device block at its earliest position
**                                        and the slack it could slide through
*/
#include <math.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "l3.h"
#include "ts_shift.h"

/* The host block's views and lanes are schema data (lanes.lua l3_*). */
#define LANE(key) (&sl_lane_table[SL_LANE_##key])
#define TID_NODE_RUN LANE(L3_NODE_RUN)->tid_base
#define TID_NODE_DISPATCH LANE(L3_NODE_DISPATCH)->tid_base
#define TID_NODE_TASK LANE(L3_NODE_TASK)->tid_base
#define TID_CHIP_RUN LANE(L3_CHIP_RUN)->tid_base
#define TID_CLK_DEV LANE(L3_CLK_DEV)->tid_base
#define TID_PLACEMENT LANE(L3_PLACEMENT)->tid_base

/* A schema name pattern with {index} / {rank} (the same value here) and {pid} filled in. */
static void fill_name(char *out, size_t n, const char *pat, long long index, long long pid) {
  size_t k = 0;
  out[0] = 0;
  for (const char *p = pat; *p && k + 1 < n;) {
    const char *key = *p == '{' ? strchr(p, '}') : NULL;
    if (key && (!strncmp(p, "{index}", 7) || !strncmp(p, "{rank}", 6) || !strncmp(p, "{pid}", 5))) {
      int w = snprintf(out + k, n - k, "%lld", p[1] == 'p' ? pid : index);
      if (w > 0) k += (size_t)w;
      if (k >= n) return; /* truncated (snprintf wrote the terminator) */
      p = key + 1;
    } else {
      out[k++] = *p++;
      out[k] = 0;
    }
  }
}

static double us(const l3_run *run, int64_t host_ns) { return (double)(host_ns - run->origin_ns) / 1000.0; }
/* Whole ns on the axis: a viewer rounds ts and dur to ns apiece, so fractional edges would
** make a slice and the one that follows it on the lane overlap by 1 ns. */
static double axis_us(const l3_run *run, double axis_ns) { return (round(axis_ns) - (double)run->origin_ns) / 1000.0; }

/* A slice from t0 to t1 (µs on the axis), ending exactly at t1 (sl_ts_fit_dur). */
static void slice(sl_trace_sink *s, int64_t pid, int64_t tid, double t0, double t1, const char *name,
                  const char *cat, const sl_arg *args, size_t nargs) {
  sl_slice e = {.pid = pid, .tid = tid, .ts = t0, .dur = sl_ts_fit_dur(t0, t1), .name = name, .cat = cat,
                .args = args, .nargs = nargs};
  sl_sink_slice(s, &e);
}

static long long node_task_index(int64_t tid) {
  int stride = LANE(L3_NODE_TASK)->tid_stride;
  return (tid - TID_NODE_TASK) / (stride > 0 ? stride : 1);
}

static int64_t node_tid(const sl_hl_span *s) {
  int64_t r;
  if (!strncmp(s->name, "node.task", 9) && sl_hl_attr(s, "chip_rank", &r))
    return sl_lane_tid(LANE(L3_NODE_TASK), (int)r);
  return !strcmp(s->name, "node.run") ? TID_NODE_RUN : TID_NODE_DISPATCH;
}

static void emit_dispatcher(const l3_run *run, const sl_hostlog *h, int64_t pid, sl_trace_sink *s) {
  char name[160];
  fill_name(name, sizeof name, sl_view_table[SL_VIEW_L3_DISPATCHER].process_name, 0, h->pid);
  sl_sink_process_name(s, pid, name);
  sl_sink_process_sort(s, pid, pid);
  uint64_t named = 0; /* lanes named so far (bit per tid below 64) */
  for (size_t k = 0; k < h->n; k++) {
    const sl_hl_span *sp = &h->spans[k];
    if (sp->clk_dev || strncmp(sp->name, "node.", 5)) continue;
    if (sp->start_ns > run->span_end_ns || sp->start_ns + sp->dur_ns < run->origin_ns) continue;
    int64_t tid = node_tid(sp);
    if (tid < 64 && !(named & (1ull << tid))) {
      char lane[64];
      if (tid >= TID_NODE_TASK)
        fill_name(lane, sizeof lane, LANE(L3_NODE_TASK)->name, node_task_index(tid), 0);
      else
        snprintf(lane, sizeof lane, "%s", (tid == TID_NODE_RUN ? LANE(L3_NODE_RUN) : LANE(L3_NODE_DISPATCH))->name);
      sl_sink_thread_name(s, pid, tid, lane);
      named |= 1ull << tid;
    }
    sl_arg args[SL_HL_MAX_ATTRS];
    for (int a = 0; a < sp->nattrs; a++) args[a] = SL_ARG_I(sp->keys[a], sp->vals[a]);
    slice(s, pid, tid, us(run, sp->start_ns), us(run, sp->start_ns + sp->dur_ns), sp->name, "host", args,
          (size_t)sp->nattrs);
  }
}

/* A cross-host rank's block sits at its estimate, a host_build_graph rank's where its
** clock anchors put it: either known to within +-bound_ns. */
static void emit_bound(const l3_run *run, const l3_rank *r, int64_t pid, sl_trace_sink *s) {
  const char *block = r->xhost ? "device block (estimated)" : "device block (anchored)";
  sl_arg args[] = {SL_ARG_I("slack_ns", r->slack_ns), SL_ARG_I("uncertainty_ns", r->bound_ns),
                   SL_ARG_I("anchor_uncertainty_ns", r->anchor_bound_ns), SL_ARG_I("windows", r->windows)};
  double a = round(l3_dev_axis_ns(r, 0)), b = round(l3_dev_axis_ns(r, r->wall_dur_ns)), u = (double)r->bound_ns;
  slice(s, pid, TID_PLACEMENT, axis_us(run, a - u), axis_us(run, a), "uncertainty", "placement", args, 4);
  slice(s, pid, TID_PLACEMENT, axis_us(run, a), axis_us(run, b), block, "placement", args, 4);
  slice(s, pid, TID_PLACEMENT, axis_us(run, b), axis_us(run, b + u), "uncertainty", "placement", args, 4);
}

static void emit_rank_host(const l3_run *run, const l3_rank *r, int64_t pid, sl_trace_sink *s) {
  char name[160];
  fill_name(name, sizeof name, sl_view_table[SL_VIEW_L3_RANK_HOST].process_name, r->rank, r->log->pid);
  sl_sink_process_name(s, pid, name);
  sl_sink_process_sort(s, pid, pid);
  sl_sink_thread_name(s, pid, TID_CHIP_RUN, LANE(L3_CHIP_RUN)->name);
  sl_sink_thread_name(s, pid, TID_CLK_DEV, LANE(L3_CLK_DEV)->name);
  sl_sink_thread_name(s, pid, TID_PLACEMENT, LANE(L3_PLACEMENT)->name);
  sl_arg slack[] = {SL_ARG_I("slack_ns", r->slack_ns)};
  for (size_t k = 0; k < r->log->n; k++) {
    const sl_hl_span *sp = &r->log->spans[k];
    if (sp->inv != r->inv || strncmp(sp->name, "chip.run", 8)) continue;
    if (!sp->clk_dev) {
      sl_arg args[SL_HL_MAX_ATTRS];
      for (int a = 0; a < sp->nattrs; a++) args[a] = SL_ARG_I(sp->keys[a], sp->vals[a]);
      double a = l3_host_axis_ns(r, sp->start_ns), b = l3_host_axis_ns(r, sp->start_ns + sp->dur_ns);
      slice(s, pid, TID_CHIP_RUN, axis_us(run, a), axis_us(run, b), sp->name, "host", args, (size_t)sp->nattrs);
    } else { /* device ns from the window opening, placed */
      double a = l3_dev_axis_ns(r, sp->start_ns), b = l3_dev_axis_ns(r, sp->start_ns + sp->dur_ns);
      slice(s, pid, TID_CLK_DEV, axis_us(run, a), axis_us(run, b), sp->name + 9, "clk=dev", slack, 1);
    }
  }
  if (r->xhost || r->anchored) {
    emit_bound(run, r, pid, s);
    return;
  }
  sl_arg win[] = {SL_ARG_I("slack_ns", r->slack_ns), SL_ARG_I("runner_run_dur_ns", r->runner_dur_ns),
                  SL_ARG_I("device_wall_dur_ns", r->wall_dur_ns)};
  slice(s, pid, TID_PLACEMENT, us(run, r->runner_start_ns), us(run, r->runner_start_ns + r->wall_dur_ns),
        "device block (earliest)", "placement", win, 3);
  if (r->slack_ns > 0)
    slice(s, pid, TID_PLACEMENT, us(run, r->runner_start_ns + r->wall_dur_ns),
          us(run, r->runner_start_ns + r->runner_dur_ns), "slack", "placement", win, 3);
}

void l3_emit_host_block(l3_run *run, sl_trace_sink *sink) {
  const sl_view_info *disp = &sl_view_table[SL_VIEW_L3_DISPATCHER], *host = &sl_view_table[SL_VIEW_L3_RANK_HOST];
  int64_t pid = disp->pid;
  for (size_t i = 0; i < run->n_logs; i++)
    if (!strcmp(run->logs[i]->role, "l3_scheduler")) {
      emit_dispatcher(run, run->logs[i], pid, sink);
      pid += disp->pid_stride;
    }
  for (size_t i = 0; i < run->n; i++)
    emit_rank_host(run, &run->ranks[i], host->pid + (int64_t)i * host->pid_stride, sink);
}

static cJSON *rank_json(const l3_rank *r, double max_drift_ppm) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "rank", r->rank);
  cJSON_AddStringToObject(o, "capture", r->records);
  cJSON_AddNumberToObject(o, "pid_base", (double)((r->rank + 1) * SL_L3_RANK_PID_STRIDE));
  cJSON_AddStringToObject(o, "host_log", r->log->path);
  cJSON_AddNumberToObject(o, "host_pid", (double)r->log->pid);
  cJSON_AddNumberToObject(o, "invocation", r->inv);
  cJSON_AddNumberToObject(o, "slack_ns", (double)r->slack_ns);
  cJSON_AddNumberToObject(o, "runner_run_dur_ns", (double)r->runner_dur_ns);
  cJSON_AddNumberToObject(o, "device_wall_dur_ns", (double)r->wall_dur_ns);
  cJSON_AddNumberToObject(o, "placed_at_ns", l3_dev_axis_ns(r, 0) - (double)r->origin_ns);
  cJSON *pl = cJSON_AddObjectToObject(o, "placement");
  cJSON_AddStringToObject(pl, "method", r->xhost      ? "cross_host_dispatch_windows_and_clock_anchors"
                                        : r->anchored ? "host_build_graph_clock_anchors"
                                                      : "containment");
  cJSON_AddNumberToObject(pl, "uncertainty_ns", (double)(r->xhost || r->anchored ? r->bound_ns : r->slack_ns));
  cJSON_AddNumberToObject(pl, "device_open_cycles", (double)r->dev_open_cycles);
  if (r->anchored) cJSON_AddNumberToObject(pl, "anchor_uncertainty_ns", (double)r->anchor_bound_ns);
  if (r->xhost) {
    cJSON_AddNumberToObject(pl, "host_offset_ns", r->hb1);
    cJSON *dr = cJSON_AddArrayToObject(pl, "drift_ppm_interval");
    cJSON_AddItemToArray(dr, cJSON_CreateNumber(r->drift_ppm_lo));
    cJSON_AddItemToArray(dr, cJSON_CreateNumber(r->drift_ppm_hi));
    cJSON_AddNumberToObject(pl, "anchor_uncertainty_ns", (double)r->anchor_bound_ns);
    cJSON_AddNumberToObject(pl, "dispatch_windows", r->windows);
    cJSON_AddNumberToObject(pl, "assumed_max_drift_ppm", max_drift_ppm);
  }
  cJSON *join = cJSON_AddObjectToObject(o, "join");
  if (r->has_residual) cJSON_AddNumberToObject(join, "residual_ns", (double)r->residual_ns);
  else cJSON_AddNullToObject(join, "residual_ns");
  if (r->id.present) {
    cJSON *id = cJSON_AddObjectToObject(o, "dispatch_identity");
    cJSON_AddNumberToObject(id, "run_id", (double)r->id.run_id);
    cJSON_AddNumberToObject(id, "task_slot", (double)r->id.task_slot);
    cJSON_AddNumberToObject(id, "group_index", (double)r->id.group_index);
    cJSON_AddNumberToObject(id, "group_size", (double)r->id.group_size);
  }
  if (r->engine_meta) {
    cJSON *m = cJSON_Parse(r->engine_meta);
    if (m) cJSON_AddItemToObject(o, "timeline_metadata", m);
  }
  return o;
}

char *l3_metadata_json(const l3_run *run) {
  cJSON *m = cJSON_CreateObject();
  cJSON_AddStringToObject(m, "layout", "l3_containment");
  cJSON_AddStringToObject(m, "dispatch", run->dispatch_label);
  cJSON_AddStringToObject(m, "host_clock_domain_id", run->ranks[0].domain);
  cJSON_AddNumberToObject(m, "origin_host_ns", (double)run->origin_ns);
  cJSON *pids = cJSON_AddArrayToObject(m, "dispatcher_pids");
  for (size_t i = 0; i < run->n_logs; i++)
    if (!strcmp(run->logs[i]->role, "l3_scheduler")) cJSON_AddItemToArray(pids, cJSON_CreateNumber((double)run->logs[i]->pid));
  int64_t sum = 0;
  cJSON *ranks = cJSON_AddArrayToObject(m, "ranks");
  for (size_t i = 0; i < run->n; i++) {
    sum += run->ranks[i].slack_ns;
    cJSON_AddItemToArray(ranks, rank_json(&run->ranks[i], run->o.max_drift_ppm));
  }
  cJSON_AddNumberToObject(m, "cross_rank_uncertainty_ns", (double)sum);
  char *s = cJSON_Print(m);
  cJSON_Delete(m);
  return s;
}
