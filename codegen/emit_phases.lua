--[[
** emit_phases.lua — generated/sl_phases.h/.c: the phase-kind enum, the phase table
** (names, roles, producers, lanes, colours, union variant) and name/id lookups
** with legacy aliases and retired names.
--]]
local util = require("util")

local HEADER = [[
${banner}
#ifndef SL_PHASES_H
#define SL_PHASES_H

#include <stdint.h>

#include "sl_lanes.h"

/* Scheduler phase kinds (sl_sched_phase_record.kind). Ids are stable and never reused. */
enum sl_phase_kind {
${enum}
};
#define SL_PHASE_ID_LIMIT ${id_limit}u /* one past the largest id */

enum sl_phase_role { SL_PHASE_ROLE_OUTER = 0, SL_PHASE_ROLE_INNER = 1, SL_PHASE_ROLE_MARKER = 2 };

/* How a phase record's union is read (the phase's `variant`). */
enum sl_phase_variant {
  SL_PHASE_VARIANT_NONE = 0,
${variants}
};

/* Bit masks of sl_phase_info.producers / .runtimes */
#define SL_PRODUCER_AICPU 1u
#define SL_PRODUCER_AICORE 2u
#define SL_RUNTIME_TMR 1u
#define SL_RUNTIME_HBG 2u

typedef struct sl_phase_info {
  uint32_t id;
  const char *name;            /* JSON "kind" string                                  */
  const char *display;         /* label stem in Perfetto                              */
  const char *aicore_display;  /* label stem on an A5 HBG AICore Scheduler lane       */
  enum sl_phase_role role;
  const char *role_name;       /* "outer" | "inner" | "marker"                        */
  unsigned producers;          /* SL_PRODUCER_* mask                                  */
  unsigned runtimes;           /* SL_RUNTIME_* mask                                   */
  const char *lane;            /* lane key (sl_lanes.h)                               */
  enum sl_lane_id lane_id;
  const char *parents;         /* inner phases: comma-separated parent names, or NULL */
  const char *cname;           /* Perfetto colour, NULL for markers                   */
  enum sl_phase_variant variant;
  const char *variant_name;    /* NULL when the union is unused                       */
  enum sl_phase_variant aicore_variant; /* the variant from an A5 HBG AICore Scheduler  */
  const char *render_as;       /* draw under this phase's name, or NULL               */
  const char *tasks_processed; /* what tasks_processed counts                         */
} sl_phase_info;

extern const sl_phase_info sl_phase_table[];  /* sorted by id */
extern const unsigned sl_phase_table_len;

/* Phase by id; NULL for unknown or retired ids. */
const sl_phase_info *sl_phase_by_id(uint32_t id);
/* Phase by JSON name, legacy aliases resolved (fanout -> resolve); NULL for
** unknown and retired names. */
const sl_phase_info *sl_phase_by_name(const char *name);
/* 1 if `name` is a retired phase name (parsed in old captures, never drawn). */
int sl_phase_is_retired(const char *name);
/* 1 if `id` is a retired id. */
int sl_phase_id_is_retired(uint32_t id);
/* The current name of a legacy alias, or NULL. */
const char *sl_phase_alias_target(const char *name);
/* The union variant of a phase kind (unknown kinds: the union's default). */
enum sl_phase_variant sl_phase_variant_of(uint32_t kind);
/* Same for a record of a stream from `producer` (SL_PRODUCER_AICPU / _AICORE). */
enum sl_phase_variant sl_phase_variant_for(uint32_t kind, unsigned producer);

/* The orchestrator phase a record without a name is (phases.lua orch_phases, default). */
#define SL_ORCH_PHASE_DEFAULT ${orch_default}

/* Orchestrator phase kinds (orch_phase_record.kind, phases.lua orch_phases). Ids are stable;
** the default is 0, what a capture without the kind field reads as. */
enum sl_orch_phase_kind {
${orch_enum}
};

typedef struct sl_orch_phase_info {
  uint32_t id;
  const char *name;     /* "orch_<x>": JSON "phase" string                     */
  const char *display;  /* label stem in Perfetto                              */
  const char *lane;     /* lane key (sl_lanes.h), in the orchestrator view     */
  const char *cname;    /* Perfetto colour                                     */
  int is_default;       /* what a record without a kind is                     */
  int dispatch_flow;    /* rank of its "<display>→dispatch" arrow; -1 = none   */
} sl_orch_phase_info;

extern const sl_orch_phase_info sl_orch_phase_table[];
extern const unsigned sl_orch_phase_table_len;
/* By id; NULL for unknown and retired ids. */
const sl_orch_phase_info *sl_orch_phase_by_id(uint32_t id);
/* By name, renamed kinds' old names resolved (orch_aliases); NULL for unknown and retired
** names. */
const sl_orch_phase_info *sl_orch_phase_by_name(const char *name);
/* The current name of a renamed kind's old name (phases.lua orch_aliases), or NULL. */
const char *sl_orch_phase_alias_target(const char *name);
/* 1 if `name` / `id` is a retired orchestrator kind (orch_retired: read in old captures,
** never drawn, never given to a new kind). */
int sl_orch_phase_is_retired(const char *name);
int sl_orch_phase_id_is_retired(uint32_t id);
/* The name a retired id had (its orch_retired entry's name), or NULL. */
const char *sl_orch_phase_retired_name(uint32_t id);

/* host_build_graph upload steps (phases.lua host_phases), in run order. */
enum sl_host_phase_kind {
${host_enum}
  SL_HOST_PHASE_COUNT = ${host_count}
};
/* Name / colour of an upload step (host_device_uploads[].phase); NULL out of range. */
const char *sl_host_phase_name(int kind);
const char *sl_host_phase_cname(int kind);

#endif /* SL_PHASES_H */
]]

