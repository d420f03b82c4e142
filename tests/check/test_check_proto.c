/*
** test_check_proto.c — check-trace on crafted Perfetto protobuf traces: a valid
** trace passes with the right totals; each broken rule is reported with its
** message; broken framing is an error.
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sl_pftrace.h"
#include "test_util.h"

/* ---- a tiny trace builder --------------------------------------------------------------- */

typedef struct pkt {
  uint32_t seq; /* 0 = no sequence id */
  uint32_t flags;
  int desc; /* 1 process, 2 thread, 3 counter, 4 plain track */
  uint64_t uuid, parent;
  int no_pid, no_tid;
  int64_t pid, tid;
  int rank1;    /* sibling_order_rank + 1 (0 = none) */
  int explicit_children; /* child_ordering EXPLICIT */
  int type;    /* track event type; 0 = no event */
  int untyped; /* a track event without type */
  int no_ts;
  uint64_t ts;
  uint64_t track;
  uint64_t name_iid;
  const char *name;
  uint64_t cat_iid, ann_iid;
  int counter_value; /* 1 = set counter_value */
  uint64_t flow, term_flow;
  /* interned entries carried by this packet (iid 0 = none) */
  uint64_t def_name_iid;
  const char *def_name;
  uint64_t def_cat_iid, def_ann_iid;
} pkt;

static FILE *g_fp;
static sl_pf_writer g_w;

static void start_trace(void) {
  g_fp = fopen(tmp_path("t.pftrace"), "wb");
  assert_non_null(g_fp);
  sl_pf_writer_init(&g_w, g_fp);
}

