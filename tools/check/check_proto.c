/*
** check_proto.c — validate a Perfetto protobuf trace against the rules trace
** processor applies silently (docs/check-trace.md, Protobuf rules).
**
** Packets are read one frame at a time and unpacked with protobuf-c against
** swimlane's subset of the trace protos. Per sequence we track whether its
** incremental state was cleared and which iids are defined; per track we keep a
** small record per BEGIN/END so the nesting pass can run in Perfetto's order
** (by timestamp, ties in file order) after the last packet.
*/
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check_ctx.h"
#include "sl_base.h"
#include "sl_pftrace.h"
#include "sl_mem.h"

typedef Perfetto__Protos__TracePacket Packet;
typedef Perfetto__Protos__TrackEvent TrackEvent;
typedef Perfetto__Protos__TrackDescriptor TrackDescriptor;
typedef Perfetto__Protos__DebugAnnotation DebugAnnotation;

enum track_kind { TK_PLAIN, TK_PROCESS, TK_THREAD, TK_COUNTER };

typedef struct ptrack {
  uint64_t uuid, parent;
  int kind;
  int64_t pid, tid;
  uint64_t packet;
  int has_rank;       /* sibling_order_rank set                       */
  int explicit_order; /* child_ordering EXPLICIT: children by their rank */
} ptrack;

/* One endpoint of a flow, for the direction pass. */
typedef struct pflow_end {
  uint64_t id;
  int64_t ts;
  uint64_t packet;
  int64_t max_before; /* latest timestamp of any track event before this packet */
} pflow_end;

typedef struct pseq {
  int valid;      /* SEQ_INCREMENTAL_STATE_CLEARED seen      */
  sl_map names; /* iid -> string id + 1                     */
  sl_map cats, ann_names, ann_strings;
  int has_default_track;
  uint64_t default_track;
} pseq;

typedef struct pevent {
  uint32_t track;
  int type; /* 1 BEGIN, 2 END                           */
  int has_name;
  uint32_t name;
  int64_t ts;
  uint64_t packet;
} pevent;

typedef struct pstate {
  sl_check_ctx *c;
  sl_intern strs;
  ptrack *tracks;
  size_t ntracks, tracks_cap;
  sl_map track_of;   /* uuid -> index */
  sl_map process_of; /* pid -> uuid */
  sl_map thread_of;  /* hash(pid, tid) -> uuid */
  pseq *seqs;
  size_t nseqs, seqs_cap;
  sl_map seq_of; /* sequence id -> index */
  pevent *events;
  size_t nevents, events_cap;
  sl_map flow_ends;  /* flow id -> endpoints seen (open flows) */
  sl_map flow_first; /* flow id -> packet of its first endpoint + 1 */
  uint64_t packet;     /* index of the packet being checked */
  pflow_end *ends;
  size_t nends, ends_cap;
  int64_t ts_max; /* latest track-event timestamp so far (-1: none) */
} pstate;

/* ---- locations ----------------------------------------------------------------------- */

static sl_check_loc track_loc(const pstate *st, uint64_t packet, const ptrack *t, int has_ts,
                              int64_t ts) {
  sl_check_loc l = {.event = packet, .unit = "packet", .has_ts = has_ts, .ts_ns = ts};
  if (t && (t->kind == TK_THREAD || t->kind == TK_PROCESS)) {
    l.has_pid = 1;
    l.pid = t->pid;
    l.has_tid = t->kind == TK_THREAD;
    l.tid = t->tid;
  }
  (void)st;
  return l;
}

#define PKT_PROBLEM(st, t, has_ts, ts, ...)                                 \
  do {                                                                      \
    sl_check_loc loc_ = track_loc((st), (st)->packet, (t), (has_ts), (ts)); \
    sl_check_problem((st)->c, &loc_, __VA_ARGS__);                          \
  } while (0)

/* ---- sequences and interning ------------------------------------------------------------ */

static const char *str_of(const pstate *st, uint32_t id) {
  const char *s = sl_intern_str(&st->strs, id);
  return s ? s : "";
}

