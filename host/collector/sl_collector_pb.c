/*
** sl_collector_pb.c — the same capture as chip_swimlane_records.pb, a
** swimlane.Capture message (generated/swimlane_capture.proto) filled through
** the generated struct <-> message glue and streamed into an all-or-nothing
** file. Level gating matches the JSON. proto3 has no null: a scheduler
** stream's physical_core_id is -1 where the JSON says null.
*/
#include "sl_base.h"
#include "sl_mem.h"
#include "sl_vec.h"
#include "sl_collector_internal.h"
#include "sl_fingerprint.h"
#include "sl_platforms.h"
#include "sl_proto_glue.h"

#include <stdlib.h>
#include <string.h>

/* Everything allocated for one message tree, freed in one go. The allocations never
** fail (sl_mem.h), so building the tree has no failure path. */
typedef struct arena {
  void **ptrs;
  size_t n, cap;
} arena;

static void *arena_alloc(arena *a, size_t bytes) {
  void *m = sl_mem_calloc(1, bytes);
  *sl_array_push(a->ptrs, a->n, a->cap) = m;
  return m;
}

static void arena_free(arena *a) {
  for (size_t i = 0; i < a->n; i++) sl_mem_free(a->ptrs[i]);
  sl_mem_free(a->ptrs);
}

static Swimlane__StreamCapture *stream_capture(arena *a, uint64_t committed, uint64_t dropped, int truncated) {
  Swimlane__StreamCapture *sc = arena_alloc(a, sizeof *sc);
  swimlane__stream_capture__init(sc);
  sc->committed = committed;
  sc->dropped = dropped;
  sc->truncated = truncated || dropped != 0;
  return sc;
}

static uint32_t head_dropped(const sl_collector *c, unsigned kind, int i) {
  return sl_ld_acq32(&c->hv->pools[kind][i].head.dropped_record_count);
}

/* ---- record streams: one per core, scheduler thread or orchestrator ------------------- */

/* The generated record -> message converters, under one signature. */
typedef void (*to_pb_fn)(const void *rec, void *msg);
#define PB_CONVERTER(kind)                                                                        \
  static void kind##_to_pb(const void *r, void *m) { sl_##kind##_record_to_pb(r, m); }
PB_CONVERTER(aicore_task)
PB_CONVERTER(aicpu_task)
PB_CONVERTER(sched_phase)
PB_CONVERTER(orch_phase)
#undef PB_CONVERTER

/* A record buffer kind as a stream: its records' struct and message sizes, the converter. */
typedef struct pb_stream_kind {
  unsigned buf; /* SL_BUF_* */
  size_t rec_size, msg_size;
  to_pb_fn to_pb;
} pb_stream_kind;

static const pb_stream_kind pb_aicore = {SL_BUF_AICORE_TASK, sizeof(sl_aicore_task_record),
                                         sizeof(Swimlane__AicoreTaskRecord), aicore_task_to_pb};
static const pb_stream_kind pb_aicpu = {SL_BUF_AICPU_TASK, sizeof(sl_aicpu_task_record),
                                        sizeof(Swimlane__AicpuTaskRecord), aicpu_task_to_pb};
static const pb_stream_kind pb_sched = {SL_BUF_SCHED_PHASE, sizeof(sl_sched_phase_record),
                                        sizeof(Swimlane__SchedPhaseRecord), sched_phase_to_pb};
static const pb_stream_kind pb_orch = {SL_BUF_ORCH_PHASE, sizeof(sl_orch_phase_record),
                                       sizeof(Swimlane__OrchPhaseRecord), orch_phase_to_pb};

/* Stream `i` of kind k: its accounting into *capture, its merged records as messages
** (*n of them); returns the pointer array a stream message's `records` takes. */
static void *stream_records(sl_collector *c, arena *a, const pb_stream_kind *k, int i, int truncated,
                            Swimlane__StreamCapture **capture, size_t *n) {
  sl_coll_view v = sl_coll_merged(c, k->buf, i);
  *capture = stream_capture(a, v.n, head_dropped(c, k->buf, i), truncated);
  *n = v.n;
  char *msgs = arena_alloc(a, k->msg_size * v.n);
  void **ptrs = arena_alloc(a, sizeof *ptrs * v.n);
  for (size_t r = 0; r < v.n; r++) {
    ptrs[r] = msgs + r * k->msg_size;
    k->to_pb(v.data + r * k->rec_size, ptrs[r]);
  }
  sl_coll_view_free(&v);
  return ptrs;
}