static void emit(const pkt *s) {
  Perfetto__Protos__TracePacket p = PERFETTO__PROTOS__TRACE_PACKET__INIT;
  Perfetto__Protos__TrackDescriptor td = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
  Perfetto__Protos__ProcessDescriptor pd = PERFETTO__PROTOS__PROCESS_DESCRIPTOR__INIT;
  Perfetto__Protos__ThreadDescriptor th = PERFETTO__PROTOS__THREAD_DESCRIPTOR__INIT;
  Perfetto__Protos__CounterDescriptor cd = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;
  Perfetto__Protos__TrackEvent te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
  Perfetto__Protos__DebugAnnotation ann = PERFETTO__PROTOS__DEBUG_ANNOTATION__INIT;
  Perfetto__Protos__DebugAnnotation *annp = &ann;
  Perfetto__Protos__InternedData in = PERFETTO__PROTOS__INTERNED_DATA__INIT;
  Perfetto__Protos__EventName en = PERFETTO__PROTOS__EVENT_NAME__INIT, *enp = &en;
  Perfetto__Protos__EventCategory ec = PERFETTO__PROTOS__EVENT_CATEGORY__INIT, *ecp = &ec;
  Perfetto__Protos__DebugAnnotationName an = PERFETTO__PROTOS__DEBUG_ANNOTATION_NAME__INIT,
                                        *anp = &an;
  uint64_t cat = s->cat_iid, flow = s->flow, term = s->term_flow;
  if (s->seq) {
    p.has_trusted_packet_sequence_id = 1;
    p.trusted_packet_sequence_id = s->seq;
  }
  if (s->flags) {
    p.has_sequence_flags = 1;
    p.sequence_flags = s->flags;
  }
  if (s->def_name_iid || s->def_cat_iid || s->def_ann_iid) {
    if (s->def_name_iid) {
      en.has_iid = 1;
      en.iid = s->def_name_iid;
      en.name = (char *)s->def_name;
      in.n_event_names = 1;
      in.event_names = &enp;
    }
    if (s->def_cat_iid) {
      ec.has_iid = 1;
      ec.iid = s->def_cat_iid;
      ec.name = (char *)"cat";
      in.n_event_categories = 1;
      in.event_categories = &ecp;
    }
    if (s->def_ann_iid) {
      an.has_iid = 1;
      an.iid = s->def_ann_iid;
      an.name = (char *)"key";
      in.n_debug_annotation_names = 1;
      in.debug_annotation_names = &anp;
    }
    p.interned_data = &in;
  }
  if (s->desc) {
    if (s->uuid || s->desc != 4) {
      td.has_uuid = 1;
      td.uuid = s->uuid;
    }
    if (s->parent) {
      td.has_parent_uuid = 1;
      td.parent_uuid = s->parent;
    }
    if (s->rank1) {
      td.has_sibling_order_rank = 1;
      td.sibling_order_rank = s->rank1 - 1;
    }
    if (s->explicit_children) {
      td.has_child_ordering = 1;
      td.child_ordering = PERFETTO__PROTOS__TRACK_DESCRIPTOR__CHILD_TRACKS_ORDERING__EXPLICIT;
    }
    if (s->desc == 1) {
      pd.has_pid = !s->no_pid;
      pd.pid = (int32_t)s->pid;
      td.process = &pd;
    } else if (s->desc == 2) {
      th.has_pid = !s->no_pid;
      th.pid = (int32_t)s->pid;
      th.has_tid = !s->no_tid;
      th.tid = s->tid;
      td.thread = &th;
    } else if (s->desc == 3) {
      td.counter = &cd;
    }
    p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR;
    p.track_descriptor = &td;
  }
  if (s->type || s->untyped) {
    if (!s->no_ts) {
      p.has_timestamp = 1;
      p.timestamp = s->ts;
    }
    if (s->type) {
      te.has_type = 1;
      te.type = (Perfetto__Protos__TrackEvent__Type)s->type;
    }
    te.has_track_uuid = s->track != 0;
    te.track_uuid = s->track;
    if (s->name_iid) {
      te.name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME_IID;
      te.name_iid = s->name_iid;
    } else if (s->name) {
      te.name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME;
      te.name = (char *)s->name;
    }
    if (s->cat_iid) {
      te.n_category_iids = 1;
      te.category_iids = &cat;
    }
    if (s->ann_iid) {
      ann.name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME_IID;
      ann.name_iid = s->ann_iid;
      ann.value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE;
      ann.int_value = 1;
      te.n_debug_annotations = 1;
      te.debug_annotations = &annp;
    }
    if (s->counter_value) {
      te.counter_value_field_case =
          PERFETTO__PROTOS__TRACK_EVENT__COUNTER_VALUE_FIELD_COUNTER_VALUE;
      te.counter_value = 3;
    }
    if (flow) {
      te.n_flow_ids = 1;
      te.flow_ids = &flow;
    }
    if (term) {
      te.n_terminating_flow_ids = 1;
      te.terminating_flow_ids = &term;
    }
    p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT;
    p.track_event = &te;
  }
  assert_int_equal(sl_pf_write_packet(&g_w, &p), 0);
}

static check_result finish_and_check(void) {
  sl_pf_writer_free(&g_w);
  fclose(g_fp);
  check_result r = run_check('p', tmp_path("t.pftrace"));
  remove(tmp_path("t.pftrace"));
  return r;
}

enum { B = 1, E = 2, I = 3, C = 4 };
#define NEEDS SL_PF_SEQ_NEEDS_STATE
#define CLEARED (SL_PF_SEQ_CLEARED | SL_PF_SEQ_NEEDS_STATE)

/* The valid trace every bad case starts from; `bad` is applied at step `at`. */
static void valid_prefix(void) {
  emit(&(pkt){.seq = 1,
              .flags = CLEARED,
              .def_name_iid = 1,
              .def_name = "a",
              .def_cat_iid = 1,
              .def_ann_iid = 1});
  emit(&(pkt){.seq = 1, .desc = 1, .uuid = 10, .pid = 1, .rank1 = 1, .explicit_children = 1});
  emit(&(pkt){.seq = 1, .desc = 2, .uuid = 11, .pid = 1, .tid = 2, .rank1 = 2});
  emit(&(pkt){.seq = 1, .desc = 3, .uuid = 12, .parent = 10});
  emit(&(pkt){.seq = 1, .desc = 2, .uuid = 13, .pid = 1, .tid = 3, .rank1 = 1});
}

