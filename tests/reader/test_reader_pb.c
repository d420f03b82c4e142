/*
** test_reader_pb.c — the protobuf capture: a Capture message built here with
** protobuf-c reads back into the same joined model as the equivalent JSON,
** 64-bit values exact; corrupt bytes give a clear error.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sl_capture.h"
#include "sl_phases.h"
#include "swimlane_capture.pb-c.h"

static const sl_read_opts quiet = {1};

/* A hand-built capture packed with protobuf-c and read back (quietly) as `name`. */
static sl_capture *read_packed(const Swimlane__Capture *cap, const char *name) {
  size_t len = swimlane__capture__get_packed_size(cap);
  uint8_t *buf = malloc(len);
  assert_non_null(buf);
  swimlane__capture__pack(cap, buf);
  sl_capture *c = sl_capture_read_mem(name, buf, len, &quiet);
  free(buf);
  return c;
}

static uint8_t *pack_sample(size_t *len) {
  Swimlane__Metadata md = SWIMLANE__METADATA__INIT;
  char *types[2] = {(char *)"aic", (char *)"aiv"};
  int32_t c2t[2] = {0, 1};
  md.clock_freq_hz = 50000000;
  md.num_cores = 2;
  md.n_core_types = 2;
  md.core_types = types;
  md.n_core_to_thread = 2;
  md.core_to_thread = c2t;
  md.task_producer = (char *)"aicpu";

  Swimlane__AicoreTaskRecord a0 = SWIMLANE__AICORE_TASK_RECORD__INIT, a1 = SWIMLANE__AICORE_TASK_RECORD__INIT;
  a0.start_time = 1070; a0.end_time = 1120; a0.task_token_raw = 0; a0.reg_task_id = 1; a0.receive_to_start_cycles = 3;
  a1.start_time = 1210; a1.end_time = 1290; a1.task_token_raw = 0xFFFFFFFF00000005ULL; a1.reg_task_id = 1; a1.receive_to_start_cycles = 4;
  Swimlane__AicoreTaskRecord *ar0[1] = {&a0}, *ar1[1] = {&a1};
  Swimlane__AicoreTaskStream as0 = SWIMLANE__AICORE_TASK_STREAM__INIT, as1 = SWIMLANE__AICORE_TASK_STREAM__INIT;
  as0.core_id = 0; as0.n_records = 1; as0.records = ar0;
  as1.core_id = 1; as1.n_records = 1; as1.records = ar1;
  Swimlane__AicoreTaskStream *as[2] = {&as0, &as1};

  Swimlane__AicpuTaskRecord s0 = SWIMLANE__AICPU_TASK_RECORD__INIT, s1 = SWIMLANE__AICPU_TASK_RECORD__INIT;
  s0.dispatch_time = 1062; s0.finish_time = 1135; s0.reg_task_id = 1;
  s1.dispatch_time = 1202; s1.finish_time = 1305; s1.reg_task_id = 1;
  Swimlane__AicpuTaskRecord *sr0[1] = {&s0}, *sr1[1] = {&s1};
  Swimlane__AicpuTaskStream ss0 = SWIMLANE__AICPU_TASK_STREAM__INIT, ss1 = SWIMLANE__AICPU_TASK_STREAM__INIT;
  ss0.core_id = 0; ss0.n_records = 1; ss0.records = sr0;
  ss1.core_id = 1; ss1.n_records = 1; ss1.records = sr1;
  Swimlane__AicpuTaskStream *ss[2] = {&ss0, &ss1};

  Swimlane__SchedPhaseRecord p0 = SWIMLANE__SCHED_PHASE_RECORD__INIT, p1 = SWIMLANE__SCHED_PHASE_RECORD__INIT;
  p0.start_time = 1060; p0.end_time = 1064; p0.loop_iter = 1; p0.kind = 1; /* dispatch */
  p0.tasks_processed = 1; p0.pop_hit = 1; p0.pop_miss = 2;
  p0.shared_depth_at_start_aic = 1; p0.shared_depth_at_end_mix = 3;
  p1.start_time = 1106; p1.end_time = 1106; p1.loop_iter = 2; p1.kind = 7; /* dummy_task */
  p1.tasks_processed = 1; p1.local_id = 3; p1.ring_id = 2;
  Swimlane__SchedPhaseRecord *pr[2] = {&p0, &p1};
  Swimlane__SchedPhaseStream ps = SWIMLANE__SCHED_PHASE_STREAM__INIT;
  ps.scheduler_id = 1; ps.worker_id = 1; ps.platform = (char *)"a2a3"; ps.runtime = (char *)"tensormap_and_ringbuffer";
  ps.producer = (char *)"aicpu"; ps.core_type = (char *)"aicpu"; ps.physical_core_id = -1;
  ps.n_records = 2; ps.records = pr;
  Swimlane__SchedPhaseStream *pss[1] = {&ps};

  Swimlane__OrchPhaseRecord o0 = SWIMLANE__ORCH_PHASE_RECORD__INIT;
  o0.start_time = 1000; o0.end_time = 1010; o0.task_id = 0xFFFFFFFF00000005ULL; o0.submit_idx = 0;
  Swimlane__OrchPhaseRecord *orr[1] = {&o0};
  Swimlane__OrchPhaseStream os = SWIMLANE__ORCH_PHASE_STREAM__INIT;
  os.thread_id = 0; os.n_records = 1; os.records = orr;
  Swimlane__OrchPhaseStream *oss[1] = {&os};

  Swimlane__Capture cap = SWIMLANE__CAPTURE__INIT;
  cap.chip_swimlane_level = 4;
  cap.metadata = &md;
  cap.n_aicore_tasks = 2; cap.aicore_tasks = as;
  cap.n_scheduler_tasks = 2; cap.scheduler_tasks = ss;
  cap.n_scheduler_records = 1; cap.scheduler_records = pss;
  cap.n_orchestrator_phases = 1; cap.orchestrator_phases = oss;
  cap.num_orch_phase_threads = 1;
  *len = swimlane__capture__get_packed_size(&cap);
  uint8_t *buf = malloc(*len);
  swimlane__capture__pack(&cap, buf);
  return buf;
}

