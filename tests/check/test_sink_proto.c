/*
** test_sink_proto.c — the Perfetto protobuf backend: the reference fixture
** replayed through it gives a trace that passes check-trace and holds the same
** slices (per process/thread, exact ns), flows and counters as the JSON; crafted
** inputs exercise ordering at equal timestamps, overlaps and exact uint64 args.
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "replay_json.h"
#include "sl_pftrace.h"
#include "test_util.h"
#include "sl_test_file.h"

/* ---- decoding the written trace back --------------------------------------------------- */

typedef struct dslice {
  int64_t pid, tid;
  char name[96];
  uint64_t start, end;
  uint64_t track;
  size_t nflows;
  uint64_t flows[4];
  size_t nargs;
  int has_uint;
  uint64_t uint_value;
} dslice;

typedef struct decoded {
  dslice slices[4096];
  size_t nslices;
  size_t ncounters, ncounter_tracks, noverflow;
  char thread_names[256][64];
  size_t nthreads;
} decoded;

typedef struct dtrack {
  uint64_t uuid, parent;
  int64_t pid, tid;
  int thread;
} dtrack;

static decoded *decode(const char *path) {
  decoded *d = calloc(1, sizeof *d);
  dtrack tracks[512];
  size_t ntracks = 0;
  char names[512][96] = {{0}};
  size_t open_stack[512][16], depth[512] = {0};
  FILE *fp = fopen(path, "rb");
  assert_non_null(fp);
  sl_pf_reader r;
  sl_pf_reader_init(&r, fp);
  const uint8_t *data;
  size_t len;
  while (sl_pf_read_frame(&r, &data, &len) == 1) {
    Perfetto__Protos__TracePacket *p = perfetto__protos__trace_packet__unpack(NULL, len, data);
    assert_non_null(p);
    assert_int_equal(p->base.n_unknown_fields, 0);
    if (p->interned_data)
      for (size_t i = 0; i < p->interned_data->n_event_names; i++) {
        uint64_t iid = p->interned_data->event_names[i]->iid;
        assert_true(iid < 512);
        snprintf(names[iid], sizeof names[iid], "%s", p->interned_data->event_names[i]->name);
      }
    if (p->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR) {
      Perfetto__Protos__TrackDescriptor *t = p->track_descriptor;
      dtrack *x = &tracks[ntracks++];
      *x = (dtrack){.uuid = t->uuid, .parent = t->parent_uuid};
      if (t->thread) {
        x->thread = 1;
        x->pid = t->thread->pid;
        x->tid = t->thread->tid;
        if (t->thread->thread_name && d->nthreads < 256)
          snprintf(d->thread_names[d->nthreads++], 64, "%s", t->thread->thread_name);
      }
      if (t->counter) d->ncounter_tracks++;
      if (t->static_or_dynamic_name_case && strstr(t->name, "(overlap")) {
        d->noverflow++;
        for (size_t k = 0; k < ntracks - 1; k++)
          if (tracks[k].uuid == t->parent_uuid) {
            x->pid = tracks[k].pid;
            x->tid = tracks[k].tid;
          }
      }
    }
    if (p->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT) {
      Perfetto__Protos__TrackEvent *te = p->track_event;
      size_t ti = 0;
      while (ti < ntracks && tracks[ti].uuid != te->track_uuid) ti++;
      assert_true(ti < ntracks);
      if (te->type == PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER) d->ncounters++;
      if (te->type == PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN) {
        dslice *s = &d->slices[d->nslices];
        *s = (dslice){.pid = tracks[ti].pid,
                      .tid = tracks[ti].tid,
                      .start = p->timestamp,
                      .track = te->track_uuid,
                      .nflows = te->n_flow_ids,
                      .nargs = te->n_debug_annotations};
        snprintf(s->name, sizeof s->name, "%s", names[te->name_iid]);
        for (size_t k = 0; k < te->n_flow_ids && k < 4; k++) s->flows[k] = te->flow_ids[k];
        for (size_t k = 0; k < te->n_debug_annotations; k++)
          if (te->debug_annotations[k]->value_case ==
              PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_UINT_VALUE) {
            s->has_uint = 1;
            s->uint_value = te->debug_annotations[k]->uint_value;
          }
        open_stack[ti][depth[ti]++] = d->nslices++;
      }
      if (te->type == PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END) {
        assert_true(depth[ti] > 0);
        d->slices[open_stack[ti][--depth[ti]]].end = p->timestamp;
      }
    }
    perfetto__protos__trace_packet__free_unpacked(p, NULL);
  }
  sl_pf_reader_free(&r);
  fclose(fp);
  return d;
}

