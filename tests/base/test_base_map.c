/*
** test_base_map.c — the hash map against a brute-force model: random puts,
** gets and deletes (deletes exercise the backward shift), every key kind,
** iteration, extreme keys.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "sl_map.h"

#define NKEYS 3000

static uint64_t rng_state = 88172645463325252ULL;
static uint64_t rng(void) { /* xorshift64: the same sequence every run */
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

/* Keys spread over the whole range but drawn from a small set, so they repeat. */
static uint64_t key_of(size_t i) { return i * 0x9E3779B97F4A7C15ULL; }

static void check_against_model(const sl_map *m, const int *present, const uint64_t *vals) {
  size_t live = 0;
  for (size_t i = 0; i < NKEYS; i++) {
    uint64_t v = 12345;
    int got = sl_map_u64_get(m, key_of(i), &v);
    assert_int_equal(got, present[i]);
    if (present[i]) assert_int_equal(v, vals[i]);
    live += (size_t)present[i];
  }
  assert_int_equal(m->n, live);
  size_t seen = 0;
  for (size_t s = sl_map_next(m, 0); s < m->cap; s = sl_map_next(m, s + 1)) seen++;
  assert_int_equal(seen, live);
}

static void u64_random_ops_match_model(void **state) {
  (void)state;
  static int present[NKEYS];
  static uint64_t vals[NKEYS];
  sl_map m;
  sl_map_init(&m, SL_MAP_U64);
  for (int round = 0; round < 20; round++) {
    for (int op = 0; op < 5000; op++) {
      size_t i = (size_t)(rng() % NKEYS);
      uint64_t r = rng();
      if (r % 3 == 0) {
        assert_int_equal(sl_map_u64_del(&m, key_of(i)), present[i]);
        present[i] = 0;
      } else {
        sl_map_u64_put(&m, key_of(i), r);
        present[i] = 1;
        vals[i] = r;
      }
    }
    check_against_model(&m, present, vals);
  }
  sl_map_free(&m);
  assert_int_equal(m.n, 0);
  assert_int_equal(sl_map_u64_get(&m, 1, NULL), 0); /* usable after free */
}

static void u64_extreme_keys_and_ref(void **state) {
  (void)state;
  sl_map m;
  sl_map_init(&m, SL_MAP_U64);
  assert_int_equal(sl_map_u64_get(&m, 0, NULL), 0); /* empty map */
  assert_int_equal(sl_map_u64_del(&m, 0), 0);
  sl_map_u64_put(&m, 0, 10);
  sl_map_u64_put(&m, UINT64_MAX, 20);
  uint64_t v;
  assert_true(sl_map_u64_get(&m, 0, &v));
  assert_int_equal(v, 10);
  assert_true(sl_map_u64_get(&m, UINT64_MAX, &v));
  assert_int_equal(v, 20);
  int added = -1;
  uint64_t *c = sl_map_u64_ref(&m, 77, &added);
  assert_int_equal(added, 1);
  assert_int_equal(*c, 0);
  *c += 5;
  c = sl_map_u64_ref(&m, 77, &added);
  assert_int_equal(added, 0);
  assert_int_equal(*c, 5);
  sl_map_u64_put(&m, 0, 11); /* overwrite keeps the count */
  assert_int_equal(m.n, 3);
  assert_null(sl_map_u64_find(&m, 78)); /* find inserts nothing */
  assert_int_equal(m.n, 3);
  uint64_t *f = sl_map_u64_find(&m, UINT64_MAX);
  assert_non_null(f);
  assert_int_equal(*f, 20);
  *f = 21;
  assert_true(sl_map_u64_get(&m, UINT64_MAX, &v));
  assert_int_equal(v, 21);
  sl_map_free(&m);
  assert_null(sl_map_u64_find(&m, 0)); /* empty again */
}

