/*
** l3_place.c — which host-log invocation each rank's capture belongs to, and
** where its device records go on the host axis.
**
** Placement is by containment: the rank's device window (chip.run.device_wall,
** device ns) lies somewhere inside its chip.run.runner_run window (host ns). The
** block is drawn at the earliest host ns the window allows; the spare width
** runner_run.dur - device_wall.dur is how far it could slide (slack_ns).
*/
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "l3.h"
#include "sl_base.h"
#include "sl_mem.h"
#include "sl_vec.h"
#include "ts_shift.h"

/* After a host log failed to load: whose it is, when a rank's identity names its pid. */
static void name_log_owner(const l3_run *run, const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  long pid = strncmp(base, "host.", 5) ? 0 : strtol(base + 5, NULL, 10); /* host.<pid>.log */
  if (pid <= 0) return;
  for (size_t i = 0; i < run->n; i++)
    if (run->ranks[i].id.present && run->ranks[i].id.endpoint_pid == pid)
      sl_error(path, "rank %d's host log (endpoint_pid %ld of %s): the merge places the rank from it",
               run->ranks[i].rank, pid, run->ranks[i].identity_path);
}

static int load_logs(l3_run *run) {
  const char *where = run->o.host_log ? run->o.host_log : run->o.root;
  struct stat st;
  if (stat(where, &st) != 0) return sl_error(where, "host log: %s", strerror(errno)), -1;
  if (S_ISREG(st.st_mode)) { /* one file named explicitly */
    run->logs = sl_mem_calloc(1, sizeof *run->logs);
    if (!(run->logs[0] = sl_hostlog_load(where))) return name_log_owner(run, where), -1;
    run->n_logs = 1;
    return 0;
  }
  DIR *d = opendir(where);
  if (!d) return sl_error(where, "cannot read the directory: %s", strerror(errno)), -1;
  struct dirent *e;
  size_t cap = 0;
  int rc = 0;
  while (rc == 0 && (e = readdir(d)) != NULL) {
    size_t len = strlen(e->d_name);
    if (strncmp(e->d_name, "host.", 5) || len < 10 || strcmp(e->d_name + len - 4, ".log")) continue;
    run->logs = sl_array_grow(run->logs, &cap, run->n_logs + 1, sizeof *run->logs);
    char *path = sl_path_join(where, e->d_name);
    sl_hostlog *h = sl_hostlog_load(path);
    if (!h) name_log_owner(run, path);
    sl_mem_free(path);
    if (!h) rc = -1;
    else run->logs[run->n_logs++] = h;
  }
  closedir(d);
  if (rc == 0 && !run->n_logs) {
    sl_error(where, "no host.<pid>.log beside the ranks: the merge places each rank inside its "
                    "chip.run.runner_run window from the run's host logs (--host-log DIR names another place)");
    rc = -1;
  }
  return rc;
}

/* An L4 above the L3 scheduler: refused until the layout carries a node namespace. */
static int refuse_network(const l3_run *run) {
  for (size_t i = 0; i < run->n_logs; i++)
    for (size_t k = 0; k < run->logs[i]->n; k++)
      if (!strncmp(run->logs[i]->spans[k].name, "network1.", 9)) {
        sl_error(run->logs[i]->path, "network1.* spans: a NETWORK1/L4 run; merging is limited to one "
                                     "same-host L3 worker until the layout carries a node namespace");
        return -1;
      }
  return 0;
}

/* --rank-pid RANK=PID[:INV] for this rank: 1 pinned (pid, inv -1 = any), 0 not, -1 bad. */
static int pinned(const l3_run *run, int rank, long *pid, int *inv) {
  for (int i = 0; i < run->o.n_rank_pid; i++) {
    int rk, iv = -1, n = 0;
    long p;
    const char *s = run->o.rank_pid[i];
    if (sscanf(s, "%d=%ld%n", &rk, &p, &n) < 2 || (s[n] && sscanf(s + n, ":%d", &iv) != 1)) {
      sl_error(NULL, "convert: --rank-pid expects RANK=PID[:INV] (got '%s')", s);
      return -1;
    }
    if (rk == rank) {
      *pid = p;
      *inv = iv;
      return 1;
    }
  }
  return 0;
}

static int attr_is(const sl_hl_span *s, const char *k, int64_t want) {
  int64_t v;
  return !sl_hl_attr(s, k, &v) || v == want;
}

/* Does chip.run span s (log h) name rank r's dispatch? */
static int names_dispatch(const l3_rank *r, const sl_hl_span *s) {
  const l3_identity *id = &r->id;
  int64_t want = id->present ? id->dispatch_id : r->dnum + 1;
  if (!attr_is(s, "dispatch_id", want) || !attr_is(s, "chip_rank", r->rank)) return 0;
  return !id->present ||
         (attr_is(s, "run_id", id->run_id) && attr_is(s, "task_slot", id->task_slot) &&
          attr_is(s, "group_index", id->group_index));
}

