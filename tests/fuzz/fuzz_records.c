/*
** fuzz_records.c — libFuzzer target: any bytes through the capture reader
** (JSON either format, or protobuf). It must return a capture or a clean error,
** never crash or leak; a capture must be internally consistent.
*/
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "sl_capture.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const sl_read_opts quiet = {1};
  sl_capture *c = sl_capture_read_mem("fuzz.json", data, size, &quiet);
  if (!c) return 0;
  /* walk everything the converter would touch */
  for (size_t i = 1; i < c->n_tasks; i++)
    if (c->tasks[i].task_id < c->tasks[i - 1].task_id) abort(); /* sorted */
  for (size_t i = 0; i < c->n_tasks; i++) {
    if (c->tasks[i].core_id >= c->n_core_types && c->n_core_types) abort();
    (void)sl_str_get(c, c->tasks[i].core_type);
  }
  for (size_t s = 0; s < c->n_streams; s++)
    if (c->streams[s].first + c->streams[s].count > c->n_phases) abort();
  for (size_t i = 0; i < c->n_phases; i++)
    if (!sl_str_get(c, c->phases[i].phase)) abort();
  for (size_t t = 0; t < c->n_orch_threads; t++)
    if (c->orch_threads[t].first + c->orch_threads[t].count > c->n_orch) abort();
  (void)sl_capture_sched_thread_count(c);
  sl_capture_free(c);
  return 0;
}
