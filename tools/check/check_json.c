/*
** check_json.c — validate a Chrome Trace Event JSON file against the rules
** Perfetto's JSON importer applies (see docs/check-trace.md for the list).
**
** The file is streamed through yajl: each event is reduced to the few fields
** the rules need, checked on its own, and its slices / flow ends are kept as
** small records. After the last event, the passes of check_json_passes.c check
** nesting, flow binding and flow identity. Memory is a few dozen bytes per slice
** or flow end.
*/
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_parse.h>

#include "check_json.h"
#include "sl_base.h"
#include "sl_mem.h"

/* ---- small parsers ------------------------------------------------------------------ */

static int is_int_text(const char *s, size_t l) {
  size_t i = (l && s[0] == '-') ? 1 : 0;
  if (i == l) return 0;
  for (; i < l; i++)
    if (s[i] < '0' || s[i] > '9') return 0;
  return 1;
}

/* Microseconds text -> ns the way Perfetto does it: exact for integers, else
** llround(us * 1000) on a double. 0 if not a number. */
static int us_text_to_ns(const char *s, size_t l, int64_t *ns, double *us) {
  char buf[64];
  *us = NAN;
  if (l == 0 || l >= sizeof buf) return 0;
  memcpy(buf, s, l);
  buf[l] = 0;
  if (is_int_text(buf, l)) {
    errno = 0;
    long long v = strtoll(buf, NULL, 10);
    if (errno || v > INT64_MAX / 1000 || v < INT64_MIN / 1000) return 0;
    *ns = (int64_t)v * 1000;
    *us = strtod(buf, NULL);
    return 1;
  }
  char *end;
  double d = strtod(buf, &end);
  if (*end || !isfinite(d) || fabs(d) > 9.2e15) return 0;
  *ns = (int64_t)llround(d * 1000.0);
  *us = d;
  return 1;
}

/* kind 'n': a JSON number (DevTools computes with it); 's': a numeric string */
static void set_time(time_val *t, const char *s, size_t l, int kind) {
  t->has = 1;
  t->ok = us_text_to_ns(s, l, &t->ns, &t->us);
  if (kind != 'n') t->us = NAN;
}

static void set_lane_num(lane_val *v, const char *s, size_t l) {
  v->has = 1;
  v->is_str = 0;
  v->ok = 0;
  v->v = 0;
  if (!is_int_text(s, l) || s[0] == '-' || l > 10) return;
  uint64_t x = strtoull(s, NULL, 10);
  if (x > UINT32_MAX) return;
  v->ok = 1;
  v->v = (int64_t)x;
}

static void set_id_num(id_val *v, const char *s, size_t l) {
  v->has = 1;
  v->ok = 0;
  v->big = 0;
  if (!is_int_text(s, l) || s[0] == '-' || l > 20) return;
  char buf[24];
  memcpy(buf, s, l);
  buf[l] = 0;
  errno = 0;
  unsigned long long x = strtoull(buf, NULL, 10);
  if (errno) return;
  v->ok = 1;
  v->v = x;
  v->big = x > (1ull << 53);
}

/* String ids are hex to Perfetto ("42" is 0x42; "0x2a" is fine too). */
static void set_id_str(id_val *v, const char *s, size_t l) {
  v->has = 1;
  v->ok = 0;
  v->big = 0;
  size_t i = 0;
  if (l > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) i = 2;
  if (i == l || l - i > 16) return;
  uint64_t x = 0;
  for (; i < l; i++) {
    char ch = s[i];
    int d = ch >= '0' && ch <= '9'   ? ch - '0'
            : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
            : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                     : -1;
    if (d < 0) return;
    x = x << 4 | (uint64_t)d;
  }
  v->ok = 1;
  v->v = x;
}

static int numeric_string(const char *s, size_t l) {
  char buf[64];
  if (l == 0 || l >= sizeof buf) return 0;
  memcpy(buf, s, l);
  buf[l] = 0;
  char *end;
  strtod(buf, &end);
  return *end == 0 && end != buf;
}

/* ---- per-event rules -------------------------------------------------------------------- */

static uint32_t lane_index(jstate *st, int64_t pid, int64_t tid) {
  uint64_t key = (uint64_t)(uint32_t)pid << 32 | (uint32_t)tid;
  int fresh;
  uint64_t *slot = sl_map_u64_ref(&st->lane_of, key, &fresh);
  if (fresh) {
    st->lanes = sl_array_grow(st->lanes, &st->lanes_cap, st->nlanes + 1, sizeof *st->lanes);
    st->lanes[st->nlanes] = (lane){.pid = pid, .tid = tid};
    *slot = st->nlanes++;
  }
  return (uint32_t)*slot;
}

