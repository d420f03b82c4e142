/*
** convert_engine.c — draw a joined capture: the views and lanes of docs/convert.md
** (What the trace contains), in the reference converter's emission order.
**
** Per-record loops are here; what goes on which lane, its colour and its label
** come from the Lua rules, asked once per distinct phase / function / lane.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "convert_ctx.h"
#include "convert_labels.h"
#include "flow_place.h"
#include "sl_base.h"
#include "sl_map.h"
#include "sl_mem.h"
#include "sl_vec.h"
#include "ts_shift.h"
#include "sl_phases.h"

/* ---- small helpers ------------------------------------------------------------------ */

static void add_anchor(sl_ctx *x, uint64_t task_id, double start, double end, int64_t tid,
                       uint64_t eid) {
  uint32_t seq = (uint32_t)x->nanchors;
  *sl_array_push(x->anchors, x->nanchors, x->capanchors) = (sl_anchor){task_id, start, end, tid, eid, seq};
}

static int anchor_cmp(const void *a, const void *b) {
  const sl_anchor *p = a, *q = b;
  if (p->task_id != q->task_id) return p->task_id < q->task_id ? -1 : 1;
  return p->seq < q->seq ? -1 : p->seq > q->seq;
}

/* A microsecond value for args. Timestamps are doubles, so a difference of
** two carries their rounding (0.2799999999999727 for 0.28); rounded to the
** picosecond — finer than any clock we read (~0.5 ns a cycle) — its shortest
** round-trip form is the number a reader expects. Beyond 2^53 ps (~2.5 h) a
** double cannot hold picoseconds, so the value is left as is.
** --reference-flows keeps the reference's bytes, noise included. */
static double arg_us(const sl_ctx *x, double us) {
  if (x->o->reference_flows || !(fabs(us) < 9.0e9)) return us;
  return round(us * 1e6) / 1e6;
}

/* A point in time for args: on the trace's axis (moved with its origin). */
static double arg_at_us(const sl_ctx *x, double us) { return arg_us(x, us + x->origin_us); }

/* A record's fields the reader has no meaning for (schema fields newer than this code), as
** integer args after the na already in a[] (room for SL_PH_MAX_EXTRA more); the rules may
** hide some (R.hidden_args). */
static size_t extra_args(sl_ctx *x, sl_extra_span sp, sl_arg *a, size_t na) {
  const sl_capture *c = x->c;
  for (uint32_t k = 0; k < sp.n; k++) {
    const sl_extra_field *e = &c->extras[sp.first + k];
    const char *key = sl_str_get(c, e->key);
    if (!sl_rules_arg_hidden(x->r, key)) a[na++] = SL_ARG_I(key, e->value);
  }
  return na;
}
static sl_extra_span task_extras(const sl_task *t) { return (sl_extra_span){t->extra_first, t->n_extra}; }

static const char *str_or(const sl_capture *c, sl_str s, const char *def) {
  const char *v = sl_str_get(c, s);
  return v ? v : def;
}

/* ---- preparation ------------------------------------------------------------------------ */

/* A lane's key as the generated table spells it (schema/lanes.lua). */
#define LANE_KEY(id) (sl_lane_table[SL_LANE_##id].key)

static void prepare(sl_ctx *x) {
  const sl_capture *c = x->c;
  size_t n = c->n_tasks;
  sl_rules_lane_tid(x->r, LANE_KEY(WORKER_CORE), &x->core_base, &x->core_stride);
  sl_rules_lane_tid(x->r, LANE_KEY(WORKER_AICPU), &x->aicpu_base, &(int64_t){0});
  sl_rules_lane_tid(x->r, LANE_KEY(SCHED), &x->sched_base, &x->sched_stride);
  sl_rules_lane_tid(x->r, LANE_KEY(AICORE_SCHED), &x->hbg_base, &(int64_t){0});
  sl_rules_lane_tid(x->r, LANE_KEY(ORCH), &x->orch_base, &(int64_t){0});
  sl_rules_lane_tid(x->r, LANE_KEY(SHARED_READY_QUEUE), &x->queue_tid, &(int64_t){0});
  sl_rules_lane_tid(x->r, LANE_KEY(GRAPH), &x->graph_base, &(int64_t){0});
  sl_rules_lane_tid(x->r, LANE_KEY(LIFECYCLE), &x->life_base, &(int64_t){0});
  x->pid_orch = sl_rules_view(x->r, SL_VIEW_ORCH)->pid;
  x->pid_sched = sl_rules_view(x->r, SL_VIEW_SCHED)->pid;
  x->pid_sv = sl_rules_view(x->r, SL_VIEW_SCHEDVIEW)->pid;
  x->pid_worker = sl_rules_view(x->r, SL_VIEW_WORKER)->pid;
  x->pid_graph = sl_rules_view(x->r, SL_VIEW_GRAPH)->pid;
  x->pid_life = sl_rules_view(x->r, SL_VIEW_LIFECYCLE)->pid;

  x->row_eid = sl_mem_calloc(n, sizeof *x->row_eid);
  x->row_bind = sl_mem_calloc(n, sizeof *x->row_bind);
  x->row_sv_tid = sl_mem_calloc(n, sizeof *x->row_sv_tid);
  x->row_sv_eid = sl_mem_calloc(n, sizeof *x->row_sv_eid);
  x->groups = sl_mem_calloc(n, sizeof *x->groups);

  /* cores, logical tasks, has_aicpu_data */
  uint32_t maxcore = 0;
  for (size_t i = 0; i < n; i++) {
    const sl_task *t = &c->tasks[i];
    if (t->core_id + 1 > maxcore) maxcore = t->core_id + 1;
    if (t->dispatch_us >= 0 && t->finish_us > 0) x->has_aicpu_data = 1;
    x->row_sv_eid[i] = SL_NO_EVENT;
    if (i == 0 || c->tasks[i - 1].task_id != t->task_id) {
      x->groups[x->ngroups++] = (sl_group){t->task_id, (uint32_t)i, 0, 0};
    }
    x->groups[x->ngroups - 1].count++;
  }
  if (c->n_core_to_thread > maxcore) maxcore = (uint32_t)c->n_core_to_thread;
  x->ncores = maxcore;
  x->core_lane_name = sl_mem_calloc(maxcore, sizeof *x->core_lane_name);
  x->core_thread = sl_mem_calloc(maxcore, sizeof *x->core_thread);

  /* SPMD set: block_num > 1, or several rows of one core type (and one member, when
  ** the capture records it) outside the block map */
  for (size_t g = 0; g < x->ngroups; g++) {
    sl_group *gr = &x->groups[g];
    int64_t bn = x->d ? sl_deps_block_num(x->d, gr->task_id) : 0;
    if (bn > 1) {
      gr->spmd = 1;
    } else if (bn == 0 && gr->count > 1) {
      int same = 1;
      const sl_task *t0 = &c->tasks[gr->first];
      for (uint32_t k = 1; k < gr->count; k++) {
        const sl_task *tk = &c->tasks[gr->first + k];
        if (tk->core_type != t0->core_type) same = 0;
        /* two AIVs running different members: a MIX task, not SPMD blocks */
        if (tk->member && t0->member && tk->member != t0->member) same = 0;
      }
      gr->spmd = (uint8_t)same;
    }
    if (gr->spmd) x->res->spmd_tasks++;
  }

  /* scheduler threads and completes per thread, sorted by start (stable) */
  x->nthreads = sl_capture_sched_thread_count(c);
  x->comp_off = sl_mem_calloc(c->n_streams + 1, sizeof *x->comp_off);
  x->comp_idx = sl_mem_calloc(c->n_phases, sizeof *x->comp_idx);
  size_t k = 0;
  for (size_t t = 0; t < c->n_streams; t++) {
    x->comp_off[t] = k;
    const sl_sched_stream *st = &c->streams[t];
    const char *prod = sl_str_get(c, st->producer);
    if (prod && !strcmp(prod, "aicore")) continue; /* HBG AICore lanes are not threads */
    for (size_t i = st->first; i < st->first + st->count; i++) {
      if (c->phases[i].phase_id != SL_PHASE_COMPLETE) continue;
      /* insertion keeps equal starts in file order; completes per thread are few
      ** relative to tasks, and arrive nearly sorted */
      size_t j = k++;
      while (j > x->comp_off[t] && c->phases[x->comp_idx[j - 1]].start_us > c->phases[i].start_us) {
        x->comp_idx[j] = x->comp_idx[j - 1];
        j--;
      }
      x->comp_idx[j] = i;
    }
  }
  x->comp_off[c->n_streams] = k;
}

