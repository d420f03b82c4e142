/*
** test_convert_units.c — the converter's parts: labels (task ids, letters, SPMD
** suffix), Python float repr, Scheduler View lane packing, SPMD anchor selection,
** a user rules script that relabels / recolours / hides / adds lanes, input
** discovery, --overhead, and bad input (clear error, non-zero, no output file).
*/
#define _XOPEN_SOURCE 700 /* nftw() for scratch-directory cleanup */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <utime.h>

#include <cmocka.h>

#include "convert_harness.h"
#include "convert_labels.h"
#include "sl_jsonfmt.h"
#include "sl_mem.h"
#include "ts_shift.h"

/* Where the default output's time axis starts: every ts below is O + the capture's µs. */
#define O SL_CONVERT_ORIGIN_US

static char g_fix[1024];

static void copy_fixture(const char *dir) {
  const char *files[] = {"chip_swimlane_records.json", "deps.json", "name_map_sample.json"};
  mkdir(dir, 0755);
  for (size_t i = 0; i < 3; i++) {
    char from[1200], to[512];
    snprintf(from, sizeof from, "%s/%s", g_fix, files[i]);
    snprintf(to, sizeof to, "%s/%s", dir, files[i]);
    assert_int_equal(h_copy(from, to), 0);
  }
}

/* ---- labels ------------------------------------------------------------------------- */

static void test_tdisp(void **state) {
  (void)state;
  char b[32];
  assert_string_equal(sl_tdisp(b, 0), "t0");
  assert_string_equal(sl_tdisp(b, 7), "t7");
  assert_string_equal(sl_tdisp(b, 4294967296ull), "r1t0");
  assert_string_equal(sl_tdisp(b, (2ull << 32) | 18), "r2t18");
  /* only 8 ring bits are shown */
  assert_string_equal(sl_tdisp(b, (0x101ull << 32) | 3), "r1t3");
}

static void test_letters(void **state) {
  (void)state;
  char b[48];
  assert_string_equal(sl_func_letters(b, 0), "0_a");
  assert_string_equal(sl_func_letters(b, 25), "25_z");
  assert_string_equal(sl_func_letters(b, 26), "26_aa");
  assert_string_equal(sl_func_letters(b, 27), "27_ab");
  assert_string_equal(sl_func_letters(b, 30), "30_ae");
  assert_string_equal(sl_func_letters(b, 701), "701_zz");
  assert_string_equal(sl_func_letters(b, 702), "702_aaa");
  assert_string_equal(sl_func_letters(b, -1), "-1_");
  assert_string_equal(sl_func_default_name(b, 3), "func_3_d");
}

static void expect_label(const char *base, uint64_t id, int spmd, const char *want) {
  char *l = sl_task_label(base, id, spmd);
  assert_string_equal(l, want);
  sl_mem_free(l);
}

static void test_spmd_suffix(void **state) {
  (void)state;
  uint64_t r2t18 = (2ull << 32) | 18;
  expect_label("fa_fused_aic", r2t18, 1, "fa_fused_aic_spmd(r2t18)");
  expect_label("task", r2t18, 1, "task_spmd(r2t18)");
  expect_label("spmd_write_aiv", 0, 1, "spmd_write_aiv(t0)");
  expect_label("SPMDKernel", 0, 1, "SPMDKernel(t0)");
  expect_label("func_1_b", 2, 1, "func_1_b_spmd(t2)");
  expect_label("QK", 4294967296ull, 0, "QK(r1t0)");
  char *s = sl_spmd_suffix("v_proj(r2t10)");
  assert_string_equal(s, "v_proj_spmd(r2t10)");
  sl_mem_free(s);
}

static void expect_float(double v, const char *want) {
  char b[40];
  sl_fmt_pyfloat(b, v);
  assert_string_equal(b, want);
}

static void test_pyfloat(void **state) {
  (void)state;
  expect_float(0.0, "0.0");
  expect_float(-0.0, "-0.0");
  expect_float(2.0, "2.0");
  expect_float(1.4000000000000001, "1.4000000000000001");
  expect_float(1.0 - 0.9, "0.09999999999999998");
  expect_float(0.1 * 3 - 0.2, "0.10000000000000003");
  expect_float(1.34, "1.34");
  expect_float(1e-05, "1e-05");
  expect_float(0.0001, "0.0001");
  expect_float(1.5e16, "1.5e+16");
  expect_float(1e16, "1e+16");
  expect_float(123456789012345.0, "123456789012345.0");
  expect_float(9999999999999998.0, "9999999999999998.0");
  expect_float(-2.5e-7, "-2.5e-07");
  expect_float(NAN, "NaN");
  expect_float(INFINITY, "Infinity");
  expect_float(-INFINITY, "-Infinity");
}

static void test_json_escape(void **state) {
  (void)state;
  char out[128];
  /* ensure_ascii: quotes, backslash, controls, BMP and astral code points */
  sl_json_escape(out, "a\"b\\c\n\t\x01\xc3\xa9\xe2\x86\x92\xf0\x9f\x98\x80");
  assert_string_equal(out, "\"a\\\"b\\\\c\\n\\t\\u0001\\u00e9\\u2192\\ud83d\\ude00\"");
  sl_json_escape(out, "bad\xff");
  assert_string_equal(out, "\"bad\\ufffd\"");
}

/* Digits of the shortest correctly rounded representation, the slow way. */
static void slow_digits(double x, char *out) {
  char tmp[40];
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(tmp, sizeof tmp, "%.*e", prec - 1, x);
    if (strtod(tmp, NULL) == x) break;
  }
  int n = 0;
  for (const char *p = tmp; *p && *p != 'e'; p++)
    if (*p >= '0' && *p <= '9') out[n++] = *p;
  while (n > 1 && out[n - 1] == '0') n--;
  out[n] = 0;
}

/* Significant digits of a formatted number (no sign, point, exponent, zeros). */
static void sig_digits(const char *s, char *out) {
  int n = 0, started = 0;
  for (const char *p = s; *p && *p != 'e'; p++) {
    if (*p < '0' || *p > '9') continue;
    if (*p == '0' && !started) continue;
    started = 1;
    out[n++] = *p;
  }
  while (n > 1 && out[n - 1] == '0') n--;
  if (n == 0) out[n++] = '0';
  out[n] = 0;
}

/* x's repr reads back as x and has the shortest digits (the exact method's). */
static void expect_shortest(double x) {
  char got[40], a[24], b[24];
  sl_fmt_pyfloat(got, x);
  assert_true(strtod(got, NULL) == x);
  slow_digits(fabs(x), a);
  sig_digits(got, b);
  if (strcmp(a, b) != 0) {
    print_error("%.17g: got %s, shortest digits %s\n", x, got, a);
    fail();
  }
}

/* The exact fixed-notation path (x in [1e-4, 2^53)) and its edges; the expected
** strings are Python's repr. */
static void test_pyfloat_fixed_path(void **state) {
  (void)state;
  expect_float(1125899906842624.25, "1125899906842624.2"); /* tie between .2 and .3: even */
  expect_float(1125899906842624.75, "1125899906842624.8"); /* tie between .7 and .8: even */
  expect_float(562949953421312.125, "562949953421312.1");
  expect_float(4503599627370495.5, "4503599627370495.5");
  expect_float(9007199254740991.0, "9007199254740991.0"); /* 2^53 - 1: last of the path */
  expect_float(9007199254740992.0, "9007199254740992.0"); /* 2^53: the general path */
  expect_float(1e15, "1000000000000000.0");
  expect_float(nextafter(1e-4, 0), "9.999999999999999e-05"); /* just below: exponent form */
  expect_float(nextafter(0x1p-14, 0), "6.103515624999999e-05");
  expect_float(0x1p-10, "0.0009765625"); /* power of two: narrower interval below */
  expect_float(nextafter(1.0, 0), "0.9999999999999999");
  expect_float(nextafter(1.0, 2), "1.0000000000000002");
  expect_float(0.5, "0.5");
  expect_float(0.02, "0.02");
  expect_float(31674.02, "31674.02");
  expect_float(105203.39000000001, "105203.39000000001");
  expect_float(-105203.39000000001, "-105203.39000000001");
  expect_float(2.519999999999982, "2.519999999999982");
  expect_float(123456789.12345679, "123456789.12345679");
  expect_float(-0.00012345678901234567, "-0.00012345678901234567");
  /* around every power of two and ten the path covers: the neighbours must match
  ** the exact method too */
  for (int e = -13; e < 53; e++) {
    double x = ldexp(1.0, e);
    for (int k = 0; k < 3; k++, x = nextafter(x, 0)) {
      char got[40], a[24], b[24];
      sl_fmt_pyfloat(got, x);
      assert_true(strtod(got, NULL) == x);
      slow_digits(x, a);
      sig_digits(got, b);
      assert_string_equal(a, b);
    }
  }
}

