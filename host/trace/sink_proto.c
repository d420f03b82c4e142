/*
** sink_proto.c — Perfetto protobuf backend of sl_trace_sink (--format proto).
**
** The JSON backend can stream because Chrome JSON has complete ("X") events and
** flows that name their slices later. Perfetto's TrackEvent has neither: a slice
** is BEGIN + END on one track, and a flow id must sit on the slice's own event,
** while the engine emits flows after all slices. So this backend keeps a compact
** record per slice in memory (its args, packed to protobuf bytes, wait in an
** unnamed temporary file), and writes the file in finish():
**
**   1. packet "state cleared" (sequence 1, flags CLEARED|NEEDS) interning every
**      category and debug-annotation name; event names are interned on first use;
**   2. a process track per pid and a thread track per (pid, tid) (ProcessDescriptor
**      / ThreadDescriptor), counter tracks "<name> <key>" under the process
**      (sibling_order_rank = the JSON's process / thread sort index);
**   3. per lane, slices sorted by (start, longer first, arrival): BEGIN when a
**      slice starts, END when the next slice starts at or after its end, so at
**      equal timestamps END comes before the next BEGIN and a parent's BEGIN before
**      its child's. A slice that overlaps without nesting goes to an overflow
**      track under the thread track (where Perfetto's JSON importer spills it);
**   4. flows: both ends carry the same flow id in flow_ids on the BEGIN of the
**      slice they bind to, found by position exactly as Perfetto's JSON importer
**      does (it ignores bind_id on 's'/'f'), so both files draw the same arrows;
**   5. every BEGIN / END / counter packet of every track merged into ONE time
**      order: trace_processor sorts by ts keeping file order for ties and links
**      a flow from the first slice carrying its id to the second, so at equal ts
**      a flow's source BEGIN is written before its sink's (order_events).
**
** Timestamps: ns = llround(us * 1000), as Perfetto's JSON importer converts.
** Dropped relative to the JSON: slice "cname", the slice "id" key (it only
** addresses flows), flow-event extras (input/output_task_count), the top-level
** "metadata" object, and flow names (a TrackEvent flow id has no name field).
*/
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "sl_intern.h"
#include "sl_map.h"
#include "sl_mem.h"
#include "sl_pftrace.h"
#include "sl_base.h"
#include "sl_hash.h"
#include "sl_trace_sink.h"
#include "sl_vec.h"

#define SEQ_ID 1u

typedef struct pproc {
  int64_t pid;
  uint64_t uuid;
  uint32_t name; /* strtab id + 1, 0 = none */
  int has_rank;
  int32_t rank;  /* process_sort_index -> sibling_order_rank */
} pproc;

typedef struct plane {
  int64_t pid, tid;
  uint32_t proc;
  uint64_t uuid;
  uint32_t name;      /* strtab id + 1, 0 = none */
  int has_rank;
  int32_t rank;       /* thread_sort_index -> sibling_order_rank */
  uint64_t *overflow; /* uuids of overflow tracks 1.. */
  size_t noverflow, overflow_cap;
} plane;

/* 48 bytes a slice; arrival order is the index. */
typedef struct pslice {
  uint32_t lane;
  uint32_t name; /* event-name iid */
  int64_t start, end;
  uint64_t body_off; /* packed category_iids + debug_annotations */
  uint32_t body_len;
  uint32_t nflows;
  uint32_t flow_first; /* into flow_ids after resolution */
} pslice;

/* 16 bytes an end (a 1M-task trace has ~20M), kept in arrival order: ids and
** indices fit 32 bits, as the uint32 slice indices of the finish pass already
** require. bind_by_position() replaces the ts by the slice the end binds to. */
typedef struct pflow_end {
  union {
    int64_t ts;     /* until bound */
    uint64_t slice; /* once bound: index + 1, 0 = binds to none */
  } at;
  uint32_t lane_ph; /* lane << 2 | is 's' << 1 | bp "e" */
  uint32_t flow_id;
} pflow_end;
#define END_LANE(e) ((e)->lane_ph >> 2)
#define END_IS_S(e) (((e)->lane_ph >> 1) & 1u)
#define END_BP_E(e) ((e)->lane_ph & 1u)
#define END_MAX_LANE (UINT32_MAX >> 2)

typedef struct pctrack {
  uint32_t proc;
  uint32_t name; /* strtab id (full "<name> <key>") */
  uint64_t uuid;
} pctrack;

/* 24 bytes a sample. */
typedef struct pcount {
  int64_t ts;
  union {
    int64_t i;
    double d;
  } v;
  uint32_t track : 31, is_double : 1;
  uint32_t arr; /* arrival order among the samples */
} pcount;

/* One packet to write, placed in the file's single time order (see order_events). */
enum { EV_BEGIN, EV_END, EV_COUNTER };
/* 24 bytes an event (track uuids fit 32 bits: p_finish checks). */
typedef struct pev {
  int64_t ts;
  uint32_t track;          /* track uuid */
  uint32_t ord;            /* collection order: the order on its own track */
  uint32_t ref;            /* slice or counter sample index */
  uint32_t level : 30;     /* at equal ts: a flow's source before its sink */
  uint32_t kind : 2;
} pev;

typedef struct proto_sink {
  sl_trace_sink base;
  sl_pf_writer w;
  uint64_t next_uuid, next_flow;
  sl_intern strings;  /* process/thread/counter names */
  sl_intern names;    /* event names: iid = id */
  sl_intern cats;     /* categories: iid = id */
  sl_intern keys;     /* debug annotation names: iid = id */
  uint8_t *name_sent; /* event name iid already interned in the file */
  pproc *procs;
  size_t nprocs, procs_cap;
  sl_map proc_of;
  plane *lanes;
  size_t nlanes, lanes_cap;
  sl_map lane_of;
  pslice *slices;
  size_t nslices, slices_cap;
  pflow_end *ends;
  size_t nends, ends_cap;
  sl_map open_flow;   /* hash(id, cat, name) -> proto flow id, while the flow is open */
  pctrack *ctracks;
  size_t nctracks, ctracks_cap;
  sl_map ctrack_of;
  pcount *counts;
  size_t ncounts, counts_cap;
  pev *evs; /* every BEGIN / END / counter packet, built in finish() */
  size_t nevs, evs_cap;
  FILE *spill; /* packed slice bodies, read back in finish() */
  uint64_t spill_len;
  uint8_t *body; /* read-back buffer */
  size_t body_cap;
  uint64_t negative_ts; /* events dropped: Perfetto has no negative time */
} proto_sink;