static const char *equivalent_json =
  "{\"chip_swimlane_level\": 4, \"metadata\": {\"clock_freq_hz\": 50000000, \"num_cores\": 2,"
  " \"core_types\": [\"aic\", \"aiv\"], \"core_to_thread\": [0, 1]},"
  " \"aicore_tasks\": [[0, 0, 1, 1070, 1120, 3], [1, 18446744069414584325, 1, 1210, 1290, 4]],"
  " \"scheduler_tasks\": {\"schema_version\": 1, \"producer\": \"aicpu\", \"records\": [[0, 1, 1062, 1135], [1, 1, 1202, 1305]]},"
  " \"scheduler_records\": {\"schema_version\": 1, \"streams\": [{\"scheduler_id\": 1, \"records\": ["
  "  {\"start_cycles\": 1060, \"end_cycles\": 1064, \"loop_iter\": 1, \"kind\": \"dispatch\", \"tasks_processed\": 1, \"task_id\": null},"
  "  {\"start_cycles\": 1106, \"end_cycles\": 1106, \"loop_iter\": 2, \"kind\": \"dummy_task\", \"tasks_processed\": 1, \"task_id\": 8589934595}],"
  " \"metrics\": [{\"record_index\": 0, \"pop_hit\": 1, \"pop_miss\": 2, \"shared_at_start\": [1,0,0], \"shared_at_end\": [0,0,3]},"
  "  {\"record_index\": 1, \"shared_at_start\": [0,0,0], \"shared_at_end\": [0,0,0]}]}]},"
  " \"aicpu_orchestrator_phases\": [[{\"submit_idx\": 0, \"task_id\": 18446744069414584325, \"start_cycles\": 1000, \"end_cycles\": 1010}]]}";

