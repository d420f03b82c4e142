/*
** reader_pb.c — the protobuf capture (chip_swimlane_records.pb, schema
** generated/swimlane_capture.proto) into the same raw rows the JSON parser
** fills, so both formats share one join.
*/
#include <stdio.h>
#include <string.h>

#include "reader_raw.h"
#include "reader_util.h"
#include "sl_base.h"

#include "sl_phases.h"
#include "swimlane_capture.pb-c.h"

static sl_str intern_opt(sl_capture *c, const char *s) {
  if (!s || !*s) return SL_STR_NONE; /* proto3: empty string = not set */
  return sl_intern_add(&c->strings, s, strlen(s));
}

/* Field number `pb` of a message as 64 bits (signed types sign-extended), found through the
** message's descriptor: -1 when it has no such scalar integer field. */
static int pb_get(const ProtobufCMessage *m, uint32_t pb, uint64_t *out) {
  const ProtobufCFieldDescriptor *f = protobuf_c_message_descriptor_get_field(m->descriptor, pb);
  if (!f || f->label == PROTOBUF_C_LABEL_REPEATED) return -1;
  const void *at = (const char *)m + f->offset;
  switch (f->type) {
  case PROTOBUF_C_TYPE_UINT32: case PROTOBUF_C_TYPE_FIXED32: *out = *(const uint32_t *)at; return 0;
  case PROTOBUF_C_TYPE_INT32: case PROTOBUF_C_TYPE_SINT32: case PROTOBUF_C_TYPE_SFIXED32:
    *out = (uint64_t)(int64_t)*(const int32_t *)at; return 0;
  case PROTOBUF_C_TYPE_UINT64: case PROTOBUF_C_TYPE_FIXED64: *out = *(const uint64_t *)at; return 0;
  case PROTOBUF_C_TYPE_INT64: case PROTOBUF_C_TYPE_SINT64: case PROTOBUF_C_TYPE_SFIXED64:
    *out = (uint64_t)*(const int64_t *)at; return 0;
  default: return -1;
  }
}

/* A record message decoded through the generated read table of its kind: v[i] is field i
** (0 when the message lacks it). */
static void pb_fields(enum sl_read_kind kind, const ProtobufCMessage *m, uint64_t *v) {
  const sl_read_record *rr = &sl_read_records[kind];
  for (uint32_t i = 0; i < rr->n_fields; i++)
    if (pb_get(m, rr->fields[i].pb, &v[i]) != 0) v[i] = 0;
}

/* The name a field number of message `msg` has in the capture's own layout text
** ("<Msg>.<path>=<type>@<pb>;", Capture.schema_layout), "field_<pb>" when it is not there. */
static size_t layout_name(sl_capture *c, const char *msg, uint32_t pb, char *out, size_t cap) {
  const char *lay = sl_str_get(c, c->schema_layout);
  size_t ml = strlen(msg);
  char at[16];
  int al = snprintf(at, sizeof at, "@%u;", (unsigned)pb);
  for (const char *e = lay; e && *e; e = strchr(e, ';') ? strchr(e, ';') + 1 : NULL) {
    const char *end = strchr(e, ';');
    if (!end || strncmp(e, msg, ml) || e[ml] != '.') continue;
    const char *eq = memchr(e, '=', (size_t)(end - e));
    if (!eq || (size_t)(end + 1 - eq) < (size_t)al || strncmp(end + 1 - al, at, (size_t)al)) continue;
    const char *name = e + ml + 1;
    for (const char *q = name; q < eq; q++)
      if (*q == '.') name = q + 1; /* a union member: its leaf name */
    int n = snprintf(out, cap, "%.*s", (int)(eq - name), name);
    return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
  }
  int n = snprintf(out, cap, "field_%u", (unsigned)pb);
  return n < 0 ? 0 : (size_t)n;
}

