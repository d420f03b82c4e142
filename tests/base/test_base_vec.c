/*
** test_base_vec.c — growable arrays: typed vectors and the separate-field form.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sl_hash.h"
#include "sl_vec.h"

typedef struct pair {
  int a;
  double b;
} pair;

static void push_keeps_order(void **state) {
  (void)state;
  SL_VEC(int) v = {0};
  for (int i = 0; i < 1000; i++) sl_vec_push(&v, i * 3);
  assert_int_equal(v.n, 1000);
  assert_true(v.cap >= 1000);
  for (int i = 0; i < 1000; i++) assert_int_equal(v.v[i], i * 3);
  assert_int_equal(sl_vec_last(&v), 999 * 3);
  sl_vec_clear(&v);
  assert_int_equal(v.n, 0);
  assert_non_null(v.v); /* memory kept */
  sl_vec_push(&v, 7);
  assert_int_equal(v.v[0], 7);
  sl_vec_free(&v);
  assert_null(v.v);
  assert_int_equal(v.n, 0);
  assert_int_equal(v.cap, 0);
}

static void add_gives_zeroed_element(void **state) {
  (void)state;
  SL_VEC(pair) v = {0};
  for (int i = 0; i < 40; i++) {
    sl_vec_push(&v, ((pair){.a = -1, .b = -1}));
    v.n--; /* leave garbage in the slot add will reuse */
    pair *p = sl_vec_add(&v);
    assert_int_equal(p->a, 0);
    assert_true(p->b == 0.0);
    p->a = i;
  }
  assert_int_equal(v.n, 40);
  for (int i = 0; i < 40; i++) assert_int_equal(v.v[i].a, i);
  sl_vec_free(&v);
}

static void capacity_doubles_from_sixteen(void **state) {
  (void)state;
  uint64_t *arr = NULL;
  size_t cap = 0;
  arr = sl_array_grow(arr, &cap, 1, sizeof *arr);
  assert_int_equal(cap, 16);
  arr = sl_array_grow(arr, &cap, 16, sizeof *arr);
  assert_int_equal(cap, 16); /* enough room: unchanged */
  arr = sl_array_grow(arr, &cap, 17, sizeof *arr);
  assert_int_equal(cap, 32);
  arr = sl_array_grow(arr, &cap, 1000, sizeof *arr);
  assert_int_equal(cap, 1024);
  for (size_t i = 0; i < 1000; i++) arr[i] = i; /* the room is really there (ASan) */
  assert_int_equal(arr[999], 999);
  sl_array_free(arr);
}

static void reserve_then_fill(void **state) {
  (void)state;
  SL_VEC(char) v = {0};
  sl_vec_reserve(&v, 100);
  assert_true(v.cap >= 100);
  assert_int_equal(v.n, 0);
  char *before = v.v;
  for (int i = 0; i < 100; i++) sl_vec_push(&v, (char)('a' + i % 26));
  assert_ptr_equal(v.v, before); /* no move within the reserved room */
  assert_int_equal(v.v[27], 'b');
  sl_vec_free(&v);
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

static void sort_takes_empty_arrays(void **state) {
  (void)state;
  sl_array_sort(NULL, 0, sizeof(int), cmp_int); /* qsort would be undefined here */
  int one[] = {7};
  sl_array_sort(one, 1, sizeof one[0], cmp_int);
  assert_int_equal(one[0], 7);
  int v[] = {3, -1, 2, 2, 0};
  sl_array_sort(v, 5, sizeof v[0], cmp_int);
  for (int i = 1; i < 5; i++) assert_true(v[i - 1] <= v[i]);
}

/* sl_fnv64's seed chains parts; sl_mix64 is a bijection that spreads neighbours. */
static void hashes_chain_and_mix(void **state) {
  (void)state;
  assert_int_equal(sl_fnv64("", 0, 0), 1469598103934665603ull);
  uint64_t ab = sl_fnv64("ab", 2, 0);
  assert_int_equal(sl_fnv64("b", 1, sl_fnv64("a", 1, 0) ^ 1469598103934665603ull), ab);
  assert_true(sl_fnv64("ab", 2, 1) != ab);
  assert_int_equal(sl_mix64(0), 0);
  assert_true(sl_mix64(1) != sl_mix64(2));
  assert_true((sl_mix64(1) ^ sl_mix64(2)) >> 32); /* the high half differs too */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(push_keeps_order),
      cmocka_unit_test(add_gives_zeroed_element),
      cmocka_unit_test(capacity_doubles_from_sixteen),
      cmocka_unit_test(reserve_then_fill),
      cmocka_unit_test(sort_takes_empty_arrays),
      cmocka_unit_test(hashes_chain_and_mix),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