static void test_pb_matches_json(void **state) {
  (void)state;
  size_t len;
  uint8_t *buf = pack_sample(&len);
  sl_capture *p = sl_capture_read_mem("cap.pb", buf, len, &quiet);
  sl_capture *j = sl_capture_read_mem("cap.json", equivalent_json, strlen(equivalent_json), &quiet);
  free(buf);
  assert_non_null(p);
  assert_non_null(j);
  assert_int_equal(p->format, SL_FORMAT_PROTOBUF);
  assert_int_equal(p->level, 4);
  assert_int_equal(p->base_cycles, 1000);
  assert_int_equal(p->n_tasks, j->n_tasks);
  for (size_t i = 0; i < p->n_tasks; i++) {
    assert_int_equal(p->tasks[i].task_id, j->tasks[i].task_id);
    assert_int_equal(p->tasks[i].core_id, j->tasks[i].core_id);
    assert_memory_equal(&p->tasks[i].start_us, &j->tasks[i].start_us, 5 * sizeof(double));
  }
  assert_int_equal(p->tasks[1].task_id, 0xFFFFFFFF00000005ULL);
  assert_int_equal(sl_task_ring_id(&p->tasks[1]), 0xFFFFFFFFu);
  assert_int_equal(p->n_streams, 2);
  assert_int_equal(p->streams[1].count, 2);
  for (size_t i = 0; i < 2; i++) {
    const sl_phase_rec *a = &p->phases[p->streams[1].first + i], *b = &j->phases[j->streams[1].first + i];
    assert_string_equal(sl_str_get(p, a->phase), sl_str_get(j, b->phase));
    assert_true(a->start_us == b->start_us && a->end_us == b->end_us);
    assert_int_equal(a->task_id, b->task_id);
    for (int k = 0; k < SL_PV_COUNT; k++) assert_int_equal(sl_phase_value(p, a, k), sl_phase_value(j, b, k));
  }
  assert_int_equal(p->phases[p->streams[1].first + 1].task_id, (2ULL << 32) | 3);
  assert_string_equal(sl_str_get(p, p->streams[1].runtime), "tensormap_and_ringbuffer");
  assert_string_equal(sl_str_get(p, p->streams[1].producer), "aicpu");
  assert_string_equal(sl_str_get(p, p->streams[1].platform), "a2a3");
  assert_string_equal(sl_str_get(p, p->streams[1].core_type), "aicpu");
  assert_int_equal(p->n_orch, 1);
  assert_int_equal(p->orch[0].task_id, 0xFFFFFFFF00000005ULL);
  assert_true(p->orch[0].end_us == j->orch[0].end_us);
  sl_capture_free(p);
  sl_capture_free(j);
}