static void test_pyfloat_random(void **state) {
  (void)state;
  uint64_t seed = 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < 400000; i++) {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    double x;
    if (i % 4 == 0) {
      uint64_t bits = seed & 0x7FEFFFFFFFFFFFFFull; /* any finite positive double */
      memcpy(&x, &bits, sizeof x);
    } else if (i % 4 == 3) { /* any mantissa, trace-sized magnitudes */
      x = ldexp((double)((seed >> 11) | (1ull << 52)), (int)(seed % 67) - 17 - 52);
    } else if (i % 4 == 1) {
      x = (double)(seed % 100000000) / 50.0 / 1000.0; /* cycle-derived microseconds */
    } else {
      x = (double)(seed % 1000000) * 0.02 - (double)(seed % 977) * 0.02;
    }
    if (x == 0 || !isfinite(x)) continue;
    expect_shortest(x);
  }
}

/* The picosecond path: doubles nearest N ps (N * 1e-6 µs) across its range [1e-4, 2^32)
** and its edges, and their neighbours (which it must refuse), against the exact digits. */
static void test_pyfloat_ps_path(void **state) {
  (void)state;
  expect_float(0.000123, "0.000123");
  expect_float(0.0001, "0.0001");
  expect_float(1.000001, "1.000001");
  expect_float(228.58, "228.58");
  expect_float(4294967295.999999, "4294967295.999999");
  expect_float(4294967296.000001, "4294967296.000001"); /* past the path: general way */
  expect_float(0.7400000000000091, "0.7400000000000091"); /* not a whole ps: refused */
  uint64_t seed = 0x2545F4914F6CDD1Dull;
  for (int i = 0; i < 50000; i++) {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    uint64_t top = i % 3 == 0 ? 4294967296000000ull : i % 3 == 1 ? 100000000ull : 10000ull;
    double x = (double)(seed % top + 1) / 1e6;
    expect_shortest(x);
    expect_shortest(nextafter(x, 0));
    expect_shortest(nextafter(x, INFINITY));
  }
}

/* The JSON sink's writer: a file (the writer thread, O_DIRECT where the file system
** allows it, whole blocks plus a carried tail) and a memory stream (no file
** descriptor: ordinary writes) must hold the same bytes, several buffers' worth,
** including a string bigger than the buffer that needs escaping. */
static void sink_events(sl_trace_sink *k, const char *huge) {
  char name[32];
  sl_arg args[2] = {SL_ARG_S("phase", "run"), SL_ARG_D("kernel-duration-us", 0)};
  for (int i = 0; i < 30000; i++) {
    snprintf(name, sizeof name, "task(r0t%d)", i);
    args[1].v.d = i * 0.02 + 0.1;
    sl_slice ev = {.pid = 4, .tid = 10000 + i % 7, .ts = i * 1.01, .dur = 0.98,
                   .name = name, .cat = "task", .args = args, .nargs = 2};
    sl_sink_slice(k, &ev);
    if (i == 12345) {
      sl_slice big = {.pid = 1, .tid = 1, .ts = 1.5, .dur = 2.5, .name = huge, .cat = "big"};
      sl_sink_slice(k, &big);
    }
  }
}

static void test_json_sink_writer(void **state) {
  (void)state;
  char *dir = h_scratch("sinkw");
  assert_non_null(dir);
  size_t hn = (3u << 20) / 2;
  char *huge = malloc(hn + 1);
  assert_non_null(huge);
  for (size_t i = 0; i < hn; i++) huge[i] = i % 1000 == 999 ? '"' : (char)('a' + i % 26);
  huge[hn] = 0;

  FILE *f = fopen("trace.json", "wb");
  assert_non_null(f);
  sl_trace_sink *k = sl_trace_sink_json_new(f);
  sink_events(k, huge);
  assert_int_equal(sl_sink_finish(k), 0);
  sl_sink_destroy(k);
  assert_int_equal(fclose(f), 0);

  char *mem = NULL;
  size_t mlen = 0;
  FILE *m = open_memstream(&mem, &mlen);
  assert_non_null(m);
  k = sl_trace_sink_json_new(m);
  sink_events(k, huge);
  assert_int_equal(sl_sink_finish(k), 0);
  sl_sink_destroy(k);
  assert_int_equal(fclose(m), 0);

  size_t flen = 0;
  char *file = h_read("trace.json", &flen);
  assert_non_null(file);
  assert_true(mlen > (4u << 20));
  assert_int_equal(flen, mlen);
  assert_memory_equal(file, mem, mlen);
  cJSON *t = cJSON_Parse(file);
  assert_non_null(t);
  assert_int_equal(cJSON_GetArraySize(h_events(t)), 30001);
  cJSON *big = cJSON_GetArrayItem(h_events(t), 12346);
  assert_string_equal(h_str(big, "name"), huge);
  cJSON_Delete(t);
  free(file);
  free(mem);
  free(huge);
  h_cleanup(dir);
}

/* ---- synthetic captures ------------------------------------------------------------- */

/* Level-2 capture at 1 MHz (1 cycle = 1 us); base cycle 1000 is time 0. */
static const char *LANES_JSON =
    "{\"chip_swimlane_level\": 2, \"metadata\": {\"clock_freq_hz\": 1000000, \"num_cores\": 1,"
    " \"core_types\": [\"aiv\"]},"
    " \"aicore_tasks\": [[0, 1, 1, 1012, 1020, 1], [0, 2, 2, 1016, 1019, 0],"
    "                    [0, 3, 3, 1026, 1030, 0], [0, 4, 4, 1046, 1050, 0]],"
    " \"aicpu_tasks\": [[0, 1, 1010, 1030], [0, 2, 1015, 1020], [0, 3, 1025, 1040],"
    "                   [0, 4, 1045, 1055]]}";

static double sv_tid_of(cJSON *trace, const char *name) {
  cJSON *e;
  cJSON_ArrayForEach(e, h_events(trace)) {
    const char *ph = h_str(e, "ph"), *nm = h_str(e, "name");
    if (ph && !strcmp(ph, "X") && nm && !strcmp(nm, name) && h_num(e, "pid") == 3)
      return h_num(e, "tid");
  }
  return -1;
}

static void test_sched_view_lanes(void **state) {
  (void)state;
  char *dir = h_scratch("lanes");
  h_write("chip_swimlane_records.json", LANES_JSON);
  char *argv[] = {(char *)"convert", (char *)"chip_swimlane_records.json", (char *)"-o", (char *)"t.json", NULL};
  char *out = NULL, *err = NULL;
  assert_int_equal(h_convert(4, argv, &out, &err), 0);
  cJSON *t = h_trace("t.json");
  assert_non_null(t);
  /* greedy: first lane whose finish <= dispatch, else a new lane */
  assert_int_equal((int)sv_tid_of(t, "task(t1)"), 10000); /* [0,20]          */
  assert_int_equal((int)sv_tid_of(t, "task(t2)"), 10001); /* [5,10] overlaps  */
  assert_int_equal((int)sv_tid_of(t, "task(t3)"), 10001); /* lane 1 free at 10 */
  assert_int_equal((int)sv_tid_of(t, "task(t4)"), 10000); /* lane 0 free at 20 */
  /* both lanes named after the core; Worker View bars start at receive */
  int named = 0;
  cJSON *e;
  cJSON_ArrayForEach(e, h_events(t)) {
    const char *nm = h_str(e, "name");
    if (nm && !strcmp(nm, "thread_name") && h_num(e, "pid") == 3) {
      assert_string_equal(h_str(cJSON_GetObjectItem(e, "args"), "name"), "AIV_0");
      named++;
    }
    if (nm && !strcmp(nm, "task(t1)") && h_num(e, "pid") == 4) {
      assert_true(fabs(h_num(e, "ts") - (O + 1.0)) < 1e-9); /* receive = start 12 - r2s 1 */
      assert_true(fabs(h_num(e, "dur") - 9.0) < 1e-9);
    }
  }
  assert_int_equal(named, 2);
  /* no deps.json: the seed's breadcrumb is printed even without -v */
  assert_non_null(strstr(out, "  Flow events: 0 (no deps.json"));
  assert_non_null(strstr(err, "swimlane: warning: deps.json: no usable deps.json"));
  /* the closing hint names our command and says what it still needs */
  assert_non_null(strstr(out, "deep dive: swimlane sched-overhead "));
  assert_non_null(strstr(out, "(task readiness needs the deps.json of run --enable-dep-gen)"));
  cJSON_Delete(t);
  free(out);
  free(err);
  h_cleanup(dir);
}