static int cmp_dslice(const void *a, const void *b) {
  const dslice *x = a, *y = b;
  if (x->pid != y->pid) return x->pid < y->pid ? -1 : 1;
  if (x->tid != y->tid) return x->tid < y->tid ? -1 : 1;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  if (x->end != y->end) return x->end > y->end ? -1 : 1;
  return strcmp(x->name, y->name);
}

/* ---- the fixture -------------------------------------------------------------------------- */

static const char *fixture(void) {
  static char path[1024];
  const char *dir = getenv("SL_FIXTURES");
  snprintf(path, sizeof path, "%s/anchor-l4/expected_l4.trace.json", dir ? dir : "tests/fixtures");
  return path;
}

static void write_proto_from_json(const char *json, const char *out) {
  FILE *fp = fopen(out, "wb");
  assert_non_null(fp);
  sl_trace_sink *sink = sl_trace_sink_proto_new(fp);
  assert_int_equal(sl_test_replay_json(json, sink), 0);
  assert_int_equal(sl_sink_finish(sink), 0);
  sl_sink_destroy(sink);
  fclose(fp);
}

static void test_fixture_passes_check(void **state) {
  (void)state;
  const char *out = tmp_path("fixture.pftrace");
  write_proto_from_json(fixture(), out);
  check_result r = run_check('p', out);
  assert_int_equal(r.rc, 0);
  if (r.problems || r.warnings) print_error("%s", r.text);
  assert_int_equal(r.problems, 0);
  assert_int_equal(r.warnings, 0);
  assert_int_equal(r.ctx.slices, 45);
  assert_int_equal(r.ctx.flows, 58);
  free_result(&r);
  remove(out);
}

/* The JSON trace and the .pftrace to compare; by default the fixture and its
** replay, or (with two arguments) a pair written by `swimlane convert`. */
static const char *g_json, *g_proto;