/* pid/tid rules shared by thread-scoped phases; returns the lane. */
static uint32_t thread_lane(jstate *st) {
  jev *e = &st->ev;
  if (!e->pid.has)
    PROBLEM(st, "'%c' event without pid (Perfetto puts it in pid 0)", e->ph);
  else if (!e->pid.ok && !e->pid.is_str)
    PROBLEM(st, "pid is not an integer in [0, 2^32): Perfetto reads it as 0");
  if (!e->tid.has)
    PROBLEM(st, "'%c' event without tid (Perfetto uses tid = pid)", e->ph);
  else if (!e->tid.ok && !e->tid.is_str)
    PROBLEM(st, "tid is not an integer in [0, 2^32): Perfetto reads it as 0");
  else if (e->tid.ok && !e->tid.is_str && e->tid.v == 0 && e->pid.v != 0)
    PROBLEM(st,
            "tid 0 is read as tid = pid %" PRId64
            ": this lane merges into the "
            "process's main thread (number lanes from 1)",
            e->pid.v);
  int64_t pid = e->pid.v;
  int64_t tid = e->tid.has ? e->tid.v : pid;
  return lane_index(st, e->pid.is_str ? (int64_t)0x80000000 + pid : pid,
                    e->tid.is_str ? (int64_t)0x80000000 + tid : tid);
}

static int need_ts(jstate *st) {
  jev *e = &st->ev;
  if (!e->ts.has) {
    PROBLEM(st, "'%c' event without ts", e->ph);
    return 0;
  }
  if (!e->ts.ok) {
    PROBLEM(st, "ts is not a number of microseconds within +-9.2e15");
    return 0;
  }
  if (e->ts.ns < 0) {
    PROBLEM(st, "negative ts");
    return 0;
  }
  return 1;
}

static void need_name(jstate *st) {
  jev *e = &st->ev;
  if (!e->has_name || !e->name_ok)
    PROBLEM(st, "'%c' event without a string name (shown as \"[No name]\"; DevTools rejects it)",
            e->ph);
}

static void check_id_value(jstate *st, const id_val *v, const char *key) {
  if (!v->has) return;
  if (!v->ok)
    PROBLEM(st, "%s is neither a non-negative integer nor a hex string", key);
  else if (v->big)
    PROBLEM(st, "%s %" PRIu64 " is above 2^53: write 64-bit ids as hex strings", key, v->v);
}

static void add_slice(jstate *st, uint32_t ln, int64_t start, int64_t end) {
  st->slices = sl_array_grow(st->slices, &st->slices_cap, st->nslices + 1, sizeof *st->slices);
  st->slices[st->nslices++] = (jslice){.lane = ln,
                                       .name = st->ev.name,
                                       .cat = st->ev.has_cat ? st->ev.cat : UINT32_MAX,
                                       .start = start,
                                       .end = end,
                                       .fts = st->ev.ts.us,
                                       .fend = st->ev.ts.us + st->ev.dur.us,
                                       .ev = st->ev.index,
                                       .has_xid = st->ev.id.has && st->ev.id.ok,
                                       .xid = st->ev.id.v};
  st->lanes[ln].used = 1;
}

static void maybe_flow_v2(jstate *st, uint32_t ln) {
  jev *e = &st->ev;
  if (!e->bind_id.has) return;
  check_id_value(st, &e->bind_id, "bind_id");
  if (!e->flow_in && !e->flow_out) {
    PROBLEM(st,
            "bind_id without flow_in/flow_out: Perfetto drops the flow "
            "(flow_without_direction)");
    return;
  }
  if (!e->bind_id.ok) return;
  st->flows2 = sl_array_grow(st->flows2, &st->flows2_cap, st->nflows2 + 1, sizeof *st->flows2);
  st->flows2[st->nflows2++] = (jflow2){.bind_id = e->bind_id.v,
                                       .in = e->flow_in,
                                       .out = e->flow_out,
                                       .lane = ln,
                                       .ts = e->ts.ns,
                                       .ev = e->index};
}

