/*
** l0_perfetto.c — Insight trace.json -> Perfetto-friendly trace (lossless).
**
** Insight packs pipelined instructions of one pipe onto one track and draws
** flags as B/E pairs; Perfetto needs properly nested slices and pairs B/E per
** track LIFO. So, per core track (pid "core..."):
**   - every X slice and every B/E pair (matched by id) becomes an interval;
**   - intervals sorted by (ts, longest first) go to the lowest sub-lane whose
**     last interval has ended (1e-9 tolerance); a track using more than one
**     lane names every lane "<tid>#k", else keeps its tid;
**   - B/E pairs come out as one X slice; flow events on a split track move to
**     the lane of the flag with their id; thread_sort_index is rebuilt as
**     base*100 + lane.
** Everything else is copied; non-core X/B/E are dropped (as the reference does).
**
** Times are snapped to whole ns, and each slice is written as ts = start_ns / 1000,
** dur = (end_ns - start_ns) / 1000: Perfetto rounds ts and dur to ns separately,
** so an a5 trace's sub-ns µs (cycles at a non-round clock) made back-to-back
** slices overlap by 1 ns and spill to extra rows. Sub-ns detail is the only loss.
** Each slice then ends L0_PF_END_GAP_US (1 fs) early: Chrome DevTools adds ts and
** dur in floating point and drops a slice whose end passes its neighbour's start by
** one ulp (cJSON prints 15 digits, so an exact double sum cannot be relied on); a lane
** holds no nested slices, Perfetto still rounds dur to the same whole ns. The whole trace is moved by L0_PF_ORIGIN_US (1 µs),
** as the chip trace is (SL_CONVERT_ORIGIN_US): DevTools reads ts 0 as "no timestamp"
** and hides a slice there; the args keep the cycles.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "l0_internal.h"
#include "sl_mem.h"
#include "sl_vec.h"

#define EPS 1e-9
#define L0_PF_ORIGIN_US 1.0
#define L0_PF_END_GAP_US 1e-9

typedef struct ival {
  double ts, end;
  const cJSON *src; /* event giving name and args */
  char *id;         /* B/E id (printed), NULL for X */
  size_t order;     /* collection order, for a stable sort */
  int lane;
} ival;

typedef struct be_part {
  char *id;
  size_t order;
  const cJSON *ev;
} be_part;

typedef struct track {
  char *pid_s, *tid_s;
  const cJSON *pid, *tid;
  ival *iv;
  size_t n, cap;
  be_part *be;
  size_t nbe, capbe;
  int lanes;
  struct id_lane *ids; /* flag id -> lane, sorted */
  size_t nids;
} track;

typedef struct tracks {
  track *t;
  size_t n, cap;
} tracks;

static char *value_key(const cJSON *v) {
  if (!v) return sl_mem_strdup("");
  if (cJSON_IsString(v)) return sl_mem_strdup(v->valuestring);
  char *s = cJSON_PrintUnformatted(v);
  if (!s) sl_mem_fail(0); /* cJSON allocates on its own: its failure ends the one way */
  return s;
}

static int is_core_pid(const char *pid_s) { return strncmp(pid_s, "core", 4) == 0; }

static track *find_track(tracks *ts, const char *pid_s, const char *tid_s, int create, const cJSON *pid,
                         const cJSON *tid) {
  for (size_t i = 0; i < ts->n; i++)
    if (!strcmp(ts->t[i].pid_s, pid_s) && !strcmp(ts->t[i].tid_s, tid_s)) return &ts->t[i];
  if (!create) return NULL;
  track *t = sl_array_push(ts->t, ts->n, ts->cap);
  memset(t, 0, sizeof *t);
  t->pid_s = sl_mem_strdup(pid_s);
  t->tid_s = sl_mem_strdup(tid_s);
  t->pid = pid;
  t->tid = tid;
  return t;
}

static double snap_ns(double us) { return isfinite(us) ? round(us * 1000.0) / 1000.0 : us; }

static void push_ival(track *t, ival v) {
  v.ts = snap_ns(v.ts);
  v.end = snap_ns(v.end);
  *sl_array_push(t->iv, t->n, t->cap) = v;
}

static void push_be(track *t, be_part b) { *sl_array_push(t->be, t->nbe, t->capbe) = b; }

static double num_field(const cJSON *ev, const char *key, double dflt) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(ev, key);
  return cJSON_IsNumber(v) ? v->valuedouble : dflt;
}

static const char *ph_of(const cJSON *ev) {
  const cJSON *ph = cJSON_GetObjectItemCaseSensitive(ev, "ph");
  return cJSON_IsString(ph) ? ph->valuestring : "";
}

static int be_cmp(const void *a, const void *b) {
  const be_part *x = a, *y = b;
  int c = strcmp(x->id, y->id);
  if (c) return c;
  return x->order < y->order ? -1 : x->order > y->order;
}

