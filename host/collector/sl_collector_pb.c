/*
** sl_collector_pb.c — the same capture as chip_swimlane_records.pb, a
** swimlane.Capture message (generated/swimlane_capture.proto) filled through
** the generated struct <-> message glue and streamed into an all-or-nothing
** file. Level gating matches the JSON. proto3 has no null: a scheduler
** stream's physical_core_id is -1 where the JSON says null.
*/
#include "sl_base.h"
#include "sl_collector_internal.h"
#include "sl_fingerprint.h"
#include "sl_platforms.h"
#include "sl_proto_glue.h"

#include <stdlib.h>
#include <string.h>

/* Everything allocated for one message tree, freed in one go. */
typedef struct arena {
  void **ptrs;
  size_t n, cap;
  int failed;
} arena;

static void *arena_alloc(arena *a, size_t bytes) {
  if (a->failed) return NULL;
  if (a->n == a->cap) {
    size_t cap = a->cap ? a->cap * 2 : 64;
    void **p = realloc(a->ptrs, cap * sizeof *p);
    if (!p) {
      a->failed = 1;
      return NULL;
    }
    a->ptrs = p;
    a->cap = cap;
  }
  void *m = calloc(1, bytes ? bytes : 1);
  if (!m) {
    a->failed = 1;
    return NULL;
  }
  a->ptrs[a->n++] = m;
  return m;
}

static void arena_free(arena *a) {
  for (size_t i = 0; i < a->n; i++) free(a->ptrs[i]);
  free(a->ptrs);
}

static Swimlane__StreamCapture *stream_capture(arena *a, uint64_t committed, uint64_t dropped, int truncated) {
  Swimlane__StreamCapture *sc = arena_alloc(a, sizeof *sc);
  if (!sc) return NULL;
  swimlane__stream_capture__init(sc);
  sc->committed = committed;
  sc->dropped = dropped;
  sc->truncated = truncated || dropped != 0;
  return sc;
}

static uint32_t head_dropped(const sl_collector *c, unsigned kind, int i) {
  return sl_ld_acq32(&c->dp->pools[kind][i].head.dropped_record_count);
}

static int fill_task_streams(sl_collector *c, arena *a, Swimlane__Capture *cap, unsigned level, int truncated) {
  int n = c->cfg.num_cores;
  cap->aicore_tasks = arena_alloc(a, sizeof(void *) * (size_t)n);
  if (level >= SL_MIN_LEVEL_AICPU_TASK) cap->scheduler_tasks = arena_alloc(a, sizeof(void *) * (size_t)n);
  if (a->failed) return -1;
  for (int core = 0; core < n; core++) {
    sl_coll_view v = sl_coll_merged(c, SL_BUF_AICORE_TASK, core);
    Swimlane__AicoreTaskStream *s = arena_alloc(a, sizeof *s);
    Swimlane__AicoreTaskRecord *msgs = arena_alloc(a, sizeof *msgs * v.n);
    Swimlane__AicoreTaskRecord **ptrs = arena_alloc(a, sizeof *ptrs * v.n);
    if (a->failed) {
      sl_coll_view_free(&v);
      return -1;
    }
    swimlane__aicore_task_stream__init(s);
    s->core_id = (uint32_t)core;
    s->capture = stream_capture(a, v.n, head_dropped(c, SL_BUF_AICORE_TASK, core), truncated);
    for (size_t i = 0; i < v.n; i++) {
      sl_aicore_task_record_to_pb((const sl_aicore_task_record *)v.data + i, &msgs[i]);
      ptrs[i] = &msgs[i];
    }
    s->n_records = v.n;
    s->records = ptrs;
    cap->aicore_tasks[cap->n_aicore_tasks++] = s;
    sl_coll_view_free(&v);
    if (level < SL_MIN_LEVEL_AICPU_TASK) continue;

    v = sl_coll_merged(c, SL_BUF_AICPU_TASK, core);
    Swimlane__AicpuTaskStream *t = arena_alloc(a, sizeof *t);
    Swimlane__AicpuTaskRecord *tm = arena_alloc(a, sizeof *tm * v.n);
    Swimlane__AicpuTaskRecord **tp = arena_alloc(a, sizeof *tp * v.n);
    if (a->failed) {
      sl_coll_view_free(&v);
      return -1;
    }
    swimlane__aicpu_task_stream__init(t);
    t->core_id = (uint32_t)core;
    t->capture = stream_capture(a, v.n, head_dropped(c, SL_BUF_AICPU_TASK, core), truncated);
    for (size_t i = 0; i < v.n; i++) {
      sl_aicpu_task_record_to_pb((const sl_aicpu_task_record *)v.data + i, &tm[i]);
      tp[i] = &tm[i];
    }
    t->n_records = v.n;
    t->records = tp;
    cap->scheduler_tasks[cap->n_scheduler_tasks++] = t;
    sl_coll_view_free(&v);
  }
  return a->failed ? -1 : 0;
}