/* core -> scheduler thread: core_to_thread, else voting by dispatch records. */
static void map_cores(sl_ctx *x) {
  const sl_capture *c = x->c;
  for (uint32_t i = 0; i < x->ncores; i++) x->core_thread[i] = -1;
  size_t mapped = 0;
  for (size_t i = 0; i < c->n_core_to_thread && i < x->ncores; i++) {
    if (c->core_to_thread[i] >= 0) {
      x->core_thread[i] = c->core_to_thread[i];
      mapped++;
    }
  }
  if (c->n_core_to_thread > 0) {
    x->res->core_map_size = mapped;
    return;
  }
  /* voting: each task's dispatch gives one vote per thread whose first dispatch
  ** record contains it; most votes wins, first voted wins ties */
  size_t nt = c->n_streams;
  if (nt == 0) return;
  uint64_t *votes = sl_mem_calloc((size_t)x->ncores * nt, sizeof *votes);
  uint64_t *first_vote = sl_mem_calloc((size_t)x->ncores * nt, sizeof *first_vote);
  /* dispatch records per thread sorted by start for a binary search */
  size_t *doff = sl_mem_calloc(nt + 1, sizeof *doff);
  size_t *didx = sl_mem_calloc(c->n_phases, sizeof *didx);
  size_t k = 0;
  for (size_t t = 0; t < nt; t++) {
    doff[t] = k;
    const sl_sched_stream *st = &c->streams[t];
    for (size_t i = st->first; i < st->first + st->count; i++) {
      if (c->phases[i].phase_id == SL_PHASE_DISPATCH) didx[k++] = i;
    }
  }
  doff[nt] = k;
  /* per thread by start (file order on ties); dispatch records never overlap, so
  ** the record containing t is the last starting at or before it, or the one
  ** before when both touch t (then the earlier in the file wins) */
  for (size_t t = 0; t < nt; t++) {
    for (size_t j = doff[t] + 1; j < doff[t + 1]; j++) {
      size_t v = didx[j], m = j;
      while (m > doff[t] && c->phases[didx[m - 1]].start_us > c->phases[v].start_us) {
        didx[m] = didx[m - 1];
        m--;
      }
      didx[m] = v;
    }
  }
  uint64_t stamp = 0;
  for (size_t i = 0; i < c->n_tasks; i++) {
    const sl_task *tk = &c->tasks[i];
    if (tk->dispatch_us < 0) continue;
    for (size_t t = 0; t < nt; t++) {
      size_t lo = doff[t], hi = doff[t + 1];
      while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (c->phases[didx[mid]].start_us <= tk->dispatch_us)
          lo = mid + 1;
        else
          hi = mid;
      }
      size_t hit = SIZE_MAX;
      for (size_t j = lo; j > doff[t] && j + 2 > lo; j--) {
        const sl_phase_rec *p = &c->phases[didx[j - 1]];
        if (p->start_us <= tk->dispatch_us && tk->dispatch_us <= p->end_us &&
            (hit == SIZE_MAX || didx[j - 1] < hit))
          hit = didx[j - 1];
      }
      if (hit != SIZE_MAX) {
        size_t cell = (size_t)tk->core_id * nt + t;
        if (votes[cell]++ == 0) first_vote[cell] = ++stamp;
      }
    }
  }
  for (uint32_t core = 0; core < x->ncores; core++) {
    uint64_t best = 0, best_stamp = 0;
    int64_t th = -1;
    for (size_t t = 0; t < nt; t++) {
      size_t cell = (size_t)core * nt + t;
      if (votes[cell] > best || (votes[cell] == best && best > 0 && first_vote[cell] < best_stamp)) {
        best = votes[cell];
        best_stamp = first_vote[cell];
        th = (int64_t)t;
      }
    }
    x->core_thread[core] = th;
    if (th >= 0) mapped++;
  }
  x->res->core_map_inferred = 1;
  x->res->core_map_size = mapped;
  sl_mem_free(votes);
  sl_mem_free(first_vote);
  sl_mem_free(doff);
  sl_mem_free(didx);
}

/* ---- Graph Execution (pid 5) ---------------------------------------------------- */

typedef struct graph_inst {
  uint64_t outer;
  double prep_start, prep_end, prep_dur, exec_start, exec_end;
  int64_t nprep, nvisible, idx_min, idx_max;
  int has_rows;
  int64_t lane;
} graph_inst;

static int graph_decode(uint64_t raw, uint64_t *outer, int64_t *node) {
  if (((raw >> 32) & 0xFFFFFFFFu) != 1) return 0;
  uint64_t local = raw & 0xFFFFFFFFu;
  *outer = local >> 10;
  *node = (int64_t)(local & 1023);
  return 1;
}

static int cmp_i64(const void *a, const void *b) {
  int64_t p = *(const int64_t *)a, q = *(const int64_t *)b;
  return p < q ? -1 : p > q;
}