static void fill_task_streams(sl_collector *c, arena *a, Swimlane__Capture *cap, unsigned level, int truncated) {
  int n = c->cfg.num_cores;
  cap->aicore_tasks = arena_alloc(a, sizeof(void *) * (size_t)n);
  if (level >= SL_MIN_LEVEL_AICPU_TASK) cap->scheduler_tasks = arena_alloc(a, sizeof(void *) * (size_t)n);
  for (int core = 0; core < n; core++) {
    Swimlane__AicoreTaskStream *s = arena_alloc(a, sizeof *s);
    swimlane__aicore_task_stream__init(s);
    s->core_id = (uint32_t)core;
    s->records = stream_records(c, a, &pb_aicore, core, truncated, &s->capture, &s->n_records);
    cap->aicore_tasks[cap->n_aicore_tasks++] = s;
    if (level < SL_MIN_LEVEL_AICPU_TASK) continue;
    Swimlane__AicpuTaskStream *t = arena_alloc(a, sizeof *t);
    swimlane__aicpu_task_stream__init(t);
    t->core_id = (uint32_t)core;
    t->records = stream_records(c, a, &pb_aicpu, core, truncated, &t->capture, &t->n_records);
    cap->scheduler_tasks[cap->n_scheduler_tasks++] = t;
  }
}

static void fill_sched_streams(sl_collector *c, arena *a, Swimlane__Capture *cap, int truncated) {
  int n = c->cfg.num_aicpu_threads;
  cap->scheduler_records = arena_alloc(a, sizeof(void *) * (size_t)n);
  for (int t = 0; t < n; t++) {
    if (!sl_ld_acq32(&c->hv->pools[SL_BUF_SCHED_PHASE][t].head.total_record_count)) continue;
    Swimlane__SchedPhaseStream *s = arena_alloc(a, sizeof *s);
    swimlane__sched_phase_stream__init(s);
    s->scheduler_id = (uint32_t)t;
    s->worker_id = (uint32_t)t;
    s->platform = c->platform;
    s->runtime = c->runtime;
    int phys = sl_coll_stream_core(c, t);
    s->producer = phys >= 0 ? (char *)"aicore" : (char *)"aicpu";
    s->core_type = phys >= 0 ? (char *)"aiv" : (char *)"aicpu";
    s->physical_core_id = phys;
    s->records = stream_records(c, a, &pb_sched, t, truncated, &s->capture, &s->n_records);
    cap->scheduler_records[cap->n_scheduler_records++] = s;
  }
}

static void fill_orch(sl_collector *c, arena *a, Swimlane__Capture *cap, int truncated) {
  Swimlane__OrchPhaseStream *s = arena_alloc(a, sizeof *s);
  swimlane__orch_phase_stream__init(s);
  s->thread_id = (uint32_t)c->dp->orch_thread;
  s->records = stream_records(c, a, &pb_orch, 0, truncated, &s->capture, &s->n_records);
  cap->orchestrator_phases = arena_alloc(a, sizeof(void *));
  cap->orchestrator_phases[0] = s;
  cap->n_orchestrator_phases = 1;
  cap->num_orch_phase_threads = 1;
}

static void fill_lifecycle(sl_collector *c, arena *a, Swimlane__Capture *cap) {
  int n = c->cfg.num_aicpu_threads;
  cap->aicpu_lifecycle_records = arena_alloc(a, sizeof(void *) * (size_t)n);
  Swimlane__AicpuLifecycleRecord *msgs = arena_alloc(a, sizeof *msgs * (size_t)n);
  for (int t = 0; t < n; t++) {
    if (!sl_ld_acq32(&c->hv->lifecycle_set[t])) continue;
    sl_aicpu_lifecycle_record_to_pb(&c->hv->lifecycle[t], &msgs[t]);
    cap->aicpu_lifecycle_records[cap->n_aicpu_lifecycle_records++] = &msgs[t];
  }
}

/* metadata.clock_anchors (uncertainty = (rtt + 1) / 2, as the JSON writes it). */
static Swimlane__ClockAnchors *anchors_msg(const sl_coll_anchor *v, size_t n, uint32_t per_position, arena *a) {
  Swimlane__ClockAnchors *ca = arena_alloc(a, sizeof *ca);
  Swimlane__ClockAnchorSample *s = arena_alloc(a, sizeof *s * n);
  void **samples = arena_alloc(a, sizeof(void *) * n);
  swimlane__clock_anchors__init(ca);
  ca->schema_version = 1;
  ca->provider = (char *)"simulated";
  ca->device_timestamp_unit = ca->raw_device_timestamp_unit = (char *)"syscnt_cycles";
  ca->samples_per_position = per_position;
  ca->samples = (Swimlane__ClockAnchorSample **)samples;
  for (size_t i = 0; i < n; i++) {
    const sl_coll_anchor *x = &v[i];
    swimlane__clock_anchor_sample__init(&s[i]);
    s[i].position = (char *)x->position;
    s[i].sample_idx = x->sample_idx;
    s[i].host_before_ns = x->host_before_ns;
    s[i].raw_device_timestamp = s[i].device_cycles = x->device_cycles;
    s[i].host_after_ns = x->host_after_ns;
    s[i].rtt_ns = x->host_after_ns - x->host_before_ns;
    s[i].uncertainty_ns = (s[i].rtt_ns + 1) / 2;
    ca->samples[ca->n_samples++] = &s[i];
  }
  return ca;
}

