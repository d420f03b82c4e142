/*
** test_l0_verify.c — the pipe model's request limits and issue rates, the
** independent timeline check (l0_verify.c) on correct and deliberately broken
** timelines, and docs/l0.md listing every cost constant the model uses.
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

#include "l0_internal.h"
#include "sl_pipe.h"

static const char *g_docs; /* docs/l0.md (argv[1]) */

static void rec(sl_pipe_model *m, sl_subcore c, sl_pipe pipe, const char *mn, uint64_t work, sl_pipe peer, int ev) {
  sl_instr ins = {.pipe = pipe, .mnemonic = mn, .work = work, .peer = peer, .event_id = ev, .file = "k.c", .line = 7};
  sl_pipe_record(m, c, &ins);
}

static const sl_pipe_arch *a2a3(void) { return sl_pipe_arch_find("a2a3sim"); }

/* A cube task: many GM loads, flags to MTE1 and CUBE, MMADs, write-backs. */
static void cube_task(sl_pipe_model *m, int loads) {
  sl_pipe_model_init(m, a2a3());
  m->core[SL_SUBCORE_CUBE].ran = 1;
  rec(m, SL_SUBCORE_CUBE, SL_PIPE_SCALAR, "SCALAR", 4, SL_PIPE_SCALAR, 0);
  for (int i = 0; i < loads; i++) rec(m, SL_SUBCORE_CUBE, SL_PIPE_MTE2, "LOAD_GM_TO_L1", 64, SL_PIPE_MTE2, 0);
  rec(m, SL_SUBCORE_CUBE, SL_PIPE_MTE2, "SET_FLAG", 0, SL_PIPE_MTE1, 0);
  rec(m, SL_SUBCORE_CUBE, SL_PIPE_MTE1, "WAIT_FLAG", 0, SL_PIPE_MTE2, 0);
  rec(m, SL_SUBCORE_CUBE, SL_PIPE_MTE1, "LOAD_2D", 8192, SL_PIPE_MTE1, 0);
  rec(m, SL_SUBCORE_CUBE, SL_PIPE_MTE1, "SET_FLAG", 0, SL_PIPE_CUBE, 0);
  rec(m, SL_SUBCORE_CUBE, SL_PIPE_CUBE, "WAIT_FLAG", 0, SL_PIPE_MTE1, 0);
  rec(m, SL_SUBCORE_CUBE, SL_PIPE_CUBE, "MMAD", 16 * 128 * 64, SL_PIPE_CUBE, 0);
  rec(m, SL_SUBCORE_CUBE, SL_PIPE_CUBE, "SET_FLAG", 0, SL_PIPE_FIXP, 0);
  rec(m, SL_SUBCORE_CUBE, SL_PIPE_FIXP, "WAIT_FLAG", 0, SL_PIPE_CUBE, 0);
  for (int i = 0; i < 6; i++) rec(m, SL_SUBCORE_CUBE, SL_PIPE_FIXP, "FIX_L0C_TO_DST", 256, SL_PIPE_FIXP, 0);
  assert_int_equal(sl_pipe_timeline(m), 0);
}

static sl_pipe_rec *loads_of(sl_pipe_model *m) { return &m->core[SL_SUBCORE_CUBE].recs[1]; }

/* At most `outstanding` MTE2 requests in flight: the (limit+1)-th load waits for
** the first to complete; before that, loads issue `issue` cycles apart. */
static void test_outstanding_limit(void **state) {
  (void)state;
  sl_pipe_model m;
  cube_task(&m, 20);
  const sl_pipe_cost *c = &a2a3()->pipe[SL_PIPE_MTE2];
  assert_true(c->outstanding > 1 && c->outstanding < 20);
  const sl_pipe_rec *l = loads_of(&m);
  for (uint32_t i = 1; i < c->outstanding; i++) assert_int_equal(l[i].start - l[i - 1].start, c->issue);
  assert_int_equal(l[c->outstanding].start, l[0].end); /* the slot frees when the first completes */
  for (int i = 0; i < 20; i++) { /* never more than the limit in flight */
    uint32_t busy = 0;
    for (int j = 0; j < 20; j++) busy += l[j].start <= l[i].start && l[i].start < l[j].end;
    assert_true(busy <= c->outstanding);
  }
  sl_pipe_model_free(&m);
}

