/*
** sl_vclock.c — the baton of the deterministic simulation clock (see sl_vclock.h).
*/
#include "sl_vclock.h"

#include <stdlib.h>

#include "sl_kernel_api.h"
#include "sl_rt_mem.h"

static _Thread_local int tl_slot = -1;

int sl_vclock_slot(void) { return tl_slot; }

void sl_vclock_init(sl_vclock *vc, int n, const sl_vclock_model *m) {
  vc->n = n;
  vc->m = *m;
  vc->turn = n > 0 ? 0 : -1;
  vc->cv = sl_rt_calloc((size_t)n, sizeof *vc->cv);
  vc->vt = sl_rt_calloc((size_t)n, sizeof *vc->vt);
  vc->active = sl_rt_calloc((size_t)n, 1);
  pthread_mutex_init(&vc->mu, NULL);
  for (int i = 0; i < n; i++) {
    pthread_cond_init(&vc->cv[i], NULL);
    vc->active[i] = 1;
  }
}

void sl_vclock_free(sl_vclock *vc) {
  if (!vc->cv) return;
  for (int i = 0; i < vc->n; i++) pthread_cond_destroy(&vc->cv[i]);
  pthread_mutex_destroy(&vc->mu);
  sl_rt_free(vc->cv);
  sl_rt_free(vc->vt);
  sl_rt_free(vc->active);
  vc->cv = NULL;
}

/* The earliest active slot (ties: the lower index), -1 when none is left. */
static int earliest(const sl_vclock *vc) {
  int best = -1;
  for (int i = 0; i < vc->n; i++)
    if (vc->active[i] && (best < 0 || vc->vt[i] < vc->vt[best])) best = i;
  return best;
}

/* Hand the baton on (mu held) and wait until it comes back to `self`. */
static void pass_and_wait(sl_vclock *vc, int self) {
  int next = earliest(vc);
  vc->turn = next;
  if (next >= 0 && next != self) pthread_cond_signal(&vc->cv[next]);
  while (self >= 0 && vc->turn != self) pthread_cond_wait(&vc->cv[self], &vc->mu);
}

void sl_vclock_enter(sl_vclock *vc, int slot) {
  tl_slot = slot;
  pthread_mutex_lock(&vc->mu);
  while (vc->turn != slot) pthread_cond_wait(&vc->cv[slot], &vc->mu);
  pthread_mutex_unlock(&vc->mu);
}

void sl_vclock_retire(sl_vclock *vc, int slot) {
  pthread_mutex_lock(&vc->mu);
  vc->active[slot] = 0;
  if (vc->turn == slot || vc->turn < 0 || !vc->active[vc->turn]) pass_and_wait(vc, -1);
  pthread_mutex_unlock(&vc->mu);
}

void sl_vclock_leave(sl_vclock *vc) {
  sl_vclock_retire(vc, tl_slot);
  tl_slot = -1;
}

void sl_vclock_advance(sl_vclock *vc, uint64_t d) {
  int self = tl_slot;
  if (self < 0) return;
  pthread_mutex_lock(&vc->mu);
  vc->vt[self] += d;
  pass_and_wait(vc, self);
  pthread_mutex_unlock(&vc->mu);
}

void sl_vclock_idle(sl_vclock *vc) {
  int self = tl_slot;
  if (self < 0) return;
  pthread_mutex_lock(&vc->mu);
  uint64_t other = UINT64_MAX;
  for (int i = 0; i < vc->n; i++)
    if (i != self && vc->active[i] && vc->vt[i] < other) other = vc->vt[i];
  /* nobody else can change what we poll before the earliest other thread acts */
  if (other != UINT64_MAX && other > vc->vt[self]) vc->vt[self] = other;
  vc->vt[self] += vc->m.poll;
  pass_and_wait(vc, self);
  pthread_mutex_unlock(&vc->mu);
}

uint64_t sl_vclock_now(sl_vclock *vc) {
  int self = tl_slot;
  if (self >= 0) {
    sl_vclock_advance(vc, vc->m.read);
    return vc->vt[self]; /* only this thread writes its own time */
  }
  pthread_mutex_lock(&vc->mu);
  uint64_t t = 0;
  for (int i = 0; i < vc->n; i++)
    if (vc->vt[i] > t) t = vc->vt[i];
  pthread_mutex_unlock(&vc->mu);
  return t;
}

/* ---- kernel cost: a pipe tracer counting intrinsics and their work ------------------- */

typedef struct kcost {
  uint64_t instrs, work;
} kcost;

static _Thread_local kcost tl_cost;

static void on_instr(void *ctx, const sl_instr *ins) {
  kcost *k = ctx;
  k->instrs++;
  k->work += ins->work;
}

static _Thread_local sl_pipe_tracer tl_tracer;

void sl_vclock_kernel_begin(void) {
  tl_cost.instrs = tl_cost.work = 0;
  tl_tracer.on_instr = on_instr;
  tl_tracer.ctx = &tl_cost;
  sl_set_pipe_tracer(&tl_tracer);
}

uint64_t sl_vclock_kernel_cycles(const sl_vclock_model *m) {
  sl_set_pipe_tracer(NULL);
  uint64_t per = m->work_per_cycle ? m->work_per_cycle : 1;
  return m->kernel_base + tl_cost.instrs * m->kernel_instr + tl_cost.work / per;
}
