/*
** test_l0_pipe.c — the pipe model: pipelining, flags, barriers, cross-core
** flags, deadlock reports, arch tables, the Insight writer and turn-taking runs.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "sl_pipe.h"

static void rec(sl_pipe_model *m, sl_subcore c, sl_pipe pipe, const char *mn, uint64_t work, sl_pipe peer, int ev) {
  sl_instr ins = {pipe, mn, work, peer, ev, "k.c", 7, NULL, 0};
  sl_pipe_record(m, c, &ins);
}

static const sl_pipe_arch *a2a3(void) { return sl_pipe_arch_find("a2a3sim"); }

/* Two loads on one pipe overlap: the second issues after the first's occupancy,
** long before the first completes. Exact cycles from the a2a3 table. */
static void test_pipelining(void **state) {
  (void)state;
  sl_pipe_model m;
  sl_pipe_model_init(&m, a2a3());
  m.core[SL_SUBCORE_CUBE].ran = 1;
  rec(&m, SL_SUBCORE_CUBE, SL_PIPE_MTE2, "LOAD_GM_TO_L1", 640, SL_PIPE_MTE2, 0);
  rec(&m, SL_SUBCORE_CUBE, SL_PIPE_MTE2, "LOAD_GM_TO_L1", 640, SL_PIPE_MTE2, 0);
  assert_int_equal(sl_pipe_timeline(&m), 0);
  const sl_pipe_rec *r = m.core[SL_SUBCORE_CUBE].recs;
  uint64_t occ, lat;
  sl_pipe_cost_of(a2a3(), SL_PIPE_MTE2, "LOAD_GM_TO_L1", 640, &occ, &lat);
  assert_true(occ < lat);
  assert_int_equal(r[0].start, 0);
  assert_int_equal(r[0].end, lat);
  assert_int_equal(r[1].start, occ);
  assert_int_equal(r[1].end, occ + lat);
  assert_true(r[1].start < r[0].end); /* overlap */
  sl_pipe_model_free(&m);
}

/* SET_FLAG fires after earlier work on its pipe; WAIT_FLAG holds the waiting
** pipe until then, so the MTE1 copy starts after the MTE2 load completed. */
static void test_flags_order_pipes(void **state) {
  (void)state;
  sl_pipe_model m;
  sl_pipe_model_init(&m, a2a3());
  m.core[SL_SUBCORE_CUBE].ran = 1;
  rec(&m, SL_SUBCORE_CUBE, SL_PIPE_MTE2, "LOAD_GM_TO_L1", 4096, SL_PIPE_MTE2, 0);
  rec(&m, SL_SUBCORE_CUBE, SL_PIPE_MTE2, "SET_FLAG", 0, SL_PIPE_MTE1, 0);
  rec(&m, SL_SUBCORE_CUBE, SL_PIPE_MTE1, "WAIT_FLAG", 0, SL_PIPE_MTE2, 0);
  rec(&m, SL_SUBCORE_CUBE, SL_PIPE_MTE1, "LOAD_2D", 4096, SL_PIPE_MTE1, 0);
  assert_int_equal(sl_pipe_timeline(&m), 0);
  const sl_pipe_rec *r = m.core[SL_SUBCORE_CUBE].recs;
  assert_true(r[1].start >= r[0].end);
  assert_true(r[2].end >= r[1].end);
  assert_true(r[3].start >= r[2].end);
  assert_true(r[3].start >= r[0].end);
  /* without the flag the copy would have started right away */
  sl_pipe_model_free(&m);
  sl_pipe_model_init(&m, a2a3());
  rec(&m, SL_SUBCORE_CUBE, SL_PIPE_MTE2, "LOAD_GM_TO_L1", 4096, SL_PIPE_MTE2, 0);
  rec(&m, SL_SUBCORE_CUBE, SL_PIPE_MTE1, "LOAD_2D", 4096, SL_PIPE_MTE1, 0);
  assert_int_equal(sl_pipe_timeline(&m), 0);
  assert_true(m.core[SL_SUBCORE_CUBE].recs[1].start < m.core[SL_SUBCORE_CUBE].recs[0].end);
  sl_pipe_model_free(&m);
}

