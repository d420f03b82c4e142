/*
** check_json_passes.c — the whole-trace passes of the Chrome-JSON checker:
** B/E pairing, nesting per lane, flow ends bound to slices, bind_id agreement,
** flow identity (v1) and flow_in/flow_out pairs (v2). Each sorts the records the
** reader kept into the order Perfetto's importer processes them.
*/
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check_json.h"
#include "sl_mem.h"

static int cmp_be(const void *a, const void *b) {
  const jbe *x = a, *y = b;
  if (x->lane != y->lane) return x->lane < y->lane ? -1 : 1;
  if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
  if (x->ph != y->ph) return x->ph == 'E' ? -1 : 1; /* E first at equal ts */
  return x->ev < y->ev ? -1 : x->ev > y->ev;
}

/* B/E pairs -> slices, per lane, in Perfetto's order. */
void sl_cj_pass_begin_end(jstate *st) {
  sl_array_sort(st->bes, st->nbes, sizeof *st->bes, cmp_be);
  size_t *stack = NULL, depth = 0, cap = 0;
  for (size_t i = 0; i < st->nbes; i++) {
    jbe *b = &st->bes[i];
    if (i == 0 || b->lane != st->bes[i - 1].lane) {
      for (size_t k = 0; k < depth; k++) {
        jbe *o = &st->bes[stack[k]];
        sl_check_loc loc = sl_cj_rec_loc(st, o->ev, o->lane, o->ts);
        sl_check_problem(st->c, &loc, "'B' \"%s\" is never ended", sl_cj_str(st, o->name));
      }
      depth = 0;
    }
    if (b->ph == 'B') {
      stack = sl_array_grow(stack, &cap, depth + 1, sizeof *stack);
      stack[depth++] = i;
      continue;
    }
    sl_check_loc loc = sl_cj_rec_loc(st, b->ev, b->lane, b->ts);
    if (depth == 0) {
      sl_check_problem(st->c, &loc, "'E' without an open 'B' on this lane");
      continue;
    }
    jbe *o = &st->bes[stack[depth - 1]];
    if (b->has_name && o->has_name && b->name != o->name) {
      sl_check_problem(st->c, &loc,
                       "'E' \"%s\" does not match the innermost open 'B' \"%s\" "
                       "(misplaced_end_event)",
                       sl_cj_str(st, b->name), sl_cj_str(st, o->name));
      continue;
    }
    depth--;
    st->slices = sl_array_grow(st->slices, &st->slices_cap, st->nslices + 1, sizeof *st->slices);
    st->slices[st->nslices++] =
        (jslice){.lane = o->lane, .name = o->name, .cat = UINT32_MAX, .start = o->ts, .end = b->ts,
                 .ev = o->ev};
    st->lanes[o->lane].used = 1;
  }
  for (size_t k = 0; k < depth; k++) {
    jbe *o = &st->bes[stack[k]];
    sl_check_loc loc = sl_cj_rec_loc(st, o->ev, o->lane, o->ts);
    sl_check_problem(st->c, &loc, "'B' \"%s\" is never ended", sl_cj_str(st, o->name));
  }
  sl_mem_free(stack);
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
** warning when ts is not that slice's start: Chrome DevTools binds a flow event
** only to a slice with exactly its ts (and pid, tid, cat), so the arrow is drawn
** in Perfetto and lost in DevTools — and an end exactly at a slice's end lands on
** whichever slice happens to be on top. */
void sl_cj_pass_lanes(jstate *st) {
  sl_array_sort(st->slices, st->nslices, sizeof *st->slices, cmp_slice);
  sl_array_sort(st->flows, st->nflows, sizeof *st->flows, cmp_flow_lane);
  size_t *stack = NULL, depth = 0, cap = 0;
  size_t si = 0, fi = 0;
  while (si < st->nslices || fi < st->nflows) {
    uint32_t ln = si < st->nslices ? st->slices[si].lane : UINT32_MAX;
    if (fi < st->nflows && st->flows[fi].lane < ln) ln = st->flows[fi].lane;
    depth = 0;
    const jslice *ended = NULL; /* last slice popped at exactly the next one's start */
    while ((si < st->nslices && st->slices[si].lane == ln) ||
           (fi < st->nflows && st->flows[fi].lane == ln)) {
      int take_slice =
          si < st->nslices && st->slices[si].lane == ln &&
          !(fi < st->nflows && st->flows[fi].lane == ln && st->flows[fi].ts < st->slices[si].start);
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
          sl_check_loc loc = sl_cj_rec_loc(st, s->ev, s->lane, s->start);
          sl_check_problem(st->c, &loc,
                           "slice \"%s\" overlaps \"%s\" [%s, %s] (event #%" PRIu64
                           ") on the same lane without nesting: Perfetto spills it to an "
                           "overflow track",
                           sl_cj_str(st, s->name), sl_cj_str(st, p->name), a, b, p->ev);
          continue;
        }
        stack = sl_array_grow(stack, &cap, depth + 1, sizeof *stack);
        stack[depth++] = (size_t)(s - st->slices);
        continue;
      }
      jflow *f = &st->flows[fi++];
      sl_check_loc loc = sl_cj_rec_loc(st, f->ev, f->lane, f->ts);
      const char *fname = f->name == UINT32_MAX ? "" : sl_cj_str(st, f->name);
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
                         "(flow_no_enclosing_slice: the arrow is dropped)",
                         f->ph, fname);
        continue;
      }
      const jslice *top = &st->slices[stack[depth - 1]];
      f->bound = (uint32_t)(top - st->slices) + 1;
      if (top->end == f->ts && top->end > top->start) {
        sl_check_warning(st->c, &loc,
                         "flow '%c' \"%s\" is at the very end of slice \"%s\": it binds only "
                         "because nothing else begins there, and Chrome DevTools (which binds "
                         "at a slice's exact ts) not at all; put it at the slice's start",
                         f->ph, fname, sl_cj_str(st, top->name));
      }
      (void)ended; /* off the slice's start: judged per arrow in check_flow_cats */
    }
  }
  sl_mem_free(stack);
  st->c->slices += st->nslices;
}

