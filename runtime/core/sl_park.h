/*
** sl_park.h — parking an idle simulated thread on a 32-bit word (Linux futex), so
** idle AICores and schedulers stop competing for the few host CPUs. A waiter
** announces itself in `sleeping` before re-checking for work; a producer changes
** the word, then wakes only when someone sleeps. Every wait has a timeout, so a
** missed wake costs latency, never progress.
*/
#ifndef SL_PARK_H
#define SL_PARK_H

#include <linux/futex.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Sleep while *word == expect, at most timeout_ns. */
static inline void sl_park_wait(_Atomic uint32_t *word, uint32_t expect, long timeout_ns) {
  struct timespec ts = {timeout_ns / 1000000000L, timeout_ns % 1000000000L};
  syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, expect, &ts, NULL, 0);
}

static inline void sl_park_wake(_Atomic uint32_t *word) {
  syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

#endif /* SL_PARK_H */
