/*
** test_l0_perfetto.c — the Insight -> Perfetto transform on crafted traces
** (sub-lane split, B/E merge, flows, sort indexes, what is dropped) and the
** MMAD / FIX_L0C_TO_DST self-check.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "l0_internal.h"

static const char *crafted =
    "{\"traceEvents\": ["
    /* MTE1: A[0,10] B[5,15] C[10,20] D[12,13] -> lanes 0,1,0,2 */
    "{\"ph\":\"X\",\"name\":\"A\",\"pid\":\"core0.cubecore0\",\"tid\":\"MTE1\",\"ts\":0,\"dur\":10,\"args\":{\"k\":1},\"cat\":\"c\"},"
    "{\"ph\":\"X\",\"name\":\"B\",\"pid\":\"core0.cubecore0\",\"tid\":\"MTE1\",\"ts\":5,\"dur\":10},"
    "{\"ph\":\"X\",\"name\":\"C\",\"pid\":\"core0.cubecore0\",\"tid\":\"MTE1\",\"ts\":10,\"dur\":10},"
    "{\"ph\":\"X\",\"name\":\"D\",\"pid\":\"core0.cubecore0\",\"tid\":\"MTE1\",\"ts\":12,\"dur\":1},"
    /* VECTOR: back to back, no overlap (within 1e-9) -> unsplit */
    "{\"ph\":\"X\",\"name\":\"VADD\",\"pid\":\"core0.veccore0\",\"tid\":\"VECTOR\",\"ts\":0,\"dur\":2.5},"
    "{\"ph\":\"X\",\"name\":\"VMUL\",\"pid\":\"core0.veccore0\",\"tid\":\"VECTOR\",\"ts\":2.5000000001,\"dur\":1},"
    /* CUBE: a flag pair (E first in the file), a lone B, and an MMAD overlapping the pair */
    "{\"ph\":\"E\",\"name\":\"WAIT_FLAG\",\"pid\":\"core0.cubecore0\",\"tid\":\"CUBE\",\"id\":7,\"ts\":8},"
    "{\"ph\":\"B\",\"name\":\"WAIT_FLAG\",\"pid\":\"core0.cubecore0\",\"tid\":\"CUBE\",\"id\":7,\"ts\":3,\"args\":{\"event_id\":1}},"
    "{\"ph\":\"B\",\"name\":\"SET_FLAG\",\"pid\":\"core0.cubecore0\",\"tid\":\"CUBE\",\"id\":9,\"ts\":30},"
    "{\"ph\":\"X\",\"name\":\"MMAD\",\"pid\":\"core0.cubecore0\",\"tid\":\"CUBE\",\"ts\":4,\"dur\":2},"
    "{\"ph\":\"X\",\"name\":\"PRE\",\"pid\":\"core0.cubecore0\",\"tid\":\"CUBE\",\"ts\":2,\"dur\":18},"
    /* a flow bound to flag 7 on the split CUBE track, one on an unsplit track */
    "{\"ph\":\"s\",\"name\":\"f\",\"pid\":\"core0.cubecore0\",\"tid\":\"CUBE\",\"id\":7,\"ts\":8},"
    "{\"ph\":\"f\",\"name\":\"f\",\"pid\":\"core0.veccore0\",\"tid\":\"VECTOR\",\"id\":7,\"ts\":9,\"bp\":\"e\"},"
    /* a non-core slice: dropped; non-core metadata: kept */
    "{\"ph\":\"X\",\"name\":\"host\",\"pid\":\"host\",\"tid\":\"t\",\"ts\":0,\"dur\":1},"
    "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":\"host\",\"args\":{\"name\":\"host\"}},"
    "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":\"core0.cubecore0\",\"tid\":\"MTE1\",\"args\":{\"sort_index\":2}},"
    "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":\"core0.cubecore0\",\"tid\":\"CUBE\",\"args\":{\"sort_index\":3}},"
    "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":\"core0.veccore0\",\"tid\":\"VECTOR\",\"args\":{\"sort_index\":5}}"
    "], \"otherData\": {\"keep\": true}}";