/* The record's fields the reader has no meaning for (of its union variant, when it has one),
** and varint fields this build's schema lacks (a newer capture), into the record's extras. */
static void pb_extras(sl_capture *c, enum sl_read_kind kind, const ProtobufCMessage *m, const uint64_t *v,
                      int variant, sl_extra_span *x) {
  const sl_read_record *rr = &sl_read_records[kind];
  for (uint32_t i = 0; i < rr->n_fields; i++) {
    const sl_read_field *f = &rr->fields[i];
    if (!sl_read_is_extra(kind, (int)i) || (f->variant >= 0 && f->variant != variant)) continue;
    sl_extra_add(c, x, f->name, strlen(f->name), (int64_t)v[i]);
  }
  for (unsigned k = 0; k < m->n_unknown_fields; k++) {
    const ProtobufCMessageUnknownField *u = &m->unknown_fields[k];
    if (u->wire_type != PROTOBUF_C_WIRE_TYPE_VARINT) continue;
    uint64_t val = 0;
    for (size_t b = 0; b < u->len && b < 10; b++) val |= (uint64_t)(u->data[b] & 0x7f) << (7 * b);
    char key[96];
    size_t n = layout_name(c, rr->proto, u->tag, key, sizeof key);
    sl_extra_add(c, x, key, n, (int64_t)val);
  }
}

static void pb_metadata(sl_raw *raw, sl_capture *c, const Swimlane__Metadata *md) {
  raw->has_clock = 1;
  raw->clock = md->clock_freq_hz > INT64_MAX ? INT64_MAX : (int64_t)md->clock_freq_hz;
  c->num_cores = md->num_cores;
  raw->has_core_types = md->n_core_types > 0;
  c->n_core_types = md->n_core_types;
  c->core_types = sl_mem_calloc(md->n_core_types, sizeof *c->core_types);
  c->n_core_to_thread = md->n_core_to_thread;
  c->core_to_thread = sl_mem_calloc(md->n_core_to_thread, sizeof *c->core_to_thread);
  for (size_t i = 0; i < md->n_core_types; i++)
    if ((c->core_types[i] = intern_opt(c, md->core_types[i])) == SL_STR_NONE)
      c->core_types[i] = sl_intern_add(&c->strings, "", 0);
  for (size_t i = 0; i < md->n_core_to_thread; i++) c->core_to_thread[i] = md->core_to_thread[i];
  c->task_producer = intern_opt(c, md->task_producer);
  c->platform = intern_opt(c, md->platform);
  if (md->capture) {
    c->health.present = 1;
    c->health.truncated = md->capture->truncated;
    for (size_t i = 0; i < md->capture->n_pools; i++) {
      const Swimlane__PoolAccount *pa = md->capture->pools[i];
      sl_health_add_pool(c, pa->name, pa->total, pa->collected, pa->dropped);
    }
  }
  for (size_t i = 0; i < md->n_task_timing_slots; i++) {
    const Swimlane__TaskTimingSlot *s = md->task_timing_slots[i];
    sl_capture_add_task_slot(c, s->slot, s->dispatch_cycles, s->finish_cycles);
  }
}

/* A uint64 as the JSON reader's signed sample field; 0 (invalid) when it does not fit. */
static int64_t pb_i64(uint64_t v) { return v > INT64_MAX ? 0 : (int64_t)v; }