/* A wait issued before its set in program order (pre-set ping-pong) is fine. */
static void test_wait_before_set(void **state) {
  (void)state;
  sl_pipe_model m;
  sl_pipe_model_init(&m, a2a3());
  rec(&m, SL_SUBCORE_CUBE, SL_PIPE_MTE2, "WAIT_FLAG", 0, SL_PIPE_MTE1, 3);
  rec(&m, SL_SUBCORE_CUBE, SL_PIPE_MTE1, "LOAD_2D", 512, SL_PIPE_MTE1, 0);
  rec(&m, SL_SUBCORE_CUBE, SL_PIPE_MTE1, "SET_FLAG", 0, SL_PIPE_MTE2, 3);
  rec(&m, SL_SUBCORE_CUBE, SL_PIPE_MTE2, "LOAD_GM_TO_L1", 512, SL_PIPE_MTE2, 0);
  assert_int_equal(sl_pipe_timeline(&m), 0);
  const sl_pipe_rec *r = m.core[SL_SUBCORE_CUBE].recs;
  assert_true(r[0].end >= r[2].end);
  assert_true(r[3].start >= r[0].end);
  sl_pipe_model_free(&m);
}

/* A barrier holds dispatch until its pipe drained. */
static void test_barrier(void **state) {
  (void)state;
  sl_pipe_model m;
  sl_pipe_model_init(&m, a2a3());
  rec(&m, SL_SUBCORE_VEC0, SL_PIPE_MTE2, "LOAD_GM_TO_UB", 1024, SL_PIPE_MTE2, 0);
  rec(&m, SL_SUBCORE_VEC0, SL_PIPE_MTE2, "PIPE_BARRIER", 0, SL_PIPE_MTE2, 0);
  rec(&m, SL_SUBCORE_VEC0, SL_PIPE_VECTOR, "VADD", 64, SL_PIPE_VECTOR, 0);
  assert_int_equal(sl_pipe_timeline(&m), 0);
  const sl_pipe_rec *r = m.core[SL_SUBCORE_VEC0].recs;
  assert_int_equal(r[1].kind, SL_REC_BARRIER);
  assert_int_equal(r[1].end, r[0].end + 1); /* the drain, then one cycle of its own */
  assert_true(r[2].start >= r[1].end);      /* the vector op waits for the barrier */
  sl_pipe_model_free(&m);
}

/* AIC -> AIV flag: both lanes' vector work waits for the cube's write-back;
** AIV -> AIC: the cube's wait needs a set from each running lane. */
static void test_cross_core(void **state) {
  (void)state;
  sl_pipe_model m;
  sl_pipe_model_init(&m, a2a3());
  for (int c = 0; c < SL_SUBCORE_COUNT; c++) m.core[c].ran = 1;
  rec(&m, SL_SUBCORE_CUBE, SL_PIPE_FIXP, "FIX_L0C_TO_DST", 8192, SL_PIPE_FIXP, 0);
  rec(&m, SL_SUBCORE_CUBE, SL_PIPE_FIXP, "SET_FLAG", 0, SL_PIPE_VECTOR, 1);
  rec(&m, SL_SUBCORE_CUBE, SL_PIPE_CUBE, "WAIT_FLAG", 0, SL_PIPE_MTE3, 2);
  rec(&m, SL_SUBCORE_CUBE, SL_PIPE_CUBE, "MMAD", 4096, SL_PIPE_CUBE, 0);
  for (int v = SL_SUBCORE_VEC0; v <= SL_SUBCORE_VEC1; v++) {
    rec(&m, (sl_subcore)v, SL_PIPE_VECTOR, "WAIT_FLAG", 0, SL_PIPE_FIXP, 1);
    rec(&m, (sl_subcore)v, SL_PIPE_VECTOR, "VADD", 256, SL_PIPE_VECTOR, 0);
    rec(&m, (sl_subcore)v, SL_PIPE_MTE3, "SET_FLAG", 0, SL_PIPE_CUBE, 2);
  }
  /* lane 1 does more work first, so the cube's wait is released by lane 1 */
  assert_true(m.core[SL_SUBCORE_CUBE].recs[1].cross);
  assert_true(m.core[SL_SUBCORE_VEC0].recs[0].cross);
  assert_int_equal(sl_pipe_timeline(&m), 0);
  const sl_pipe_rec *cube = m.core[SL_SUBCORE_CUBE].recs;
  for (int v = SL_SUBCORE_VEC0; v <= SL_SUBCORE_VEC1; v++) {
    const sl_pipe_rec *r = m.core[v].recs;
    assert_true(r[1].start >= cube[1].end);
    assert_true(cube[2].end >= r[2].end);
  }
  assert_true(cube[3].start >= cube[2].end);
  sl_pipe_model_free(&m);
}