static cJSON *convert(const char *text) {
  cJSON *in = cJSON_Parse(text);
  assert_non_null(in);
  char err[128];
  cJSON *out = sl_l0_to_perfetto(in, err, sizeof err);
  cJSON_Delete(in);
  assert_non_null(out);
  return out;
}

static const cJSON *find(const cJSON *doc, const char *ph, const char *name) {
  const cJSON *ev;
  cJSON_ArrayForEach(ev, cJSON_GetObjectItem(doc, "traceEvents")) {
    if (strcmp(cJSON_GetObjectItem(ev, "ph")->valuestring, ph)) continue;
    const cJSON *n = cJSON_GetObjectItem(ev, "name");
    if (cJSON_IsString(n) && !strcmp(n->valuestring, name)) return ev;
  }
  return NULL;
}

static const char *tid_of(const cJSON *ev) { return cJSON_GetObjectItem(ev, "tid")->valuestring; }

static void test_sub_lanes(void **state) {
  (void)state;
  cJSON *out = convert(crafted);
  assert_string_equal(tid_of(find(out, "X", "A")), "MTE1#0");
  assert_string_equal(tid_of(find(out, "X", "B")), "MTE1#1");
  assert_string_equal(tid_of(find(out, "X", "C")), "MTE1#0");
  assert_string_equal(tid_of(find(out, "X", "D")), "MTE1#2");
  /* unsplit track keeps its bare tid */
  assert_string_equal(tid_of(find(out, "X", "VADD")), "VECTOR");
  assert_string_equal(tid_of(find(out, "X", "VMUL")), "VECTOR");
  /* lossless: same ts (moved by the 1 µs origin) / dur and args; extra keys dropped */
  const cJSON *a = find(out, "X", "A");
  assert_true(cJSON_GetObjectItem(a, "ts")->valuedouble == 1.0);
  assert_true(fabs(cJSON_GetObjectItem(a, "dur")->valuedouble - 10.0) < 1e-6); /* ends 1 fs early */
  assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(a, "args"), "k")->valueint, 1);
  assert_null(cJSON_GetObjectItem(a, "cat"));
  assert_non_null(cJSON_GetObjectItem(out, "otherData"));
  cJSON_Delete(out);
}

static void test_flag_merge(void **state) {
  (void)state;
  cJSON *out = convert(crafted);
  /* no B/E remain */
  const cJSON *ev;
  int x = 0;
  cJSON_ArrayForEach(ev, cJSON_GetObjectItem(out, "traceEvents")) {
    const char *ph = cJSON_GetObjectItem(ev, "ph")->valuestring;
    assert_true(strcmp(ph, "B") && strcmp(ph, "E"));
    x += !strcmp(ph, "X");
  }
  /* 4 MTE1 + 2 VECTOR + 2 flags + MMAD + PRE; the host slice is dropped */
  assert_int_equal(x, 10);
  assert_null(find(out, "X", "host"));
  assert_non_null(find(out, "M", "process_name"));
  const cJSON *w = find(out, "X", "WAIT_FLAG");
  assert_true(cJSON_GetObjectItem(w, "ts")->valuedouble == 4.0);
  assert_true(fabs(cJSON_GetObjectItem(w, "dur")->valuedouble - 5.0) < 1e-6);
  /* name and args come from the first event of the pair in the file (here the E) */
  assert_true(cJSON_IsObject(cJSON_GetObjectItem(w, "args")));
  assert_null(cJSON_GetObjectItem(cJSON_GetObjectItem(w, "args"), "event_id"));
  /* PRE [2,20] takes lane 0, the wait [3,8] lane 1, the MMAD [4,6] lane 2 */
  assert_string_equal(tid_of(find(out, "X", "PRE")), "CUBE#0");
  assert_string_equal(tid_of(w), "CUBE#1");
  assert_string_equal(tid_of(find(out, "X", "MMAD")), "CUBE#2");
  /* a lone B becomes a zero-length slice */
  const cJSON *s = find(out, "X", "SET_FLAG");
  assert_true(cJSON_GetObjectItem(s, "ts")->valuedouble == 31.0);
  assert_true(cJSON_GetObjectItem(s, "dur")->valuedouble == 0.0);
  /* the flow follows its flag's lane; the one on an unsplit track keeps its tid */
  assert_string_equal(tid_of(find(out, "s", "f")), "CUBE#1");
  assert_string_equal(tid_of(find(out, "X", "SET_FLAG")), "CUBE#0");
  assert_string_equal(tid_of(find(out, "f", "f")), "VECTOR");
  cJSON_Delete(out);
}

