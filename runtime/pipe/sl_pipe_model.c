/*
** sl_pipe_model.c — recording intrinsic reports and timing the streams.
**
** The timing pass is a fixed-point sweep: per sub-core a dispatch cursor walks
** program order, and per pipe a cursor issues that pipe's instructions in
** order once they are dispatched (and, for a wait, once its matching set has
** fired). Sweeps repeat until every record is timed; a sweep without progress
** means a wait that can never be released.
*/
#include <stdlib.h>
#include <string.h>

#include "sl_pipe.h"
#include "sl_rt_mem.h"

void sl_pipe_model_init(sl_pipe_model *m, const sl_pipe_arch *arch) {
  memset(m, 0, sizeof *m);
  m->arch = arch;
}

void sl_pipe_model_free(sl_pipe_model *m) {
  for (int c = 0; c < SL_SUBCORE_COUNT; c++) sl_rt_free(m->core[c].recs);
  memset(m->core, 0, sizeof m->core);
}

sl_rec_kind sl_pipe_classify(const sl_instr *ins) {
  const char *mn = ins->mnemonic ? ins->mnemonic : "";
  if (!strcmp(mn, "SET_FLAG")) return SL_REC_SET;
  if (!strcmp(mn, "WAIT_FLAG")) return SL_REC_WAIT;
  if (strstr(mn, "BARRIER") || ins->pipe == SL_PIPE_ALL) return SL_REC_BARRIER;
  return SL_REC_OP;
}

/* A flag crosses the cluster when its peer pipe does not exist on this sub-core. */
int sl_pipe_is_cross(sl_subcore core, const sl_instr *ins) {
  sl_rec_kind k = sl_pipe_classify(ins);
  if (k != SL_REC_SET && k != SL_REC_WAIT) return 0;
  return !sl_subcore_has_pipe(core, ins->peer);
}

void sl_pipe_record(sl_pipe_model *m, sl_subcore core, const sl_instr *ins) {
  sl_pipe_stream *s = &m->core[core];
  sl_pipe_rec *r = SL_RT_PUSH(s->recs, s->n, s->cap);
  memset(r, 0, sizeof *r);
  r->kind = sl_pipe_classify(ins);
  r->pipe = ins->pipe;
  r->peer = ins->peer;
  r->event_id = ins->event_id;
  r->cross = sl_pipe_is_cross(core, ins);
  r->mnemonic = ins->mnemonic ? ins->mnemonic : "?";
  r->work = ins->work;
  r->file = ins->file;
  r->line = ins->line;
  r->lib_file = ins->lib_file;
  r->lib_line = ins->lib_line;
  if ((unsigned)r->pipe >= SL_PIPE_COUNT) r->pipe = SL_PIPE_SCALAR;
}

/* ---- flag matching ----------------------------------------------------------------- */

typedef struct flag_ref {
  int src, dst, ev, cross;
  size_t ordinal; /* k-th flag of this key on its sub-core */
  size_t idx;     /* record index                         */
} flag_ref;

static int flag_ref_cmp(const void *a, const void *b) {
  const flag_ref *x = a, *y = b;
  if (x->cross != y->cross) return x->cross - y->cross;
  if (x->src != y->src) return x->src - y->src;
  if (x->dst != y->dst) return x->dst - y->dst;
  if (x->ev != y->ev) return x->ev < y->ev ? -1 : 1;
  return x->ordinal < y->ordinal ? -1 : x->ordinal > y->ordinal;
}

/* Sets of one sub-core, sorted by (key, ordinal) for lookup. */
typedef struct set_index {
  flag_ref *refs;
  size_t n;
} set_index;