static void test_valid_trace(void **state) {
  (void)state;
  start_trace();
  valid_prefix();
  emit(&(pkt){.seq = 1,
              .flags = NEEDS,
              .type = B,
              .ts = 100,
              .track = 11,
              .name_iid = 1,
              .cat_iid = 1,
              .ann_iid = 1,
              .flow = 5});
  emit(&(pkt){.seq = 1,
              .flags = NEEDS,
              .type = B,
              .ts = 150,
              .track = 11,
              .name_iid = 2,
              .def_name_iid = 2,
              .def_name = "b"});
  emit(&(pkt){.seq = 1, .flags = NEEDS, .type = E, .ts = 200, .track = 11, .name_iid = 2});
  /* equal timestamps: END of "a" before the next BEGIN on the same track */
  emit(&(pkt){.seq = 1, .type = E, .ts = 300, .track = 11});
  emit(&(pkt){.seq = 1, .type = B, .ts = 300, .track = 11, .name = "c"});
  emit(&(pkt){.seq = 1, .type = E, .ts = 310, .track = 11});
  emit(&(pkt){.seq = 1, .type = B, .ts = 300, .track = 13, .name = "d", .term_flow = 5});
  emit(&(pkt){.seq = 1, .type = E, .ts = 400, .track = 13});
  emit(&(pkt){.seq = 1, .type = C, .ts = 100, .track = 12, .counter_value = 1});
  emit(&(pkt){.seq = 1, .type = I, .ts = 120, .track = 13, .name = "mark"});
  check_result r = finish_and_check();
  assert_int_equal(r.rc, 0);
  assert_string_equal(r.text, "");
  assert_int_equal(r.ctx.events, 10);
  assert_int_equal(r.ctx.slices, 5); /* a, b, c, d + the instant */
  assert_int_equal(r.ctx.flows, 1);
  assert_int_equal(r.ctx.tracks, 4);
  free_result(&r);
}

typedef struct bad_case {
  pkt extra[3];  /* appended after the valid prefix */
  int no_prefix; /* start from an empty file instead */
  const char *message;
} bad_case;