static void test_sort_index(void **state) {
  (void)state;
  cJSON *out = convert(crafted);
  int seen = 0;
  const cJSON *ev;
  cJSON_ArrayForEach(ev, cJSON_GetObjectItem(out, "traceEvents")) {
    const cJSON *n = cJSON_GetObjectItem(ev, "name");
    if (!cJSON_IsString(n) || strcmp(n->valuestring, "thread_sort_index")) continue;
    const char *tid = tid_of(ev);
    int si = cJSON_GetObjectItem(cJSON_GetObjectItem(ev, "args"), "sort_index")->valueint;
    if (!strcmp(tid, "MTE1#0")) assert_int_equal(si, 200);
    else if (!strcmp(tid, "MTE1#1")) assert_int_equal(si, 201);
    else if (!strcmp(tid, "MTE1#2")) assert_int_equal(si, 202);
    else if (!strcmp(tid, "CUBE#0")) assert_int_equal(si, 300);
    else if (!strcmp(tid, "CUBE#1")) assert_int_equal(si, 301);
    else if (!strcmp(tid, "CUBE#2")) assert_int_equal(si, 302);
    else if (!strcmp(tid, "VECTOR")) assert_int_equal(si, 500);
    else fail_msg("unexpected sort tid %s", tid);
    seen++;
  }
  assert_int_equal(seen, 7);
  cJSON_Delete(out);
}

/* a5-style times (cycles at a non-round clock: sub-ns µs): back-to-back slices stay
** back to back once Perfetto rounds ts and dur to ns separately, and on one lane. */
static void test_ns_exact_times(void **state) {
  (void)state;
  cJSON *out = convert(
      "{\"traceEvents\": ["
      "{\"ph\":\"X\",\"name\":\"P\",\"pid\":\"core0.cubecore0\",\"tid\":\"MTE2\",\"ts\":0.5405405405,\"dur\":1.0810810811},"
      "{\"ph\":\"X\",\"name\":\"Q\",\"pid\":\"core0.cubecore0\",\"tid\":\"MTE2\",\"ts\":1.6216216216,\"dur\":0.5405405406},"
      "{\"ph\":\"X\",\"name\":\"R\",\"pid\":\"core0.cubecore0\",\"tid\":\"MTE2\",\"ts\":2.1621621622,\"dur\":2.7027027027}"
      "]}");
  const char *names[] = {"P", "Q", "R"};
  long long prev_end = -1;
  double prev_end_us = -1;
  for (int i = 0; i < 3; i++) {
    const cJSON *x = find(out, "X", names[i]);
    assert_non_null(x);
    double ts = cJSON_GetObjectItem(x, "ts")->valuedouble, dur = cJSON_GetObjectItem(x, "dur")->valuedouble;
    long long a = (long long)(ts * 1000.0 + 0.5), d = (long long)(dur * 1000.0 + 0.5);
    double off = ts * 1000.0 - (double)a;
    assert_true(off < 1e-6 && off > -1e-6); /* whole ns */
    if (prev_end >= 0) assert_int_equal(a, prev_end); /* no 1 ns overlap, no gap */
    if (prev_end_us >= 0) assert_true(prev_end_us < ts); /* DevTools' ts + dur: not even an ulp over */
    prev_end = a + d;
    prev_end_us = ts + dur;
    assert_string_equal(cJSON_GetObjectItem(x, "tid")->valuestring, "MTE2"); /* not split */
  }
  cJSON_Delete(out);
}

static void test_not_a_trace(void **state) {
  (void)state;
  cJSON *in = cJSON_Parse("{\"events\": []}");
  char err[128];
  assert_null(sl_l0_to_perfetto(in, err, sizeof err));
  assert_non_null(strstr(err, "traceEvents"));
  cJSON_Delete(in);
}