static void test_deadlock_reported(void **state) {
  (void)state;
  sl_pipe_model m;
  sl_pipe_model_init(&m, a2a3());
  m.core[SL_SUBCORE_VEC0].ran = 1;
  rec(&m, SL_SUBCORE_VEC0, SL_PIPE_VECTOR, "WAIT_FLAG", 0, SL_PIPE_MTE2, 5);
  assert_int_equal(sl_pipe_timeline(&m), -1);
  assert_non_null(strstr(m.error, "veccore0"));
  assert_non_null(strstr(m.error, "WAIT_FLAG MTE2->VECTOR event 5"));
  assert_non_null(strstr(m.error, "never released"));
  sl_pipe_model_free(&m);
  /* set behind the wait on the same pipe: a true deadlock */
  sl_pipe_model_init(&m, a2a3());
  rec(&m, SL_SUBCORE_VEC0, SL_PIPE_MTE2, "WAIT_FLAG", 0, SL_PIPE_VECTOR, 0);
  rec(&m, SL_SUBCORE_VEC0, SL_PIPE_MTE2, "SET_FLAG", 0, SL_PIPE_VECTOR, 0);
  rec(&m, SL_SUBCORE_VEC0, SL_PIPE_MTE2, "LOAD_GM_TO_UB", 64, SL_PIPE_MTE2, 0);
  /* the wait's key is VECTOR->MTE2, the set's MTE2->VECTOR: unmatched */
  assert_int_equal(sl_pipe_timeline(&m), -1);
  sl_pipe_model_free(&m);
  sl_pipe_model_init(&m, a2a3());
  rec(&m, SL_SUBCORE_VEC0, SL_PIPE_VECTOR, "WAIT_FLAG", 0, SL_PIPE_MTE2, 0);
  rec(&m, SL_SUBCORE_VEC0, SL_PIPE_ALL, "PIPE_BARRIER", 0, SL_PIPE_ALL, 0); /* drains the waiting pipe... */
  rec(&m, SL_SUBCORE_VEC0, SL_PIPE_MTE2, "SET_FLAG", 0, SL_PIPE_VECTOR, 0);  /* ...so the set never comes */
  assert_int_equal(sl_pipe_timeline(&m), -1);
  assert_non_null(strstr(m.error, "deadlocks"));
  sl_pipe_model_free(&m);
}

static uint64_t makespan_on(const char *arch) {
  sl_pipe_model m;
  sl_pipe_model_init(&m, sl_pipe_arch_find(arch));
  rec(&m, SL_SUBCORE_CUBE, SL_PIPE_MTE2, "LOAD_GM_TO_L1", 65536, SL_PIPE_MTE2, 0);
  rec(&m, SL_SUBCORE_CUBE, SL_PIPE_MTE2, "SET_FLAG", 0, SL_PIPE_CUBE, 0);
  rec(&m, SL_SUBCORE_CUBE, SL_PIPE_CUBE, "WAIT_FLAG", 0, SL_PIPE_MTE2, 0);
  rec(&m, SL_SUBCORE_CUBE, SL_PIPE_CUBE, "MMAD", 16 * 128 * 64, SL_PIPE_CUBE, 0);
  assert_int_equal(sl_pipe_timeline(&m), 0);
  uint64_t t = sl_pipe_makespan(&m);
  sl_pipe_model_free(&m);
  return t;
}

static void test_arch_tables_differ(void **state) {
  (void)state;
  assert_non_null(sl_pipe_arch_find("a2a3"));
  assert_non_null(sl_pipe_arch_find("a5sim"));
  assert_null(sl_pipe_arch_find("a9"));
  assert_null(sl_pipe_arch_find("a2a3simx"));
  uint64_t x = makespan_on("a2a3"), y = makespan_on("a5");
  assert_true(x > 0 && y > 0);
  assert_true(x != y);
}