/* Number the flags of `kind` per key in program order. ord[i] receives the
** ordinal of record i; with `out` the refs are collected too. */
static void number_flags(const sl_pipe_stream *s, sl_rec_kind kind, size_t *ord, set_index *out) {
  flag_ref *refs = NULL;
  size_t n = 0;
  for (size_t i = 0; i < s->n; i++)
    if (s->recs[i].kind == kind) n++;
  if (n) {
    refs = sl_rt_alloc(n * sizeof *refs);
  }
  /* running count per distinct key: keys are few (pipe pairs x events), flags many */
  flag_ref *keys = NULL;
  size_t nkeys = 0, capkeys = 0, k = 0;
  for (size_t i = 0; i < s->n; i++) {
    const sl_pipe_rec *r = &s->recs[i];
    if (r->kind != kind) continue;
    /* a set's key is (its pipe -> peer); a wait's is (peer -> its pipe) */
    int src = kind == SL_REC_SET ? (int)r->pipe : (int)r->peer;
    int dst = kind == SL_REC_SET ? (int)r->peer : (int)r->pipe;
    size_t j = 0;
    while (j < nkeys && !(keys[j].src == src && keys[j].dst == dst && keys[j].ev == r->event_id &&
                          keys[j].cross == r->cross))
      j++;
    if (j == nkeys) {
      *SL_RT_PUSH(keys, nkeys, capkeys) = (flag_ref){src, dst, r->event_id, r->cross, 0, 0};
    }
    size_t ordinal = keys[j].ordinal++;
    refs[k] = (flag_ref){src, dst, r->event_id, r->cross, ordinal, i};
    ord[i] = ordinal;
    k++;
  }
  sl_rt_free(keys);
  if (out) {
    if (n) qsort(refs, n, sizeof *refs, flag_ref_cmp);
    out->refs = refs;
    out->n = n;
  } else {
    sl_rt_free(refs);
  }
}

static long find_set(const set_index *ix, int src, int dst, int ev, int cross, size_t ordinal) {
  flag_ref key = {.src = src, .dst = dst, .ev = ev, .cross = cross, .ordinal = ordinal};
  if (!ix->n) return -1;
  const flag_ref *hit = bsearch(&key, ix->refs, ix->n, sizeof key, flag_ref_cmp);
  return hit ? (long)hit->idx : -1;
}

/* ---- the timing sweep ---------------------------------------------------------------- */

typedef struct producer {
  int core;
  long idx;
} producer;

typedef struct core_state {
  sl_pipe_stream *s;
  size_t disp;                     /* next record to dispatch          */
  uint64_t hold;                   /* dispatch may not go before this  */
  uint64_t next_disp;              /* earliest dispatch of next record */
  size_t cursor[SL_PIPE_COUNT];    /* next record to look at per pipe  */
  uint64_t next_issue[SL_PIPE_COUNT];
  uint64_t last_end[SL_PIPE_COUNT];
  size_t pending[SL_PIPE_COUNT];   /* dispatched, not yet timed        */
  /* completion times of the instructions in flight per pipe (outstanding limit) */
  uint64_t inflight[SL_PIPE_COUNT][SL_PIPE_MAX_OUTSTANDING];
  uint32_t ninflight[SL_PIPE_COUNT];
  producer (*prod)[2];             /* per wait: the set(s) releasing it */
  size_t done;
} core_state;

static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* Handled by the dispatcher itself rather than a pipe queue. */
static int at_dispatch(const sl_pipe_rec *r) {
  return r->kind == SL_REC_BARRIER || r->pipe == SL_PIPE_SCALAR;
}

/* Fire time of the set(s) releasing wait i, or 0 with *ready = 0. */
static uint64_t release_time(core_state *cs, const core_state *all, size_t i, int *ready) {
  uint64_t t = 0;
  *ready = 1;
  for (int k = 0; k < 2; k++) {
    producer p = cs->prod[i][k];
    if (p.core < 0) continue;
    const sl_pipe_rec *set = &all[p.core].s->recs[p.idx];
    if (!set->done) {
      *ready = 0;
      return 0;
    }
    t = max_u64(t, set->end);
  }
  return t;
}

static int barrier_ready(const core_state *cs, sl_pipe target) {
  if (target == SL_PIPE_ALL) {
    for (int p = 0; p < SL_PIPE_COUNT; p++)
      if (cs->pending[p]) return 0;
    return 1;
  }
  return cs->pending[target] == 0;
}

static uint64_t barrier_drain(const core_state *cs, sl_pipe target) {
  if (target != SL_PIPE_ALL) return cs->last_end[target];
  uint64_t t = 0;
  for (int p = 0; p < SL_PIPE_COUNT; p++) t = max_u64(t, cs->last_end[p]);
  return t;
}

