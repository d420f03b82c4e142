/*
** sl_collector_json.c — chip_swimlane_records.json in its on-disk
** schema (docs/capture-format.md), streamed with fprintf (every number printed from its integer type,
** so 64-bit ids and cycle counts stay exact) into an all-or-nothing file.
**
** Sections by level: aicore_tasks (>= 1); scheduler_tasks and
** aicpu_lifecycle_records when present (>= 2); scheduler_records and
** metadata.core_to_thread (>= 3); aicpu_orchestrator_phases (4).
** metadata also carries our capture block: truncation and the reconcile result.
*/
#include "sl_base.h"
#include "sl_collector_internal.h"
#include "sl_export.h"
#include "sl_fingerprint.h"
#include "sl_phases.h"
#include "sl_platforms.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "sl_mem.h"

static void put_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
    else if (ch < 0x20) fprintf(f, "\\u%04x", ch);
    else fputc(ch, f);
  }
  fputc('"', f);
}

static const char *bool_str(int b) { return b ? "true" : "false"; }

static void put_anchor(FILE *f, const char *pos, const sl_clock_anchor *a) {
  int64_t rtt = a->after_ns - a->before_ns;
  fprintf(f, "{\"position\": \"%s\", \"sample_idx\": 0, \"host_before_ns\": %" PRId64
             ", \"raw_device_timestamp\": %" PRIu64 ", \"device_cycles\": %" PRIu64 ", \"host_after_ns\": %" PRId64
             ", \"rtt_ns\": %" PRId64 ", \"uncertainty_ns\": %" PRId64 ", \"error\": null}",
          pos, a->before_ns, a->cycles, a->cycles, a->after_ns, rtt, (rtt + 1) / 2);
}

/* sl_collector_set_dispatch_clock's members of the metadata object. A runtime that
** sampled its own anchors (host_build_graph, --clock-anchors) has written them as an
** extra member already: the metadata keeps that one clock_anchors. */
static void write_dispatch_clock(const sl_dispatch_clock *d, const char *extra, FILE *f) {
  fprintf(f, ",\n    \"host_clock_domain_id\": ");
  put_str(f, d->domain);
  if (!extra || !strstr(extra, "\"clock_anchors\"")) {
    fprintf(f, ",\n    \"clock_anchors\": {\"schema_version\": 1, \"provider\": \"simulated\", "
               "\"device_timestamp_unit\": \"syscnt_cycles\", \"raw_device_timestamp_unit\": \"syscnt_cycles\", "
               "\"samples_per_position\": 1, \"samples\": [");
    put_anchor(f, "pre_host_orchestration", &d->pre);
    fputs(", ", f);
    put_anchor(f, "post_device_execution", &d->post);
    fputs("]}", f);
  }
  fprintf(f, ",\n    \"device_wall\": {\"open_cycles\": %" PRIu64 ", \"sched_start_cycles\": %" PRIu64
             ", \"sched_end_cycles\": %" PRIu64 ", \"close_cycles\": %" PRIu64 "}",
          d->open_cycles, d->sched_start_cycles, d->sched_end_cycles, d->close_cycles);
}

/* metadata.task_timing_slots: next to the capture block, near the file's start, where
** the reader finds it without parsing the records. */
static void write_task_slots(const sl_collector *c, FILE *f) {
  if (!c->nslots) return;
  fprintf(f, ",\n    \"task_timing_slots\": [");
  for (size_t i = 0; i < c->nslots; i++)
    fprintf(f, "%s{\"slot\": %u, \"dispatch_cycles\": %" PRIu64 ", \"finish_cycles\": %" PRIu64 "}", i ? ", " : "",
            c->slots[i].slot, c->slots[i].dispatch_cycles, c->slots[i].finish_cycles);
  fputc(']', f);
}

