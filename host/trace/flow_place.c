/*
** flow_place.c — flow ends at the start of the slice they bind to (see flow_place.h).
*/
#include "flow_place.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sl_mem.h"
#include "sl_intern.h"
#include "sl_map.h"
#include "sl_hash.h"
#include "sl_vec.h"

/* 24 bytes a slice: a 1M-task trace has ~6.5M of them. The start in ns is
** to_ns(ts) (recomputed, not stored); arrival order is kept by a stable sort. */
typedef struct pl_slice {
  double ts;          /* the µs value written, so DevTools sees the same number */
  uint64_t id;        /* the slice's own id (what a flow's bind_id names) */
  uint32_t dur;       /* ns, or an index into the lane's long[] when is_long */
  uint16_t cat;       /* interner id; PL_CAT_MANY past 65534 categories (never matches) */
  uint8_t has_id;
  uint8_t is_long;    /* dur does not fit 32 bits */
} pl_slice;
#define PL_CAT_MANY UINT16_MAX

typedef struct pl_lane {
  pl_slice *v;
  size_t n, cap;
  int64_t *longs;   /* durations of 2^32 ns or more */
  size_t nlong, caplong;
  uint32_t *top;    /* top[i]: innermost open slice once v[0..i] began */
  int32_t *parent;  /* parent[k]: the slice k nests in, -1 at the lane's top level */
  size_t hint;      /* starts_upto's last answer */
  int sorted;
} pl_lane;

struct sl_flow_place {
  sl_trace_sink base;
  sl_trace_sink *inner;
  sl_map lane_of; /* hash(pid, tid) -> lane index + 1 */
  pl_lane *lanes;
  size_t nlanes, lanes_cap;
  sl_intern cats;
  uint64_t placed, pairs;
};

/* llround(us * 1000) without the libm call: bind_at runs this in its binary search.
** The fraction v - trunc(v) is exact, so halves round away from zero as llround does. */
static inline int64_t to_ns(double us) {
  double v = us * 1000.0;
  if (!(fabs(v) < 9e18)) return 0; /* also NaN */
  int64_t t = (int64_t)v;
  double r = v - (double)t;
  return r >= 0.5 ? t + 1 : r <= -0.5 ? t - 1 : t;
}

static pl_lane *lane_for(sl_flow_place *fp, int64_t pid, int64_t tid, int create) {
  uint64_t key = sl_fnv64(&tid, sizeof tid, (uint64_t)pid * 0x9e3779b97f4a7c15ull);
  if (!create) {
    uint64_t *v = sl_map_u64_find(&fp->lane_of, key);
    return v && *v ? &fp->lanes[*v - 1] : NULL;
  }
  int fresh;
  uint64_t *slot = sl_map_u64_ref(&fp->lane_of, key, &fresh);
  if (fresh) {
    fp->lanes = sl_array_grow(fp->lanes, &fp->lanes_cap, fp->nlanes + 1, sizeof *fp->lanes);
    fp->lanes[fp->nlanes] = (pl_lane){0};
    *slot = ++fp->nlanes;
  }
  return &fp->lanes[*slot - 1];
}

static int64_t pl_start(const pl_slice *x) { return to_ns(x->ts); }
static int64_t pl_dur(const pl_lane *ln, const pl_slice *x) {
  return x->is_long ? ln->longs[x->dur] : (int64_t)x->dur;
}
static int64_t pl_end(const pl_lane *ln, const pl_slice *x) { return pl_start(x) + pl_dur(ln, x); }

/* Order: start, longer first; a stable sort keeps arrival order for ties. */
static int cmp_pl(const pl_lane *ln, const pl_slice *x, const pl_slice *y) {
  int64_t sx = pl_start(x), sy = pl_start(y);
  if (sx != sy) return sx < sy ? -1 : 1;
  int64_t dx = pl_dur(ln, x), dy = pl_dur(ln, y);
  return dx != dy ? (dx > dy ? -1 : 1) : 0;
}

/* Stable merge sort of v[0..n) through tmp (n slices). A lane usually arrives
** almost sorted: a run already in order costs one comparison. */
static void sort_lane(const pl_lane *ln, pl_slice *v, pl_slice *tmp, size_t n) {
  if (n < 2) return;
  size_t h = n / 2;
  sort_lane(ln, v, tmp, h);
  sort_lane(ln, v + h, tmp, n - h);
  if (cmp_pl(ln, &v[h - 1], &v[h]) <= 0) return;
  memcpy(tmp, v, h * sizeof *v);
  size_t i = 0, j = h, k = 0;
  while (i < h && j < n) v[k++] = cmp_pl(ln, &v[j], &tmp[i]) < 0 ? v[j++] : tmp[i++];
  while (i < h) v[k++] = tmp[i++];
}