static pseq *seq_get(pstate *st, uint32_t id) {
  int fresh;
  uint64_t *slot = sl_map_u64_ref(&st->seq_of, id, &fresh);
  if (fresh) {
    st->seqs = sl_array_grow(st->seqs, &st->seqs_cap, st->nseqs + 1, sizeof *st->seqs);
    memset(&st->seqs[st->nseqs], 0, sizeof *st->seqs);
    *slot = st->nseqs++;
  }
  return &st->seqs[*slot];
}

static void seq_clear(pseq *q) {
  sl_map_free(&q->names);
  sl_map_free(&q->cats);
  sl_map_free(&q->ann_names);
  sl_map_free(&q->ann_strings);
  q->has_default_track = 0;
  q->valid = 1;
}

static void define_iid(pstate *st, sl_map *m, uint64_t iid, const char *name, size_t len,
                       const char *what) {
  if (iid == 0) {
    PKT_PROBLEM(st, NULL, 0, 0, "interned %s with iid 0 (iids start at 1)", what);
    return;
  }
  *sl_map_u64_ref(m, iid, NULL) = (uint64_t)sl_intern_add(&st->strs, name ? name : "", len) + 1;
}

static void take_interned(pstate *st, pseq *q, const Perfetto__Protos__InternedData *in) {
  for (size_t i = 0; i < in->n_event_names; i++) {
    const char *n = in->event_names[i]->name;
    define_iid(st, &q->names, in->event_names[i]->iid, n, n ? strlen(n) : 0, "event name");
  }
  for (size_t i = 0; i < in->n_event_categories; i++) {
    const char *n = in->event_categories[i]->name;
    define_iid(st, &q->cats, in->event_categories[i]->iid, n, n ? strlen(n) : 0, "category");
  }
  for (size_t i = 0; i < in->n_debug_annotation_names; i++) {
    const char *n = in->debug_annotation_names[i]->name;
    define_iid(st, &q->ann_names, in->debug_annotation_names[i]->iid, n, n ? strlen(n) : 0,
               "debug annotation name");
  }
  for (size_t i = 0; i < in->n_debug_annotation_string_values; i++) {
    const Perfetto__Protos__InternedString *s = in->debug_annotation_string_values[i];
    define_iid(st, &q->ann_strings, s->iid, (const char *)s->str.data, s->str.len,
               "debug annotation string");
  }
}

/* An annotation's `field` (name_iid, string_value_iid) names an iid that `defined` (the
** sequence's interned table, NULL without a valid sequence) must hold. */
static void require_iid(pstate *st, const sl_map *defined, uint64_t iid, const char *field, const ptrack *t,
                        int64_t ts) {
  if (!defined || !sl_map_u64_get(defined, iid, NULL))
    PKT_PROBLEM(st, t, 1, ts, "debug annotation %s %" PRIu64 " is not defined on this sequence", field, iid);
}

/* Does the annotation tree use iids; are they all defined? */
static void check_annotation(pstate *st, const pseq *q, const DebugAnnotation *d, int top,
                             const ptrack *t, int64_t ts, int *uses_iids) {
  if (d->name_field_case == PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME_IID) {
    *uses_iids = 1;
    require_iid(st, q ? &q->ann_names : NULL, d->name_iid, "name_iid", t, ts);
  } else if (top && d->name_field_case != PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME) {
    PKT_PROBLEM(st, t, 1, ts, "debug annotation without a name");
  }
  if (d->value_case == PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE_IID) {
    *uses_iids = 1;
    require_iid(st, q ? &q->ann_strings : NULL, d->string_value_iid, "string_value_iid", t, ts);
  }
  for (size_t i = 0; i < d->n_dict_entries; i++)
    check_annotation(st, q, d->dict_entries[i], 1, t, ts, uses_iids);
  for (size_t i = 0; i < d->n_array_values; i++)
    check_annotation(st, q, d->array_values[i], 0, t, ts, uses_iids);
}

/* ---- tracks --------------------------------------------------------------------------------- */