static int read_window(l3_rank *r) {
  const sl_hl_span *run = sl_hostlog_find(r->log, r->inv, "chip.run");
  const sl_hl_span *rr = sl_hostlog_find(r->log, r->inv, "chip.run.runner_run");
  const sl_hl_span *wall = sl_hostlog_find(r->log, r->inv, "chip.run.device_wall");
  const sl_hl_span *sched = sl_hostlog_find(r->log, r->inv, "chip.run.device_wall.sched");
  if (!rr || !wall || !sched || rr->clk_dev || !wall->clk_dev) {
    sl_error(r->log->path, "rank %d: invocation %d lacks chip.run.runner_run / chip.run.device_wall(.sched)",
             r->rank, r->inv);
    return -1;
  }
  r->run_start_ns = run->start_ns;
  r->run_dur_ns = run->dur_ns;
  r->runner_start_ns = rr->start_ns;
  r->runner_dur_ns = rr->dur_ns;
  r->wall_dur_ns = wall->dur_ns;
  r->sched_rel_ns = sched->start_ns;
  r->slack_ns = rr->dur_ns - wall->dur_ns;
  if (r->slack_ns < 0) {
    sl_error(r->log->path, "rank %d: the runner_run window of invocation %d (%lld ns) cannot contain its "
                           "device wall (%lld ns)", r->rank, r->inv, (long long)rr->dur_ns,
             (long long)wall->dur_ns);
    return -1;
  }
  return 0;
}

static int bind_rank(l3_run *run, l3_rank *r) {
  long pid = 0;
  int inv = -1, pin = pinned(run, r->rank, &pid, &inv), hits = 0;
  if (pin < 0) return -2;
  for (size_t i = 0; i < run->n_logs; i++) {
    const sl_hostlog *h = run->logs[i];
    if (pin && h->pid != pid) continue;
    for (size_t k = 0; k < h->n; k++) {
      const sl_hl_span *s = &h->spans[k];
      if (strcmp(s->name, "chip.run") || s->clk_dev) continue;
      if (pin && inv >= 0 ? s->inv != inv : !names_dispatch(r, s)) continue;
      if (hits++ == 0) r->log = h, r->inv = s->inv;
    }
  }
  if (hits != 1) {
    int have_log = !r->id.endpoint_pid;
    for (size_t i = 0; i < run->n_logs && !have_log; i++) have_log = run->logs[i]->pid == r->id.endpoint_pid;
    if (!hits && !have_log) /* the worker's own log is not there */
      sl_error(r->identity_path, "rank %d: no chip.run invocation in the host logs names this dispatch: its "
                                 "worker's host.%lld.log (endpoint_pid) is missing from %s", r->rank,
               (long long)r->id.endpoint_pid, run->o.host_log ? run->o.host_log : run->o.root);
    else
      sl_error(r->identity_path, "rank %d: %s chip.run invocation in the host logs names this dispatch%s", r->rank,
               hits ? "more than one" : "no", hits ? " (pin it with --rank-pid RANK=PID[:INV])" : "");
    return -1;
  }
  for (size_t j = 0; j < run->n; j++)
    if (&run->ranks[j] != r && run->ranks[j].log == r->log && run->ranks[j].inv == r->inv) {
      sl_error(r->log->path, "ranks %d and %d both bind to pid %ld invocation %d", run->ranks[j].rank, r->rank,
               r->log->pid, r->inv);
      return -1;
    }
  return read_window(r);
}

int l3_bind(l3_run *run) {
  if (load_logs(run) || refuse_network(run)) return -1;
  for (size_t i = 0; i < run->n; i++) {
    int rc = bind_rank(run, &run->ranks[i]);
    if (rc) return rc;
  }
  return 0;
}

/* Ranks on another host clock than the dispatcher's (with --cross-host). */
static int place_cross_host(l3_run *run) {
  const char *ref = NULL;
  for (size_t i = 0; i < run->n_logs && !ref; i++)
    if (!strcmp(run->logs[i]->role, "l3_scheduler")) ref = run->logs[i]->domain;
  if (!ref) ref = run->ranks[0].domain;
  for (size_t i = 0; i < run->n; i++) {
    l3_rank *r = &run->ranks[i];
    if (!strcmp(r->domain, ref)) continue;
    /* a host_build_graph rank too: its host timeline is on its own host's clock, which
    ** the same offset estimate maps (l3_anchor_place_capture) */
    if (l3_xhost_place(run, r)) return -1;
  }
  return 0;
}

