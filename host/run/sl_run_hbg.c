/*
** sl_run_hbg.c — what a host_build_graph run adds to its JSON capture (docs/runtimes.md,
** What an HBG capture holds): metadata.orchestrator_source / clock domains / origin / relation /
** quantization / host_capture, metadata.clock_anchors (also for a TMR run with
** --clock-anchors), and the host_orchestrator_phases / host_device_uploads sections;
** the same facts go to the collector for the .pb capture (sl_collector_set_host).
*/
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sl_collector.h"
#include "sl_phases.h"
#include "sl_run_internal.h"
#include "sl_mem.h"
#include "sl_vec.h"

/* A growing string (printf-appended); NULL data until the first append. */
typedef struct sbuf {
  char *data;
  size_t len, cap;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* vsnprintf cannot fail here: the formats hold integers and %s of short literals
** (no wide characters, nothing near INT_MAX bytes), so its count is never negative. */
static void sb_printf(sbuf *b, const char *fmt, ...) {
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->data ? b->data + b->len : NULL, b->data ? b->cap - b->len : 0, fmt, ap);
    va_end(ap);
    if (b->data && b->len + (size_t)n < b->cap) {
      b->len += (size_t)n;
      return;
    }
    b->data = sl_array_grow(b->data, &b->cap, b->len + (size_t)n + 1, 1);
  }
}

static void put_anchors(sbuf *b, const sl_coll_host *h) {
  sb_printf(b, "\"clock_anchors\": {\"schema_version\": 1, \"provider\": \"simulated\", "
               "\"device_timestamp_unit\": \"syscnt_cycles\", \"raw_device_timestamp_unit\": \"syscnt_cycles\", "
               "\"samples_per_position\": %u, \"samples\": [",
            h->samples_per_position);
  for (size_t i = 0; i < h->nanchors; i++) {
    const sl_coll_anchor *a = &h->anchors[i];
    uint64_t rtt = a->host_after_ns - a->host_before_ns;
    sb_printf(b,
              "%s\n      {\"position\": \"%s\", \"sample_idx\": %u, \"host_before_ns\": %" PRIu64
              ", \"raw_device_timestamp\": %" PRIu64 ", \"device_cycles\": %" PRIu64 ", \"host_after_ns\": %" PRIu64
              ", \"rtt_ns\": %" PRIu64 ", \"uncertainty_ns\": %" PRIu64 ", \"error\": null}",
              i ? "," : "", a->position, a->sample_idx, a->host_before_ns, a->device_cycles, a->device_cycles,
              a->host_after_ns, rtt, (rtt + 1) / 2);
  }
  sb_printf(b, "]}");
}

static void put_host_metadata(sbuf *b, const sl_coll_host *h) {
  sb_printf(b,
            "\"orchestrator_source\": \"host\", \"orchestrator_clock_domain\": \"host_monotonic_ns\", "
            "\"device_clock_domain\": \"syscnt_cycles\", \"host_timestamp_resolution_ns\": 1, "
            "\"host_timestamp_quantization_ns\": 0, \"host_orchestration_origin_ns\": %" PRIu64 ", "
            "\"timeline_relation\": \"host_orchestration_precedes_device\",\n    "
            "\"host_capture\": {\"status\": \"%s\", \"expected_records\": %" PRIu64 ", \"recorded_records\": %" PRIu64
            ", \"pool_records\": %" PRIu64 ", \"dropped_records\": %" PRIu64 ", \"error\": ",
            h->origin_ns, h->status, h->expected, h->recorded, h->pool, h->dropped);
  if (h->error) sb_printf(b, "\"%s\"}", h->error);
  else sb_printf(b, "null}");
}

static void put_host_sections(sbuf *b, const sl_coll_host *h) {
  sb_printf(b, "\"host_orchestrator_phases\": [\n    [");
  for (size_t i = 0; i < h->nrecs; i++)
    sb_printf(b,
              "%s\n      {\"submit_idx\": %u, \"task_id\": %" PRIu64 ", \"start_host_ns\": %" PRIu64
              ", \"end_host_ns\": %" PRIu64 "}",
              i ? "," : "", h->recs[i].submit_idx, h->recs[i].task_id, h->recs[i].start_ns, h->recs[i].end_ns);
  sb_printf(b, "%s]\n  ],\n  \"host_device_uploads\": [", h->nrecs ? "\n    " : "");
  for (size_t i = 0; i < h->nuploads; i++)
    sb_printf(b,
              "%s\n    {\"phase\": \"%s\", \"start_host_ns\": %" PRIu64 ", \"end_host_ns\": %" PRIu64
              ", \"detail\": %" PRIu64 "}",
              i ? "," : "", h->uploads[i].phase, h->uploads[i].start_ns, h->uploads[i].end_ns, h->uploads[i].bytes);
  sb_printf(b, "%s]", h->nuploads ? "\n  " : "");
}

