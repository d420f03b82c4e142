/* ** fake_devprof.c — records every hook call under one mutex (tests only). */
#include "fake_devprof.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define MAXT 200000
#define MAXP 400000

struct sl_devprof {
  unsigned level;
  pthread_mutex_t mu;
  fake_task_rec *t;
  int nt;
  fake_phase *p;
  int np;
  fake_orch *o;
  int no;
  int core_thread[128];
  int flushes, orch_flushes;
  int sched_core[64];
  sl_aicpu_lifecycle_record lifecycle[64];
  int lifecycle_set[64];
};

sl_devprof *fake_devprof_new(unsigned level) {
  sl_devprof *dp = calloc(1, sizeof *dp);
  dp->level = level;
  pthread_mutex_init(&dp->mu, NULL);
  dp->t = calloc(MAXT, sizeof *dp->t);
  dp->p = calloc(MAXP, sizeof *dp->p);
  dp->o = calloc(MAXT, sizeof *dp->o);
  for (int i = 0; i < 128; i++) dp->core_thread[i] = -1;
  for (int i = 0; i < 64; i++) dp->sched_core[i] = -1;
  return dp;
}

void fake_devprof_free(sl_devprof *dp) {
  if (!dp) return;
  free(dp->t);
  free(dp->p);
  free(dp->o);
  pthread_mutex_destroy(&dp->mu);
  free(dp);
}

static fake_task_rec *find(sl_devprof *dp, int core, uint32_t reg, int create) {
  for (int i = dp->nt - 1; i >= 0; i--)
    if (dp->t[i].core == core && dp->t[i].reg == reg) return &dp->t[i];
  if (!create || dp->nt >= MAXT) return NULL;
  fake_task_rec *r = &dp->t[dp->nt++];
  r->core = core;
  r->reg = reg;
  return r;
}

unsigned sl_devprof_level(const sl_devprof *dp) { return dp->level; }

void sl_devprof_on_dispatch(sl_devprof *dp, int core, int thread, uint32_t reg) {
  pthread_mutex_lock(&dp->mu);
  fake_task_rec *r = find(dp, core, reg, 1);
  if (r) {
    r->dispatched++;
    r->disp_thread = thread;
  }
  pthread_mutex_unlock(&dp->mu);
}
void sl_devprof_on_ack(sl_devprof *dp, int core, int thread, uint32_t reg) {
  pthread_mutex_lock(&dp->mu);
  fake_task_rec *r = find(dp, core, reg, 1);
  if (r) r->acked++;
  pthread_mutex_unlock(&dp->mu);
}
void sl_devprof_complete_member(sl_devprof *dp, int core, int thread, uint32_t reg, uint32_t member,
                                uint64_t d, uint64_t f) {
  (void)member;
  sl_devprof_complete_task(dp, core, thread, reg, d, f);
}
void sl_devprof_complete_task(sl_devprof *dp, int core, int thread, uint32_t reg, uint64_t d, uint64_t f) {
  pthread_mutex_lock(&dp->mu);
  fake_task_rec *r = find(dp, core, reg, 1);
  if (r) {
    r->have_complete++;
    r->dispatch = d;
    r->finish = f;
  }
  pthread_mutex_unlock(&dp->mu);
}
void sl_devprof_sched_phase(sl_devprof *dp, int thread, uint32_t kind, uint64_t start, uint64_t end,
                            uint32_t loop_iter, uint32_t tasks, uint32_t a, uint32_t b,
                            const int16_t d0[3], const int16_t d1[3]) {
  pthread_mutex_lock(&dp->mu);
  if (dp->np < MAXP) dp->p[dp->np++] = (fake_phase){thread, kind, loop_iter, tasks, a, b, start, end};
  pthread_mutex_unlock(&dp->mu);
}
void sl_devprof_sched_phase_put(sl_devprof *dp, int thread, const sl_sched_phase_record *r) {
  sl_devprof_sched_phase(dp, thread, r->kind, r->start_time, r->end_time, r->loop_iter, r->tasks_processed,
                         r->phase_data.dispatch.pop_hit, r->phase_data.dispatch.pop_miss, r->shared_depth_at_start,
                         r->shared_depth_at_end);
}
void sl_devprof_set_core_thread(sl_devprof *dp, int core, int thread) {
  pthread_mutex_lock(&dp->mu);
  if (core >= 0 && core < 128) dp->core_thread[core] = thread;
  pthread_mutex_unlock(&dp->mu);
}
void sl_devprof_set_sched_core(sl_devprof *dp, int thread, int core) {
  pthread_mutex_lock(&dp->mu);
  if (thread >= 0 && thread < 64) dp->sched_core[thread] = core;
  pthread_mutex_unlock(&dp->mu);
}
void sl_devprof_lifecycle(sl_devprof *dp, int thread, const sl_aicpu_lifecycle_record *rec) {
  pthread_mutex_lock(&dp->mu);
  if (thread >= 0 && thread < 64) {
    dp->lifecycle[thread] = *rec;
    dp->lifecycle_set[thread] = 1;
  }
  pthread_mutex_unlock(&dp->mu);
}
int fake_sched_core(const sl_devprof *dp, int thread) { return dp->sched_core[thread]; }
const sl_aicpu_lifecycle_record *fake_lifecycle(const sl_devprof *dp, int thread) {
  return dp->lifecycle_set[thread] ? &dp->lifecycle[thread] : NULL;
}
void sl_devprof_flush_scheduler(sl_devprof *dp, int thread, const int *cores, int ncores) {
  pthread_mutex_lock(&dp->mu);
  dp->flushes++;
  pthread_mutex_unlock(&dp->mu);
}
void sl_devprof_orch_submit(sl_devprof *dp, uint64_t start, uint64_t end, uint64_t task_id, uint32_t idx) {
  pthread_mutex_lock(&dp->mu);
  if (dp->no < MAXT) dp->o[dp->no++] = (fake_orch){start, end, task_id, idx};
  pthread_mutex_unlock(&dp->mu);
}
void sl_devprof_flush_orch(sl_devprof *dp) {
  pthread_mutex_lock(&dp->mu);
  dp->orch_flushes++;
  pthread_mutex_unlock(&dp->mu);
}

