/*
** test_l0_args.c — step 3 on crafted dumps: func_id-set selection and its
** error, lowest task id, stage union, extent formula, exact scalar bits,
** --set-arg, --restore-arg with every rejection, bad manifests.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include <cmocka.h>

#include "l0_internal.h"

static char *fixture(const char *rel) {
  const char *dir = getenv("SL_FIXTURES");
  static char buf[4096];
  snprintf(buf, sizeof buf, "%s/../l0/fixtures/%s", dir ? dir : "tests/fixtures", rel);
  return buf;
}

/* ---- stderr capture --------------------------------------------------------------------- */

static int saved_fd = -1;
static FILE *cap;

static void cap_begin(void) {
  fflush(stderr);
  cap = tmpfile();
  saved_fd = dup(2);
  dup2(fileno(cap), 2);
}

static char *cap_end(void) {
  fflush(stderr);
  dup2(saved_fd, 2);
  close(saved_fd);
  long n = ftell(cap);
  char *s = calloc(1, (size_t)n + 1);
  rewind(cap);
  size_t got = fread(s, 1, (size_t)n, cap);
  s[got] = '\0';
  fclose(cap);
  return s;
}

static void load(sl_l0_manifest *m, const char *rel) { assert_int_equal(sl_l0_manifest_load(fixture(rel), m), 0); }

/* Reconstruction that must fail with `needle` in its message. */
static void expect_fail(const char *rel, const int *want, int n, const char *task, const char *needle) {
  sl_l0_manifest m;
  load(&m, rel);
  sl_l0_task t;
  cap_begin();
  int rc = sl_l0_reconstruct(&m, want, n, task, &t);
  char *msg = cap_end();
  assert_int_equal(rc, -1);
  if (!strstr(msg, needle)) fail_msg("expected '%s' in: %s", needle, msg);
  assert_non_null(strstr(msg, "args_dump.json")); /* names the file */
  free(msg);
  sl_l0_task_free(&t);
  sl_l0_manifest_free(&m);
}

static void test_select_by_set_lowest_task(void **state) {
  (void)state;
  sl_l0_manifest m;
  load(&m, "recon/args_dump.json");
  sl_l0_task t;
  int want[] = {1, 0}; /* the set {0,1} matches the stored [0,1,1] */
  assert_int_equal(sl_l0_reconstruct(&m, want, 2, NULL, &t), 0);
  assert_string_equal(t.task_id, "0x0000000000000010"); /* lowest, compared as numbers */
  assert_int_equal(t.nmix, 3);
  assert_int_equal(t.mix[0], 0);
  assert_int_equal(t.mix[1], 1);
  assert_int_equal(t.mix[2], 1); /* stored order, duplicates kept */
  assert_int_equal(t.ntensors, 3);
  assert_int_equal(t.nscalars, 8);
  sl_l0_task_free(&t);
  /* --task-id picks another instance (short hex accepted) */
  assert_int_equal(sl_l0_reconstruct(&m, want, 2, "0x200000a00", &t), 0);
  assert_string_equal(t.task_id, "0x0000000200000a00");
  sl_l0_task_free(&t);
  sl_l0_manifest_free(&m);
}

static void test_stage_union_and_extent(void **state) {
  (void)state;
  sl_l0_manifest m;
  load(&m, "recon/args_dump.json");
  sl_l0_task t;
  int want[] = {0, 1};
  assert_int_equal(sl_l0_reconstruct(&m, want, 2, NULL, &t), 0);
  sl_l0_arg *inout = sl_l0_task_arg(&t, 0), *out = sl_l0_task_arg(&t, 1), *view = sl_l0_task_arg(&t, 2);
  /* inout: the before_dispatch record wins even though after_completion came first */
  assert_string_equal(inout->stage, "before_dispatch");
  assert_int_equal(inout->start_offset, 2);
  /* output-only: its after_completion record */
  assert_string_equal(out->stage, "after_completion");
  assert_int_equal(out->alloc_bytes, 8 * 4);
  /* strided view: (start 1 + extent (1 + 1*3 + 1*1)) * 2 bytes, not numel * 2 */
  assert_int_equal(view->alloc_bytes, 12);
  assert_false(view->contiguous);
  assert_int_equal(view->dt->raw, 9); /* UINT16 */
  assert_true(sl_l0_task_arg(&t, 1)->contiguous);
  sl_l0_task_free(&t);
  sl_l0_manifest_free(&m);
}

