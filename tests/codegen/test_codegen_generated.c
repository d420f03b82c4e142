/*
** test_codegen_generated.c — the generated code itself: every capture record
** round-trips through the protobuf glue (packed and unpacked) with every field,
** including 64-bit values above 2^53; device writers gate on level and fill
** every byte; JSON writers print the seed's on-disk shape exactly; the phase,
** lane, level, platform, dtype and buffer-kind tables answer as the schema says.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "sl_schema.h"
#include "sl_schema_lua.h"

#define BIG1 0xFFFFFFFFFFFFFFF1ull /* > 2^53, all bits set   */
#define BIG2 9007199254740993ull   /* 2^53 + 1: not a double */
#define BIG3 0x8000000000000001ull

/* Pack a message, unpack it again: proves the values survive the wire. */
#define WIRE_ROUNDTRIP(prefix, msg_ptr, out_ptr)                                     \
  do {                                                                               \
    size_t n_ = prefix##__get_packed_size(msg_ptr);                                  \
    uint8_t *buf_ = malloc(n_ ? n_ : 1);                                             \
    assert_int_equal(prefix##__pack(msg_ptr, buf_), n_);                             \
    out_ptr = prefix##__unpack(NULL, n_, buf_);                                      \
    free(buf_);                                                                      \
    assert_non_null(out_ptr);                                                        \
  } while (0)

static char *capture(void (*fn)(FILE *, const void *), const void *arg) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  fn(f, arg);
  fclose(f);
  return text;
}

/* ---- protobuf glue ------------------------------------------------------------- */

static void test_aicore_roundtrip(void **state) {
  (void)state;
  sl_aicore_task_record r, back;
  assert_int_equal(sl_write_aicore_task(SL_LEVEL_AICORE_TIMING, &r, BIG1, BIG2, BIG3, 0xFFFFFFFFu, 0x80000001u), 1);
  Swimlane__AicoreTaskRecord m, *u;
  sl_aicore_task_record_to_pb(&r, &m);
  WIRE_ROUNDTRIP(swimlane__aicore_task_record, &m, u);
  assert_true(u->start_time == BIG1 && u->end_time == BIG2 && u->task_token_raw == BIG3);
  assert_int_equal(sl_aicore_task_record_from_pb(u, &back), 0);
  assert_memory_equal(&r, &back, sizeof r);
  swimlane__aicore_task_record__free_unpacked(u, NULL);
}

static void test_aicpu_roundtrip(void **state) {
  (void)state;
  sl_aicpu_task_record r, back;
  memset(&r, 0xAB, sizeof r); /* the writer must clear the padding */
  assert_int_equal(sl_write_aicpu_task(SL_LEVEL_AICPU_TIMING, &r, BIG2, BIG1, 0x7FFFFFFEu, 3), 1);
  const uint8_t *bytes = (const uint8_t *)&r;
  for (size_t i = offsetof(sl_aicpu_task_record, member) + 4; i < sizeof r; i++) assert_int_equal(bytes[i], 0);
  Swimlane__AicpuTaskRecord m, *u;
  sl_aicpu_task_record_to_pb(&r, &m);
  WIRE_ROUNDTRIP(swimlane__aicpu_task_record, &m, u);
  assert_int_equal(sl_aicpu_task_record_from_pb(u, &back), 0);
  assert_memory_equal(&r, &back, sizeof r);
  swimlane__aicpu_task_record__free_unpacked(u, NULL);
}

static void sched_roundtrip(const sl_sched_phase_record *r) {
  sl_sched_phase_record back;
  Swimlane__SchedPhaseRecord m, *u;
  sl_sched_phase_record_to_pb(r, &m);
  WIRE_ROUNDTRIP(swimlane__sched_phase_record, &m, u);
  assert_int_equal(sl_sched_phase_record_from_pb(u, &back), 0);
  assert_memory_equal(r, &back, sizeof back);
  swimlane__sched_phase_record__free_unpacked(u, NULL);
}

