/*
** reader_host.c — host-orchestrated (host_build_graph) captures: the host origin, the
** device-to-host clock alignment from metadata.clock_anchors, the host records on the
** host axis and the host_capture verdict (docs/runtimes.md, Reading host-orchestrated
** captures).
**
** Calibrated: a device timestamp c maps to host ns by the nominal frequency plus a
** linear correction between the two selected anchors, in integer arithmetic that
** truncates toward zero, and is drawn at (host_ns - origin) / 1000 us. Otherwise the
** device block is drawn after the host block (host_composite_end_us + relative us).
*/
#include <string.h>

#include "reader_raw.h"
#include "reader_util.h"
#include "sl_base.h"
#include "sl_phases.h"

/* ---- the anchors ------------------------------------------------------------------ */

static int64_t mid_of(const sl_clock_sample *s) { return s->before_ns + (s->after_ns - s->before_ns) / 2; }

/* The valid sample of `position` with the smallest (rtt, sample_idx); NULL if none. */
static const sl_clock_sample *pick(const sl_raw *raw, int position) {
  const sl_clock_sample *best = NULL;
  for (size_t i = 0; i < raw->n_samples; i++) {
    const sl_clock_sample *s = &raw->samples[i];
    if (!s->valid || s->position != position) continue;
    int64_t rtt = s->after_ns - s->before_ns, brtt = best ? best->after_ns - best->before_ns : 0;
    if (!best || rtt < brtt || (rtt == brtt && s->idx < best->idx)) best = s;
  }
  return best;
}

static int outside(uint64_t v, int64_t lo, int64_t hi) {
  return v > 0 && ((int64_t)v < lo || (int64_t)v > hi || v > (uint64_t)INT64_MAX);
}

/* Any positive device timestamp outside [lo, hi] cycles. */
static int device_outside(const sl_raw *raw, const sl_capture *c, int64_t lo, int64_t hi) {
  for (size_t i = 0; i < raw->n_aicore; i++) {
    const sl_raw_aicore *a = &raw->aicore[i];
    uint64_t recv = a->start > a->r2s ? a->start - a->r2s : 0;
    if (outside(recv, lo, hi) || outside(a->start, lo, hi) || outside(a->end, lo, hi)) return 1;
  }
  for (size_t i = 0; i < raw->n_stask; i++)
    if (outside(raw->stask[i].dispatch, lo, hi) || outside(raw->stask[i].finish, lo, hi)) return 1;
  for (size_t i = 0; i < c->n_phases; i++)
    if (outside(sl_raw_cycles(&c->phases[i].start_us), lo, hi) || outside(sl_raw_cycles(&c->phases[i].end_us), lo, hi))
      return 1;
  for (size_t i = 0; i < c->n_orch; i++)
    if (outside(sl_raw_cycles(&c->orch[i].start_us), lo, hi) || outside(sl_raw_cycles(&c->orch[i].end_us), lo, hi))
      return 1;
  return 0;
}

/* The alignment's status and reason, checked in the reference's order. */
static const char *align_reason(const sl_raw *raw, sl_capture *c) {
  sl_clock_alignment *al = &c->align;
  if (al->quantization_ns < 0) return "invalid_host_timestamp_quantization";
  if (c->clock_freq_hz == 0) return "invalid_device_frequency";
  if (!raw->has_anchors) return "missing_clock_anchors";
  if (!raw->has_samples_list) return "missing_clock_anchor_samples";
  if (raw->dev_unit_bad) return "unsupported_device_timestamp_unit";
  if (raw->raw_unit < 0) return "unsupported_raw_device_timestamp_unit";
  al->device_quantization_ns = raw->raw_unit == 1 ? 1000 : 0;
  const sl_clock_sample *s = pick(raw, SL_ANCHOR_PRE), *e = pick(raw, SL_ANCHOR_POST);
  if (!s) return "no_valid_pre_host_orchestration_anchor";
  if (!e) return "no_valid_post_device_execution_anchor";
  al->s_cycles = s->cycles;
  al->e_cycles = e->cycles;
  al->s_mid = mid_of(s);
  al->e_mid = mid_of(e);
  if (al->e_mid <= al->s_mid) return "host_anchor_order_invalid";
  if (al->e_cycles <= al->s_cycles) return "device_anchor_order_invalid";
  if (device_outside(raw, c, al->s_cycles, al->e_cycles)) return "device_timestamps_outside_anchor_coverage";
  int64_t us = (s->after_ns - s->before_ns + 1) / 2 + al->device_quantization_ns;
  int64_t ue = (e->after_ns - e->before_ns + 1) / 2 + al->device_quantization_ns;
  al->anchor_uncertainty_ns = us > ue ? us : ue;
  al->sel_pre = s->idx;
  al->sel_post = e->idx;
  return NULL;
}

double sl_host_device_us(const sl_capture *c, uint64_t cycles) {
  const sl_clock_alignment *al = &c->align;
  __int128 delta = (__int128)(int64_t)cycles - al->s_cycles, span = (__int128)al->e_cycles - al->s_cycles;
  __int128 freq = (__int128)c->clock_freq_hz;
  __int128 nominal = delta * 1000000000 / freq;
  __int128 nominal_end = al->s_mid + span * 1000000000 / freq;
  __int128 corr = (al->e_mid - nominal_end) * delta / span;
  __int128 host = al->s_mid + nominal + corr;
  return (double)(int64_t)(host - c->host_origin_ns) / 1000.0;
}