static void test_scalar_bits(void **state) {
  (void)state;
  sl_l0_manifest m;
  load(&m, "recon/args_dump.json");
  sl_l0_task t;
  int want[] = {0, 1};
  assert_int_equal(sl_l0_reconstruct(&m, want, 2, NULL, &t), 0);
  assert_int_equal(sl_l0_task_arg(&t, 3)->raw, 0x3e000000u);                 /* 0.125f bits, not 0 */
  assert_int_equal(sl_l0_task_arg(&t, 4)->raw, (uint64_t)(int64_t)-5);         /* int32 sign-extended */
  assert_true(sl_l0_task_arg(&t, 5)->raw == UINT64_MAX);                       /* above 2^53, exact */
  assert_true(sl_l0_task_arg(&t, 6)->raw == (uint64_t)INT64_C(-9007199254740993));
  assert_int_equal(sl_l0_task_arg(&t, 7)->raw, 1);                             /* BOOL true */
  assert_int_equal(sl_l0_task_arg(&t, 8)->raw, 0x7fc00000u);                   /* NaN (null) */
  assert_int_equal(sl_l0_task_arg(&t, 9)->raw, 0xff800000u);                   /* -$Inf */
  assert_int_equal(sl_l0_task_arg(&t, 10)->raw, 0xffffffffu);
  char buf[64];
  sl_l0_scalar_text(sl_l0_task_arg(&t, 3), buf, sizeof buf);
  assert_string_equal(buf, "0.125");
  sl_l0_scalar_text(sl_l0_task_arg(&t, 4), buf, sizeof buf);
  assert_string_equal(buf, "-5");
  sl_l0_scalar_text(sl_l0_task_arg(&t, 5), buf, sizeof buf);
  assert_string_equal(buf, "18446744073709551615");
  sl_l0_task_free(&t);
  sl_l0_manifest_free(&m);
}

static void test_selection_errors(void **state) {
  (void)state;
  int none[] = {0, 2};
  expect_fail("recon/args_dump.json", none, 2, NULL,
              "--func-id [0, 2] matches no task; dump has func_id shapes [[0, 1], [2], [3], [4]]");
  int ok[] = {0, 1};
  expect_fail("recon/args_dump.json", ok, 2, "0x99", "task_id 0x99 is not among the tasks");
  expect_fail("recon/args_dump.json", ok, 2, "zz", "is not a hex task id");
  int b[] = {2};
  expect_fail("recon/args_dump.json", b, 1, NULL, "unsupported dtype BOOL");
  int e[] = {3};
  expect_fail("recon/args_dump.json", e, 1, NULL, "tensor arg 0 has empty shape");
  int c[] = {4};
  expect_fail("recon/args_dump.json", c, 1, NULL, "scalar arg_index 0 collides with a tensor slot");
}

static void test_bad_manifest(void **state) {
  (void)state;
  char path[] = "/tmp/l0_bad_manifest_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, "{\"args\": [1,", 12), 12);
  close(fd);
  sl_l0_manifest m;
  cap_begin();
  int rc = sl_l0_manifest_load(path, &m);
  char *msg = cap_end();
  assert_int_equal(rc, -1);
  assert_non_null(strstr(msg, path));
  assert_non_null(strstr(msg, "not valid JSON"));
  free(msg);
  fd = open(path, O_WRONLY | O_TRUNC);
  assert_int_equal(write(fd, "{\"tensors\": []}", 15), 15);
  close(fd);
  cap_begin();
  rc = sl_l0_manifest_load(path, &m);
  msg = cap_end();
  assert_int_equal(rc, -1);
  assert_non_null(strstr(msg, "no \"args\" array"));
  free(msg);
  unlink(path);
}