/* Several orchestrator streams, listed out of thread order (two share a thread id): the
** reader places them by thread_id, keeps the file's order between equal ids, and pads
** to num_orch_phase_threads with empty threads. Record i of stream s has submit_idx
** 10 * s + i, so each position says which stream landed there. */
static void test_pb_orch_stream_order(void **state) {
  (void)state;
  Swimlane__Metadata md = SWIMLANE__METADATA__INIT;
  char *types[1] = {(char *)"aiv"};
  md.clock_freq_hz = 50000000;
  md.num_cores = 1;
  md.n_core_types = 1;
  md.core_types = types;
  md.task_producer = (char *)"aicpu";
  enum { NS = 4 };
  const int thread_of[NS] = {7, 2, 5, 2}, nrec[NS] = {1, 2, 3, 1};
  Swimlane__OrchPhaseRecord rec[NS][3];
  Swimlane__OrchPhaseRecord *recp[NS][3];
  Swimlane__OrchPhaseStream st[NS], *stp[NS];
  for (int k = 0; k < NS; k++) {
    swimlane__orch_phase_stream__init(&st[k]);
    st[k].thread_id = thread_of[k];
    st[k].n_records = (size_t)nrec[k];
    st[k].records = recp[k];
    for (int i = 0; i < nrec[k]; i++) {
      swimlane__orch_phase_record__init(&rec[k][i]);
      rec[k][i].start_time = 1000 + 100 * (uint64_t)k + 10 * (uint64_t)i;
      rec[k][i].end_time = rec[k][i].start_time + 5;
      rec[k][i].task_id = (uint64_t)(10 * k + i);
      rec[k][i].submit_idx = (uint32_t)(10 * k + i);
      recp[k][i] = &rec[k][i];
    }
    stp[k] = &st[k];
  }
  Swimlane__Capture cap = SWIMLANE__CAPTURE__INIT;
  cap.chip_swimlane_level = 4;
  cap.metadata = &md;
  cap.n_orchestrator_phases = NS;
  cap.orchestrator_phases = stp;
  cap.num_orch_phase_threads = 5;
  sl_capture *c = read_packed(&cap, "orch.pb");
  assert_non_null(c);
  assert_int_equal(c->n_orch_threads, 5);
  const int want_stream[4] = {1, 3, 2, 0}; /* thread ids 2, 2, 5, 7 */
  for (int t = 0; t < 4; t++) {
    int k = want_stream[t];
    assert_int_equal(c->orch_threads[t].count, nrec[k]);
    for (int i = 0; i < nrec[k]; i++)
      assert_int_equal(c->orch[c->orch_threads[t].first + (size_t)i].submit_idx, 10 * k + i);
  }
  assert_int_equal(c->orch_threads[4].count, 0);
  assert_int_equal(c->n_orch, 7);
  sl_capture_free(c);
}

/* A record field this build's schema lacks (a newer writer's): an integer (varint) field is
** carried by number as an extra, like a JSON key the reader does not know. */
static void test_pb_unknown_field_extra(void **state) {
  (void)state;
  uint8_t varint[] = {0xac, 0x02}; /* 300 */
  ProtobufCMessageUnknownField u = {.tag = 40, .wire_type = PROTOBUF_C_WIRE_TYPE_VARINT, .len = 2, .data = varint};
  Swimlane__OrchPhaseRecord rec = SWIMLANE__ORCH_PHASE_RECORD__INIT, *recp = &rec;
  rec.start_time = 100;
  rec.end_time = 200;
  rec.base.n_unknown_fields = 1;
  rec.base.unknown_fields = &u;
  Swimlane__OrchPhaseStream st = SWIMLANE__ORCH_PHASE_STREAM__INIT, *stp = &st;
  st.n_records = 1;
  st.records = &recp;
  Swimlane__Metadata md = SWIMLANE__METADATA__INIT;
  md.clock_freq_hz = 50000000;
  Swimlane__Capture cap = SWIMLANE__CAPTURE__INIT;
  cap.chip_swimlane_level = 4;
  cap.metadata = &md;
  cap.n_orchestrator_phases = 1;
  cap.orchestrator_phases = &stp;
  sl_capture *c = read_packed(&cap, "newer.pb");
  assert_non_null(c);
  assert_int_equal(c->n_orch, 1);
  assert_int_equal(c->orch[0].extra.n, 1);
  assert_string_equal(sl_str_get(c, c->extras[c->orch[0].extra.first].key), "field_40");
  assert_int_equal(c->extras[c->orch[0].extra.first].value, 300);
  sl_capture_free(c);
  /* the capture's own layout names it */
  cap.schema_fingerprint = (char *)"2222222222222222";
  cap.schema_layout = (char *)"OrchPhaseRecord.start_time=u64@1;OrchPhaseRecord.newer=u32@40;";
  c = read_packed(&cap, "newer.pb");
  assert_non_null(c);
  assert_int_equal(c->orch[0].extra.n, 1);
  assert_string_equal(sl_str_get(c, c->extras[c->orch[0].extra.first].key), "newer");
  sl_capture_free(c);
  /* JSON columns in another order refuse that capture's JSON (schema_evolution_read), never
  ** its .pb, which is read by field number */
  cap.schema_layout = (char *)"OrchPhaseRecord.newer=u32@40;columns.AicpuTaskRecord=core_id,finish_time,dispatch_time";
  c = read_packed(&cap, "reordered.pb");
  assert_non_null(c);
  assert_int_equal(c->n_orch, 1);
  sl_capture_free(c);
}

