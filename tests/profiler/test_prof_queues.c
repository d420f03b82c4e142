/*
** test_prof_queues.c — free-queue and ready-queue semantics: capacity, FIFO
** order, free-running index wrap, corrupt-index rejection.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sl_prof_queues.h"

static void free_queue_capacity_and_order(void **state) {
  (void)state;
  sl_free_queue fq;
  memset(&fq, 0, sizeof fq);
  assert_int_equal(sl_fq_pop(&fq, 3), 0); /* empty */
  assert_int_equal(sl_fq_push(&fq, 3, 0x1000), 0);
  assert_int_equal(sl_fq_push(&fq, 3, 0x2000), 0);
  assert_int_equal(sl_fq_push(&fq, 3, 0x3000), 0);
  assert_int_equal(sl_fq_push(&fq, 3, 0x4000), -1); /* full at `slots` */
  assert_int_equal(sl_fq_depth(&fq), 3);
  assert_int_equal(sl_fq_pop(&fq, 3), 0x1000);
  assert_int_equal(sl_fq_push(&fq, 3, 0x4000), 0);
  assert_int_equal(sl_fq_pop(&fq, 3), 0x2000);
  assert_int_equal(sl_fq_pop(&fq, 3), 0x3000);
  assert_int_equal(sl_fq_pop(&fq, 3), 0x4000);
  assert_int_equal(sl_fq_pop(&fq, 3), 0);
  assert_int_equal(fq.head, 4); /* free-running indices */
  assert_int_equal(fq.tail, 4);
}

static void free_queue_index_wrap(void **state) {
  (void)state;
  sl_free_queue fq;
  memset(&fq, 0, sizeof fq);
  fq.head = fq.tail = UINT32_MAX - 1;
  for (uint64_t i = 1; i <= 40; i++) {
    assert_int_equal(sl_fq_push(&fq, 4, i * 64), 0);
    assert_int_equal(sl_fq_push(&fq, 4, i * 64 + 1), 0);
    assert_int_equal(sl_fq_depth(&fq), 2);
    assert_int_equal(sl_fq_pop(&fq, 4), i * 64);
    assert_int_equal(sl_fq_pop(&fq, 4), i * 64 + 1);
  }
  assert_true(fq.tail < 100); /* wrapped through zero */
  assert_int_equal(sl_fq_pop(&fq, 4), 0);
}

static void ready_queue_usable_capacity(void **state) {
  (void)state;
  sl_ready_entry entries[4];
  uint32_t head = 0, tail = 0;
  memset(entries, 0, sizeof entries);
  sl_ready_ring r = {entries, &head, &tail, 4};
  sl_ready_entry e;
  assert_int_equal(sl_rq_pop(&r, &e), 0);
  assert_true(sl_rq_empty(&r));
  for (uint32_t i = 0; i < 3; i++) {
    assert_true(sl_rq_has_space(&r));
    assert_int_equal(sl_rq_push(&r, i % 4, i, 0x100 * (i + 1), i), 0);
  }
  assert_false(sl_rq_has_space(&r)); /* size - 1 usable */
  assert_int_equal(sl_rq_push(&r, 0, 9, 0x900, 9), -1);
  for (uint32_t i = 0; i < 3; i++) {
    assert_int_equal(sl_rq_pop(&r, &e), 1);
    assert_int_equal(e.kind, i % 4);
    assert_int_equal(e.core_index, i);
    assert_int_equal(e.buffer_ptr, 0x100 * (i + 1));
    assert_int_equal(e.buffer_seq, i);
  }
  assert_int_equal(sl_rq_pop(&r, &e), 0);
  /* indices stay modulo size across many laps */
  for (uint32_t i = 0; i < 50; i++) {
    assert_int_equal(sl_rq_push(&r, 1, i, 64 + i, i), 0);
    assert_int_equal(sl_rq_pop(&r, &e), 1);
    assert_int_equal(e.core_index, i);
    assert_true(head < 4 && tail < 4);
  }
}

static void ready_queue_rejects_corrupt_indices(void **state) {
  (void)state;
  sl_ready_entry entries[4];
  uint32_t head = 0, tail = 7;
  memset(entries, 0, sizeof entries);
  sl_ready_ring r = {entries, &head, &tail, 4};
  sl_ready_entry e;
  assert_int_equal(sl_rq_pop(&r, &e), -1);
  tail = 0;
  head = 4;
  assert_int_equal(sl_rq_pop(&r, &e), -1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(free_queue_capacity_and_order),
      cmocka_unit_test(free_queue_index_wrap),
      cmocka_unit_test(ready_queue_usable_capacity),
      cmocka_unit_test(ready_queue_rejects_corrupt_indices),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