/* Advance the dispatcher of one sub-core; returns how many records moved. */
static size_t sweep_dispatch(const sl_pipe_arch *arch, core_state *cs, core_state *all) {
  size_t moved = 0;
  while (cs->disp < cs->s->n) {
    sl_pipe_rec *r = &cs->s->recs[cs->disp];
    uint64_t t = max_u64(cs->next_disp, cs->hold);
    if (r->kind == SL_REC_BARRIER) {
      if (!barrier_ready(cs, r->pipe)) break;
      r->dispatch = r->start = t;
      r->end = max_u64(t, barrier_drain(cs, r->pipe)) + 1;
      cs->hold = r->end;
      r->done = 1;
      cs->done++;
    } else if (r->pipe == SL_PIPE_SCALAR) {
      uint64_t occ, lat;
      if (r->kind == SL_REC_WAIT) {
        int ready;
        uint64_t rel = release_time(cs, all, cs->disp, &ready);
        if (!ready) break;
        r->start = t;
        r->end = max_u64(t, rel) + arch->flag_cycles;
      } else if (r->kind == SL_REC_SET) {
        r->start = t;
        r->end = t + arch->flag_cycles;
      } else {
        sl_pipe_cost_of(arch, r->pipe, r->mnemonic, r->work, &occ, &lat);
        r->start = t;
        r->end = t + lat;
      }
      r->dispatch = t;
      cs->hold = r->end;
      cs->last_end[SL_PIPE_SCALAR] = max_u64(cs->last_end[SL_PIPE_SCALAR], r->end);
      r->done = 1;
      cs->done++;
    } else {
      r->dispatch = t;
      cs->pending[r->pipe]++;
    }
    cs->next_disp = t + arch->dispatch;
    cs->disp++;
    moved++;
  }
  return moved;
}

/* Earliest cycle >= t at which pipe p has a free request slot; claims the slot
** for an instruction completing at end(start) = start + lat, returns start. */
static uint64_t claim_slot(const sl_pipe_arch *arch, core_state *cs, sl_pipe p, uint64_t t, uint64_t lat) {
  uint32_t limit = arch->pipe[p].outstanding;
  if (limit == 0 || limit > SL_PIPE_MAX_OUTSTANDING) limit = SL_PIPE_MAX_OUTSTANDING;
  uint64_t *slot = cs->inflight[p];
  uint32_t k = cs->ninflight[p];
  if (k < limit) {
    cs->ninflight[p]++;
  } else { /* all busy unless one completed by t: reuse the earliest */
    k = 0;
    for (uint32_t j = 1; j < limit; j++)
      if (slot[j] < slot[k]) k = j;
    t = max_u64(t, slot[k]);
  }
  slot[k] = t + lat;
  return t;
}

/* Issue what one pipe can issue; returns how many records were timed. */
static size_t sweep_pipe(const sl_pipe_arch *arch, core_state *cs, core_state *all, sl_pipe p) {
  size_t moved = 0;
  sl_pipe_rec *recs = cs->s->recs;
  for (;;) {
    size_t i = cs->cursor[p];
    while (i < cs->disp && (recs[i].pipe != p || at_dispatch(&recs[i]))) i++;
    cs->cursor[p] = i;
    if (i >= cs->disp) break; /* nothing dispatched for this pipe yet */
    sl_pipe_rec *r = &recs[i];
    uint64_t start = max_u64(r->dispatch, cs->next_issue[p]);
    if (r->kind == SL_REC_OP) {
      uint64_t occ, lat;
      sl_pipe_cost_of(arch, p, r->mnemonic, r->work, &occ, &lat);
      start = claim_slot(arch, cs, p, start, lat);
      r->start = start;
      r->end = start + lat;
      cs->next_issue[p] = start + occ;
    } else if (r->kind == SL_REC_SET) {
      start = max_u64(start, cs->last_end[p]); /* fires after earlier work on the pipe */
      r->start = start;
      r->end = start + arch->flag_cycles;
      cs->next_issue[p] = start + 1;
    } else { /* WAIT: the pipe stalls until released */
      int ready;
      uint64_t rel = release_time(cs, all, i, &ready);
      if (!ready) break;
      r->start = start;
      r->end = max_u64(start, rel) + arch->flag_cycles;
      cs->next_issue[p] = r->end;
    }
    cs->last_end[p] = max_u64(cs->last_end[p], r->end);
    cs->pending[p]--;
    r->done = 1;
    cs->done++;
    cs->cursor[p] = i + 1;
    moved++;
  }
  return moved;
}