static void write_metadata(sl_collector *c, FILE *f) {
  fprintf(f, "  \"metadata\": {\n");
  fprintf(f, "    \"clock_freq_hz\": %" PRIu64 ",\n", (uint64_t)c->plat->clock_freq_hz);
  fprintf(f, "    \"num_cores\": %d,\n", c->cfg.num_cores);
  fprintf(f, "    \"core_types\": [");
  for (int i = 0; i < c->cfg.num_cores; i++)
    fprintf(f, "%s\"%s\"", i ? ", " : "", c->core_types[i] == SL_CORE_AIC ? "aic" : "aiv");
  fprintf(f, "],\n");
  if (c->cfg.level >= SL_MIN_LEVEL_SCHED_PHASE && c->core_to_thread) {
    fprintf(f, "    \"core_to_thread\": [");
    for (int i = 0; i < c->cfg.num_cores; i++) fprintf(f, "%s%d", i ? ", " : "", (int)c->core_to_thread[i]);
    fprintf(f, "],\n");
  }
  fprintf(f, "    \"platform\": ");
  put_str(f, c->cfg.platform_name ? c->cfg.platform_name : c->plat->name);
  fprintf(f, ",\n    \"runtime\": ");
  put_str(f, c->runtime);
  fprintf(f, ",\n    \"transport\": \"%s\"", sl_collector_transport(c));
  fprintf(f, ",\n    \"schema_fingerprint\": \"%s\",\n", SL_SCHEMA_FINGERPRINT);
  fprintf(f, "    \"schema_layout\": \"%s\",\n", SL_SCHEMA_LAYOUT);
  fprintf(f, "    \"capture\": {\"truncated\": %s, \"balanced\": %s, \"pools\": {",
          bool_str(atomic_load(&c->truncated)), bool_str(c->balanced));
  sl_coll_pool_row rows[SL_BUF_KIND_COUNT + SL_COLL_HOST_POOLS];
  size_t n = sl_coll_pool_rows(c, rows);
  for (size_t j = 0; j < n; j++) {
    const sl_pool_account *a = &rows[j].a;
    fprintf(f, "%s\"%s\": {\"total\": %" PRIu64 ", \"collected\": %" PRIu64 ", \"dropped\": %" PRIu64
               ", \"unflushed\": %" PRIu64 "}",
            j ? ", " : "", rows[j].name, a->total, a->collected, a->dropped, a->unflushed);
  }
  fprintf(f, "}}");
  write_task_slots(c, f);
  if (c->dclock) write_dispatch_clock(c->dclock, c->extra_metadata, f);
  if (c->extra_metadata) fprintf(f, ",\n    %s", c->extra_metadata);
  fprintf(f, "\n  }");
}

/* The generated per-core record writers, under one signature. */
typedef void (*core_record_fn)(FILE *f, const void *rec, uint32_t core);
static void aicore_task_json(FILE *f, const void *r, uint32_t core) { sl_json_write_aicore_task(f, r, core); }
static void aicpu_task_json(FILE *f, const void *r, uint32_t core) { sl_json_write_aicpu_task(f, r, core); }

/* Every core's merged records of buffer `buf` (rec_size bytes each), one JSON object a
** line at `indent`, comma-separated; returns whether any was written. */
static int write_per_core(sl_collector *c, FILE *f, unsigned buf, size_t rec_size, const char *indent,
                          core_record_fn write_one) {
  int first = 1;
  for (int core = 0; core < c->cfg.num_cores; core++) {
    sl_coll_view v = sl_coll_merged(c, buf, core);
    for (size_t i = 0; i < v.n; i++, first = 0) {
      fprintf(f, "%s\n%s", first ? "" : ",", indent);
      write_one(f, v.data + i * rec_size, (uint32_t)core);
    }
    sl_coll_view_free(&v);
  }
  return !first;
}

static void write_aicore(sl_collector *c, FILE *f) {
  fprintf(f, ",\n  \"aicore_tasks\": [");
  int any = write_per_core(c, f, SL_BUF_AICORE_TASK, sizeof(sl_aicore_task_record), "    ", aicore_task_json);
  fprintf(f, any ? "\n  ]" : "]");
}

static void write_sched_tasks(sl_collector *c, FILE *f) {
  fprintf(f, ",\n  \"scheduler_tasks\": {\n    \"schema_version\": 1,\n    \"producer\": \"%s\",\n"
             "    \"records\": [", sl_coll_task_producer(c));
  int any = write_per_core(c, f, SL_BUF_AICPU_TASK, sizeof(sl_aicpu_task_record), "      ", aicpu_task_json);
  fprintf(f, any ? "\n    ]\n  }" : "]\n  }");
}

static void write_lifecycle(sl_collector *c, FILE *f) {
  int any = 0;
  for (int t = 0; t < c->cfg.num_aicpu_threads; t++) any |= (int)sl_ld_acq32(&c->hv->lifecycle_set[t]);
  if (!any) return;
  fprintf(f, ",\n  \"aicpu_lifecycle_records\": [");
  int first = 1;
  for (int t = 0; t < c->cfg.num_aicpu_threads; t++) {
    if (!sl_ld_acq32(&c->hv->lifecycle_set[t])) continue;
    fputs(first ? "\n    " : ",\n    ", f);
    sl_json_write_lifecycle(f, &c->hv->lifecycle[t]);
    first = 0;
  }
  fprintf(f, "\n  ]");
}