/* A phase id this build's schema does not have (bad input, a newer capture): kept, named
** kind_<id>, flagged unknown (never drawn); the read succeeds. */
static void test_pb_unknown_phase_id(void **state) {
  (void)state;
  Swimlane__SchedPhaseRecord rec = SWIMLANE__SCHED_PHASE_RECORD__INIT, *recp = &rec;
  rec.start_time = 100;
  rec.end_time = 200;
  rec.kind = 9999;
  Swimlane__SchedPhaseStream st = SWIMLANE__SCHED_PHASE_STREAM__INIT, *stp = &st;
  st.n_records = 1;
  st.records = &recp;
  Swimlane__Metadata md = SWIMLANE__METADATA__INIT;
  md.clock_freq_hz = 50000000;
  Swimlane__Capture cap = SWIMLANE__CAPTURE__INIT;
  cap.chip_swimlane_level = 3;
  cap.metadata = &md;
  cap.n_scheduler_records = 1;
  cap.scheduler_records = &stp;
  sl_capture *c = read_packed(&cap, "unknown.pb");
  assert_non_null(c);
  assert_int_equal(c->n_phases, 1);
  assert_string_equal(sl_str_get(c, c->phases[0].phase), "kind_9999");
  assert_int_equal(c->phases[0].phase_id, SL_PHASE_ID_UNKNOWN);
  assert_true(c->phases[0].flags & SL_PH_UNKNOWN);
  /* one warning naming the kind and the record (the command adds the file: "swimlane:
  ** warning: unknown.pb: ...", as for the JSON's unknown names, schema_evolution_read) */
  assert_int_equal(c->n_warnings, 1);
  assert_non_null(strstr(c->warnings[0], "first 'kind_9999' (stream 0, record 0): not drawn"));
  assert_string_equal(c->path, "unknown.pb");
  sl_capture_free(c);
  /* a retired id (phases.lua retired) is what a retired name is in JSON: kept, flagged
  ** retired (never drawn, no unknown-kind warning), not unknown */
  uint32_t retired = 0;
  while (retired < 4096 && !sl_phase_id_is_retired(retired)) retired++;
  assert_true(retired < 4096);
  rec.kind = retired;
  c = read_packed(&cap, "retired.pb");
  assert_non_null(c);
  assert_int_equal(c->phases[0].phase_id, SL_PHASE_ID_UNKNOWN);
  assert_true(c->phases[0].flags & SL_PH_RETIRED);
  assert_false(c->phases[0].flags & SL_PH_UNKNOWN);
  sl_capture_free(c);
}

static void test_pb_corrupt(void **state) {
  (void)state;
  size_t len;
  uint8_t *buf = pack_sample(&len);
  /* a truncated message is rejected, never half-read */
  sl_capture *c = sl_capture_read_mem("cut.pb", buf, len / 2, &quiet);
  assert_null(c);
  free(buf);
}