/* Three tasks back to back on one core at 50 MHz (0.02 µs a cycle): t2 ends at cycle 1347
** where t3 begins, both in the Worker and the scheduler view. end - start rounds up for
** t2 (7.9400000000000013 as ts + dur against t3's ts 7.94), which Chrome DevTools read as
** an overlap and dropped t3 from the tree; the default output's dur reaches the end
** exactly or stops at the double below it (1.48 + d cannot round to 7.94 here: sl_ts_fit_dur),
** --reference-flows keeps the reference's end - start. */
static const char *TOUCH_JSON =
    "{\"chip_swimlane_level\": 2, \"metadata\": {\"clock_freq_hz\": 50000000, \"num_cores\": 1,"
    " \"core_types\": [\"aiv\"]},"
    " \"aicore_tasks\": [[0, 1, 1, 1000, 1024, 0], [0, 2, 2, 1024, 1347, 0], [0, 3, 3, 1347, 1377, 0]],"
    " \"aicpu_tasks\": [[0, 1, 1000, 1024], [0, 2, 1024, 1347], [0, 3, 1347, 1377]]}";

static const cJSON *x_event(cJSON *trace, const char *name, double pid) {
  cJSON *e;
  cJSON_ArrayForEach(e, h_events(trace)) {
    const char *ph = h_str(e, "ph"), *nm = h_str(e, "name");
    if (ph && !strcmp(ph, "X") && nm && !strcmp(nm, name) && h_num(e, "pid") == pid) return e;
  }
  return NULL;
}

static void test_touching_slices_exact(void **state) {
  (void)state;
  char *dir = h_scratch("touch");
  h_write("chip_swimlane_records.json", TOUCH_JSON);
  char *argv[] = {(char *)"convert", (char *)"chip_swimlane_records.json", (char *)"-o", (char *)"t.json",
                  (char *)"--reference-flows", NULL};
  for (int ref = 0; ref < 2; ref++) {
    char *out = NULL, *err = NULL;
    assert_int_equal(h_convert(ref ? 5 : 4, argv, &out, &err), 0);
    cJSON *t = h_trace("t.json");
    assert_non_null(t);
    for (double pid = 3; pid <= 4; pid++) {
      const cJSON *a = x_event(t, "task(t2)", pid), *b = x_event(t, "task(t3)", pid);
      assert_non_null(a);
      assert_non_null(b);
      double end = h_num(a, "ts") + h_num(a, "dur"), next = h_num(b, "ts");
      assert_true(llround(end * 1000) == llround(next * 1000)); /* one ns for Perfetto */
      if (ref) /* the reference's bytes: end - start, one ulp past t3's start */
        assert_true(end > next);
      else /* at t3's start, or (when no dur reaches it exactly) the double just below */
        assert_true(end <= next && nextafter(end, INFINITY) >= next);
    }
    cJSON_Delete(t);
    free(out);
    free(err);
  }
  h_cleanup(dir);
}

/* SPMD task 1 (block_num 2) on cores 0 and 1; core 1 starts first, so both views
** anchor the arrow to task 2 on core 1 — one arrow, not two. Task 3 has two rows
** with equal starts: the smaller core id wins. */
static const char *SPMD_JSON =
    "{\"chip_swimlane_level\": 2, \"metadata\": {\"clock_freq_hz\": 1000000, \"num_cores\": 3,"
    " \"core_types\": [\"aiv\", \"aiv\", \"aiv\"]},"
    " \"aicore_tasks\": [[0, 1, 1, 1010, 1020, 0], [1, 1, 1, 1008, 1021, 0],"
    "                    [2, 2, 1, 1030, 1040, 0],"
    "                    [2, 3, 2, 1050, 1060, 0], [1, 3, 2, 1050, 1060, 0]],"
    " \"aicpu_tasks\": [[0, 1, 1005, 1025], [1, 1, 1006, 1025], [2, 1, 1028, 1045],"
    "                   [2, 2, 1048, 1065], [1, 2, 1048, 1065]]}";
static const char *SPMD_DEPS =
    "{\"tasks\": [{\"task_id\": \"1\", \"kernel_ids\": [-1, 5, -1], \"block_num\": 2},"
    " {\"task_id\": \"2\", \"kernel_ids\": [-1, 6, -1], \"block_num\": 1},"
    " {\"task_id\": \"3\", \"kernel_ids\": [-1, 7, -1], \"block_num\": 4}],"
    " \"edges\": [{\"pred\": \"1\", \"succ\": \"2\"}, {\"pred\": \"2\", \"succ\": \"3\"}]}";

static void test_spmd_anchor(void **state) {
  (void)state;
  char *dir = h_scratch("spmd");
  h_write("chip_swimlane_records.json", SPMD_JSON);
  h_write("deps.json", SPMD_DEPS);
  char *argv[] = {(char *)"convert", (char *)"chip_swimlane_records.json", (char *)"-o", (char *)"t.json", NULL};
  char *out = NULL, *err = NULL;
  assert_int_equal(h_convert(4, argv, &out, &err), 0);
  cJSON *t = h_trace("t.json");
  assert_non_null(t);
  assert_int_equal(h_count_slices(t, "func_5_f_spmd(t1)", 4, -1), 2);
  assert_int_equal(h_count_slices(t, "func_6_g(t2)", 4, -1), 1);
  assert_int_equal(h_count_slices(t, "func_7_h_spmd(t3)", 4, -1), 2);
  int worker_s = 0, sv_s = 0, t2_in = 0;
  cJSON *e;
  cJSON_ArrayForEach(e, h_events(t)) {
    const char *ph = h_str(e, "ph"), *nm = h_str(e, "name");
    if (!ph || strcmp(ph, "s") || !nm || strcmp(nm, "dependency")) continue;
    double pid = h_num(e, "pid"), tid = h_num(e, "tid"), ts = h_num(e, "ts");
    if (pid == 4 && tid == 10010) { /* t1 on core 1: receive 8 < 10 */
      worker_s++;
      assert_true(fabs(ts - (O + 3.0)) < 1e-9);
      assert_int_equal((int)h_num(e, "output_task_count"), 2);
      assert_int_equal((int)h_num(e, "input_task_count"), 1);
    }
    if (pid == 3 && tid == 10000) { /* Scheduler View: t1 dispatch on core 0 (5 < 6) */
      sv_s++;
      assert_true(fabs(ts - O) < 1e-9);
    }
    if (pid == 4 && tid == 10020 && fabs(ts - (O + 25.0)) < 1e-9) t2_in++; /* t2 -> t3 */
  }
  assert_int_equal(worker_s, 1);
  assert_int_equal(sv_s, 1);
  assert_int_equal(t2_in, 1);
  /* t2 -> t3: t3's rows start together on cores 2 and 1; core 1 is the anchor */
  int to_core1 = 0, to_core2 = 0;
  cJSON_ArrayForEach(e, h_events(t)) {
    const char *ph = h_str(e, "ph"), *nm = h_str(e, "name");
    if (!ph || strcmp(ph, "f") || !nm || strcmp(nm, "dependency") || h_num(e, "pid") != 4)
      continue;
    if (fabs(h_num(e, "ts") - (O + 45.0)) > 1e-9) continue;
    if (h_num(e, "tid") == 10010) to_core1++;
    if (h_num(e, "tid") == 10020) to_core2++;
    assert_int_equal((int)h_num(e, "input_task_count"), 4);
  }
  assert_int_equal(to_core1, 1);
  assert_int_equal(to_core2, 0);
  cJSON_Delete(t);
  free(out);
  free(err);
  h_cleanup(dir);
}