/* ---- before the device join -------------------------------------------------------- */

int sl_host_align(sl_raw *raw, sl_capture *c) {
  const char *name = raw->name;
  c->host_mode = 1;
  if (c->n_orch) {
    (void)sl_err_set(raw->err, name, "$.aicpu_orchestrator_phases: both AICPU and host orchestrator phases are present; "
                   "clock-domain source is ambiguous");
    return -1;
  }
  int64_t origin = raw->has_origin ? raw->origin : 0;
  uint64_t lo = UINT64_MAX, hi = 0;
  for (size_t i = 0; i < 2 * raw->n_host; i++) {
    lo = raw->host_ns[i] < lo ? raw->host_ns[i] : lo;
    hi = raw->host_ns[i] > hi ? raw->host_ns[i] : hi;
  }
  for (size_t i = 0; i < 2 * c->n_uploads; i++) {
    lo = raw->upload_ns[i] < lo ? raw->upload_ns[i] : lo;
    hi = raw->upload_ns[i] > hi ? raw->upload_ns[i] : hi;
  }
  int any_host = raw->n_host || c->n_uploads;
  if (origin == 0 && any_host) origin = (int64_t)lo;
  c->host_composite_end_us = any_host ? (double)((int64_t)hi - origin) / 1000.0 : 0.0;
  c->align.quantization_ns = raw->has_quant ? raw->quant : 0;
  c->align.reason = align_reason(raw, c);
  c->align.calibrated = c->align.reason == NULL;
  if (origin == 0 && c->align.calibrated) origin = c->align.s_mid;
  c->host_origin_ns = origin;
  return 0;
}

/* ---- after the device join -------------------------------------------------------- */

static int host_us(sl_raw *raw, const char *what, size_t i, uint64_t start, uint64_t end, int64_t origin,
                   double *s_us, double *e_us) {
  if ((int64_t)start < origin || end < start) {
    (void)sl_err_set(raw->err, raw->name, "$.%s[%zu]: invalid %s: origin=%lld, start=%llu, end=%llu",
             strcmp(what, "host orchestrator phase") ? "host_device_uploads" : "host_orchestrator_phases", i, what,
             (long long)origin, (unsigned long long)start, (unsigned long long)end);
    return -1;
  }
  *s_us = (double)((int64_t)start - origin) / 1000.0;
  *e_us = (double)((int64_t)end - origin) / 1000.0;
  return 0;
}

static void judge_capture(sl_capture *c, size_t actual) {
  sl_host_capture *hc = &c->host_capture;
  const char *st = sl_str_get(c, hc->status);
  if (!hc->present) {
    hc->complete = 0;
    return;
  }
  if (hc->has_recorded && hc->recorded != (int64_t)actual) hc->validation[hc->n_validation++] = "recorded_record_count_mismatch";
  if (!hc->has_expected) hc->validation[hc->n_validation++] = "expected_record_count_missing";
  else if (hc->expected != (int64_t)actual) hc->validation[hc->n_validation++] = "expected_record_count_mismatch";
  hc->complete = st && !strcmp(st, "complete") && hc->has_dropped && hc->dropped == 0 &&
                 (!hc->has_recorded || hc->recorded == (int64_t)actual) && hc->has_expected &&
                 hc->expected == (int64_t)actual;
}

int sl_host_finish(sl_raw *raw, sl_capture *c) {
  int64_t origin = c->host_origin_ns;
  for (size_t i = 0; i < raw->n_host; i++)
    if (host_us(raw, "host orchestrator phase", i, raw->host_ns[2 * i], raw->host_ns[2 * i + 1], origin,
                &raw->host_orch[i].start_us, &raw->host_orch[i].end_us))
      return -1;
  for (size_t i = 0; i < c->n_uploads; i++)
    if (host_us(raw, "host device upload", i, raw->upload_ns[2 * i], raw->upload_ns[2 * i + 1], origin,
                &c->uploads[i].start_us, &c->uploads[i].end_us))
      return -1;
  sl_str submit = sl_intern_add(&c->strings, SL_ORCH_PHASE_DEFAULT, strlen(SL_ORCH_PHASE_DEFAULT));
  c->orchestrator_source = sl_intern_add(&c->strings, "host", 4);
  /* the host records become the orchestrator lanes; empty host threads are dropped */
  sl_mem_free(c->orch);
  sl_mem_free(c->orch_threads);
  c->orch = raw->host_orch;
  c->n_orch = raw->n_host;
  raw->host_orch = NULL;
  raw->n_host = 0;
  c->orch_threads = raw->host_threads;
  c->n_orch_threads = 0;
  for (size_t i = 0; i < raw->n_host_threads; i++)
    if (raw->host_threads[i].count) c->orch_threads[c->n_orch_threads++] = raw->host_threads[i];
  raw->host_threads = NULL;
  raw->n_host_threads = 0;
  for (size_t i = 0; i < c->n_orch; i++) c->orch[i].phase = submit;
  c->n_host_records = c->n_orch;
  judge_capture(c, c->n_orch);
  return 0;
}