static const bad_case bad_cases[] = {
    {{{.type = B, .ts = 1, .track = 11, .name = "x"}, {.seq = 1, .type = E, .ts = 2, .track = 11}},
     0,
     "track_event_missing_sequence_id"},
    {{{.flags = NEEDS, .def_name_iid = 3, .def_name = "x"}},
     0,
     "SEQ_NEEDS_INCREMENTAL_STATE with sequence id 0"},
    {{{.seq = 7, .def_name_iid = 1, .def_name = "x"}},
     0,
     "before any SEQ_INCREMENTAL_STATE_CLEARED"},
    {{{.seq = 7, .flags = NEEDS, .type = I, .ts = 1, .track = 11, .name = "x"}},
     0,
     "needs incremental state but was never cleared"},
    {{{.seq = 1, .flags = NEEDS, .type = I, .ts = 1, .track = 11, .name_iid = 9}},
     0,
     "name_iid 9 is not defined on sequence 1"},
    {{{.seq = 2, .flags = CLEARED},
      {.seq = 2, .flags = NEEDS, .type = I, .ts = 1, .track = 11, .name_iid = 1}},
     0,
     "name_iid 1 is not defined on sequence 2"},
    {{{.seq = 1, .flags = CLEARED},
      {.seq = 1, .flags = NEEDS, .type = I, .ts = 1, .track = 11, .name_iid = 1}},
     0,
     "name_iid 1 is not defined on sequence 1"},
    {{{.seq = 1, .flags = NEEDS, .type = I, .ts = 1, .track = 11, .name = "x", .cat_iid = 4}},
     0,
     "category iid 4 is not defined"},
    {{{.seq = 1, .flags = NEEDS, .type = I, .ts = 1, .track = 11, .name = "x", .ann_iid = 4}},
     0,
     "debug annotation name_iid 4 is not defined"},
    {{{.seq = 1, .desc = 2, .uuid = 20, .pid = 1, .no_tid = 1}}, 0, "without pid and tid"},
    {{{.seq = 1, .desc = 1, .uuid = 20, .no_pid = 1}},
     0,
     "without pid (track_descriptor_process_missing_pid)"},
    {{{.seq = 1, .desc = 4, .uuid = 0}}, 0, "TrackDescriptor without a non-zero uuid"},
    {{{.seq = 1, .desc = 2, .uuid = 11, .pid = 1, .tid = 9}},
     0,
     "uuid 11 already names a different track"},
    {{{.seq = 1, .desc = 1, .uuid = 21, .pid = 1}}, 0, "a second process track for pid 1"},
    {{{.seq = 1, .desc = 2, .uuid = 21, .pid = 1, .tid = 2}},
     0,
     "a second thread track for pid 1 tid 2"},
    {{{.seq = 1, .type = I, .ts = 1, .track = 99, .name = "x"}},
     0,
     "track_uuid 99 has no TrackDescriptor"},
    {{{.seq = 1, .type = B, .ts = 1, .track = 11, .name = "x"}}, 0, "BEGIN \"x\" is never ended"},
    {{{.seq = 1, .type = E, .ts = 1, .track = 11}}, 0, "END without an open BEGIN"},
    {{{.seq = 1, .type = B, .ts = 0, .track = 11, .name = "a1"},
      {.seq = 1, .type = B, .ts = 5, .track = 11, .name = "b1"},
      {.seq = 1, .type = E, .ts = 5, .track = 11, .name = "a1"}},
     0,
     "END of \"a1\" closes \"b1\""},
    {{{.seq = 1, .type = C, .ts = 1, .track = 11, .counter_value = 1}},
     0,
     "counter event on a track without a CounterDescriptor"},
    {{{.seq = 1, .type = I, .ts = 1, .track = 12, .name = "x"}},
     0,
     "slice event on counter track 12"},
    {{{.seq = 1, .type = C, .ts = 1, .track = 12}}, 0, "counter event without counter_value"},
    {{{.seq = 1, .type = I, .ts = 1, .track = 11, .name = "x", .flow = 77}},
     0,
     "flow 77 has a single endpoint"},
    {{{.seq = 1, .type = I, .ts = 1, .track = 11, .name = "x", .term_flow = 78}},
     0,
     "flow 78 terminates at its first endpoint"},
    {{{.seq = 1, .type = I, .no_ts = 1, .track = 11, .name = "x"}},
     0,
     "track_event_missing_timestamp"},
    {{{.seq = 1, .type = I, .ts = UINT64_MAX, .track = 11, .name = "x"}}, 0, "negative timestamp"},
    {{{.seq = 1, .desc = 4, .uuid = 30, .parent = 31}},
     0,
     "parent_uuid 31 of track 30 names no track"},
    {{{.seq = 1, .untyped = 1, .ts = 1, .track = 11, .name = "x"}}, 0, "without a known type"},
    {{{.seq = 1, .type = I, .ts = 1, .track = 11}}, 0, "slice without a name"},
};

static void test_each_bad_trace_is_reported(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
    start_trace();
    if (!bad_cases[i].no_prefix) valid_prefix();
    for (size_t k = 0; k < 3; k++) {
      const pkt *x = &bad_cases[i].extra[k];
      if (x->seq || x->flags || x->desc || x->type || x->untyped || x->def_name_iid) emit(x);
    }
    check_result r = finish_and_check();
    if (r.rc != 0 || r.problems == 0 || !strstr(r.text, bad_cases[i].message)) {
      print_error("case %zu: expected \"%s\"\ngot rc %d, %llu problems:\n%s\n", i,
                  bad_cases[i].message, r.rc, (unsigned long long)r.problems, r.text);
      fail();
    }
    free_result(&r);
  }
}

static void test_iids_without_needs_flag_warn(void **state) {
  (void)state;
  start_trace();
  valid_prefix();
  emit(&(pkt){.seq = 1, .type = I, .ts = 1, .track = 11, .name_iid = 1});
  check_result r = finish_and_check();
  assert_int_equal(r.rc, 0);
  assert_int_equal(r.problems, 0);
  assert_int_equal(r.warnings, 1);
  assert_non_null(strstr(r.text, "warning: packet #5"));
  assert_non_null(strstr(r.text, "without SEQ_NEEDS_INCREMENTAL_STATE"));
  free_result(&r);
}