/* captures written by the project's own collector in both formats: same model */
static void check_pair(const char *stem, size_t n_tasks, size_t n_orch) {
  const char *home = getenv("SWIMLANE_HOME");
  char pj[4096], pp[4096];
  snprintf(pj, sizeof pj, "%s/tests/reader/data/%s.json", home ? home : ".", stem);
  snprintf(pp, sizeof pp, "%s/tests/reader/data/%s.pb", home ? home : ".", stem);
  sl_capture *j = sl_capture_read(pj, &quiet), *p = sl_capture_read(pp, &quiet);
  assert_non_null(j);
  assert_non_null(p);
  assert_int_equal(j->format, SL_FORMAT_JSON_SEED);
  assert_int_equal(p->format, SL_FORMAT_PROTOBUF);
  assert_int_equal(j->level, p->level);
  assert_int_equal(j->base_cycles, p->base_cycles);
  assert_int_equal(j->n_tasks, n_tasks);
  assert_int_equal(p->n_tasks, n_tasks);
  /* the orchestrator's AICPU thread id is not its position: both read as ordinal 0 */
  assert_int_equal(j->n_orch, n_orch);
  assert_int_equal(p->n_orch, n_orch);
  assert_int_equal(j->n_orch_threads, p->n_orch_threads);
  for (size_t t = 0; t < j->n_orch_threads; t++) assert_int_equal(j->orch_threads[t].count, p->orch_threads[t].count);
  for (size_t i = 0; i < j->n_orch; i++) {
    assert_int_equal(j->orch[i].task_id, p->orch[i].task_id);
    assert_true(j->orch[i].start_us == p->orch[i].start_us && j->orch[i].end_us == p->orch[i].end_us);
  }
  for (size_t i = 0; i < j->n_tasks; i++) {
    assert_int_equal(j->tasks[i].task_id, p->tasks[i].task_id);
    assert_int_equal(j->tasks[i].core_id, p->tasks[i].core_id);
    assert_memory_equal(&j->tasks[i].start_us, &p->tasks[i].start_us, 5 * sizeof(double));
  }
  assert_int_equal(j->n_phases, p->n_phases);
  assert_int_equal(j->n_streams, p->n_streams);
  for (size_t i = 0; i < j->n_phases; i++) {
    assert_string_equal(sl_str_get(j, j->phases[i].phase), sl_str_get(p, p->phases[i].phase));
    assert_true(j->phases[i].start_us == p->phases[i].start_us && j->phases[i].end_us == p->phases[i].end_us);
    for (int k = 0; k < SL_PV_COUNT; k++)
      assert_int_equal(sl_phase_value(j, &j->phases[i], k), sl_phase_value(p, &p->phases[i], k));
  }
  sl_capture_free(j);
  sl_capture_free(p);
}

static void test_collector_capture_both_formats(void **state) {
  (void)state;
  check_pair("h3_mixed_case1", 13, 0);     /* a2a3sim, level 3 */
  check_pair("h3_vector_l4", 5, 6);        /* a2a3sim, level 4 */
  check_pair("h3_a5_spmd_mix_l4", 192, 2); /* a5sim, level 4, SPMD MIX */
}