static void take_descriptor(pstate *st, const TrackDescriptor *td) {
  st->c->tracks++;
  if (!td->has_uuid || td->uuid == 0) {
    PKT_PROBLEM(st, NULL, 0, 0,
                "TrackDescriptor without a non-zero uuid (0 is the implicit "
                "global track)");
    return;
  }
  ptrack t = {.uuid = td->uuid,
              .parent = td->has_parent_uuid ? td->parent_uuid : 0,
              .packet = st->packet,
              .has_rank = td->has_sibling_order_rank,
              .explicit_order = td->has_child_ordering &&
                                td->child_ordering ==
                                    PERFETTO__PROTOS__TRACK_DESCRIPTOR__CHILD_TRACKS_ORDERING__EXPLICIT};
  if (td->process) {
    t.kind = TK_PROCESS;
    t.pid = td->process->pid;
    if (!td->process->has_pid)
      PKT_PROBLEM(st, NULL, 0, 0,
                  "process track %" PRIu64
                  " without pid "
                  "(track_descriptor_process_missing_pid)",
                  td->uuid);
  }
  if (td->thread) {
    t.kind = TK_THREAD;
    t.pid = td->thread->pid;
    t.tid = td->thread->tid;
    if (!td->thread->has_pid || !td->thread->has_tid)
      PKT_PROBLEM(st, NULL, 0, 0,
                  "thread track %" PRIu64
                  " without pid and tid "
                  "(track_descriptor_thread_missing_pid_tid)",
                  td->uuid);
  }
  if (td->counter) {
    if (td->process || td->thread)
      PKT_PROBLEM(st, NULL, 0, 0,
                  "track %" PRIu64
                  " is both a counter and a process/thread "
                  "track",
                  td->uuid);
    t.kind = TK_COUNTER;
  }
  int fresh;
  uint64_t *slot = sl_map_u64_ref(&st->track_of, td->uuid, &fresh);
  if (!fresh) {
    const ptrack *o = &st->tracks[*slot];
    st->c->tracks--;
    if (o->kind != t.kind || o->pid != t.pid || o->tid != t.tid || o->parent != t.parent)
      PKT_PROBLEM(st, &t, 0, 0,
                  "uuid %" PRIu64 " already names a different track (packet #%" PRIu64
                  "): uuids must be unique",
                  td->uuid, o->packet);
    return; /* an identical re-emission is allowed */
  }
  st->tracks = sl_array_grow(st->tracks, &st->tracks_cap, st->ntracks + 1, sizeof *st->tracks);
  st->tracks[st->ntracks] = t;
  *slot = st->ntracks++;
  if (t.kind == TK_PROCESS && td->process->has_pid) {
    uint64_t *u = sl_map_u64_ref(&st->process_of, (uint64_t)t.pid, &fresh);
    if (!fresh && *u != t.uuid)
      PKT_PROBLEM(st, &t, 0, 0,
                  "a second process track for pid %" PRId64 " (uuid %" PRIu64 " and %" PRIu64 ")",
                  t.pid, *u, t.uuid);
    *u = t.uuid;
  }
  if (t.kind == TK_THREAD && td->thread->has_pid && td->thread->has_tid) {
    uint64_t key = sl_fnv64(&t.tid, sizeof t.tid, (uint64_t)t.pid * 0x9e3779b97f4a7c15ull);
    uint64_t *u = sl_map_u64_ref(&st->thread_of, key, &fresh);
    if (!fresh && *u != t.uuid)
      PKT_PROBLEM(st, &t, 0, 0,
                  "a second thread track for pid %" PRId64 " tid %" PRId64 " (uuid %" PRIu64
                  " and %" PRIu64 ")",
                  t.pid, t.tid, *u, t.uuid);
    *u = t.uuid;
  }
}

/* ---- events --------------------------------------------------------------------------------- */

static void take_flow_ids(pstate *st, const uint64_t *ids, size_t n, int terminating, int has_ts, int64_t ts) {
  for (size_t i = 0; i < n; i++) {
    if (has_ts) {
      st->ends = sl_array_grow(st->ends, &st->ends_cap, st->nends + 1, sizeof *st->ends);
      st->ends[st->nends++] = (pflow_end){.id = ids[i], .ts = ts, .packet = st->packet, .max_before = st->ts_max};
    }
    int fresh;
    uint64_t *cnt = sl_map_u64_ref(&st->flow_ends, ids[i], &fresh);
    uint64_t *first = sl_map_u64_ref(&st->flow_first, ids[i], NULL);
    if (*cnt == 0) *first = st->packet + 1;
    (*cnt)++;
    if (terminating) {
      if (*cnt < 2) {
        sl_check_loc loc = {.event = st->packet, .unit = "packet"};
        sl_check_problem(st->c, &loc,
                         "flow %" PRIu64
                         " terminates at its first endpoint: a "
                         "flow needs at least two",
                         ids[i]);
      } else {
        st->c->flows++;
      }
      *cnt = 0; /* the id is free for reuse */
    }
  }
}