/* AICore side: the reserved "record" is a per-call heap cell the commit fills and
** files under (core, reg) — the core id travels in the cursor's slot field. */
typedef struct fake_cell {
  sl_aicore_task_record rec;
  sl_devprof *dp;
  int core;
  uint64_t receive;
} fake_cell;

void sl_aicore_cursor_init(sl_aicore_cursor *cur) {
  cur->buf = NULL;
  cur->seq = UINT32_MAX;
  cur->slot = 0;
}
static _Thread_local fake_cell tl_cell;
sl_aicore_task_record *sl_devprof_aicore_reserve(sl_devprof *dp, int core, sl_aicore_cursor *cur) {
  memset(&tl_cell, 0, sizeof tl_cell);
  tl_cell.dp = dp;
  tl_cell.core = core;
  return &tl_cell.rec;
}
void sl_devprof_aicore_commit(sl_aicore_task_record *rec, uint64_t start, uint64_t end, uint64_t token_raw,
                              uint32_t reg, uint32_t receive_to_start) {
  fake_cell *c = (fake_cell *)rec;
  sl_devprof *dp = c->dp;
  pthread_mutex_lock(&dp->mu);
  fake_task_rec *r = find(dp, c->core, reg, 1);
  if (r) {
    r->have_aicore++;
    r->start = start;
    r->end = end;
    r->token_raw = token_raw;
    r->receive = start - receive_to_start;
  }
  pthread_mutex_unlock(&dp->mu);
}

int fake_ntasks(const sl_devprof *dp) { return dp->nt; }
const fake_task_rec *fake_task(const sl_devprof *dp, int i) { return &dp->t[i]; }
int fake_nphases(const sl_devprof *dp) { return dp->np; }
const fake_phase *fake_phase_at(const sl_devprof *dp, int i) { return &dp->p[i]; }
int fake_norch(const sl_devprof *dp) { return dp->no; }
const fake_orch *fake_orch_at(const sl_devprof *dp, int i) { return &dp->o[i]; }
int fake_core_thread(const sl_devprof *dp, int core) { return dp->core_thread[core]; }
int fake_flushes(const sl_devprof *dp) { return dp->flushes; }
int fake_orch_flushes(const sl_devprof *dp) { return dp->orch_flushes; }