/* Two lanes of one process with one thread_name: Perfetto shows two tracks that
** look alike (counted for a note: sometimes meant, e.g. the resolve sub-lane). */
static void note_thread_name(jstate *st, const jev *e) {
  uint64_t key = sl_fnv64(&e->args_name, sizeof e->args_name, (uint64_t)e->pid.v * 0x9e3779b97f4a7c15ull);
  int fresh;
  uint64_t *slot = sl_map_u64_ref(&st->thread_names, key, &fresh);
  if (fresh) {
    *slot = (uint64_t)e->tid.v + 1;
  } else if (*slot != (uint64_t)e->tid.v + 1) {
    if (!st->dup_names) st->dup_example = e->args_name;
    st->dup_names++;
  }
}

static void check_meta(jstate *st) {
  jev *e = &st->ev;
  const char *n = e->has_name && e->name_ok ? sl_cj_str(st, e->name) : "";
  int is_name = !strcmp(n, "process_name") || !strcmp(n, "thread_name");
  int is_sort = !strcmp(n, "process_sort_index") || !strcmp(n, "thread_sort_index");
  if (!is_name && !is_sort) return; /* other metadata is ignored by Perfetto */
  if (!strncmp(n, "thread", 6) && !e->tid.has) PROBLEM(st, "%s without tid", n);
  if (!e->pid.has) PROBLEM(st, "%s without pid", n);
  if (!e->has_args || !e->args_obj)
    PROBLEM(st, "%s without an args object", n);
  else if (is_name && !e->args_name_str)
    PROBLEM(st, "%s needs args {\"name\": string}", n);
  else if (is_sort && !e->args_sort_num)
    PROBLEM(st, "%s needs args {\"sort_index\": number}", n);
  else if (!strcmp(n, "thread_name") && e->pid.has && e->tid.has)
    note_thread_name(st, e);
}

static void check_counter(jstate *st) {
  jev *e = &st->ev;
  need_ts(st);
  if (!e->pid.has) PROBLEM(st, "counter without pid (Perfetto puts it in pid 0)");
  if (!e->has_name || !e->name_ok) PROBLEM(st, "counter without a string name");
  if (!e->has_args || !e->args_obj) {
    PROBLEM(st, "counter without an args object");
    return;
  }
  if (e->args_nkeys == 0) PROBLEM(st, "counter with empty args: no series");
  if (e->args_bad) PROBLEM(st, "counter arg \"%s\" is not numeric", sl_cj_str(st, e->args_bad_key));
  for (size_t i = 0; i < e->narg_keys; i++) {
    char key[512];
    snprintf(key, sizeof key, "%" PRId64 "\x1f%s\x1f%s", e->pid.v, sl_cj_str(st, e->name),
             sl_cj_str(st, e->arg_keys[i]));
    sl_intern_add(&st->tracks, key, strlen(key));
  }
}

static void check_flow_v1(jstate *st) {
  jev *e = &st->ev;
  uint32_t ln = thread_lane(st);
  int ts_ok = need_ts(st);
  if (!e->id.has) {
    PROBLEM(st, "flow '%c' without id (flow_invalid_id)", e->ph);
    return;
  }
  check_id_value(st, &e->id, "id");
  if (!e->id.ok || !ts_ok) return;
  st->flows = sl_array_grow(st->flows, &st->flows_cap, st->nflows + 1, sizeof *st->flows);
  st->flows[st->nflows++] = (jflow){.lane = ln,
                                    .cat = e->has_cat ? e->cat : UINT32_MAX,
                                    .name = e->has_name ? e->name : UINT32_MAX,
                                    .ph = e->ph,
                                    .bp_e = e->bp_e,
                                    .id = e->id.v,
                                    .has_bind = e->bind_id.has && e->bind_id.ok,
                                    .bind = e->bind_id.v,
                                    .ts = e->ts.ns,
                                    .ev = e->index};
}

