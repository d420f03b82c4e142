/*
** fuzz_capture_check.h — what every capture the reader returns must satisfy
** (shared by the JSON and protobuf capture targets).
*/
#ifndef SL_FUZZ_CAPTURE_CHECK_H
#define SL_FUZZ_CAPTURE_CHECK_H

#include <stdlib.h>

#include "sl_capture.h"

/* Walk everything the converter would touch; abort on any inconsistency. */
static void fuzz_check_capture(const sl_capture *c) {
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
}

#endif
