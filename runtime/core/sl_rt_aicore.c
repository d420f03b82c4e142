/*
** sl_rt_aicore.c — one simulated AICore: poll DATA_MAIN_BASE for a new token, ACK,
** run the kernel, FIN, and write this task's timing record (level >= 1).
*/
#include "sl_park.h"
#include "sl_rt_internal.h"

void *sl_rt_aicore_main(void *arg) {
  sl_rt_core *core = arg;
  sl_rt *rt = core->rt;
  sl_devprof *dp = rt->cfg.dp;
  const sl_rt_clock clock = rt->clock; /* a private copy: no shared line read per stamp */
  sl_aicore_cursor cursor;
  sl_aicore_cursor_init(&cursor);
  uint32_t last = 0;
  int idle = 0;
  sl_vclock *vc = clock.vc;
  if (vc) sl_vclock_enter(vc, core->id);
  atomic_store_explicit(&core->alive, 1, memory_order_release); /* the AICPU's handshake sees it */
  for (;;) {
    uint32_t tok = atomic_load_explicit(&core->data_main_base, memory_order_acquire);
    if (tok == last || tok == 0) {
      if (vc) {
        sl_vclock_idle(vc);
        continue;
      }
      if (++idle < SL_RT_SPIN_BEFORE_PARK) {
        sl_rt_spin_hint();
        continue;
      }
      /* park: announce, re-check, sleep while the token is unchanged */
      atomic_store(&core->sleeping, 1);
      tok = atomic_load(&core->data_main_base);
      if (tok == last || tok == 0) sl_park_wait(&core->data_main_base, tok, 1000000);
      atomic_store(&core->sleeping, 0);
      continue;
    }
    idle = 0;
    if (tok == SL_REG_EXIT) break;
    last = tok;
    if (vc) sl_vclock_advance(vc, vc->m.receive);
    uint64_t receive = 0;
    sl_aicore_task_record *rec = NULL;
    if (dp) {
      receive = sl_rt_now(&clock);
      rec = sl_devprof_aicore_reserve(dp, core->id, &cursor);
    }
    atomic_store_explicit(&core->cond, tok, memory_order_release); /* ACK */
    sl_set_subblockid(core->lane);
    uint64_t start = dp ? sl_rt_now(&clock) : 0;
    if (vc) sl_vclock_kernel_begin();
    core->fn(core->args);
    if (vc) sl_vclock_advance(vc, sl_vclock_kernel_cycles(&vc->m)); /* the kernel's modelled cost */
    uint64_t end = dp ? sl_rt_now(&clock) : 0;
    if (vc) sl_vclock_advance(vc, vc->m.fin);
    uint64_t token_raw = core->task_token;
    /* tensormap_and_ringbuffer order: FIN, then the record (into the reserved slot). */
    atomic_store(&core->cond, tok | SL_REG_FIN_BIT);
    sl_rt_ring(&rt->sched[core->owner]);
    if (rec)
      sl_devprof_aicore_commit(rec, start, end, token_raw, tok, (uint32_t)(start - receive));
  }
  if (vc) sl_vclock_leave(vc);
  atomic_store_explicit(&core->alive, 2, memory_order_release); /* the AICPU's exit wait ends */
  return NULL;
}