static void finish_event(jstate *st) {
  jev *e = &st->ev;
  if (e->nkeys == 0) return; /* {} is skipped silently by Perfetto */
  st->c->events++;
  if (!e->has_ph) {
    PROBLEM(st, "event without ph");
    return;
  }
  if (e->ph_len != 1) {
    PROBLEM(st, "ph must be one character (Perfetto reads only the first)");
    return;
  }
  if (e->ph != 'X' && e->ph != 'C' && e->ph != 'M') check_id_value(st, &e->id, "id");
  switch (e->ph) {
  case 'X': {
    uint32_t ln = thread_lane(st);
    need_name(st);
    int ok = need_ts(st);
    if (e->id.has && !e->id.ok) PROBLEM(st, "id is not a non-negative integer or hex string");
    if (!e->dur.has) {
      PROBLEM(st, "'X' event without dur: Perfetto drops it");
      ok = 0;
    } else if (!e->dur.ok) {
      PROBLEM(st, "dur is not a number of microseconds within +-9.2e15");
      ok = 0;
    } else if (e->dur.ns < 0) {
      PROBLEM(st, "negative dur");
      ok = 0;
    }
    if (ok) add_slice(st, ln, e->ts.ns, e->ts.ns + e->dur.ns);
    maybe_flow_v2(st, ln);
    break;
  }
  case 'B':
  case 'E': {
    uint32_t ln = thread_lane(st);
    need_name(st);
    if (!need_ts(st)) break;
    st->bes = sl_array_grow(st->bes, &st->bes_cap, st->nbes + 1, sizeof *st->bes);
    st->bes[st->nbes++] = (jbe){.lane = ln,
                                .name = e->name,
                                .cat = e->cat,
                                .has_name = e->has_name && e->name_ok,
                                .ph = e->ph,
                                .ts = e->ts.ns,
                                .ev = e->index};
    if (e->ph == 'B') maybe_flow_v2(st, ln);
    break;
  }
  case 'i':
  case 'I':
  case 'R': {
    need_ts(st);
    need_name(st);
    if (e->has_s && e->s != 'g' && e->s != 'p' && e->s != 't') {
      PROBLEM(st, "instant scope s must be \"g\", \"p\" or \"t\"");
    } else if (!e->has_s || e->s == 't') {
      uint32_t ln = thread_lane(st);
      st->lanes[ln].used = 1;
    } else if (e->s == 'p' && !e->pid.has) {
      PROBLEM(st, "process-scoped instant without pid");
    }
    break;
  }
  case 'b':
  case 'e':
  case 'n': {
    need_ts(st);
    if (!e->pid.has) PROBLEM(st, "async '%c' event without pid: Perfetto drops it", e->ph);
    if (!e->id.has && !e->has_id2)
      PROBLEM(st, "async '%c' event without id or id2: Perfetto drops it", e->ph);
    char key[96];
    snprintf(key, sizeof key, "%" PRIu32 "\x1f%" PRIu64, e->has_cat ? e->cat : UINT32_MAX, e->id.v);
    sl_intern_add(&st->tracks, key, strlen(key));
    break;
  }
  case 's':
  case 't':
  case 'f': check_flow_v1(st); break;
  case 'C': check_counter(st); break;
  case 'M': check_meta(st); break;
  default: PROBLEM(st, "phase '%c' is not imported by Perfetto", e->ph);
  }
}

/* ---- yajl callbacks ------------------------------------------------------------------------ */

static int event_depth(const jstate *st) { return st->events_depth + 1; }

/* Where the value now arriving sits. */
enum where { W_TOP, W_TOPKEY, W_ITEM, W_FIELD, W_ARG, W_DEEP };

static enum where where_now(const jstate *st) {
  if (st->depth == 0) return W_TOP;
  if (st->form == 1 && st->depth == 1) return W_TOPKEY;
  if (st->events_depth && !st->events_done) {
    if (st->depth == st->events_depth) return W_ITEM;
    if (st->in_event && st->depth == event_depth(st)) return W_FIELD;
    if (st->in_event && st->depth == event_depth(st) + 1 && st->ev_field == F_ARGS) return W_ARG;
  }
  return W_DEEP;
}

static void start_item(jstate *st) {
  jev *e = &st->ev;
  uint32_t *keys = e->arg_keys;
  size_t cap = e->arg_keys_cap;
  memset(e, 0, sizeof *e);
  e->arg_keys = keys;
  e->arg_keys_cap = cap;
  e->index = st->next_index++;
}

static void non_object_item(jstate *st) {
  start_item(st);
  sl_check_loc loc = {.event = st->ev.index, .unit = "event"};
  sl_check_problem(st->c, &loc, "trace event is not a JSON object");
}

/* The kinds of value(): 's' string, 'n' number, 'b' bool, '0' null, and the two
** containers (named, so that the code reads as what it tests). */
enum { KIND_MAP = '{', KIND_ARRAY = '[' };