/* One instance per outer id of the graph_prepare phases: the prepare window. NULL
** (and *out_n 0) when there are none. */
static graph_inst *graph_collect(const sl_capture *c, size_t *out_n) {
  graph_inst *gi = NULL;
  size_t ng = 0, cap = 0;
  for (size_t i = 0; i < c->n_phases; i++) {
    const sl_phase_rec *p = &c->phases[i];
    if (p->phase_id != SL_PHASE_GRAPH_PREPARE || !(p->flags & SL_PH_HAS_TASK_ID)) continue;
    if (p->task_id >> 32) continue;
    size_t k = 0;
    while (k < ng && gi[k].outer != p->task_id) k++;
    if (k == ng)
      *sl_array_push(gi, ng, cap) = (graph_inst){.outer = p->task_id, .prep_start = INFINITY,
                                                 .prep_end = -INFINITY, .exec_start = INFINITY,
                                                 .exec_end = -INFINITY};
    graph_inst *g = &gi[k];
    if (p->start_us < g->prep_start) g->prep_start = p->start_us;
    if (p->end_us > g->prep_end) g->prep_end = p->end_us;
    g->prep_dur += p->end_us - p->start_us;
    g->nprep++;
  }
  *out_n = ng;
  return gi;
}

typedef struct gnode {
  size_t inst;
  int64_t node;
} gnode;

/* One pass over tasks and dummy_task records: the (instance, node) pairs, found by
** binary search on the outer id, and each instance's execution window. */
static size_t graph_nodes(const sl_capture *c, graph_inst *gi, size_t ng, const size_t *order,
                          gnode *nodes) {
  size_t nn = 0;
  for (size_t i = 0; i < c->n_tasks + c->n_phases; i++) {
    uint64_t raw, outer;
    int64_t node;
    double s0, e0;
    if (i < c->n_tasks) {
      const sl_task *t = &c->tasks[i];
      raw = t->task_id;
      s0 = t->dispatch_us >= 0 ? t->dispatch_us : t->receive_us;
      e0 = t->finish_us > 0 ? t->finish_us : t->end_us;
    } else {
      const sl_phase_rec *p = &c->phases[i - c->n_tasks];
      if (p->phase_id != SL_PHASE_DUMMY_TASK || !(p->flags & SL_PH_HAS_TASK_ID)) continue;
      raw = p->task_id;
      s0 = p->start_us;
      e0 = p->end_us;
    }
    if (!graph_decode(raw, &outer, &node)) continue;
    size_t lo = 0, hi = ng;
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (gi[order[mid]].outer < outer)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (lo == ng || gi[order[lo]].outer != outer) continue;
    graph_inst *g = &gi[order[lo]];
    nodes[nn++] = (gnode){order[lo], node};
    if (s0 < g->exec_start) g->exec_start = s0;
    if (e0 > g->exec_end) g->exec_end = e0;
  }
  return nn;
}

/* Per instance: node index min / max and the distinct node count. */
static void graph_node_stats(graph_inst *gi, size_t ng, const gnode *nodes, size_t nn) {
  for (size_t k = 0; k < nn; k++) {
    graph_inst *g = &gi[nodes[k].inst];
    if (!g->has_rows) {
      g->has_rows = 1;
      g->idx_min = g->idx_max = nodes[k].node;
    }
    if (nodes[k].node < g->idx_min) g->idx_min = nodes[k].node;
    if (nodes[k].node > g->idx_max) g->idx_max = nodes[k].node;
  }
  int64_t *vals = sl_mem_array(NULL, nn + 1, sizeof *vals);
  size_t *cnt = sl_mem_calloc(ng + 1, sizeof *cnt);
  for (size_t k = 0; k < nn; k++) cnt[nodes[k].inst + 1]++;
  for (size_t k = 0; k < ng; k++) cnt[k + 1] += cnt[k];
  size_t *fill = sl_mem_calloc(ng + 1, sizeof *fill);
  for (size_t k = 0; k < nn; k++) vals[cnt[nodes[k].inst] + fill[nodes[k].inst]++] = nodes[k].node;
  sl_mem_free(fill);
  for (size_t k = 0; k < ng; k++) {
    size_t a0 = cnt[k], b0 = cnt[k + 1];
    qsort(vals + a0, b0 - a0, sizeof *vals, cmp_i64);
    int64_t distinct = 0;
    for (size_t i = a0; i < b0; i++)
      if (i == a0 || vals[i] != vals[i - 1]) distinct++;
    gi[k].nvisible = distinct;
  }
  sl_mem_free(vals);
  sl_mem_free(cnt);
}

/* Execution windows and node statistics of every instance. */
static void graph_bind(const sl_capture *c, graph_inst *gi, size_t ng) {
  size_t *order = sl_mem_array(NULL, ng, sizeof *order);
  gnode *nodes = sl_mem_array(NULL, c->n_tasks + c->n_phases + 1, sizeof *nodes);
  for (size_t k = 0; k < ng; k++) order[k] = k;
  for (size_t k = 1; k < ng; k++) { /* by outer id (few instances) */
    size_t v = order[k], j = k;
    while (j > 0 && gi[order[j - 1]].outer > gi[v].outer) {
      order[j] = order[j - 1];
      j--;
    }
    order[j] = v;
  }
  size_t nn = graph_nodes(c, gi, ng, order, nodes);
  graph_node_stats(gi, ng, nodes, nn);
  sl_mem_free(order);
  sl_mem_free(nodes);
}

/* Stable sort by prepare start, then greedy lanes; returns the lane count. */
static size_t graph_lanes(graph_inst *gi, size_t ng) {
  for (size_t i = 1; i < ng; i++) {
    graph_inst v = gi[i];
    size_t j = i;
    while (j > 0 && gi[j - 1].prep_start > v.prep_start) {
      gi[j] = gi[j - 1];
      j--;
    }
    gi[j] = v;
  }
  double *lane_end = sl_mem_calloc(ng, sizeof *lane_end);
  size_t nlanes = 0;
  for (size_t k = 0; k < ng; k++) {
    size_t l = 0;
    while (l < nlanes && !(lane_end[l] <= gi[k].prep_start)) l++;
    if (l == nlanes) nlanes++;
    lane_end[l] = gi[k].exec_end;
    gi[k].lane = (int64_t)l;
  }
  sl_mem_free(lane_end);
  return nlanes;
}

static void graph_draw(sl_ctx *x, const graph_inst *gi, size_t ng, size_t nlanes) {
  const sl_view *v = sl_rules_view(x->r, SL_VIEW_GRAPH);
  sl_sink_process_name(x->s, x->pid_graph, v->name);
  sl_sink_process_sort(x->s, x->pid_graph, v->sort);
  for (size_t l = 0; l < nlanes; l++) {
    char nm[32];
    snprintf(nm, sizeof nm, "Graph_%zu", l);
    sl_sink_thread_name(x->s, x->pid_graph, x->graph_base + (int64_t)l, nm);
  }
  for (size_t k = 0; k < ng; k++) {
    const graph_inst *g = &gi[k];
    char td[32], name[96];
    snprintf(name, sizeof name, "GraphExecution(%s, %lld visible nodes)", sl_tdisp(td, g->outer),
             (long long)g->nvisible);
    sl_arg a[] = {
        SL_ARG_U("outer_task_id", g->outer),
        SL_ARG_I("visible_node_count", g->nvisible),
        SL_ARG_I("visible_node_index_min", g->idx_min),
        SL_ARG_I("visible_node_index_max", g->idx_max),
        SL_ARG_I("prepare_slice_count", g->nprep),
        SL_ARG_D("prepare_duration_us", arg_us(x, g->prep_dur)),
        SL_ARG_D("execution_start_us", arg_at_us(x, g->exec_start)),
        SL_ARG_D("execution_duration_us", arg_us(x, g->exec_end - g->exec_start)),
        SL_ARG_S("synthetic_id_layout", "ring1:(outer_task_id << 10) | node_index"),
    };
    sl_slice ev = {.pid = x->pid_graph, .tid = x->graph_base + g->lane, .ts = g->prep_start,
                   .dur = sl_slice_dur(x, g->prep_start, g->exec_end), .name = name, .cat = "graph_execution",
                   .cname = "rail_animation", .args = a, .nargs = sizeof a / sizeof *a};
    sl_sink_slice(x->s, &ev);
  }
}

