/*
** l3_anchor.c — placing a host_build_graph rank that runs on the dispatcher's host.
**
** A host_build_graph capture is drawn on its own host axis: its host records
** (orchestration, uploads) are CLOCK_MONOTONIC ns, the clock the host logs use, and
** the converter maps its device records onto that axis through the capture's two
** clock anchors. Such a rank needs no containment: the host timeline is exact, the
** device timeline (and the log's clk=dev phases) is known to within the anchors'
** uncertainty (the larger selected sample's rtt/2). The rank's runner_run window must
** still hold both: checked, refused otherwise. On another host (--cross-host) the
** rank is placed by l3_xhost.c and its host axis mapped onto the dispatcher's here.
*/
#include <math.h>
#include <stdio.h>

#include "l3.h"
#include "sl_base.h"

/* Does [a, b] (host ns) lie inside the rank's runner_run window, within its bound? */
static int in_runner_run(const l3_rank *r, double a, double b) {
  double lo = (double)r->runner_start_ns - (double)r->bound_ns;
  double hi = (double)(r->runner_start_ns + r->runner_dur_ns) + (double)r->bound_ns;
  return a >= lo && b <= hi;
}

int l3_anchor_place(l3_run *run, l3_rank *r) {
  (void)run;
  if (!r->has_anchors || r->anchor_cycles[1] <= r->anchor_cycles[0] || !r->has_sched_window)
    return sl_error(r->records, "rank %d: a host_build_graph capture without its clock anchors and device_wall "
                                "window: the merge places its device timeline through them (level 4 takes them)",
                    r->rank), -1;
  uint64_t sched_rel_cyc = (uint64_t)((__int128)r->sched_rel_ns * r->freq_hz / 1000000000);
  r->dev_open_cycles = r->sched_start_cycles - sched_rel_cyc;
  double wall_cyc = (double)r->wall_dur_ns * (double)r->freq_hz / 1e9;
  double x1 = l3_anchor_host_ns(r, (double)r->dev_open_cycles);
  double x2 = l3_anchor_host_ns(r, (double)r->dev_open_cycles + wall_cyc);
  r->anchored = 1;
  r->map_y0_ns = x1;
  r->map_rate = wall_cyc > 0 ? (x2 - x1) / wall_cyc : 1e9 / (double)r->freq_hz;
  r->anchor_bound_ns = r->anchor_unc_ns[0] > r->anchor_unc_ns[1] ? r->anchor_unc_ns[0] : r->anchor_unc_ns[1];
  r->bound_ns = r->anchor_bound_ns;
  r->slack_ns = 2 * r->bound_ns; /* the width the device block could be anywhere in */
  if (!in_runner_run(r, x1, x2)) {
    sl_error(r->records, "rank %d: its device window, placed through the clock anchors at %.0f..%.0f host ns, is "
                         "not inside the chip.run.runner_run window %lld..%lld ns of %s invocation %d", r->rank, x1, x2,
             (long long)r->runner_start_ns, (long long)(r->runner_start_ns + r->runner_dur_ns), r->log->path, r->inv);
    return -1;
  }
  return 0;
}

int l3_anchor_place_capture(l3_run *run, l3_rank *r, double end_us) {
  const sl_capture *c = r->cap;
  if (!r->anchored && !(r->xhost && r->host_mode)) /* the head did not say host mode, the records do */
    return sl_error(r->records, "rank %d: a host-orchestrated (host_build_graph) capture without "
                                "metadata.orchestrator_source \"host\" and clock anchors: it cannot be placed",
                    r->rank), -1;
  if (!c->host_mode)
    return sl_error(r->records, "rank %d: metadata.orchestrator_source says host_build_graph, the records are a "
                                "device-orchestrated capture", r->rank), -1;
  if (!c->align.calibrated)
    return sl_error(r->records, "rank %d: its clock anchors do not align the device timeline with the host's (%s): "
                                "the merge places a host_build_graph rank through them", r->rank,
                    c->align.reason ? c->align.reason : "unaligned"), -1;
  double a = (double)c->host_origin_ns, b = a + end_us * 1000.0;
  if (!in_runner_run(r, a, b))
    return sl_error(r->records, "rank %d: its host timeline (%.0f..%.0f host ns) does not fit the "
                                "chip.run.runner_run window of %s invocation %d", r->rank, a, b, r->log->path,
                    r->inv), -1;
  r->scale = 1.0;
  r->shift_us = (double)(c->host_origin_ns - run->origin_ns) / 1000.0;
  if (r->xhost) { /* on another host: its host axis x goes to x + b(x), linear (l3_xhost.c) */
    r->scale = 1.0 + r->hslope;
    r->shift_us = (l3_host_axis_ns(r, (int64_t)c->host_origin_ns) - (double)run->origin_ns) / 1000.0;
  }
  r->has_residual = 1; /* the first record is the host origin (the opening anchor) */
  r->residual_ns = (int64_t)llround((double)c->host_origin_ns - (r->xhost ? r->xopen_ns : r->map_y0_ns));
  return 0;
}