static void test_sched_phase_roundtrip_every_variant(void **state) {
  (void)state;
  const int16_t d0[3] = {INT16_MIN, -1, INT16_MAX}, d1[3] = {7, 0, -300};
  sl_sched_phase_record r;
  /* dispatch view */
  assert_int_equal(sl_write_phase_dispatch(SL_LEVEL_SCHED_PHASES, &r, BIG1, BIG2, 0xFFFFFFFFu, 3, 0xFFFFFFF0u, 17, d0, d1), 1);
  assert_int_equal(r.kind, SL_PHASE_DISPATCH);
  assert_int_equal(r.phase_data.dispatch.pop_hit, 0xFFFFFFF0u);
  sched_roundtrip(&r);
  /* task view, 64-bit id split into ring/local */
  assert_int_equal(sl_write_phase_dummy_task(SL_LEVEL_ORCH_PHASES, &r, BIG2, BIG2, 1, 1, BIG1, d1, d0), 1);
  assert_int_equal(r.phase_data.task.local_id, 0xFFFFFFF1u);
  assert_int_equal(r.phase_data.task.ring_id, 0xFFFFFFFFu);
  sched_roundtrip(&r);
  /* a phase without a variant keeps whatever the generic writer stored (default view) */
  assert_int_equal(sl_write_sched_phase(SL_LEVEL_SCHED_PHASES, &r, SL_PHASE_COMPLETE, 5, 6, 7, 8, 9, 10, NULL, NULL), 1);
  assert_int_equal(r.shared_depth_at_end[2], 0);
  sched_roundtrip(&r);
  /* an id this schema does not know still round-trips */
  assert_int_equal(sl_write_sched_phase(SL_LEVEL_SCHED_PHASES, &r, 3999, 5, 6, 7, 8, 0xDEADBEEFu, 1, d0, d0), 1);
  sched_roundtrip(&r);
}

static void test_orch_and_lifecycle_roundtrip(void **state) {
  (void)state;
  sl_orch_phase_record o, ob;
  /* the last kind of the table: a non-zero id survives the wire */
  const sl_orch_phase_info *last = &sl_orch_phase_table[sl_orch_phase_table_len - 1];
  assert_int_equal(sl_write_orch_phase(SL_LEVEL_ORCH_PHASES, &o, BIG1, BIG2, BIG3, 0xFFFFFFFFu, last->id), 1);
  Swimlane__OrchPhaseRecord om, *ou;
  sl_orch_phase_record_to_pb(&o, &om);
  WIRE_ROUNDTRIP(swimlane__orch_phase_record, &om, ou);
  assert_int_equal(sl_orch_phase_record_from_pb(ou, &ob), 0);
  assert_memory_equal(&o, &ob, sizeof o);
  swimlane__orch_phase_record__free_unpacked(ou, NULL);

  sl_aicpu_lifecycle_record l, lb;
  assert_int_equal(sl_write_lifecycle(SL_LEVEL_AICPU_TIMING, &l, 4, BIG1, BIG1 - 1, BIG1 - 2, BIG1 - 3, BIG2, BIG2 + 1,
                                      BIG2 + 2, BIG2 + 3, BIG3, BIG3 + 1, BIG3 + 2, BIG3 + 3, 1, UINT64_MAX),
                   1);
  Swimlane__AicpuLifecycleRecord lm, *lu;
  sl_aicpu_lifecycle_record_to_pb(&l, &lm);
  WIRE_ROUNDTRIP(swimlane__aicpu_lifecycle_record, &lm, lu);
  assert_true(lu->exit_wait_end_cycles == UINT64_MAX && lu->handshake_start_cycles == BIG1);
  assert_int_equal(sl_aicpu_lifecycle_record_from_pb(lu, &lb), 0);
  assert_memory_equal(&l, &lb, sizeof l);
  swimlane__aicpu_lifecycle_record__free_unpacked(lu, NULL);
}

