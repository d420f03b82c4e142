/*
** l3_xhost.c — cross-host placement: a rank whose host clock is another
** machine's (different host_clock_domain_id) is put on the dispatcher's host axis.
**
** Two links, each with a published error:
**   device counter -> rank host ns   the capture's clock anchors (pre/post samples,
**                                    interpolated); error <= the larger sample's
**                                    uncertainty (rtt/2)
**   rank host ns -> dispatcher ns    the dispatching level's windows: every task the
**                                    dispatcher sent (node.task [sent, done], its
**                                    clock) contains the rank's chip.run [s, e] (the
**                                    rank's clock). With the offset b(x) = dispatcher
**                                    - rank clock, causality gives b(s) >= sent - s
**                                    and b(e) <= done - e; a drift |db/dx| <= A
**                                    (--max-drift-ppm) spreads each to all x:
**                                      L(x) = max_k sent_k - s_k - A|x - s_k|
**                                      U(x) = min_k done_k - e_k + A|x - e_k|
**                                    b is estimated as (L + U) / 2, error <= (U - L) / 2.
** The published bound adds up what can separate a drawn device time from the true
** one (tests/l3/test_xhost.c checks it against simulated true clocks, adversarial
** delays included, and that it is reached):
**   the anchors' error u_a (the larger selected sample's rtt/2), and the change of
**     the offset over it, at most A * u_a (b is evaluated at the anchored x, not
**     the true one)
**   the windows' half width (U - L) / 2, the larger at the two ends of the rank's
**     chip.run (b is linear between them, as the estimate is, and chip.run holds
**     every time drawn of the rank: its host tree, the device window, a
**     host_build_graph capture's host records)
**   one device cycle (a reading names a cycle-wide interval: a record read late in
**     its cycle is drawn where the cycle began)
**   1 ns (the axis is drawn on whole ns)
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "l3.h"
#include "sl_base.h"

typedef struct xwin {
  double s, e, sent, done;
} xwin;

static const sl_hostlog *dispatcher_log(const l3_run *run) {
  for (size_t i = 0; i < run->n_logs; i++)
    if (!strcmp(run->logs[i]->role, "l3_scheduler")) return run->logs[i];
  return NULL;
}

/* Pair each chip.run of the rank's log with the node.task that dispatched it. */
static int collect_windows(const sl_hostlog *d, const l3_rank *r, xwin *w, int max) {
  int n = 0;
  for (size_t i = 0; i < r->log->n && n < max; i++) {
    const sl_hl_span *c = &r->log->spans[i];
    int64_t slot, rank;
    if (strcmp(c->name, "chip.run") || !sl_hl_attr(c, "task_slot", &slot)) continue;
    if (!sl_hl_attr(c, "chip_rank", &rank)) rank = r->rank;
    for (size_t k = 0; k < d->n; k++) {
      const sl_hl_span *t = &d->spans[k];
      int64_t ts, tr;
      if (strcmp(t->name, "node.task") || !sl_hl_attr(t, "task_slot", &ts) || !sl_hl_attr(t, "chip_rank", &tr) ||
          ts != slot || tr != rank)
        continue;
      w[n++] = (xwin){(double)c->start_ns, (double)(c->start_ns + c->dur_ns), (double)t->start_ns,
                      (double)(t->start_ns + t->dur_ns)};
      break;
    }
  }
  return n;
}

/* [L(x), U(x)]: where the offset at rank-host time x can be. */
static void offset_interval(const xwin *w, int n, double a, double x, double *lo, double *hi) {
  *lo = -INFINITY;
  *hi = INFINITY;
  for (int k = 0; k < n; k++) {
    double l = w[k].sent - w[k].s - a * fabs(x - w[k].s), u = w[k].done - w[k].e + a * fabs(x - w[k].e);
    if (l > *lo) *lo = l;
    if (u < *hi) *hi = u;
  }
}

/* What the windows say about the drift: the slope interval a line through the
** first and the last window's offset intervals can have, within [-A, A] (ppm). */
static void drift_interval(const xwin *w, int n, double a, double *lo, double *hi) {
  *lo = -a * 1e6;
  *hi = a * 1e6;
  if (n < 2 || w[n - 1].s <= w[0].e) return;
  double l = (w[n - 1].sent - w[n - 1].s - (w[0].done - w[0].e)) / (w[n - 1].s - w[0].e) * 1e6;
  double h = (w[n - 1].done - w[n - 1].e - (w[0].sent - w[0].s)) / (w[n - 1].s - w[0].e) * 1e6;
  if (l > *lo) *lo = l;
  if (h < *hi) *hi = h;
}