/* Pair the B/E events of a track by id into intervals (first event of a group names it). */
static void pair_flags(track *t, size_t *order) {
  if (t->nbe) qsort(t->be, t->nbe, sizeof *t->be, be_cmp);
  for (size_t i = 0; i < t->nbe;) {
    size_t j = i;
    const cJSON *src = t->be[i].ev;
    double b = NAN, e = NAN;
    for (; j < t->nbe && !strcmp(t->be[j].id, t->be[i].id); j++) {
      const char *ph = ph_of(t->be[j].ev);
      double ts = num_field(t->be[j].ev, "ts", 0.0);
      if (ph[0] == 'B') b = ts; /* a repeated phase overwrites */
      else e = ts;
    }
    double start = !isnan(b) ? b : e, end = !isnan(e) ? e : b;
    if (start > end) {
      double x = start;
      start = end;
      end = x;
    }
    push_ival(t, (ival){.ts = start, .end = end, .src = src, .id = sl_mem_strdup(t->be[i].id), .order = (*order)++});
    i = j;
  }
}

static int ival_cmp(const void *a, const void *b) {
  const ival *x = a, *y = b;
  if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
  double dx = x->end - x->ts, dy = y->end - y->ts;
  if (dx != dy) return dx > dy ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

static void assign_lanes(track *t) {
  if (t->n) qsort(t->iv, t->n, sizeof *t->iv, ival_cmp);
  double *lane_end = NULL;
  size_t cap = 0;
  int lanes = 0;
  for (size_t i = 0; i < t->n; i++) {
    int k = 0;
    while (k < lanes && !(lane_end[k] <= t->iv[i].ts + EPS)) k++;
    if (k == lanes) sl_array_push(lane_end, lanes, cap);
    lane_end[k] = t->iv[i].end;
    t->iv[i].lane = k;
  }
  sl_mem_free(lane_end);
  t->lanes = lanes;
}

static cJSON *lane_tid(const track *t, int lane) {
  if (t->lanes <= 1) return cJSON_Duplicate(t->tid, 1);
  char buf[256];
  snprintf(buf, sizeof buf, "%s#%d", t->tid_s, lane);
  return cJSON_CreateString(buf);
}

typedef struct id_lane {
  const char *id;
  int lane;
} id_lane;

static int id_lane_cmp(const void *a, const void *b) {
  return strcmp(((const id_lane *)a)->id, ((const id_lane *)b)->id);
}

/* Index a split track's flag intervals by id (flows look their lane up). */
static void index_flags(track *t) {
  size_t n = 0;
  for (size_t i = 0; i < t->n; i++) n += t->iv[i].id != NULL;
  t->ids = n ? sl_mem_alloc(n * sizeof *t->ids) : NULL;
  t->nids = 0;
  for (size_t i = 0; i < t->n; i++)
    if (t->iv[i].id) t->ids[t->nids++] = (id_lane){t->iv[i].id, t->iv[i].lane};
  if (t->nids) qsort(t->ids, t->nids, sizeof *t->ids, id_lane_cmp);
}

static int flag_lane(const track *t, const char *id) {
  id_lane key = {id, 0};
  const id_lane *hit = t->nids ? bsearch(&key, t->ids, t->nids, sizeof key, id_lane_cmp) : NULL;
  return hit ? hit->lane : 0;
}

static void free_tracks(tracks *ts) {
  for (size_t i = 0; i < ts->n; i++) {
    track *t = &ts->t[i];
    for (size_t k = 0; k < t->n; k++) sl_mem_free(t->iv[k].id);
    for (size_t k = 0; k < t->nbe; k++) sl_mem_free(t->be[k].id);
    sl_mem_free(t->iv);
    sl_mem_free(t->be);
    sl_mem_free(t->ids);
    sl_mem_free(t->pid_s);
    sl_mem_free(t->tid_s);
  }
  sl_mem_free(ts->t);
}

typedef struct sort_entry {
  char *pid_s, *tid_s;
  const cJSON *pid, *tid;
  double base;
} sort_entry;

/* What the first pass learns: the core tracks and the original sort indexes. */
typedef struct pf_scan {
  tracks ts;
  sort_entry *sorts;
  size_t nsorts, capsorts, order;
} pf_scan;

/* A thread_sort_index record: remember (pid, tid) -> its sort index. */
static void scan_sort(pf_scan *st, const cJSON *ev, const cJSON *pid, const cJSON *tid) {
  const cJSON *args = cJSON_GetObjectItemCaseSensitive(ev, "args");
  const cJSON *si = cJSON_GetObjectItemCaseSensitive(args, "sort_index");
  char *p = value_key(pid), *t = value_key(tid);
  size_t k = 0;
  while (k < st->nsorts && (strcmp(st->sorts[k].pid_s, p) || strcmp(st->sorts[k].tid_s, t))) k++;
  if (k == st->nsorts) {
    *sl_array_push(st->sorts, st->nsorts, st->capsorts) = (sort_entry){p, t, pid, tid, 0};
  } else {
    sl_mem_free(p);
    sl_mem_free(t);
  }
  st->sorts[k].base = cJSON_IsNumber(si) ? si->valuedouble : 0;
}

/* 1. original sort indexes; 2. intervals of core tracks. */
static void scan_events(pf_scan *st, const cJSON *events) {
  const cJSON *ev;
  cJSON_ArrayForEach(ev, events) {
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(ev, "name");
    const cJSON *pid = cJSON_GetObjectItemCaseSensitive(ev, "pid");
    const cJSON *tid = cJSON_GetObjectItemCaseSensitive(ev, "tid");
    if (cJSON_IsString(name) && !strcmp(name->valuestring, "thread_sort_index")) {
      scan_sort(st, ev, pid, tid);
      continue;
    }
    const char *ph = ph_of(ev);
    if (strcmp(ph, "X") && strcmp(ph, "B") && strcmp(ph, "E")) continue;
    char *p = value_key(pid);
    if (!is_core_pid(p)) {
      sl_mem_free(p);
      continue;
    }
    char *t = value_key(tid);
    track *tr = find_track(&st->ts, p, t, 1, pid, tid);
    sl_mem_free(p);
    sl_mem_free(t);
    if (ph[0] == 'X') {
      double t0 = num_field(ev, "ts", 0.0);
      push_ival(tr, (ival){.ts = t0, .end = t0 + num_field(ev, "dur", 0.0), .src = ev, .order = st->order++});
    } else {
      push_be(tr, (be_part){value_key(cJSON_GetObjectItemCaseSensitive(ev, "id")), st->order++, ev});
    }
  }
}

/* 5a. intervals as X slices */
static void emit_slices(const tracks *ts, cJSON *list) {
  for (size_t i = 0; i < ts->n; i++) {
    const track *t = &ts->t[i];
    for (size_t k = 0; k < t->n; k++) {
      const ival *v = &t->iv[k];
      cJSON *x = cJSON_CreateObject();
      const cJSON *name = cJSON_GetObjectItemCaseSensitive(v->src, "name");
      const cJSON *args = cJSON_GetObjectItemCaseSensitive(v->src, "args");
      cJSON_AddStringToObject(x, "ph", "X");
      cJSON_AddItemToObject(x, "name", name ? cJSON_Duplicate(name, 1) : cJSON_CreateString(""));
      /* whole ns, rounded in double: exact below 2^53 ns, no overflow on absurd input */
      double a = round(v->ts * 1000.0), b = round(v->end * 1000.0);
      double t0 = a / 1000.0 + L0_PF_ORIGIN_US, t1 = b / 1000.0 + L0_PF_ORIGIN_US;
      cJSON_AddNumberToObject(x, "ts", t0);
      cJSON_AddNumberToObject(x, "dur", t1 > t0 ? t1 - t0 - L0_PF_END_GAP_US : 0.0);
      cJSON_AddItemToObject(x, "pid", cJSON_Duplicate(t->pid, 1));
      cJSON_AddItemToObject(x, "tid", lane_tid(t, v->lane));
      cJSON_AddItemToObject(x, "args", args ? cJSON_Duplicate(args, 1) : cJSON_CreateObject());
      cJSON_AddItemToArray(list, x);
    }
  }
}

/* 5b. everything else, flows moved onto their flag's lane. */
static void emit_others(tracks *ts, const cJSON *events, cJSON *list) {
  const cJSON *ev;
  cJSON_ArrayForEach(ev, events) {
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(ev, "name");
    const char *ph = ph_of(ev);
    if (cJSON_IsString(name) && !strcmp(name->valuestring, "thread_sort_index")) continue;
    if (!strcmp(ph, "X") || !strcmp(ph, "B") || !strcmp(ph, "E")) continue;
    cJSON *copy = cJSON_Duplicate(ev, 1);
    if (!copy) sl_mem_fail(0);
    cJSON *ts_item = cJSON_GetObjectItemCaseSensitive(copy, "ts");
    if (strcmp(ph, "M") && cJSON_IsNumber(ts_item))
      cJSON_SetNumberValue(ts_item, ts_item->valuedouble + L0_PF_ORIGIN_US);
    if (!strcmp(ph, "s") || !strcmp(ph, "t") || !strcmp(ph, "f")) {
      char *p = value_key(cJSON_GetObjectItemCaseSensitive(ev, "pid"));
      char *tk = value_key(cJSON_GetObjectItemCaseSensitive(ev, "tid"));
      const track *t = is_core_pid(p) ? find_track(ts, p, tk, 0, NULL, NULL) : NULL;
      if (t && t->lanes > 1) {
        char *id = value_key(cJSON_GetObjectItemCaseSensitive(ev, "id"));
        cJSON_ReplaceItemInObjectCaseSensitive(copy, "tid", lane_tid(t, flag_lane(t, id)));
        sl_mem_free(id);
      }
      sl_mem_free(p);
      sl_mem_free(tk);
    }
    cJSON_AddItemToArray(list, copy);
  }
}

/* 5c. rebuilt sort indexes: one per lane of a split track */
static void emit_sorts(pf_scan *st, cJSON *list) {
  for (size_t i = 0; i < st->nsorts; i++) {
    const sort_entry *se = &st->sorts[i];
    const track *t = find_track(&st->ts, se->pid_s, se->tid_s, 0, NULL, NULL);
    int lanes = t && t->lanes > 1 ? t->lanes : 1;
    for (int k = 0; k < lanes; k++) {
      cJSON *m = cJSON_CreateObject();
      cJSON *args = cJSON_AddObjectToObject(m, "args");
      cJSON_AddNumberToObject(args, "sort_index", se->base * 100 + k);
      cJSON_AddStringToObject(m, "name", "thread_sort_index");
      cJSON_AddStringToObject(m, "ph", "M");
      cJSON_AddItemToObject(m, "pid", cJSON_Duplicate(se->pid, 1));
      cJSON_AddItemToObject(m, "tid", lanes > 1 ? lane_tid(t, k) : cJSON_Duplicate(se->tid, 1));
      cJSON_AddItemToArray(list, m);
    }
  }
}

cJSON *sl_l0_to_perfetto(const cJSON *insight, char *err, size_t errlen) {
  const cJSON *events = cJSON_GetObjectItemCaseSensitive(insight, "traceEvents");
  if (!cJSON_IsObject(insight) || !cJSON_IsArray(events)) {
    snprintf(err, errlen, "not a Chrome trace: no traceEvents array");
    return NULL;
  }
  pf_scan st = {0};
  scan_events(&st, events);
  /* 3. pair flags, assign lanes */
  for (size_t i = 0; i < st.ts.n; i++) {
    pair_flags(&st.ts.t[i], &st.order);
    assign_lanes(&st.ts.t[i]);
    index_flags(&st.ts.t[i]);
  }
  /* top-level keys other than traceEvents are kept as they are */
  cJSON *out = cJSON_CreateObject();
  cJSON *list = cJSON_AddArrayToObject(out, "traceEvents");
  if (!list) sl_mem_fail(0); /* cJSON allocates on its own (a NULL out gives a NULL list) */
  const cJSON *top;
  cJSON_ArrayForEach(top, insight) {
    if (top->string && strcmp(top->string, "traceEvents"))
      cJSON_AddItemToObject(out, top->string, cJSON_Duplicate(top, 1));
  }
  emit_slices(&st.ts, list);
  emit_others(&st.ts, events, list);
  emit_sorts(&st, list);
  for (size_t i = 0; i < st.nsorts; i++) {
    sl_mem_free(st.sorts[i].pid_s);
    sl_mem_free(st.sorts[i].tid_s);
  }
  sl_mem_free(st.sorts);
  free_tracks(&st.ts);
  return out;
}

/* ---- self-check ------------------------------------------------------------------------ */

/* X slices of the trace whose name is one of names[0..n): the count of each. */
static void count_named(const cJSON *trace, const char *const *names, size_t n, long *counts) {
  for (size_t i = 0; i < n; i++) counts[i] = 0;
  const cJSON *ev;
  cJSON_ArrayForEach(ev, cJSON_GetObjectItemCaseSensitive(trace, "traceEvents")) {
    if (strcmp(ph_of(ev), "X") != 0) continue;
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(ev, "name");
    for (size_t i = 0; cJSON_IsString(name) && i < n; i++)
      if (!strcmp(name->valuestring, names[i])) counts[i]++;
  }
}

void sl_l0_count_cube(const cJSON *trace, long *mmad, long *fix) {
  static const char *const names[] = {"MMAD", "FIX_L0C_TO_DST"};
  long c[2];
  count_named(trace, names, 2, c);
  *mmad = c[0];
  *fix = c[1];
}

void sl_l0_count_vector(const cJSON *trace, sl_l0_vec_counts *out) {
  static const char *const names[] = {"VADD", "VSUB", "VMUL", "VDIV", "VMAX", "LOAD_GM_TO_UB", "STORE_UB_TO_GM"};
  long c[7];
  count_named(trace, names, 7, c);
  *out = (sl_l0_vec_counts){c[0] + c[1] + c[2] + c[3] + c[4], c[5], c[6]};
}