/* host_build_graph: the host-mode metadata keys, host_capture and the two host sections. */
static void fill_host(const sl_collector *c, arena *a, Swimlane__Capture *cap, Swimlane__Metadata *md) {
  const sl_coll_host *h = &c->host;
  if (h->nanchors) md->clock_anchors = anchors_msg(h->anchors, h->nanchors, h->samples_per_position, a);
  if (!h->host_mode) return;
  md->orchestrator_source = (char *)"host";
  md->orchestrator_clock_domain = (char *)"host_monotonic_ns";
  md->device_clock_domain = (char *)"syscnt_cycles";
  md->host_timestamp_resolution_ns = 1;
  md->host_orchestration_origin_ns = h->origin_ns;
  md->timeline_relation = (char *)"host_orchestration_precedes_device";
  Swimlane__HostCapture *hc = arena_alloc(a, sizeof *hc);
  Swimlane__HostOrchThread *th = arena_alloc(a, sizeof *th);
  Swimlane__HostOrchPhase *r = arena_alloc(a, sizeof *r * h->nrecs);
  Swimlane__HostDeviceUpload *u = arena_alloc(a, sizeof *u * h->nuploads);
  cap->host_orchestrator_phases = arena_alloc(a, sizeof(void *));
  cap->host_device_uploads = arena_alloc(a, sizeof(void *) * h->nuploads);
  swimlane__host_orch_thread__init(th);
  th->records = arena_alloc(a, sizeof(void *) * h->nrecs);
  swimlane__host_capture__init(hc);
  hc->status = (char *)h->status;
  hc->error = (char *)(h->error ? h->error : "");
  hc->expected_records = h->expected;
  hc->recorded_records = h->recorded;
  hc->pool_records = h->pool;
  hc->dropped_records = h->dropped;
  md->host_capture = hc;
  for (size_t i = 0; i < h->nrecs; i++) {
    swimlane__host_orch_phase__init(&r[i]);
    r[i].submit_idx = h->recs[i].submit_idx;
    r[i].task_id = h->recs[i].task_id;
    r[i].start_host_ns = h->recs[i].start_ns;
    r[i].end_host_ns = h->recs[i].end_ns;
    th->records[th->n_records++] = &r[i];
  }
  cap->host_orchestrator_phases[cap->n_host_orchestrator_phases++] = th;
  for (size_t i = 0; i < h->nuploads; i++) {
    swimlane__host_device_upload__init(&u[i]);
    u[i].phase = (char *)h->uploads[i].phase;
    u[i].start_host_ns = h->uploads[i].start_ns;
    u[i].end_host_ns = h->uploads[i].end_ns;
    u[i].detail = h->uploads[i].bytes;
    cap->host_device_uploads[cap->n_host_device_uploads++] = &u[i];
  }
}

/* sl_collector_set_dispatch_clock's facts (L3 rank captures) as the Metadata fields the JSON
** also carries; its two anchors are the clock_anchors unless the host facts gave them. */
static void fill_dispatch_clock(const sl_dispatch_clock *d, arena *a, Swimlane__Metadata *md) {
  Swimlane__DeviceWall *w = arena_alloc(a, sizeof *w);
  swimlane__device_wall__init(w);
  w->open_cycles = d->open_cycles;
  w->sched_start_cycles = d->sched_start_cycles;
  w->sched_end_cycles = d->sched_end_cycles;
  w->close_cycles = d->close_cycles;
  md->host_clock_domain_id = (char *)d->domain;
  md->device_wall = w;
  if (md->clock_anchors) return;
  const sl_coll_anchor v[2] = {
      {"pre_host_orchestration", 0, (uint64_t)d->pre.before_ns, d->pre.cycles, (uint64_t)d->pre.after_ns},
      {"post_device_execution", 0, (uint64_t)d->post.before_ns, d->post.cycles, (uint64_t)d->post.after_ns},
  };
  md->clock_anchors = anchors_msg(v, 2, 1, a);
}