static void take_event(pstate *st, const Packet *pk, pseq *q) {
  const TrackEvent *te = pk->track_event;
  st->c->events++;
  int has_ts = pk->has_timestamp;
  int64_t ts = (int64_t)pk->timestamp;
  uint64_t uuid = te->has_track_uuid            ? te->track_uuid
                  : (q && q->has_default_track) ? q->default_track
                                                : 0;
  const ptrack *t = NULL;
  uint64_t *ti = uuid ? sl_map_u64_find(&st->track_of, uuid) : NULL;
  if (ti) t = &st->tracks[*ti];
  if (!has_ts) {
    PKT_PROBLEM(st, t, 0, 0, "track event without timestamp (track_event_missing_timestamp)");
  } else if (pk->timestamp > INT64_MAX) {
    PKT_PROBLEM(st, t, 0, 0, "negative timestamp (track_event_invalid_timestamp)");
    has_ts = 0;
  }
  if (uuid && !ti)
    PKT_PROBLEM(st, t, has_ts, ts,
                "track_uuid %" PRIu64
                " has no TrackDescriptor earlier in "
                "the file",
                uuid);
  int uses_iids = 0, has_name = 0;
  uint32_t name = 0;
  if (te->name_field_case == PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME_IID) {
    uses_iids = 1;
    uint64_t *n = q ? sl_map_u64_find(&q->names, te->name_iid) : NULL;
    if (!n)
      PKT_PROBLEM(st, t, has_ts, ts,
                  "name_iid %" PRIu64 " is not defined on sequence %" PRIu32
                  " (interned data is per sequence and ends with a state clear)",
                  te->name_iid, pk->trusted_packet_sequence_id);
    else {
      has_name = 1;
      name = (uint32_t)(*n - 1);
    }
  } else if (te->name_field_case == PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME) {
    has_name = 1;
    name = sl_intern_add(&st->strs, te->name, strlen(te->name));
  }
  for (size_t i = 0; i < te->n_category_iids; i++) {
    uses_iids = 1;
    if (!q || !sl_map_u64_get(&q->cats, te->category_iids[i], NULL))
      PKT_PROBLEM(st, t, has_ts, ts, "category iid %" PRIu64 " is not defined on this sequence",
                  te->category_iids[i]);
  }
  for (size_t i = 0; i < te->n_debug_annotations; i++)
    check_annotation(st, q, te->debug_annotations[i], 1, t, ts, &uses_iids);
  if (uses_iids && !(pk->has_sequence_flags && (pk->sequence_flags & SL_PF_SEQ_NEEDS_STATE))) {
    sl_check_loc loc = track_loc(st, st->packet, t, has_ts, ts);
    sl_check_warning(st->c, &loc,
                     "uses interned data without SEQ_NEEDS_INCREMENTAL_STATE: "
                     "after a state loss it would resolve against nothing");
  }
  int type = te->has_type ? (int)te->type : 0;
  int on_counter = t && t->kind == TK_COUNTER;
  switch (type) {
  case PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN:
  case PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END:
  case PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT:
    if (on_counter) PKT_PROBLEM(st, t, has_ts, ts, "slice event on counter track %" PRIu64, uuid);
    if (type != PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END && !has_name)
      PKT_PROBLEM(st, t, has_ts, ts, "slice without a name");
    if (type == PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT) {
      st->c->slices++;
      break;
    }
    if (has_ts && (!uuid || ti)) {
      st->events = sl_array_grow(st->events, &st->events_cap, st->nevents + 1, sizeof *st->events);
      st->events[st->nevents++] = (pevent){.track = ti ? (uint32_t)*ti : UINT32_MAX,
                                           .type = type,
                                           .has_name = has_name,
                                           .name = name,
                                           .ts = ts,
                                           .packet = st->packet};
    }
    break;
  case PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER:
    if (!on_counter)
      PKT_PROBLEM(st, t, has_ts, ts,
                  "counter event on a track without a CounterDescriptor "
                  "(uuid %" PRIu64 ")",
                  uuid);
    if (te->counter_value_field_case == PERFETTO__PROTOS__TRACK_EVENT__COUNTER_VALUE_FIELD__NOT_SET)
      PKT_PROBLEM(st, t, has_ts, ts, "counter event without counter_value");
    break;
  default:
    PKT_PROBLEM(st, t, has_ts, ts,
                "track event without a known type (legacy events are not "
                "written by swimlane)");
  }
  take_flow_ids(st, te->flow_ids, te->n_flow_ids, 0, has_ts, ts);
  take_flow_ids(st, te->terminating_flow_ids, te->n_terminating_flow_ids, 1, has_ts, ts);
  if (has_ts && ts > st->ts_max) st->ts_max = ts;
}