/* Chrome DevTools builds each thread's tree from the JSON numbers themselves: sorted by
** ts, then the longer first, each slice is the child of the open one it starts inside
** and ends within, computing every end as ts + dur in double (TreeHelpers.treify). A
** slice that starts inside the open one and ends after it is left out of the tree. When
** Perfetto's nanoseconds nest the two (or put one after the other) that overlap is
** floating-point only — an end ts + dur one ulp past the next slice's ts, though both
** are the same ns — and DevTools drops a slice Perfetto shows (a warning; overlaps in
** ns are pass_lanes' problem already). */
typedef struct dt_slice {
  double ts, end;
  uint32_t lane, i; /* i: index in st->slices */
} dt_slice;

static int cmp_dt(const void *a, const void *b) {
  const dt_slice *x = a, *y = b;
  if (x->lane != y->lane) return x->lane < y->lane ? -1 : 1;
  if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
  if (x->end != y->end) return x->end > y->end ? -1 : 1; /* longer first */
  return x->i < y->i ? -1 : x->i > y->i;                  /* then file order (stable) */
}

void sl_cj_pass_devtools_tree(jstate *st) {
  dt_slice *v = NULL;
  size_t n = 0, cap = 0;
  for (size_t i = 0; i < st->nslices; i++) {
    const jslice *s = &st->slices[i];
    if (!(s->fts == s->fts && s->fend == s->fend)) continue; /* NaN: a string ts or dur */
    v = sl_array_grow(v, &cap, n + 1, sizeof *v);
    v[n++] = (dt_slice){.ts = s->fts, .end = s->fend, .lane = s->lane, .i = (uint32_t)i};
  }
  sl_array_sort(v, n, sizeof *v, cmp_dt);
  size_t *stack = NULL, depth = 0, scap = 0;
  for (size_t k = 0; k < n; k++) {
    if (k == 0 || v[k].lane != v[k - 1].lane) depth = 0;
    while (depth && v[k].ts >= v[stack[depth - 1]].end) depth--;
    if (depth && v[k].end > v[stack[depth - 1]].end) {
      const dt_slice *pd = &v[stack[depth - 1]];
      const jslice *s = &st->slices[v[k].i], *p = &st->slices[pd->i];
      if (s->start >= p->end || s->end <= p->end) {
        sl_check_loc loc = sl_cj_rec_loc(st, s->ev, s->lane, s->start);
        sl_check_warning(st->c, &loc,
                         "Chrome DevTools drops slice \"%s\" from its thread's tree: its end "
                         "ts + dur = %.17g passes the end of \"%s\" (event #%" PRIu64
                         ", ts + dur = %.17g) in floating point, though Perfetto's nanoseconds "
                         "%s; write dur so that ts + dur is exactly the end",
                         sl_cj_str(st, s->name), v[k].end, sl_cj_str(st, p->name), p->ev, pd->end,
                         s->start >= p->end ? "put it after that slice" : "nest the two");
      }
      continue;
    }
    stack = sl_array_grow(stack, &scap, depth + 1, sizeof *stack);
    stack[depth++] = k;
  }
  sl_mem_free(stack);
  sl_mem_free(v);
}