local SOURCE = [[
${banner}
#include "sl_phases.h"

#include <stddef.h>
#include <string.h>

const sl_phase_info sl_phase_table[] = {
${rows}
};
const unsigned sl_phase_table_len = ${count}u;

static const char *const retired_names[] = {${retired_names}};
static const struct { const char *from, *to; } aliases[] = {
${aliases}
};

const sl_orch_phase_info sl_orch_phase_table[] = {
${orch_rows}
};
const unsigned sl_orch_phase_table_len = ${orch_count}u;

const sl_orch_phase_info *sl_orch_phase_by_id(uint32_t id) {
  for (unsigned i = 0; i < sl_orch_phase_table_len; i++)
    if (sl_orch_phase_table[i].id == id) return &sl_orch_phase_table[i];
  return NULL;
}

static const struct { const char *from, *to; } orch_aliases[] = {
${orch_aliases}
};
static const struct { int has_id; uint32_t id; const char *name; } orch_retired[] = {
${orch_retired}
};

const char *sl_orch_phase_alias_target(const char *name) {
  for (size_t i = 0; name && i < sizeof orch_aliases / sizeof orch_aliases[0]; i++)
    if (orch_aliases[i].from && strcmp(orch_aliases[i].from, name) == 0) return orch_aliases[i].to;
  return NULL;
}

const sl_orch_phase_info *sl_orch_phase_by_name(const char *name) {
  const char *target = sl_orch_phase_alias_target(name);
  if (target) name = target;
  for (unsigned i = 0; name && i < sl_orch_phase_table_len; i++)
    if (strcmp(sl_orch_phase_table[i].name, name) == 0) return &sl_orch_phase_table[i];
  return NULL;
}

int sl_orch_phase_is_retired(const char *name) {
  for (size_t i = 0; name && i < sizeof orch_retired / sizeof orch_retired[0]; i++)
    if (orch_retired[i].name && strcmp(orch_retired[i].name, name) == 0) return 1;
  return 0;
}

int sl_orch_phase_id_is_retired(uint32_t id) {
  for (size_t i = 0; i < sizeof orch_retired / sizeof orch_retired[0]; i++)
    if (orch_retired[i].has_id && orch_retired[i].id == id) return 1;
  return 0;
}

const char *sl_orch_phase_retired_name(uint32_t id) {
  for (size_t i = 0; i < sizeof orch_retired / sizeof orch_retired[0]; i++)
    if (orch_retired[i].has_id && orch_retired[i].id == id) return orch_retired[i].name;
  return NULL;
}

static const char *const host_phase_names[] = {${host_names}};
static const char *const host_phase_cnames[] = {${host_cnames}};
const char *sl_host_phase_name(int kind) {
  return kind >= 0 && kind < ${host_count} ? host_phase_names[kind] : NULL;
}
const char *sl_host_phase_cname(int kind) {
  return kind >= 0 && kind < ${host_count} ? host_phase_cnames[kind] : NULL;
}

const sl_phase_info *sl_phase_by_id(uint32_t id) {
  switch (id) {
${by_id}
  default: return NULL;
  }
}

const char *sl_phase_alias_target(const char *name) {
  for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
    if (aliases[i].from && strcmp(aliases[i].from, name) == 0) return aliases[i].to;
  return NULL;
}

const sl_phase_info *sl_phase_by_name(const char *name) {
  if (!name) return NULL;
  const char *target = sl_phase_alias_target(name);
  if (target) name = target;
  for (unsigned i = 0; i < sl_phase_table_len; i++)
    if (strcmp(sl_phase_table[i].name, name) == 0) return &sl_phase_table[i];
  return NULL;
}

int sl_phase_is_retired(const char *name) {
  for (size_t i = 0; name && i < sizeof retired_names / sizeof retired_names[0]; i++)
    if (retired_names[i] && strcmp(retired_names[i], name) == 0) return 1;
  return 0;
}

int sl_phase_id_is_retired(uint32_t id) {
  switch (id) {
${retired_id_cases}
    return 1;
  default:
    return 0;
  }
}

enum sl_phase_variant sl_phase_variant_of(uint32_t kind) {
  const sl_phase_info *p = sl_phase_by_id(kind);
  return p ? p->variant : ${default_variant};
}

enum sl_phase_variant sl_phase_variant_for(uint32_t kind, unsigned producer) {
  const sl_phase_info *p = sl_phase_by_id(kind);
  if (!p) return ${default_variant};
  return producer == SL_PRODUCER_AICORE ? p->aicore_variant : p->variant;
}
]]