static void take_packet(pstate *st, const Packet *pk) {
  uint32_t seq_id = pk->has_trusted_packet_sequence_id ? pk->trusted_packet_sequence_id : 0;
  uint32_t flags = pk->has_sequence_flags ? pk->sequence_flags : 0;
  if (pk->has_incremental_state_cleared && pk->incremental_state_cleared)
    flags |= SL_PF_SEQ_CLEARED;
  int is_event = pk->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT;
  if (seq_id == 0) {
    if (is_event)
      PKT_PROBLEM(st, NULL, pk->has_timestamp, (int64_t)pk->timestamp,
                  "track event without trusted_packet_sequence_id: dropped "
                  "(track_event_missing_sequence_id)");
    if (flags & SL_PF_SEQ_NEEDS_STATE)
      PKT_PROBLEM(st, NULL, 0, 0,
                  "SEQ_NEEDS_INCREMENTAL_STATE with sequence id 0 (an import "
                  "error)");
    if (pk->interned_data) PKT_PROBLEM(st, NULL, 0, 0, "interned data without a sequence id");
  }
  pseq *q = seq_id ? seq_get(st, seq_id) : NULL;
  if (q && (flags & SL_PF_SEQ_CLEARED)) seq_clear(q);
  if (q && !q->valid) {
    if (pk->interned_data)
      PKT_PROBLEM(st, NULL, 0, 0,
                  "interned data on sequence %" PRIu32
                  " before any "
                  "SEQ_INCREMENTAL_STATE_CLEARED: ignored "
                  "(interned_data_skipped_incremental_state_invalid)",
                  seq_id);
    if (flags & SL_PF_SEQ_NEEDS_STATE) {
      PKT_PROBLEM(st, NULL, 0, 0,
                  "packet skipped: sequence %" PRIu32
                  " needs incremental state "
                  "but was never cleared (packet_skipped_seq_needs_incremental_state_invalid)",
                  seq_id);
      return;
    }
  }
  if (q && q->valid && pk->interned_data) take_interned(st, q, pk->interned_data);
  if (q && q->valid && pk->trace_packet_defaults &&
      pk->trace_packet_defaults->track_event_defaults &&
      pk->trace_packet_defaults->track_event_defaults->has_track_uuid) {
    q->has_default_track = 1;
    q->default_track = pk->trace_packet_defaults->track_event_defaults->track_uuid;
  }
  if (pk->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR)
    take_descriptor(st, pk->track_descriptor);
  else if (is_event)
    take_event(st, pk, q && q->valid ? q : NULL);
}

/* ---- whole-trace passes --------------------------------------------------------------------- */

/* The order trace_processor sorts in: by `key` (a track, a flow id), then timestamp,
** ties in file order (packet). */
static int cmp_key_ts_packet(uint64_t xk, int64_t xts, uint64_t xp, uint64_t yk, int64_t yts, uint64_t yp) {
  if (xk != yk) return xk < yk ? -1 : 1;
  if (xts != yts) return xts < yts ? -1 : 1;
  return xp < yp ? -1 : xp > yp;
}

static int cmp_event(const void *a, const void *b) {
  const pevent *x = a, *y = b;
  return cmp_key_ts_packet(x->track, x->ts, x->packet, y->track, y->ts, y->packet);
}

