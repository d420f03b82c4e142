/*
** sl_run_hbg.c — what a host_build_graph run adds to its JSON capture (anchor-datapath
** §8 keys): metadata.orchestrator_source / clock domains / origin / relation /
** quantization / host_capture, metadata.clock_anchors (also for a TMR run with
** --clock-anchors), and the host_orchestrator_phases / host_device_uploads sections.
*/
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sl_collector.h"
#include "sl_phases.h"
#include "sl_run_internal.h"

/* A growing string (printf-appended); NULL data after an allocation failure. */
typedef struct sbuf {
  char *data;
  size_t len, cap;
  int oom;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...) {
  if (b->oom) return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->data ? b->data + b->len : NULL, b->data ? b->cap - b->len : 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
      b->oom = 1;
      return;
    }
    if (b->data && b->len + (size_t)n < b->cap) {
      b->len += (size_t)n;
      return;
    }
    size_t cap = (b->cap ? 2 * b->cap : 4096) + (size_t)n;
    char *p = realloc(b->data, cap);
    if (!p) {
      b->oom = 1;
      return;
    }
    b->data = p;
    b->cap = cap;
  }
}

static void put_anchors(sbuf *b, const sl_rt *rt) {
  const sl_rt_anchor *a;
  size_t n = sl_rt_anchors(rt, &a);
  sb_printf(b, "\"clock_anchors\": {\"schema_version\": 1, \"provider\": \"simulated\", "
               "\"device_timestamp_unit\": \"syscnt_cycles\", \"raw_device_timestamp_unit\": \"syscnt_cycles\", "
               "\"samples_per_position\": %d, \"samples\": [",
            SL_RT_ANCHOR_SAMPLES);
  for (size_t i = 0; i < n; i++) {
    uint64_t rtt = a[i].host_after_ns - a[i].host_before_ns;
    sb_printf(b,
              "%s\n      {\"position\": \"%s\", \"sample_idx\": %d, \"host_before_ns\": %" PRIu64
              ", \"raw_device_timestamp\": %" PRIu64 ", \"device_cycles\": %" PRIu64 ", \"host_after_ns\": %" PRIu64
              ", \"rtt_ns\": %" PRIu64 ", \"uncertainty_ns\": %" PRIu64 ", \"error\": null}",
              i ? "," : "", a[i].position == SL_RT_ANCHOR_PRE ? "pre_host_orchestration" : "post_device_execution",
              a[i].sample_idx, a[i].host_before_ns, a[i].device_cycles, a[i].device_cycles, a[i].host_after_ns, rtt,
              (rtt + 1) / 2);
  }
  sb_printf(b, "]}");
}

static void put_host_metadata(sbuf *b, const sl_rt *rt, size_t recorded) {
  const sl_rt_anchor *a;
  size_t na = sl_rt_anchors(rt, &a);
  sl_rt_stats st = sl_rt_get_stats(rt);
  uint64_t expected = st.tasks + st.alloc_tasks;
  int interrupted = sl_rt_interrupted(rt);
  sb_printf(b,
            "\"orchestrator_source\": \"host\", \"orchestrator_clock_domain\": \"host_monotonic_ns\", "
            "\"device_clock_domain\": \"syscnt_cycles\", \"host_timestamp_resolution_ns\": 1, "
            "\"host_timestamp_quantization_ns\": 0, \"host_orchestration_origin_ns\": %" PRIu64 ", "
            "\"timeline_relation\": \"host_orchestration_precedes_device\",\n    "
            "\"host_capture\": {\"status\": \"%s\", \"expected_records\": %" PRIu64 ", \"recorded_records\": %zu, "
            "\"pool_records\": %zu, \"dropped_records\": %" PRIu64 ", \"error\": %s}",
            na ? a[0].host_before_ns : 0, interrupted ? "truncated" : recorded == expected ? "complete" : "partial",
            expected, recorded, recorded, expected > recorded ? expected - recorded : 0,
            interrupted ? "\"interrupted\"" : recorded == expected ? "null" : "\"record_allocation_failed\"");
}

static void put_host_sections(sbuf *b, const sl_rt *rt) {
  const sl_rt_host_submit *h;
  size_t n = sl_rt_host_submits(rt, &h);
  sb_printf(b, "\"host_orchestrator_phases\": [\n    [");
  for (size_t i = 0; i < n; i++)
    sb_printf(b,
              "%s\n      {\"submit_idx\": %u, \"task_id\": %" PRIu64 ", \"start_host_ns\": %" PRIu64
              ", \"end_host_ns\": %" PRIu64 "}",
              i ? "," : "", h[i].submit_idx, h[i].task_id, h[i].start_ns, h[i].end_ns);
  sb_printf(b, "%s]\n  ],\n  \"host_device_uploads\": [", n ? "\n    " : "");
  const sl_rt_upload *u;
  size_t nu = sl_rt_uploads(rt, &u);
  for (size_t i = 0; i < nu; i++)
    sb_printf(b,
              "%s\n    {\"phase\": \"%s\", \"start_host_ns\": %" PRIu64 ", \"end_host_ns\": %" PRIu64
              ", \"detail\": %" PRIu64 "}",
              i ? "," : "", sl_host_phase_name(u[i].kind), u[i].start_ns, u[i].end_ns, u[i].bytes);
  sb_printf(b, "%s]", nu ? "\n  " : "");
}

int sl_run_add_host_capture(struct sl_collector *coll, const sl_rt *rt, int runtime) {
  const sl_rt_anchor *a;
  size_t na = sl_rt_anchors(rt, &a);
  const sl_rt_host_submit *h;
  size_t nh = sl_rt_host_submits(rt, &h);
  if (sl_collector_level(coll) < 4) runtime = SL_RT_TMR; /* host records are level 4 */
  if (runtime != SL_RT_HBG && !na) return 0;
  sbuf md = {0}, sec = {0};
  if (runtime == SL_RT_HBG) put_host_metadata(&md, rt, nh);
  if (na) {
    if (runtime == SL_RT_HBG) sb_printf(&md, ",\n    ");
    put_anchors(&md, rt);
  }
  if (runtime == SL_RT_HBG) put_host_sections(&sec, rt);
  int rc = md.oom || sec.oom || sl_collector_add_metadata(coll, md.data) ||
           (sec.data && sl_collector_add_sections(coll, sec.data));
  if (rc) fprintf(stderr, "swimlane: run: out of memory writing the host capture\n");
  free(md.data);
  free(sec.data);
  return rc ? -1 : 0;
}
