/*
** test_hostlog.c — host.<pid>.log: what the writer writes the reader reads back
** (spans, clocks, attributes, the simulated host clock), and each malformed line
** is refused with its line number.
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sl_hostlog.h"

static char g_dir[64];

static int make_dir(void **state) {
  (void)state;
  snprintf(g_dir, sizeof g_dir, "/tmp/sl_hostlog_XXXXXX");
  return mkdtemp(g_dir) ? 0 : -1;
}

static int remove_dir(void **state) {
  (void)state;
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
  return system(cmd) == 0 ? 0 : -1;
}

static void test_round_trip(void **state) {
  (void)state;
  FILE *f = sl_hostlog_create(g_dir, 4242, "chip", "linux-boot-id:x");
  assert_non_null(f);
  sl_hl_span s;
  memset(&s, 0, sizeof s);
  s.inv = 3;
  strcpy(s.name, "chip.run");
  s.start_ns = 9000000000123;
  s.dur_ns = 77;
  strcpy(s.keys[0], "task_slot");
  s.vals[0] = -5;
  s.nattrs = 1;
  sl_hostlog_span(f, &s);
  strcpy(s.name, "chip.run.device_wall");
  s.clk_dev = 1;
  s.start_ns = 0;
  s.nattrs = 0;
  sl_hostlog_span(f, &s);
  fclose(f);
  char path[128];
  snprintf(path, sizeof path, "%s/host.4242.log", g_dir);
  sl_hostlog *h = sl_hostlog_load(path);
  assert_non_null(h);
  assert_int_equal(h->pid, 4242);
  assert_string_equal(h->role, "chip");
  assert_string_equal(h->domain, "linux-boot-id:x");
  assert_int_equal(h->n, 2);
  const sl_hl_span *a = sl_hostlog_find(h, 3, "chip.run"), *b = sl_hostlog_find(h, 3, "chip.run.device_wall");
  assert_non_null(a);
  assert_non_null(b);
  assert_null(sl_hostlog_find(h, 2, "chip.run"));
  assert_int_equal(a->start_ns, 9000000000123);
  assert_int_equal(a->clk_dev, 0);
  assert_int_equal(b->clk_dev, 1);
  int64_t v = 0;
  assert_int_equal(sl_hl_attr(a, "task_slot", &v), 1);
  assert_int_equal(v, -5);
  assert_int_equal(sl_hl_attr(a, "run_id", &v), 0);
  sl_hostlog_free(h);
}

/* Write text as a log file and load it. */
static sl_hostlog *load_text(const char *text) {
  char path[128];
  snprintf(path, sizeof path, "%s/host.1.log", g_dir);
  FILE *f = fopen(path, "w");
  fputs(text, f);
  fclose(f);
  return sl_hostlog_load(path);
}

static void test_malformed(void **state) {
  (void)state;
  static const char *const bad[] = {
      "",                                                                  /* empty */
      "span inv=0 name=x clk=host start_ns=1 dur_ns=2\n",                  /* no header */
      "swimlane-hostlog 1 pid=1 role=chip\n",                              /* header without domain */
      "swimlane-hostlog 1 pid=1 role=chip host_clock_domain_id=d\nspan inv=0 name=x start_ns=1\n", /* no dur */
      "swimlane-hostlog 1 pid=1 role=chip host_clock_domain_id=d\nspan inv=0 name=x clk=wall start_ns=1 dur_ns=2\n",
      "swimlane-hostlog 1 pid=1 role=chip host_clock_domain_id=d\nspan inv=0 name=x clk=host start_ns=1x dur_ns=2\n",
      "swimlane-hostlog 1 pid=1 role=chip host_clock_domain_id=d\nspan inv=0 name=x clk=host start_ns=1 dur_ns=-2\n",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) assert_null(load_text(bad[i]));
  char path[128];
  snprintf(path, sizeof path, "%s/missing.log", g_dir);
  assert_null(sl_hostlog_load(path));
  /* unknown lines are skipped, extra attributes beyond the limit dropped */
  sl_hostlog *h = load_text("swimlane-hostlog 1 pid=7 role=l3_scheduler host_clock_domain_id=d\n# note\n"
                            "span inv=1 name=node.task clk=host start_ns=5 dur_ns=6 a=1 b=2 c=3 d=4 e=5 f=6 g=7 "
                            "h=8 i=9\n");
  assert_non_null(h);
  assert_int_equal(h->n, 1);
  assert_int_equal(h->spans[0].nattrs, SL_HL_MAX_ATTRS);
  sl_hostlog_free(h);
}

/* The simulated host clock: offset plus drift from the epoch, exact in integers. */
static void test_host_clock(void **state) {
  (void)state;
  assert_int_equal(sl_hl_host_of_true(123456789), 123456789);
  sl_hl_set_host_clock(2500000000, 100000, 1000000000); /* +2.5 s, +100 ppm from t = 1 s */
  assert_int_equal(sl_hl_host_of_true(1000000000), 3500000000);
  assert_int_equal(sl_hl_host_of_true(11000000000), 11000000000 + 2500000000 + 1000000);
  assert_int_equal(sl_hl_host_of_true(0), 2500000000 - 100000);
  sl_hl_set_host_clock(0, 0, 0);
  assert_int_equal(sl_hl_host_of_true(42), 42);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_round_trip),
      cmocka_unit_test(test_malformed),
      cmocka_unit_test(test_host_clock),
  };
  return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