/* BEGIN/END per track in Perfetto's order: by timestamp, ties in file order. */
static void pass_nesting(pstate *st) {
  sl_array_sort(st->events, st->nevents, sizeof *st->events, cmp_event);
  size_t *stack = NULL, depth = 0, cap = 0;
  for (size_t i = 0; i <= st->nevents; i++) {
    if (i == st->nevents || (i > 0 && st->events[i].track != st->events[i - 1].track)) {
      for (size_t k = 0; k < depth; k++) {
        const pevent *o = &st->events[stack[k]];
        const ptrack *t = o->track == UINT32_MAX ? NULL : &st->tracks[o->track];
        sl_check_loc loc = track_loc(st, o->packet, t, 1, o->ts);
        sl_check_problem(st->c, &loc, "BEGIN \"%s\" is never ended on its track",
                         str_of(st, o->name));
      }
      depth = 0;
      if (i == st->nevents) break;
    }
    const pevent *e = &st->events[i];
    const ptrack *t = e->track == UINT32_MAX ? NULL : &st->tracks[e->track];
    if (e->type == PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN) {
      stack = sl_array_grow(stack, &cap, depth + 1, sizeof *stack);
      stack[depth++] = i;
      continue;
    }
    sl_check_loc loc = track_loc(st, e->packet, t, 1, e->ts);
    if (!depth) {
      sl_check_problem(st->c, &loc,
                       "END without an open BEGIN on its track "
                       "(misplaced_end_event)");
      continue;
    }
    const pevent *o = &st->events[stack[--depth]];
    if (e->has_name && o->has_name && e->name != o->name) {
      char b[32];
      sl_check_fmt_ts(b, sizeof b, o->ts);
      sl_check_problem(st->c, &loc,
                       "END of \"%s\" closes \"%s\" (begun at %s, packet #%" PRIu64
                       "): slices "
                       "overlap on one track, or END and BEGIN are misordered at equal ts",
                       str_of(st, e->name), str_of(st, o->name), b,
                       o->packet);
    }
    st->c->slices++;
  }
  sl_mem_free(stack);
}

static void pass_tracks_and_flows(pstate *st) {
  for (size_t i = 0; i < st->ntracks; i++) {
    const ptrack *t = &st->tracks[i];
    if (t->parent && !sl_map_u64_get(&st->track_of, t->parent, NULL)) {
      sl_check_loc loc = track_loc(st, t->packet, t, 0, 0);
      sl_check_problem(st->c, &loc, "parent_uuid %" PRIu64 " of track %" PRIu64 " names no track",
                       t->parent, t->uuid);
    }
  }
  const sl_map *m = &st->flow_ends;
  for (size_t i = sl_map_next(m, 0); i < m->cap; i = sl_map_next(m, i + 1)) {
    if (m->vals[i] == 0) continue;
    uint64_t id = sl_map_key_u64(m, i);
    uint64_t *first = sl_map_u64_find(&st->flow_first, id);
    sl_check_loc loc = {.event = first ? *first - 1 : 0, .unit = "packet"};
    if (m->vals[i] < 2)
      sl_check_problem(st->c, &loc, "flow %" PRIu64 " has a single endpoint: no arrow", id);
    else
      st->c->flows++;
  }
}

static int cmp_end(const void *a, const void *b) {
  const pflow_end *x = a, *y = b;
  return cmp_key_ts_packet(x->id, x->ts, x->packet, y->id, y->ts, y->packet);
}

/* Reversed arrows. trace_processor links a flow's endpoints in its sort order:
** by timestamp, ties in file order. At equal timestamps the direction is
** therefore the file position, which means something only where the file is in
** time order: an endpoint written after the file already passed its timestamp
** (a writer that emits track by track) lands before or after its partner by
** accident, and such arrows point backwards (the .pftrace/JSON mismatch this
** rule was written for). Ids reused after a terminating endpoint are left out. */
static void pass_flow_direction(pstate *st) {
  sl_array_sort(st->ends, st->nends, sizeof *st->ends, cmp_end);
  for (size_t i = 1; i < st->nends; i++) {
    const pflow_end *a = &st->ends[i - 1], *b = &st->ends[i];
    if (a->id != b->id || a->ts != b->ts || b->max_before <= b->ts) continue;
    char t[32], late[32];
    sl_check_fmt_ts(t, sizeof t, b->ts);
    sl_check_fmt_ts(late, sizeof late, b->max_before);
    sl_check_loc loc = {.event = b->packet, .unit = "packet", .has_ts = 1, .ts_ns = b->ts};
    sl_check_warning(st->c, &loc,
                     "flow %" PRIu64 ": both ends at ts %s (packets #%" PRIu64 " and #%" PRIu64
                     "), and the second is written after the file reached ts %s: trace_processor "
                     "orders equal timestamps by file position, so this arrow may point backwards "
                     "(write the packets in one time order)",
                     b->id, t, a->packet, b->packet, late);
  }
}

