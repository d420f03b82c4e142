/*
** rt_test_view.h — test helper: a 2-D float32 view of a runtime buffer.
*/
#ifndef RT_TEST_VIEW_H
#define RT_TEST_VIEW_H

#include <string.h>

#include "sl_runtime.h"

/* rows x cols elements, row stride `ld`, starting at element `offset`. */
static inline sl_rt_tensor rt_test_view(sl_rt_buffer *b, int64_t rows, int64_t cols, int64_t ld, int64_t offset) {
  sl_rt_tensor t;
  memset(&t, 0, sizeof t);
  t.buf = b;
  t.ndims = 2;
  t.shape[0] = rows;
  t.shape[1] = cols;
  t.strides[0] = ld;
  t.strides[1] = 1;
  t.start_offset = offset;
  return t;
}

#endif