/* Bandwidth: a transfer occupies its pipe work / per_cycle cycles. */
static void test_bandwidth(void **state) {
  (void)state;
  uint64_t occ, lat;
  const sl_pipe_cost *c = &a2a3()->pipe[SL_PIPE_MTE1];
  sl_pipe_cost_of(a2a3(), SL_PIPE_MTE1, "LOAD_2D", 100ull * c->per_cycle, &occ, &lat);
  assert_int_equal(occ, 100);
  assert_int_equal(lat, 100 + c->latency);
  sl_pipe_cost_of(a2a3(), SL_PIPE_MTE2, "LOAD_GM_TO_L1", 1, &occ, &lat); /* tiny: the issue rate bounds it */
  assert_int_equal(occ, a2a3()->pipe[SL_PIPE_MTE2].issue);
}

static cJSON *export(const sl_pipe_model *m) {
  char *buf = NULL;
  size_t len = 0;
  FILE *fp = open_memstream(&buf, &len);
  assert_non_null(fp);
  assert_int_equal(sl_pipe_write_insight(m, fp, 0), 0);
  fclose(fp);
  cJSON *doc = cJSON_Parse(buf);
  free(buf);
  assert_non_null(doc);
  return doc;
}

static long verify(const sl_pipe_model *m, char *err, size_t len) {
  cJSON *doc = export(m);
  size_t checks = 0;
  long bad = sl_l0_verify_timeline(doc, err, len, &checks);
  assert_true(checks > 0);
  cJSON_Delete(doc);
  return bad;
}

static void test_verify_accepts_model(void **state) {
  (void)state;
  char err[512];
  sl_pipe_model m;
  cube_task(&m, 20);
  assert_int_equal(verify(&m, err, sizeof err), 0);
  sl_pipe_model_free(&m);
  m.arch = NULL;
  cube_task(&m, 3);
  m.arch = sl_pipe_arch_find("a5");
  assert_int_equal(sl_pipe_timeline(&m), 0);
  assert_int_equal(verify(&m, err, sizeof err), 0);
  sl_pipe_model_free(&m);
}

/* Each case breaks the timed records the way a wrong model would, and the
** independent check names the broken invariant. */
static void test_verify_catches_broken_model(void **state) {
  (void)state;
  enum { UNLIMITED, EARLY_RELEASE, TOO_FAST, TOO_SHORT, OUT_OF_ORDER, BEFORE_DISPATCH, EARLY_SET, N_CASES };
  static const char *want[N_CASES] = {"outstanding", "before its SET_FLAG", "the pipe issues every", "needs >=",
                                      "issue out of order", "before its dispatch", "before the earlier"};
  for (int k = 0; k < N_CASES; k++) {
    sl_pipe_model m;
    cube_task(&m, 20);
    sl_pipe_rec *l = loads_of(&m), *r = m.core[SL_SUBCORE_CUBE].recs;
    size_t n = m.core[SL_SUBCORE_CUBE].n;
    uint64_t lat = l[0].end - l[0].start;
    switch (k) {
    case UNLIMITED: /* the old model: every load issued 2 cycles apart, no request limit */
      for (int i = 0; i < 20; i++) {
        l[i].start = l[0].start + 2u * (uint64_t)i;
        l[i].end = l[i].start + lat;
      }
      break;
    case EARLY_RELEASE: /* MTE1's wait released before MTE2's set fired */
      r[22].end = r[21].start;
      break;
    case TOO_FAST: /* the second load one cycle after the first; the pipe issues every 2 */
      l[1].start = l[0].start + 1;
      l[1].end = l[1].start + lat;
      break;
    case TOO_SHORT: r[n - 1].end = r[n - 1].start + 1; break;
    case OUT_OF_ORDER: /* the last write-back before the one ahead of it */
      r[n - 1].start = r[n - 2].start - 1;
      r[n - 1].end = r[n - 1].start + 100;
      break;
    case BEFORE_DISPATCH: r[n - 1].dispatch = r[n - 1].start + 1; break;
    case EARLY_SET: r[21].start = l[19].end - 1; break;
    }
    char err[512];
    assert_true(verify(&m, err, sizeof err) > 0);
    if (!strstr(err, want[k])) fail_msg("case %d: '%s' does not name '%s'", k, err, want[k]);
    sl_pipe_model_free(&m);
  }
}

