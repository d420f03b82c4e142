/*
** sl_vec.h — growable arrays.
**
** Two forms over one growth rule (sl_vec.c):
**
**   - sl_array_grow(arr, &cap, need, esz): for an array kept as separate
**     pointer / count / capacity fields. Returns the (possibly moved) array with
**     room for at least `need` elements; capacity doubles, starting at 16.
**
**   - SL_VEC(T): a typed { T *v; size_t n, cap; } with macros on top:
**
**       typedef SL_VEC(double) dvec;
**       dvec d = {0};
**       sl_vec_push(&d, 1.5);
**       for (size_t i = 0; i < d.n; i++) use(d.v[i]);
**       sl_vec_free(&d);
**
** Growth never fails (sl_mem.h: running out of memory ends the process), so
** none of these return a status. The macros evaluate their vector argument more
** than once: pass a plain lvalue (&x, p->list), not an expression with effects.
** Element pointers are invalidated by any call that grows the array.
*/
#ifndef SL_VEC_H
#define SL_VEC_H

#include <stddef.h>

/* Room for `need` elements of esz bytes in arr (capacity *cap, updated). */
void *sl_array_grow(void *arr, size_t *cap, size_t need, size_t esz);

/* The separate-field form of push: grow arr (count n, capacity cap, both size_t
** lvalues), count the new element and give its address (not zeroed). */
#define sl_array_push(arr, n, cap) ((arr) = sl_array_grow((arr), &(cap), (n) + 1, sizeof *(arr)), &(arr)[(n)++])

#define SL_VEC(T) \
  struct {        \
    T *v;         \
    size_t n, cap; \
  }

/* Capacity for at least `need` elements. */
#define sl_vec_reserve(a, need) \
  ((void)((need) > (a)->cap ? ((a)->v = sl_array_grow((a)->v, &(a)->cap, (need), sizeof *(a)->v)) : 0))
/* Append x. */
#define sl_vec_push(a, x) (sl_vec_reserve((a), (a)->n + 1), (a)->v[(a)->n++] = (x))
/* Append one zeroed element and return a pointer to it (void *: assign it to a T *). */
#define sl_vec_add(a) (sl_vec_reserve((a), (a)->n + 1), sl_array_zero((a)->v, (a)->n++, sizeof *(a)->v))
/* The last element (the vector must not be empty). */
#define sl_vec_last(a) ((a)->v[(a)->n - 1])
/* Forget the elements, keep the memory. */
#define sl_vec_clear(a) ((void)((a)->n = 0))
/* Release the memory; the vector is empty and reusable. */
#define sl_vec_free(a) ((void)(sl_array_free((a)->v), (a)->v = NULL, (a)->n = (a)->cap = 0))

/* qsort that also takes an empty array (arr may then be NULL, which qsort does not allow). */
void sl_array_sort(void *arr, size_t n, size_t esz, int (*cmp)(const void *, const void *));

/* Helpers of the macros: zero element i of arr and return its address; free. */
void *sl_array_zero(void *arr, size_t i, size_t esz);
void sl_array_free(void *arr);

#endif /* SL_VEC_H */
