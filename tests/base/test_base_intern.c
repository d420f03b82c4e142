/*
** test_base_intern.c — the interner: dense ids in first-seen order, one copy
** per text, stable addresses across growth, lookups that do not add.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "sl_intern.h"

static void ids_are_dense_in_first_seen_order(void **state) {
  (void)state;
  sl_intern t;
  sl_intern_init(&t);
  assert_int_equal(sl_intern_count(&t), 0);
  assert_int_equal(sl_intern_add(&t, "aiv", 3), 1);
  assert_int_equal(sl_intern_add(&t, "aic", 3), 2);
  assert_int_equal(sl_intern_add(&t, "aiv", 3), 1);
  assert_int_equal(sl_intern_add(&t, "aicpu_sched", 4), 3); /* "aicp" */
  assert_string_equal(sl_intern_str(&t, 3), "aicp");
  assert_int_equal(sl_intern_count(&t), 3);
  assert_null(sl_intern_str(&t, SL_INTERN_NONE));
  assert_null(sl_intern_str(&t, 4));
  assert_int_equal(sl_intern_find(&t, "aic", 3), 2);
  assert_int_equal(sl_intern_find(&t, "nope", 4), SL_INTERN_NONE);
  assert_int_equal(sl_intern_count(&t), 3); /* find does not add */
  sl_intern_free(&t);
}

static void addresses_stay_valid_while_it_grows(void **state) {
  (void)state;
  sl_intern t;
  sl_intern_init(&t);
  const char *first = sl_intern_str(&t, sl_intern_add(&t, "task_0", 6));
  char buf[32];
  for (int i = 0; i < 20000; i++) {
    int n = snprintf(buf, sizeof buf, "task_%d", i);
    assert_int_equal(sl_intern_add(&t, buf, (size_t)n), (uint32_t)i + 1);
  }
  assert_ptr_equal(sl_intern_str(&t, 1), first);
  assert_string_equal(first, "task_0");
  for (int i = 0; i < 20000; i += 1234) {
    int n = snprintf(buf, sizeof buf, "task_%d", i);
    assert_string_equal(sl_intern_str(&t, (uint32_t)i + 1), buf);
    assert_int_equal(sl_intern_find(&t, buf, (size_t)n), (uint32_t)i + 1);
  }
  sl_intern_free(&t);
}

static void zeroed_interner_works(void **state) {
  (void)state;
  sl_intern t;
  memset(&t, 0, sizeof t);
  assert_int_equal(sl_intern_find(&t, "x", 1), SL_INTERN_NONE);
  assert_int_equal(sl_intern_add(&t, "x", 1), 1);
  assert_string_equal(sl_intern_str(&t, 1), "x");
  sl_intern_free(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(ids_are_dense_in_first_seen_order),
      cmocka_unit_test(addresses_stay_valid_while_it_grows),
      cmocka_unit_test(zeroed_interner_works),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