static void test_from_pb_rejects_out_of_range(void **state) {
  (void)state;
  Swimlane__SchedPhaseRecord m;
  sl_sched_phase_record r;
  swimlane__sched_phase_record__init(&m);
  m.shared_depth_at_end_mix = 40000; /* does not fit int16_t */
  assert_int_equal(sl_sched_phase_record_from_pb(&m, &r), -1);
  m.shared_depth_at_end_mix = -32768;
  assert_int_equal(sl_sched_phase_record_from_pb(&m, &r), 0);
  assert_int_equal(r.shared_depth_at_end[2], -32768);
}

/* The Capture container carries metadata, per-core and per-thread streams and
** lifecycle records through one pack / unpack. */
static void test_capture_container_roundtrip(void **state) {
  (void)state;
  sl_aicore_task_record core_rec;
  sl_write_aicore_task(4, &core_rec, BIG1, BIG2, BIG3, 9, 10);
  sl_sched_phase_record ph[2];
  const int16_t d[3] = {-5, 6, 7};
  sl_write_phase_dispatch(4, &ph[0], 1, 2, 3, 4, 5, 6, d, d);
  sl_write_phase_predicated_skip(4, &ph[1], BIG2, BIG2, 8, 1, BIG1, NULL, d);

  Swimlane__Capture cap;
  swimlane__capture__init(&cap);
  cap.schema_fingerprint = (char *)SL_SCHEMA_FINGERPRINT;
  cap.chip_swimlane_level = 4;
  Swimlane__Metadata meta;
  swimlane__metadata__init(&meta);
  char *types[] = {(char *)"aic", (char *)"aiv"};
  int32_t c2t[] = {0, -1};
  meta.clock_freq_hz = 50000000;
  meta.num_cores = 2;
  meta.n_core_types = 2;
  meta.core_types = types;
  meta.n_core_to_thread = 2;
  meta.core_to_thread = c2t;
  meta.platform = (char *)"a2a3sim";
  cap.metadata = &meta;

  Swimlane__AicoreTaskRecord core_msg, *core_msgs[] = {&core_msg};
  sl_aicore_task_record_to_pb(&core_rec, &core_msg);
  Swimlane__AicoreTaskStream core_stream, *core_streams[] = {&core_stream};
  swimlane__aicore_task_stream__init(&core_stream);
  core_stream.core_id = 1;
  core_stream.n_records = 1;
  core_stream.records = core_msgs;
  cap.n_aicore_tasks = 1;
  cap.aicore_tasks = core_streams;

  Swimlane__SchedPhaseRecord ph_msg[2], *ph_msgs[] = {&ph_msg[0], &ph_msg[1]};
  sl_sched_phase_record_to_pb(&ph[0], &ph_msg[0]);
  sl_sched_phase_record_to_pb(&ph[1], &ph_msg[1]);
  Swimlane__StreamCapture acct;
  swimlane__stream_capture__init(&acct);
  acct.committed = BIG2;
  acct.dropped = 3;
  acct.truncated = 1;
  Swimlane__SchedPhaseStream sched, *scheds[] = {&sched};
  swimlane__sched_phase_stream__init(&sched);
  sched.scheduler_id = 2;
  sched.producer = (char *)"aicpu";
  sched.physical_core_id = -1;
  sched.capture = &acct;
  sched.n_records = 2;
  sched.records = ph_msgs;
  cap.n_scheduler_records = 1;
  cap.scheduler_records = scheds;

  Swimlane__Capture *u;
  WIRE_ROUNDTRIP(swimlane__capture, &cap, u);
  assert_string_equal(u->schema_fingerprint, SL_SCHEMA_FINGERPRINT);
  assert_int_equal(u->metadata->n_core_types, 2);
  assert_string_equal(u->metadata->core_types[1], "aiv");
  assert_int_equal(u->metadata->core_to_thread[1], -1);
  assert_int_equal(u->n_aicore_tasks, 1);
  sl_aicore_task_record core_back;
  assert_int_equal(sl_aicore_task_record_from_pb(u->aicore_tasks[0]->records[0], &core_back), 0);
  assert_memory_equal(&core_back, &core_rec, sizeof core_rec);
  const Swimlane__SchedPhaseStream *s = u->scheduler_records[0];
  assert_true(s->capture->committed == BIG2 && s->capture->truncated && s->physical_core_id == -1);
  assert_int_equal(s->n_records, 2);
  for (int i = 0; i < 2; i++) {
    sl_sched_phase_record back;
    assert_int_equal(sl_sched_phase_record_from_pb(s->records[i], &back), 0);
    assert_memory_equal(&back, &ph[i], sizeof back);
  }
  swimlane__capture__free_unpacked(u, NULL);
}

