/*
** reader_phase.c — scheduler phase names: legacy aliases renamed, retired and
** unknown names kept but flagged, ids from the generated phase table.
*/
#include <string.h>

#include "reader_raw.h"
#include "reader_util.h"

#if defined(SL_HAVE_GENERATED) && __has_include("sl_phases.h")
#include "sl_phases.h"
#define HAVE_PHASE_TABLE 1
#endif

/* The schema's legacy renames (schema/phases.lua `aliases`); the generated
** sl_phase_by_name resolves them too, but the reader must also rename the string. */
static const char *const alias_from[] = {"fanout", "prestage"};
static const char *const alias_to[] = {"resolve", "early_dispatch"};

#ifndef HAVE_PHASE_TABLE
/* Fallback until generated/ exists: the same ids as schema/phases.lua. */
static const struct { const char *name; int id; } fallback[] = {
  {"complete", 0}, {"dispatch", 1}, {"release", 2}, {"dummy", 4}, {"early_dispatch", 5},
  {"resolve", 6}, {"dummy_task", 7}, {"drain", 8}, {"drain_prepare", 9}, {"drain_publish", 10},
  {"async_poll", 11}, {"predicated_skip", 12}, {"graph_prepare", 13}, {"resolve_standalone", 14},
  {"bootstrap", 15}, {"state_probe", 16}, {"worksteal", 17}, {"refill", 18},
};
static const char *const retired[] = {"scan", "poll", "idle", "fanin", "ready_claim", "ready_steal", "direct_refill"};
#endif

static int lookup_id(const char *name, int *retired_out) {
  *retired_out = 0;
#ifdef HAVE_PHASE_TABLE
  const sl_phase_info *pi = sl_phase_by_name(name);
  if (pi) return (int)pi->id;
  *retired_out = sl_phase_is_retired(name);
  return SL_PHASE_ID_UNKNOWN;
#else
  for (size_t i = 0; i < sizeof fallback / sizeof fallback[0]; i++)
    if (strcmp(fallback[i].name, name) == 0) return fallback[i].id;
  for (size_t i = 0; i < sizeof retired / sizeof retired[0]; i++)
    if (strcmp(retired[i], name) == 0) *retired_out = 1;
  return SL_PHASE_ID_UNKNOWN;
#endif
}

int sl_phase_classify(sl_capture *c, sl_phase_rec *rec, const char *name, size_t len) {
  char buf[64];
  rec->flags &= ~(uint32_t)(SL_PH_RETIRED | SL_PH_UNKNOWN | SL_PH_RENAMED);
  if (!name) { /* kind missing: the reference's default "unknown" */
    rec->phase = sl_strtab_intern(&c->strings, "unknown", 7);
    rec->phase_id = SL_PHASE_ID_UNKNOWN;
    rec->flags |= SL_PH_UNKNOWN;
    return rec->phase == SL_STR_NONE ? -1 : 0;
  }
  for (size_t i = 0; i < sizeof alias_from / sizeof alias_from[0]; i++)
    if (len == strlen(alias_from[i]) && memcmp(name, alias_from[i], len) == 0) {
      name = alias_to[i];
      len = strlen(name);
      rec->flags |= SL_PH_RENAMED;
    }
  rec->phase = sl_strtab_intern(&c->strings, name, len);
  if (rec->phase == SL_STR_NONE) return -1;
  int is_retired = 0;
  rec->phase_id = SL_PHASE_ID_UNKNOWN;
  if (len < sizeof buf && !memchr(name, 0, len)) {
    memcpy(buf, name, len);
    buf[len] = 0;
    rec->phase_id = lookup_id(buf, &is_retired);
  }
  if (rec->phase_id == SL_PHASE_ID_UNKNOWN) rec->flags |= is_retired ? SL_PH_RETIRED : SL_PH_UNKNOWN;
  return 0;
}