/* metadata.task_timing_slots, as the JSON export writes them. */
static void fill_task_slots(const sl_collector *c, arena *a, Swimlane__Metadata *md) {
  if (!c->nslots) return;
  Swimlane__TaskTimingSlot *s = arena_alloc(a, sizeof *s * c->nslots);
  md->task_timing_slots = arena_alloc(a, sizeof(void *) * c->nslots);
  for (size_t i = 0; i < c->nslots; i++) {
    swimlane__task_timing_slot__init(&s[i]);
    s[i].slot = c->slots[i].slot;
    s[i].dispatch_cycles = c->slots[i].dispatch_cycles;
    s[i].finish_cycles = c->slots[i].finish_cycles;
    md->task_timing_slots[md->n_task_timing_slots++] = &s[i];
  }
}

/* protobuf-c appends packed bytes through this; errors surface at commit. */
typedef struct file_sink {
  ProtobufCBuffer base;
  FILE *fp;
} file_sink;

static void sink_append(ProtobufCBuffer *b, size_t len, const uint8_t *data) {
  file_sink *s = (file_sink *)b;
  fwrite(data, 1, len, s->fp);
}

/* metadata.capture: the same loss accounting the JSON export writes. */
static Swimlane__CaptureHealth *capture_health(sl_collector *c, arena *a, int truncated) {
  sl_coll_pool_row rows[SL_BUF_KIND_COUNT + SL_COLL_HOST_POOLS];
  size_t n = sl_coll_pool_rows(c, rows);
  Swimlane__CaptureHealth *h = arena_alloc(a, sizeof *h);
  Swimlane__PoolAccount *pa = arena_alloc(a, sizeof *pa * n);
  Swimlane__PoolAccount **pp = arena_alloc(a, sizeof *pp * n);
  swimlane__capture_health__init(h);
  h->truncated = truncated;
  h->balanced = c->balanced;
  h->pools = pp;
  h->n_pools = n;
  for (size_t j = 0; j < n; j++) {
    const sl_pool_account *acc = &rows[j].a;
    swimlane__pool_account__init(&pa[j]);
    pa[j].name = (char *)rows[j].name;
    pa[j].total = acc->total;
    pa[j].collected = acc->collected;
    pa[j].dropped = acc->dropped;
    pa[j].unflushed = acc->unflushed;
    pp[j] = &pa[j];
  }
  return h;
}

int sl_collector_export_pb(sl_collector *c, const char *path) {
  if (!c) return -1;
  if (!c->dp) return 0;
  if (!c->reconciled && sl_collector_reconcile(c) < 0) return -1;
  unsigned level = c->cfg.level;
  int truncated = atomic_load(&c->truncated);
  arena a = {0};
  Swimlane__Capture cap;
  Swimlane__Metadata md;
  swimlane__capture__init(&cap);
  swimlane__metadata__init(&md);
  cap.schema_fingerprint = (char *)SL_SCHEMA_FINGERPRINT;
  cap.schema_layout = (char *)SL_SCHEMA_LAYOUT;
  cap.chip_swimlane_level = level;
  cap.metadata = &md;
  md.clock_freq_hz = c->plat->clock_freq_hz;
  md.num_cores = (uint32_t)c->cfg.num_cores;
  md.platform = (char *)(c->cfg.platform_name ? c->cfg.platform_name : c->plat->name);
  md.runtime = c->runtime;
  md.task_producer = (char *)sl_coll_task_producer(c);
  md.transport = (char *)sl_collector_transport(c);
  md.core_types = arena_alloc(&a, sizeof(char *) * (size_t)c->cfg.num_cores);
  md.n_core_types = (size_t)c->cfg.num_cores;
  for (int i = 0; i < c->cfg.num_cores; i++)
    md.core_types[i] = c->core_types[i] == SL_CORE_AIC ? (char *)"aic" : (char *)"aiv";
  if (level >= SL_MIN_LEVEL_SCHED_PHASE && c->core_to_thread) {
    md.core_to_thread = c->core_to_thread;
    md.n_core_to_thread = (size_t)c->cfg.num_cores;
  }
  md.capture = capture_health(c, &a, truncated);
  fill_task_streams(c, &a, &cap, level, truncated);
  if (c->dclock) fill_dispatch_clock(c->dclock, &a, &md);
  if (level >= SL_MIN_LEVEL_LIFECYCLE) fill_lifecycle(c, &a, &cap);
  if (level >= SL_MIN_LEVEL_SCHED_PHASE) fill_sched_streams(c, &a, &cap, truncated);
  if (level >= SL_MIN_LEVEL_ORCH_PHASE) fill_orch(c, &a, &cap, truncated);
  if (c->has_host) fill_host(c, &a, &cap, &md);
  fill_task_slots(c, &a, &md);
  sl_outfile of;
  if (sl_outfile_open(&of, path) != 0) {
    arena_free(&a);
    return -1;
  }
  file_sink sink = {{sink_append}, of.fp};
  swimlane__capture__pack_to_buffer(&cap, &sink.base);
  arena_free(&a);
  return sl_outfile_commit(&of);
}