/* The graph view: one slice per graph instance (prepare start to execution end) on
** greedy lanes; instances none of whose nodes left a record are not drawn. */
static void emit_graph(sl_ctx *x) {
  size_t ng = 0;
  graph_inst *gi = graph_collect(x->c, &ng);
  if (ng) graph_bind(x->c, gi, ng);
  size_t nkept = 0;
  for (size_t k = 0; k < ng; k++)
    if (gi[k].has_rows) gi[nkept++] = gi[k];
  if (nkept) graph_draw(x, gi, nkept, graph_lanes(gi, nkept));
  sl_mem_free(gi);
}

/* ---- Worker View (pid 4) ---------------------------------------------------------------- */

/* "{n}: [t1, t2]" into a growable buffer */
typedef SL_VEC(char) sbuf;

static void sb_add(sbuf *b, const char *s) {
  size_t l = strlen(s);
  sl_vec_reserve(b, b->n + l + 1);
  memcpy(b->v + b->n, s, l + 1);
  b->n += l;
}

static const char *hint_list(sbuf *b, const uint64_t *ids, size_t n) {
  char tmp[48];
  b->n = 0;
  snprintf(tmp, sizeof tmp, "%zu: [", n);
  sb_add(b, tmp);
  for (size_t i = 0; i < n; i++) {
    if (i) sb_add(b, ", ");
    sb_add(b, sl_tdisp(tmp, ids[i]));
  }
  sb_add(b, "]");
  return b->v;
}

static void emit_worker_meta(sl_ctx *x) {
  const sl_capture *c = x->c;
  const sl_view *w = sl_rules_view(x->r, SL_VIEW_WORKER);
  sl_sink_process_name(x->s, x->pid_worker, w->name ? w->name : sl_view_table[SL_VIEW_WORKER_VIEW].process_name);
  sl_sink_process_sort(x->s, x->pid_worker, w->sort);
  if (x->has_aicpu_data) {
    const sl_view *v = sl_rules_view(x->r, SL_VIEW_SCHEDVIEW);
    sl_sink_process_name(x->s, x->pid_sv, v->name);
    sl_sink_process_sort(x->s, x->pid_sv, v->sort);
  }
  /* core lanes, ascending core id, typed by the first task on the core */
  sl_str *first_type = sl_mem_calloc(x->ncores, sizeof *first_type);
  uint8_t *used = sl_mem_calloc(x->ncores, 1);
  for (size_t i = 0; i < c->n_tasks; i++) {
    uint32_t core = c->tasks[i].core_id;
    if (!used[core]) {
      used[core] = 1;
      first_type[core] = c->tasks[i].core_type;
    }
  }
  for (uint32_t core = 0; core < x->ncores; core++) {
    if (!used[core]) continue;
    const char *ty = sl_str_get(c, first_type[core]);
    x->core_lane_name[core] = sl_rules_worker_lane(x->r, core, ty ? ty : "unknown");
    if (x->core_lane_name[core])
      sl_sink_thread_name(x->s, x->pid_worker, sl_core_tid(x, core), x->core_lane_name[core]);
  }
  size_t nlanes = x->nthreads + c->n_orch_threads;
  for (size_t i = 0; i < nlanes; i++) {
    const char *nm = sl_rules_lane(x->r, "aicpu_lane", (int64_t)i);
    if (nm) sl_sink_thread_name(x->s, x->pid_worker, x->aicpu_base + (int64_t)i, nm);
  }
  sl_mem_free(first_type);
  sl_mem_free(used);
}

static void emit_worker_bars(sl_ctx *x) {
  const sl_capture *c = x->c;
  sbuf fan = {0}, fin = {0};
  for (size_t g = 0; g < x->ngroups; g++) {
    const sl_group *gr = &x->groups[g];
    size_t nsucc = 0, npred = 0;
    const uint64_t *succ = x->d ? sl_deps_succs(x->d, gr->task_id, &nsucc) : NULL;
    const uint64_t *pred = x->d ? sl_deps_preds(x->d, gr->task_id, &npred) : NULL;
    const char *fanout = hint_list(&fan, succ, nsucc);
    const char *fanin = hint_list(&fin, pred, npred);
    for (uint32_t k = 0; k < gr->count; k++) {
      size_t i = gr->first + k;
      const sl_task *t = &c->tasks[i];
      x->row_eid[i] = x->event_id++;
      if (!x->core_lane_name[t->core_id]) continue; /* hidden lane: keep ids stable */
      char td[32], hint[160];
      snprintf(hint, sizeof hint, "Task:%s, FuncId:%lld, CoreId:%u", sl_tdisp(td, t->task_id),
               (long long)t->func_id, t->core_id);
      char *label = sl_ctx_task_label(x, t->func_id, t->task_id, gr->spmd);
      double ts = t->receive_us;
      double dur = sl_slice_dur(x, ts, t->end_us);
      sl_arg a[7 + SL_PH_MAX_EXTRA] = {
          SL_ARG_S("event-hint", hint),
          SL_ARG_S("fanout-hint", fanout),
          SL_ARG_S("fanin-hint", fanin),
          SL_ARG_D("duration-us", arg_us(x, dur)),
          SL_ARG_D("kernel-duration-us", arg_us(x, sl_task_duration_us(t))),
          SL_ARG_D("local_setup_us", arg_us(x, sl_task_local_setup_us(t))),
          SL_ARG_U("taskId", t->task_id),
      };
      sl_slice ev = {.pid = x->pid_worker, .tid = sl_core_tid(x, t->core_id), .ts = ts,
                     .dur = dur, .name = label, .cat = "event", .has_id = 1,
                     .id = x->row_eid[i], .args = a, .nargs = extra_args(x, task_extras(t), a, 7)};
      sl_sink_slice(x->s, &ev);
      sl_mem_free(label);
    }
    /* (task, core) -> last event id on that core */
    for (uint32_t k = 0; k < gr->count; k++) {
      size_t i = gr->first + k;
      x->row_bind[i] = x->row_eid[i];
      for (uint32_t j = k + 1; j < gr->count; j++)
        if (c->tasks[gr->first + j].core_id == c->tasks[i].core_id)
          x->row_bind[i] = x->row_eid[gr->first + j];
    }
  }
  sl_vec_free(&fan);
  sl_vec_free(&fin);
}

