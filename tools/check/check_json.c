/*
** check_json.c — validate a Chrome Trace Event JSON file against the rules
** Perfetto's JSON importer applies (see docs/check-trace.md for the list).
**
** The file is streamed through yajl: each event is reduced to the few fields
** the rules need, checked on its own, and its slices / flow ends are kept as
** small records. After the last event, per-lane passes check nesting, flow
** binding and flow identity. Memory is a few dozen bytes per slice or flow end.
*/
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_parse.h>

#include "check_ctx.h"
#include "sl_base.h"

/* ---- per-event scratch ---------------------------------------------------------- */

enum ev_field {
  F_OTHER, F_PH, F_NAME, F_CAT, F_PID, F_TID, F_TS, F_DUR, F_ID, F_BIND_ID,
  F_BP, F_S, F_FLOW_IN, F_FLOW_OUT, F_ID2, F_ARGS
};

typedef struct id_val {
  int has, ok, big;  /* present; usable by Perfetto; a number above 2^53 */
  uint64_t v;
} id_val;

typedef struct lane_val {
  int has, ok, is_str;
  int64_t v;          /* coerced uint32, or the interned string id */
} lane_val;

typedef struct time_val {
  int has, ok;
  int64_t ns;
} time_val;

typedef struct jev {
  uint64_t index;
  int nkeys;
  int has_ph, ph_len;
  char ph;
  int has_name, name_ok;
  uint32_t name;
  int has_cat;
  uint32_t cat;
  lane_val pid, tid;
  time_val ts, dur;
  id_val id, bind_id;
  int bp_e, has_s;
  char s;
  int flow_in, flow_out, has_id2;
  int has_args, args_obj, args_nkeys;
  int args_name_str, args_sort_num;
  int args_bad;       /* C: a non-numeric value; key in args_bad_key */
  uint32_t args_bad_key;
  uint32_t *arg_keys; /* C: numeric series keys */
  size_t narg_keys, arg_keys_cap;
} jev;

/* ---- records kept for the whole-trace passes --------------------------------------- */

typedef struct lane {
  int64_t pid, tid;
  int used;           /* carries slices or instants: counted as a track */
} lane;

typedef struct jslice {
  uint32_t lane, name;
  int64_t start, end;
  uint64_t ev;
} jslice;

typedef struct jbe {
  uint32_t lane, name, cat;
  int has_name;
  char ph;
  int64_t ts;
  uint64_t ev;
} jbe;

typedef struct jflow {
  uint32_t lane, cat, name;
  char ph;
  int bp_e;
  uint64_t id;
  int64_t ts;
  uint64_t ev;
} jflow;

typedef struct jflow2 {
  uint64_t bind_id;
  int in, out;
  uint32_t lane;
  int64_t ts;
  uint64_t ev;
} jflow2;

typedef struct jstate {
  sl_check_ctx *c;
  sl_strtab strs;       /* names, categories, arg keys            */
  sl_strtab tracks;     /* counter and async track keys           */
  int depth;            /* containers currently open              */
  int form;             /* 0 not yet, 1 object, 2 bare array      */
  int events_depth;     /* depth of the traceEvents array's items */
  int top_key_events;   /* the top-level key just read is traceEvents */
  int saw_events, events_done;
  int in_event;
  int ev_field;         /* field of the key just read at event level */
  uint32_t args_key;    /* key just read inside args              */
  uint64_t next_index;
  jev ev;
  lane *lanes;
  size_t nlanes, lanes_cap;
  sl_u64map lane_of;
  jslice *slices;
  size_t nslices, slices_cap;
  jbe *bes;
  size_t nbes, bes_cap;
  jflow *flows;
  size_t nflows, flows_cap;
  jflow2 *flows2;
  size_t nflows2, flows2_cap;
} jstate;

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
static int us_text_to_ns(const char *s, size_t l, int64_t *ns) {
  char buf[64];
  if (l == 0 || l >= sizeof buf) return 0;
  memcpy(buf, s, l);
  buf[l] = 0;
  if (is_int_text(buf, l)) {
    errno = 0;
    long long v = strtoll(buf, NULL, 10);
    if (errno || v > INT64_MAX / 1000 || v < INT64_MIN / 1000) return 0;
    *ns = (int64_t)v * 1000;
    return 1;
  }
  char *end;
  double d = strtod(buf, &end);
  if (*end || !isfinite(d) || fabs(d) > 9.2e15) return 0;
  *ns = (int64_t)llround(d * 1000.0);
  return 1;
}

