/*
** fuzz_insight.c — libFuzzer target: an Insight trace.json (the simulator's
** per-instruction trace) through the Insight -> Perfetto transform, the cube
** counters and the self-check's independent timeline check, as `swimlane l0`
** runs them.
*/
#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "l0_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  cJSON *in = cJSON_ParseWithLength((const char *)data, size);
  if (!in) return 0;
  char err[256];
  size_t checks;
  (void)sl_l0_verify_timeline(in, err, sizeof err, &checks);
  cJSON *out = sl_l0_to_perfetto(in, err, sizeof err);
  if (out) {
    long mmad, fix;
    sl_l0_count_cube(out, &mmad, &fix);
    cJSON_Delete(out);
  }
  cJSON_Delete(in);
  return 0;
}