/* Self-check: a trace whose tail was cut (fewer MMAD / FIX than issued) warns. */
static cJSON *cube_trace(int mmad, int fix, int issued_mmad, int issued_fix) {
  cJSON *doc = cJSON_CreateObject();
  cJSON *ev = cJSON_AddArrayToObject(doc, "traceEvents");
  for (int i = 0; i < mmad + fix; i++) {
    cJSON *x = cJSON_CreateObject();
    cJSON_AddStringToObject(x, "ph", "X");
    cJSON_AddStringToObject(x, "name", i < mmad ? "MMAD" : "FIX_L0C_TO_DST");
    cJSON_AddItemToArray(ev, x);
  }
  if (issued_mmad >= 0) {
    cJSON *is = cJSON_AddObjectToObject(cJSON_AddObjectToObject(doc, "otherData"), "issued");
    cJSON_AddNumberToObject(is, "MMAD", issued_mmad);
    cJSON_AddNumberToObject(is, "FIX_L0C_TO_DST", issued_fix);
  }
  return doc;
}

/* A plan for one task: a MATMUL member (l0_expect "matmul") with C = A[32x32] @ B,
** so the shipped 16x64x128 tiling needs 2 MMAD and 32 FIX. */
static sl_l0_arg tensor_arg(int slot, int64_t rows, int64_t cols) {
  sl_l0_arg a = {.slot = slot, .is_tensor = 1, .ndims = 2, .shape = {rows, cols}, .strides = {cols, 1}};
  strcpy(a.dtype, "FLOAT32");
  return a;
}

static void test_self_check(void **state) {
  (void)state;
  sl_l0_arg args[3] = {tensor_arg(0, 32, 32), tensor_arg(1, 32, 32), tensor_arg(2, 32, 32)};
  sl_l0_task task = {.args = args, .nargs = 3, .ntensors = 3};
  sl_l0_incore mm = {.func_id = 0, .name = (char *)"MATMUL", .core_type = (char *)"aic", .expect = (char *)"matmul"};
  sl_l0_incore bare = {.func_id = 0, .name = (char *)"MATMUL", .core_type = (char *)"aic"};
  sl_l0_incore add = {.func_id = 1, .name = (char *)"ADD", .core_type = (char *)"aiv"};
  sl_l0_plan plan = {.task = &task, .members = {&mm}, .nmembers = 1, .spmd_block_num = 1};
  long em, ef;
  char why[128];
  assert_int_equal(sl_l0_expect_counts(&plan, &em, &ef, why, sizeof why), 1);
  assert_int_equal(em, 2);
  assert_int_equal(ef, 32);
  plan.spmd_block_num = 2; /* block 0 of 2: 16 rows */
  assert_int_equal(sl_l0_expect_counts(&plan, &em, &ef, why, sizeof why), 1);
  assert_int_equal(em, 1);
  assert_int_equal(ef, 16);
  plan.spmd_block_num = 1;
  struct { const sl_l0_incore *member; int mmad, fix, im, ifx, want; } cases[] = {
      {&mm, 2, 32, 2, 32, 0},    /* complete */
      {&mm, 1, 32, 1, 32, 1},    /* the kernel skipped a tile: it issued what the trace shows */
      {&mm, 2, 31, 2, 31, 1},    /* a write-back row missing from the kernel */
      {&mm, 2, 31, 2, 32, 1},    /* the export cut the last write-back */
      {&add, 0, 0, 0, 0, 0},     /* no cube work */
      {&bare, 1, 1, 1, 1, 0},    /* no l0_expect: counts not checked */
      {&mm, 2, 32, -1, -1, 0}    /* no issued counts: only the expectation */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cJSON *t = cube_trace(cases[i].mmad, cases[i].fix, cases[i].im, cases[i].ifx);
    long m, f;
    sl_l0_count_cube(t, &m, &f);
    assert_int_equal(m, cases[i].mmad);
    assert_int_equal(f, cases[i].fix);
    plan.members[0] = cases[i].member;
    assert_int_equal(sl_l0_self_check(&plan, t), cases[i].want);
    cJSON_Delete(t);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sub_lanes),  cmocka_unit_test(test_flag_merge), cmocka_unit_test(test_sort_index),
      cmocka_unit_test(test_not_a_trace), cmocka_unit_test(test_self_check),
      cmocka_unit_test(test_ns_exact_times),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
