/*
** sl_prof_bell.h — the host doorbell: how the device tells the host collector
** that there is work (a buffer published on a ready queue, a back-pressure
** request) so the host threads can sleep instead of polling.
**
** The bell is a 32-bit counter in the region plus a count of sleeping host
** threads. A ringer bumps the counter, then makes the futex wake system call
** only when someone sleeps, so the device's cost is one atomic add and one
** load per published buffer (never a lock). A sleeper announces itself, then
** sleeps only while the counter still holds the value it read before it last
** looked for work: a ring between that read and the sleep changes the counter,
** so the kernel returns at once. Every sleep has a timeout, so a lost wake
** costs latency, never progress.
*/
#ifndef SL_PROF_BELL_H
#define SL_PROF_BELL_H

#include <limits.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

typedef struct sl_prof_bell {
  _Atomic uint32_t rings;                /* bumped by every ring               */
  _Atomic uint32_t sleepers;             /* host threads in (or entering) wait */
} sl_prof_bell;

/* Read before looking for work; pass the value to sl_bell_wait. */
static inline uint32_t sl_bell_read(sl_prof_bell *b) { return atomic_load(&b->rings); }

/* Any thread: there is work. Sequentially consistent add then load pair with
** the sleeper's add then futex check, so a ring is never both unseen and unwoken. */
static inline void sl_bell_ring(sl_prof_bell *b) {
  atomic_fetch_add(&b->rings, 1);
  if (atomic_load(&b->sleepers))
    syscall(SYS_futex, (uint32_t *)&b->rings, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* Host: sleep until a ring after `seen` was read, or timeout_ns passes. */
static inline void sl_bell_wait(sl_prof_bell *b, uint32_t seen, long timeout_ns) {
  atomic_fetch_add(&b->sleepers, 1);
  if (atomic_load(&b->rings) == seen) {
    struct timespec ts = {timeout_ns / 1000000000L, timeout_ns % 1000000000L};
    syscall(SYS_futex, (uint32_t *)&b->rings, FUTEX_WAIT_PRIVATE, seen, &ts, NULL, 0);
  }
  atomic_fetch_sub(&b->sleepers, 1);
}

#endif /* SL_PROF_BELL_H */