/* A value of one of the event's own fields (ph, name, pid, ts, ...). */
static void field_value(jstate *st, char kind, const char *s, size_t l, int bval) {
  jev *e = &st->ev;
  switch (st->ev_field) {
  case F_PH:
    if (kind == 's') {
      e->has_ph = 1;
      e->ph_len = (int)l;
      e->ph = l ? s[0] : 0;
    }
    break;
  case F_NAME:
    e->has_name = 1;
    if (kind == 's') {
      e->name_ok = 1;
      e->name = sl_intern_add(&st->strs, s, l);
    }
    break;
  case F_CAT:
    if (kind == 's') {
      e->has_cat = 1;
      e->cat = sl_intern_add(&st->strs, s, l);
    }
    break;
  case F_PID:
  case F_TID: {
    lane_val *v = st->ev_field == F_PID ? &e->pid : &e->tid;
    if (kind == 'n')
      set_lane_num(v, s, l);
    else if (kind == 's') {
      v->has = v->ok = v->is_str = 1;
      v->v = sl_intern_add(&st->strs, s, l);
    } else {
      v->has = 1;
      v->ok = 0;
    }
    break;
  }
  case F_TS:
  case F_DUR: {
    time_val *t = st->ev_field == F_TS ? &e->ts : &e->dur;
    if (kind == 'n' || kind == 's')
      set_time(t, s, l, kind);
    else
      t->has = 1, t->ok = 0;
    break;
  }
  case F_ID:
  case F_BIND_ID: {
    id_val *v = st->ev_field == F_ID ? &e->id : &e->bind_id;
    if (kind == 'n')
      set_id_num(v, s, l);
    else if (kind == 's')
      set_id_str(v, s, l);
    else
      v->has = 1, v->ok = 0;
    break;
  }
  case F_BP: e->bp_e = kind == 's' && l == 1 && s[0] == 'e'; break;
  case F_S:
    if (kind == 's') {
      e->has_s = 1;
      e->s = l == 1 ? s[0] : '?';
    }
    break;
  case F_FLOW_IN: e->flow_in = kind == 'b' && bval; break;
  case F_FLOW_OUT: e->flow_out = kind == 'b' && bval; break;
  case F_ID2: e->has_id2 = kind == KIND_MAP; break;
  case F_ARGS:
    e->has_args = 1;
    e->args_obj = kind == KIND_MAP;
    break;
  default: break;
  }
}

/* A value inside the event's args: the name/sort_index metadata, counter numbers. */
static void arg_value(jstate *st, char kind, const char *s, size_t l) {
  jev *e = &st->ev;
  const char *k = sl_cj_str(st, st->args_key);
  if (!strcmp(k, "name") && kind == 's') {
    e->args_name_str = 1;
    e->args_name = sl_intern_add(&st->strs, s, l);
  }
  if (!strcmp(k, "sort_index") && kind == 'n') e->args_sort_num = 1;
  if (e->ph == 'C' || !e->has_ph) {
    /* ph may come after args (keys are sorted): judge numbers for every event,
    ** use the verdict only for counters. */
    int numeric = kind == 'n' || (kind == 's' && numeric_string(s, l));
    if (numeric) {
      e->arg_keys = sl_array_grow(e->arg_keys, &e->arg_keys_cap, e->narg_keys + 1, sizeof *e->arg_keys);
      e->arg_keys[e->narg_keys++] = st->args_key;
    } else if (!e->args_bad) {
      e->args_bad = 1;
      e->args_bad_key = st->args_key;
    }
  }
}

/* A scalar or container value at the current position, of the given kind. */
static void value(jstate *st, char kind, const char *s, size_t l, int bval) {
  switch (where_now(st)) {
  case W_TOP:
    if (kind == KIND_MAP)
      st->form = 1;
    else if (kind == KIND_ARRAY) {
      st->form = 2;
      st->events_depth = 1;
      st->saw_events = 1;
    }
    break;
  case W_TOPKEY:
    if (st->top_key_events) {
      st->saw_events = 1;
      if (kind == KIND_ARRAY)
        st->events_depth = 2;
      else
        sl_check_problem(st->c, NULL, "\"traceEvents\" is not an array");
    }
    break;
  case W_ITEM:
    if (kind == KIND_MAP) {
      start_item(st);
      st->in_event = 1;
    } else {
      non_object_item(st);
    }
    break;
  case W_FIELD: field_value(st, kind, s, l, bval); break;
  case W_ARG: arg_value(st, kind, s, l); break;
  case W_DEEP: break;
  }
}