/* ---- helpers ------------------------------------------------------------------------ */

static int us_to_ns(double us, int64_t *ns) {
  if (!isfinite(us)) return 0;
  double v = us * 1000.0;
  if (v < 0 || v > 9.2e18) return 0;
  *ns = (int64_t)llround(v);
  return 1;
}

/* Every event: counted, then its time on the trace's ns axis; 0 when it has none there
** (before the origin, not finite): the event is left out and counted as such. */
static int event_ns(proto_sink *p, double us, int64_t *ns) {
  sl_sink_count(&p->base);
  if (us_to_ns(us, ns)) return 1;
  p->negative_ts++;
  return 0;
}

/* The id of s in t (NULL: ""); ids start at 1, so they serve as Perfetto iids as they are. */
static uint32_t intern(sl_intern *t, const char *s) {
  if (!s) s = "";
  return sl_intern_add(t, s, strlen(s));
}

static uint32_t proc_index(proto_sink *p, int64_t pid) {
  int fresh;
  uint64_t *slot = sl_map_u64_ref(&p->proc_of, (uint64_t)pid, &fresh);
  if (fresh) {
    p->procs = sl_array_grow(p->procs, &p->procs_cap, p->nprocs + 1, sizeof *p->procs);
    p->procs[p->nprocs] = (pproc){.pid = pid, .uuid = p->next_uuid++};
    *slot = p->nprocs++;
  }
  return (uint32_t)*slot;
}

static uint32_t lane_index(proto_sink *p, int64_t pid, int64_t tid) {
  uint64_t key = sl_fnv64(&tid, sizeof tid, (uint64_t)pid * 0x9e3779b97f4a7c15ull);
  int fresh;
  uint64_t *slot = sl_map_u64_ref(&p->lane_of, key, &fresh);
  if (fresh) {
    uint32_t proc = proc_index(p, pid);
    p->lanes = sl_array_grow(p->lanes, &p->lanes_cap, p->nlanes + 1, sizeof *p->lanes);
    p->lanes[p->nlanes] = (plane){.pid = pid, .tid = tid, .proc = proc, .uuid = p->next_uuid++};
    *slot = p->nlanes++;
  }
  return (uint32_t)*slot;
}

/* Slice bodies (args as packed debug annotations) go to an unnamed temporary
** file: they are the bulk of the data and are needed once, when written. */
static uint64_t spill_put(proto_sink *p, const uint8_t *b, size_t n) {
  if (!p->spill) p->spill = tmpfile();
  if (!p->spill || fwrite(b, 1, n, p->spill) != n) {
    p->base.failed = 1;
    return 0;
  }
  p->spill_len += n;
  return p->spill_len - n;
}

static const uint8_t *spill_get(proto_sink *p, uint64_t off, size_t n) {
  if (n == 0 || !p->spill) return NULL;
  p->body = sl_array_grow(p->body, &p->body_cap, n, 1);
  if (pread(fileno(p->spill), p->body, n, (off_t)off) != (ssize_t)n) {
    p->base.failed = 1;
    memset(p->body, 0, n);
  }
  return p->body;
}

/* ---- metadata ------------------------------------------------------------------------- */

static void p_process_name(sl_trace_sink *s, int64_t pid, const char *name) {
  proto_sink *p = (proto_sink *)s;
  uint32_t i = proc_index(p, pid); /* may move p->procs */
  p->procs[i].name = intern(&p->strings, name);
  sl_sink_count(s);
}
static int32_t clamp_rank(int64_t v) {
  return v < INT32_MIN ? INT32_MIN : v > INT32_MAX ? INT32_MAX : (int32_t)v;
}
static void p_process_sort(sl_trace_sink *s, int64_t pid, int64_t idx) {
  proto_sink *p = (proto_sink *)s;
  uint32_t i = proc_index(p, pid);
  p->procs[i].has_rank = 1;
  p->procs[i].rank = clamp_rank(idx);
  sl_sink_count(s);
}
static void p_thread_name(sl_trace_sink *s, int64_t pid, int64_t tid, const char *name) {
  proto_sink *p = (proto_sink *)s;
  uint32_t i = lane_index(p, pid, tid); /* may move p->lanes */
  p->lanes[i].name = intern(&p->strings, name);
  sl_sink_count(s);
}
static void p_thread_sort(sl_trace_sink *s, int64_t pid, int64_t tid, int64_t idx) {
  proto_sink *p = (proto_sink *)s;
  uint32_t i = lane_index(p, pid, tid);
  p->lanes[i].has_rank = 1;
  p->lanes[i].rank = clamp_rank(idx);
  sl_sink_count(s);
}

/* ---- slices ------------------------------------------------------------------------------ */

static void fill_annotation(proto_sink *p, Perfetto__Protos__DebugAnnotation *d,
                            Perfetto__Protos__DebugAnnotation *items, const sl_arg *a) {
  perfetto__protos__debug_annotation__init(d);
  d->name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME_IID;
  d->name_iid = intern(&p->keys, a->key);
  switch (a->type) {
  case SL_ARG_INT:
    d->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE;
    d->int_value = a->v.i;
    break;
  case SL_ARG_UINT:
    d->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_UINT_VALUE;
    d->uint_value = a->v.u;
    break;
  case SL_ARG_DOUBLE:
    d->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_DOUBLE_VALUE;
    d->double_value = a->v.d;
    break;
  case SL_ARG_STRING:
    d->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE;
    d->string_value = (char *)(a->v.s ? a->v.s : "");
    break;
  case SL_ARG_BOOL:
    d->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_BOOL_VALUE;
    d->bool_value = a->v.b != 0;
    break;
  case SL_ARG_NULL:
    d->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_LEGACY_JSON_VALUE;
    d->legacy_json_value = (char *)"null";
    break;
  case SL_ARG_INTLIST:
    for (size_t i = 0; i < a->v.list.n; i++) {
      perfetto__protos__debug_annotation__init(&items[i]);
      items[i].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE;
      items[i].int_value = a->v.list.v[i];
    }
    break;
  }
}

