/*
** convert_host.c — what a host-orchestrated (host_build_graph) capture adds to the
** trace (docs/runtimes.md, In the trace): the Host Prepare / H2D
** upload bars, and the top-level "metadata" object saying how the host and device
** timelines were put on one axis (clock_aligned) or only ordered (causal_composite).
*/
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert_ctx.h"
#include "sl_jsonfmt.h"
#include "sl_mem.h"
#include "sl_phases.h"
#include "sl_vec.h"

/* ---- Host Prepare / H2D --------------------------------------------------------------- */

/* An upload's colour: its schema entry's (phases.lua host_phases), else the first's. */
static const char *upload_cname(const char *phase) {
  const char *first = sl_host_phase_cname(0);
  for (int k = 0; k < SL_HOST_PHASE_COUNT; k++)
    if (phase && !strcmp(sl_host_phase_name(k), phase)) return sl_host_phase_cname(k);
  return first;
}

void sl_emit_host_prepare(sl_ctx *x) {
  const sl_capture *c = x->c;
  if (!c->n_uploads) return;
  int64_t tid = 0, stride = 0;
  sl_rules_lane_tid(x->r, sl_lane_table[SL_LANE_HOST_H2D].key, &tid, &stride);
  const char *pname = sl_rules_orchestrator_name(x->r, "host_prepare", NULL);
  const char *lane = sl_rules_orch_lane(x->r, 0, "host_prepare");
  if (!pname || !lane) {
    x->failed = 1;
    return;
  }
  sl_sink_process_name(x->s, x->pid_orch, pname);
  sl_sink_thread_name(x->s, x->pid_orch, tid, lane);
  for (size_t i = 0; i < c->n_uploads; i++) {
    const sl_upload_rec *u = &c->uploads[i];
    const char *ph = u->phase == SL_STR_NONE ? "upload" : sl_str_get(c, u->phase);
    double dur = sl_slice_dur(x, u->start_us, u->end_us);
    sl_arg a[] = {SL_ARG_U("bytes", u->bytes)};
    sl_slice ev = {.pid = x->pid_orch, .tid = tid, .ts = u->start_us, .dur = dur > 0 ? dur : 0.0, .name = ph,
                   .cat = "host_h2d", .cname = upload_cname(u->phase == SL_STR_NONE ? NULL : ph), .args = a,
                   .nargs = 1};
    sl_sink_slice(x->s, &ev);
  }
}

/* ---- timeline_metadata ------------------------------------------------------------------ */

/* The metadata text being built; growth never fails (sl_mem.h). */
typedef SL_VEC(char) mbuf;

/* Append printf output, sized exactly: an escaped value may be 6 bytes per character. */
__attribute__((format(printf, 2, 3))) static void put(mbuf *b, const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int k = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (k >= 0) {
    sl_vec_reserve(b, b->n + (size_t)k + 1);
    vsnprintf(b->v + b->n, (size_t)k + 1, fmt, ap2);
    b->n += (size_t)k;
  }
  va_end(ap2);
}

static void put_str(mbuf *b, const char *s) {
  char esc[6 * 128 + 3];
  if (!s) {
    put(b, "null");
    return;
  }
  if (strlen(s) > 128) s = "(too long)";
  sl_json_escape(esc, s);
  put(b, "%s", esc);
}

static void put_alignment(mbuf *b, const sl_capture *c) {
  const sl_clock_alignment *al = &c->align;
  put(b, "{\n    \"status\": \"%s\",\n    \"method\": \"nominal_frequency_offset_interp_v1\",\n",
      al->calibrated ? "calibrated" : "unaligned");
  if (al->calibrated)
    put(b, "    \"anchor_uncertainty_ns\": %" PRId64 ",\n    \"host_timestamp_quantization_ns\": %" PRId64
           ",\n    \"max_uncertainty_ns\": %" PRId64 ",\n    \"selected_sample_idx\": {\n"
           "      \"pre_host_orchestration\": %" PRId64 ",\n      \"post_device_execution\": %" PRId64 "\n    }\n  }",
        al->anchor_uncertainty_ns, al->quantization_ns, al->anchor_uncertainty_ns + al->quantization_ns,
        al->sel_pre, al->sel_post);
  else
    put(b, "    \"anchor_uncertainty_ns\": null,\n    \"host_timestamp_quantization_ns\": %" PRId64
           ",\n    \"max_uncertainty_ns\": null,\n    \"reason\": \"%s\"\n  }",
        al->quantization_ns, al->reason);
}

