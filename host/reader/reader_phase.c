/*
** reader_phase.c — scheduler phase names: legacy aliases renamed, retired and
** unknown names kept but flagged, ids, aliases and retired names all from the
** generated phase table (schema/phases.lua), identically for JSON and .pb captures.
*/
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