/* Lost ordering. Perfetto lays out process and thread tracks by
** sibling_order_rank (a thread's rank counts only when its process asks for
** child_ordering EXPLICIT); without them it orders the views by its own rules,
** not the producer's (the JSON's process_sort_index / thread_sort_index). */
static void pass_ordering(pstate *st) {
  uint64_t procs = 0, threads = 0, procs_unranked = 0, threads_unranked = 0;
  for (size_t i = 0; i < st->ntracks; i++) {
    const ptrack *t = &st->tracks[i];
    if (t->kind == TK_PROCESS) {
      procs++;
      procs_unranked += !t->has_rank;
    } else if (t->kind == TK_THREAD) {
      threads++;
      threads_unranked += !t->has_rank;
      uint64_t *pu = sl_map_u64_find(&st->process_of, (uint64_t)t->pid);
      uint64_t *pi = pu ? sl_map_u64_find(&st->track_of, *pu) : NULL;
      if (t->has_rank && pi && !st->tracks[*pi].explicit_order) {
        sl_check_loc loc = track_loc(st, t->packet, t, 0, 0);
        sl_check_warning(st->c, &loc,
                         "thread track %" PRIu64 " has a sibling_order_rank, but process %" PRId64
                         " does not set child_ordering EXPLICIT: Perfetto ignores the rank",
                         t->uuid, t->pid);
      }
    }
  }
  if (procs_unranked || threads_unranked) {
    sl_check_loc loc = {.event = 0, .unit = "packet"};
    sl_check_warning(st->c, &loc,
                     "%" PRIu64 " of %" PRIu64 " process tracks and %" PRIu64 " of %" PRIu64
                     " thread tracks have no sibling_order_rank: Perfetto orders them by its own "
                     "rules, not the producer's (the JSON's process_sort_index / thread_sort_index)",
                     procs_unranked, procs, threads_unranked, threads);
  }
}

static void free_state(pstate *st) {
  sl_intern_free(&st->strs);
  sl_mem_free(st->tracks);
  sl_map_free(&st->track_of);
  sl_map_free(&st->process_of);
  sl_map_free(&st->thread_of);
  for (size_t i = 0; i < st->nseqs; i++) {
    pseq *q = &st->seqs[i];
    sl_map_free(&q->names);
    sl_map_free(&q->cats);
    sl_map_free(&q->ann_names);
    sl_map_free(&q->ann_strings);
  }
  sl_mem_free(st->seqs);
  sl_map_free(&st->seq_of);
  sl_mem_free(st->events);
  sl_map_free(&st->flow_ends);
  sl_map_free(&st->flow_first);
  sl_mem_free(st->ends);
}

int sl_check_proto(sl_check_ctx *c, FILE *fp) {
  pstate st = {.c = c, .ts_max = -1};
  sl_pf_reader r;
  sl_pf_reader_init(&r, fp);
  const uint8_t *data;
  size_t len;
  int rc = 0, got;
  while ((got = sl_pf_read_frame(&r, &data, &len)) == 1) {
    st.packet = r.index - 1;
    Packet *pk = perfetto__protos__trace_packet__unpack(NULL, len, data);
    if (!pk) {
      sl_error(c->file,
               "packet #%" PRIu64
               " (%zu bytes) does not decode as a TracePacket: "
               "corrupt or not a Perfetto trace",
               st.packet, len);
      rc = -1;
      break;
    }
    take_packet(&st, pk);
    perfetto__protos__trace_packet__free_unpacked(pk, NULL);
  }
  if (got < 0) {
    sl_error(c->file, "%s", r.err);
    rc = -1;
  } else if (rc == 0 && r.index == 0) {
    sl_error(c->file, "empty: no trace packets");
    rc = -1;
  }
  if (rc == 0) {
    pass_nesting(&st);
    pass_tracks_and_flows(&st);
    pass_flow_direction(&st);
    pass_ordering(&st);
  }
  sl_pf_reader_free(&r);
  free_state(&st);
  return rc;
}