/* metadata.clock_anchors into the raw samples, judged as the JSON reader judges them. */
static void pb_anchors(sl_raw *raw, const Swimlane__ClockAnchors *ca) {
  raw->has_anchors = raw->has_samples_list = 1;
  const char *du = ca->device_timestamp_unit, *ru = ca->raw_device_timestamp_unit;
  raw->dev_unit_bad = du && *du && strcmp(du, "syscnt_cycles");
  raw->raw_unit = !ru || !*ru || !strcmp(ru, "syscnt_cycles") ? 0 : !strcmp(ru, "device_uptime_us") ? 1 : -1;
  for (size_t i = 0; i < ca->n_samples; i++) {
    const Swimlane__ClockAnchorSample *s = ca->samples[i];
    sl_clock_sample *sm = sl_array_push(raw->samples, raw->n_samples, raw->cap_samples);
    const char *pos = s->position ? s->position : "";
    sm->position = !strcmp(pos, "pre_host_orchestration")  ? SL_ANCHOR_PRE
                   : !strcmp(pos, "post_device_execution") ? SL_ANCHOR_POST : SL_ANCHOR_OTHER;
    sm->idx = s->sample_idx;
    sm->before_ns = pb_i64(s->host_before_ns);
    sm->cycles = pb_i64(s->device_cycles);
    sm->after_ns = pb_i64(s->host_after_ns);
    int error = s->error && *s->error && strcmp(s->error, "0");
    sm->valid = !error && sm->before_ns > 0 && sm->cycles > 0 && sm->after_ns >= sm->before_ns;
  }
}

/* Host mode: the metadata keys, host_capture and the two host sections, into the same raw
** rows the JSON reader fills (reader_host.c validates and aligns them after the join). */
static void pb_host(sl_raw *raw, sl_capture *c, const Swimlane__Capture *m) {
  const Swimlane__Metadata *md = m->metadata;
  if (md && md->clock_anchors) pb_anchors(raw, md->clock_anchors);
  int host = (md && md->orchestrator_source && !strcmp(md->orchestrator_source, "host")) ||
             m->n_host_orchestrator_phases || (md && md->host_capture);
  if (!host) return;
  raw->host_mode = 1;
  if (md) {
    c->timeline_relation = intern_opt(c, md->timeline_relation);
    raw->has_origin = md->host_orchestration_origin_ns != 0;
    raw->origin = pb_i64(md->host_orchestration_origin_ns);
    raw->has_quant = 1;
    raw->quant = md->host_timestamp_quantization_ns;
  }
  if (md && md->host_capture) {
    const Swimlane__HostCapture *h = md->host_capture;
    sl_host_capture *hc = &c->host_capture;
    hc->present = 1;
    hc->seen = SL_HC_ALL; /* the message has every field */
    hc->status = intern_opt(c, h->status);
    hc->error = intern_opt(c, h->error);
    hc->has_expected = hc->has_recorded = hc->has_pool = hc->has_dropped = 1;
    hc->expected = pb_i64(h->expected_records);
    hc->recorded = pb_i64(h->recorded_records);
    hc->pool = pb_i64(h->pool_records);
    hc->dropped = pb_i64(h->dropped_records);
  }
  for (size_t t = 0; t < m->n_host_orchestrator_phases; t++) {
    const Swimlane__HostOrchThread *th = m->host_orchestrator_phases[t];
    sl_orch_thread *ot = sl_array_push(raw->host_threads, raw->n_host_threads, raw->cap_host_threads);
    ot->first = raw->n_host;
    for (size_t i = 0; i < th->n_records; i++) {
      const Swimlane__HostOrchPhase *r = th->records[i];
      sl_orch_rec *o = sl_array_push(raw->host_orch, raw->n_host, raw->cap_host);
      memset(o, 0, sizeof *o);
      o->task_id = r->task_id;
      o->task_id_signed = (int64_t)r->task_id;
      o->submit_idx = r->submit_idx;
      o->flags = SL_ORCH_HAS_TASK_ID | SL_ORCH_HAS_SUBMIT_IDX;
      raw->host_ns = sl_array_grow(raw->host_ns, &raw->cap_host_ns, 2 * raw->n_host, sizeof *raw->host_ns);
      raw->host_ns[2 * (raw->n_host - 1)] = r->start_host_ns;
      raw->host_ns[2 * (raw->n_host - 1) + 1] = r->end_host_ns;
    }
    raw->host_threads[raw->n_host_threads - 1].count = raw->n_host - ot->first;
  }
  for (size_t i = 0; i < m->n_host_device_uploads; i++) {
    const Swimlane__HostDeviceUpload *r = m->host_device_uploads[i];
    sl_upload_rec *u = sl_array_push(c->uploads, c->n_uploads, raw->cap_uploads);
    memset(u, 0, sizeof *u);
    u->phase = intern_opt(c, r->phase);
    u->bytes = r->detail;
    raw->upload_ns = sl_array_grow(raw->upload_ns, &raw->cap_upload_ns, 2 * c->n_uploads, sizeof *raw->upload_ns);
    raw->upload_ns[2 * (c->n_uploads - 1)] = r->start_host_ns;
    raw->upload_ns[2 * (c->n_uploads - 1) + 1] = r->end_host_ns;
  }
}

