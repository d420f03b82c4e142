/*
** reader_phase.c — scheduler phase and orchestrator kind names (legacy aliases renamed,
** retired and unknown names kept but flagged, ids, aliases and retired names all from the
** generated phase tables, schema/phases.lua, identically for JSON and .pb captures), and
** the compact storage of a phase record's integers.
**
** Storage: a record keeps its ten integer fields (enum sl_phase_value) narrow in the record
** (loop_iter int32, the counts and queue depths int16) while every one fits its width; the
** first value that does not moves all ten, widened, to a capture->phase_wide entry the
** record names (wide = 1 + index), and the record stays wide from then on, so a reader
** never has to look in both places.
*/
#include <stdio.h>
#include <string.h>

#include "reader_raw.h"
#include "reader_util.h"
#include "sl_generated_gate.h"
#include "sl_mem.h"
#include "sl_phases.h"

_Static_assert(SL_PHASE_ID_LIMIT <= INT16_MAX, "phase ids fit sl_phase_rec.phase_id");

void sl_phase_classify(sl_capture *c, sl_phase_rec *rec, const char *name, size_t len) {
  char buf[64];
  rec->flags &= ~(uint32_t)(SL_PH_RETIRED | SL_PH_UNKNOWN | SL_PH_RENAMED);
  if (!name) { /* kind missing: the reference's default "unknown" */
    rec->phase = sl_intern_add(&c->strings, "unknown", 7);
    rec->phase_id = SL_PHASE_ID_UNKNOWN;
    rec->flags |= SL_PH_UNKNOWN;
    return;
  }
  rec->phase_id = SL_PHASE_ID_UNKNOWN;
  int is_retired = 0;
  if (len < sizeof buf && !memchr(name, 0, len)) {
    memcpy(buf, name, len);
    buf[len] = 0;
    const char *key = buf, *to = sl_phase_alias_target(buf);
    if (to) { /* a legacy name: the record carries the current one */
      name = key = to;
      len = strlen(to);
      rec->flags |= SL_PH_RENAMED;
    }
    const sl_phase_info *pi = sl_phase_by_name(key);
    if (pi)
      rec->phase_id = (int)pi->id;
    else
      is_retired = sl_phase_is_retired(key);
  }
  rec->phase = sl_intern_add(&c->strings, name, len);
  if (rec->phase_id == SL_PHASE_ID_UNKNOWN) rec->flags |= is_retired ? SL_PH_RETIRED : SL_PH_UNKNOWN;
}

void sl_orch_classify(sl_capture *c, sl_orch_rec *rec, const char *name, size_t len) {
  char buf[64];
  rec->flags &= ~(uint32_t)(SL_ORCH_RENAMED | SL_ORCH_RETIRED | SL_ORCH_UNKNOWN);
  if (!name) { /* a record naming no kind: the default */
    name = SL_ORCH_PHASE_DEFAULT;
    len = strlen(name);
  } else if (len < sizeof buf && !memchr(name, 0, len)) {
    memcpy(buf, name, len);
    buf[len] = 0;
    const char *to = sl_orch_phase_alias_target(buf);
    if (to) { /* a renamed kind's old name: the record carries the current one */
      name = to;
      len = strlen(to);
      rec->flags |= SL_ORCH_RENAMED;
    } else if (!sl_orch_phase_by_name(buf)) {
      rec->flags |= sl_orch_phase_is_retired(buf) ? SL_ORCH_RETIRED : SL_ORCH_UNKNOWN;
    }
  } else {
    rec->flags |= SL_ORCH_UNKNOWN; /* too long, or a NUL inside: no kind has such a name */
  }
  rec->phase = sl_intern_add(&c->strings, name, len);
}

void sl_orch_classify_id(sl_capture *c, sl_orch_rec *rec, uint32_t id) {
  rec->flags &= ~(uint32_t)(SL_ORCH_RENAMED | SL_ORCH_RETIRED | SL_ORCH_UNKNOWN);
  const sl_orch_phase_info *o = sl_orch_phase_by_id(id);
  const char *name = o ? o->name : sl_orch_phase_retired_name(id);
  char buf[32];
  if (!name) {
    snprintf(buf, sizeof buf, "orch_kind_%u", (unsigned)id);
    name = buf;
  }
  if (!o) rec->flags |= sl_orch_phase_id_is_retired(id) ? SL_ORCH_RETIRED : SL_ORCH_UNKNOWN;
  rec->phase = sl_intern_add(&c->strings, name, strlen(name));
}

void sl_phase_set(sl_capture *c, sl_phase_rec *p, int k, int64_t v) {
  if (p->wide) {
    c->phase_wide[p->wide - 1].v[k] = v;
    return;
  }
  if (k == SL_PV_LOOP_ITER && v >= INT32_MIN && v <= INT32_MAX) {
    p->iter = (int32_t)v;
    return;
  }
  if (k != SL_PV_LOOP_ITER && v >= INT16_MIN && v <= INT16_MAX) {
    p->small[k - 1] = (int16_t)v;
    return;
  }
  sl_phase_wide *w = sl_array_push(c->phase_wide, c->n_phase_wide, c->cap_phase_wide);
  for (int i = 0; i < SL_PV_COUNT; i++) w->v[i] = sl_phase_value(c, p, i);
  w->v[k] = v;
  p->wide = (uint32_t)c->n_phase_wide;
  p->iter = 0;
  memset(p->small, 0, sizeof p->small);
}

void sl_phase_set_extra(sl_phase_rec *p, sl_extra_span sp) {
  p->extra_first = sp.first;
  p->n_extra = (uint8_t)sp.n;
}

void sl_phase_push(sl_capture *c, size_t *cap, const sl_phase_in *in) {
  sl_phase_rec *p = sl_array_push(c->phases, c->n_phases, *cap);
  *p = in->r;
  p->wide = 0;
  p->iter = 0;
  memset(p->small, 0, sizeof p->small);
  sl_phase_set_extra(p, in->extra);
  for (int k = 0; k < SL_PV_COUNT; k++)
    if (in->v[k]) sl_phase_set(c, p, k, in->v[k]);
}
