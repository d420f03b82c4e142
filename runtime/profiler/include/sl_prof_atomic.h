/*
** sl_prof_atomic.h — C11 atomic access to the plain integer fields of the
** generated shared-region structs (free queues, ready queues, active heads,
** back-pressure flags). The generated layouts are plain uint32_t / uint64_t so
** their size and offsets match the reference ABI; every cross-thread access
** goes through these helpers, which view the field as the same-sized _Atomic
** type (lock-free on every target we build for, asserted below).
*/
#ifndef SL_PROF_ATOMIC_H
#define SL_PROF_ATOMIC_H

#include <stdatomic.h>
#include <stdint.h>

_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "32-bit atomics must be lock-free");
_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2, "64-bit atomics must be lock-free");

#define SL_AT32(p) ((_Atomic uint32_t *)(void *)(uintptr_t)(p))
#define SL_AT64(p) ((_Atomic uint64_t *)(void *)(uintptr_t)(p))

/* For N = 32 and 64: sl_ld_acqN / sl_ld_rlxN (acquire / relaxed load), sl_st_relN /
** sl_st_rlxN (release / relaxed store), each on the field viewed through SL_ATN. */
#define SL_PROF_ATOMIC_ACCESS(N)                                                                      \
  static inline uint##N##_t sl_ld_acq##N(const uint##N##_t *p) {                                     \
    return atomic_load_explicit(SL_AT##N(p), memory_order_acquire);                                  \
  }                                                                                                  \
  static inline uint##N##_t sl_ld_rlx##N(const uint##N##_t *p) {                                     \
    return atomic_load_explicit(SL_AT##N(p), memory_order_relaxed);                                  \
  }                                                                                                  \
  static inline void sl_st_rel##N(uint##N##_t *p, uint##N##_t v) {                                   \
    atomic_store_explicit(SL_AT##N(p), v, memory_order_release);                                     \
  }                                                                                                  \
  static inline void sl_st_rlx##N(uint##N##_t *p, uint##N##_t v) {                                   \
    atomic_store_explicit(SL_AT##N(p), v, memory_order_relaxed);                                     \
  }
SL_PROF_ATOMIC_ACCESS(32)
SL_PROF_ATOMIC_ACCESS(64)
#undef SL_PROF_ATOMIC_ACCESS

/* Single-writer counter bump: readers may load concurrently, only one thread adds. */
static inline void sl_add_rlx32(uint32_t *p, uint32_t d) {
  sl_st_rlx32(p, sl_ld_rlx32(p) + d);
}

#endif /* SL_PROF_ATOMIC_H */