static void set_time(time_val *t, const char *s, size_t l) {
  t->has = 1;
  t->ok = us_text_to_ns(s, l, &t->ns);
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
    int d = ch >= '0' && ch <= '9' ? ch - '0'
            : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
            : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
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

/* ---- locations and problems ----------------------------------------------------------- */

static sl_check_loc ev_loc(const jev *e) {
  sl_check_loc l = {.event = e->index, .unit = "event"};
  l.has_pid = e->pid.has && !e->pid.is_str;
  l.pid = e->pid.v;
  l.has_tid = e->tid.has && !e->tid.is_str;
  l.tid = e->tid.v;
  l.has_ts = e->ts.has && e->ts.ok;
  l.ts_ns = e->ts.ns;
  return l;
}

static sl_check_loc rec_loc(const jstate *st, uint64_t ev, uint32_t lane_idx, int64_t ts) {
  sl_check_loc l = {.event = ev, .unit = "event", .has_ts = 1, .ts_ns = ts};
  l.has_pid = l.has_tid = 1;
  l.pid = st->lanes[lane_idx].pid;
  l.tid = st->lanes[lane_idx].tid;
  return l;
}

#define PROBLEM(st, fmt, ...)                                   \
  do {                                                          \
    sl_check_loc loc_ = ev_loc(&(st)->ev);                      \
    sl_check_problem((st)->c, &loc_, fmt, ##__VA_ARGS__);       \
  } while (0)

static const char *str(const jstate *st, uint32_t id) { return sl_strtab_get(&st->strs, id); }

/* ---- per-event rules -------------------------------------------------------------------- */

static uint32_t lane_index(jstate *st, int64_t pid, int64_t tid) {
  uint64_t key = (uint64_t)(uint32_t)pid << 32 | (uint32_t)tid;
  int fresh;
  uint64_t *slot = sl_u64map_put(&st->lane_of, key, &fresh);
  if (fresh) {
    sl_grow((void **)&st->lanes, &st->lanes_cap, st->nlanes + 1, sizeof *st->lanes);
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
    PROBLEM(st, "tid 0 is read as tid = pid %" PRId64 ": this lane merges into the "
                "process's main thread (number lanes from 1)", e->pid.v);
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
    PROBLEM(st, "ts is not a number (microseconds)");
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
  sl_grow((void **)&st->slices, &st->slices_cap, st->nslices + 1, sizeof *st->slices);
  st->slices[st->nslices++] =
      (jslice){.lane = ln, .name = st->ev.name, .start = start, .end = end, .ev = st->ev.index};
  st->lanes[ln].used = 1;
}

static void maybe_flow_v2(jstate *st, uint32_t ln) {
  jev *e = &st->ev;
  if (!e->bind_id.has) return;
  check_id_value(st, &e->bind_id, "bind_id");
  if (!e->flow_in && !e->flow_out) {
    PROBLEM(st, "bind_id without flow_in/flow_out: Perfetto drops the flow "
                "(flow_without_direction)");
    return;
  }
  if (!e->bind_id.ok) return;
  sl_grow((void **)&st->flows2, &st->flows2_cap, st->nflows2 + 1, sizeof *st->flows2);
  st->flows2[st->nflows2++] = (jflow2){.bind_id = e->bind_id.v, .in = e->flow_in,
                                       .out = e->flow_out, .lane = ln, .ts = e->ts.ns,
                                       .ev = e->index};
}

static void check_meta(jstate *st) {
  jev *e = &st->ev;
  const char *n = e->has_name && e->name_ok ? str(st, e->name) : "";
  int is_name = !strcmp(n, "process_name") || !strcmp(n, "thread_name");
  int is_sort = !strcmp(n, "process_sort_index") || !strcmp(n, "thread_sort_index");
  if (!is_name && !is_sort) return; /* other metadata is ignored by Perfetto */
  if (!strncmp(n, "thread", 6) && !e->tid.has)
    PROBLEM(st, "%s without tid", n);
  if (!e->pid.has) PROBLEM(st, "%s without pid", n);
  if (!e->has_args || !e->args_obj)
    PROBLEM(st, "%s without an args object", n);
  else if (is_name && !e->args_name_str)
    PROBLEM(st, "%s needs args {\"name\": string}", n);
  else if (is_sort && !e->args_sort_num)
    PROBLEM(st, "%s needs args {\"sort_index\": number}", n);
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
  if (e->args_bad)
    PROBLEM(st, "counter arg \"%s\" is not numeric", str(st, e->args_bad_key));
  for (size_t i = 0; i < e->narg_keys; i++) {
    char key[512];
    snprintf(key, sizeof key, "%" PRId64 "\x1f%s\x1f%s", e->pid.v, str(st, e->name),
             str(st, e->arg_keys[i]));
    sl_strtab_intern(&st->tracks, key, strlen(key));
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
  if (e->ph == 'f' && !e->bp_e) {
    /* legal, but binds to the NEXT slice on the lane: checked in the lane pass */
  }
  sl_grow((void **)&st->flows, &st->flows_cap, st->nflows + 1, sizeof *st->flows);
  st->flows[st->nflows++] = (jflow){.lane = ln, .cat = e->has_cat ? e->cat : UINT32_MAX,
                                    .name = e->has_name ? e->name : UINT32_MAX,
                                    .ph = e->ph, .bp_e = e->bp_e, .id = e->id.v,
                                    .ts = e->ts.ns, .ev = e->index};
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
      PROBLEM(st, "dur is not a number");
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
    sl_grow((void **)&st->bes, &st->bes_cap, st->nbes + 1, sizeof *st->bes);
    st->bes[st->nbes++] = (jbe){.lane = ln, .name = e->name, .cat = e->cat,
                                .has_name = e->has_name && e->name_ok, .ph = e->ph,
                                .ts = e->ts.ns, .ev = e->index};
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
    snprintf(key, sizeof key, "%" PRIu32 "\x1f%" PRIu64, e->has_cat ? e->cat : UINT32_MAX,
             e->id.v);
    sl_strtab_intern(&st->tracks, key, strlen(key));
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
    if (st->in_event && st->depth == event_depth(st) + 1 && st->ev_field == F_ARGS)
      return W_ARG;
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

/* A scalar or container value at the current position. kind: 's' string,
** 'n' number, 'b' bool, '0' null, '{' map, '[' array. */
static void value(jstate *st, char kind, const char *s, size_t l, int bval) {
  jev *e = &st->ev;
  switch (where_now(st)) {
  case W_TOP:
    if (kind == '{') st->form = 1;
    else if (kind == '[') {
      st->form = 2;
      st->events_depth = 1;
      st->saw_events = 1;
    }
    break;
  case W_TOPKEY:
    if (st->top_key_events) {
      st->saw_events = 1;
      if (kind == '[') st->events_depth = 2;
      else sl_check_problem(st->c, NULL, "\"traceEvents\" is not an array");
    }
    break;
  case W_ITEM:
    if (kind == '{') {
      start_item(st);
      st->in_event = 1;
    } else {
      non_object_item(st);
    }
    break;
  case W_FIELD:
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
        e->name = sl_strtab_intern(&st->strs, s, l);
      }
      break;
    case F_CAT:
      if (kind == 's') {
        e->has_cat = 1;
        e->cat = sl_strtab_intern(&st->strs, s, l);
      }
      break;
    case F_PID:
    case F_TID: {
      lane_val *v = st->ev_field == F_PID ? &e->pid : &e->tid;
      if (kind == 'n') set_lane_num(v, s, l);
      else if (kind == 's') {
        v->has = v->ok = v->is_str = 1;
        v->v = sl_strtab_intern(&st->strs, s, l);
      } else {
        v->has = 1;
        v->ok = 0;
      }
      break;
    }
    case F_TS:
    case F_DUR: {
      time_val *t = st->ev_field == F_TS ? &e->ts : &e->dur;
      if (kind == 'n' || kind == 's') set_time(t, s, l);
      else t->has = 1, t->ok = 0;
      break;
    }
    case F_ID:
    case F_BIND_ID: {
      id_val *v = st->ev_field == F_ID ? &e->id : &e->bind_id;
      if (kind == 'n') set_id_num(v, s, l);
      else if (kind == 's') set_id_str(v, s, l);
      else v->has = 1, v->ok = 0;
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
    case F_ID2: e->has_id2 = kind == '{'; break;
    case F_ARGS:
      e->has_args = 1;
      e->args_obj = kind == '{';
      break;
    default: break;
    }
    break;
  case W_ARG: {
    const char *k = str(st, st->args_key);
    if (!strcmp(k, "name") && kind == 's') e->args_name_str = 1;
    if (!strcmp(k, "sort_index") && kind == 'n') e->args_sort_num = 1;
    if (e->ph == 'C' || !e->has_ph) {
      /* ph may come after args (keys are sorted): judge numbers for every event,
      ** use the verdict only for counters. */
      int numeric = kind == 'n' || (kind == 's' && numeric_string(s, l));
      if (numeric) {
        sl_grow((void **)&e->arg_keys, &e->arg_keys_cap, e->narg_keys + 1, sizeof *e->arg_keys);
        e->arg_keys[e->narg_keys++] = st->args_key;
      } else if (!e->args_bad) {
        e->args_bad = 1;
        e->args_bad_key = st->args_key;
      }
    }
    break;
  }
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
  value(st, '{', NULL, 0, 0);
  st->depth++;
  return 1;
}
static int cb_start_array(void *ctx) {
  jstate *st = ctx;
  value(st, '[', NULL, 0, 0);
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
    } keys[] = {{"ph", F_PH},         {"name", F_NAME},         {"cat", F_CAT},
                {"pid", F_PID},       {"tid", F_TID},           {"ts", F_TS},
                {"dur", F_DUR},       {"id", F_ID},             {"bind_id", F_BIND_ID},
                {"bp", F_BP},         {"s", F_S},               {"flow_in", F_FLOW_IN},
                {"flow_out", F_FLOW_OUT}, {"id2", F_ID2},        {"args", F_ARGS}};
    st->ev.nkeys++;
    st->ev_field = F_OTHER;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
      if (strlen(keys[i].k) == l && !memcmp(keys[i].k, s, l)) st->ev_field = keys[i].f;
    return 1;
  }
  if (st->in_event && st->depth == event_depth(st) + 1 && st->ev_field == F_ARGS) {
    st->ev.args_nkeys++;
    st->args_key = sl_strtab_intern(&st->strs, s, l);
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

/* ---- whole-trace passes -------------------------------------------------------------------- */

static int cmp_be(const void *a, const void *b) {
  const jbe *x = a, *y = b;
  if (x->lane != y->lane) return x->lane < y->lane ? -1 : 1;
  if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
  if (x->ph != y->ph) return x->ph == 'E' ? -1 : 1; /* E first at equal ts */
  return x->ev < y->ev ? -1 : x->ev > y->ev;
}

/* B/E pairs -> slices, per lane, in Perfetto's order. */
static void pass_begin_end(jstate *st) {
  qsort(st->bes, st->nbes, sizeof *st->bes, cmp_be);
  size_t *stack = NULL, depth = 0, cap = 0;
  for (size_t i = 0; i < st->nbes; i++) {
    jbe *b = &st->bes[i];
    if (i == 0 || b->lane != st->bes[i - 1].lane) {
      for (size_t k = 0; k < depth; k++) {
        jbe *o = &st->bes[stack[k]];
        sl_check_loc loc = rec_loc(st, o->ev, o->lane, o->ts);
        sl_check_problem(st->c, &loc, "'B' \"%s\" is never ended", str(st, o->name));
      }
      depth = 0;
    }
    if (b->ph == 'B') {
      sl_grow((void **)&stack, &cap, depth + 1, sizeof *stack);
      stack[depth++] = i;
      continue;
    }
    sl_check_loc loc = rec_loc(st, b->ev, b->lane, b->ts);
    if (depth == 0) {
      sl_check_problem(st->c, &loc, "'E' without an open 'B' on this lane");
      continue;
    }
    jbe *o = &st->bes[stack[depth - 1]];
    if (b->has_name && o->has_name && b->name != o->name) {
      sl_check_problem(st->c, &loc,
                       "'E' \"%s\" does not match the innermost open 'B' \"%s\" "
                       "(misplaced_end_event)", str(st, b->name), str(st, o->name));
      continue;
    }
    depth--;
    sl_grow((void **)&st->slices, &st->slices_cap, st->nslices + 1, sizeof *st->slices);
    st->slices[st->nslices++] = (jslice){.lane = o->lane, .name = o->name, .start = o->ts,
                                         .end = b->ts, .ev = o->ev};
    st->lanes[o->lane].used = 1;
  }
  for (size_t k = 0; k < depth; k++) {
    jbe *o = &st->bes[stack[k]];
    sl_check_loc loc = rec_loc(st, o->ev, o->lane, o->ts);
    sl_check_problem(st->c, &loc, "'B' \"%s\" is never ended", str(st, o->name));
  }
  free(stack);
}

static int cmp_slice(const void *a, const void *b) {
  const jslice *x = a, *y = b;
  if (x->lane != y->lane) return x->lane < y->lane ? -1 : 1;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  int64_t dx = x->end - x->start, dy = y->end - y->start;
  if (dx != dy) return dx > dy ? -1 : 1; /* longer first at equal start */
  return x->ev < y->ev ? -1 : x->ev > y->ev;
}

static int cmp_flow_lane(const void *a, const void *b) {
  const jflow *x = a, *y = b;
  if (x->lane != y->lane) return x->lane < y->lane ? -1 : 1;
  if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
  return x->ev < y->ev ? -1 : x->ev > y->ev;
}

static int cmp_flow_key(const void *a, const void *b) {
  const jflow *x = a, *y = b;
  if (x->id != y->id) return x->id < y->id ? -1 : 1;
  if (x->cat != y->cat) return x->cat < y->cat ? -1 : 1;
  if (x->name != y->name) return x->name < y->name ? -1 : 1;
  if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
  return x->ev < y->ev ? -1 : x->ev > y->ev;
}

/* Nesting per lane (partial overlaps), then flow ends bound to slices.
**
** Binding follows Perfetto's slice stack: a slice is pushed when it begins and
** popped lazily when a later slice begins at or after its end. A flow end binds
** to the top of the stack. It is a problem when nothing is open at ts, and a
** warning when ts is exactly a slice's end: the arrow then lands on whichever
** slice happens to be on top (the one ending, or the next one starting there). */
static void pass_lanes(jstate *st) {
  qsort(st->slices, st->nslices, sizeof *st->slices, cmp_slice);
  qsort(st->flows, st->nflows, sizeof *st->flows, cmp_flow_lane);
  size_t *stack = NULL, depth = 0, cap = 0;
  size_t si = 0, fi = 0;
  while (si < st->nslices || fi < st->nflows) {
    uint32_t ln = si < st->nslices ? st->slices[si].lane : UINT32_MAX;
    if (fi < st->nflows && st->flows[fi].lane < ln) ln = st->flows[fi].lane;
    depth = 0;
    const jslice *ended = NULL; /* last slice popped at exactly the next one's start */
    while ((si < st->nslices && st->slices[si].lane == ln) ||
           (fi < st->nflows && st->flows[fi].lane == ln)) {
      int take_slice = si < st->nslices && st->slices[si].lane == ln &&
                       !(fi < st->nflows && st->flows[fi].lane == ln &&
                         st->flows[fi].ts < st->slices[si].start);
      if (take_slice) {
        jslice *s = &st->slices[si++];
        while (depth && st->slices[stack[depth - 1]].end <= s->start) {
          const jslice *p = &st->slices[stack[--depth]];
          if (p->end == s->start && p->end > p->start) ended = p;
        }
        if (depth && st->slices[stack[depth - 1]].end < s->end) {
          jslice *p = &st->slices[stack[depth - 1]];
          char a[32], b[32];
          sl_check_fmt_ts(a, sizeof a, p->start);
          sl_check_fmt_ts(b, sizeof b, p->end);
          sl_check_loc loc = rec_loc(st, s->ev, s->lane, s->start);
          sl_check_problem(st->c, &loc,
                           "slice \"%s\" overlaps \"%s\" [%s, %s] (event #%" PRIu64
                           ") on the same lane without nesting: Perfetto spills it to an "
                           "overflow track", str(st, s->name), str(st, p->name), a, b, p->ev);
          continue;
        }
        sl_grow((void **)&stack, &cap, depth + 1, sizeof *stack);
        stack[depth++] = (size_t)(s - st->slices);
        continue;
      }
      jflow *f = &st->flows[fi++];
      sl_check_loc loc = rec_loc(st, f->ev, f->lane, f->ts);
      const char *fname = f->name == UINT32_MAX ? "" : str(st, f->name);
      if (f->ph == 'f' && !f->bp_e) {
        /* binds to the next slice beginning on this lane after ts */
        size_t k = si;
        while (k < st->nslices && st->slices[k].lane == ln && st->slices[k].start <= f->ts) k++;
        if (!(k < st->nslices && st->slices[k].lane == ln))
          sl_check_problem(st->c, &loc,
                           "'f' without \"bp\": \"e\" binds to the next slice that begins on "
                           "this lane, and none does");
        continue;
      }
      while (depth && st->slices[stack[depth - 1]].end < f->ts) depth--;
      if (depth == 0) {
        sl_check_problem(st->c, &loc,
                         "flow '%c' \"%s\" has no enclosing slice on its lane at its ts "
                         "(flow_no_enclosing_slice: the arrow is dropped)", f->ph, fname);
        continue;
      }
      const jslice *top = &st->slices[stack[depth - 1]];
      if (top->end == f->ts && top->end > top->start) {
        sl_check_warning(st->c, &loc,
                         "flow '%c' \"%s\" is at the very end of slice \"%s\": it binds only "
                         "because nothing else begins there (put it inside the slice)",
                         f->ph, fname, str(st, top->name));
      } else if (top->start == f->ts && ended && ended->end == f->ts) {
        sl_check_warning(st->c, &loc,
                         "flow '%c' \"%s\" is where \"%s\" ends and \"%s\" begins: Perfetto "
                         "binds it to \"%s\"", f->ph, fname, str(st, ended->name),
                         str(st, top->name), str(st, top->name));
      }
    }
  }
  free(stack);
  st->c->slices += st->nslices;
}

/* Identity (id, cat, name): one 's', then 't'/'f' steps. */
static void pass_flow_ids(jstate *st) {
  qsort(st->flows, st->nflows, sizeof *st->flows, cmp_flow_key);
  size_t i = 0;
  while (i < st->nflows) {
    size_t j = i;
    while (j < st->nflows && st->flows[j].id == st->flows[i].id &&
           st->flows[j].cat == st->flows[i].cat && st->flows[j].name == st->flows[i].name)
      j++;
    int started = 0, finished = 0;
    for (size_t k = i; k < j; k++) {
      jflow *f = &st->flows[k];
      sl_check_loc loc = rec_loc(st, f->ev, f->lane, f->ts);
      const char *nm = f->name == UINT32_MAX ? "" : str(st, f->name);
      const char *ct = f->cat == UINT32_MAX ? "" : str(st, f->cat);
      if (f->ph == 's') {
        if (started)
          sl_check_problem(st->c, &loc,
                           "second 's' for flow (id %" PRIu64 ", cat \"%s\", name \"%s\") "
                           "(flow_duplicate_id: dropped)", f->id, ct, nm);
        started = 1;
      } else if (!started) {
        sl_check_problem(st->c, &loc,
                         "'%c' with no earlier 's' of the same (id %" PRIu64
                         ", cat \"%s\", name \"%s\")", f->ph, f->id, ct, nm);
      } else if (f->ph == 'f') {
        finished = 1;
      }
    }
    if (started && !finished) {
      jflow *f = &st->flows[i];
      sl_check_loc loc = rec_loc(st, f->ev, f->lane, f->ts);
      sl_check_problem(st->c, &loc,
                       "flow (id %" PRIu64 ", cat \"%s\", name \"%s\") starts but never "
                       "finishes: no later 'f' with the same id, cat and name",
                       f->id, f->cat == UINT32_MAX ? "" : str(st, f->cat),
                       f->name == UINT32_MAX ? "" : str(st, f->name));
    }
    if (started && finished) st->c->flows++;
    i = j;
  }
}

static int cmp_flow2(const void *a, const void *b) {
  const jflow2 *x = a, *y = b;
  if (x->bind_id != y->bind_id) return x->bind_id < y->bind_id ? -1 : 1;
  return x->ev < y->ev ? -1 : x->ev > y->ev;
}

static void pass_flows_v2(jstate *st) {
  qsort(st->flows2, st->nflows2, sizeof *st->flows2, cmp_flow2);
  for (size_t i = 0; i < st->nflows2;) {
    size_t j = i;
    int outs = 0, ins = 0;
    for (; j < st->nflows2 && st->flows2[j].bind_id == st->flows2[i].bind_id; j++) {
      outs += st->flows2[j].out;
      ins += st->flows2[j].in;
    }
    if (!outs || !ins) {
      jflow2 *f = &st->flows2[i];
      sl_check_loc loc = rec_loc(st, f->ev, f->lane, f->ts);
      sl_check_problem(st->c, &loc, "bind_id %" PRIu64 " has %s but no %s: a flow needs both",
                       f->bind_id, outs ? "flow_out" : "flow_in", outs ? "flow_in" : "flow_out");
    } else {
      st->c->flows++;
    }
    i = j;
  }
}

/* ---- driver ---------------------------------------------------------------------------------- */

/* Perfetto sniffs the first non-space bytes: `{"` or `[{"`. */
static int sniff(jstate *st, const unsigned char *buf, size_t n) {
  size_t i = 0;
  while (i < n && (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\r' || buf[i] == '\t')) i++;
  if (i == n) {
    sl_error(st->c->file, "empty file: not a JSON trace");
    return -1;
  }
  if (buf[i] != '{' && buf[i] != '[') {
    sl_error(st->c->file, "not a JSON trace: it must start with '{' or '['");
    return -1;
  }
  if (buf[i] == '[') {
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
  sl_strtab_free(&st->strs);
  sl_strtab_free(&st->tracks);
  sl_u64map_free(&st->lane_of);
  free(st->ev.arg_keys);
  free(st->lanes);
  free(st->slices);
  free(st->bes);
  free(st->flows);
  free(st->flows2);
}

int sl_check_json(sl_check_ctx *c, FILE *fp) {
  jstate st = {.c = c};
  yajl_handle h = yajl_alloc(&callbacks, NULL, &st);
  if (!h) {
    sl_error(c->file, "out of memory");
    return -1;
  }
  unsigned char buf[1 << 16];
  uint64_t offset = 0;
  int first = 1, rc = 0;
  yajl_status ys = yajl_status_ok;
  for (;;) {
    size_t n = fread(buf, 1, sizeof buf, fp);
    if (n == 0) break;
    if (first) {
      first = 0;
      if (sniff(&st, buf, n) != 0) {
        rc = -1;
        goto done;
      }
    }
    ys = yajl_parse(h, buf, n);
    if (ys != yajl_status_ok) {
      unsigned char *msg = yajl_get_error(h, 0, buf, n);
      sl_error(c->file, "invalid JSON near byte %llu: %s",
               (unsigned long long)(offset + yajl_get_bytes_consumed(h)), (char *)msg);
      yajl_free_error(h, msg);
      rc = -1;
      goto done;
    }
    offset += n;
  }
  if (ferror(fp)) {
    sl_error(c->file, "read error");
    rc = -1;
    goto done;
  }
  if (first) {
    sl_error(c->file, "empty file: not a JSON trace");
    rc = -1;
    goto done;
  }
  ys = yajl_complete_parse(h);
  if (ys != yajl_status_ok) {
    /* A bare array may stop after any complete event (Perfetto accepts that);
    ** anything else cut short is a truncated file. */
    if (st.form == 2 && st.depth == 1 && !st.in_event) {
      sl_warn(c->file, "the bare event array is not closed with ']' (Perfetto accepts this)");
    } else {
      sl_error(c->file, "truncated JSON: the file ends inside %s after byte %llu",
               st.in_event ? "a trace event" : "the trace", (unsigned long long)offset);
      rc = -1;
      goto done;
    }
  }
  if (st.form == 1 && !st.saw_events)
    sl_check_problem(c, NULL, "no \"traceEvents\" array: Perfetto finds no events");
  pass_begin_end(&st);
  pass_lanes(&st);
  pass_flow_ids(&st);
  pass_flows_v2(&st);
  for (size_t i = 0; i < st.nlanes; i++) c->tracks += st.lanes[i].used;
  c->tracks += st.tracks.n;
done:
  yajl_free(h);
  free_state(&st);
  return rc;
}