/* Find the set(s) releasing every wait; -1 with m->error when one is missing. */
static int match_waits(sl_pipe_model *m, core_state *cs, set_index *sets) {
  for (int c = 0; c < SL_SUBCORE_COUNT; c++) {
    sl_pipe_stream *s = &m->core[c];
    if (!s->n) continue;
    size_t *ord = sl_rt_calloc(s->n, sizeof *ord);
    number_flags(s, SL_REC_WAIT, ord, NULL);
    for (size_t i = 0; i < s->n; i++) {
      cs[c].prod[i][0] = cs[c].prod[i][1] = (producer){-1, -1};
      const sl_pipe_rec *r = &s->recs[i];
      if (r->kind != SL_REC_WAIT) continue;
      int src = (int)r->peer, dst = (int)r->pipe;
      int producers[2], np = 0;
      if (!r->cross) {
        producers[np++] = c;
      } else if (c == SL_SUBCORE_CUBE) {
        for (int v = SL_SUBCORE_VEC0; v <= SL_SUBCORE_VEC1; v++)
          if (m->core[v].ran) producers[np++] = v;
      } else {
        producers[np++] = SL_SUBCORE_CUBE;
      }
      long idx = -1;
      int k = 0;
      for (; k < np; k++) {
        idx = m->core[producers[k]].ran || producers[k] == c
                  ? find_set(&sets[producers[k]], src, dst, r->event_id, r->cross, ord[i])
                  : -1;
        if (idx < 0) break;
        cs[c].prod[i][k] = (producer){producers[k], idx};
      }
      if (np == 0 || idx < 0) {
        snprintf(m->error, sizeof m->error,
                 "%s: WAIT_FLAG %s->%s event %d #%zu (%s:%d) is never released: no matching SET_FLAG%s%s",
                 sl_subcore_names[c], sl_pipe_lane_name(r->peer), sl_pipe_lane_name(r->pipe), r->event_id, ord[i],
                 r->file ? r->file : "?", r->line, np == 0 ? "" : " on ",
                 np == 0 ? "" : sl_subcore_names[producers[k]]);
        sl_rt_free(ord);
        return -1;
      }
    }
    sl_rt_free(ord);
  }
  return 0;
}

int sl_pipe_timeline(sl_pipe_model *m) {
  core_state cs[SL_SUBCORE_COUNT];
  set_index sets[SL_SUBCORE_COUNT];
  int rc = -1;
  memset(cs, 0, sizeof cs);
  memset(sets, 0, sizeof sets);
  m->error[0] = '\0';
  size_t total = 0;
  for (int c = 0; c < SL_SUBCORE_COUNT; c++) {
    sl_pipe_stream *s = &m->core[c];
    cs[c].s = s;
    total += s->n;
    for (size_t i = 0; i < s->n; i++) s->recs[i].done = 0;
    if (!s->n) continue;
    size_t *ord = sl_rt_calloc(s->n, sizeof *ord);
    cs[c].prod = sl_rt_calloc(s->n, sizeof *cs[c].prod);
    number_flags(s, SL_REC_SET, ord, &sets[c]);
    sl_rt_free(ord);
  }
  if (match_waits(m, cs, sets) != 0) goto out;

  size_t timed = 0;
  while (timed < total) {
    size_t moved = 0;
    for (int c = 0; c < SL_SUBCORE_COUNT; c++) {
      if (!cs[c].s->n) continue;
      moved += sweep_dispatch(m->arch, &cs[c], cs);
      for (int p = 0; p < SL_PIPE_COUNT; p++)
        if (p != SL_PIPE_SCALAR && p != SL_PIPE_ALL) moved += sweep_pipe(m->arch, &cs[c], cs, (sl_pipe)p);
    }
    timed = 0;
    for (int c = 0; c < SL_SUBCORE_COUNT; c++) timed += cs[c].done;
    if (!moved && timed < total) {
      /* name the first record that can never be timed */
      for (int c = 0; c < SL_SUBCORE_COUNT; c++)
        for (size_t i = 0; i < cs[c].s->n; i++) {
          const sl_pipe_rec *r = &cs[c].s->recs[i];
          if (r->done || r->kind != SL_REC_WAIT) continue;
          snprintf(m->error, sizeof m->error,
                   "%s: WAIT_FLAG %s->%s event %d (%s:%d) deadlocks: its SET_FLAG sits behind it",
                   sl_subcore_names[c], sl_pipe_lane_name(r->peer), sl_pipe_lane_name(r->pipe), r->event_id,
                   r->file ? r->file : "?", r->line);
          goto out;
        }
      snprintf(m->error, sizeof m->error, "pipe model made no progress");
      goto out;
    }
  }
  rc = 0;
out:
  for (int c = 0; c < SL_SUBCORE_COUNT; c++) {
    sl_rt_free(cs[c].prod);
    sl_rt_free(sets[c].refs);
  }
  return rc;
}

uint64_t sl_pipe_makespan(const sl_pipe_model *m) {
  uint64_t t = 0;
  for (int c = 0; c < SL_SUBCORE_COUNT; c++)
    for (size_t i = 0; i < m->core[c].n; i++) t = max_u64(t, m->core[c].recs[i].end);
  return t;
}