static void put_host_capture(mbuf *b, const sl_capture *c) {
  const sl_host_capture *h = &c->host_capture;
  if (!h->present) {
    put(b, "{\n    \"status\": \"unknown\",\n    \"recorded_records\": %zu,\n    \"dropped_records\": null,\n"
           "    \"error\": \"legacy_capture_status_missing\"\n  }",
        c->n_host_records);
    return;
  }
  /* the capture's object copied as the reference copies it: the keys it has, a missing status
  ** stays missing (it reads as "unknown"), a value that is not a count or a string as null */
  const char *sep = "";
  put(b, "{");
  if (h->seen & SL_HC_STATUS) {
    put(b, "\n    \"status\": ");
    put_str(b, h->status == SL_STR_NONE ? NULL : sl_str_get(c, h->status));
    sep = ",";
  }
#define INT_OR_NULL(k, bit, has, v)                                   \
  if (h->seen & bit) {                                                \
    if (has) put(b, "%s\n    \"%s\": %" PRId64, sep, k, v);          \
    else put(b, "%s\n    \"%s\": null", sep, k);                     \
    sep = ",";                                                        \
  }
  INT_OR_NULL("expected_records", SL_HC_EXPECTED, h->has_expected, h->expected)
  INT_OR_NULL("recorded_records", SL_HC_RECORDED, h->has_recorded, h->recorded)
  INT_OR_NULL("pool_records", SL_HC_POOL, h->has_pool, h->pool)
  INT_OR_NULL("dropped_records", SL_HC_DROPPED, h->has_dropped, h->dropped)
#undef INT_OR_NULL
  if (h->seen & SL_HC_ERROR) {
    put(b, "%s\n    \"error\": ", sep);
    put_str(b, h->error == SL_STR_NONE ? NULL : sl_str_get(c, h->error));
    sep = ",";
  }
  if (h->n_validation) {
    put(b, "%s\n    \"converter_validation_errors\": [", sep);
    for (int i = 0; i < h->n_validation; i++) put(b, "%s\n      \"%s\"", i ? "," : "", h->validation[i]);
    put(b, "\n    ]");
  }
  put(b, "\n  }");
}

int sl_host_cross_domain(const sl_capture *c) {
  return !c->host_mode || (c->host_capture.complete && c->align.calibrated);
}

/* The trace's top-level metadata of a host-mode capture (a JSON object); sl_mem_free it. */
char *sl_host_timeline_json(const sl_capture *c) {
  mbuf b = {0};
  int complete = c->host_capture.complete;
  put(&b, "{\n  \"layout\": \"%s\",\n  \"trace_status\": \"%s\",\n  \"relation\": ",
      c->align.calibrated ? "clock_aligned" : "causal_composite", complete ? "complete" : "partial");
  put_str(&b, c->timeline_relation == SL_STR_NONE ? "host_orchestration_precedes_device"
                                                  : sl_str_get(c, c->timeline_relation));
  put(&b, ",\n  \"clock_alignment\": ");
  put_alignment(&b, c);
  put(&b, ",\n  \"host_capture\": ");
  put_host_capture(&b, c);
  put(&b, ",\n  \"host_records_complete\": %s,\n  \"cross_domain_latency_available\": %s",
      complete ? "true" : "false", sl_host_cross_domain(c) ? "true" : "false");
  if (!c->align.calibrated) {
    char f[32];
    sl_fmt_pyfloat(f, c->host_composite_end_us);
    put(&b, ",\n  \"cross_domain_gap_unknown\": true,\n  \"logical_seam_us\": %s", f);
  }
  if (!c->n_host_records) put(&b, ",\n  \"host_records_missing\": true");
  put(&b, "\n}");
  /* the object sits one level deep in the trace file: indent every line by 2 */
  size_t lines = 0;
  for (size_t i = 0; i < b.n; i++) lines += b.v[i] == '\n';
  char *out = sl_mem_alloc(b.n + 2 * lines + 1), *q = out;
  for (size_t i = 0; i <= b.n; i++) {
    *q++ = b.v[i];
    if (b.v[i] == '\n') *q++ = ' ', *q++ = ' ';
  }
  sl_vec_free(&b);
  return out;
}