static void pb_aicore(sl_raw *raw, sl_capture *c, const Swimlane__Capture *m) {
  /* AICore rows: stream by stream */
  for (size_t s = 0; s < m->n_aicore_tasks; s++) {
    const Swimlane__AicoreTaskStream *st = m->aicore_tasks[s];
    for (size_t i = 0; i < st->n_records; i++) {
      uint64_t v[SL_RF_AICORE_TASK_RECORD_COUNT];
      pb_fields(SL_READ_AICORE_TASK_RECORD, &st->records[i]->base, v);
      sl_raw_aicore *a = sl_array_push(raw->aicore, raw->n_aicore, raw->cap_aicore);
      memset(a, 0, sizeof *a);
      a->core = st->core_id;
      a->token = v[SL_RF_AICORE_TASK_RECORD_TASK_TOKEN_RAW];
      a->reg = v[SL_RF_AICORE_TASK_RECORD_REG_TASK_ID];
      a->start = v[SL_RF_AICORE_TASK_RECORD_START_TIME];
      a->end = v[SL_RF_AICORE_TASK_RECORD_END_TIME];
      a->r2s = v[SL_RF_AICORE_TASK_RECORD_RECEIVE_TO_START_CYCLES];
      a->ncols = sl_read_records[SL_READ_AICORE_TASK_RECORD].n_columns; /* every column */
      a->row = raw->n_aicore - 1;
      pb_extras(c, SL_READ_AICORE_TASK_RECORD, &st->records[i]->base, v, -1, &a->extra);
    }
  }
}

static void pb_sched_tasks(sl_raw *raw, sl_capture *c, const Swimlane__Capture *m) {
  if (m->n_scheduler_tasks) raw->sched_tasks_key = "scheduler_tasks";
  for (size_t s = 0; s < m->n_scheduler_tasks; s++) {
    const Swimlane__AicpuTaskStream *st = m->scheduler_tasks[s];
    for (size_t i = 0; i < st->n_records; i++) {
      uint64_t v[SL_RF_AICPU_TASK_RECORD_COUNT];
      pb_fields(SL_READ_AICPU_TASK_RECORD, &st->records[i]->base, v);
      sl_raw_sched_task *t = sl_array_push(raw->stask, raw->n_stask, raw->cap_stask);
      memset(t, 0, sizeof *t);
      t->core = st->core_id;
      t->reg = v[SL_RF_AICPU_TASK_RECORD_REG_TASK_ID];
      t->dispatch = v[SL_RF_AICPU_TASK_RECORD_DISPATCH_TIME];
      t->finish = v[SL_RF_AICPU_TASK_RECORD_FINISH_TIME];
      t->member = v[SL_RF_AICPU_TASK_RECORD_MEMBER];
      t->row = raw->n_stask - 1;
      pb_extras(c, SL_READ_AICPU_TASK_RECORD, &st->records[i]->base, v, -1, &t->extra);
    }
  }
}

