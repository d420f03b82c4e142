/*
** test_util.h — helpers for the check tests: write a file, run a checker with
** its problem lines captured, look for a message.
*/
#ifndef SL_TEST_CHECK_UTIL_H
#define SL_TEST_CHECK_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "check_ctx.h"

typedef struct check_result {
  int rc; /* checker's return: 0 read, -1 unreadable */
  uint64_t problems, warnings;
  sl_check_ctx ctx; /* totals */
  char *text;       /* problem/warning lines (malloc'd) */
} check_result;

/* A fresh path under the test's temp dir, e.g. tmp_path("x.json"). Static buffer. */
const char *tmp_path(const char *name);
void write_file(const char *path, const void *data, size_t len);
/* Run the JSON ('j') or protobuf ('p') checker on a file. */
check_result run_check(char format, const char *path);
void free_result(check_result *r);

#endif
