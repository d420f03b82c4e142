/*
** sl_mem.h — the one out-of-memory policy of the host side.
**
** Every allocation goes through sl_mem_realloc (or sl_mem_calloc, which fails
** the same way). They never return NULL for a non-zero size: when memory runs
** out, the failure path runs the cleanups registered with sl_mem_on_failure
** (sl_file.c registers the removal of every open output file's temporary),
** prints one line
** "swimlane: out of memory (...)" and ends the process with status 1. Code that
** allocates therefore has no failure branch to get wrong, and a failed run
** never leaves a half-written file behind.
**
** Third-party libraries that allocate on their own (cJSON, yajl, protobuf-c)
** still report failure by returning NULL; callers hand such failures to
** sl_mem_fail so that they end the same way.
*/
#ifndef SL_MEM_H
#define SL_MEM_H

#include <stddef.h>

/* Resize p to n bytes (p NULL: allocate; n 0: free p and return NULL). */
void *sl_mem_realloc(void *p, size_t n);
/* n bytes, uninitialized (n 0 allocates one byte, so the result is never NULL). */
void *sl_mem_alloc(size_t n);
/* count * size zeroed bytes; an overflowing product fails like an allocation. */
void *sl_mem_calloc(size_t count, size_t size);
/* Resize p to count elements of size bytes each, overflow-checked. */
void *sl_mem_array(void *p, size_t count, size_t size);
void sl_mem_free(void *p);

char *sl_mem_strdup(const char *s);
/* The first n bytes of s (stopping early at a NUL), NUL-terminated. */
char *sl_mem_strndup(const char *s, size_t n);
/* printf into a new string. */
char *sl_mem_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The failure path itself: run the cleanups (removing temporaries), print
** "swimlane: out of memory (could not allocate <n> bytes)" and exit 1. */
_Noreturn void sl_mem_fail(size_t n);
/* Register a cleanup the failure path runs (last registered first; up to 8).
** It runs on whichever thread ran out of memory, with other threads still
** running: it must only undo what a half-finished run leaves behind on disk. */
void sl_mem_on_failure(void (*cleanup)(void));

/* Tests: the n-th allocation from now (1 = the next one) fails; 0 = never. */
void sl_mem_fail_after(long n);

#endif /* SL_MEM_H */