/* An SPMD task with no AICore rows anchors its arrows to its earliest AICPU bar, whatever
** order the bars were drawn in: t5 (block_num 2) is an alloc bar on orchestrator threads 0
** (later) and 1 (earlier); t3's alloc bar sorts before both (neither has kernel_ids in
** deps.json, so both are drawn as allocations). The arrow t5 -> t6 leaves thread 1's bar. */
static void test_spmd_aicpu_anchor(void **state) {
  (void)state;
  char *dir = h_scratch("spmdaicpu");
  h_write("chip_swimlane_records.json",
          "{\"chip_swimlane_level\": 4, \"metadata\": {\"clock_freq_hz\": 1000000, \"num_cores\": 1,"
          " \"core_types\": [\"aiv\"]}, \"aicore_tasks\": [[0, 6, 1, 1030, 1040, 0]],"
          " \"aicpu_tasks\": [[0, 1, 1025, 1045]],"
          " \"aicpu_orchestrator_phases\": ["
          "  [{\"start_cycles\": 1001, \"end_cycles\": 1002, \"task_id\": 3, \"submit_idx\": 0},"
          "   {\"start_cycles\": 1010, \"end_cycles\": 1012, \"task_id\": 5, \"submit_idx\": 1},"
          "   {\"start_cycles\": 1014, \"end_cycles\": 1015, \"task_id\": 6, \"submit_idx\": 2}],"
          "  [{\"start_cycles\": 1005, \"end_cycles\": 1007, \"task_id\": 5, \"submit_idx\": 1}]]}");
  h_write("deps.json", "{\"tasks\": [{\"task_id\": \"3\", \"block_num\": 1}, {\"task_id\": \"5\", \"block_num\": 2},"
                       " {\"task_id\": \"6\", \"kernel_ids\": [-1, 6, -1], \"block_num\": 1}],"
                       " \"edges\": [{\"pred\": \"5\", \"succ\": \"6\"}]}");
  char *argv[] = {(char *)"convert", (char *)"chip_swimlane_records.json", (char *)"-o", (char *)"t.json", NULL};
  char *out = NULL, *err = NULL;
  assert_int_equal(h_convert(4, argv, &out, &err), 0);
  cJSON *t = h_trace("t.json");
  assert_non_null(t);
  double first_ts = INFINITY, first_tid = -1, later_ts = -INFINITY;
  int bars = 0, arrows = 0;
  cJSON *e;
  cJSON_ArrayForEach(e, h_events(t)) {
    const char *ph = h_str(e, "ph"), *nm = h_str(e, "name");
    if (!ph || strcmp(ph, "X") || !nm || strcmp(nm, "alloc(t5)")) continue;
    bars++;
    if (h_num(e, "ts") < first_ts) first_ts = h_num(e, "ts"), first_tid = h_num(e, "tid");
    if (h_num(e, "ts") > later_ts) later_ts = h_num(e, "ts");
  }
  assert_int_equal(bars, 2);
  assert_true(first_ts < later_ts);
  cJSON_ArrayForEach(e, h_events(t)) {
    const char *ph = h_str(e, "ph"), *nm = h_str(e, "name");
    if (!ph || strcmp(ph, "s") || !nm || strcmp(nm, "dependency")) continue;
    arrows++;
    assert_true(h_num(e, "pid") == 4 && h_num(e, "tid") == first_tid);
    assert_true(fabs(h_num(e, "ts") - first_ts) < 1e-9);
    assert_int_equal((int)h_num(e, "output_task_count"), 2);
  }
  assert_int_equal(arrows, 1);
  cJSON_Delete(t);
  free(out);
  free(err);
  h_cleanup(dir);
}

/* Flow classification at the exact boundary: t2 starts when t1 ends and is dispatched
** when t1 finishes (a dependency in both views); t3 starts 1 us before t2 ends and is
** dispatched 1 us before t2 finishes (a happens-before violation in both views). */
static const char *EDGE_JSON =
    "{\"chip_swimlane_level\": 2, \"metadata\": {\"clock_freq_hz\": 1000000, \"num_cores\": 3,"
    " \"core_types\": [\"aiv\", \"aiv\", \"aiv\"]},"
    " \"aicore_tasks\": [[0, 1, 1, 1010, 1020, 0], [1, 2, 1, 1020, 1030, 0], [2, 3, 1, 1029, 1040, 0]],"
    " \"aicpu_tasks\": [[0, 1, 1005, 1025], [1, 1, 1025, 1035], [2, 1, 1034, 1045]]}";
static const char *EDGE_DEPS =
    "{\"tasks\": [{\"task_id\": \"1\", \"kernel_ids\": [-1, 5, -1], \"block_num\": 1},"
    " {\"task_id\": \"2\", \"kernel_ids\": [-1, 6, -1], \"block_num\": 1},"
    " {\"task_id\": \"3\", \"kernel_ids\": [-1, 7, -1], \"block_num\": 1}],"
    " \"edges\": [{\"pred\": \"1\", \"succ\": \"2\"}, {\"pred\": \"2\", \"succ\": \"3\"}]}";

static void test_flow_boundaries(void **state) {
  (void)state;
  char *dir = h_scratch("edge");
  h_write("chip_swimlane_records.json", EDGE_JSON);
  h_write("deps.json", EDGE_DEPS);
  char *argv[] = {(char *)"convert", (char *)"chip_swimlane_records.json", (char *)"-o", (char *)"t.json", NULL};
  char *out = NULL, *err = NULL;
  assert_int_equal(h_convert(4, argv, &out, &err), 0);
  cJSON *t = h_trace("t.json");
  assert_non_null(t);
  /* per view (pid): the arrow leaving t1 (the earlier start) is a dependency, the one
  ** leaving t2 a violation; both views draw both arrows */
  double pids[8], first_ts[8], last_ts[8];
  const char *first_nm[8], *last_nm[8];
  int npid = 0;
  cJSON *e;
  cJSON_ArrayForEach(e, h_events(t)) {
    const char *ph = h_str(e, "ph"), *nm = h_str(e, "name");
    if (!ph || strcmp(ph, "s") || !nm) continue;
    double pid = h_num(e, "pid"), ts = h_num(e, "ts");
    int k = 0;
    while (k < npid && pids[k] != pid) k++;
    if (k == npid) {
      assert_true(npid < 8);
      pids[npid++] = pid;
      first_ts[k] = last_ts[k] = ts;
      first_nm[k] = last_nm[k] = nm;
    }
    if (ts < first_ts[k]) first_ts[k] = ts, first_nm[k] = nm;
    if (ts > last_ts[k]) last_ts[k] = ts, last_nm[k] = nm;
  }
  assert_int_equal(npid, 2);
  for (int k = 0; k < npid; k++) {
    assert_true(first_ts[k] < last_ts[k]);
    assert_string_equal(first_nm[k], "dependency");
    assert_string_equal(last_nm[k], "hb_violation");
  }
  cJSON_Delete(t);
  free(out);
  free(err);
  h_cleanup(dir);
}

/* ---- the seed's views: A5 HBG AICore Scheduler lanes, HBG P thread, lifecycle -------- */

static void test_seed_hbg_views(void **state) {
  (void)state;
  char src[1200];
  snprintf(src, sizeof src, "%s/seed_a5_hbg.json", getenv("SL_CONVERT_TESTDIR"));
  char *dir = h_scratch("hbg");
  assert_int_equal(h_copy(src, "chip_swimlane_records.json"), 0);
  char *argv[] = {(char *)"convert", (char *)"chip_swimlane_records.json", (char *)"-o", (char *)"t.json", NULL};
  char *out = NULL, *err = NULL;
  assert_int_equal(h_convert(4, argv, &out, &err), 0);
  cJSON *t = h_trace("t.json");
  assert_non_null(t);
  /* one Scheduler_<physical AIV id> lane; task-bound labels, taskless by name */
  assert_int_equal(h_count_slices(t, "Bootstrap", 2, 31005), 1);
  assert_int_equal(h_count_slices(t, "StateProbe(t23)", 2, 31005), 1);
  assert_int_equal(h_count_slices(t, "Dispatch(t23)", 2, 31005), 1);
  assert_int_equal(h_count_slices(t, "Completion(t23)", 2, 31005), 1);
  /* HBG P thread: standalone resolve is drawn as resolve on the main lane */
  assert_int_equal(h_count_slices(t, "resolve(2)", 2, 30000), 1);
  assert_int_equal(h_count_slices(t, NULL, 2, 30001), 0);
  /* AICPU Lifecycle: leader-only topology span on thread 0 */
  assert_int_equal(h_count_slices(t, "Handshake", 6, 6000), 1);
  assert_int_equal(h_count_slices(t, "TopologyConfig", 6, 6000), 1);
  assert_int_equal(h_count_slices(t, "ExitWait", 6, 6000), 1);
  assert_int_equal(h_count_slices(t, "Handshake", 6, 6001), 1);
  assert_int_equal(h_count_slices(t, "TopologyConfig", 6, 6001), 0);
  int names = 0;
  cJSON *e;
  cJSON_ArrayForEach(e, h_events(t)) {
    const char *nm = h_str(e, "name");
    if (!nm || strcmp(nm, "thread_name")) continue;
    const char *v = h_str(cJSON_GetObjectItem(e, "args"), "name");
    if (h_num(e, "pid") == 2 && h_num(e, "tid") == 31005) names += !strcmp(v, "Scheduler_5");
    if (h_num(e, "pid") == 6 && h_num(e, "tid") == 6001) names += !strcmp(v, "AICPU_1");
  }
  assert_int_equal(names, 2);
  cJSON_Delete(t);
  free(out);
  free(err);
  h_cleanup(dir);
}

