/*
** check_json.h — internals of the Chrome-JSON checker, shared by its reader
** (check_json.c: streaming parse and per-event rules) and its whole-trace passes
** (check_json_passes.c: nesting, flow binding and identity per lane).
*/
#ifndef SL_CHECK_JSON_H
#define SL_CHECK_JSON_H

#include <stdint.h>

#include "check_ctx.h"

/* ---- per-event scratch ---------------------------------------------------------- */

enum ev_field {
  F_OTHER,
  F_PH,
  F_NAME,
  F_CAT,
  F_PID,
  F_TID,
  F_TS,
  F_DUR,
  F_ID,
  F_BIND_ID,
  F_BP,
  F_S,
  F_FLOW_IN,
  F_FLOW_OUT,
  F_ID2,
  F_ARGS
};

typedef struct id_val {
  int has, ok, big; /* present; usable by Perfetto; a number above 2^53 */
  uint64_t v;
} id_val;

typedef struct lane_val {
  int has, ok, is_str;
  int64_t v; /* coerced uint32, or the interned string id */
} lane_val;

typedef struct time_val {
  int has, ok;
  int64_t ns;
  double us; /* the number as Chrome DevTools reads it (NaN: a string or no number) */
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
  uint32_t args_name; /* the string of args.name (strs id), when args_name_str */
  int args_bad; /* C: a non-numeric value; key in args_bad_key */
  uint32_t args_bad_key;
  uint32_t *arg_keys; /* C: numeric series keys */
  size_t narg_keys, arg_keys_cap;
} jev;

/* ---- records kept for the whole-trace passes --------------------------------------- */

typedef struct lane {
  int64_t pid, tid;
  int used; /* carries slices or instants: counted as a track */
} lane;

typedef struct jslice {
  uint32_t lane, name;
  uint32_t cat; /* UINT32_MAX = none / unknown (B/E slices) */
  int has_xid; /* an X event's own "id" (what bind_id may name) */
  uint64_t xid;
  int64_t start, end;
  double fts, fend; /* DevTools' view: ts and ts + dur in double (NaN: not a JSON number) */
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
  int has_bind; /* a bind_id on a v1 flow event: ignored by Perfetto */
  uint64_t bind;
  uint64_t id;
  int64_t ts;
  uint64_t ev;
  uint32_t bound; /* index + 1 of the slice Perfetto binds it to (pass_lanes) */
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
  sl_intern strs;     /* names, categories, arg keys            */
  sl_intern tracks;   /* counter and async track keys           */
  int depth;          /* containers currently open              */
  int form;           /* 0 not yet, 1 object, 2 bare array      */
  int events_depth;   /* depth of the traceEvents array's items */
  int top_key_events; /* the top-level key just read is traceEvents */
  int saw_events, events_done;
  int in_event;
  int ev_field;      /* field of the key just read at event level */
  uint32_t args_key; /* key just read inside args              */
  uint64_t next_index;
  jev ev;
  lane *lanes;
  size_t nlanes, lanes_cap;
  sl_map lane_of;
  jslice *slices;
  size_t nslices, slices_cap;
  jbe *bes;
  size_t nbes, bes_cap;
  jflow *flows;
  size_t nflows, flows_cap;
  jflow2 *flows2;
  size_t nflows2, flows2_cap;
  uint64_t cross_cat; /* arrows between slices of different categories */
  uint64_t backward;  /* arrows whose sink slice begins before their source */
  sl_map thread_names; /* hash(pid, thread_name) -> tid + 1 of its first lane */
  uint64_t dup_names;    /* thread_name given to a second lane of one process */
  uint32_t dup_example;  /* one such name (strs id) */
} jstate;

/* ---- locations and problems ----------------------------------------------------------- */

static inline sl_check_loc sl_cj_ev_loc(const jev *e) {
  sl_check_loc l = {.event = e->index, .unit = "event"};
  l.has_pid = e->pid.has && !e->pid.is_str;
  l.pid = e->pid.v;
  l.has_tid = e->tid.has && !e->tid.is_str;
  l.tid = e->tid.v;
  l.has_ts = e->ts.has && e->ts.ok;
  l.ts_ns = e->ts.ns;
  return l;
}

static inline sl_check_loc sl_cj_rec_loc(const jstate *st, uint64_t ev, uint32_t lane_idx,
                                         int64_t ts) {
  sl_check_loc l = {.event = ev, .unit = "event", .has_ts = 1, .ts_ns = ts};
  l.has_pid = l.has_tid = 1;
  l.pid = st->lanes[lane_idx].pid;
  l.tid = st->lanes[lane_idx].tid;
  return l;
}

#define PROBLEM(st, fmt, ...)                             \
  do {                                                    \
    sl_check_loc loc_ = sl_cj_ev_loc(&(st)->ev);          \
    sl_check_problem((st)->c, &loc_, fmt, ##__VA_ARGS__); \
  } while (0)

static inline const char *sl_cj_str(const jstate *st, uint32_t id) {
  const char *s = sl_intern_str(&st->strs, id);
  return s ? s : "";
}

/* The whole-trace passes, run in this order after the last event. */
void sl_cj_pass_begin_end(jstate *st);
void sl_cj_pass_lanes(jstate *st);
void sl_cj_pass_devtools_tree(jstate *st);
void sl_cj_pass_bind_ids(jstate *st);
void sl_cj_pass_flow_ids(jstate *st);
void sl_cj_pass_flows_v2(jstate *st);

#endif /* SL_CHECK_JSON_H */