static int fill_sched_streams(sl_collector *c, arena *a, Swimlane__Capture *cap, int truncated) {
  int n = c->cfg.num_aicpu_threads;
  cap->scheduler_records = arena_alloc(a, sizeof(void *) * (size_t)n);
  if (a->failed) return -1;
  for (int t = 0; t < n; t++) {
    if (!sl_ld_acq32(&c->dp->pools[SL_BUF_SCHED_PHASE][t].head.total_record_count)) continue;
    sl_coll_view v = sl_coll_merged(c, SL_BUF_SCHED_PHASE, t);
    Swimlane__SchedPhaseStream *s = arena_alloc(a, sizeof *s);
    Swimlane__SchedPhaseRecord *msgs = arena_alloc(a, sizeof *msgs * v.n);
    Swimlane__SchedPhaseRecord **ptrs = arena_alloc(a, sizeof *ptrs * v.n);
    if (a->failed) {
      sl_coll_view_free(&v);
      return -1;
    }
    swimlane__sched_phase_stream__init(s);
    s->scheduler_id = (uint32_t)t;
    s->worker_id = (uint32_t)t;
    s->platform = c->platform;
    s->runtime = c->runtime;
    s->producer = "aicpu";
    s->core_type = "aicpu";
    s->physical_core_id = -1;
    s->capture = stream_capture(a, v.n, head_dropped(c, SL_BUF_SCHED_PHASE, t), truncated);
    for (size_t i = 0; i < v.n; i++) {
      sl_sched_phase_record_to_pb((const sl_sched_phase_record *)v.data + i, &msgs[i]);
      ptrs[i] = &msgs[i];
    }
    s->n_records = v.n;
    s->records = ptrs;
    cap->scheduler_records[cap->n_scheduler_records++] = s;
    sl_coll_view_free(&v);
  }
  return a->failed ? -1 : 0;
}

static int fill_orch(sl_collector *c, arena *a, Swimlane__Capture *cap, int truncated) {
  sl_coll_view v = sl_coll_merged(c, SL_BUF_ORCH_PHASE, 0);
  Swimlane__OrchPhaseStream *s = arena_alloc(a, sizeof *s);
  Swimlane__OrchPhaseRecord *msgs = arena_alloc(a, sizeof *msgs * v.n);
  Swimlane__OrchPhaseRecord **ptrs = arena_alloc(a, sizeof *ptrs * v.n);
  cap->orchestrator_phases = arena_alloc(a, sizeof(void *));
  if (a->failed) {
    sl_coll_view_free(&v);
    return -1;
  }
  swimlane__orch_phase_stream__init(s);
  s->thread_id = (uint32_t)c->dp->orch_thread;
  s->capture = stream_capture(a, v.n, head_dropped(c, SL_BUF_ORCH_PHASE, 0), truncated);
  for (size_t i = 0; i < v.n; i++) {
    sl_orch_phase_record_to_pb((const sl_orch_phase_record *)v.data + i, &msgs[i]);
    ptrs[i] = &msgs[i];
  }
  s->n_records = v.n;
  s->records = ptrs;
  cap->orchestrator_phases[0] = s;
  cap->n_orchestrator_phases = 1;
  cap->num_orch_phase_threads = 1;
  sl_coll_view_free(&v);
  return 0;
}

