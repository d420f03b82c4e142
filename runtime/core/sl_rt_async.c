/*
** sl_rt_async.c — async waits. A task submitted with async_us stands for a kernel
** that issued a DMA (or collective) completing on its own: its last FIN does not
** complete it; the scheduler that saw the FIN parks it on its async-wait list with
** the time the transfer lands, and its async_poll phase completes the tasks whose
** transfer has landed (resolving their successors inside that bar). A poll that
** lands nothing writes no record: the wait shows as idle between work records.
*/
#include "sl_rt_phase.h"

int sl_rt_async_defer(phase_ctx *pc, sl_rt_task *t, uint64_t finish) {
  if (!t->async_cycles) return 0;
  t->async_due = (finish ? finish : now(pc)) + t->async_cycles;
  t->async_next = pc->s->async_head;
  pc->s->async_head = t;
  return 1;
}

int sl_rt_async_land(phase_ctx *pc, uint64_t t0, const int16_t *d0) {
  int n = 0;
  /* the walks are part of the async_poll bar: no nested resolve records (their
  ** parent phases are complete and dummy) */
  phase_ctx quiet = *pc;
  quiet.dp = NULL;
  for (sl_rt_task **p = &pc->s->async_head; *p;) {
    sl_rt_task *t = *p;
    if (t->async_due > t0) {
      p = &t->async_next;
      continue;
    }
    *p = t->async_next;
    sl_rt_on_task_complete(&quiet, t, d0);
    n++;
  }
  return n;
}

int sl_rt_phase_async_poll(phase_ctx *pc) {
  sl_rt_sched *s = pc->s;
  if (!s->async_head) return 0;
  int16_t d0[3] = {0, 0, 0};
  uint64_t t0 = phase_start(pc, d0);
  int n = sl_rt_async_land(pc, t0, d0);
  if (n && pc->dp) emit_outer(pc, async_poll, t0, now(pc), n, d0);
  else pc->lap = 0;
  return n;
}

/* An async wait has landed (checked before parking). */
int sl_rt_async_due(phase_ctx *pc) {
  if (!pc->s->async_head) return 0;
  uint64_t t = now(pc);
  for (sl_rt_task *a = pc->s->async_head; a; a = a->async_next)
    if (a->async_due <= t) return 1;
  return 0;
}