/* Rank host ns x on the dispatcher's axis: x + b(x), b linear through the estimates. */
static double axis_of(const l3_rank *r, double x) { return x + r->hb1 + (x - r->hx1) * r->hslope; }

double l3_anchor_host_ns(const l3_rank *r, double c) {
  double c0 = (double)r->anchor_cycles[0], c1 = (double)r->anchor_cycles[1];
  double h0 = (double)r->anchor_host_ns[0], h1 = (double)r->anchor_host_ns[1];
  return h0 + (c - c0) * (h1 - h0) / (c1 - c0);
}

int l3_xhost_place(l3_run *run, l3_rank *r) {
  const sl_hostlog *d = dispatcher_log(run);
  if (!d) return sl_error(run->o.root, "rank %d: cross-host placement needs the dispatcher's host log "
                                       "(role=l3_scheduler)", r->rank), -1;
  if (!r->has_anchors || r->anchor_cycles[1] <= r->anchor_cycles[0] || !r->has_sched_window)
    return sl_error(r->records, "rank %d: cross-host placement needs the capture's clock anchors and "
                                "device_wall window (an L3 chip-swimlane capture)", r->rank), -1;
  xwin w[256];
  int n = collect_windows(d, r, w, 256);
  if (!n) return sl_error(r->log->path, "rank %d: no chip.run of this log pairs with a node.task of %s", r->rank,
                          d->path), -1;
  double a = run->o.max_drift_ppm * 1e-6;
  uint64_t sched_rel_cyc = (uint64_t)((__int128)r->sched_rel_ns * r->freq_hz / 1000000000);
  r->dev_open_cycles = r->sched_start_cycles - sched_rel_cyc;
  double wall_cyc = (double)r->wall_dur_ns * (double)r->freq_hz / 1e9;
  double x1 = l3_anchor_host_ns(r, (double)r->dev_open_cycles);
  double x2 = l3_anchor_host_ns(r, (double)r->dev_open_cycles + wall_cyc);
  /* the offset at both ends of the rank's chip.run, which holds everything drawn of it
  ** (its call tree, the device window, a host_build_graph capture's host records) */
  double xa = (double)r->run_start_ns, xb = (double)(r->run_start_ns + r->run_dur_ns);
  if (!(xb > xa)) xa = x1, xb = x2;
  double la, ua, lb, ub;
  offset_interval(w, n, a, xa, &la, &ua);
  offset_interval(w, n, a, xb, &lb, &ub);
  if (la > ua || lb > ub)
    return sl_error(r->log->path, "rank %d: the dispatch windows admit no clock offset with drift below %g ppm "
                                  "(raise --max-drift-ppm?)", r->rank, run->o.max_drift_ppm), -1;
  r->xhost = 1;
  r->windows = n;
  r->xopen_ns = x1;
  r->hx1 = xa;
  r->hb1 = (la + ua) / 2;
  r->hslope = xb > xa ? ((lb + ub) / 2 - r->hb1) / (xb - xa) : 0;
  double y1 = axis_of(r, x1), y2 = axis_of(r, x2);
  r->map_y0_ns = y1;
  r->map_rate = wall_cyc > 0 ? (y2 - y1) / wall_cyc : 1e9 / (double)r->freq_hz;
  r->anchor_bound_ns = r->anchor_unc_ns[0] > r->anchor_unc_ns[1] ? r->anchor_unc_ns[0] : r->anchor_unc_ns[1];
  r->bound_ns = (int64_t)ceil((double)r->anchor_bound_ns * (1 + a) + fmax(ua - la, ub - lb) / 2 +
                              1e9 / (double)r->freq_hz + 1);
  r->slack_ns = 2 * r->bound_ns;
  drift_interval(w, n, a, &r->drift_ppm_lo, &r->drift_ppm_hi);
  return 0;
}

double l3_host_axis_ns(const l3_rank *r, int64_t x) {
  return r->xhost ? axis_of(r, (double)x) : (double)x;
}

double l3_dev_axis_ns(const l3_rank *r, int64_t rel_dev_ns) {
  if (!r->xhost && !r->anchored) return (double)(r->runner_start_ns + rel_dev_ns);
  return r->map_y0_ns + (double)rel_dev_ns * (double)r->freq_hz / 1e9 * r->map_rate;
}