#define PH(x) v[SL_RF_SCHED_PHASE_RECORD_##x]
/* One scheduler phase record of stream st, appended to c->phases. */
static void pb_phase(sl_raw *raw, sl_capture *c, const Swimlane__SchedPhaseStream *st,
                    const Swimlane__SchedPhaseRecord *r) {
  uint64_t v[SL_RF_SCHED_PHASE_RECORD_COUNT];
  pb_fields(SL_READ_SCHED_PHASE_RECORD, &r->base, v);
  uint32_t kind = (uint32_t)PH(KIND);
  sl_phase_in in = {0};
  sl_phase_rec *p = &in.r;
  const sl_phase_info *pi = sl_phase_by_id(kind);
  if (pi) {
    sl_phase_classify(c, p, pi->name, strlen(pi->name));
  } else {
    char buf[32];
    int n = snprintf(buf, sizeof buf, "kind_%u", kind);
    sl_phase_classify(c, p, buf, (size_t)n);
    if (sl_phase_id_is_retired(kind)) /* as a retired name in JSON: kept, never drawn, no warning */
      p->flags = (p->flags & ~(uint32_t)SL_PH_UNKNOWN) | SL_PH_RETIRED;
  }
  in.v[SL_PV_LOOP_ITER] = (int64_t)PH(LOOP_ITER);
  in.v[SL_PV_TASKS_PROCESSED] = (int64_t)PH(TASKS_PROCESSED);
  p->flags |= SL_PH_HAS_LOOP_ITER | SL_PH_HAS_TASKS_PROCESSED | SL_PH_HAS_SHARED;
#ifdef SL_PRODUCER_AICORE
  /* an A5 HBG AICore Scheduler stream reads some unions as task ids */
  enum sl_phase_variant var = sl_phase_variant_for(
      kind, st->producer && !strcmp(st->producer, "aicore") ? SL_PRODUCER_AICORE : SL_PRODUCER_AICPU);
#else
  enum sl_phase_variant var = sl_phase_variant_of(kind);
#endif
  pb_extras(c, SL_READ_SCHED_PHASE_RECORD, &r->base, v, (int)var, &in.extra);
  if (var == SL_PHASE_VARIANT_DISPATCH) {
    in.v[SL_PV_POP_HIT] = (int64_t)PH(POP_HIT);
    in.v[SL_PV_POP_MISS] = (int64_t)PH(POP_MISS);
    p->flags |= SL_PH_HAS_POP;
  } else if (var == SL_PHASE_VARIANT_TASK) {
    p->task_id = PH(RING_ID) << 32 | PH(LOCAL_ID);
    p->flags |= SL_PH_HAS_TASK_ID;
  }
  /* the three shape depths are consecutive fields of the table (start, then end) */
  for (int k = 0; k < 3; k++) {
    in.v[SL_PV_SHARED_AT_START + k] = (int64_t)v[SL_RF_SCHED_PHASE_RECORD_SHARED_DEPTH_AT_START_AIC + k];
    in.v[SL_PV_SHARED_AT_END + k] = (int64_t)v[SL_RF_SCHED_PHASE_RECORD_SHARED_DEPTH_AT_END_AIC + k];
  }
  sl_phase_push(c, &raw->cap_phases, &in);
  sl_raw_put_cycles(&c->phases[c->n_phases - 1].start_us, PH(START_TIME));
  sl_raw_put_cycles(&c->phases[c->n_phases - 1].end_us, PH(END_TIME));
}
#undef PH