static void test_set_arg(void **state) {
  (void)state;
  char v[64], err[256];
  int slot;
  assert_int_equal(sl_l0_parse_set_arg("4=4", &slot, v, sizeof v, err, sizeof err), 0);
  assert_int_equal(slot, 4);
  assert_string_equal(v, "4");
  assert_int_equal(sl_l0_parse_set_arg("4", &slot, v, sizeof v, err, sizeof err), -1);
  assert_non_null(strstr(err, "must be SLOT=VALUE"));
  assert_int_equal(sl_l0_parse_set_arg("x=4", &slot, v, sizeof v, err, sizeof err), -1);
  assert_int_equal(sl_l0_parse_set_arg("48=1", &slot, v, sizeof v, err, sizeof err), -1);

  sl_l0_manifest m;
  load(&m, "recon/args_dump.json");
  sl_l0_task t;
  int want[] = {0, 1};
  assert_int_equal(sl_l0_reconstruct(&m, want, 2, NULL, &t), 0);
  /* scalar: replaced; a float scalar takes a float and keeps its bits */
  assert_int_equal(sl_l0_apply_set_arg(&t, 4, "7", m.path), 0);
  assert_int_equal(sl_l0_task_arg(&t, 4)->raw, 7);
  assert_int_equal(sl_l0_apply_set_arg(&t, 3, "0.5", m.path), 0);
  assert_int_equal(sl_l0_task_arg(&t, 3)->raw, 0x3f000000u);
  /* integer tensor: uniform fill */
  assert_int_equal(sl_l0_apply_set_arg(&t, 2, "512", m.path), 0);
  assert_int_equal(sl_l0_task_arg(&t, 2)->init, L0_INIT_FILL);
  assert_int_equal(sl_l0_task_arg(&t, 2)->fill, 512);
  /* float tensor, missing slot, bad value: clear errors */
  struct { int slot; const char *value, *needle; } bad[] = {
      {0, "1", "is a FLOAT32 tensor; tensor fill is only supported for integer dtypes"},
      {20, "1", "--set-arg slot 20 is not an arg of task"},
      {4, "0x10", "VALUE must be a base-10 integer"},
      {3, "abc", "VALUE must be a number"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cap_begin();
    int rc = sl_l0_apply_set_arg(&t, bad[i].slot, bad[i].value, m.path);
    char *msg = cap_end();
    assert_int_equal(rc, -1);
    if (!strstr(msg, bad[i].needle)) fail_msg("expected '%s' in: %s", bad[i].needle, msg);
    free(msg);
  }
  sl_l0_task_free(&t);
  sl_l0_manifest_free(&m);
}

static void restore_case(const char *rel, int slot, const char *needle) {
  sl_l0_manifest m;
  load(&m, rel);
  sl_l0_task t;
  int want[] = {1};
  assert_int_equal(sl_l0_reconstruct(&m, want, 1, NULL, &t), 0);
  cap_begin();
  int rc = sl_l0_restore_args(&m, &t, &slot, 1);
  char *msg = cap_end();
  if (!needle) {
    assert_int_equal(rc, 0);
  } else {
    assert_int_equal(rc, -1);
    if (!strstr(msg, needle)) fail_msg("slot %d: expected '%s' in: %s", slot, needle, msg);
  }
  free(msg);
  sl_l0_task_free(&t);
  sl_l0_manifest_free(&m);
}

static void test_restore_scatter(void **state) {
  (void)state;
  sl_l0_manifest m;
  load(&m, "payload/args_dump.json");
  sl_l0_task t;
  int want[] = {1};
  assert_int_equal(sl_l0_reconstruct(&m, want, 1, NULL, &t), 0);
  int slots[] = {0, 1};
  assert_int_equal(sl_l0_restore_args(&m, &t, slots, 2), 0);
  /* UINT16 [2,2] strides [3,1] start 1: logical 10,20,30,40 -> physical 0,10,20,0,30,40 */
  const sl_l0_arg *a = sl_l0_task_arg(&t, 0);
  assert_int_equal(a->init, L0_INIT_RESTORE);
  assert_int_equal(a->alloc_bytes, 12);
  const uint16_t expect[6] = {0, 10, 20, 0, 30, 40};
  uint16_t got[6];
  memcpy(got, a->payload, sizeof got);
  assert_memory_equal(got, expect, sizeof got);
  const int32_t e32[4] = {7, 8, 9, 10};
  assert_memory_equal(sl_l0_task_arg(&t, 1)->payload, e32, sizeof e32);
  /* a restored slot cannot also be filled */
  cap_begin();
  assert_int_equal(sl_l0_apply_set_arg(&t, 1, "3", m.path), -1);
  char *msg = cap_end();
  assert_non_null(strstr(msg, "cannot be both restored and uniformly filled"));
  free(msg);
  sl_l0_task_free(&t);
  sl_l0_manifest_free(&m);
}

static void test_restore_rejections(void **state) {
  (void)state;
  restore_case("payload/args_dump.json", 2, "has no captured payload");
  restore_case("payload/args_dump.json", 3, "has no before_dispatch payload");
  restore_case("payload/args_dump.json", 4, "payload is truncated");
  restore_case("payload/args_dump.json", 5, "payload was overwritten");
  restore_case("payload/args_dump.json", 6, "bin_size 3 does not match logical tensor size 16");
  restore_case("payload/args_dump.json", 7, "exceeds");
  restore_case("payload/args_dump.json", 8, "is a scalar");
  restore_case("payload/args_dump.json", 11, "slot 11 is not an arg");
  restore_case("nobin/args_dump.json", 0, "no bin_file");
  restore_case("nobin/physical.json", 0, "type=logical_contiguous");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_select_by_set_lowest_task), cmocka_unit_test(test_stage_union_and_extent),
      cmocka_unit_test(test_scalar_bits),               cmocka_unit_test(test_selection_errors),
      cmocka_unit_test(test_bad_manifest),              cmocka_unit_test(test_set_arg),
      cmocka_unit_test(test_restore_scatter),           cmocka_unit_test(test_restore_rejections),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
