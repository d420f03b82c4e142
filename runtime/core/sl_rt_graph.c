/*
** sl_rt_graph.c — graph definitions. The orchestrator defines a graph once and
** submits instances of it; an instance is one ring-0 task to the tensormap (its
** parameters ordered as a unit). When an instance becomes ready a scheduler's
** graph_prepare phase expands it: one ring-1 node task per node, id
** (1 << 32) | (outer_local << 10) | node_index, wired to the earlier nodes it
** names, the roots made ready. The instance completes when its last node does.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sl_rt_phase.h"
#include "sl_rt_mem.h"

struct sl_rt_graph {
  sl_rt_graph_node *nodes;
  int nnodes;
  sl_arg_dir dirs[SL_RT_MAX_TENSOR_ARGS];
  int nparams;
};

static const char *check_nodes(const sl_rt *rt, const sl_rt_graph_node *nodes, int n, int nparams) {
  if (n < 1 || n > SL_RT_GRAPH_MAX_NODES) return "a graph has 1..1024 nodes";
  for (int i = 0; i < n; i++) {
    const sl_rt_graph_node *g = &nodes[i];
    int members = 0;
    for (int k = 0; k < 3; k++) members += g->kernel_ids[k] >= 0 && g->fns[k];
    if (!members || (g->kernel_ids[2] >= 0 && members == 1)) return "graph node: no kernel (a single AIV kernel goes in aiv0)";
    if (members > 1 && rt->nclusters == 0) return "graph node: a MIX node needs a cluster";
    if (g->block_num < 1 || g->ntensors < 0 || g->ntensors > SL_RT_MAX_TENSOR_ARGS || g->nscalars < 0 ||
        g->nscalars > SL_RT_MAX_SCALAR_ARGS || g->ndeps < 0 || g->ndeps > 16)
      return "graph node: bad block_num or argument counts";
    for (int a = 0; a < g->ntensors; a++)
      if (g->params[a] < 0 || g->params[a] >= nparams) return "graph node: argument names no graph parameter";
    for (int d = 0; d < g->ndeps; d++)
      if (g->deps[d] < 0 || g->deps[d] >= i) return "graph node: deps must name earlier nodes";
  }
  return NULL;
}

int sl_rt_graph_define(sl_rt *rt, const sl_rt_graph_node *nodes, int n, const sl_arg_dir *dirs, int nparams) {
  const char *bad = nparams < 0 || nparams > SL_RT_MAX_TENSOR_ARGS ? "a graph has at most 32 parameters"
                                                                    : check_nodes(rt, nodes, n, nparams);
  if (bad) {
    snprintf(rt->err, sizeof rt->err, "%s", bad);
    return -1;
  }
  struct sl_rt_graph *g = sl_rt_calloc(1, sizeof *g);
  g->nodes = sl_rt_alloc((size_t)n * sizeof *g->nodes);
  memcpy(g->nodes, nodes, (size_t)n * sizeof *nodes);
  g->nnodes = n;
  memcpy(g->dirs, dirs, (size_t)nparams * sizeof *dirs);
  g->nparams = nparams;
  int id = rt->ngraphs;
  *SL_RT_PUSH(rt->graphs, rt->ngraphs, rt->capgraphs) = g;
  return id;
}

uint64_t sl_rt_submit_graph(sl_rt *rt, int g, const sl_rt_tensor *params, int nparams, const uint64_t *deps,
                            int ndeps) {
  if (g < 0 || g >= rt->ngraphs || nparams != rt->graphs[g]->nparams) {
    snprintf(rt->err, sizeof rt->err, "submit_graph: unknown graph or wrong parameter count");
    return UINT64_MAX;
  }
  if (rt->ring != 0) { /* node ids encode a ring-0 outer id */
    snprintf(rt->err, sizeof rt->err, "submit_graph: graph instances are submitted outside nested scopes");
    return UINT64_MAX;
  }
  sl_rt_submit s;
  memset(&s, 0, sizeof s);
  for (int i = 0; i < 3; i++) s.kernel_ids[i] = -1;
  s.tensors = params;
  s.dirs = rt->graphs[g]->dirs;
  s.ntensors = nparams;
  s.block_num = 1;
  s.predicate = 1;
  s.explicit_deps = deps;
  s.ndeps = ndeps;
  return sl_rt_submit_internal(rt, &s, rt->graphs[g]);
}

void sl_rt_graphs_free(sl_rt *rt) {
  for (int i = 0; i < rt->ngraphs; i++) {
    sl_rt_free(rt->graphs[i]->nodes);
    sl_rt_free(rt->graphs[i]);
  }
  sl_rt_free(rt->graphs);
}

