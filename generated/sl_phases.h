/*
** generated from schema/phases.lua by codegen/main.lua; do not edit.
** Scheduler phase kinds and their table.
** Regenerate: cmake --build <build dir> --target regen
*/

#ifndef SL_PHASES_H
#define SL_PHASES_H

#include <stdint.h>

#include "sl_lanes.h"

/* Scheduler phase kinds (sl_sched_phase_record.kind). Ids are stable and never reused. */
enum sl_phase_kind {
  SL_PHASE_COMPLETE = 0,
  SL_PHASE_DISPATCH = 1,
  SL_PHASE_RELEASE = 2,
  SL_PHASE_DUMMY = 4,
  SL_PHASE_EARLY_DISPATCH = 5,
  SL_PHASE_RESOLVE = 6,
  SL_PHASE_DUMMY_TASK = 7,
  SL_PHASE_DRAIN = 8,
  SL_PHASE_DRAIN_PREPARE = 9,
  SL_PHASE_DRAIN_PUBLISH = 10,
  SL_PHASE_ASYNC_POLL = 11,
  SL_PHASE_PREDICATED_SKIP = 12,
  SL_PHASE_GRAPH_PREPARE = 13,
  SL_PHASE_RESOLVE_STANDALONE = 14,
  SL_PHASE_BOOTSTRAP = 15,
  SL_PHASE_STATE_PROBE = 16,
  SL_PHASE_WORKSTEAL = 17,
  SL_PHASE_REFILL = 18,
};
#define SL_PHASE_ID_LIMIT 19u /* one past the largest id */

enum sl_phase_role { SL_PHASE_ROLE_OUTER = 0, SL_PHASE_ROLE_INNER = 1, SL_PHASE_ROLE_MARKER = 2 };

/* How a phase record's union is read (the phase's `variant`). */
enum sl_phase_variant {
  SL_PHASE_VARIANT_NONE = 0,
  SL_PHASE_VARIANT_DISPATCH = 1,
  SL_PHASE_VARIANT_TASK = 2,
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
#define SL_ORCH_PHASE_DEFAULT "orch_submit"

/* Orchestrator phase kinds (orch_phase_record.kind, phases.lua orch_phases). Ids are stable;
** the default is 0, what a capture without the kind field reads as. */
enum sl_orch_phase_kind {
  SL_ORCH_PHASE_SUBMIT = 0,
  SL_ORCH_PHASE_SYNC = 1,
  SL_ORCH_PHASE_ALLOC = 2,
  SL_ORCH_PHASE_PARAMS = 3,
  SL_ORCH_PHASE_LOOKUP = 4,
  SL_ORCH_PHASE_INSERT = 5,
  SL_ORCH_PHASE_FANIN = 6,
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
  SL_HOST_PHASE_ARENA_H2D = 0,
  SL_HOST_PHASE_GRAPH_UPLOAD = 1,
  SL_HOST_PHASE_TENSOR_H2D = 2,
  SL_HOST_PHASE_COUNT = 3
};
/* Name / colour of an upload step (host_device_uploads[].phase); NULL out of range. */
const char *sl_host_phase_name(int kind);
const char *sl_host_phase_cname(int kind);

#endif /* SL_PHASES_H */
