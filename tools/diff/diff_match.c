/*
** diff_match.c — which task of the new run is which task of the base run.
**
** Rule 1 (SL_MATCH_ID): when both runs hold the same (func_id, task id) set and the
** same dependency edges, a task is the same submission in both: pair by that key.
** Rule 2 (SL_MATCH_POSITION): otherwise the graphs differ (a task inserted early
** shifts every later id), so pair by (func_id, depth in the DAG, rank by id within
** that func and depth): "the third MATMUL two levels below a root".
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sl_diff.h"
#include "sl_mem.h"

static int same_edges(const sl_deps *a, const sl_deps *b) {
  if (!a->has_edges || !b->has_edges) return a->has_edges == b->has_edges;
  if (a->n_edges != b->n_edges || a->n_preds != b->n_preds) return 0;
  for (size_t i = 0; i < a->n_preds; i++) {
    size_t na, nb;
    const uint64_t *sa = sl_deps_succs(a, a->preds[i], &na);
    const uint64_t *sb = sl_deps_succs(b, a->preds[i], &nb);
    if (na != nb || (na && memcmp(sa, sb, na * sizeof *sa) != 0)) return 0;
  }
  return 1;
}

int sl_diff_same_graph(const sl_diff_task *b, size_t nb, const sl_deps *db,
                       const sl_diff_task *n, size_t nn, const sl_deps *dn) {
  if (nb != nn) return 0;
  for (size_t i = 0; i < nb; i++)
    if (b[i].func_id != n[i].func_id || b[i].task_id != n[i].task_id) return 0;
  return !db || !dn || same_edges(db, dn);
}

typedef struct keyed {
  int64_t func_id;
  uint64_t a, b;     /* (task id, 0) or (depth, ordinal) */
  size_t index;
} keyed;

static int cmp_keyed(const void *x, const void *y) {
  const keyed *p = x, *q = y;
  if (p->func_id != q->func_id) return p->func_id < q->func_id ? -1 : 1;
  if (p->a != q->a) return p->a < q->a ? -1 : 1;
  return p->b < q->b ? -1 : p->b > q->b;
}

static keyed *keys_of(const sl_diff_task *t, size_t n, sl_match_rule rule) {
  keyed *k = sl_mem_alloc((n ? n : 1) * sizeof *k);
  for (size_t i = 0; i < n; i++) {
    k[i] = (keyed){.func_id = t[i].func_id, .index = i};
    k[i].a = rule == SL_MATCH_ID ? t[i].task_id : t[i].depth;
    k[i].b = rule == SL_MATCH_ID ? 0 : t[i].ordinal;
  }
  qsort(k, n, sizeof *k, cmp_keyed);
  return k;
}

void sl_diff_match_tasks(const sl_diff_task *b, size_t nb, const sl_diff_task *n, size_t nn,
                         sl_match_rule rule, sl_diff_match *m) {
  memset(m, 0, sizeof *m);
  m->rule = rule;
  keyed *kb = keys_of(b, nb, rule), *kn = keys_of(n, nn, rule);
  size_t cap = nb < nn ? nb : nn;
  m->pairs = sl_mem_alloc((cap ? cap : 1) * sizeof *m->pairs);
  m->base_to_cur = sl_mem_alloc((nb ? nb : 1) * sizeof *m->base_to_cur);
  m->cur_to_base = sl_mem_alloc((nn ? nn : 1) * sizeof *m->cur_to_base);
  for (size_t i = 0; i < nb; i++) m->base_to_cur[i] = SIZE_MAX;
  for (size_t j = 0; j < nn; j++) m->cur_to_base[j] = SIZE_MAX;
  size_t i = 0, j = 0;
  while (i < nb || j < nn) {
    int c = i == nb ? 1 : j == nn ? -1 : cmp_keyed(&kb[i], &kn[j]);
    if (c == 0) {
      m->pairs[m->n_pairs][0] = kb[i].index;
      m->pairs[m->n_pairs][1] = kn[j].index;
      m->base_to_cur[kb[i].index] = kn[j].index;
      m->cur_to_base[kn[j].index] = kb[i].index;
      m->n_pairs++;
      i++, j++;
    } else if (c < 0) {
      m->disappeared++, i++;
    } else {
      m->appeared++, j++;
    }
  }
  sl_mem_free(kb);
  sl_mem_free(kn);
}

void sl_diff_match_free(sl_diff_match *m) {
  sl_mem_free(m->pairs);
  sl_mem_free(m->base_to_cur);
  sl_mem_free(m->cur_to_base);
  memset(m, 0, sizeof *m);
}