int l3_place(l3_run *run) {
  if (run->o.cross_host && place_cross_host(run)) return -1;
  for (size_t i = 0; i < run->n; i++)
    if (run->ranks[i].host_mode && !run->ranks[i].xhost && l3_anchor_place(run, &run->ranks[i])) return -1;
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (size_t i = 0; i < run->n; i++) {
    const l3_rank *r = &run->ranks[i];
    int64_t a = (int64_t)l3_host_axis_ns(r, r->run_start_ns), b = (int64_t)l3_host_axis_ns(r, r->run_start_ns + r->run_dur_ns);
    if (a < lo) lo = a;
    if (b > hi) hi = b;
  }
  run->span_end_ns = hi;
  run->origin_ns = lo;
  /* the dispatchers' spans drawn (those overlapping the ranks' span) may start earlier */
  for (size_t i = 0; i < run->n_logs; i++)
    for (size_t k = 0; k < run->logs[i]->n; k++) {
      const sl_hl_span *s = &run->logs[i]->spans[k];
      if (!s->clk_dev && !strncmp(s->name, "node.", 5) && s->start_ns <= hi && s->start_ns + s->dur_ns >= run->origin_ns &&
          s->start_ns < lo)
        lo = s->start_ns;
    }
  /* the axis starts SL_CONVERT_ORIGIN_US before the first span, as a single capture's
  ** does: DevTools reads ts 0 as "no timestamp" and hides a slice there */
  run->origin_ns = lo - (int64_t)(SL_CONVERT_ORIGIN_US * 1000.0);
  for (size_t i = 0; i < run->n; i++) run->ranks[i].origin_ns = run->origin_ns;
  return 0;
}

static int64_t cyc_to_ns(int64_t cyc, uint64_t freq) { return (int64_t)((__int128)cyc * 1000000000 / (__int128)freq); }

/* The latest device timestamp of the capture, in µs from base_cycles. */
static double capture_end_us(const sl_capture *c) {
  double hi = 0;
  for (size_t i = 0; i < c->n_tasks; i++) {
    if (c->tasks[i].end_us > hi) hi = c->tasks[i].end_us;
    if (c->tasks[i].finish_us > hi) hi = c->tasks[i].finish_us;
  }
  for (size_t i = 0; i < c->n_phases; i++)
    if (c->phases[i].end_us > hi) hi = c->phases[i].end_us;
  for (size_t i = 0; i < c->n_orch; i++)
    if (c->orch[i].end_us > hi) hi = c->orch[i].end_us;
  return hi;
}

int l3_place_capture(l3_run *run, l3_rank *r) {
  const sl_capture *c = r->cap;
  if (c->host_mode || r->anchored) return l3_anchor_place_capture(run, r, capture_end_us(c));
  int64_t sched_rel_cyc = (int64_t)((__int128)r->sched_rel_ns * (__int128)c->clock_freq_hz / 1000000000);
  /* the device window's opening in device cycles: the sched window is in both the
  ** host log (relative ns) and the capture (absolute cycles) */
  uint64_t sched0 = r->has_sched_window ? r->sched_start_cycles : c->base_cycles;
  int64_t open = (int64_t)sched0 - sched_rel_cyc;
  if (!r->xhost) r->dev_open_cycles = (uint64_t)open;
  r->has_residual = r->has_sched_window;
  r->residual_ns = r->has_sched_window ? cyc_to_ns((int64_t)c->base_cycles - (int64_t)sched0, c->clock_freq_hz) : 0;
  int64_t first_ns = cyc_to_ns((int64_t)c->base_cycles - open, c->clock_freq_hz);
  int64_t last_ns = first_ns + (int64_t)(capture_end_us(c) * 1000.0);
  if (c->base_cycles && (first_ns < 0 || last_ns > r->wall_dur_ns)) {
    sl_error(r->records, "rank %d: its device span (%lld..%lld ns into the device window) does not fit the "
                         "%lld ns chip.run.device_wall of %s invocation %d", r->rank, (long long)first_ns,
             (long long)last_ns, (long long)r->wall_dur_ns, r->log->path, r->inv);
    return -1;
  }
  r->scale = 1.0;
  /* the engine's ts start at SL_CONVERT_ORIGIN_US, not 0 (ts_shift.h) */
  r->shift_us = (double)(r->runner_start_ns - r->origin_ns) / 1000.0 + (double)first_ns / 1000.0 - SL_CONVERT_ORIGIN_US;
  if (r->xhost) { /* through the anchors and the offset estimate, rate included */
    r->scale = r->map_rate * (double)c->clock_freq_hz / 1e9;
    double base_axis = r->map_y0_ns + ((double)c->base_cycles - (double)r->dev_open_cycles) * r->map_rate;
    r->shift_us = (base_axis - (double)r->origin_ns) / 1000.0 - SL_CONVERT_ORIGIN_US * r->scale;
  }
  return 0;
}