/* ---- Scheduler View (pid 3) -------------------------------------------------------------- */

typedef struct sv_item {
  double dispatch;
  size_t row;
} sv_item;

static int sv_cmp(const void *a, const void *b) {
  const sv_item *p = a, *q = b;
  if (p->dispatch != q->dispatch) return p->dispatch < q->dispatch ? -1 : 1;
  return p->row < q->row ? -1 : p->row > q->row; /* stable */
}

static void emit_sched_view(sl_ctx *x) {
  const sl_capture *c = x->c;
  size_t n = c->n_tasks;
  /* bucket rows per core, then sort each bucket by dispatch */
  size_t *off = sl_mem_calloc((size_t)x->ncores + 1, sizeof *off);
  sv_item *items = sl_mem_calloc(n, sizeof *items);
  size_t *fill = sl_mem_calloc((size_t)x->ncores + 1, sizeof *fill);
  uint8_t *core_seen = sl_mem_calloc(x->ncores, 1);
  for (size_t i = 0; i < n; i++) {
    const sl_task *t = &c->tasks[i];
    core_seen[t->core_id] = 1;
    x->row_sv_tid[i] = sl_core_tid(x, t->core_id);
    if (t->dispatch_us >= 0 && t->finish_us > 0) off[t->core_id + 1]++;
  }
  for (uint32_t k = 0; k < x->ncores; k++) off[k + 1] += off[k];
  for (size_t i = 0; i < n; i++) {
    const sl_task *t = &c->tasks[i];
    if (t->dispatch_us >= 0 && t->finish_us > 0)
      items[off[t->core_id] + fill[t->core_id]++] = (sv_item){t->dispatch_us, i};
  }
  SL_VEC(double) lane_fin = {0}; /* per sub-lane of the core: its last bar's finish */
  for (uint32_t core = 0; core < x->ncores; core++) {
    if (!core_seen[core]) continue;
    size_t a = off[core], b = off[core + 1];
    qsort(items + a, b - a, sizeof *items, sv_cmp);
    sl_vec_clear(&lane_fin);
    sl_vec_push(&lane_fin, 0.0);
    int used0 = 0, used1 = 0;
    for (size_t k = a; k < b; k++) {
      const sl_task *t = &c->tasks[items[k].row];
      size_t l = 0;
      while (l < lane_fin.n && !(lane_fin.v[l] <= t->dispatch_us)) l++;
      if (l == lane_fin.n) sl_vec_push(&lane_fin, 0.0);
      lane_fin.v[l] = t->finish_us;
      x->row_sv_tid[items[k].row] = sl_core_tid(x, core) + (int64_t)l;
      if (l == 0) used0 = 1;
      if (l == 1) used1 = 1;
    }
    if (!x->has_aicpu_data || !x->core_lane_name[core]) continue;
    const char *ty = b > a ? sl_str_get(c, c->tasks[items[a].row].core_type) : NULL;
    const char *name = sl_rules_worker_lane(x->r, core, ty ? ty : "unknown");
    if (!name) continue;
    if (used0 || b == a) sl_sink_thread_name(x->s, x->pid_sv, sl_core_tid(x, core), name);
    if (used1) sl_sink_thread_name(x->s, x->pid_sv, sl_core_tid(x, core) + 1, name);
  }
  sl_vec_free(&lane_fin);
  for (size_t g = 0; x->has_aicpu_data && g < x->ngroups; g++) {
    const sl_group *gr = &x->groups[g];
    for (uint32_t k = 0; k < gr->count; k++) {
      size_t i = gr->first + k;
      const sl_task *t = &c->tasks[i];
      if (!(t->dispatch_us >= 0 && t->finish_us > 0)) continue;
      x->row_sv_eid[i] = x->event_id++;
      if (!x->core_lane_name[t->core_id]) continue;
      char td[32], hint[160];
      snprintf(hint, sizeof hint, "Task:%s, FuncId:%lld, CoreId:%u", sl_tdisp(td, t->task_id),
               (long long)t->func_id, t->core_id);
      char *label = sl_ctx_task_label(x, t->func_id, t->task_id, gr->spmd);
      double dur = sl_slice_dur(x, t->dispatch_us, t->finish_us);
      sl_arg a[5 + SL_PH_MAX_EXTRA] = {
          SL_ARG_S("event-hint", hint),
          SL_ARG_D("dispatch-time-us", arg_at_us(x, t->dispatch_us)),
          SL_ARG_D("finish-time-us", arg_at_us(x, t->finish_us)),
          SL_ARG_D("aicpu-duration-us", arg_us(x, dur)),
          SL_ARG_U("taskId", t->task_id),
      };
      sl_slice ev = {.pid = x->pid_sv, .tid = x->row_sv_tid[i], .ts = t->dispatch_us,
                     .dur = dur, .name = label, .cat = "event", .has_id = 1,
                     .id = x->row_sv_eid[i], .args = a, .nargs = extra_args(x, task_extras(t), a, 5)};
      sl_sink_slice(x->s, &ev);
      sl_mem_free(label);
    }
  }
  /* freed only after the bars: freeing them earlier raises the proto sink's peak RSS */
  sl_mem_free(off);
  sl_mem_free(items);
  sl_mem_free(fill);
  sl_mem_free(core_seen);
}

/* ---- AICPU Scheduler (pid 2) and its Worker View markers ----------------------------------- */

/* Rows attributed to each complete record (its "finish rows"). */
static uint32_t *attribute_finishes(sl_ctx *x) {
  const sl_capture *c = x->c;
  uint32_t *attr = sl_mem_calloc(c->n_phases, sizeof *attr);
  if (c->n_core_to_thread == 0) return attr;
  for (size_t i = 0; i < c->n_tasks; i++) {
    const sl_task *t = &c->tasks[i];
    if (t->finish_us < 0 || t->core_id >= c->n_core_to_thread) continue;
    long ci = sl_ctx_complete_lookup(x, c->core_to_thread[t->core_id], t->finish_us);
    if (ci >= 0) attr[ci]++;
  }
  return attr;
}

typedef struct custom_lane {
  const char *name;
  int64_t tid;
  int per_thread;
} custom_lane;
typedef SL_VEC(custom_lane) custom_lanes; /* few: searched in order */

/* The tid of a lane a phase is routed to: a schema lane per scheduler thread (named by its
** pattern), or a lane the rules named, numbered from the schema's "custom" lane base. */
static int64_t custom_lane_tid(sl_ctx *x, custom_lanes *lanes, const sl_phase_style *st,
                               int64_t thread) {
  int64_t want = st->per_thread ? st->tid_base + thread * st->tid_stride : -1;
  for (size_t i = 0; i < lanes->n; i++)
    if (st->per_thread ? lanes->v[i].tid == want : !strcmp(lanes->v[i].name, st->lane))
      return lanes->v[i].tid;
  size_t named = 0;
  for (size_t i = 0; i < lanes->n; i++) named += !lanes->v[i].per_thread;
  int64_t tid = st->per_thread ? want : st->tid_base + (int64_t)named;
  const char *name = st->per_thread ? sl_rules_lane_name(x->r, st->lane, thread) : st->lane;
  sl_vec_push(lanes, ((custom_lane){st->lane, tid, st->per_thread}));
  if (name) sl_sink_thread_name(x->s, x->pid_sched, tid, name);
  return tid;
}