/* Pack fields 3 (category_iids) and 4 (debug_annotations) of the TrackEvent. */
static void pack_body(proto_sink *p, pslice *sl, const char *cat, const sl_arg *args,
                      size_t nargs) {
  Perfetto__Protos__TrackEvent te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
  uint64_t cat_iid = 0;
  if (cat && *cat) {
    cat_iid = intern(&p->cats, cat);
    te.n_category_iids = 1;
    te.category_iids = &cat_iid;
  }
  size_t nitems = 0;
  for (size_t i = 0; i < nargs; i++)
    if (args[i].type == SL_ARG_INTLIST) nitems += args[i].v.list.n;
  Perfetto__Protos__DebugAnnotation *anns = sl_mem_calloc(nargs, sizeof *anns);
  Perfetto__Protos__DebugAnnotation **annp = sl_mem_calloc(nargs, sizeof *annp);
  Perfetto__Protos__DebugAnnotation *items = sl_mem_calloc(nitems, sizeof *items);
  Perfetto__Protos__DebugAnnotation **itemp = sl_mem_calloc(nitems, sizeof *itemp);
  size_t used = 0;
  for (size_t i = 0; i < nargs; i++) {
    fill_annotation(p, &anns[i], items + used, &args[i]);
    if (args[i].type == SL_ARG_INTLIST) {
      for (size_t k = 0; k < args[i].v.list.n; k++) itemp[used + k] = &items[used + k];
      anns[i].n_array_values = args[i].v.list.n;
      anns[i].array_values = itemp + used;
      used += args[i].v.list.n;
    }
    annp[i] = &anns[i];
  }
  te.n_debug_annotations = nargs;
  te.debug_annotations = annp;
  size_t len = protobuf_c_message_get_packed_size(&te.base);
  uint8_t small[512];
  uint8_t *buf = len <= sizeof small ? small : sl_mem_alloc(len);
  protobuf_c_message_pack(&te.base, buf);
  sl->body_off = spill_put(p, buf, len);
  sl->body_len = (uint32_t)len;
  if (buf != small) sl_mem_free(buf);
  sl_mem_free(anns);
  sl_mem_free(annp);
  sl_mem_free(items);
  sl_mem_free(itemp);
}

static void p_slice(sl_trace_sink *s, const sl_slice *ev) {
  proto_sink *p = (proto_sink *)s;
  int64_t start, dur = 0;
  if (!event_ns(p, ev->ts, &start)) return;
  if (ev->dur > 0 && !us_to_ns(ev->dur, &dur)) dur = 0;
  p->slices = sl_array_grow(p->slices, &p->slices_cap, p->nslices + 1, sizeof *p->slices);
  pslice *sl = &p->slices[p->nslices];
  *sl = (pslice){.lane = lane_index(p, ev->pid, ev->tid),
                 .name = intern(&p->names, ev->name),
                 .start = start,
                 .end = start + dur}; /* negative durations become zero-length */
  pack_body(p, sl, ev->cat, ev->args, ev->args ? ev->nargs : 0);
  p->nslices++;
}

/* ---- counters and flows ------------------------------------------------------------------ */

static void p_counter(sl_trace_sink *s, const sl_counter *ev) {
  proto_sink *p = (proto_sink *)s;
  int64_t ts;
  if (!event_ns(p, ev->ts, &ts)) return;
  uint32_t proc = proc_index(p, ev->pid);
  for (size_t i = 0; i < ev->nargs; i++) {
    const sl_arg *a = &ev->args[i];
    if (a->type != SL_ARG_INT && a->type != SL_ARG_UINT && a->type != SL_ARG_DOUBLE) continue;
    /* Perfetto's JSON importer names each series "<name> <key>" in the process. */
    char buf[512];
    snprintf(buf, sizeof buf, "%s %s", ev->name ? ev->name : "", a->key);
    uint32_t name = intern(&p->strings, buf);
    uint64_t key = sl_fnv64(buf, strlen(buf), (uint64_t)ev->pid);
    int fresh;
    uint64_t *slot = sl_map_u64_ref(&p->ctrack_of, key, &fresh);
    if (fresh) {
      p->ctracks = sl_array_grow(p->ctracks, &p->ctracks_cap, p->nctracks + 1, sizeof *p->ctracks);
      p->ctracks[p->nctracks] = (pctrack){.proc = proc, .name = name, .uuid = p->next_uuid++};
      *slot = p->nctracks++;
    }
    p->counts = sl_array_grow(p->counts, &p->counts_cap, p->ncounts + 1, sizeof *p->counts);
    pcount *c = &p->counts[p->ncounts++];
    if (*slot > (UINT32_MAX >> 1) || p->ncounts > UINT32_MAX) { /* beyond any trace this process could hold */
      s->failed = 1;
      return;
    }
    *c = (pcount){.track = (uint32_t)*slot, .ts = ts, .arr = (uint32_t)(p->ncounts - 1)};
    if (a->type == SL_ARG_INT)
      c->v.i = a->v.i;
    else if (a->type == SL_ARG_UINT && a->v.u <= INT64_MAX)
      c->v.i = (int64_t)a->v.u;
    else {
      c->is_double = 1;
      c->v.d = a->type == SL_ARG_DOUBLE ? a->v.d : (double)a->v.u;
    }
  }
}

static uint64_t flow_key(const sl_flow *ev) {
  uint64_t h = sl_fnv64(&ev->id, sizeof ev->id, 0x5bd1e995);
  const char *cat = ev->cat ? ev->cat : "flow", *name = ev->name ? ev->name : "";
  h = sl_fnv64(cat, strlen(cat) + 1, h);
  return sl_fnv64(name, strlen(name) + 1, h);
}

