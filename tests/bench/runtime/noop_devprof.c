/*
** noop_devprof.c — a device profiler whose hooks do nothing, linked into
** bench_hooks so the runtime's own instrumentation (timestamps, hook calls) can be
** timed apart from the collector's buffers and host threads.
*/
#include "sl_devprof.h"

struct sl_devprof { unsigned level; };
static struct sl_devprof the_noop = {4};
sl_devprof *noop_devprof(void); /* bench_capture.c */
sl_devprof *noop_devprof(void) { return &the_noop; }

unsigned sl_devprof_level(const sl_devprof *dp) { return dp->level; }
void sl_devprof_on_dispatch(sl_devprof *dp, int core, int thread, uint32_t reg) {}
void sl_devprof_on_ack(sl_devprof *dp, int core, int thread, uint32_t reg) {}
void sl_devprof_complete_task(sl_devprof *dp, int core, int thread, uint32_t reg, uint64_t d, uint64_t f) {}
void sl_devprof_complete_member(sl_devprof *dp, int core, int thread, uint32_t reg, uint32_t member,
                                uint64_t d, uint64_t f) {}
void sl_devprof_sched_phase(sl_devprof *dp, int thread, uint32_t kind, uint64_t start, uint64_t end,
                            uint32_t loop_iter, uint32_t tasks, uint32_t a, uint32_t b,
                            const int16_t d0[3], const int16_t d1[3]) {}
void sl_devprof_sched_phase_put(sl_devprof *dp, int thread, const sl_sched_phase_record *rec) {}
void sl_devprof_set_core_thread(sl_devprof *dp, int core, int thread) {}
void sl_devprof_set_sched_core(sl_devprof *dp, int thread, int core) {}
void sl_devprof_lifecycle(sl_devprof *dp, int thread, const sl_aicpu_lifecycle_record *rec) {}
void sl_devprof_flush_scheduler(sl_devprof *dp, int thread, const int *cores, int ncores) {}
void sl_devprof_orch_submit(sl_devprof *dp, uint64_t s, uint64_t e, uint64_t id, uint32_t idx) {}
void sl_devprof_flush_orch(sl_devprof *dp) {}
void sl_aicore_cursor_init(sl_aicore_cursor *cur) {
  cur->buf = 0;
  cur->seq = UINT32_MAX;
  cur->slot = 0;
}
static _Thread_local sl_aicore_task_record sink;
sl_aicore_task_record *sl_devprof_aicore_reserve(sl_devprof *dp, int core, sl_aicore_cursor *cur) {
  return &sink;
}
void sl_devprof_aicore_commit(sl_aicore_task_record *rec, uint64_t start, uint64_t end, uint64_t token_raw,
                              uint32_t reg, uint32_t receive_to_start) {
  rec->start_time = start;
  rec->end_time = end;
}