/* ---- writers ------------------------------------------------------------------- */

static void test_writers_gate_on_level(void **state) {
  (void)state;
  sl_sched_phase_record s;
  memset(&s, 0x5A, sizeof s);
  sl_sched_phase_record before = s;
  assert_int_equal(sl_write_phase_complete(SL_LEVEL_AICPU_TIMING, &s, 1, 2, 3, 4, NULL, NULL), 0);
  assert_memory_equal(&s, &before, sizeof s);
  sl_orch_phase_record o;
  assert_int_equal(sl_write_orch_phase(SL_LEVEL_SCHED_PHASES, &o, 1, 2, 3, 4, 0), 0);
  sl_aicpu_task_record a;
  assert_int_equal(sl_write_aicpu_task(SL_LEVEL_AICORE_TIMING, &a, 1, 2, 3, 1), 0);
  sl_aicore_task_record c;
  assert_int_equal(sl_write_aicore_task(SL_LEVEL_DISABLED, &c, 1, 2, 3, 4, 5), 0);
  assert_int_equal(SL_MIN_LEVEL_AICORE_TASK, 1);
  assert_int_equal(SL_MIN_LEVEL_AICPU_TASK, 2);
  assert_int_equal(SL_MIN_LEVEL_SCHED_PHASE, 3);
  assert_int_equal(SL_MIN_LEVEL_ORCH_PHASE, 4);
  assert_int_equal(SL_MIN_LEVEL_LIFECYCLE, 2);
}

/* ---- JSON export --------------------------------------------------------------- */

static void write_sched(FILE *f, const void *r) { sl_json_write_sched_phase(f, r); }
static void write_sched_aicore(FILE *f, const void *r) { sl_json_write_sched_phase_for(f, r, SL_PRODUCER_AICORE); }
static void write_metrics(FILE *f, const void *r) { sl_json_write_sched_phase_metrics(f, r, BIG2); }
static void write_aicore(FILE *f, const void *r) { sl_json_write_aicore_task(f, r, 71); }
static void write_aicpu(FILE *f, const void *r) { sl_json_write_aicpu_task(f, r, 2); }
static void write_orch(FILE *f, const void *r) { sl_json_write_orch_phase(f, r); }