/* A flow whose two ends share a timestamp, the second written after the file had
** moved past it (a writer emitting track by track): Perfetto's tie order is the
** file position, so the arrow may be reversed. In time order it is not flagged. */
static void flow_at_equal_ts(int out_of_order) {
  start_trace();
  valid_prefix();
  emit(&(pkt){.seq = 1, .type = B, .ts = 500, .track = 11, .name = "src", .flow = 90});
  if (!out_of_order) emit(&(pkt){.seq = 1, .type = B, .ts = 500, .track = 13, .name = "dst", .flow = 90});
  emit(&(pkt){.seq = 1, .type = E, .ts = 600, .track = 11});
  if (out_of_order) emit(&(pkt){.seq = 1, .type = B, .ts = 500, .track = 13, .name = "dst", .flow = 90});
  emit(&(pkt){.seq = 1, .type = E, .ts = 700, .track = 13});
}

static void test_reversed_flow_warns(void **state) {
  (void)state;
  flow_at_equal_ts(1);
  check_result r = finish_and_check();
  assert_int_equal(r.rc, 0);
  assert_int_equal(r.problems, 0);
  assert_int_equal(r.warnings, 1);
  assert_non_null(strstr(r.text, "flow 90: both ends at ts 0.500"));
  assert_non_null(strstr(r.text, "after the file reached ts 0.600"));
  assert_non_null(strstr(r.text, "may point backwards"));
  free_result(&r);
  flow_at_equal_ts(0);
  r = finish_and_check();
  assert_int_equal(r.rc, 0);
  assert_int_equal(r.warnings, 0);
  assert_string_equal(r.text, "");
  free_result(&r);
}

/* Process / thread tracks without sibling_order_rank, and thread ranks under a
** process that does not ask for explicit child order: both lose the producer's
** layout in Perfetto. */
static void test_lost_ordering_warns(void **state) {
  (void)state;
  start_trace();
  emit(&(pkt){.seq = 1, .flags = CLEARED});
  emit(&(pkt){.seq = 1, .desc = 1, .uuid = 10, .pid = 1});
  emit(&(pkt){.seq = 1, .desc = 2, .uuid = 11, .pid = 1, .tid = 2, .rank1 = 1});
  emit(&(pkt){.seq = 1, .desc = 2, .uuid = 13, .pid = 1, .tid = 3});
  check_result r = finish_and_check();
  assert_int_equal(r.rc, 0);
  assert_int_equal(r.problems, 0);
  assert_int_equal(r.warnings, 2);
  assert_non_null(strstr(r.text, "1 of 1 process tracks and 1 of 2 thread tracks have no sibling_order_rank"));
  assert_non_null(strstr(r.text, "thread track 11 has a sibling_order_rank, but process 1 does not set "
                                 "child_ordering EXPLICIT"));
  free_result(&r);
}

static void test_broken_framing_is_an_error(void **state) {
  (void)state;
  static const struct {
    const char *bytes;
    size_t len;
  } inputs[] = {
      {"", 0},                 /* empty */
      {"hello", 5},            /* not a packet field */
      {"\x0a\x05\x40\x01", 4}, /* truncated frame */
      {"\x0a", 1},             /* truncated length */
      {"\x0a\x02\xff\xff", 4}, /* frame is not a TracePacket */
  };
  for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
    write_file(tmp_path("bad.pftrace"), inputs[i].bytes, inputs[i].len);
    check_result r = run_check('p', tmp_path("bad.pftrace"));
    if (r.rc != -1) {
      print_error("input %zu should be unreadable\n", i);
      fail();
    }
    free_result(&r);
  }
  remove(tmp_path("bad.pftrace"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_valid_trace),
      cmocka_unit_test(test_each_bad_trace_is_reported),
      cmocka_unit_test(test_iids_without_needs_flag_warn),
      cmocka_unit_test(test_reversed_flow_warns),
      cmocka_unit_test(test_lost_ordering_warns),
      cmocka_unit_test(test_broken_framing_is_an_error),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