static void emit_marker(sl_ctx *x, const sl_phase_rec *p, const char *phase, int64_t thread,
                        const sl_phase_style *st) {
  char td[32], namebuf[64];
  int has_id = (p->flags & SL_PH_HAS_TASK_ID) != 0;
  double dur = sl_slice_dur(x, p->start_us, p->end_us);
  if (!(dur >= 0.02)) dur = 0.02; /* max(end - start, 0.02) */
  int64_t tid = x->aicpu_base + thread;
  uint64_t eid = x->event_id++;
  char *label = NULL;
  const char *name;
  sl_arg a[4];
  size_t na = 0;
  a[na++] = SL_ARG_I("loop_iter", sl_phase_loop_iter(x->c, p));
  a[na++] = has_id ? SL_ARG_U("task_id", p->task_id) : SL_ARG_NIL("task_id");
  if (p->phase_id == SL_PHASE_PREDICATED_SKIP) {
    int64_t fid = -1;
    int spmd = 0;
    if (has_id && x->d) {
      fid = sl_deps_first_func_id(x->d, p->task_id);
      spmd = sl_deps_block_num(x->d, p->task_id) > 1;
      const sl_group *g = sl_ctx_group(x, p->task_id);
      if (g) spmd = g->spmd;
    }
    if (has_id) {
      name = label = sl_ctx_task_label(x, fid, p->task_id, spmd);
    } else {
      name = "unknown";
    }
    a[na++] = SL_ARG_S("event-hint", name);
    a[na++] = SL_ARG_B("predicated_pass", 0);
  } else {
    const char *stem = st->display;
    if (has_id)
      snprintf(namebuf, sizeof namebuf, "%s(%s)", stem, sl_tdisp(td, p->task_id));
    else
      snprintf(namebuf, sizeof namebuf, "%s(unknown)", stem);
    name = namebuf;
    a[na++] = SL_ARG_S("event-hint", name);
    a[na++] = SL_ARG_S("phase", phase);
  }
  sl_slice ev = {.pid = x->pid_worker, .tid = tid, .ts = p->start_us, .dur = dur, .name = name,
                 .cat = "event", .has_id = 1, .id = eid, .args = a, .nargs = na};
  sl_sink_slice(x->s, &ev);
  if (has_id) add_anchor(x, p->task_id, p->start_us, p->start_us + dur, tid, eid);
  sl_mem_free(label);
}

static void emit_scheduler(sl_ctx *x) {
  const sl_capture *c = x->c;
  if (c->n_streams == 0) return;
  uint32_t *attr = attribute_finishes(x);
  x->phase_main = sl_mem_calloc(c->n_phases, 1);
  const sl_view *v = sl_rules_view(x->r, SL_VIEW_SCHED);
  sl_sink_process_name(x->s, x->pid_sched, v->name);
  sl_sink_process_sort(x->s, x->pid_sched, v->sort);
  custom_lanes lanes = {0};
  const sl_phase_style **style_of = sl_mem_calloc(c->strings.n, sizeof *style_of); /* by sl_str: ids < n */
  for (size_t t = 0; t < c->n_streams && !x->failed; t++) {
    const sl_sched_stream *stm = &c->streams[t];
    const char *prod = sl_str_get(c, stm->producer);
    const char *rt = sl_str_get(c, stm->runtime);
    const char *plat = sl_str_get(c, stm->platform);
    int hbg_core = prod && !strcmp(prod, "aicore");
    int64_t main_tid = hbg_core ? x->hbg_base + (stm->physical_core_id >= 0 ? stm->physical_core_id
                                                                           : (int64_t)t)
                                : sl_sched_tid(x, (int64_t)t);
    const char *lane_name =
        hbg_core ? sl_rules_lane(x->r, "hbg_lane",
                                 stm->physical_core_id >= 0 ? stm->physical_core_id : (int64_t)t)
                 : sl_rules_lane(x->r, "sched_lane", (int64_t)t);
    if (lane_name) sl_sink_thread_name(x->s, x->pid_sched, main_tid, lane_name);
    /* phase style per interned phase name of this stream: Lua is asked once */
    memset(style_of, 0, c->strings.n * sizeof *style_of);
    int has_sub = 0;
    for (size_t i = stm->first; i < stm->first + stm->count; i++) {
      sl_str id = c->phases[i].phase;
      if (!style_of[id])
        style_of[id] = sl_rules_phase(x->r, str_or(c, id, "unknown"), prod, rt, plat);
      if (style_of[id]->route == SL_ROUTE_SUB) has_sub = 1;
    }
    if (has_sub && lane_name) sl_sink_thread_name(x->s, x->pid_sched, main_tid + 1, lane_name);
    int64_t marker_thread = stm->scheduler_id >= 0 && stm->has_meta ? stm->scheduler_id : (int64_t)t;
    for (size_t i = stm->first; i < stm->first + stm->count && !x->failed; i++) {
      const sl_phase_rec *p = &c->phases[i];
      const char *ph = str_or(c, p->phase, "unknown");
      const sl_phase_style *st = style_of[p->phase];
      if (sl_rules_failed(x->r)) {
        x->failed = 1;
        break;
      }
      if (st->route == SL_ROUTE_HIDE) continue;
      if (st->route == SL_ROUTE_MARKER) {
        emit_marker(x, p, ph, marker_thread, st);
        continue;
      }
      int64_t tid = main_tid;
      if (st->route == SL_ROUTE_SCHED && !hbg_core) x->phase_main[i] = 1;
      if (st->route == SL_ROUTE_SUB) tid = main_tid + 1;
      if (st->route == SL_ROUTE_LANE) tid = custom_lane_tid(x, &lanes, st, (int64_t)t);
      int64_t tp = sl_phase_tasks_processed(c, p), sh_start[3], sh_end[3];
      int is_complete = p->phase_id == SL_PHASE_COMPLETE && !hbg_core;
      if (is_complete && !(p->flags & SL_PH_HAS_TASKS_PROCESSED)) tp = attr[i];
      char name[128], td[32];
      if (st->label == SL_LABEL_TASK && (p->flags & SL_PH_HAS_TASK_ID))
        snprintf(name, sizeof name, "%s(%s)", st->display, sl_tdisp(td, p->task_id));
      else if (st->label == SL_LABEL_TASK || st->label == SL_LABEL_NAME)
        snprintf(name, sizeof name, "%s", st->display);
      else
        snprintf(name, sizeof name, "%s(%lld)", st->display, (long long)tp);
      sl_arg a[8 + SL_PH_MAX_EXTRA];
      size_t na = 0;
      a[na++] = SL_ARG_S("phase", ph);
      a[na++] = SL_ARG_I("loop_iter", sl_phase_loop_iter(c, p));
      a[na++] = SL_ARG_I("tasks_processed", tp);
      sl_phase_shared(c, p, 0, sh_start);
      sl_phase_shared(c, p, 1, sh_end);
      if (p->flags & SL_PH_HAS_SHARED) {
        a[na++] = SL_ARG_L("shared_at_start (aic,aiv,mix)", sh_start, 3);
        a[na++] = SL_ARG_L("shared_at_end (aic,aiv,mix)", sh_end, 3);
      }
      if (is_complete) {
        if (p->flags & SL_PH_HAS_TASKS_PROCESSED) {
          a[na++] = SL_ARG_I("finishes_processed", sl_phase_tasks_processed(c, p));
          a[na++] = SL_ARG_I("finish_rows_attributed", attr[i]);
        } else {
          a[na++] = SL_ARG_I("finishes_processed", attr[i]);
        }
      }
      if (hbg_core && (p->flags & SL_PH_HAS_TASK_ID)) a[na++] = SL_ARG_U("task_id", p->task_id);
      na = extra_args(x, sl_phase_extra(p), a, na);
      sl_slice ev = {.pid = x->pid_sched, .tid = tid, .ts = p->start_us,
                     .dur = sl_slice_dur(x, p->start_us, p->end_us), .name = name, .cat = "scheduler",
                     .cname = st->cname, .args = a, .nargs = na};
      sl_sink_slice(x->s, &ev);
      if ((p->flags & SL_PH_HAS_SHARED) && (p->phase_id == SL_PHASE_COMPLETE || p->phase_id == SL_PHASE_DISPATCH)) {
        sl_arg q[] = {SL_ARG_I("AIC", sh_end[0]), SL_ARG_I("AIV", sh_end[1]), SL_ARG_I("MIX", sh_end[2])};
        sl_counter ce = {.pid = x->pid_sched, .tid = x->queue_tid, .ts = p->end_us,
                         .name = LANE_KEY(SHARED_READY_QUEUE), .cat = "queue", .args = q, .nargs = 3};
        sl_sink_counter(x->s, &ce);
      }
    }
  }
  const sl_lane_info *ql = &sl_lane_table[SL_LANE_SHARED_READY_QUEUE];
  sl_sink_thread_name(x->s, x->pid_sched, x->queue_tid, ql->name);
  sl_sink_thread_sort(x->s, x->pid_sched, x->queue_tid, ql->sort_index);
  sl_vec_free(&lanes);
  sl_mem_free(attr);
  sl_mem_free(style_of);
}