/* The protobuf trace holds the JSON's slices per (pid, tid) at the same ns, one
** counter event per counter series sample, and both ends of every flow. */
static void compare_with_json(const char *json, const char *proto) {
  decoded *d = decode(proto);

  /* expected slices from the JSON, ns the way Perfetto's JSON importer computes */
  char *text = sl_test_read_file(json, NULL);
  assert_non_null(text);
  cJSON *root = cJSON_Parse(text);
  free(text);
  dslice *want = calloc(4096, sizeof *want);
  size_t nwant = 0, ncounter_samples = 0, nflows = 0, ntracks = 0;
  char (*tracks)[160] = calloc(256, sizeof *tracks); /* "<pid> <name> <key>": one counter track each */
  char (*threads)[64] = calloc(256, sizeof *threads); /* the JSON's thread names */
  size_t nthreads = 0;
  assert_non_null(tracks);
  assert_non_null(threads);
  const cJSON *e;
  cJSON_ArrayForEach(e, cJSON_GetObjectItem(root, "traceEvents")) {
    const char *ph = cJSON_GetObjectItem(e, "ph")->valuestring;
    const cJSON *k, *nm = cJSON_GetObjectItem(e, "name");
    if (*ph == 'M' && cJSON_IsString(nm) && !strcmp(nm->valuestring, "thread_name") && nthreads < 256)
      snprintf(threads[nthreads++], 64, "%s", cJSON_GetObjectItem(cJSON_GetObjectItem(e, "args"), "name")->valuestring);
    if (*ph == 'C') ncounter_samples += (size_t)cJSON_GetArraySize(cJSON_GetObjectItem(e, "args"));
    if (*ph == 'C') {
      cJSON_ArrayForEach(k, cJSON_GetObjectItem(e, "args")) {
        char t[160];
        snprintf(t, sizeof t, "%.0f %s %s", cJSON_GetObjectItem(e, "pid")->valuedouble,
                 cJSON_GetObjectItem(e, "name")->valuestring, k->string);
        size_t i = 0;
        while (i < ntracks && strcmp(tracks[i], t)) i++;
        if (i == ntracks && ntracks < 256) memcpy(tracks[ntracks++], t, sizeof t);
      }
    }
    if (*ph == 's') nflows++;
    if (*ph != 'X') continue;
    dslice *s = &want[nwant++];
    s->pid = (int64_t)cJSON_GetObjectItem(e, "pid")->valuedouble;
    s->tid = (int64_t)cJSON_GetObjectItem(e, "tid")->valuedouble;
    s->start = (uint64_t)llround(cJSON_GetObjectItem(e, "ts")->valuedouble * 1000.0);
    s->end = s->start + (uint64_t)llround(cJSON_GetObjectItem(e, "dur")->valuedouble * 1000.0);
    snprintf(s->name, sizeof s->name, "%s", cJSON_GetObjectItem(e, "name")->valuestring);
  }
  cJSON_Delete(root);

  assert_int_equal(d->nslices, nwant);
  qsort(want, nwant, sizeof *want, cmp_dslice);
  qsort(d->slices, d->nslices, sizeof *d->slices, cmp_dslice);
  for (size_t i = 0; i < nwant; i++) {
    assert_int_equal(d->slices[i].pid, want[i].pid);
    assert_int_equal(d->slices[i].tid, want[i].tid);
    assert_string_equal(d->slices[i].name, want[i].name);
    assert_int_equal(d->slices[i].start, want[i].start);
    assert_int_equal(d->slices[i].end, want[i].end);
  }
  assert_int_equal(d->ncounters, ncounter_samples);
  assert_int_equal(d->ncounter_tracks, ntracks); /* the fixture: shared_ready_queue AIC / AIV / MIX */
  free(tracks);
  assert_int_equal(d->noverflow, 0);
  /* every flow has both ends: 2 endpoints per JSON s/f pair */
  size_t ends = 0;
  for (size_t i = 0; i < d->nslices; i++) ends += d->slices[i].nflows;
  assert_int_equal(ends, 2 * nflows);
  /* thread names carried over: every one the JSON names (the fixture's AIC_0 among them) */
  assert_true(nthreads > 0);
  for (size_t t = 0; t < nthreads; t++) {
    int found = 0;
    for (size_t i = 0; i < d->nthreads && !found; i++) found = !strcmp(d->thread_names[i], threads[t]);
    if (!found) print_error("thread '%s' is not in the .pftrace\n", threads[t]);
    assert_true(found);
  }
  free(threads);
  free(want);
  free(d);
}

static void test_fixture_same_content_as_json(void **state) {
  (void)state;
  const char *out = tmp_path("fixture2.pftrace");
  write_proto_from_json(fixture(), out);
  compare_with_json(fixture(), out);
  remove(out);
}

static void test_given_pair_same_content(void **state) {
  (void)state;
  compare_with_json(g_json, g_proto);
}

/* ---- crafted orderings ------------------------------------------------------------------- */

static sl_slice S(int64_t tid, double ts, double dur, const char *name, uint64_t id) {
  return (sl_slice){
      .pid = 7, .tid = tid, .ts = ts, .dur = dur, .name = name, .cat = "c", .has_id = 1, .id = id};
}