/* Sort the lane and replay Perfetto's slice stack once: a slice that overlaps its
** enclosing one without nesting is skipped (the importer spills it elsewhere). */
static void lane_prepare(pl_lane *ln) {
  if (ln->sorted) return;
  pl_slice *tmp = sl_mem_array(NULL, ln->n / 2 + 1, sizeof *tmp);
  sl_mem_free(ln->top);
  sl_mem_free(ln->parent);
  ln->top = sl_mem_array(NULL, ln->n + 1, sizeof *ln->top);
  ln->parent = sl_mem_array(NULL, ln->n + 1, sizeof *ln->parent);
  uint32_t *stack = sl_mem_array(NULL, ln->n + 1, sizeof *stack);
  sort_lane(ln, ln->v, tmp, ln->n);
  sl_mem_free(tmp);
  size_t depth = 0;
  for (size_t i = 0; i < ln->n; i++) {
    int64_t st = pl_start(&ln->v[i]), en = st + pl_dur(ln, &ln->v[i]);
    while (depth && pl_end(ln, &ln->v[stack[depth - 1]]) <= st) depth--;
    ln->parent[i] = depth ? (int32_t)stack[depth - 1] : -1;
    if (!depth || pl_end(ln, &ln->v[stack[depth - 1]]) >= en) stack[depth++] = (uint32_t)i;
    ln->top[i] = stack[depth - 1];
  }
  sl_mem_free(stack);
  ln->sorted = 1;
}

/* How many slices start at or before t. Flow ends come mostly in time order per
** lane, so gallop out from the last answer (a few probes) before bisecting. */
static size_t starts_upto(pl_lane *ln, int64_t t) {
  size_t lo = 0, hi = ln->n, h = ln->hint < ln->n ? ln->hint : ln->n;
  if (h < ln->n && pl_start(&ln->v[h]) <= t) { /* the answer is above h */
    lo = h + 1;
    for (size_t step = 1; h + step < ln->n; step *= 2) {
      if (pl_start(&ln->v[h + step]) > t) {
        hi = h + step;
        break;
      }
      lo = h + step + 1;
    }
  } else { /* at or below h */
    hi = h;
    for (size_t step = 1; step <= h; step *= 2) {
      if (pl_start(&ln->v[h - step]) <= t) {
        lo = h - step + 1;
        break;
      }
      hi = h - step;
    }
  }
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (pl_start(&ln->v[mid]) <= t) lo = mid + 1;
    else hi = mid;
  }
  ln->hint = lo;
  return lo;
}

/* The slice an enclosing-bound flow end at t binds to, or -1. */
static long bind_at(pl_lane *ln, int64_t t) {
  lane_prepare(ln);
  size_t lo = starts_upto(ln, t); /* first slice starting after t */
  if (!lo) return -1;
  long k = ln->top[lo - 1]; /* innermost slice that had begun; climb past the ones closed by t */
  while (k >= 0 && pl_end(ln, &ln->v[k]) < t) k = ln->parent[k];
  return k;
}

/* Move one end to its slice's start when that start binds to the same slice. */
static const pl_slice *place_end(sl_flow_place *fp, sl_flow *e) {
  if (e->phase == 'f' && !e->bp_enclosing) return NULL; /* binds to the next slice */
  pl_lane *ln = lane_for(fp, e->pid, e->tid, 0);
  if (!ln) return NULL;
  long i = bind_at(ln, to_ns(e->ts));
  if (i < 0) return NULL;
  const pl_slice *sl = &ln->v[i];
  if (bind_at(ln, pl_start(sl)) != i) return NULL;
  e->ts = sl->ts;
  if (e->has_bind_id && sl->has_id) e->bind_id = sl->id; /* name the slice it binds to */
  return sl;
}

int sl_flow_place_pair(sl_flow_place *fp, sl_flow *s, sl_flow *f) {
  fp->pairs++;
  sl_flow s0 = *s, f0 = *f;
  const pl_slice *a = place_end(fp, s), *b = place_end(fp, f);
  /* Perfetto's importer reads flow events in ts order and drops an 'f' read
  ** before its 's': never move the ends past each other. */
  if (to_ns(s->ts) > to_ns(f->ts)) {
    /* Both moves would cross. The source alone can still move: its slice's start
    ** is at or before where it was, so it stays before the sink; an 's' left at
    ** the very end of its slice is the one DevTools cannot bind at all. */
    *f = f0;
    if (to_ns(s->ts) > to_ns(f->ts)) *s = s0;
    return 0;
  }
  if (!a || !b || a->cat != b->cat || a->cat == PL_CAT_MANY) return 0;
  s->cat = f->cat = sl_intern_str(&fp->cats, a->cat);
  fp->placed++;
  return 1;
}