/* ---- Orchestrator (pid 1) and alloc bars ---------------------------------------------------- */

static int cmp_u64(const void *a, const void *b) {
  uint64_t p = *(const uint64_t *)a, q = *(const uint64_t *)b;
  return p < q ? -1 : p > q;
}

/* Sorted ids of marker records of a phase, for alloc classification. */
static uint64_t *marker_ids(const sl_capture *c, int phase_id, size_t *n) {
  uint64_t *ids = sl_mem_array(NULL, c->n_phases + 1, sizeof *ids);
  *n = 0;
  for (size_t i = 0; i < c->n_phases; i++) {
    const sl_phase_rec *p = &c->phases[i];
    if ((p->flags & SL_PH_HAS_TASK_ID) && p->phase_id == phase_id) ids[(*n)++] = p->task_id;
  }
  if (*n) qsort(ids, *n, sizeof *ids, cmp_u64);
  return ids;
}

/* ids sorted ascending */
static int id_in(const uint64_t *ids, size_t n, uint64_t id) {
  return n && bsearch(&id, ids, n, sizeof *ids, cmp_u64) != NULL;
}

static void emit_orchestrator(sl_ctx *x) {
  const sl_capture *c = x->c;
  if (c->n_orch == 0) return;
  const char *source = sl_str_get(c, c->orchestrator_source);
  const char *pname = sl_rules_orchestrator_name(
      x->r, source, x->m ? x->m->orchestrator_name : NULL);
  sl_sink_process_name(x->s, x->pid_orch, pname ? pname : sl_view_table[SL_VIEW_ORCHESTRATOR].process_name);
  sl_sink_process_sort(x->s, x->pid_orch, sl_rules_view(x->r, SL_VIEW_ORCH)->sort);
  for (size_t i = 0; i < c->n_orch_threads; i++) {
    const char *nm = sl_rules_orch_lane(x->r, (int64_t)i, source);
    if (nm) sl_sink_thread_name(x->s, x->pid_orch, x->orch_base + (int64_t)i, nm);
  }
  size_t ndummy = 0, npred = 0;
  uint64_t *dummies = marker_ids(c, SL_PHASE_DUMMY_TASK, &ndummy);
  uint64_t *preds = marker_ids(c, SL_PHASE_PREDICATED_SKIP, &npred);
  sl_map warned = {0}; /* dummy ids already warned about */
  for (size_t th = 0; th < c->n_orch_threads; th++) {
    const sl_orch_thread *ot = &c->orch_threads[th];
    int64_t tid = x->orch_base + (int64_t)th;
    for (size_t i = ot->first; i < ot->first + ot->count; i++) {
      const sl_orch_rec *o = &c->orch[i];
      if (o->flags & SL_ORCH_RETIRED) continue; /* a retired kind: read, never drawn */
      const char *ph = str_or(c, o->phase, SL_ORCH_PHASE_DEFAULT);
      int has_id = (o->flags & SL_ORCH_HAS_TASK_ID) && o->task_id_signed >= 0;
      const char *stem = sl_rules_orch_display(x->r, ph);
      if (!stem) stem = !strncmp(ph, "orch_", 5) ? ph + 5 : ph; /* a kind the schema lacks */
      char name[96], td[32];
      if (has_id)
        snprintf(name, sizeof name, "%s(%s)", stem, sl_tdisp(td, o->task_id));
      else
        snprintf(name, sizeof name, "%s(%lld)", stem, (long long)o->submit_idx);
      sl_arg a[3 + SL_PH_MAX_EXTRA] = {SL_ARG_S("phase", ph), SL_ARG_I("submit_idx", o->submit_idx),
                                       (o->flags & SL_ORCH_HAS_TASK_ID) ? SL_ARG_I("task_id", o->task_id_signed)
                                                                        : SL_ARG_I("task_id", -1)};
      if ((o->flags & SL_ORCH_HAS_TASK_ID) && o->task_id_signed >= 0)
        a[2] = SL_ARG_U("task_id", o->task_id);
      sl_slice ev = {.pid = x->pid_orch, .tid = tid, .ts = o->start_us,
                     .dur = sl_slice_dur(x, o->start_us, o->end_us), .name = name, .cat = "orchestrator",
                     .cname = sl_rules_orch_color(x->r, ph), .args = a, .nargs = extra_args(x, o->extra, a, 3)};
      sl_sink_slice(x->s, &ev);
      if (strcmp(ph, SL_ORCH_PHASE_DEFAULT) != 0 || !has_id) continue;
      /* alloc classification */
      uint64_t id = o->task_id;
      int regular = 0, dummy = 0;
      const int64_t *k = x->d ? sl_deps_kernel_ids(x->d, id) : NULL;
      if (k) {
        dummy = k[0] < 0 && k[1] < 0 && k[2] < 0;
        regular = !dummy;
        int fresh = 0;
        if (dummy && !id_in(dummies, ndummy, id)) sl_map_u64_ref(&warned, id, &fresh);
        if (fresh)
          sl_ctx_warn(x, x->c->path, "dummy(%s) has no dummy_task scheduler record; its Worker View bar "
                      "cannot be rendered", sl_tdisp(td, id));
      } else {
        regular = sl_ctx_group(x, id) != NULL;
        dummy = id_in(dummies, ndummy, id);
      }
      int predicated = id_in(preds, npred, id);
      if (regular || dummy || predicated) continue;
      double dur = sl_slice_dur(x, o->start_us, o->end_us);
      if (!(dur >= 0.02)) dur = 0.02;
      int64_t atid = x->aicpu_base + (int64_t)x->nthreads + (int64_t)th;
      uint64_t eid = x->event_id++;
      char an[64];
      snprintf(an, sizeof an, "alloc(%s)", sl_tdisp(td, id));
      sl_arg aa[] = {SL_ARG_S("phase", "alloc"), SL_ARG_U("task_id", id),
                     SL_ARG_S("event-hint", an)};
      sl_slice ae = {.pid = x->pid_worker, .tid = atid, .ts = o->start_us, .dur = dur,
                     .name = an, .cat = "event", .cname = "olive", .has_id = 1, .id = eid,
                     .args = aa, .nargs = 3};
      sl_sink_slice(x->s, &ae);
      add_anchor(x, id, o->start_us, o->start_us + dur, atid, eid);
    }
  }
  sl_map_free(&warned);
  sl_mem_free(dummies);
  sl_mem_free(preds);
}