static void test_ordering_overlap_and_exact_args(void **state) {
  (void)state;
  const char *out = tmp_path("crafted.pftrace");
  FILE *fp = fopen(out, "wb");
  sl_trace_sink *k = sl_trace_sink_proto_new(fp);
  sl_sink_thread_name(k, 7, 1, "lane");
  /* arrival order deliberately scrambled */
  sl_slice v[] = {
      S(1, 5, 3, "B", 2),     /* adjacent to A at t=5: END A must precede BEGIN B */
      S(1, 0, 1, "child", 3), /* same start as its parent, arrives first */
      S(1, 0, 5, "A", 1),         S(1, 5, 0, "zero", 4), /* zero-length at the boundary */
      S(1, 6, 4, "overlap", 5),   /* overlaps B without nesting -> overflow track */
      S(2, -1, 1, "negative", 6), /* dropped: no negative time in Perfetto */
  };
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) sl_sink_slice(k, &v[i]);
  sl_arg big = SL_ARG_U("taskId", UINT64_MAX);
  sl_slice withargs = {
      .pid = 7, .tid = 3, .ts = 1, .dur = 1, .name = "args", .args = &big, .nargs = 1};
  sl_sink_slice(k, &withargs);
  sl_flow s = {.phase = 's',
               .id = 1,
               .name = "dep",
               .cat = "flow",
               .pid = 7,
               .tid = 1,
               .ts = 0,
               .has_bind_id = 1,
               .bind_id = 1};
  sl_flow f = {.phase = 'f',
               .id = 1,
               .name = "dep",
               .cat = "flow",
               .pid = 7,
               .tid = 1,
               .ts = 7,
               .bp_enclosing = 1}; /* by position: inside B */
  sl_sink_flow(k, &s);
  sl_sink_flow(k, &f);
  assert_int_equal(sl_sink_finish(k), 0);
  assert_int_equal(k->dropped, 1); /* "negative": left out, for the command to report */
  sl_sink_destroy(k);
  fclose(fp);

  check_result r = run_check('p', out);
  if (r.problems) print_error("%s", r.text);
  assert_int_equal(r.rc, 0);
  assert_int_equal(r.problems, 0);
  assert_int_equal(r.ctx.slices, 6);
  assert_int_equal(r.ctx.flows, 1);
  free_result(&r);

  decoded *d = decode(out);
  assert_int_equal(d->nslices, 6);
  assert_int_equal(d->noverflow, 1);
  for (size_t i = 0; i < d->nslices; i++) {
    dslice *x = &d->slices[i];
    if (!strcmp(x->name, "A")) {
      assert_int_equal(x->end, 5000);
      assert_int_equal(x->nflows, 0);
    }
    if (!strcmp(x->name, "child")) { /* innermost at ts 0: where Perfetto binds 's' */
      assert_int_equal(x->end, 1000);
      assert_int_equal(x->nflows, 1);
    }
    if (!strcmp(x->name, "B")) {
      assert_int_equal(x->start, 5000);
      assert_int_equal(x->end, 8000);
      assert_int_equal(x->nflows, 1);
    }
    if (!strcmp(x->name, "overlap")) assert_int_equal(x->pid, 7); /* on lane 1's overflow */
    if (!strcmp(x->name, "args")) {
      assert_true(x->has_uint);
      assert_true(x->uint_value == UINT64_MAX);
    }
    assert_string_not_equal(x->name, "negative");
  }
  free(d);
  remove(out);
}

/* The first two slices of the trace, on one lane, overlapping without nesting: the
** second goes to the lane's overflow track (the lane is not closed between them). */
static void test_first_slices_overlap(void **state) {
  (void)state;
  const char *out = tmp_path("first_overlap.pftrace");
  FILE *fp = fopen(out, "wb");
  sl_trace_sink *k = sl_trace_sink_proto_new(fp);
  sl_sink_thread_name(k, 7, 1, "lane");
  sl_slice v[] = {S(1, 0, 10, "first", 1), S(1, 5, 10, "second", 2)};
  for (size_t i = 0; i < 2; i++) sl_sink_slice(k, &v[i]);
  assert_int_equal(sl_sink_finish(k), 0);
  sl_sink_destroy(k);
  fclose(fp);
  decoded *d = decode(out);
  assert_int_equal(d->nslices, 2);
  assert_int_equal(d->noverflow, 1);
  assert_true(d->slices[0].track != d->slices[1].track);
  free(d);
  remove(out);
}

static void test_write_failure_is_reported(void **state) {
  (void)state;
  FILE *fp = fopen("/dev/full", "wb");
  if (!fp) skip();
  sl_trace_sink *k = sl_trace_sink_proto_new(fp);
  sl_slice s = S(1, 0, 1, "x", 1);
  for (int i = 0; i < 2000; i++) sl_sink_slice(k, &s);
  assert_int_equal(sl_sink_finish(k), -1);
  sl_sink_destroy(k);
  fclose(fp);
}

int main(int argc, char **argv) {
  if (argc == 3) { /* test_sink_proto TRACE.json TRACE.pftrace */
    g_json = argv[1];
    g_proto = argv[2];
    const struct CMUnitTest pair[] = {cmocka_unit_test(test_given_pair_same_content)};
    return cmocka_run_group_tests(pair, NULL, NULL);
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fixture_passes_check),
      cmocka_unit_test(test_fixture_same_content_as_json),
      cmocka_unit_test(test_ordering_overlap_and_exact_args),
      cmocka_unit_test(test_first_slices_overlap),
      cmocka_unit_test(test_write_failure_is_reported),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