static void p_flow(sl_trace_sink *s, const sl_flow *ev) {
  proto_sink *p = (proto_sink *)s;
  int64_t ts;
  if (!event_ns(p, ev->ts, &ts)) return;
  /* (id, cat, name) names a JSON flow; each 's' opens a new proto flow id. */
  uint64_t key = flow_key(ev);
  uint64_t flow_id;
  if (ev->phase == 's') {
    flow_id = p->next_flow++;
    sl_map_u64_put(&p->open_flow, key, flow_id);
  } else {
    /* a finish without a start: Perfetto drops it too. A finish closes its flow
    ** (as Perfetto's importer does), so the map holds only the open ones. */
    if (!sl_map_u64_get(&p->open_flow, key, &flow_id)) return;
    sl_map_u64_del(&p->open_flow, key);
  }
  uint32_t lane = lane_index(p, ev->pid, ev->tid);
  if (flow_id > UINT32_MAX || p->nends >= UINT32_MAX || lane > END_MAX_LANE) {
    s->failed = 1; /* beyond any trace this process could hold */
    return;
  }
  pflow_end e = {.at.ts = ts,
                 .lane_ph = lane << 2 | (uint32_t)(ev->phase == 's') << 1 | (uint32_t)!!ev->bp_enclosing,
                 .flow_id = (uint32_t)flow_id};
  p->ends = sl_array_grow(p->ends, &p->ends_cap, p->nends + 1, sizeof *p->ends);
  p->ends[p->nends++] = e;
}

static void p_metadata_json(sl_trace_sink *s, const char *obj) {
  (void)s;
  (void)obj; /* no place for free-form JSON in the trace protos we write */
}

/* ---- writing -------------------------------------------------------------------------------- */

/* qsort has no context argument: the slices array is reached through this
** (thread-local, so sinks on different threads do not collide). */
static _Thread_local const pslice *g_sort_slices;

static int cmp_slice_idx(const void *a, const void *b) {
  uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
  const pslice *x = &g_sort_slices[i], *y = &g_sort_slices[j];
  if (x->lane != y->lane) return x->lane < y->lane ? -1 : 1;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  int64_t dx = x->end - x->start, dy = y->end - y->start;
  if (dx != dy) return dx > dy ? -1 : 1;
  return i < j ? -1 : i > j;
}

/* Ends by position (lane, ts, arrival), sorted as indices: the ends stay in arrival order. */
static _Thread_local const pflow_end *g_sort_ends;

static int cmp_end_pos(const void *a, const void *b) {
  uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
  const pflow_end *x = &g_sort_ends[i], *y = &g_sort_ends[j];
  if (END_LANE(x) != END_LANE(y)) return END_LANE(x) < END_LANE(y) ? -1 : 1;
  if (x->at.ts != y->at.ts) return x->at.ts < y->at.ts ? -1 : 1;
  return i < j ? -1 : i > j;
}

/* Flow ids per slice, in arrival order; a flow needs both its ends bound. Counting
** passes over the ends in arrival order (no sort): bound ends per flow, then per
** slice, then each slice's ids in place. Returns the ids, one per bound end
** (sl_mem_free them). */
static uint32_t *assign_flow_ids(proto_sink *p, uint32_t *src_slice) {
  uint8_t *bound = sl_mem_calloc(p->next_flow + 1, 1);
  for (size_t i = 0; i < p->nends; i++)
    if (p->ends[i].at.slice && bound[p->ends[i].flow_id] < 2) bound[p->ends[i].flow_id]++;
  uint64_t nf = 0;
  for (size_t i = 0; i < p->nends; i++) {
    pflow_end *e = &p->ends[i];
    if (bound[e->flow_id] < 2) e->at.slice = 0;
    if (e->at.slice) p->slices[e->at.slice - 1].nflows++, nf++;
  }
  sl_mem_free(bound);
  uint32_t *flow_ids = sl_mem_array(NULL, nf + 1, sizeof *flow_ids);
  nf = 0;
  for (size_t i = 0; i < p->nslices; i++) {
    p->slices[i].flow_first = nf;
    nf += p->slices[i].nflows;
    p->slices[i].nflows = 0;
  }
  for (size_t i = 0; i < p->nends; i++) {
    const pflow_end *e = &p->ends[i];
    if (!e->at.slice) continue;
    pslice *sl = &p->slices[e->at.slice - 1];
    flow_ids[sl->flow_first + sl->nflows++] = e->flow_id;
    if (END_IS_S(e)) src_slice[e->flow_id] = (uint32_t)e->at.slice;
  }
  /* the ends are folded into the slices: free them before the event list peaks */
  sl_mem_free(p->ends);
  p->ends = NULL;
  p->nends = p->ends_cap = 0;
  return flow_ids;
}

/* Bind flow ends given by position, the way Perfetto's JSON importer does:
** 's' and 'f' with bp "e" to the slice on top of the lane's stack at ts, a bare
** 'f' to the next slice that begins on the lane. */
static void bind_by_position(proto_sink *p, const uint32_t *order) {
  uint32_t *by_pos = sl_mem_array(NULL, p->nends + 1, sizeof *by_pos);
  for (size_t i = 0; i < p->nends; i++) by_pos[i] = (uint32_t)i;
  g_sort_ends = p->ends;
  sl_array_sort(by_pos, p->nends, sizeof *by_pos, cmp_end_pos);
  size_t *stack = NULL, depth = 0, cap = 0, si = 0;
  uint32_t cur_lane = UINT32_MAX;
  for (size_t i = 0; i < p->nends; i++) {
    pflow_end *e = &p->ends[by_pos[i]];
    int64_t ts = e->at.ts;
    e->at.slice = 0; /* ts is read: the same field now holds the binding */
    if (END_LANE(e) != cur_lane) {
      cur_lane = END_LANE(e);
      depth = 0;
      si = 0;
      /* first slice of this lane: binary search in the sorted order */
      size_t lo = 0, hi = p->nslices;
      while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (p->slices[order[mid]].lane < cur_lane)
          lo = mid + 1;
        else
          hi = mid;
      }
      si = lo;
    }
    if (!END_IS_S(e) && !END_BP_E(e)) {
      size_t k = si;
      while (k < p->nslices && p->slices[order[k]].lane == cur_lane &&
             p->slices[order[k]].start <= ts)
        k++;
      if (k < p->nslices && p->slices[order[k]].lane == cur_lane) e->at.slice = order[k] + 1u;
      continue;
    }
    while (si < p->nslices && p->slices[order[si]].lane == cur_lane &&
           p->slices[order[si]].start <= ts) {
      const pslice *sl = &p->slices[order[si]];
      si++;
      while (depth && p->slices[stack[depth - 1]].end <= sl->start) depth--;
      /* a slice that overlaps without nesting lives on an overflow track */
      if (depth && p->slices[stack[depth - 1]].end < sl->end) continue;
      stack = sl_array_grow(stack, &cap, depth + 1, sizeof *stack);
      stack[depth++] = (size_t)(sl - p->slices);
    }
    if (depth) e->at.slice = stack[depth - 1] + 1u;
  }
  sl_mem_free(stack);
  sl_mem_free(by_pos);
}