static void test_json_writers(void **state) {
  (void)state;
  const int16_t d0[3] = {1, 0, -2}, d1[3] = {0, 3, 0};
  sl_sched_phase_record s;
  char *t;

  sl_write_phase_dispatch(4, &s, 1000170, 1000182, 7, 1, 1, 3, d0, d1);
  t = capture(write_sched, &s);
  assert_string_equal(t, "{\"start_cycles\": 1000170, \"end_cycles\": 1000182, \"loop_iter\": 7, \"kind\": \"dispatch\", "
                         "\"tasks_processed\": 1, \"task_id\": null}");
  free(t);
  t = capture(write_metrics, &s);
  assert_string_equal(t, "{\"record_index\": 9007199254740993, \"pop_hit\": 1, \"pop_miss\": 3, "
                         "\"shared_at_start\": [1,0,-2], \"shared_at_end\": [0,3,0]}");
  free(t);

  sl_write_phase_predicated_skip(4, &s, 5, 5, 40, 1, (1ull << 32) | 2u, NULL, NULL);
  t = capture(write_sched, &s);
  assert_string_equal(t, "{\"start_cycles\": 5, \"end_cycles\": 5, \"loop_iter\": 40, \"kind\": \"predicated_skip\", "
                         "\"tasks_processed\": 1, \"task_id\": 4294967298}");
  free(t);
  t = capture(write_metrics, &s);
  assert_string_equal(t, "{\"record_index\": 9007199254740993, \"shared_at_start\": [0,0,0], \"shared_at_end\": [0,0,0]}");
  free(t);

  /* an A5 HBG AICore Scheduler's dispatch is task-bound: same bytes, read as a task id */
  sl_write_sched_phase(4, &s, SL_PHASE_DISPATCH, 10, 20, 1, 1, 23u, 0u, NULL, NULL);
  t = capture(write_sched_aicore, &s);
  assert_string_equal(t, "{\"start_cycles\": 10, \"end_cycles\": 20, \"loop_iter\": 1, \"kind\": \"dispatch\", "
                         "\"tasks_processed\": 1, \"task_id\": 23}");
  free(t);
  assert_int_equal(sl_phase_variant_for(SL_PHASE_DISPATCH, SL_PRODUCER_AICORE), SL_PHASE_VARIANT_TASK);
  assert_int_equal(sl_phase_variant_for(SL_PHASE_DISPATCH, SL_PRODUCER_AICPU), SL_PHASE_VARIANT_DISPATCH);
  assert_int_equal(sl_phase_variant_for(SL_PHASE_BOOTSTRAP, SL_PRODUCER_AICORE), SL_PHASE_VARIANT_NONE);

  sl_write_phase_graph_prepare(4, &s, 1, 2, 3, 4, BIG1, NULL, NULL);
  t = capture(write_sched, &s);
  assert_non_null(strstr(t, "\"task_id\": 18446744073709551601}"));
  free(t);

  sl_aicore_task_record c;
  sl_write_aicore_task(1, &c, 1000200, 1000450, 4294967296ull, 1, 12);
  t = capture(write_aicore, &c);
  assert_string_equal(t, "[71, 4294967296, 1, 1000200, 1000450, 12]");
  free(t);
  sl_aicpu_task_record a;
  sl_write_aicpu_task(2, &a, BIG2, BIG1, 1, 2);
  t = capture(write_aicpu, &a);
  assert_string_equal(t, "[2, 1, 9007199254740993, 18446744073709551601, 2]");
  free(t);
  sl_orch_phase_record o;
  sl_write_orch_submit(SL_MIN_LEVEL_ORCH_PHASE, &o, 1000050, 1000090, 4294967296ull, 0);
  t = capture(write_orch, &o);
  assert_string_equal(t, "{\"submit_idx\": 0, \"task_id\": 4294967296, \"start_cycles\": 1000050, \"end_cycles\": 1000090, "
                         "\"phase\": \"" SL_ORCH_PHASE_DEFAULT "\"}");
  free(t);
  /* every orchestrator kind is written by its schema name; an unknown id as "unknown" */
  for (unsigned k = 0; k <= sl_orch_phase_table_len; k++) {
    const sl_orch_phase_info *op = k < sl_orch_phase_table_len ? &sl_orch_phase_table[k] : NULL;
    sl_write_orch_phase(SL_MIN_LEVEL_ORCH_PHASE, &o, 1, 2, 3, 4, op ? op->id : 0xFFFFFFF0u);
    t = capture(write_orch, &o);
    char want[160];
    snprintf(want, sizeof want, "\"phase\": \"%s\"}", op ? op->name : "unknown");
    assert_non_null(strstr(t, want));
    free(t);
    if (op) {
      assert_ptr_equal(sl_orch_phase_by_id(op->id), op);
      assert_ptr_equal(sl_orch_phase_by_name(op->name), op);
      assert_int_equal(op->is_default, !strcmp(op->name, SL_ORCH_PHASE_DEFAULT));
      if (op->is_default) assert_int_equal(op->id, 0);
      /* a current kind is neither a renamed kind's old name nor retired */
      assert_null(sl_orch_phase_alias_target(op->name));
      assert_false(sl_orch_phase_is_retired(op->name));
      assert_false(sl_orch_phase_id_is_retired(op->id));
      assert_null(sl_orch_phase_retired_name(op->id));
    }
  }

  /* the generic per-kind table writes the same thing */
  char *g = NULL;
  size_t glen = 0;
  FILE *f = open_memstream(&g, &glen);
  sl_export_ctx ctx = {.core_id = 71};
  sl_buffer_kind_table[SL_BUF_AICORE_TASK].write_json(f, &c, &ctx);
  fclose(f);
  assert_string_equal(g, "[71, 4294967296, 1, 1000200, 1000450, 12]");
  free(g);
}

