/*
** sl_rt_signal.c — the primitives every thread of the simulated chip shares and
** that call nothing back into the runtime: ringing every scheduler (the single
** doorbells are inline in sl_rt_internal.h), the monotone atomic min / max the
** timing windows use, and the device clock (scaled host clock, the L3 offset /
** drift). Kept apart so a module that only rings or reads the clock does not
** depend on the scheduler loop or on the chip's setup.
*/
#include "sl_rt_internal.h"

/* ---- doorbells (sl_rt_ring / sl_rt_publish are inline in sl_rt_internal.h) ------ */

void sl_rt_idle_step(sl_rt *rt, int *idle, _Atomic uint32_t *bell, _Atomic int *sleeping,
                     int (*ready)(void *), void *arg) {
  if (rt->clock.vc) {
    sl_vclock_idle(rt->clock.vc);
    return;
  }
  if (++*idle < SL_RT_SPIN_BEFORE_PARK) {
    sl_rt_spin_hint();
    return;
  }
  uint32_t seen = atomic_load(bell);
  atomic_store(sleeping, 1);
  if (!ready(arg)) sl_park_wait(bell, seen, 200000);
  atomic_store(sleeping, 0);
  *idle = SL_RT_SPIN_BEFORE_PARK / 2;
}

void sl_rt_ring_all(sl_rt *rt) {
  for (int i = 0; i < rt->cfg.num_sched; i++) sl_rt_ring(&rt->sched[i]);
}

/* ---- monotone atomics ----------------------------------------------------------- */

void sl_rt_atomic_min(atomic_uint_fast64_t *v, uint64_t x) {
  uint64_t cur = atomic_load_explicit(v, memory_order_relaxed);
  while (x < cur && !atomic_compare_exchange_weak_explicit(v, &cur, x, memory_order_relaxed, memory_order_relaxed)) {
  }
}

void sl_rt_atomic_max(atomic_uint_fast64_t *v, uint64_t x) {
  uint64_t cur = atomic_load_explicit(v, memory_order_relaxed);
  while (x > cur && !atomic_compare_exchange_weak_explicit(v, &cur, x, memory_order_relaxed, memory_order_relaxed)) {
  }
}

/* ---- device clock --------------------------------------------------------------- */

int sl_rt_devclk_on;
static int64_t devclk_offset, devclk_ppb;
static uint64_t devclk_epoch;

uint64_t sl_rt_devclk_apply(uint64_t cycles) {
  __int128 d = (__int128)((int64_t)(cycles - devclk_epoch)) * devclk_ppb / 1000000000;
  return (uint64_t)((__int128)cycles + devclk_offset + d);
}

void sl_rt_set_device_clock(int64_t offset_cycles, int64_t rate_ppb, uint64_t freq_hz) {
  sl_rt_devclk_on = 0;
  sl_rt_clock c = sl_rt_clock_make(freq_hz);
  devclk_epoch = sl_rt_now(&c);
  devclk_offset = offset_cycles;
  devclk_ppb = rate_ppb;
  sl_rt_devclk_on = offset_cycles != 0 || rate_ppb != 0;
}

uint64_t sl_rt_cycles(uint64_t freq_hz) {
  sl_rt_clock c = sl_rt_clock_make(freq_hz);
  return sl_rt_now(&c);
}