local function variant_enum(name) return "SL_PHASE_VARIANT_" .. util.upper(name) end

return function(model)
  local union = model.phase_record and model.phase_record.union
  local enum, by_id, rows = {}, {}, {}
  local max_id = 0
  for i, p in ipairs(model.phases) do
    enum[#enum + 1] = string.format("  %s = %d,", p.enum, p.id)
    by_id[#by_id + 1] = string.format("  case %d: return &sl_phase_table[%d];", p.id, i - 1)
    if p.id > max_id then max_id = p.id end
    rows[#rows + 1] = string.format(
      "    {.id = %d, .name = %s, .display = %s, .aicore_display = %s,\n" ..
      "     .role = SL_PHASE_ROLE_%s, .role_name = %s, .producers = %du, .runtimes = %du,\n" ..
      "     .lane = %s, .lane_id = SL_LANE_%s, .parents = %s, .cname = %s,\n" ..
      "     .variant = %s, .variant_name = %s, .aicore_variant = %s, .render_as = %s,\n" ..
      "     .tasks_processed = %s},",
      p.id, util.cstr(p.name), util.cstr(p.display), util.cstr(p.aicore_display), p.role:upper(),
      util.cstr(p.role), p.producer_mask, p.runtime_mask, util.cstr(p.lane), util.upper(p.lane),
      p.parent and util.cstr(table.concat(p.parent, ",")) or "NULL", util.cstr(p.cname),
      p.variant and variant_enum(p.variant.name) or "SL_PHASE_VARIANT_NONE",
      p.variant and util.cstr(p.variant.name) or "NULL",
      p.aicore_variant and variant_enum(p.aicore_variant.name) or "SL_PHASE_VARIANT_NONE",
      util.cstr(p.render_as), util.cstr(p.tasks_processed))
  end
  local variants = {}
  for i, v in ipairs(union and union.variants or {}) do
    variants[#variants + 1] = string.format("  %s = %d,", variant_enum(v.name), i)
  end
  local retired_names, retired_ids = {}, {}
  for _, n in ipairs(model.retired_names) do retired_names[#retired_names + 1] = util.cstr(n) end
  for _, id in ipairs(model.retired_ids) do retired_ids[#retired_ids + 1] = string.format("  case %du:", id) end
  local aliases = {}
  for _, a in ipairs(model.aliases) do
    aliases[#aliases + 1] = string.format("    {%s, %s},", util.cstr(a.from), util.cstr(a.to))
  end
  if #aliases == 0 then aliases[1] = "    {NULL, NULL}," end
  local orch_default -- the model has exactly one default kind
  local orch_enum, orch_rows = {}, {}
  for _, o in ipairs(model.orch_phases or {}) do
    if o.default then orch_default = o.name end
    orch_enum[#orch_enum + 1] = string.format("  %s = %d,", util.orch_enum(o.name), o.id)
    orch_rows[#orch_rows + 1] = string.format(
      "    {.id = %d, .name = %s, .display = %s, .lane = %s, .cname = %s, .is_default = %d, .dispatch_flow = %d},",
      o.id, util.cstr(o.name), util.cstr(o.display), util.cstr(o.lane), util.cstr(o.cname), o.default and 1 or 0,
      o.dispatch_flow or -1)
  end
  local orch_aliases, orch_retired = {}, {}
  for _, a in ipairs(model.orch_aliases or {}) do
    orch_aliases[#orch_aliases + 1] = string.format("    {%s, %s},", util.cstr(a.from), util.cstr(a.to))
  end
  if #orch_aliases == 0 then orch_aliases[1] = "    {NULL, NULL}," end
  for _, r in ipairs(model.orch_retired or {}) do
    orch_retired[#orch_retired + 1] = string.format("    {%d, %du, %s},", r.id and 1 or 0, r.id or 0,
      r.name and util.cstr(r.name) or "NULL")
  end
  if #orch_retired == 0 then orch_retired[1] = "    {0, 0u, NULL}," end
  local host_enum, host_names, host_cnames = {}, {}, {}
  for i, h in ipairs(model.host_phases or {}) do
    host_enum[#host_enum + 1] = string.format("  SL_HOST_PHASE_%s = %d,", h.name:upper(), i - 1)
    host_names[#host_names + 1] = util.cstr(h.name)
    host_cnames[#host_cnames + 1] = util.cstr(h.cname)
  end
  local banner = util.banner("c", { "phases.lua" }, "Scheduler phase kinds and their table.")
  local h = util.fill(HEADER, {
    banner = banner, enum = table.concat(enum, "\n"), id_limit = max_id + 1,
    variants = table.concat(variants, "\n"), orch_default = util.cstr(orch_default),
    host_enum = table.concat(host_enum, "\n"), host_count = #host_enum,
    orch_enum = table.concat(orch_enum, "\n"),
  })
  local c = util.fill(SOURCE, {
    banner = banner, rows = table.concat(rows, "\n"), count = #model.phases,
    retired_names = #retired_names > 0 and table.concat(retired_names, ", ") or "NULL",
    retired_id_cases = #retired_ids > 0 and table.concat(retired_ids, "\n") or "  case UINT32_MAX: /* none */",
    aliases = table.concat(aliases, "\n"), by_id = table.concat(by_id, "\n"),
    orch_rows = table.concat(orch_rows, "\n"), orch_count = #(model.orch_phases or {}),
    orch_aliases = table.concat(orch_aliases, "\n"), orch_retired = table.concat(orch_retired, "\n"),
    host_names = #host_names > 0 and table.concat(host_names, ", ") or "NULL", host_count = #host_names,
    host_cnames = #host_cnames > 0 and table.concat(host_cnames, ", ") or "NULL",
    default_variant = union and variant_enum(union.default.name) or "SL_PHASE_VARIANT_NONE",
  })
  return { { path = "sl_phases.h", text = h }, { path = "sl_phases.c", text = c } }
end