/* A task that finishes half a microsecond into the capture still gets its complete arrows
** (one from each view) to the complete phase that covers its finish (bound at the bar's start).
** Tasks on a core of no scheduler thread (-1) or of a thread without a stream (7) get none. */
static void test_complete_arrow_near_origin(void **state) {
  (void)state;
  char *dir = h_scratch("complete0");
  h_write("chip_swimlane_records.json",
          "{\"chip_swimlane_level\": 3, \"metadata\": {\"clock_freq_hz\": 10000000, \"num_cores\": 3,"
          " \"core_types\": [\"aiv\", \"aiv\", \"aiv\"], \"core_to_thread\": [0, -1, 7]},"
          " \"aicore_tasks\": [[0, 1, 1, 1001, 1004, 0], [1, 2, 1, 1001, 1004, 0], [2, 3, 1, 1001, 1004, 0]],"
          " \"aicpu_tasks\": [[0, 1, 1000, 1005], [1, 1, 1000, 1005], [2, 1, 1000, 1005]],"
          " \"aicpu_scheduler_phases\": [["
          "  {\"kind\": \"dispatch\", \"start_cycles\": 1000, \"end_cycles\": 1001, \"loop_iter\": 1,"
          "   \"tasks_processed\": 1},"
          "  {\"kind\": \"complete\", \"start_cycles\": 1004, \"end_cycles\": 1008, \"loop_iter\": 2,"
          "   \"tasks_processed\": 1}]]}");
  char *argv[] = {(char *)"convert", (char *)"chip_swimlane_records.json", (char *)"-o", (char *)"t.json", NULL};
  char *out = NULL, *err = NULL;
  assert_int_equal(h_convert(4, argv, &out, &err), 0);
  cJSON *t = h_trace("t.json");
  assert_non_null(t);
  int ends = 0;
  cJSON *e;
  cJSON_ArrayForEach(e, h_events(t)) {
    const char *ph = h_str(e, "ph"), *nm = h_str(e, "name");
    if (!ph || strcmp(ph, "f") || !nm || strcmp(nm, "complete")) continue;
    ends++;
    assert_true(h_num(e, "pid") == 2 && h_num(e, "tid") == 30000); /* bound to the complete bar */
    assert_true(fabs(h_num(e, "ts") - (O + 0.4)) < 1e-9);
  }
  assert_int_equal(ends, 2);
  cJSON_Delete(t);
  free(out);
  free(err);
  h_cleanup(dir);
}

/* Graph Definition: outer ring-0 task 5 expands into ring-1 nodes (5 << 10) | i. */
static const char *GRAPH_JSON =
    "{\"chip_swimlane_level\": 3, \"metadata\": {\"clock_freq_hz\": 1000000, \"num_cores\": 2,"
    " \"core_types\": [\"aic\", \"aiv\"]},"
    " \"aicore_tasks\": [[0, 4294972416, 1, 1020, 1030, 0], [1, 4294972419, 1, 1022, 1034, 0]],"
    " \"aicpu_tasks\": [[0, 1, 1015, 1035], [1, 1, 1016, 1040]],"
    " \"aicpu_scheduler_phases\": [["
    "  {\"kind\": \"graph_prepare\", \"start_cycles\": 1002, \"end_cycles\": 1010, \"loop_iter\": 1,"
    "   \"tasks_processed\": 3, \"task_id\": 5},"
    "  {\"kind\": \"dispatch\", \"start_cycles\": 1014, \"end_cycles\": 1017, \"loop_iter\": 2,"
    "   \"tasks_processed\": 2},"
    "  {\"kind\": \"dummy_task\", \"start_cycles\": 1041, \"end_cycles\": 1041, \"loop_iter\": 3,"
    "   \"tasks_processed\": 1, \"task_id\": 4294972423}]]}";

static void test_graph_execution(void **state) {
  (void)state;
  char *dir = h_scratch("graph");
  h_write("chip_swimlane_records.json", GRAPH_JSON);
  char *argv[] = {(char *)"convert", (char *)"chip_swimlane_records.json", (char *)"-o", (char *)"t.json", NULL};
  char *out = NULL, *err = NULL;
  assert_int_equal(h_convert(4, argv, &out, &err), 0);
  cJSON *t = h_trace("t.json");
  assert_non_null(t);
  assert_int_equal(h_count_slices(t, "GraphExecution(t5, 3 visible nodes)", 5, 5000), 1);
  assert_int_equal(h_count_slices(t, "graph_prepare(3)", 2, 30000), 1);
  assert_int_equal(h_count_slices(t, "dummy(r1t5127)", 4, 19000), 1);
  cJSON *e;
  cJSON_ArrayForEach(e, h_events(t)) {
    const char *nm = h_str(e, "name");
    if (!nm || strncmp(nm, "GraphExecution", 14)) continue;
    cJSON *a = cJSON_GetObjectItem(e, "args");
    assert_int_equal((int)h_num(a, "visible_node_index_min"), 0);
    assert_int_equal((int)h_num(a, "visible_node_index_max"), 7);
    assert_true(fabs(h_num(e, "ts") - O) < 1e-9);            /* prepare start */
    assert_true(fabs(h_num(e, "dur") - 39.0) < 1e-9);        /* to the dummy's end */
    assert_true(fabs(h_num(a, "execution_start_us") - (O + 13.0)) < 1e-9);
  }
  cJSON_Delete(t);
  free(out);
  free(err);
  h_cleanup(dir);
}

/* Three graph instances prepared in the order t9, t3, t6 (not by outer id): each node
** must bind to its own instance, whatever the prepare order. */
static const char *GRAPH3_JSON =
    "{\"chip_swimlane_level\": 3, \"metadata\": {\"clock_freq_hz\": 1000000, \"num_cores\": 3,"
    " \"core_types\": [\"aic\", \"aiv\", \"aiv\"]},"
    " \"aicore_tasks\": [[0, 4294976512, 1, 1020, 1030, 0], [1, 4294970369, 1, 1040, 1044, 0],"
    "   [2, 4294973442, 1, 1060, 1066, 0]],"
    " \"aicpu_tasks\": [[0, 1, 1015, 1031], [1, 1, 1035, 1045], [2, 1, 1055, 1067]],"
    " \"aicpu_scheduler_phases\": [["
    "  {\"kind\": \"graph_prepare\", \"start_cycles\": 1002, \"end_cycles\": 1010, \"loop_iter\": 1,"
    "   \"tasks_processed\": 1, \"task_id\": 9},"
    "  {\"kind\": \"graph_prepare\", \"start_cycles\": 1011, \"end_cycles\": 1012, \"loop_iter\": 2,"
    "   \"tasks_processed\": 1, \"task_id\": 3},"
    "  {\"kind\": \"graph_prepare\", \"start_cycles\": 1013, \"end_cycles\": 1014, \"loop_iter\": 3,"
    "   \"tasks_processed\": 1, \"task_id\": 6}]]}";

static void test_graph_instances_out_of_order(void **state) {
  (void)state;
  char *dir = h_scratch("graph3");
  h_write("chip_swimlane_records.json", GRAPH3_JSON);
  char *argv[] = {(char *)"convert", (char *)"chip_swimlane_records.json", (char *)"-o", (char *)"t.json", NULL};
  char *out = NULL, *err = NULL;
  assert_int_equal(h_convert(4, argv, &out, &err), 0);
  cJSON *t = h_trace("t.json");
  assert_non_null(t);
  /* outer id -> its node index and execution start (the AICPU dispatch, us after O) */
  const struct { int outer, node; double exec_start; } want[] = {{9, 0, 13.0}, {3, 1, 33.0}, {6, 2, 53.0}};
  int seen = 0;
  cJSON *e;
  cJSON_ArrayForEach(e, h_events(t)) {
    const char *nm = h_str(e, "name");
    if (!nm || strncmp(nm, "GraphExecution", 14)) continue;
    cJSON *a = cJSON_GetObjectItem(e, "args");
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
      char label[64];
      snprintf(label, sizeof label, "GraphExecution(t%d, 1 visible nodes)", want[k].outer);
      if (strcmp(nm, label)) continue;
      seen |= 1 << k;
      assert_int_equal((int)h_num(a, "visible_node_index_min"), want[k].node);
      assert_int_equal((int)h_num(a, "visible_node_index_max"), want[k].node);
      assert_true(fabs(h_num(a, "execution_start_us") - (O + want[k].exec_start)) < 1e-9);
    }
  }
  assert_int_equal(seen, 7);
  cJSON_Delete(t);
  free(out);
  free(err);
  h_cleanup(dir);
}