/* 0 ok, -1 bad data (reported) */
static int pb_sched_streams(sl_raw *raw, sl_capture *c, const Swimlane__Capture *m) {
  const char *name = raw->name;
  /* scheduler streams, laid out by scheduler_id */
  if (m->n_scheduler_records) {
    c->has_sched_phases = 1;
    uint32_t max = 0;
    for (size_t s = 0; s < m->n_scheduler_records; s++)
      if (m->scheduler_records[s]->scheduler_id > max) max = m->scheduler_records[s]->scheduler_id;
    if (max > 65535) {
      (void)sl_err_set(raw->err, name, "scheduler_records: scheduler_id %u out of range", max);
      return -1;
    }
    c->n_streams = (size_t)max + 1;
    c->streams = sl_mem_calloc(c->n_streams, sizeof *c->streams);
    for (size_t i = 0; i < c->n_streams; i++) {
      c->streams[i].physical_core_id = -1;
      c->streams[i].scheduler_id = c->streams[i].worker_id = (int64_t)i;
    }
    for (size_t s = 0; s < m->n_scheduler_records; s++) {
      const Swimlane__SchedPhaseStream *st = m->scheduler_records[s];
      sl_sched_stream *out = &c->streams[st->scheduler_id];
      if (out->has_meta) {
        (void)sl_err_set(raw->err, name, "scheduler_records[%zu]: duplicate scheduler_id %u", s, st->scheduler_id);
        return -1;
      }
      out->has_meta = 1;
      out->scheduler_id = st->scheduler_id;
      out->worker_id = st->worker_id;
      out->platform = intern_opt(c, st->platform);
      out->runtime = intern_opt(c, st->runtime);
      out->producer = intern_opt(c, st->producer);
      out->core_type = intern_opt(c, st->core_type);
      out->physical_core_id = st->physical_core_id;
      if (st->capture) {
        out->has_capture = 1;
        out->committed = st->capture->committed;
        out->dropped = st->capture->dropped;
        out->truncated = st->capture->truncated;
      }
      out->first = c->n_phases;
      for (size_t i = 0; i < st->n_records; i++) pb_phase(raw, c, st, st->records[i]);
      out->count = c->n_phases - out->first;
    }
  }
  return 0;
}

/* 0 ok, -1 bad data (reported) */
static int pb_orch(sl_raw *raw, sl_capture *c, const Swimlane__Capture *m) {
  const char *name = raw->name;
  /* orchestrator threads: the JSON lists them by ordinal (the orchestrator's AICPU
  ** thread id is not its position), so streams take positions in thread_id order and
  ** num_orch_phase_threads pads with empty threads */
  size_t n_orch_threads = m->num_orch_phase_threads;
  if (m->n_orchestrator_phases > n_orch_threads) n_orch_threads = m->n_orchestrator_phases;
  if (n_orch_threads > 65536) {
    (void)sl_err_set(raw->err, name, "orchestrator_phases: %zu threads", n_orch_threads);
    return -1;
  }
  if (n_orch_threads) {
    c->orch_threads = sl_mem_calloc(n_orch_threads, sizeof *c->orch_threads);
    size_t *order = sl_mem_array(NULL, m->n_orchestrator_phases + 1, sizeof *order);
    c->n_orch_threads = n_orch_threads;
    /* stable insertion sort of stream indexes by thread_id (a handful of streams) */
    for (size_t s = 0; s < m->n_orchestrator_phases; s++) {
      size_t j = s;
      while (j > 0 && m->orchestrator_phases[order[j - 1]]->thread_id > m->orchestrator_phases[s]->thread_id) {
        order[j] = order[j - 1];
        j--;
      }
      order[j] = s;
    }
    for (size_t t = 0; t < n_orch_threads; t++) {
      c->orch_threads[t].first = c->n_orch;
      if (t < m->n_orchestrator_phases) {
        const Swimlane__OrchPhaseStream *st = m->orchestrator_phases[order[t]];
        for (size_t i = 0; i < st->n_records; i++) {
          uint64_t v[SL_RF_ORCH_PHASE_RECORD_COUNT];
          pb_fields(SL_READ_ORCH_PHASE_RECORD, &st->records[i]->base, v);
          sl_orch_rec *o = sl_array_push(c->orch, c->n_orch, raw->cap_orch);
          memset(o, 0, sizeof *o);
          o->task_id = v[SL_RF_ORCH_PHASE_RECORD_TASK_ID];
          o->task_id_signed = (int64_t)o->task_id;
          o->submit_idx = (int64_t)v[SL_RF_ORCH_PHASE_RECORD_SUBMIT_IDX];
          sl_orch_classify_id(c, o, (uint32_t)v[SL_RF_ORCH_PHASE_RECORD_KIND]);
          pb_extras(c, SL_READ_ORCH_PHASE_RECORD, &st->records[i]->base, v, -1, &o->extra);
          o->flags |= SL_ORCH_HAS_TASK_ID | SL_ORCH_HAS_SUBMIT_IDX;
          sl_raw_put_cycles(&o->start_us, v[SL_RF_ORCH_PHASE_RECORD_START_TIME]);
          sl_raw_put_cycles(&o->end_us, v[SL_RF_ORCH_PHASE_RECORD_END_TIME]);
        }
      }
      c->orch_threads[t].count = c->n_orch - c->orch_threads[t].first;
    }
    sl_mem_free(order);
  }
  return 0;
}

