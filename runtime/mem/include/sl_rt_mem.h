/*
** sl_rt_mem.h — the one out-of-memory policy of the device side (runtime/).
**
** The simulated device (runtime/core, runtime/kernels, runtime/pipe,
** runtime/profiler) does not link the host's base library, so it has its own
** allocator with the host's rule: sl_rt_alloc / sl_rt_calloc / sl_rt_realloc /
** sl_rt_aligned never return NULL for a non-zero size. When memory runs out
** they call the failure function the host installed with sl_rt_mem_on_failure
** (swimlane installs sl_mem_fail, which removes the temporaries of open output
** files, prints one line and exits 1); with none installed (a replay workspace
** of `swimlane l0`) they print "swimlane: out of memory (could not allocate N
** bytes)" and exit 1. Device code therefore has no failure branch for its own
** bookkeeping.
**
** The one exception is memory whose size the workload chooses (a tensor's
** buffer): sl_rt_try_calloc returns NULL so that the run can refuse it with a
** message naming the tensor instead of ending.
*/
#ifndef SL_RT_MEM_H
#define SL_RT_MEM_H

#include <stddef.h>

void *sl_rt_alloc(size_t n);                 /* n bytes, uninitialized (n 0: one byte) */
void *sl_rt_calloc(size_t count, size_t size); /* zeroed, overflow-checked (0: one byte) */
void *sl_rt_realloc(void *p, size_t n);      /* n 0: free p, return NULL */
void *sl_rt_aligned(size_t align, size_t n); /* aligned to align (a power of two), n rounded up */
void sl_rt_free(void *p);
char *sl_rt_strdup(const char *s);

/* Room for `need` elements of esz bytes in arr (capacity *cap, updated): the capacity
** doubles from 4, so n appends cost O(n) copies. Returns the (possibly moved) array. */
void *sl_rt_grow(void *arr, size_t *cap, size_t need, size_t esz);
/* Append one element to arr (count n, capacity cap: lvalues, cap a size_t) and give its
** address (not zeroed). */
#define SL_RT_PUSH(arr, n, cap) ((arr) = sl_rt_grow((arr), &(cap), (size_t)(n) + 1, sizeof *(arr)), &(arr)[(n)++])

/* Zeroed, or NULL when the system refuses: only for sizes the workload chose. */
void *sl_rt_try_calloc(size_t count, size_t size);

/* The function every failed allocation ends in (NULL: the built-in message and
** exit 1). It must not return. */
void sl_rt_mem_on_failure(void (*fail)(size_t n));

#endif /* SL_RT_MEM_H */