/* -v counts the submitted tasks from the lowest dispatch_flow rank present: two submit
** records, then a fanin record (a higher rank) that must not replace them. */
static void test_verbose_orch_submitted(void **state) {
  (void)state;
  char *dir = h_scratch("orchsub");
  h_write("chip_swimlane_records.json",
          "{\"chip_swimlane_level\": 4, \"metadata\": {\"clock_freq_hz\": 1000000, \"num_cores\": 1,"
          " \"core_types\": [\"aic\"]}, \"aicore_tasks\": [[0, 1, 1, 1020, 1030, 0]],"
          " \"aicpu_tasks\": [[0, 1, 1015, 1035]],"
          " \"aicpu_orchestrator_phases\": [[{\"start_cycles\": 1000, \"end_cycles\": 1001, \"task_id\": 1,"
          " \"submit_idx\": 0}, {\"start_cycles\": 1002, \"end_cycles\": 1003, \"task_id\": 2, \"submit_idx\": 1},"
          " {\"phase\": \"orch_fanin\", \"start_cycles\": 1004, \"end_cycles\": 1005, \"task_id\": 2,"
          " \"submit_idx\": 1}]]}");
  char *argv[] = {(char *)"convert", (char *)"chip_swimlane_records.json", (char *)"-o", (char *)"t.json",
                  (char *)"-v", NULL};
  char *out = NULL, *err = NULL;
  assert_int_equal(h_convert(5, argv, &out, &err), 0);
  if (!strstr(out, "Orchestrator: 2 tasks submitted")) fail_msg("-v output: %s", out);
  free(out);
  free(err);
  h_cleanup(dir);
}

/* A level-1 capture (AICore timing only) has no dispatch times: the summary gives the
** AICore span instead, from the earliest receive (start - receive_to_start) to the latest end. */
static void test_level1_observed_span(void **state) {
  (void)state;
  char *dir = h_scratch("level1");
  h_write("chip_swimlane_records.json",
          "{\"chip_swimlane_level\": 1, \"metadata\": {\"clock_freq_hz\": 1000000, \"num_cores\": 2,"
          " \"core_types\": [\"aic\", \"aiv\"]},"
          " \"aicore_tasks\": [[0, 1, 1, 1020, 1030, 5], [1, 2, 1, 1040, 1060, 0]]}");
  char *argv[] = {(char *)"convert", (char *)"chip_swimlane_records.json", (char *)"-o", (char *)"t.json", NULL};
  char *out = NULL, *err = NULL;
  assert_int_equal(h_convert(4, argv, &out, &err), 0);
  if (!strstr(out, "AICore Observed Span: 45.00 us (from earliest AICore receive to latest AICore end)"))
    fail_msg("summary: %s", out);
  assert_null(strstr(out, "Total Test Time"));
  free(out);
  free(err);
  h_cleanup(dir);
}

/* --summary-json: the per-function averages are sums over the function's tasks divided by
** their count (two tasks of func 1: latencies 20 and 40 us -> 30). */
static void test_summary_json_averages(void **state) {
  (void)state;
  char *dir = h_scratch("sumjson");
  h_write("chip_swimlane_records.json",
          "{\"chip_swimlane_level\": 2, \"metadata\": {\"clock_freq_hz\": 1000000, \"num_cores\": 2,"
          " \"core_types\": [\"aiv\", \"aiv\"]},"
          " \"aicore_tasks\": [[0, 1, 1, 1010, 1015, 0], [1, 2, 1, 1030, 1050, 0]],"
          " \"aicpu_tasks\": [[0, 1, 1000, 1020], [1, 1, 1015, 1055]]}");
  char *argv[] = {(char *)"convert", (char *)"chip_swimlane_records.json", (char *)"-o", (char *)"t.json",
                  (char *)"--summary-json", (char *)"s.json", NULL};
  char *out = NULL, *err = NULL;
  assert_int_equal(h_convert(6, argv, &out, &err), 0);
  cJSON *sj = h_trace("s.json");
  assert_non_null(sj);
  cJSON *f = NULL, *fn;
  cJSON_ArrayForEach(fn, cJSON_GetObjectItem(sj, "functions")) f = fn;
  assert_non_null(f);
  assert_int_equal((int)h_num(f, "count"), 2);
  assert_true(fabs(h_num(f, "avg_latency_us") - 30.0) < 1e-9);
  cJSON_Delete(sj);
  free(out);
  free(err);
  /* one task: its head split is an average of one (receive 1007 = start - 3, dispatch 1000) */
  h_write("chip_swimlane_records.json",
          "{\"chip_swimlane_level\": 2, \"metadata\": {\"clock_freq_hz\": 1000000, \"num_cores\": 1,"
          " \"core_types\": [\"aiv\"]}, \"aicore_tasks\": [[0, 1, 1, 1010, 1015, 3]],"
          " \"aicpu_tasks\": [[0, 1, 1000, 1020]]}");
  assert_int_equal(h_convert(6, argv, &out, &err), 0);
  sj = h_trace("s.json");
  assert_non_null(sj);
  cJSON_ArrayForEach(fn, cJSON_GetObjectItem(sj, "functions")) f = fn;
  assert_int_equal((int)h_num(f, "count"), 1);
  assert_true(cJSON_IsNumber(cJSON_GetObjectItem(f, "avg_local_us")));
  assert_true(fabs(h_num(f, "avg_local_us") - 3.0) < 1e-9);
  assert_true(cJSON_IsNumber(cJSON_GetObjectItem(f, "avg_prop_us")));
  assert_true(fabs(h_num(f, "avg_prop_us") - 7.0) < 1e-9);
  cJSON_Delete(sj);
  free(out);
  free(err);
  h_cleanup(dir);
}

/* A submitted dummy (deps.json: no kernel in any of its three slots) without a dummy_task
** scheduler record is named in one warning; a kernel task listed after it is not a dummy. */
static void test_dummy_without_record_warns(void **state) {
  (void)state;
  char *dir = h_scratch("dummywarn");
  h_write("chip_swimlane_records.json",
          "{\"chip_swimlane_level\": 4, \"metadata\": {\"clock_freq_hz\": 1000000, \"num_cores\": 1,"
          " \"core_types\": [\"aic\"]}, \"aicore_tasks\": [[0, 2, 1, 1020, 1030, 0]],"
          " \"aicpu_tasks\": [[0, 1, 1015, 1035]],"
          " \"aicpu_orchestrator_phases\": [[{\"start_cycles\": 1000, \"end_cycles\": 1001, \"task_id\": 1,"
          " \"submit_idx\": 0}, {\"start_cycles\": 1002, \"end_cycles\": 1003, \"task_id\": 2, \"submit_idx\": 1}]]}");
  h_write("deps.json", "{\"tasks\": [{\"task_id\": \"1\", \"kernel_ids\": [-1, -1, -1]},"
                       " {\"task_id\": \"2\", \"kernel_ids\": [5, -1, -1]}], \"edges\": []}");
  char *argv[] = {(char *)"convert", (char *)"chip_swimlane_records.json", (char *)"-o", (char *)"t.json", NULL};
  char *out = NULL, *err = NULL;
  assert_int_equal(h_convert(4, argv, &out, &err), 0);
  if (!strstr(err, "dummy(t1) has no dummy_task scheduler record")) fail_msg("stderr: %s", err);
  assert_null(strstr(err, "dummy(t2)"));
  free(out);
  free(err);
  h_cleanup(dir);
}

/* ---- a user's rules script ------------------------------------------------------------ */

static const char *USER_RULES =
    "local R = require('convert.default')\n"
    "R.phases.dispatch.cname = 'good'            -- recolour\n"
    "R.phases.release.route = 'hide'             -- hide a phase\n"
    "R.phases.async_poll.route = 'lane:Polling'  -- a lane of its own\n"
    "local base = R.func_name\n"
    "R.func_name = function(id, mapped, default)\n"
    "  if id == 0 then return 'MatMul' end\n"
    "  return base(id, mapped, default)\n"
    "end\n"
    "local lane = R.worker_lane\n"
    "R.worker_lane = function(core, ty)\n"
    "  if core == 1 then return false end          -- hide AIC_1\n"
    "  return lane(core, ty)\n"
    "end\n"
    "return R\n";