static void pb_lifecycle(sl_raw *raw, sl_capture *c, const Swimlane__Capture *m) {
  for (size_t i = 0; i < m->n_aicpu_lifecycle_records; i++) {
    const ProtobufCMessage *r = &m->aicpu_lifecycle_records[i]->base;
    uint64_t v[SL_RF_AICPU_LIFECYCLE_RECORD_COUNT];
    pb_fields(SL_READ_AICPU_LIFECYCLE_RECORD, r, v);
    sl_lifecycle_rec *l = sl_array_push(c->lifecycle, c->n_lifecycle, raw->cap_lc);
    memset(l, 0, sizeof *l);
    l->aicpu_thread_id = (int64_t)v[SL_RF_AICPU_LIFECYCLE_RECORD_AICPU_THREAD_ID];
    raw->lc_cycles = sl_array_grow(raw->lc_cycles, &raw->cap_lc_cycles, c->n_lifecycle, sizeof *raw->lc_cycles);
    /* the span fields, a range of the generated table (sl_capture.h SL_LC_FIELD) */
    for (int k = 0; k < SL_LC_FIELD_COUNT; k++) raw->lc_cycles[c->n_lifecycle - 1][k] = v[SL_LC_FIRST_RF + k];
    l->present = (1u << SL_LC_FIELD_COUNT) - 1;
    pb_extras(c, SL_READ_AICPU_LIFECYCLE_RECORD, r, v, -1, &l->extra);
  }
}

/* 0 ok, -1 bad data (reported) */
static int convert(sl_raw *raw, sl_capture *c, const Swimlane__Capture *m) {
  raw->has_level = 1;
  raw->level = m->chip_swimlane_level;
  raw->fingerprint = intern_opt(c, m->schema_fingerprint);
  raw->layout = intern_opt(c, m->schema_layout);
  c->schema_layout = raw->layout;
  if (m->metadata) pb_metadata(raw, c, m->metadata);
  c->schema_fingerprint = raw->fingerprint;
  pb_aicore(raw, c, m);
  pb_sched_tasks(raw, c, m);
  if (pb_sched_streams(raw, c, m) != 0 || pb_orch(raw, c, m) != 0) return -1;
  pb_lifecycle(raw, c, m);
  pb_host(raw, c, m);
  return 0;
}

int sl_parse_pb(sl_raw *raw, sl_capture *c, const unsigned char *data, size_t len) {
  Swimlane__Capture *m = swimlane__capture__unpack(NULL, len, data);
  if (!m) {
    (void)sl_err_set(raw->err, raw->name, "not a JSON capture and not a valid protobuf capture (swimlane.Capture): "
                        "truncated or corrupt data");
    return -1;
  }
  int rc = convert(raw, c, m);
  swimlane__capture__free_unpacked(m, NULL);
  return rc;
}