void sl_flow_place_counts(const sl_flow_place *fp, uint64_t *devtools, uint64_t *total) {
  *devtools = fp->placed;
  *total = fp->pairs;
}

/* ---- the forwarding sink -------------------------------------------------------------- */

#define INNER(s) (((sl_flow_place *)(s))->inner)

static void f_process_name(sl_trace_sink *s, int64_t pid, const char *name) {
  sl_sink_process_name(INNER(s), pid, name);
}
static void f_process_sort(sl_trace_sink *s, int64_t pid, int64_t idx) {
  sl_sink_process_sort(INNER(s), pid, idx);
}
static void f_thread_name(sl_trace_sink *s, int64_t pid, int64_t tid, const char *name) {
  sl_sink_thread_name(INNER(s), pid, tid, name);
}
static void f_thread_sort(sl_trace_sink *s, int64_t pid, int64_t tid, int64_t idx) {
  sl_sink_thread_sort(INNER(s), pid, tid, idx);
}
static void f_slice(sl_trace_sink *s, const sl_slice *ev) {
  sl_flow_place *fp = (sl_flow_place *)s;
  pl_lane *ln = lane_for(fp, ev->pid, ev->tid, 1);
  ln->v = sl_array_grow(ln->v, &ln->cap, ln->n + 1, sizeof *ln->v);
  int64_t dur = ev->dur > 0 ? to_ns(ev->dur) : 0;
  const char *cat = ev->cat ? ev->cat : "";
  uint32_t ci = sl_intern_add(&fp->cats, cat, strlen(cat));
  pl_slice *v = &ln->v[ln->n++];
  *v = (pl_slice){.ts = ev->ts, .id = ev->id, .dur = (uint32_t)dur,
                  .cat = ci < PL_CAT_MANY ? (uint16_t)ci : PL_CAT_MANY,
                  .has_id = (uint8_t)!!ev->has_id};
  if (dur > (int64_t)UINT32_MAX) { /* rare: keep the exact value aside */
    ln->longs = sl_array_grow(ln->longs, &ln->caplong, ln->nlong + 1, sizeof *ln->longs);
    ln->longs[ln->nlong] = dur;
    v->dur = (uint32_t)ln->nlong++;
    v->is_long = 1;
  }
  ln->sorted = 0;
  sl_sink_slice(fp->inner, ev);
}
static void f_counter(sl_trace_sink *s, const sl_counter *ev) { sl_sink_counter(INNER(s), ev); }
static void f_flow(sl_trace_sink *s, const sl_flow *ev) { sl_sink_flow(INNER(s), ev); }
static void f_metadata_json(sl_trace_sink *s, const char *obj) {
  sl_sink_metadata_json(INNER(s), obj);
}
static int f_finish(sl_trace_sink *s) { return sl_sink_finish(INNER(s)); }
static void f_destroy(sl_trace_sink *s) { sl_flow_place_free((sl_flow_place *)s); }

static const sl_trace_sink_ops place_ops = {
    .process_name = f_process_name,
    .process_sort = f_process_sort,
    .thread_name = f_thread_name,
    .thread_sort = f_thread_sort,
    .slice = f_slice,
    .counter = f_counter,
    .flow = f_flow,
    .metadata_json = f_metadata_json,
    .finish = f_finish,
    .destroy = f_destroy,
};

sl_flow_place *sl_flow_place_new(sl_trace_sink *inner) {
  sl_flow_place *fp = sl_mem_calloc(1, sizeof *fp);
  fp->base.ops = &place_ops;
  fp->base.fp = inner->fp;
  fp->inner = inner;
  return fp;
}

sl_trace_sink *sl_flow_place_sink(sl_flow_place *fp) { return &fp->base; }

void sl_flow_place_free(sl_flow_place *fp) {
  if (!fp) return;
  for (size_t i = 0; i < fp->nlanes; i++) {
    sl_mem_free(fp->lanes[i].v);
    sl_mem_free(fp->lanes[i].longs);
    sl_mem_free(fp->lanes[i].top);
    sl_mem_free(fp->lanes[i].parent);
  }
  sl_mem_free(fp->lanes);
  sl_map_free(&fp->lane_of);
  sl_intern_free(&fp->cats);
  sl_mem_free(fp);
}