static int cb_null(void *ctx) {
  value(ctx, '0', NULL, 0, 0);
  return 1;
}
static int cb_bool(void *ctx, int b) {
  value(ctx, 'b', NULL, 0, b);
  return 1;
}
static int cb_number(void *ctx, const char *s, size_t l) {
  value(ctx, 'n', s, l, 0);
  return 1;
}
static int cb_string(void *ctx, const unsigned char *s, size_t l) {
  value(ctx, 's', (const char *)s, l, 0);
  return 1;
}
static int cb_start_map(void *ctx) {
  jstate *st = ctx;
  value(st, KIND_MAP, NULL, 0, 0);
  st->depth++;
  return 1;
}
static int cb_start_array(void *ctx) {
  jstate *st = ctx;
  value(st, KIND_ARRAY, NULL, 0, 0);
  st->depth++;
  return 1;
}

static int cb_map_key(void *ctx, const unsigned char *k, size_t l) {
  jstate *st = ctx;
  const char *s = (const char *)k;
  if (st->form == 1 && st->depth == 1) {
    st->top_key_events = l == 11 && !memcmp(s, "traceEvents", 11);
    return 1;
  }
  if (st->in_event && st->depth == event_depth(st)) {
    static const struct {
      const char *k;
      int f;
    } keys[] = {{"ph", F_PH},
                {"name", F_NAME},
                {"cat", F_CAT},
                {"pid", F_PID},
                {"tid", F_TID},
                {"ts", F_TS},
                {"dur", F_DUR},
                {"id", F_ID},
                {"bind_id", F_BIND_ID},
                {"bp", F_BP},
                {"s", F_S},
                {"flow_in", F_FLOW_IN},
                {"flow_out", F_FLOW_OUT},
                {"id2", F_ID2},
                {"args", F_ARGS}};
    st->ev.nkeys++;
    st->ev_field = F_OTHER;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
      if (strlen(keys[i].k) == l && !memcmp(keys[i].k, s, l)) st->ev_field = keys[i].f;
    return 1;
  }
  if (st->in_event && st->depth == event_depth(st) + 1 && st->ev_field == F_ARGS) {
    st->ev.args_nkeys++;
    st->args_key = sl_intern_add(&st->strs, s, l);
  }
  return 1;
}

static int cb_end_map(void *ctx) {
  jstate *st = ctx;
  st->depth--;
  if (st->in_event && st->depth == st->events_depth) {
    st->in_event = 0;
    finish_event(st);
  }
  return 1;
}

static int cb_end_array(void *ctx) {
  jstate *st = ctx;
  st->depth--;
  if (st->events_depth && st->depth == st->events_depth - 1) st->events_done = 1;
  return 1;
}

static const yajl_callbacks callbacks = {
    .yajl_null = cb_null,
    .yajl_boolean = cb_bool,
    .yajl_number = cb_number,
    .yajl_string = cb_string,
    .yajl_start_map = cb_start_map,
    .yajl_map_key = cb_map_key,
    .yajl_end_map = cb_end_map,
    .yajl_start_array = cb_start_array,
    .yajl_end_array = cb_end_array,
};

/* ---- driver ---------------------------------------------------------------------------------- */