static int fill_lifecycle(sl_collector *c, arena *a, Swimlane__Capture *cap) {
  int n = c->cfg.num_aicpu_threads;
  cap->aicpu_lifecycle_records = arena_alloc(a, sizeof(void *) * (size_t)n);
  Swimlane__AicpuLifecycleRecord *msgs = arena_alloc(a, sizeof *msgs * (size_t)n);
  if (a->failed) return -1;
  for (int t = 0; t < n; t++) {
    if (!sl_ld_acq32(&c->dp->lifecycle_set[t])) continue;
    sl_aicpu_lifecycle_record_to_pb(&c->dp->lifecycle[t], &msgs[t]);
    cap->aicpu_lifecycle_records[cap->n_aicpu_lifecycle_records++] = &msgs[t];
  }
  return 0;
}

/* sl_collector_set_dispatch_clock's facts as the Metadata fields the JSON also carries. */
static int fill_dispatch_clock(const sl_dispatch_clock *d, arena *a, Swimlane__Metadata *md) {
  Swimlane__ClockAnchorSample **v = arena_alloc(a, 2 * sizeof *v);
  Swimlane__DeviceWall *w = arena_alloc(a, sizeof *w);
  const sl_clock_anchor *src[2] = {&d->pre, &d->post};
  static const char *const pos[2] = {"pre_host_orchestration", "post_device_execution"};
  for (int i = 0; v && i < 2; i++) {
    Swimlane__ClockAnchorSample *s = v[i] = arena_alloc(a, sizeof *s);
    if (!s) return -1;
    swimlane__clock_anchor_sample__init(s);
    s->position = (char *)pos[i];
    s->host_before_ns = src[i]->before_ns;
    s->device_cycles = src[i]->cycles;
    s->host_after_ns = src[i]->after_ns;
  }
  if (!v || !w) return -1;
  swimlane__device_wall__init(w);
  w->open_cycles = d->open_cycles;
  w->sched_start_cycles = d->sched_start_cycles;
  w->sched_end_cycles = d->sched_end_cycles;
  w->close_cycles = d->close_cycles;
  md->host_clock_domain_id = (char *)d->domain;
  md->clock_anchors = v;
  md->n_clock_anchors = 2;
  md->device_wall = w;
  return 0;
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
  cap.schema_fingerprint = SL_SCHEMA_FINGERPRINT;
  cap.schema_layout = SL_SCHEMA_LAYOUT;
  cap.chip_swimlane_level = level;
  cap.metadata = &md;
  md.clock_freq_hz = c->plat->clock_freq_hz;
  md.num_cores = (uint32_t)c->cfg.num_cores;
  md.platform = (char *)(c->cfg.platform_name ? c->cfg.platform_name : c->plat->name);
  md.runtime = c->runtime;
  md.task_producer = "aicpu";
  md.core_types = arena_alloc(&a, sizeof(char *) * (size_t)c->cfg.num_cores);
  if (md.core_types) {
    md.n_core_types = (size_t)c->cfg.num_cores;
    for (int i = 0; i < c->cfg.num_cores; i++) md.core_types[i] = c->core_types[i] == SL_CORE_AIC ? "aic" : "aiv";
  }
  if (level >= SL_MIN_LEVEL_SCHED_PHASE && c->core_to_thread) {
    md.core_to_thread = c->core_to_thread;
    md.n_core_to_thread = (size_t)c->cfg.num_cores;
  }
  int rc = a.failed ? -1 : fill_task_streams(c, &a, &cap, level, truncated);
  if (rc == 0 && c->dclock) rc = fill_dispatch_clock(c->dclock, &a, &md);
  if (rc == 0 && level >= SL_MIN_LEVEL_LIFECYCLE) rc = fill_lifecycle(c, &a, &cap);
  if (rc == 0 && level >= SL_MIN_LEVEL_SCHED_PHASE) rc = fill_sched_streams(c, &a, &cap, truncated);
  if (rc == 0 && level >= SL_MIN_LEVEL_ORCH_PHASE) rc = fill_orch(c, &a, &cap, truncated);
  if (rc != 0) {
    sl_error(path, "out of memory building the protobuf capture");
    arena_free(&a);
    return -1;
  }
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