static void test_user_rules(void **state) {
  (void)state;
  char *dir = h_scratch("rules");
  copy_fixture("cap");
  h_write("my_rules.lua", USER_RULES);
  char *argv[] = {(char *)"convert", (char *)"cap/chip_swimlane_records.json", (char *)"--rules", (char *)"my_rules.lua",
                  (char *)"-o", (char *)"t.json", NULL};
  char *out = NULL, *err = NULL;
  assert_int_equal(h_convert(6, argv, &out, &err), 0);
  cJSON *t = h_trace("t.json");
  assert_non_null(t);
  assert_int_equal(h_count_slices(t, "MatMul(t0)", 4, 10000), 1);
  assert_int_equal(h_count_slices(t, "QK(t0)", -1, -1), 0);
  assert_int_equal(h_count_slices(t, "SF(t1)", 4, -1), 1); /* others keep their names */
  assert_int_equal(h_count_slices(t, "release(3)", -1, -1), 0);
  assert_int_equal(h_count_slices(t, "async_poll(0)", 2, 32000), 1);
  assert_int_equal(h_count_slices(t, NULL, 4, 10010), 0);   /* AIC_1 hidden */
  assert_int_equal(h_count_slices(t, NULL, 3, 10010), 0);
  int polling = 0, dispatch = 0;
  cJSON *e;
  cJSON_ArrayForEach(e, h_events(t)) {
    const char *nm = h_str(e, "name"), *ph = h_str(e, "ph");
    if (nm && !strcmp(nm, "thread_name") && h_num(e, "tid") == 32000) {
      assert_string_equal(h_str(cJSON_GetObjectItem(e, "args"), "name"), "Polling");
      polling++;
    }
    if (nm && !strncmp(nm, "dispatch(", 9) && ph && !strcmp(ph, "X")) {
      assert_string_equal(h_str(e, "cname"), "good");
      dispatch++;
    }
    /* no arrow may point at the hidden lane */
    if (ph && (!strcmp(ph, "s") || !strcmp(ph, "f")) && h_num(e, "tid") == 10010)
      assert_true(h_num(e, "pid") != 4 && h_num(e, "pid") != 3);
  }
  assert_int_equal(polling, 1);
  assert_true(dispatch > 0);
  cJSON_Delete(t);
  free(out);
  free(err);
  h_cleanup(dir);
}

/* ---- input discovery, default output, --overhead -------------------------------------- */

static void test_discovery_and_defaults(void **state) {
  (void)state;
  char *dir = h_scratch("discover");
  mkdir("outputs", 0755);
  copy_fixture("outputs/old_case");
  copy_fixture("outputs/new_case");
  struct utimbuf old = {time(NULL) - 3600, time(NULL) - 3600};
  utime("outputs/old_case/chip_swimlane_records.json", &old);
  char *argv[] = {(char *)"convert", (char *)"-v", NULL};
  char *out = NULL, *err = NULL;
  assert_int_equal(h_convert(2, argv, &out, &err), 0);
  assert_non_null(strstr(out, "Auto-selected latest file: "));
  assert_non_null(strstr(out, "new_case/chip_swimlane_records.json"));
  assert_non_null(strstr(out, "Auto-discovered func names from: "));
  assert_true(h_exists("outputs/new_case/merged_swimlane.json"));
  assert_false(h_exists("outputs/old_case/merged_swimlane.json"));
  free(out);
  free(err);
  /* --overhead adds the counter tracks after everything else */
  char *argv2[] = {(char *)"convert", (char *)"outputs/old_case/chip_swimlane_records.json", (char *)"--overhead",
                   (char *)"-v", NULL};
  assert_int_equal(h_convert(4, argv2, &out, &err), 0);
  assert_non_null(strstr(out, "  Overhead Analysis: "));
  cJSON *t = h_trace("outputs/old_case/merged_swimlane.json");
  assert_non_null(t);
  int oh = 0, after_last_flow = 1;
  cJSON *e;
  cJSON_ArrayForEach(e, h_events(t)) {
    const char *cat = h_str(e, "cat");
    if (cat && !strcmp(cat, "overhead")) {
      oh++;
      assert_int_equal((int)h_num(e, "pid"), 2);
    } else if (oh) {
      after_last_flow = 0;
    }
  }
  assert_true(oh >= 8);
  assert_true(after_last_flow);
  cJSON_Delete(t);
  free(out);
  free(err);
  h_cleanup(dir);
}

/* Without core_to_thread, cores map to the thread whose dispatch records contain
** their tasks' dispatch times (voting). */
static void test_core_voting(void **state) {
  (void)state;
  char *dir = h_scratch("voting");
  copy_fixture("cap");
  char *txt = h_read("cap/chip_swimlane_records.json", NULL);
  assert_non_null(txt);
  char *a = strstr(txt, ",\n  \"core_to_thread\"");
  assert_non_null(a);
  char *b = strchr(a, ']');
  memmove(a, b + 1, strlen(b + 1) + 1);
  h_write("cap/chip_swimlane_records.json", txt);
  free(txt);
  /* --reference-flows: the ts checks below are the engine's own placement */
  char *argv[] = {(char *)"convert", (char *)"cap/chip_swimlane_records.json", (char *)"-o", (char *)"t.json", (char *)"-v",
                  (char *)"--reference-flows", NULL};
  char *out = NULL, *err = NULL;
  assert_int_equal(h_convert(6, argv, &out, &err), 0);
  assert_non_null(strstr(out, "  Core-to-thread mapping: 4 cores (inferred via voting)"));
  cJSON *t = h_trace("t.json");
  assert_non_null(t);
  int from0 = 0, from1 = 0, complete = 0;
  cJSON *e;
  cJSON_ArrayForEach(e, h_events(t)) {
    const char *ph = h_str(e, "ph"), *nm = h_str(e, "name");
    if (!ph || strcmp(ph, "f") || !nm) continue;
    if (!strcmp(nm, "complete")) complete++;
    if (strcmp(nm, "dispatch") || h_num(e, "pid") != 4) continue;
    /* AIC cores 0/1 -> Sched_0, AIV cores 2/3 -> Sched_1 */
    if (h_num(e, "tid") == 10000 || h_num(e, "tid") == 10010) from0++;
    if (h_num(e, "tid") == 10020 || h_num(e, "tid") == 10030) from1++;
  }
  assert_int_equal(from0, 3);
  assert_int_equal(from1, 5);
  assert_int_equal(complete, 0); /* complete arrows need core_to_thread */
  cJSON_ArrayForEach(e, h_events(t)) {
    const char *ph = h_str(e, "ph"), *nm = h_str(e, "name");
    if (!ph || strcmp(ph, "s") || !nm || strcmp(nm, "dispatch")) continue;
    double ts = h_num(e, "ts");
    if (h_num(e, "tid") == 30000) assert_true(ts > 1.1 && (ts < 1.3 || ts > 4.0));
  }
  cJSON_Delete(t);
  free(out);
  free(err);
  h_cleanup(dir);
}

/* The per-function table over more functions than its first hash table holds (64
** slots, grown at half full): each of 40 functions, met twice in turn, is one row
** with both of its tasks, in func-id order. */
static void test_func_stats_many(void **state) {
  (void)state;
  enum { NF = 40 };
  char json[16384];
  int n = snprintf(json, sizeof json,
                   "{\"chip_swimlane_level\": 1, \"metadata\": {\"clock_freq_hz\": 1000000,"
                   " \"num_cores\": 1, \"core_types\": [\"aic\"]}, \"aicore_tasks\": [");
  for (int i = 0; i < 2 * NF; i++)
    n += snprintf(json + n, sizeof json - (size_t)n, "%s[0, %d, %d, %d, %d, 0]", i ? ", " : "",
                  i, i, 10 * i + 1, 10 * i + 5);
  snprintf(json + n, sizeof json - (size_t)n, "]}");
  sl_read_opts quiet = {.quiet = 1};
  sl_capture *c = sl_capture_read_mem("many.json", json, strlen(json), &quiet);
  assert_non_null(c);
  assert_int_equal(c->n_tasks, 2 * NF);
  for (size_t i = 0; i < c->n_tasks; i++) c->tasks[i].func_id = (int64_t)(c->tasks[i].task_id % NF);
  size_t nst = 0;
  sl_func_stat *st = sl_convert_func_stats(c, &nst);
  assert_int_equal(nst, NF);
  for (int f = 0; f < NF; f++) {
    assert_int_equal(st[f].func_id, f);
    assert_int_equal(st[f].count, 2);
    assert_float_equal(st[f].sum_exec, 8.0, 1e-9); /* two 4 us tasks */
  }
  sl_mem_free(st);
  sl_capture_free(c);
}