/* A bind_id on an 's'/'f' event is ignored by Perfetto (it binds v1 flows by
** position). Writers put it there to say which slice they mean; a slice by that
** id that does not hold the flow end means JSON readers and our protobuf
** backend (which follows bind_id) disagree. Runs after pass_lanes (sorted). */
void sl_cj_pass_bind_ids(jstate *st) {
  sl_map by_id = {0};
  for (size_t i = 0; i < st->nslices; i++)
    if (st->slices[i].has_xid) *sl_map_u64_ref(&by_id, st->slices[i].xid, NULL) = i + 1;
  for (size_t i = 0; i < st->nflows; i++) {
    const jflow *f = &st->flows[i];
    if (!f->has_bind) continue;
    uint64_t *k = sl_map_u64_find(&by_id, f->bind);
    if (!k) continue; /* ids may name something else entirely */
    const jslice *x = &st->slices[*k - 1];
    int holds = x->lane == f->lane && x->start <= f->ts &&
                (f->ts < x->end || (x->start == x->end && x->start == f->ts));
    if (f->ph == 'f' && !f->bp_e) holds = x->lane == f->lane && x->start > f->ts;
    if (!holds) {
      sl_check_loc loc = sl_cj_rec_loc(st, f->ev, f->lane, f->ts);
      sl_check_warning(st->c, &loc,
                       "flow '%c' has bind_id %" PRIu64 " (slice \"%s\", event #%" PRIu64
                       "), which does not hold it: Perfetto ignores bind_id on 's'/'f' and "
                       "binds by position",
                       f->ph, f->bind, sl_cj_str(st, x->name), x->ev);
    }
  }
  sl_map_free(&by_id);
}

/* Chrome DevTools pairs an 's' with its 'f' by (cat, name, id) and binds each to
** a slice of the flow's own cat: an arrow between two slices of one category
** needs that category (warning otherwise); one between slices of different
** categories cannot be drawn there at all (counted for a note). */
static void check_flow_cats(jstate *st, size_t i, size_t j) {
  const jflow *s = NULL, *f = NULL;
  for (size_t k = i; k < j; k++) {
    if (st->flows[k].ph == 's' && !s) s = &st->flows[k];
    if (st->flows[k].ph == 'f' && !f) f = &st->flows[k];
  }
  if (!s || !f || !s->bound || !f->bound) return;
  const jslice *src = &st->slices[s->bound - 1], *dst = &st->slices[f->bound - 1];
  if (dst->start < src->start) { /* drawn back in time: neither DevTools nor a .pftrace can */
    st->backward++;
    return;
  }
  const jflow *ends[2] = {s, f};
  const jslice *at[2] = {src, dst};
  for (int k = 0; k < 2; k++) {
    if (at[k]->start == ends[k]->ts || at[k]->end == ends[k]->ts) continue; /* end: warned */
    char b[32];
    sl_check_fmt_ts(b, sizeof b, at[k]->start);
    sl_check_loc loc = sl_cj_rec_loc(st, ends[k]->ev, ends[k]->lane, ends[k]->ts);
    sl_check_warning(st->c, &loc,
                     "flow '%c' \"%s\" binds to \"%s\" in Perfetto but not in Chrome DevTools, "
                     "which binds a flow event only at a slice's exact ts (%s)",
                     ends[k]->ph, ends[k]->name == UINT32_MAX ? "" : sl_cj_str(st, ends[k]->name),
                     sl_cj_str(st, at[k]->name), b);
  }
  uint32_t a = src->cat, b = dst->cat;
  if (a == UINT32_MAX || b == UINT32_MAX) return;
  if (a != b) {
    st->cross_cat++;
  } else if (s->cat != a) {
    sl_check_loc loc = sl_cj_rec_loc(st, s->ev, s->lane, s->ts);
    sl_check_warning(st->c, &loc,
                     "flow \"%s\" joins two \"%s\" slices but has cat \"%s\": Chrome DevTools "
                     "binds a flow event only to a slice of its own category",
                     s->name == UINT32_MAX ? "" : sl_cj_str(st, s->name), sl_cj_str(st, a),
                     s->cat == UINT32_MAX ? "" : sl_cj_str(st, s->cat));
  }
}