static cJSON *write_and_parse(const sl_pipe_model *m, int debug_line) {
  char *buf = NULL;
  size_t len = 0;
  FILE *fp = open_memstream(&buf, &len);
  assert_non_null(fp);
  assert_int_equal(sl_pipe_write_insight(m, fp, debug_line), 0);
  fclose(fp);
  cJSON *doc = cJSON_Parse(buf);
  free(buf);
  assert_non_null(doc);
  return doc;
}

static int count_events(const cJSON *doc, const char *ph, const char *name, const char *pid) {
  int n = 0;
  const cJSON *ev;
  cJSON_ArrayForEach(ev, cJSON_GetObjectItem(doc, "traceEvents")) {
    const cJSON *p = cJSON_GetObjectItem(ev, "ph"), *nm = cJSON_GetObjectItem(ev, "name"),
                *pd = cJSON_GetObjectItem(ev, "pid");
    if (ph && strcmp(p->valuestring, ph)) continue;
    if (name && (!cJSON_IsString(nm) || strcmp(nm->valuestring, name))) continue;
    if (pid && strcmp(pd->valuestring, pid)) continue;
    n++;
  }
  return n;
}

static void test_insight_layout(void **state) {
  (void)state;
  sl_pipe_model m;
  sl_pipe_model_init(&m, a2a3());
  m.core[SL_SUBCORE_CUBE].ran = 1;
  rec(&m, SL_SUBCORE_CUBE, SL_PIPE_MTE2, "LOAD_GM_TO_L1", 512, SL_PIPE_MTE2, 0);
  rec(&m, SL_SUBCORE_CUBE, SL_PIPE_MTE2, "SET_FLAG", 0, SL_PIPE_CUBE, 0);
  rec(&m, SL_SUBCORE_CUBE, SL_PIPE_CUBE, "WAIT_FLAG", 0, SL_PIPE_MTE2, 0);
  rec(&m, SL_SUBCORE_CUBE, SL_PIPE_CUBE, "MMAD", 4096, SL_PIPE_CUBE, 0);
  rec(&m, SL_SUBCORE_CUBE, SL_PIPE_FIXP, "FIX_L0C_TO_DST", 256, SL_PIPE_FIXP, 0);
  assert_int_equal(sl_pipe_timeline(&m), 0);
  cJSON *doc = write_and_parse(&m, 1);
  assert_int_equal(count_events(doc, "X", "MMAD", "core0.cubecore0"), 1);
  assert_int_equal(count_events(doc, "B", "SET_FLAG", NULL), 1);
  assert_int_equal(count_events(doc, "E", "SET_FLAG", NULL), 1);
  assert_int_equal(count_events(doc, "B", "WAIT_FLAG", NULL), 1);
  /* a2a3 exports idle vector cores too: 5 + 4 + 4 pipes of sort metadata */
  assert_int_equal(count_events(doc, "M", "thread_sort_index", NULL), 5 + 4 + 4);
  assert_int_equal(count_events(doc, "M", "process_name", NULL), 3);
  const cJSON *issued = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "otherData"), "issued");
  assert_int_equal(cJSON_GetObjectItem(issued, "MMAD")->valueint, 1);
  assert_int_equal(cJSON_GetObjectItem(issued, "FIX_L0C_TO_DST")->valueint, 1);
  /* -g: source line on the slice */
  const cJSON *ev;
  int with_source = 0;
  cJSON_ArrayForEach(ev, cJSON_GetObjectItem(doc, "traceEvents")) {
    const cJSON *src = cJSON_GetObjectItem(cJSON_GetObjectItem(ev, "args"), "source");
    if (cJSON_IsString(src) && !strcmp(src->valuestring, "k.c:7")) with_source++;
  }
  assert_int_equal(with_source, 3 + 4);
  cJSON_Delete(doc);
  /* a5 exports only the sub-cores that ran code */
  m.arch = sl_pipe_arch_find("a5");
  assert_int_equal(sl_pipe_timeline(&m), 0);
  doc = write_and_parse(&m, 0);
  assert_int_equal(count_events(doc, "M", "process_name", NULL), 1);
  assert_int_equal(count_events(doc, NULL, NULL, "core0.veccore0"), 0);
  cJSON_Delete(doc);
  sl_pipe_model_free(&m);
}