/* ---- bad input ---------------------------------------------------------------------- */

static void expect_failure(int argc, char **argv, int want_rc, const char *in_err,
                           const char *no_file) {
  char *out = NULL, *err = NULL;
  int rc = h_convert(argc, argv, &out, &err);
  assert_int_equal(rc, want_rc);
  if (in_err && !strstr(err, in_err)) {
    print_error("stderr lacks '%s':\n%s\n", in_err, err);
    fail();
  }
  if (no_file) assert_false(h_exists(no_file));
  /* no temporary left behind either */
  char cmd[256];
  snprintf(cmd, sizeof cmd, "ls -a | grep -q '\\.tmp\\.'");
  assert_int_not_equal(system(cmd), 0);
  free(out);
  free(err);
}

static void test_bad_inputs(void **state) {
  (void)state;
  char *dir = h_scratch("bad");
  copy_fixture("cap");
  {
    char *argv[] = {(char *)"convert", (char *)"nope/chip_swimlane_records.json", (char *)"-o", (char *)"o.json", NULL};
    expect_failure(4, argv, 1, "swimlane: nope/chip_swimlane_records.json: input file not found",
                   "o.json");
  }
  {
    h_write("syntax.lua", "return {\n");
    char *argv[] = {(char *)"convert", (char *)"cap/chip_swimlane_records.json", (char *)"--rules", (char *)"syntax.lua", (char *)"-o",
                    (char *)"o.json", NULL};
    expect_failure(6, argv, 1, "syntax.lua", "o.json");
  }
  {
    h_write("number.lua", "return 42\n");
    char *argv[] = {(char *)"convert", (char *)"cap/chip_swimlane_records.json", (char *)"--rules", (char *)"number.lua", (char *)"-o",
                    (char *)"o.json", NULL};
    expect_failure(6, argv, 1, "swimlane: number.lua: rules script must return a table",
                   "o.json");
  }
  {
    /* fails in the middle of drawing: the output was open, and must vanish */
    h_write("boom.lua", "local R = require('convert.default')\n"
                        "R.phase = function(name) error('no phase for ' .. name) end\n"
                        "return R\n");
    char *argv[] = {(char *)"convert", (char *)"cap/chip_swimlane_records.json", (char *)"--rules", (char *)"boom.lua", (char *)"-o",
                    (char *)"o.json", NULL};
    expect_failure(6, argv, 1, "boom.lua: in rules.phase", "o.json");
  }
  {
    h_write("missing.lua", "local R = require('convert.default')\nR.worker_lane = nil\nreturn R\n");
    char *argv[] = {(char *)"convert", (char *)"cap/chip_swimlane_records.json", (char *)"--rules", (char *)"missing.lua", (char *)"-o",
                    (char *)"o.json", NULL};
    expect_failure(6, argv, 1, "rules table has no function 'worker_lane'", "o.json");
  }
  {
    h_write("trunc.json", "{\"chip_swimlane_level\": 4, \"metadata\": {\"clock_freq_hz\": 5");
    char *argv[] = {(char *)"convert", (char *)"trunc.json", (char *)"-o", (char *)"o.json", NULL};
    expect_failure(4, argv, 1, "trunc.json", "o.json");
  }
  {
    h_write("zero_clock.json", "{\"chip_swimlane_level\": 2, \"metadata\": {\"clock_freq_hz\": 0,"
                               " \"core_types\": [\"aic\"]}, \"aicore_tasks\": [],"
                               " \"aicpu_tasks\": []}");
    char *argv[] = {(char *)"convert", (char *)"zero_clock.json", NULL};
    expect_failure(2, argv, 1, "zero_clock.json", "merged_swimlane.json");
  }
  {
    h_write("level9.json", "{\"chip_swimlane_level\": 9, \"metadata\": {\"clock_freq_hz\": 50000000,"
                           " \"core_types\": [\"aic\"]}, \"aicore_tasks\": [], \"aicpu_tasks\": []}");
    char *argv[] = {(char *)"convert", (char *)"level9.json", NULL};
    expect_failure(2, argv, 1, "level9.json", "merged_swimlane.json");
  }
  {
    char *argv[] = {(char *)"convert", (char *)"cap/chip_swimlane_records.json", (char *)"--format", (char *)"xml", NULL};
    expect_failure(4, argv, 2, "swimlane convert: --format expects 'json' or 'proto', got 'xml'", "cap/merged_swimlane.json");
  }
  {
    char *argv[] = {(char *)"convert", (char *)"cap/chip_swimlane_records.json", (char *)"--func-names", (char *)"nope.json",
                    (char *)"-o", (char *)"o.json", NULL};
    expect_failure(6, argv, 1, "nope.json", "o.json");
  }
  {
    char *argv[] = {(char *)"convert", (char *)"--bogus", NULL};
    expect_failure(2, argv, 2, "unknown option '--bogus'", NULL);
  }
  h_cleanup(dir);
}

/* ---- host-mode trace metadata ------------------------------------------------------- */

/* A host_capture error of 120 control characters escapes to 720 bytes (\u0001 each):
** the metadata object carries it whole (a fixed 512-byte format buffer read past its end). */
static void test_host_meta_long_value(void **state) {
  (void)state;
  const char *src = getenv("SL_CONVERT_TESTDIR");
  char path[1200];
  snprintf(path, sizeof path, "%s/../golden/vector_example-hbg/chip_swimlane_records.json", src ? src : "tests/convert");
  char *text = h_read(path, NULL);
  assert_non_null(text);
  cJSON *cap = cJSON_Parse(text);
  free(text);
  assert_non_null(cap);
  char err_text[121];
  memset(err_text, 1, 120);
  err_text[120] = 0;
  cJSON *hc = cJSON_GetObjectItem(cJSON_GetObjectItem(cap, "metadata"), "host_capture");
  assert_non_null(hc);
  cJSON_ReplaceItemInObject(hc, "error", cJSON_CreateString(err_text));
  char *dir = h_scratch("hostmeta");
  char *out_text = cJSON_PrintUnformatted(cap);
  h_write("chip_swimlane_records.json", out_text);
  free(out_text);
  cJSON_Delete(cap);
  char *argv[] = {(char *)"convert", (char *)"chip_swimlane_records.json", (char *)"-o", (char *)"t.json", NULL};
  char *out = NULL, *err = NULL;
  assert_int_equal(h_convert(4, argv, &out, &err), 0);
  cJSON *t = h_trace("t.json");
  assert_non_null(t);
  cJSON *meta = cJSON_GetObjectItem(t, "metadata");
  assert_string_equal(h_str(cJSON_GetObjectItem(meta, "host_capture"), "error"), err_text);
  assert_string_equal(h_str(cJSON_GetObjectItem(meta, "host_capture"), "status"), "complete");
  assert_string_equal(h_str(meta, "layout"), "clock_aligned");
  cJSON_Delete(t);
  free(out);
  free(err);
  h_cleanup(dir);
}

int main(void) {
  const char *fx = getenv("SL_FIXTURES");
  snprintf(g_fix, sizeof g_fix, "%s/anchor-l4", fx ? fx : "tests/fixtures");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tdisp),
      cmocka_unit_test(test_letters),
      cmocka_unit_test(test_spmd_suffix),
      cmocka_unit_test(test_pyfloat),
      cmocka_unit_test(test_pyfloat_random),
      cmocka_unit_test(test_pyfloat_fixed_path),
      cmocka_unit_test(test_pyfloat_ps_path),
      cmocka_unit_test(test_json_escape),
      cmocka_unit_test(test_json_sink_writer),
      cmocka_unit_test(test_sched_view_lanes),
      cmocka_unit_test(test_touching_slices_exact),
      cmocka_unit_test(test_spmd_anchor),
      cmocka_unit_test(test_spmd_aicpu_anchor),
      cmocka_unit_test(test_flow_boundaries),
      cmocka_unit_test(test_seed_hbg_views),
      cmocka_unit_test(test_complete_arrow_near_origin),
      cmocka_unit_test(test_graph_execution),
      cmocka_unit_test(test_graph_instances_out_of_order),
      cmocka_unit_test(test_verbose_orch_submitted),
      cmocka_unit_test(test_level1_observed_span),
      cmocka_unit_test(test_summary_json_averages),
      cmocka_unit_test(test_dummy_without_record_warns),
      cmocka_unit_test(test_user_rules),
      cmocka_unit_test(test_discovery_and_defaults),
      cmocka_unit_test(test_core_voting),
      cmocka_unit_test(test_func_stats_many),
      cmocka_unit_test(test_bad_inputs),
      cmocka_unit_test(test_host_meta_long_value),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
