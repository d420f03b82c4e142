/*
** fuzz_pb.c — libFuzzer target: the protobuf capture (chip_swimlane_records.pb),
** named .pb as `swimlane convert` sees it, from a corpus of real .pb captures (the
** reader picks protobuf by content, so mutations stay on the protobuf path).
*/
#include <stddef.h>
#include <stdint.h>

#include "fuzz_capture_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const sl_read_opts quiet = {1};
  sl_capture *c = sl_capture_read_mem("fuzz.pb", data, size, &quiet);
  if (!c) return 0;
  fuzz_check_capture(c);
  sl_capture_free(c);
  return 0;
}