/* The run's host facts, once, for both capture formats (arrays allocated, freed by the caller). */
static void host_facts(const sl_rt *rt, int hbg, int pool_records, sl_coll_host *h) {
  const sl_rt_anchor *a;
  const sl_rt_host_submit *hs;
  const sl_rt_upload *u;
  size_t na = sl_rt_anchors(rt, &a), nh = hbg ? sl_rt_host_submits(rt, &hs) : 0, nu = hbg ? sl_rt_uploads(rt, &u) : 0;
  sl_coll_anchor *ca = sl_mem_array(NULL, na + 1, sizeof *ca);
  sl_coll_host_rec *cr = sl_mem_array(NULL, nh + 1, sizeof *cr);
  sl_coll_upload *cu = sl_mem_array(NULL, nu + 1, sizeof *cu);
  memset(h, 0, sizeof *h);
  h->anchors = ca, h->recs = cr, h->uploads = cu;
  for (size_t i = 0; i < na; i++)
    ca[i] = (sl_coll_anchor){a[i].position == SL_RT_ANCHOR_PRE ? "pre_host_orchestration" : "post_device_execution",
                             (uint32_t)a[i].sample_idx, a[i].host_before_ns, a[i].device_cycles, a[i].host_after_ns};
  for (size_t i = 0; i < nh; i++) cr[i] = (sl_coll_host_rec){hs[i].submit_idx, hs[i].task_id, hs[i].start_ns, hs[i].end_ns};
  for (size_t i = 0; i < nu; i++)
    cu[i] = (sl_coll_upload){sl_host_phase_name(u[i].kind), u[i].start_ns, u[i].end_ns, u[i].bytes};
  h->nanchors = na, h->nrecs = nh, h->nuploads = nu;
  h->samples_per_position = SL_RT_ANCHOR_SAMPLES;
  h->host_mode = hbg;
  if (!hbg) return;
  sl_rt_stats st = sl_rt_get_stats(rt);
  int interrupted = sl_rt_interrupted(rt);
  h->origin_ns = na ? a[0].host_before_ns : 0;
  sl_rt_host_pool(rt, SL_RT_HOST_POOL_SUBMITS, &h->rec_attempted, &h->rec_dropped);
  sl_rt_host_pool(rt, SL_RT_HOST_POOL_UPLOADS, &h->upload_attempted, &h->upload_dropped);
  h->expected = st.tasks + st.alloc_tasks;
  h->recorded = nh;
  h->pool = pool_records > 0 ? (uint64_t)pool_records : nh; /* the pool's capacity */
  h->dropped = h->rec_dropped;
  h->status = interrupted ? "truncated" : nh == h->expected ? "complete" : "partial";
  h->error = interrupted ? "interrupted" : nh == h->expected ? NULL : "record_allocation_failed";
}

void sl_run_add_host_capture(struct sl_collector *coll, const sl_rt *rt, int runtime, int pool_records) {
  const sl_rt_anchor *a;
  size_t na = sl_rt_anchors(rt, &a);
  if (sl_collector_level(coll) < 4) runtime = SL_RT_TMR; /* host records are level 4 */
  if (runtime != SL_RT_HBG && !na) return;
  int hbg = runtime == SL_RT_HBG;
  sl_coll_host h;
  sbuf md = {0}, sec = {0};
  host_facts(rt, hbg, pool_records, &h);
  if (hbg) put_host_metadata(&md, &h);
  if (h.nanchors) {
    if (hbg) sb_printf(&md, ",\n    ");
    put_anchors(&md, &h);
  }
  if (hbg) put_host_sections(&sec, &h);
  sl_collector_add_metadata(coll, md.data);
  sl_collector_add_sections(coll, sec.data);
  sl_collector_set_host(coll, &h);
  sl_mem_free(md.data);
  sl_mem_free(sec.data);
  sl_mem_free((void *)h.anchors);
  sl_mem_free((void *)h.recs);
  sl_mem_free((void *)h.uploads);
}