/* ---- tables -------------------------------------------------------------------- */

/* The C phase table against the schema data compiled for the Lua rules (both generated
** from schema/phases.lua): same phases, same ids, names, lanes and colours. */
static void test_phase_table_matches_rules_data(void **state) {
  (void)state;
  lua_State *L = luaL_newstate();
  assert_non_null(L);
  assert_int_equal(luaL_loadbufferx(L, sl_schema_lua, sl_schema_lua_len, "=swimlane.schema", "t"), LUA_OK);
  assert_int_equal(lua_pcall(L, 0, 1, 0), LUA_OK);
  assert_int_equal(lua_getfield(L, -1, "phases"), LUA_TTABLE);
  assert_int_equal((unsigned)luaL_len(L, -1), sl_phase_table_len);
  for (unsigned i = 0; i < sl_phase_table_len; i++) {
    const sl_phase_info *p = &sl_phase_table[i];
    assert_int_equal(lua_rawgeti(L, -1, (lua_Integer)i + 1), LUA_TTABLE);
    lua_getfield(L, -1, "id");
    assert_int_equal(lua_tointeger(L, -1), p->id);
    lua_getfield(L, -2, "name");
    assert_string_equal(lua_tostring(L, -1), p->name);
    lua_getfield(L, -3, "lane");
    assert_string_equal(lua_tostring(L, -1), p->lane);
    lua_getfield(L, -4, "cname");
    if (p->cname)
      assert_string_equal(lua_tostring(L, -1), p->cname);
    else
      assert_true(lua_isnil(L, -1));
    lua_pop(L, 5);
  }
  lua_getfield(L, -2, "fingerprint");
  assert_string_equal(lua_tostring(L, -1), SL_SCHEMA_FINGERPRINT);
  lua_close(L);
}