static void u64_sequential_keys_grow(void **state) {
  (void)state;
  sl_map m;
  sl_map_init(&m, SL_MAP_U64);
  sl_map_reserve(&m, 1000);
  size_t cap = m.cap;
  assert_true(cap * 3 / 4 >= 1000);
  for (uint64_t k = 0; k < 1000; k++) sl_map_u64_put(&m, k, k * k);
  assert_int_equal(m.cap, cap); /* reserved: no growth */
  for (uint64_t k = 1000; k < 100000; k++) sl_map_u64_put(&m, k, k * k);
  assert_true(m.n * 4 <= m.cap * 3);
  for (uint64_t k = 0; k < 100000; k += 97) {
    uint64_t v;
    assert_true(sl_map_u64_get(&m, k, &v));
    assert_int_equal(v, k * k);
  }
  assert_false(sl_map_u64_get(&m, 100000, NULL));
  sl_map_free(&m);
}

static void str_keys_are_copied_and_length_bounded(void **state) {
  (void)state;
  sl_map m;
  sl_map_init(&m, SL_MAP_STR);
  char buf[32];
  for (int i = 0; i < 500; i++) {
    snprintf(buf, sizeof buf, "phase_%d", i);
    sl_map_str_put(&m, buf, strlen(buf), (uint64_t)i);
  }
  strcpy(buf, "garbage"); /* the map kept its own copies */
  assert_int_equal(m.n, 500);
  uint64_t v;
  assert_true(sl_map_str_get(&m, "phase_42", 8, &v));
  assert_int_equal(v, 42);
  /* the key is s[0..len): a prefix of a longer text */
  assert_true(sl_map_str_get(&m, "phase_7xyz", 7, &v));
  assert_int_equal(v, 7);
  assert_false(sl_map_str_get(&m, "phase_", 6, NULL));
  assert_false(sl_map_str_get(&m, "phase_4200", 10, NULL));
  /* the empty text is a key like any other */
  sl_map_str_put(&m, "", 0, 999);
  assert_true(sl_map_str_get(&m, "", 0, &v));
  assert_int_equal(v, 999);
  for (int i = 0; i < 500; i += 2) {
    snprintf(buf, sizeof buf, "phase_%d", i);
    assert_true(sl_map_str_del(&m, buf, strlen(buf)));
  }
  assert_false(sl_map_str_del(&m, "phase_0", 7));
  assert_int_equal(m.n, 251);
  for (int i = 0; i < 500; i++) {
    snprintf(buf, sizeof buf, "phase_%d", i);
    assert_int_equal(sl_map_str_get(&m, buf, strlen(buf), &v), i % 2);
    if (i % 2) assert_int_equal(v, (uint64_t)i);
  }
  size_t seen = 0;
  for (size_t s = sl_map_next(&m, 0); s < m.cap; s = sl_map_next(&m, s + 1)) {
    const char *k = sl_map_key_str(&m, s);
    assert_true(k[0] == '\0' || strncmp(k, "phase_", 6) == 0);
    seen++;
  }
  assert_int_equal(seen, 251);
  sl_map_free(&m); /* frees the copies (ASan: no leak) */
}

static void borrowed_keys_point_at_callers_text(void **state) {
  (void)state;
  static const char *names[] = {"alpha", "beta", "gamma"};
  sl_map m;
  sl_map_init(&m, SL_MAP_STR_BORROWED);
  for (int i = 0; i < 3; i++) sl_map_str_put(&m, names[i], strlen(names[i]), (uint64_t)i);
  size_t s = sl_map_next(&m, 0);
  int found = 0;
  for (; s < m.cap; s = sl_map_next(&m, s + 1))
    for (int i = 0; i < 3; i++) found += sl_map_key_str(&m, s) == names[i];
  assert_int_equal(found, 3); /* the very same addresses */
  uint64_t v;
  assert_true(sl_map_str_get(&m, "gamma", 5, &v));
  assert_int_equal(v, 2);
  sl_map_free(&m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(u64_random_ops_match_model),
      cmocka_unit_test(u64_extreme_keys_and_ref),
      cmocka_unit_test(u64_sequential_keys_grow),
      cmocka_unit_test(str_keys_are_copied_and_length_bounded),
      cmocka_unit_test(borrowed_keys_point_at_callers_text),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
