/*
** test_flow_place.c — the flow placer: each end moves to the start of the slice
** Perfetto binds it to, never so that the source ends up after the sink.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "flow_place.h"

typedef struct world {
  FILE *devnull;
  sl_trace_sink *json;
  sl_flow_place *fp;
} world;

static void world_open(world *w) {
  w->devnull = fopen("/dev/null", "w");
  assert_non_null(w->devnull);
  w->json = sl_trace_sink_json_new(w->devnull);
  w->fp = sl_flow_place_new(w->json);
}

static void world_close(world *w) {
  sl_flow_place_free(w->fp);
  sl_sink_destroy(w->json);
  fclose(w->devnull);
}

static void slice(world *w, int64_t pid, int64_t tid, double ts, double dur, const char *cat) {
  sl_slice s = {.pid = pid, .tid = tid, .ts = ts, .dur = dur, .name = "x", .cat = cat};
  sl_sink_slice(sl_flow_place_sink(w->fp), &s);
}

static sl_flow end(char phase, int64_t pid, int64_t tid, double ts) {
  return (sl_flow){.phase = phase, .id = 1, .name = "f", .cat = "flow", .pid = pid, .tid = tid, .ts = ts,
                   .bp_enclosing = phase == 'f'};
}

/* Both ends move to their slices' starts; one category -> DevTools binds the pair. */
static void test_both_ends_move(void **state) {
  (void)state;
  world w;
  world_open(&w);
  slice(&w, 1, 1, 10.0, 5.0, "task");  /* source 10..15 */
  slice(&w, 2, 2, 16.0, 4.0, "task");  /* sink 16..20 */
  sl_flow s = end('s', 1, 1, 15.0), f = end('f', 2, 2, 17.0);
  assert_int_equal(sl_flow_place_pair(w.fp, &s, &f), 1);
  assert_true(s.ts == 10.0);
  assert_true(f.ts == 16.0);
  assert_string_equal(s.cat, "task");
  world_close(&w);
}

/* The sink's slice began before the source's: moving both would reverse the arrow,
** so only the source moves (it stays before the sink) and the sink keeps its ts. */
static void test_crossing_moves_source_only(void **state) {
  (void)state;
  world w;
  world_open(&w);
  slice(&w, 1, 1, 10.0, 5.0, "submit");   /* source 10..15, 's' at its very end */
  slice(&w, 2, 2, 8.0, 10.0, "dispatch"); /* sink 8..18 */
  sl_flow s = end('s', 1, 1, 15.0), f = end('f', 2, 2, 16.0);
  assert_int_equal(sl_flow_place_pair(w.fp, &s, &f), 0);
  assert_true(s.ts == 10.0);
  assert_true(f.ts == 16.0);
  assert_string_equal(s.cat, "flow");
  world_close(&w);
}

/* An end outside every slice stays where it is. */
static void test_unbound_end_stays(void **state) {
  (void)state;
  world w;
  world_open(&w);
  slice(&w, 1, 1, 10.0, 5.0, "task");
  sl_flow s = end('s', 1, 1, 30.0), f = end('f', 1, 1, 31.0);
  assert_int_equal(sl_flow_place_pair(w.fp, &s, &f), 0);
  assert_true(s.ts == 30.0);
  assert_true(f.ts == 31.0);
  world_close(&w);
}

/* A slice longer than 2^32 ns (its duration kept aside, not truncated): an end late
** inside it still binds to it and moves to its start. */
static void test_long_slice_binds(void **state) {
  (void)state;
  world w;
  world_open(&w);
  slice(&w, 1, 1, 100.0, 6e6, "task");    /* 6 s: 100 us .. 6.0001 s */
  slice(&w, 1, 1, 5e6, 10.0, "task");     /* nested, closed before the 's' */
  slice(&w, 2, 2, 7e6, 5.0, "task");
  sl_flow s = end('s', 1, 1, 5.9e6), f = end('f', 2, 2, 7e6 + 1.0);
  assert_int_equal(sl_flow_place_pair(w.fp, &s, &f), 1);
  assert_true(s.ts == 100.0);
  assert_true(f.ts == 7e6);
  world_close(&w);
}

static void id_slice(world *w, double ts, uint64_t id) {
  sl_slice s = {.pid = 1, .tid = 1, .ts = ts, .dur = 5.0, .name = "x", .cat = "task",
                .has_id = 1, .id = id};
  sl_sink_slice(sl_flow_place_sink(w->fp), &s);
}

/* Equal slices keep their arrival order through the lane's sort, so the later one is
** the innermost (as in Perfetto's importer) and the end names it, even when the lane
** arrived out of order. */
static void test_equal_slices_keep_arrival_order(void **state) {
  (void)state;
  world w;
  world_open(&w);
  id_slice(&w, 50.0, 9);
  id_slice(&w, 10.0, 7);
  id_slice(&w, 10.0, 8);
  slice(&w, 2, 2, 20.0, 5.0, "task");
  sl_flow s = end('s', 1, 1, 12.0), f = end('f', 2, 2, 21.0);
  s.has_bind_id = 1;
  s.bind_id = 0;
  assert_int_equal(sl_flow_place_pair(w.fp, &s, &f), 1);
  assert_true(s.ts == 10.0);
  assert_int_equal(s.bind_id, 8);
  world_close(&w);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_both_ends_move),
      cmocka_unit_test(test_crossing_moves_source_only),
      cmocka_unit_test(test_unbound_end_stays),
      cmocka_unit_test(test_long_slice_binds),
      cmocka_unit_test(test_equal_slices_keep_arrival_order),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