static void test_verify_refuses_foreign(void **state) {
  (void)state;
  cJSON *doc = cJSON_Parse("{\"traceEvents\": []}");
  char err[256];
  size_t checks;
  assert_int_equal(sl_l0_verify_timeline(doc, err, sizeof err, &checks), -1);
  assert_non_null(strstr(err, "pipe_costs"));
  cJSON_Delete(doc);
}

/* docs/l0.md's cost table lists exactly the numbers of the model, with a source. */
static void test_docs_list_constants(void **state) {
  (void)state;
  FILE *fp = fopen(g_docs, "r");
  assert_non_null(fp);
  char line[512];
  int rows = 0, clocks = 0;
  while (fgets(line, sizeof line, fp)) {
    char arch[16], pipe[16], src[64];
    unsigned iss, lat, per, out, mhz;
    if (sscanf(line, "| %15[a-z0-9] | %15[A-Z0-9] | %u | %u | %u | %u | %63[^|]|", arch, pipe, &iss, &lat, &per,
               &out, src) == 7) {
      const sl_pipe_arch *a = sl_pipe_arch_find(arch);
      assert_non_null(a);
      int p = 0;
      while (p < SL_PIPE_COUNT && strcmp(sl_pipe_lane_name((sl_pipe)p), pipe)) p++;
      assert_true(p < SL_PIPE_COUNT);
      const sl_pipe_cost *c = &a->pipe[p];
      if (c->issue != iss || c->latency != lat || c->per_cycle != per || c->outstanding != out)
        fail_msg("docs/l0.md: %s %s says %u %u %u %u", arch, pipe, iss, lat, per, out);
      assert_true(strstr(src, "assumed") || strstr(src, "public"));
      rows++;
    } else if (sscanf(line, "| %15[a-z0-9] | clock | %u MHz | %63[^|]|", arch, &mhz, src) == 3) {
      assert_int_equal(sl_pipe_arch_find(arch)->core_mhz, mhz);
      clocks++;
    }
  }
  fclose(fp);
  assert_int_equal(rows, 2 * 7); /* every pipe but the barrier target, both arches */
  assert_int_equal(clocks, 2);
}

/* ... and its sentence on slow vector ops ("VEXP 4 / 2, VDIV 4 / 3, ... on a2a3 / a5")
** gives each op's divisor of the model on both arches. */
static void test_docs_list_vector_slowdowns(void **state) {
  (void)state;
  FILE *fp = fopen(g_docs, "r");
  assert_non_null(fp);
  static char text[1 << 17];
  size_t n = fread(text, 1, sizeof text - 1, fp);
  fclose(fp);
  text[n] = '\0';
  for (char *c = text; *c; c++)
    if (*c == '\n') *c = ' '; /* the sentence wraps */
  const char *p = strstr(text, "slow vector ops divide the VECTOR rate (");
  assert_non_null(p);
  p = strchr(p, '(') + 1;
  const sl_pipe_arch *older = a2a3(), *a5 = sl_pipe_arch_find("a5");
  assert_non_null(older);
  assert_non_null(a5);
  int ops = 0, used;
  char op[16];
  unsigned x, y;
  while (sscanf(p, " %15[A-Z] %u / %u%n", op, &x, &y, &used) == 3) {
    assert_int_equal(sl_pipe_vector_slowdown(older, op), x);
    assert_int_equal(sl_pipe_vector_slowdown(a5, op), y);
    ops++;
    p += used;
    if (*p != ',') break;
    p++;
  }
  assert_true(ops >= 4);
  assert_int_equal(sl_pipe_vector_slowdown(older, "VADD"), 1); /* any other op: the plain rate */
}

int main(int argc, char **argv) {
  g_docs = argc > 1 ? argv[1] : "docs/l0.md";
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_outstanding_limit),    cmocka_unit_test(test_bandwidth),
      cmocka_unit_test(test_verify_accepts_model), cmocka_unit_test(test_verify_catches_broken_model),
      cmocka_unit_test(test_verify_refuses_foreign), cmocka_unit_test(test_docs_list_constants),
      cmocka_unit_test(test_docs_list_vector_slowdowns),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