/* Identity (id, cat, name): one 's', then 't'/'f' steps. */
void sl_cj_pass_flow_ids(jstate *st) {
  sl_array_sort(st->flows, st->nflows, sizeof *st->flows, cmp_flow_key);
  size_t i = 0;
  while (i < st->nflows) {
    size_t j = i;
    while (j < st->nflows && st->flows[j].id == st->flows[i].id &&
           st->flows[j].cat == st->flows[i].cat && st->flows[j].name == st->flows[i].name)
      j++;
    int started = 0, finished = 0;
    check_flow_cats(st, i, j);
    for (size_t k = i; k < j; k++) {
      jflow *f = &st->flows[k];
      sl_check_loc loc = sl_cj_rec_loc(st, f->ev, f->lane, f->ts);
      const char *nm = f->name == UINT32_MAX ? "" : sl_cj_str(st, f->name);
      const char *ct = f->cat == UINT32_MAX ? "" : sl_cj_str(st, f->cat);
      if (f->ph == 's') {
        if (started)
          sl_check_problem(st->c, &loc,
                           "second 's' for flow (id %" PRIu64
                           ", cat \"%s\", name \"%s\") "
                           "(flow_duplicate_id: dropped)",
                           f->id, ct, nm);
        started = 1;
      } else if (!started) {
        sl_check_problem(st->c, &loc,
                         "'%c' with no earlier 's' of the same (id %" PRIu64
                         ", cat \"%s\", name \"%s\")",
                         f->ph, f->id, ct, nm);
      } else if (f->ph == 'f') {
        finished = 1;
      }
    }
    if (started && !finished) {
      jflow *f = &st->flows[i];
      sl_check_loc loc = sl_cj_rec_loc(st, f->ev, f->lane, f->ts);
      sl_check_problem(st->c, &loc,
                       "flow (id %" PRIu64
                       ", cat \"%s\", name \"%s\") starts but never "
                       "finishes: no later 'f' with the same id, cat and name",
                       f->id, f->cat == UINT32_MAX ? "" : sl_cj_str(st, f->cat),
                       f->name == UINT32_MAX ? "" : sl_cj_str(st, f->name));
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

void sl_cj_pass_flows_v2(jstate *st) {
  sl_array_sort(st->flows2, st->nflows2, sizeof *st->flows2, cmp_flow2);
  for (size_t i = 0; i < st->nflows2;) {
    size_t j = i;
    int outs = 0, ins = 0;
    for (; j < st->nflows2 && st->flows2[j].bind_id == st->flows2[i].bind_id; j++) {
      outs += st->flows2[j].out;
      ins += st->flows2[j].in;
    }
    if (!outs || !ins) {
      jflow2 *f = &st->flows2[i];
      sl_check_loc loc = sl_cj_rec_loc(st, f->ev, f->lane, f->ts);
      sl_check_problem(st->c, &loc, "bind_id %" PRIu64 " has %s but no %s: a flow needs both",
                       f->bind_id, outs ? "flow_out" : "flow_in", outs ? "flow_in" : "flow_out");
    } else {
      st->c->flows++;
    }
    i = j;
  }
}
