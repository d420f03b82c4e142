/*
** reader_phase.c — scheduler phase and orchestrator kind names: legacy aliases renamed,
** retired and unknown names kept but flagged, ids, aliases and retired names all from the
** generated phase tables (schema/phases.lua), identically for JSON and .pb captures.
*/
#include <stdio.h>
#include <string.h>

#include "reader_raw.h"
#include "reader_util.h"
#include "sl_generated_gate.h"
#include "sl_phases.h"

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
  rec->flags &= ~(uint32_t)(SL_ORCH_RENAMED | SL_ORCH_RETIRED);
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
    } else if (!sl_orch_phase_by_name(buf) && sl_orch_phase_is_retired(buf)) {
      rec->flags |= SL_ORCH_RETIRED;
    }
  }
  rec->phase = sl_intern_add(&c->strings, name, len);
}

void sl_orch_classify_id(sl_capture *c, sl_orch_rec *rec, uint32_t id) {
  rec->flags &= ~(uint32_t)(SL_ORCH_RENAMED | SL_ORCH_RETIRED);
  const sl_orch_phase_info *o = sl_orch_phase_by_id(id);
  const char *name = o ? o->name : sl_orch_phase_retired_name(id);
  char buf[32];
  if (!name) {
    snprintf(buf, sizeof buf, "orch_kind_%u", (unsigned)id);
    name = buf;
  }
  if (!o && sl_orch_phase_id_is_retired(id)) rec->flags |= SL_ORCH_RETIRED;
  rec->phase = sl_intern_add(&c->strings, name, strlen(name));
}