/* ---- sl_pipe_run with the real kernel API ----------------------------------------------- */

static float g_src[64], g_mid[64], g_out[2][64];

/* cube: produce g_mid, then tell the lanes; lanes: wait, consume, answer. */
static void entry(int64_t *args) {
  (void)args;
  if (sl_pipe_current_subcore() == SL_SUBCORE_CUBE) {
    sl_copy_gm_to_l1(g_mid, g_src, sizeof g_src);
    sl_scalar(3);
    sl_set_flag(SL_PIPE_FIXP, SL_PIPE_VECTOR, 4); /* FIXP exists only on the cube: crosses */
    sl_wait_flag(SL_PIPE_MTE3, SL_PIPE_CUBE, 5);
    sl_mmad(g_src, g_mid, g_mid, 1, 1, 1, 0);
  } else {
    int lane = sl_get_subblockid();
    sl_wait_flag(SL_PIPE_FIXP, SL_PIPE_VECTOR, 4);
    sl_vadd(g_out[lane], g_mid, g_mid, 64);
    sl_set_flag(SL_PIPE_MTE3, SL_PIPE_CUBE, 5);
  }
}

static void run_once(char **text) {
  for (int i = 0; i < 64; i++) g_src[i] = (float)i;
  memset(g_mid, 0, sizeof g_mid);
  memset(g_out, 0, sizeof g_out);
  sl_pipe_model m;
  sl_pipe_model_init(&m, a2a3());
  int64_t args[SL_ARG_SLOTS] = {0};
  assert_int_equal(sl_pipe_run(&m, 1, 1, entry, args), 0);
  assert_int_equal(sl_pipe_timeline(&m), 0);
  /* the lanes saw the cube's data: the flag ordered them */
  for (int lane = 0; lane < 2; lane++)
    for (int i = 0; i < 64; i++) assert_true(g_out[lane][i] == 2.0f * (float)i);
  size_t len;
  FILE *fp = open_memstream(text, &len);
  assert_int_equal(sl_pipe_write_insight(&m, fp, 0), 0);
  fclose(fp);
  assert_int_equal(m.core[SL_SUBCORE_VEC1].n, 3);
  sl_pipe_model_free(&m);
}

static void test_run_deterministic(void **state) {
  (void)state;
  char *a = NULL, *b = NULL;
  run_once(&a);
  run_once(&b);
  assert_string_equal(a, b);
  assert_non_null(strstr(a, "\"cross_core\": true, \"peer\": \"cubecore0\""));
  assert_non_null(strstr(a, "\"peer\": \"veccore0+veccore1\""));
  free(a);
  free(b);
}

static void never_set(int64_t *args) {
  (void)args;
  if (sl_pipe_current_subcore() != SL_SUBCORE_CUBE) sl_wait_flag(SL_PIPE_FIXP, SL_PIPE_VECTOR, 0);
}

static void test_run_deadlock(void **state) {
  (void)state;
  sl_pipe_model m;
  sl_pipe_model_init(&m, a2a3());
  int64_t args[SL_ARG_SLOTS] = {0};
  assert_int_equal(sl_pipe_run(&m, 1, 1, never_set, args), -1);
  assert_non_null(strstr(m.error, "deadlock"));
  assert_int_equal(sl_pipe_timeline(&m), -1);
  assert_non_null(strstr(m.error, "never released"));
  sl_pipe_model_free(&m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pipelining),       cmocka_unit_test(test_flags_order_pipes),
      cmocka_unit_test(test_wait_before_set),  cmocka_unit_test(test_barrier),
      cmocka_unit_test(test_cross_core),       cmocka_unit_test(test_deadlock_reported),
      cmocka_unit_test(test_arch_tables_differ), cmocka_unit_test(test_insight_layout),
      cmocka_unit_test(test_run_deterministic), cmocka_unit_test(test_run_deadlock),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