static void write_stream(sl_collector *c, FILE *f, int t, const sl_coll_view *v, uint64_t dropped) {
  const sl_sched_phase_record *r = (const void *)v->data;
  fprintf(f, "\n      {\"platform\": ");
  put_str(f, c->platform);
  fprintf(f, ", \"runtime\": ");
  put_str(f, c->runtime);
  int phys = sl_coll_stream_core(c, t); /* an AICore Scheduler: its AIV core names the lane */
  unsigned producer = phys >= 0 ? SL_PRODUCER_AICORE : SL_PRODUCER_AICPU;
  char core[16] = "null";
  if (phys >= 0) snprintf(core, sizeof core, "%d", phys);
  fprintf(f, ", \"producer\": \"%s\", \"scheduler_id\": %d, \"worker_id\": %d, \"core_type\": \"%s\", "
             "\"physical_core_id\": %s,\n       \"capture\": {\"committed\": %zu, \"dropped\": %" PRIu64
             ", \"truncated\": %s},\n       \"records\": [",
          phys >= 0 ? "aicore" : "aicpu", t, t, phys >= 0 ? "aiv" : "aicpu", core, v->n, dropped,
          bool_str(dropped != 0 || atomic_load(&c->truncated)));
  for (size_t i = 0; i < v->n; i++) {
    fputs(i ? ",\n         " : "\n         ", f);
    sl_json_write_sched_phase_for(f, &r[i], producer);
  }
  fprintf(f, v->n ? "\n       ],\n       \"metrics\": [" : "],\n       \"metrics\": [");
  for (size_t i = 0; i < v->n; i++) {
    fputs(i ? ",\n         " : "\n         ", f);
    sl_json_write_sched_phase_metrics_for(f, &r[i], i, producer);
  }
  fprintf(f, v->n ? "\n       ]}" : "]}");
}

static void write_sched_records(sl_collector *c, FILE *f) {
  fprintf(f, ",\n  \"scheduler_records\": {\n    \"schema_version\": 1,\n    \"streams\": [");
  int first = 1;
  for (int t = 0; t < c->cfg.num_aicpu_threads; t++) {
    const sl_active_head *h = &c->hv->pools[SL_BUF_SCHED_PHASE][t].head;
    uint64_t total = sl_ld_acq32(&h->total_record_count), dropped = sl_ld_acq32(&h->dropped_record_count);
    if (!total) continue; /* a thread that emitted nothing has no stream */
    sl_coll_view v = sl_coll_merged(c, SL_BUF_SCHED_PHASE, t);
    if (!first) fputc(',', f);
    write_stream(c, f, t, &v, dropped);
    sl_coll_view_free(&v);
    first = 0;
  }
  fprintf(f, first ? "]\n  }" : "\n    ]\n  }");
}

static void write_orch(sl_collector *c, FILE *f) {
  fprintf(f, ",\n  \"aicpu_orchestrator_phases\": [\n    [");
  sl_coll_view v = sl_coll_merged(c, SL_BUF_ORCH_PHASE, 0);
  const sl_orch_phase_record *r = (const void *)v.data;
  for (size_t i = 0; i < v.n; i++) {
    fputs(i ? ",\n      " : "\n      ", f);
    sl_json_write_orch_phase(f, &r[i]);
  }
  fprintf(f, v.n ? "\n    ]\n  ]" : "]\n  ]");
  sl_coll_view_free(&v);
}

int sl_collector_export_json(sl_collector *c, const char *path) {
  if (!c) return -1;
  if (!c->dp) return 0;
  if (!c->reconciled && sl_collector_reconcile(c) < 0) return -1;
  sl_outfile of;
  if (sl_outfile_open(&of, path) != 0) return -1;
  FILE *f = of.fp;
  unsigned level = c->cfg.level;
  fprintf(f, "{\n  \"chip_swimlane_level\": %u,\n", level);
  write_metadata(c, f);
  if (level >= SL_MIN_LEVEL_AICORE_TASK) write_aicore(c, f);
  if (level >= SL_MIN_LEVEL_AICPU_TASK) write_sched_tasks(c, f);
  if (level >= SL_MIN_LEVEL_LIFECYCLE) write_lifecycle(c, f);
  if (level >= SL_MIN_LEVEL_SCHED_PHASE) write_sched_records(c, f);
  if (level >= SL_MIN_LEVEL_ORCH_PHASE) write_orch(c, f);
  if (c->extra_sections) fprintf(f, ",\n  %s", c->extra_sections);
  fprintf(f, "\n}\n");
  return sl_outfile_commit(&of);
}

int sl_collector_export(sl_collector *c, const char *dir) {
  if (!c) return -1;
  if (!c->dp) return 0;
  if (!dir || !*dir) {
    sl_notes_add(&c->notes, 0, "collector", "no output directory for the capture");
    return -1;
  }
  if (sl_mkdirs(dir) != 0) return -1;
  char *json = sl_path_join(dir, "chip_swimlane_records.json");
  char *pb = sl_path_join(dir, "chip_swimlane_records.pb");
  int rc = sl_collector_export_json(c, json);
  if (rc == 0) rc = sl_collector_export_pb(c, pb);
  if (rc != 0) remove(json); /* both or neither */
  sl_mem_free(json);
  sl_mem_free(pb);
  return rc;
}

/* stop, metadata, reconcile, then both exports */
int sl_collector_finish(sl_collector *c, const char *dir) {
  if (!c) return -1;
  if (sl_collector_stop(c) != 0) return -1;
  sl_collector_read_metadata(c);
  if (sl_collector_reconcile(c) < 0) return -1;
  return sl_collector_export(c, dir);
}