static void test_phase_table(void **state) {
  (void)state;
  assert_true(sl_phase_table_len > 0);
  for (unsigned i = 0; i < sl_phase_table_len; i++) {
    const sl_phase_info *p = &sl_phase_table[i];
    assert_ptr_equal(sl_phase_by_id(p->id), p);
    assert_ptr_equal(sl_phase_by_name(p->name), p);
    if (i > 0) assert_true(p->id > sl_phase_table[i - 1].id);
    assert_ptr_equal(sl_lane_by_key(p->lane), &sl_lane_table[p->lane_id]);
  }
  assert_ptr_equal(sl_phase_by_name("fanout"), sl_phase_by_id(SL_PHASE_RESOLVE));
  assert_ptr_equal(sl_phase_by_name("prestage"), sl_phase_by_id(SL_PHASE_EARLY_DISPATCH));
  assert_string_equal(sl_phase_alias_target("fanout"), "resolve");
  assert_null(sl_phase_by_name("scan"));
  assert_true(sl_phase_is_retired("scan") && sl_phase_is_retired("idle") && sl_phase_is_retired("poll"));
  assert_false(sl_phase_is_retired("dispatch"));
  assert_null(sl_phase_by_id(3));
  assert_true(sl_phase_id_is_retired(3));
  assert_null(sl_phase_by_name("nonsense"));
  assert_null(sl_phase_by_name(NULL));

  const sl_phase_info *r = sl_phase_by_name("resolve");
  assert_int_equal(r->role, SL_PHASE_ROLE_INNER);
  assert_string_equal(r->parents, "complete,dummy");
  assert_int_equal(r->lane_id, SL_LANE_SCHED_SUB);
  assert_int_equal(sl_lane_tid(&sl_lane_table[r->lane_id], 1), 30011);
  const sl_phase_info *rs = sl_phase_by_name("resolve_standalone");
  assert_string_equal(rs->render_as, "resolve");
  assert_int_equal(rs->runtimes, SL_RUNTIME_HBG);
  assert_int_equal(sl_phase_by_name("dummy_task")->lane_id, SL_LANE_WORKER_AICPU);
  assert_int_equal(sl_phase_by_name("dummy_task")->variant, SL_PHASE_VARIANT_TASK);
  assert_int_equal(sl_phase_by_name("dispatch")->variant, SL_PHASE_VARIANT_DISPATCH);
  assert_string_equal(sl_phase_by_name("state_probe")->display, "StateProbe");
  assert_int_equal(sl_phase_by_name("refill")->producers, SL_PRODUCER_AICORE);
  assert_string_equal(sl_phase_by_name("complete")->cname, "good");
  assert_null(sl_phase_by_name("predicated_skip")->cname);
  assert_int_equal(sl_phase_variant_of(SL_PHASE_COMPLETE), SL_PHASE_VARIANT_NONE);
  assert_int_equal(sl_phase_variant_of(12345), SL_PHASE_VARIANT_DISPATCH);
}

/* Flows, pipes and the L3 host block: every entry named, keys unique, pids below the stride. */
static void test_flows_pipes_l3(void **state) {
  (void)state;
  for (int i = 0; i < SL_FLOW_TABLE_LEN; i++) {
    assert_true(sl_flow_table[i].key && sl_flow_table[i].name && *sl_flow_table[i].name);
    for (int j = 0; j < i; j++) assert_string_not_equal(sl_flow_table[i].key, sl_flow_table[j].key);
  }
  assert_non_null(strstr(sl_flow_table[SL_FLOW_ORCH_DISPATCH].name, "{display}"));
  for (int i = 0; i < SL_PIPE_LANE_COUNT; i++) {
    assert_true(sl_pipe_lane_names[i] && *sl_pipe_lane_names[i]);
    for (int j = 0; j < i; j++) assert_string_not_equal(sl_pipe_lane_names[i], sl_pipe_lane_names[j]);
  }
  for (int v = 0; v < SL_VIEW_TABLE_LEN; v++) assert_true(sl_view_table[v].pid < SL_L3_RANK_PID_STRIDE);
  const sl_lane_info *place = &sl_lane_table[SL_LANE_L3_PLACEMENT];
  assert_int_equal(place->pid, sl_view_table[SL_VIEW_L3_RANK_HOST].pid);
  assert_int_equal(sl_lane_tid(&sl_lane_table[SL_LANE_L3_NODE_TASK], 3),
                   sl_lane_table[SL_LANE_L3_NODE_TASK].tid_base + 3 * sl_lane_table[SL_LANE_L3_NODE_TASK].tid_stride);
}