static void put_varint(uint8_t *b, size_t *n, uint64_t v) {
  while (v >= 0x80) {
    b[(*n)++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  b[(*n)++] = (uint8_t)v;
}

/* One TrackEvent packet: body (fields 3, 4) + type, name, track, flows. Packed
** by hand around protobuf-c output so fields stay in number order. */
static void write_event(proto_sink *p, uint64_t ts, uint64_t uuid, int type, uint64_t name_iid,
                        const uint8_t *body, size_t body_len, const uint64_t *flows,
                        size_t nflows) {
  Perfetto__Protos__TrackEvent te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
  te.has_type = 1;
  te.type = (Perfetto__Protos__TrackEvent__Type)type;
  te.has_track_uuid = 1;
  te.track_uuid = uuid;
  if (name_iid) {
    te.name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME_IID;
    te.name_iid = name_iid;
  }
  te.n_flow_ids = nflows;
  te.flow_ids = (uint64_t *)flows;
  size_t tail = protobuf_c_message_get_packed_size(&te.base);

  Perfetto__Protos__InternedData in = PERFETTO__PROTOS__INTERNED_DATA__INIT;
  Perfetto__Protos__EventName en = PERFETTO__PROTOS__EVENT_NAME__INIT;
  Perfetto__Protos__EventName *enp = &en;
  if (name_iid && !p->name_sent[name_iid - 1]) {
    p->name_sent[name_iid - 1] = 1;
    en.has_iid = 1;
    en.iid = name_iid;
    en.name = (char *)sl_intern_str(&p->names, (uint32_t)name_iid);
    in.n_event_names = 1;
    in.event_names = &enp;
  }
  size_t in_len = in.n_event_names ? protobuf_c_message_get_packed_size(&in.base) : 0;
  size_t te_len = body_len + tail;
  size_t cap = 64 + te_len + in_len;
  uint8_t stackbuf[1024];
  uint8_t *b = cap <= sizeof stackbuf ? stackbuf : sl_mem_alloc(cap);
  size_t n = 0;
  b[n++] = 0x40; /* timestamp = 8 */
  put_varint(b, &n, ts);
  b[n++] = 0x50; /* trusted_packet_sequence_id = 10 */
  put_varint(b, &n, SEQ_ID);
  b[n++] = 0x5A; /* track_event = 11 */
  put_varint(b, &n, te_len);
  if (body_len) memcpy(b + n, body, body_len);
  n += body_len;
  protobuf_c_message_pack(&te.base, b + n);
  n += tail;
  if (in_len) {
    b[n++] = 0x62; /* interned_data = 12 */
    put_varint(b, &n, in_len);
    protobuf_c_message_pack(&in.base, b + n);
    n += in_len;
  }
  if (name_iid) {
    b[n++] = 0x68; /* sequence_flags = 13 */
    put_varint(b, &n, SL_PF_SEQ_NEEDS_STATE);
  }
  /* frame */
  uint8_t hdr[11];
  size_t h = 0;
  hdr[h++] = 0x0A;
  put_varint(hdr, &h, n);
  if (fwrite(hdr, 1, h, p->base.fp) != h || fwrite(b, 1, n, p->base.fp) != n) p->base.failed = 1;
  if (b != stackbuf) sl_mem_free(b);
}

static void write_first_packet(proto_sink *p) {
  Perfetto__Protos__TracePacket pk = PERFETTO__PROTOS__TRACE_PACKET__INIT;
  Perfetto__Protos__InternedData in = PERFETTO__PROTOS__INTERNED_DATA__INIT;
  pk.has_trusted_packet_sequence_id = 1;
  pk.trusted_packet_sequence_id = SEQ_ID;
  pk.has_sequence_flags = 1;
  pk.sequence_flags = SL_PF_SEQ_CLEARED | SL_PF_SEQ_NEEDS_STATE;
  size_t ncats = sl_intern_count(&p->cats), nkeys = sl_intern_count(&p->keys);
  Perfetto__Protos__EventCategory *cats = sl_mem_calloc(ncats + 1, sizeof *cats);
  Perfetto__Protos__EventCategory **catp = sl_mem_calloc(ncats + 1, sizeof *catp);
  Perfetto__Protos__DebugAnnotationName *keys = sl_mem_calloc(nkeys + 1, sizeof *keys);
  Perfetto__Protos__DebugAnnotationName **keyp = sl_mem_calloc(nkeys + 1, sizeof *keyp);
  for (size_t i = 0; i < ncats; i++) {
    perfetto__protos__event_category__init(&cats[i]);
    cats[i].has_iid = 1;
    cats[i].iid = i + 1;
    cats[i].name = (char *)sl_intern_str(&p->cats, (uint32_t)i + 1);
    catp[i] = &cats[i];
  }
  for (size_t i = 0; i < nkeys; i++) {
    perfetto__protos__debug_annotation_name__init(&keys[i]);
    keys[i].has_iid = 1;
    keys[i].iid = i + 1;
    keys[i].name = (char *)sl_intern_str(&p->keys, (uint32_t)i + 1);
    keyp[i] = &keys[i];
  }
  in.n_event_categories = ncats;
  in.event_categories = catp;
  in.n_debug_annotation_names = nkeys;
  in.debug_annotation_names = keyp;
  pk.interned_data = &in;
  sl_pf_write_packet(&p->w, &pk);
  sl_mem_free(cats);
  sl_mem_free(catp);
  sl_mem_free(keys);
  sl_mem_free(keyp);
}

static void write_descriptor(proto_sink *p, Perfetto__Protos__TrackDescriptor *td) {
  Perfetto__Protos__TracePacket pk = PERFETTO__PROTOS__TRACE_PACKET__INIT;
  pk.has_trusted_packet_sequence_id = 1;
  pk.trusted_packet_sequence_id = SEQ_ID;
  pk.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR;
  pk.track_descriptor = td;
  sl_pf_write_packet(&p->w, &pk);
}

/* rank: the sibling_order_rank (NULL = none). */
static void write_track(proto_sink *p, uint64_t uuid, uint64_t parent, const char *name,
                        const int32_t *rank, Perfetto__Protos__ProcessDescriptor *proc,
                        Perfetto__Protos__ThreadDescriptor *thread,
                        Perfetto__Protos__CounterDescriptor *counter) {
  Perfetto__Protos__TrackDescriptor td = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
  td.has_uuid = 1;
  td.uuid = uuid;
  if (rank) {
    td.has_sibling_order_rank = 1;
    td.sibling_order_rank = *rank;
  }
  if (proc) {
    td.has_child_ordering = 1;
    td.child_ordering = PERFETTO__PROTOS__TRACK_DESCRIPTOR__CHILD_TRACKS_ORDERING__EXPLICIT;
  }
  if (parent) {
    td.has_parent_uuid = 1;
    td.parent_uuid = parent;
  }
  if (name) {
    td.static_or_dynamic_name_case =
        PERFETTO__PROTOS__TRACK_DESCRIPTOR__STATIC_OR_DYNAMIC_NAME_NAME;
    td.name = (char *)name;
  }
  td.process = proc;
  td.thread = thread;
  td.counter = counter;
  write_descriptor(p, &td);
}

static const char *opt_name(const proto_sink *p, uint32_t id1) {
  return sl_intern_str(&p->strings, id1); /* NULL for 0: no name */
}

/* The JSON's process_sort_index / thread_sort_index become sibling_order_rank of
** the process / thread descriptors, and each process asks for its children in
** explicit order. Perfetto documents process_ordering / thread_ordering on a root
** descriptor with uuid 0; none is written, since uuid 0 is the "no track" value
** decoders reject (docs/convert.md). A process or thread without a sort index
** ranks by its pid / tid, the order Perfetto's JSON importer falls back to. */
static void write_tracks(proto_sink *p) {
  for (size_t i = 0; i < p->nprocs; i++) {
    Perfetto__Protos__ProcessDescriptor pd = PERFETTO__PROTOS__PROCESS_DESCRIPTOR__INIT;
    pd.has_pid = 1;
    pd.pid = (int32_t)p->procs[i].pid;
    pd.process_name = (char *)opt_name(p, p->procs[i].name);
    int32_t rank = p->procs[i].has_rank ? p->procs[i].rank : clamp_rank(p->procs[i].pid);
    write_track(p, p->procs[i].uuid, 0, NULL, &rank, &pd, NULL, NULL);
  }
  for (size_t i = 0; i < p->nlanes; i++) {
    Perfetto__Protos__ThreadDescriptor th = PERFETTO__PROTOS__THREAD_DESCRIPTOR__INIT;
    th.has_pid = th.has_tid = 1;
    th.pid = (int32_t)p->lanes[i].pid;
    th.tid = p->lanes[i].tid;
    th.thread_name = (char *)opt_name(p, p->lanes[i].name);
    int32_t rank = p->lanes[i].has_rank ? p->lanes[i].rank : clamp_rank(p->lanes[i].tid);
    write_track(p, p->lanes[i].uuid, 0, NULL, &rank, NULL, &th, NULL);
  }
  for (size_t i = 0; i < p->nctracks; i++) {
    Perfetto__Protos__CounterDescriptor cd = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;
    write_track(p, p->ctracks[i].uuid, p->procs[p->ctracks[i].proc].uuid,
                sl_intern_str(&p->strings, p->ctracks[i].name), NULL, NULL, NULL, &cd);
  }
}

/* The track of sub-lane k of a lane (0 = the thread track). */
static uint64_t sublane_uuid(proto_sink *p, plane *ln, size_t k) {
  if (k == 0) return ln->uuid;
  while (ln->noverflow < k) {
    uint64_t uuid = p->next_uuid++;
    ln->overflow = sl_array_grow(ln->overflow, &ln->overflow_cap, ln->noverflow + 1, sizeof *ln->overflow);
    ln->overflow[ln->noverflow++] = uuid;
    char name[300];
    const char *base = opt_name(p, ln->name);
    if (base)
      snprintf(name, sizeof name, "%s (overlap %zu)", base, ln->noverflow);
    else
      snprintf(name, sizeof name, "%" PRId64 " (overlap %zu)", ln->tid, ln->noverflow);
    write_track(p, uuid, ln->uuid, name, NULL, NULL, NULL, NULL);
  }
  return ln->overflow[k - 1];
}

typedef SL_VEC(uint32_t) substack; /* slices open on one sub-lane, outermost first */

static void add_ev(proto_sink *p, int64_t ts, uint64_t track, uint32_t kind, size_t ref) {
  /* track < 2^32: p_finish checked next_uuid, and the event list has its full size */
  p->evs = sl_array_grow(p->evs, &p->evs_cap, p->nevs + 1, sizeof *p->evs);
  p->evs[p->nevs] = (pev){.ts = ts, .track = (uint32_t)track, .ord = (uint32_t)p->nevs,
                          .ref = (uint32_t)ref, .kind = kind};
  p->nevs++;
}

static void emit_end(proto_sink *p, plane *ln, size_t k, uint32_t slice) {
  add_ev(p, p->slices[slice].end, sublane_uuid(p, ln, k), EV_END, slice);
}

/* Per lane, in (start, longer first) order: BEGIN when a slice starts, END when
** the next slice starts at or after its end; a slice that overlaps without
** nesting goes to the first sub-lane where it nests. On each track the events
** come out in time order; order_events() then merges all tracks. */
static void collect_slices(proto_sink *p, const uint32_t *order) {
  SL_VEC(substack) subs = {0};
  for (size_t i = 0; i <= p->nslices; i++) {
    int new_lane =
        i == p->nslices || i == 0 || p->slices[order[i]].lane != p->slices[order[i - 1]].lane;
    if (new_lane && i > 0) { /* close the previous lane: innermost first */
      plane *ln = &p->lanes[p->slices[order[i - 1]].lane];
      for (size_t k = 0; k < subs.n; k++) {
        while (subs.v[k].n) emit_end(p, ln, k, subs.v[k].v[--subs.v[k].n]);
      }
    }
    if (i == p->nslices) break;
    const pslice *sl = &p->slices[order[i]];
    plane *ln = &p->lanes[sl->lane];
    size_t k = 0;
    for (;; k++) {
      if (k == subs.n) sl_vec_add(&subs);
      substack *st = &subs.v[k];
      while (st->n && p->slices[st->v[st->n - 1]].end <= sl->start)
        emit_end(p, ln, k, st->v[--st->n]);
      if (!st->n || p->slices[st->v[st->n - 1]].end >= sl->end) break;
    }
    add_ev(p, sl->start, sublane_uuid(p, ln, k), EV_BEGIN, order[i]);
    sl_vec_push(&subs.v[k], order[i]);
  }
  for (size_t k = 0; k < subs.n; k++) sl_vec_free(&subs.v[k]);
  sl_vec_free(&subs);
}

static int cmp_count(const void *a, const void *b) {
  const pcount *x = a, *y = b;
  if (x->track != y->track) return x->track < y->track ? -1 : 1;
  if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
  return x->arr < y->arr ? -1 : x->arr > y->arr;
}

/* Samples sorted per track (cmp_count) before the event list is allocated. */
static void collect_counters(proto_sink *p) {
  for (size_t i = 0; i < p->ncounts; i++)
    add_ev(p, p->counts[i].ts, p->ctracks[p->counts[i].track].uuid, EV_COUNTER, i);
}

/* Events by (ts, collection order), sorted as indices: an event's ord is its index
** in p->evs before the sort. */
static _Thread_local const pev *g_sort_evs;

static int cmp_ev_time(const void *a, const void *b) {
  uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
  if (g_sort_evs[i].ts != g_sort_evs[j].ts) return g_sort_evs[i].ts < g_sort_evs[j].ts ? -1 : 1;
  return i < j ? -1 : i > j;
}

/* Sort p->evs by time through an index (qsort's merge buffer would be a second
** copy of the event list at the peak: an index is 4 bytes an event, not 32), then
** apply the permutation in place, cycle by cycle. */
static void sort_events_by_time(proto_sink *p) {
  uint32_t *idx = sl_mem_array(NULL, p->nevs + 1, sizeof *idx);
  for (size_t i = 0; i < p->nevs; i++) idx[i] = (uint32_t)i;
  g_sort_evs = p->evs;
  sl_array_sort(idx, p->nevs, sizeof *idx, cmp_ev_time);
  for (size_t i = 0; i < p->nevs; i++) { /* evs[i] takes evs[idx[i]] */
    if (idx[i] == i) continue;
    pev t = p->evs[i];
    size_t j = i;
    while (idx[j] != i) {
      size_t k = idx[j];
      p->evs[j] = p->evs[k];
      idx[j] = (uint32_t)j;
      j = k;
    }
    p->evs[j] = t;
    idx[j] = (uint32_t)j;
  }
  sl_mem_free(idx);
}

static int cmp_ev_level(const void *a, const void *b) {
  const pev *x = a, *y = b;
  if (x->level != y->level) return x->level < y->level ? -1 : 1;
  return x->ord < y->ord ? -1 : x->ord > y->ord;
}

/* The flow ends of slice `sl` whose source slice begins at the same ts: the
** position (in p->evs) of that source's BEGIN, via src_pos[flow id]. */
static uint32_t group_level(const proto_sink *p, const pev *e, const uint32_t *flow_ids,
                            const uint32_t *src_pos, uint32_t floor_level) {
  uint32_t l = floor_level;
  if (e->kind != EV_BEGIN) return l;
  const pslice *sl = &p->slices[e->ref];
  for (uint32_t f = 0; f < sl->nflows; f++) {
    uint32_t sp = src_pos[flow_ids[sl->flow_first + f]];
    if (sp == UINT32_MAX || p->evs[sp].ts != e->ts || &p->evs[sp] == e) continue;
    if ((uint32_t)p->evs[sp].level + 1 > l) l = (uint32_t)p->evs[sp].level + 1;
  }
  return l;
}

/* One global time order (Perfetto's sorter keeps file order for equal ts, and
** links a flow from the first slice carrying its id to the second): events sort
** by ts, and within one ts a flow's sink comes after its source while every
** track keeps its own order (level = longest chain of such constraints). */
static void order_events(proto_sink *p, const uint32_t *flow_ids, const uint32_t *src_slice) {
  sort_events_by_time(p);
  uint32_t *src_pos = sl_mem_array(NULL, p->next_flow + 1, sizeof *src_pos);
  uint32_t *begin_pos = sl_mem_array(NULL, p->nslices + 1, sizeof *begin_pos);
  uint32_t *prev = sl_mem_array(NULL, p->nevs + 1, sizeof *prev);
  uint32_t *last = sl_mem_array(NULL, p->next_uuid + 1, sizeof *last);
  for (size_t i = 0; i < p->nevs; i++)
    if (p->evs[i].kind == EV_BEGIN) begin_pos[p->evs[i].ref] = (uint32_t)i;
  for (uint64_t f = 0; f < p->next_flow; f++)
    src_pos[f] = src_slice[f] ? begin_pos[src_slice[f] - 1] : UINT32_MAX;
  for (size_t i = 0; i <= p->next_uuid; i++) last[i] = UINT32_MAX;
  for (size_t g = 0, h; g < p->nevs; g = h) {
    for (h = g; h < p->nevs && p->evs[h].ts == p->evs[g].ts; h++) {
      uint32_t lt = last[p->evs[h].track];
      prev[h] = lt != UINT32_MAX && lt >= g ? lt : UINT32_MAX;
      last[p->evs[h].track] = (uint32_t)h;
    }
    int changed = 1;
    for (size_t pass = 0; changed && pass <= h - g; pass++) {
      changed = 0;
      for (size_t i = g; i < h; i++) {
        uint32_t fl = prev[i] == UINT32_MAX ? 0 : p->evs[prev[i]].level;
        uint32_t l = group_level(p, &p->evs[i], flow_ids, src_pos, fl);
        if (l > p->evs[i].level) {
          p->evs[i].level = l;
          changed = 1;
        }
      }
    }
  }
  /* levels are final: reorder each equal-ts group by them */
  for (size_t g = 0, h; g < p->nevs; g = h) {
    int any = 0;
    for (h = g; h < p->nevs && p->evs[h].ts == p->evs[g].ts; h++) any |= p->evs[h].level != 0;
    if (any) sl_array_sort(p->evs + g, h - g, sizeof *p->evs, cmp_ev_level);
  }
  sl_mem_free(src_pos);
  sl_mem_free(begin_pos);
  sl_mem_free(prev);
  sl_mem_free(last);
}

static void write_counter(proto_sink *p, const pcount *c) {
  Perfetto__Protos__TracePacket pk = PERFETTO__PROTOS__TRACE_PACKET__INIT;
  Perfetto__Protos__TrackEvent te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
  pk.has_timestamp = 1;
  pk.timestamp = (uint64_t)c->ts;
  pk.has_trusted_packet_sequence_id = 1;
  pk.trusted_packet_sequence_id = SEQ_ID;
  te.has_type = 1;
  te.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER;
  te.has_track_uuid = 1;
  te.track_uuid = p->ctracks[c->track].uuid;
  if (c->is_double) {
    te.counter_value_field_case =
        PERFETTO__PROTOS__TRACK_EVENT__COUNTER_VALUE_FIELD_DOUBLE_COUNTER_VALUE;
    te.double_counter_value = c->v.d;
  } else {
    te.counter_value_field_case = PERFETTO__PROTOS__TRACK_EVENT__COUNTER_VALUE_FIELD_COUNTER_VALUE;
    te.counter_value = c->v.i;
  }
  pk.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT;
  pk.track_event = &te;
  sl_pf_write_packet(&p->w, &pk);
}

static void write_events(proto_sink *p, const uint32_t *flow_ids) {
  SL_VEC(uint64_t) ids = {0}; /* one BEGIN's flow ids, as the message field wants them */
  for (size_t i = 0; i < p->nevs; i++) {
    const pev *e = &p->evs[i];
    if (e->kind == EV_COUNTER) {
      write_counter(p, &p->counts[e->ref]);
      continue;
    }
    const pslice *sl = &p->slices[e->ref];
    if (e->kind == EV_END)
      write_event(p, (uint64_t)e->ts, e->track, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END,
                  sl->name, NULL, 0, NULL, 0);
    else {
      sl_vec_clear(&ids);
      for (uint32_t f = 0; f < sl->nflows; f++) sl_vec_push(&ids, (uint64_t)flow_ids[sl->flow_first + f]);
      write_event(p, (uint64_t)e->ts, e->track,
                  PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN, sl->name,
                  spill_get(p, sl->body_off, sl->body_len), sl->body_len, ids.v, sl->nflows);
    }
  }
  sl_vec_free(&ids);
}

static int p_finish(sl_trace_sink *s) {
  proto_sink *p = (proto_sink *)s;
  /* no more flows arrive: the lookup tables for them can go before the peak */
  sl_map_free(&p->open_flow);
  uint32_t *order = sl_mem_array(NULL, p->nslices + 1, sizeof *order);
  uint32_t *src_slice = sl_mem_calloc(p->next_flow + 1, sizeof *src_slice); /* flow id -> slice + 1 */
  p->name_sent = sl_mem_calloc(sl_intern_count(&p->names) + 1, 1);
  for (size_t i = 0; i < p->nslices; i++) order[i] = (uint32_t)i;
  g_sort_slices = p->slices;
  sl_array_sort(order, p->nslices, sizeof *order, cmp_slice_idx);
  bind_by_position(p, order);
  uint32_t *flow_ids = assign_flow_ids(p, src_slice);

  /* overflow tracks take at most one uuid a slice: every uuid fits a pev's 32 bits */
  if (p->next_uuid + p->nslices >= UINT32_MAX) {
    s->failed = 1;
    goto out;
  }
  sl_array_sort(p->counts, p->ncounts, sizeof *p->counts, cmp_count);
  if (p->spill && fflush(p->spill) != 0) s->failed = 1;
  sl_pf_writer_init(&p->w, s->fp);
  write_first_packet(p);
  write_tracks(p);
  /* exactly a BEGIN and an END per slice plus the counters: no growth slack */
  size_t nev = 2 * p->nslices + p->ncounts;
  if (nev > p->evs_cap) {
    p->evs = sl_mem_array(p->evs, nev + 1, sizeof *p->evs);
    p->evs_cap = nev + 1;
  }
  collect_slices(p, order);
  collect_counters(p);
  order_events(p, flow_ids, src_slice);
  write_events(p, flow_ids);
  if (p->w.failed) s->failed = 1;
  s->dropped = p->negative_ts;
out:
  sl_mem_free(order);
  sl_mem_free(flow_ids);
  sl_mem_free(src_slice);
  if (fflush(s->fp) != 0 || ferror(s->fp)) s->failed = 1;
  return s->failed ? -1 : 0;
}

static void p_destroy(sl_trace_sink *s) {
  proto_sink *p = (proto_sink *)s;
  sl_pf_writer_free(&p->w);
  sl_intern_free(&p->strings);
  sl_intern_free(&p->names);
  sl_intern_free(&p->cats);
  sl_intern_free(&p->keys);
  sl_mem_free(p->name_sent);
  sl_mem_free(p->procs);
  sl_map_free(&p->proc_of);
  for (size_t i = 0; i < p->nlanes; i++) sl_mem_free(p->lanes[i].overflow);
  sl_mem_free(p->lanes);
  sl_map_free(&p->lane_of);
  sl_mem_free(p->slices);
  sl_mem_free(p->ends);
  sl_map_free(&p->open_flow);
  sl_mem_free(p->ctracks);
  sl_map_free(&p->ctrack_of);
  sl_mem_free(p->counts);
  sl_mem_free(p->evs);
  if (p->spill) fclose(p->spill);
  sl_mem_free(p->body);
  sl_mem_free(p);
}

static const sl_trace_sink_ops proto_ops = {
    .process_name = p_process_name,
    .process_sort = p_process_sort,
    .thread_name = p_thread_name,
    .thread_sort = p_thread_sort,
    .slice = p_slice,
    .counter = p_counter,
    .flow = p_flow,
    .metadata_json = p_metadata_json,
    .finish = p_finish,
    .destroy = p_destroy,
};

sl_trace_sink *sl_trace_sink_proto_new(FILE *fp) {
  proto_sink *p = sl_mem_calloc(1, sizeof *p);
  p->base.ops = &proto_ops;
  p->base.fp = fp;
  p->next_uuid = 1;
  p->next_flow = 1;
  return &p->base;
}