/* Perfetto sniffs the first non-space bytes: `{"` or `[{"`. */
static int sniff(jstate *st, const unsigned char *buf, size_t n) {
  size_t i = 0;
  while (i < n && (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\r' || buf[i] == '\t')) i++;
  if (i == n) {
    sl_error(st->c->file, "empty file: not a JSON trace");
    return -1;
  }
  if (buf[i] != KIND_MAP && buf[i] != KIND_ARRAY) {
    sl_error(st->c->file, "not a JSON trace: it must start with '%c' or '%c'", KIND_MAP, KIND_ARRAY);
    return -1;
  }
  if (buf[i] == KIND_ARRAY) {
    size_t k = i + 1;
    while (k < n && (buf[k] == ' ' || buf[k] == '\n' || buf[k] == '\r' || buf[k] == '\t')) k++;
    if (k < n && buf[k] == ']')
      sl_check_problem(st->c, NULL,
                       "empty bare array: Perfetto does not recognise \"[]\"; write "
                       "{\"traceEvents\": []}");
  }
  return 0;
}

static void free_state(jstate *st) {
  sl_intern_free(&st->strs);
  sl_intern_free(&st->tracks);
  sl_map_free(&st->lane_of);
  sl_map_free(&st->thread_names);
  sl_mem_free(st->ev.arg_keys);
  sl_mem_free(st->lanes);
  sl_mem_free(st->slices);
  sl_mem_free(st->bes);
  sl_mem_free(st->flows);
  sl_mem_free(st->flows2);
}

/* Feed the whole file to the parser: 0 when it parsed (a bare array left open is
** only warned about), -1 (reported) when it is not a JSON trace, unreadable or cut short. */
static int parse_file(jstate *st, yajl_handle h, FILE *fp) {
  const char *file = st->c->file;
  unsigned char buf[1 << 16];
  uint64_t offset = 0;
  int first = 1;
  for (;;) {
    size_t n = fread(buf, 1, sizeof buf, fp);
    if (n == 0) break;
    if (first) {
      first = 0;
      if (sniff(st, buf, n) != 0) return -1;
    }
    if (yajl_parse(h, buf, n) != yajl_status_ok) {
      unsigned char *msg = yajl_get_error(h, 0, buf, n);
      for (size_t k = strlen((char *)msg); k && (msg[k - 1] == '\n' || msg[k - 1] == ' ');)
        msg[--k] = 0;
      sl_error(file, "invalid JSON near byte %llu: %s",
               (unsigned long long)(offset + yajl_get_bytes_consumed(h)), (char *)msg);
      yajl_free_error(h, msg);
      return -1;
    }
    offset += n;
  }
  if (ferror(fp)) return sl_error(file, "read error"), -1;
  if (first) return sl_error(file, "empty file: not a JSON trace"), -1;
  if (yajl_complete_parse(h) == yajl_status_ok) return 0;
  /* A bare array may stop after any complete event (Perfetto accepts that);
  ** anything else cut short is a truncated file. */
  if (st->form == 2 && st->depth == 1 && !st->in_event) {
    sl_warn(file, "the bare event array is not closed with ']' (Perfetto accepts this)");
    return 0;
  }
  sl_error(file, "truncated JSON: the file ends inside %s after byte %llu",
           st->in_event ? "a trace event" : "the trace", (unsigned long long)offset);
  return -1;
}

/* What Perfetto imports but another viewer draws differently: notes, not problems. */
static void print_notes(const jstate *st) {
  sl_check_ctx *c = st->c;
  if (st->cross_cat)
    fprintf(c->out,
            "swimlane: %s: note: %" PRIu64 " arrows join slices of different categories: Chrome "
            "DevTools pairs flow ends by category, so it cannot draw them (Perfetto does)\n",
            c->file, st->cross_cat);
  if (st->dup_names)
    fprintf(c->out,
            "swimlane: %s: note: %" PRIu64 " lanes share a thread_name with another lane of "
            "their process (e.g. \"%s\"): Perfetto shows separate tracks with one name\n",
            c->file, st->dup_names, sl_cj_str(st, st->dup_example));
  if (st->backward)
    fprintf(c->out,
            "swimlane: %s: note: %" PRIu64 " arrows point back in time (the sink slice begins "
            "before the source): Perfetto draws them from this JSON, Chrome DevTools and a "
            ".pftrace cannot\n",
            c->file, st->backward);
}

int sl_check_json(sl_check_ctx *c, FILE *fp) {
  jstate st = {.c = c};
  yajl_handle h = yajl_alloc(&callbacks, NULL, &st);
  if (!h) sl_mem_fail(0); /* yajl allocates on its own: its failure ends the one way */
  int rc = parse_file(&st, h, fp);
  if (rc != 0) goto done;
  if (st.form == 1 && !st.saw_events)
    sl_check_problem(c, NULL, "no \"traceEvents\" array: Perfetto finds no events");
  sl_cj_pass_begin_end(&st);
  sl_cj_pass_lanes(&st);
  sl_cj_pass_devtools_tree(&st);
  sl_cj_pass_bind_ids(&st);
  sl_cj_pass_flow_ids(&st);
  sl_cj_pass_flows_v2(&st);
  print_notes(&st);
  for (size_t i = 0; i < st.nlanes; i++) c->tracks += st.lanes[i].used;
  c->tracks += sl_intern_count(&st.tracks);
done:
  yajl_free(h);
  free_state(&st);
  return rc;
}