static void test_lanes_levels_platforms_dtypes(void **state) {
  (void)state;
  assert_int_equal(sl_view_by_key("worker_view")->pid, 4);
  assert_string_equal(sl_view_table[SL_VIEW_SCHEDULER].process_name, "AICPU Scheduler");
  assert_int_equal(sl_view_by_key("aicpu_lifecycle")->pid, 6);
  assert_int_equal(sl_lane_tid(sl_lane_by_key("worker_aicpu"), 2), 19002);
  assert_int_equal(sl_lane_tid(sl_lane_by_key("worker_core"), 3), 10030);
  assert_ptr_equal(sl_lane_for_producer("aicore"), sl_lane_by_key("aicore_sched"));
  assert_null(sl_lane_for_producer("aicpu"));

  assert_int_equal(SL_LEVEL_COUNT, 5);
  assert_string_equal(sl_level_by_value(3)->name, "sched_phases");
  assert_int_equal(sl_level_by_name("orch_phases")->value, SL_LEVEL_ORCH_PHASES);
  assert_null(sl_level_by_value(5));

  const sl_platform_info *a = sl_platform_by_name("a2a3"), *as = sl_platform_by_name("a2a3sim");
  const sl_platform_info *b = sl_platform_by_name("a5sim");
  assert_non_null(a);
  assert_non_null(as);
  assert_non_null(b);
  assert_null(sl_platform_by_name("a3"));
  assert_true(as->is_sim && !a->is_sim);
  assert_string_equal(as->arch, "a2a3");
  assert_true(as->clock_freq_hz == 50000000u && b->clock_freq_hz == 1000000000u);
  assert_int_equal(as->readyqueue_size, 992);
  assert_int_equal(b->max_cores, 108);
  assert_int_equal(as->data_header->size, 127168);
  assert_int_equal(as->data_header->backpressure, 127100);
  assert_int_equal(b->data_header->size, 233152);
  assert_int_equal(b->data_header->core_to_thread, 233020);
  assert_int_equal(b->data_header->backpressure, 233128);
  assert_int_equal(SL_PLATFORM_MAX_MAX_CORES, 108);
  assert_int_equal(SL_TASK_ID_MASK, 0x7FFFFFFFu);

  assert_int_equal(sl_dtype_by_name("bfloat16")->raw, SL_DTYPE_BFLOAT16);
  assert_int_equal(sl_dtype_by_name("INT64")->size, 8);
  assert_true(sl_dtype_by_name("INT8")->is_integer);
  assert_false(sl_dtype_by_raw(12)->replayable);
  assert_null(sl_dtype_by_name("FLOAT128"));

  /* the shared-region buffer sizes */
  assert_int_equal(sl_buffer_bytes(SL_BUF_AICPU_TASK, sl_buffer_capacity(as, SL_BUF_AICPU_TASK)), 32064);
  assert_int_equal(sl_buffer_count_offset(SL_BUF_AICPU_TASK, 1000), 32000);
  assert_int_equal(sl_buffer_bytes(SL_BUF_AICORE_TASK, sl_buffer_capacity(as, SL_BUF_AICORE_TASK)), 32832);
  assert_int_equal(sl_buffer_bytes(SL_BUF_SCHED_PHASE, sl_buffer_capacity(b, SL_BUF_SCHED_PHASE)), 1048640);
  assert_int_equal(sl_buffer_bytes(SL_BUF_ORCH_PHASE, sl_buffer_capacity(b, SL_BUF_ORCH_PHASE)), 524352);
  assert_int_equal(sl_buffers_per_pool(as, SL_BUF_SCHED_PHASE), 6);
  assert_string_equal(sl_buffer_kind_table[SL_BUF_ORCH_PHASE].record_name, "sl_orch_phase_record");
  assert_int_equal(sl_buffer_kind_table[SL_BUF_SCHED_PHASE].record_size, 64);

  assert_int_equal(strlen(SL_SCHEMA_FINGERPRINT), 16);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_aicore_roundtrip),
      cmocka_unit_test(test_aicpu_roundtrip),
      cmocka_unit_test(test_sched_phase_roundtrip_every_variant),
      cmocka_unit_test(test_orch_and_lifecycle_roundtrip),
      cmocka_unit_test(test_from_pb_rejects_out_of_range),
      cmocka_unit_test(test_capture_container_roundtrip),
      cmocka_unit_test(test_writers_gate_on_level),
      cmocka_unit_test(test_json_writers),
      cmocka_unit_test(test_phase_table),
      cmocka_unit_test(test_phase_table_matches_rules_data),
      cmocka_unit_test(test_lanes_levels_platforms_dtypes),
      cmocka_unit_test(test_flows_pipes_l3),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
