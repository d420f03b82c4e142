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
  for (;;) {
    uint32_t tok = atomic_load_explicit(&core->data_main_base, memory_order_acquire);
    if (tok == last || tok == 0) {
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
    uint64_t receive = 0;
    sl_aicore_task_record *rec = NULL;
    if (dp) {
      receive = sl_rt_now(&clock);
      rec = sl_devprof_aicore_reserve(dp, core->id, &cursor);
    }
    atomic_store_explicit(&core->cond, tok, memory_order_release); /* ACK */
    sl_set_subblockid(core->lane);
    uint64_t start = dp ? sl_rt_now(&clock) : 0;
    core->fn(core->args);
    uint64_t end = dp ? sl_rt_now(&clock) : 0;
    uint64_t token_raw = core->task_token;
    /* tensormap_and_ringbuffer order: FIN, then the record (into the reserved slot). */
    atomic_store(&core->cond, tok | SL_REG_FIN_BIT);
    sl_rt_ring(&rt->sched[core->owner]);
    if (rec)
      sl_devprof_aicore_commit(rec, start, end, token_raw, tok, (uint32_t)(start - receive));
  }
  return NULL;
}
