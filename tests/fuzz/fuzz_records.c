/*
** fuzz_records.c — libFuzzer target: any bytes through the capture reader
** (JSON either format, or protobuf). It must return a capture or a clean error,
** never crash or leak; a capture must be internally consistent.
*/
#include <stddef.h>
#include <stdint.h>

#include "fuzz_capture_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const sl_read_opts quiet = {1};
  sl_capture *c = sl_capture_read_mem("fuzz.json", data, size, &quiet);
  if (!c) return 0;
  fuzz_check_capture(c);
  sl_capture_free(c);
  return 0;
}