/* ---- AICPU Lifecycle (pid 6; A5 HBG) --------------------------------------------- */

static void emit_lifecycle(sl_ctx *x) {
  const sl_capture *c = x->c;
  if (c->n_lifecycle == 0) return;
  const sl_view *v = sl_rules_view(x->r, SL_VIEW_LIFECYCLE);
  sl_sink_process_name(x->s, x->pid_life, v->name);
  sl_sink_process_sort(x->s, x->pid_life, v->sort);
  int nspans = sl_rules_lifecycle_count(x->r);
  for (size_t i = 0; i < c->n_lifecycle; i++) {
    const sl_lifecycle_rec *lc = &c->lifecycle[i];
    int64_t tid = x->life_base + lc->aicpu_thread_id;
    const char *nm = sl_rules_lane(x->r, "lifecycle_lane", lc->aicpu_thread_id);
    if (nm) sl_sink_thread_name(x->s, x->pid_life, tid, nm);
    for (int s = 0; s < nspans; s++) {
      const char *label, *sk, *ek;
      if (!sl_rules_lifecycle_span(x->r, s, &label, &sk, &ek)) continue;
      int si = -1, ei = -1;
      for (int f = 0; f < SL_LC_FIELD_COUNT; f++) {
        if (!strcmp(sl_lifecycle_key(f), sk)) si = f;
        if (!strcmp(sl_lifecycle_key(f), ek)) ei = f;
      }
      if (si < 0 || ei < 0) continue;
      if (!(lc->present & (1u << si)) || !(lc->present & (1u << ei))) continue;
      if (lc->us[si] <= 0 && lc->us[ei] <= 0) continue;
      sl_arg a[1 + SL_PH_MAX_EXTRA] = {SL_ARG_I("aicpu_thread_id", lc->aicpu_thread_id)};
      sl_slice ev = {.pid = x->pid_life, .tid = tid, .ts = lc->us[si],
                     .dur = sl_slice_dur(x, lc->us[si], lc->us[ei]), .name = label, .cat = "lifecycle",
                     .cname = "generic_work", .args = a, .nargs = extra_args(x, lc->extra, a, 1)};
      sl_sink_slice(x->s, &ev);
    }
  }
}

/* ---- entry ------------------------------------------------------------------------------------ */

int sl_convert_emit(const sl_capture *c, const sl_deps *d, const sl_namemap *m, sl_rules *r,
                    sl_trace_sink *sink, const sl_convert_opts *o, sl_convert_result *res) {
  sl_ctx x = {.c = c, .d = d, .m = m, .r = r, .s = sink, .o = o, .res = res};
  memset(res, 0, sizeof *res);
  /* flow ends placed for Chrome DevTools too (flow_place.h), and the time axis
  ** starting at SL_CONVERT_ORIGIN_US (ts_shift.h), unless asked for the reference's
  ** bytes. Host mode keeps its axis: ts 0 is the host origin its metadata names. */
  if (!o->reference_flows) {
    if (!c->host_mode) {
      x.shift = sl_ts_shift_new(sink, SL_CONVERT_ORIGIN_US);
      x.origin_us = SL_CONVERT_ORIGIN_US;
    }
    x.place = sl_flow_place_new(x.shift ? x.shift : sink);
    x.s = sl_flow_place_sink(x.place);
  }
  prepare(&x); /* the lanes' tids: from the schema's lane table, through the rules */
  map_cores(&x);
  emit_graph(&x);
  emit_worker_meta(&x);
  emit_worker_bars(&x);
  emit_sched_view(&x);
  emit_scheduler(&x);
  if (!x.failed) sl_emit_host_prepare(&x);
  if (!x.failed) emit_orchestrator(&x);
  if (!x.failed) emit_lifecycle(&x);
  if (!x.failed) sl_emit_task_slots(&x);
  if (!x.failed) sl_convert_emit_loss(x.s, c, x.pid_worker);
  if (!x.failed) {
    if (x.nanchors) qsort(x.anchors, x.nanchors, sizeof *x.anchors, anchor_cmp);
    sl_emit_flows(&x);
  }
  res->total_events = sink->nevents;
  res->flow_pairs = x.flow_id;
  if (!x.failed && o->overhead) sl_emit_overhead(&x);
  if (!x.failed && c->host_mode) { /* host mode: how the two timelines share one axis */
    char *meta = sl_host_timeline_json(c);
    sl_sink_metadata_json(sink, meta);
    sl_mem_free(meta);
  }
  if (sl_rules_failed(r)) x.failed = 1;
  sl_flow_place_free(x.place);
  sl_sink_destroy(x.shift);
  sl_mem_free(x.row_eid);
  sl_mem_free(x.row_bind);
  sl_mem_free(x.row_sv_tid);
  sl_mem_free(x.row_sv_eid);
  sl_mem_free(x.groups);
  sl_mem_free(x.core_lane_name);
  sl_mem_free(x.core_thread);
  sl_mem_free(x.comp_off);
  sl_mem_free(x.comp_idx);
  sl_mem_free(x.anchors);
  sl_mem_free(x.phase_main);
  sl_mem_free(x.cover_off);
  sl_mem_free(x.cover_start);
  sl_mem_free(x.cover_maxend);
  return x.failed ? -1 : 0;
}