/* What the .pb reader takes from the metadata and the lifecycle records, beside the JSON
** reader: an unset (empty) proto3 string is "absent", not ""; Metadata.capture becomes
** capture->health; a .pb lifecycle record has every field (proto3 has no presence), a JSON
** one exactly the fields it lists. */
static void test_pb_metadata_health_lifecycle(void **state) {
  (void)state;
  Swimlane__Metadata md = SWIMLANE__METADATA__INIT; /* platform, runtime, producer unset */
  md.clock_freq_hz = 50000000;
  md.num_cores = 1;
  Swimlane__PoolAccount pa0 = SWIMLANE__POOL_ACCOUNT__INIT, pa1 = SWIMLANE__POOL_ACCOUNT__INIT;
  pa0.name = (char *)"aicore_task"; pa0.total = 9; pa0.collected = 7; pa0.dropped = 2;
  pa1.name = (char *)"orch_phase"; pa1.total = 4; pa1.collected = 4;
  Swimlane__PoolAccount *pools[2] = {&pa0, &pa1};
  Swimlane__CaptureHealth ch = SWIMLANE__CAPTURE_HEALTH__INIT;
  ch.truncated = 1; ch.n_pools = 2; ch.pools = pools;
  md.capture = &ch;
  Swimlane__AicpuLifecycleRecord lr = SWIMLANE__AICPU_LIFECYCLE_RECORD__INIT;
  lr.aicpu_thread_id = 2; lr.handshake_start_cycles = 1000; lr.exit_wait_end_cycles = 1500;
  Swimlane__AicpuLifecycleRecord *lrs[1] = {&lr};
  Swimlane__Capture cap = SWIMLANE__CAPTURE__INIT;
  cap.chip_swimlane_level = 2;
  cap.metadata = &md;
  cap.n_aicpu_lifecycle_records = 1; cap.aicpu_lifecycle_records = lrs;
  size_t len = swimlane__capture__get_packed_size(&cap);
  uint8_t *buf = malloc(len);
  assert_non_null(buf);
  swimlane__capture__pack(&cap, buf);
  sl_capture *p = sl_capture_read_mem("h.pb", buf, len, &quiet);
  free(buf);
  assert_non_null(p);
  assert_null(sl_str_get(p, p->platform));
  assert_true(p->health.present);
  assert_true(p->health.truncated);
  assert_int_equal(p->health.n_pools, 2);
  assert_string_equal(sl_str_get(p, p->health.pools[0].name), "aicore_task");
  assert_int_equal(p->health.pools[0].total, 9);
  assert_int_equal(p->health.pools[0].collected, 7);
  assert_int_equal(p->health.pools[0].dropped, 2);
  assert_string_equal(sl_str_get(p, p->health.pools[1].name), "orch_phase");
  assert_int_equal(sl_capture_dropped(p), 2);
  assert_int_equal(p->n_lifecycle, 1);
  assert_int_equal(p->lifecycle[0].aicpu_thread_id, 2);
  assert_int_equal(p->lifecycle[0].present, (1u << SL_LC_FIELD_COUNT) - 1);
  assert_int_equal(p->base_cycles, 1000); /* the record's own stamps, on the capture's axis */
  assert_true(p->lifecycle[0].us[SL_LC_FIELD(HANDSHAKE_START)] == 0.0);
  assert_true(p->lifecycle[0].us[SL_LC_FIELD(EXIT_WAIT_END)] == 500 * (1e6 / 5e7));
  sl_capture_free(p);

  static const char *json =
    "{\"chip_swimlane_level\": 2, \"metadata\": {\"clock_freq_hz\": 50000000, \"num_cores\": 1,"
    " \"capture\": {\"truncated\": false, \"balanced\": true, \"pools\": {\"aicore_task\":"
    " {\"total\": 3, \"collected\": 3, \"dropped\": 0}}}},"
    " \"aicore_tasks\": [], \"aicpu_lifecycle_records\": [{\"aicpu_thread_id\": 1,"
    " \"handshake_start_cycles\": 1000, \"config_start_cycles\": null, \"exit_wait_end_cycles\": 1500}]}";
  sl_capture *j = sl_capture_read_mem("h.json", json, strlen(json), &quiet);
  assert_non_null(j);
  assert_true(j->health.present);
  assert_false(j->health.truncated);
  assert_int_equal(j->health.n_pools, 1);
  assert_int_equal(j->health.pools[0].collected, 3);
  assert_int_equal(sl_capture_dropped(j), 0);
  assert_int_equal(j->n_lifecycle, 1);
  /* a null field is absent, like a missing one */
  assert_int_equal(j->lifecycle[0].present, (1u << SL_LC_FIELD(HANDSHAKE_START)) | (1u << SL_LC_FIELD(EXIT_WAIT_END)));
  sl_capture_free(j);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_collector_capture_both_formats),
    cmocka_unit_test(test_pb_matches_json),
    cmocka_unit_test(test_pb_corrupt),
    cmocka_unit_test(test_pb_unknown_field_extra),
    cmocka_unit_test(test_pb_unknown_phase_id),
    cmocka_unit_test(test_pb_orch_stream_order),
    cmocka_unit_test(test_pb_metadata_health_lifecycle),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
