/*
** fake_devprof.h — a recording stand-in for the device profiler, so the runtime's
** hook calls can be checked without the real pools (tests only).
*/
#ifndef FAKE_DEVPROF_H
#define FAKE_DEVPROF_H

#include <stdint.h>

#include "sl_devprof.h"

typedef struct fake_task_rec { /* one per (core, reg_task_id) */
  int core;
  uint32_t reg;
  uint64_t token_raw, start, end, receive, dispatch, finish;
  int have_aicore, have_complete, dispatched, acked;
  int disp_thread;
} fake_task_rec;

typedef struct fake_phase {
  int thread;
  uint32_t kind, loop_iter, tasks, a, b;
  uint64_t start, end;
} fake_phase;

typedef struct fake_orch {
  uint64_t start, end, task_id;
  uint32_t submit_idx;
} fake_orch;

sl_devprof *fake_devprof_new(unsigned level);
void fake_devprof_free(sl_devprof *dp);
int fake_ntasks(const sl_devprof *dp);
const fake_task_rec *fake_task(const sl_devprof *dp, int i);
int fake_nphases(const sl_devprof *dp);
const fake_phase *fake_phase_at(const sl_devprof *dp, int i);
int fake_norch(const sl_devprof *dp);
const fake_orch *fake_orch_at(const sl_devprof *dp, int i);
int fake_core_thread(const sl_devprof *dp, int core);
int fake_flushes(const sl_devprof *dp);
int fake_orch_flushes(const sl_devprof *dp);
/* AICore Scheduler: the physical AIV core of scheduler `thread` (-1 = none) and the
** lifecycle record AICPU thread `thread` left (NULL = none). */
int fake_sched_core(const sl_devprof *dp, int thread);
const sl_aicpu_lifecycle_record *fake_lifecycle(const sl_devprof *dp, int thread);

#endif