/* One node task of instance `outer` (scheduler thread; nothing else sees it yet). */
static sl_rt_task *make_node(sl_rt_task *outer, const sl_rt_graph_node *g, int index) {
  sl_rt_task *n = sl_rt_calloc(1, sizeof *n);
  pthread_mutex_init(&n->mu, NULL);
  n->id = (1ull << 32) | ((outer->id & 0xFFFFFFFFull) << 10) | (uint64_t)index;
  n->parent = outer;
  n->predicate = 1;
  n->timing_slot = -1;
  memcpy(n->kernel_ids, g->kernel_ids, sizeof n->kernel_ids);
  memcpy(n->fns, g->fns, sizeof n->fns);
  for (int k = 0; k < 3; k++) n->nmembers += n->kernel_ids[k] >= 0;
  n->shape = n->nmembers > 1 ? SL_SHAPE_MIX : n->kernel_ids[0] >= 0 ? SL_SHAPE_AIC : SL_SHAPE_AIV;
  n->block_num = g->block_num;
  n->ntensors = g->ntensors;
  n->nscalars = g->nscalars;
  atomic_init(&n->pending, n->block_num * n->nmembers);
  atomic_init(&n->fanin, 1 + g->ndeps);
  n->tensors = sl_rt_alloc((size_t)n->ntensors * (sizeof *n->tensors + sizeof *n->dirs) +
                      (size_t)n->nscalars * sizeof *n->scalars + sizeof(sl_rt_scalar));
  n->descs = sl_rt_aligned(64, (size_t)n->ntensors * sizeof(sl_tensor_desc));
  n->scalars = (sl_rt_scalar *)(n->tensors + n->ntensors);
  n->dirs = (sl_arg_dir *)(n->scalars + n->nscalars);
  for (int a = 0; a < n->ntensors; a++) {
    n->tensors[a] = outer->tensors[g->params[a]];
    n->dirs[a] = g->dirs[a];
    sl_rt_fill_desc(&n->descs[a], &n->tensors[a]);
  }
  memcpy(n->scalars, g->scalars, (size_t)n->nscalars * sizeof *n->scalars);
  return n;
}

static void expand(sl_rt_task *t) {
  const struct sl_rt_graph *g = t->graph;
  t->nodes = sl_rt_calloc((size_t)g->nnodes, sizeof *t->nodes);
  t->nnodes = g->nnodes;
  for (int i = 0; i < g->nnodes; i++) {
    sl_rt_task *n = t->nodes[i] = make_node(t, &g->nodes[i], i);
    for (int d = 0; d < g->nodes[i].ndeps; d++) {
      sl_rt_task *p = t->nodes[g->nodes[i].deps[d]];
      *SL_RT_PUSH(p->fanout, p->nfanout, p->capfanout) = n;
    }
  }
  atomic_store(&t->nodes_pending, g->nnodes);
}

int sl_rt_phase_graph_prepare(phase_ctx *pc) {
  sl_rt *rt = pc->rt;
  if (!sl_readyq_depth(&rt->graphq)) return 0;
  int n = 0;
  sl_rt_task *t;
  while ((t = sl_readyq_pop_task(&rt->graphq)) != NULL) {
    int16_t d0[3] = {0, 0, 0};
    uint64_t t0 = pc->dp ? (depths(rt, d0), now(pc)) : 0;
    expand(t); /* allocations cannot fail (sl_rt_mem.h) */
    for (int i = 0; i < t->nnodes; i++) /* drop the expansion guard: roots become ready */
      if (atomic_fetch_sub_explicit(&t->nodes[i]->fanin, 1, memory_order_acq_rel) == 1)
        sl_rt_make_ready(rt, t->nodes[i]);
    if (pc->dp) {
      emit_outer(pc, graph_prepare, t0, now(pc), t->nnodes, t->id, d0);
    }
    n++;
  }
  pc->lap = 0;
  return n;
}

void sl_rt_graph_free_nodes(sl_rt_task *t) {
  for (int i = 0; i < t->nnodes; i++) {
    sl_rt_task *n = t->nodes[i];
    if (!n) continue;
    pthread_mutex_destroy(&n->mu);
    sl_rt_free(n->fanout);
    sl_rt_free(n->descs);
    sl_rt_free(n->tensors);
    sl_rt_free(n);
  }
  sl_rt_free(t->nodes);
}

int sl_rt_task_nnodes(const sl_rt_task *t) { return t->nodes ? t->nnodes : 0; }
const sl_rt_task *sl_rt_task_node(const sl_rt_task *t, int n) { return n >= 0 && n < t->nnodes ? t->nodes[n] : NULL; }
int sl_rt_task_node_deps(const sl_rt_task *t, int n, const int **deps) {
  *deps = t->graph->nodes[n].deps;
  return t->graph->nodes[n].ndeps;
}
