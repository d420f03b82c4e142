/*
** generated from schema/phases.lua by codegen/main.lua; do not edit.
** Scheduler phase kinds and their table.
** Regenerate: cmake --build <build dir> --target regen
*/

#include "sl_phases.h"

#include <stddef.h>
#include <string.h>

const sl_phase_info sl_phase_table[] = {
    {.id = 0, .name = "complete", .display = "complete", .aicore_display = "Completion",
     .role = SL_PHASE_ROLE_OUTER, .role_name = "outer", .producers = 3u, .runtimes = 3u,
     .lane = "sched", .lane_id = SL_LANE_SCHED, .parents = NULL, .cname = "good",
     .variant = SL_PHASE_VARIANT_NONE, .variant_name = NULL, .aicore_variant = SL_PHASE_VARIANT_TASK, .render_as = NULL,
     .tasks_processed = "FIN'd subtasks + SPMD sub-block retires this iteration"},
    {.id = 1, .name = "dispatch", .display = "dispatch", .aicore_display = "Dispatch",
     .role = SL_PHASE_ROLE_OUTER, .role_name = "outer", .producers = 3u, .runtimes = 3u,
     .lane = "sched", .lane_id = SL_LANE_SCHED, .parents = NULL, .cname = "terrible",
     .variant = SL_PHASE_VARIANT_DISPATCH, .variant_name = "dispatch", .aicore_variant = SL_PHASE_VARIANT_TASK, .render_as = NULL,
     .tasks_processed = "subtasks published this iteration"},
    {.id = 2, .name = "release", .display = "release", .aicore_display = "release",
     .role = SL_PHASE_ROLE_OUTER, .role_name = "outer", .producers = 1u, .runtimes = 1u,
     .lane = "sched", .lane_id = SL_LANE_SCHED, .parents = NULL, .cname = "olive",
     .variant = SL_PHASE_VARIANT_NONE, .variant_name = NULL, .aicore_variant = SL_PHASE_VARIANT_NONE, .render_as = NULL,
     .tasks_processed = "deferred-release slots drained this iteration"},
    {.id = 4, .name = "dummy", .display = "dummy", .aicore_display = "dummy",
     .role = SL_PHASE_ROLE_OUTER, .role_name = "outer", .producers = 1u, .runtimes = 3u,
     .lane = "sched", .lane_id = SL_LANE_SCHED, .parents = NULL, .cname = "grey",
     .variant = SL_PHASE_VARIANT_NONE, .variant_name = NULL, .aicore_variant = SL_PHASE_VARIANT_NONE, .render_as = NULL,
     .tasks_processed = "dummy_ready_queue entries handled (explicit dummies and false-predicate tasks)"},
    {.id = 5, .name = "early_dispatch", .display = "early_dispatch", .aicore_display = "early_dispatch",
     .role = SL_PHASE_ROLE_OUTER, .role_name = "outer", .producers = 1u, .runtimes = 3u,
     .lane = "sched", .lane_id = SL_LANE_SCHED, .parents = NULL, .cname = "rail_animation",
     .variant = SL_PHASE_VARIANT_NONE, .variant_name = NULL, .aicore_variant = SL_PHASE_VARIANT_NONE, .render_as = NULL,
     .tasks_processed = "blocks staged by speculative early dispatch this pass"},
    {.id = 6, .name = "resolve", .display = "resolve", .aicore_display = "Resolve",
     .role = SL_PHASE_ROLE_INNER, .role_name = "inner", .producers = 3u, .runtimes = 3u,
     .lane = "sched_sub", .lane_id = SL_LANE_SCHED_SUB, .parents = "complete,dummy", .cname = "vsync_highlight_color",
     .variant = SL_PHASE_VARIANT_NONE, .variant_name = NULL, .aicore_variant = SL_PHASE_VARIANT_TASK, .render_as = NULL,
     .tasks_processed = "consumers visited after completion (walks under 1 us are not emitted)"},
    {.id = 7, .name = "dummy_task", .display = "dummy", .aicore_display = "dummy",
     .role = SL_PHASE_ROLE_MARKER, .role_name = "marker", .producers = 1u, .runtimes = 3u,
     .lane = "worker_aicpu", .lane_id = SL_LANE_WORKER_AICPU, .parents = NULL, .cname = NULL,
     .variant = SL_PHASE_VARIANT_TASK, .variant_name = "task", .aicore_variant = SL_PHASE_VARIANT_TASK, .render_as = NULL,
     .tasks_processed = "always 1: one dummy entering on_task_complete(); identity in task_id"},
    {.id = 8, .name = "drain", .display = "drain", .aicore_display = "drain",
     .role = SL_PHASE_ROLE_OUTER, .role_name = "outer", .producers = 1u, .runtimes = 3u,
     .lane = "sched", .lane_id = SL_LANE_SCHED, .parents = NULL, .cname = "cq_build_running",
     .variant = SL_PHASE_VARIANT_NONE, .variant_name = NULL, .aicore_variant = SL_PHASE_VARIANT_NONE, .render_as = NULL,
     .tasks_processed = "blocks staged by this thread's global sync-start drain pass"},
    {.id = 9, .name = "drain_prepare", .display = "drain_prepare", .aicore_display = "drain_prepare",
     .role = SL_PHASE_ROLE_INNER, .role_name = "inner", .producers = 1u, .runtimes = 3u,
     .lane = "sched", .lane_id = SL_LANE_SCHED, .parents = "drain", .cname = "cq_build_attempt_runnable",
     .variant = SL_PHASE_VARIANT_NONE, .variant_name = NULL, .aicore_variant = SL_PHASE_VARIANT_NONE, .render_as = NULL,
     .tasks_processed = "subtasks prepared for global sync-start publication"},
    {.id = 10, .name = "drain_publish", .display = "drain_publish", .aicore_display = "drain_publish",
     .role = SL_PHASE_ROLE_INNER, .role_name = "inner", .producers = 1u, .runtimes = 3u,
     .lane = "sched", .lane_id = SL_LANE_SCHED, .parents = "drain", .cname = "cq_build_attempt_passed",
     .variant = SL_PHASE_VARIANT_NONE, .variant_name = NULL, .aicore_variant = SL_PHASE_VARIANT_NONE, .render_as = NULL,
     .tasks_processed = "subtasks published during global sync-start staging"},
    {.id = 11, .name = "async_poll", .display = "async_poll", .aicore_display = "async_poll",
     .role = SL_PHASE_ROLE_OUTER, .role_name = "outer", .producers = 1u, .runtimes = 3u,
     .lane = "sched", .lane_id = SL_LANE_SCHED, .parents = NULL, .cname = "yellow",
     .variant = SL_PHASE_VARIANT_NONE, .variant_name = NULL, .aicore_variant = SL_PHASE_VARIANT_NONE, .render_as = NULL,
     .tasks_processed = "async-wait completions resolved; 0 = polling consumed CPU without completing work"},
    {.id = 12, .name = "predicated_skip", .display = "task", .aicore_display = "task",
     .role = SL_PHASE_ROLE_MARKER, .role_name = "marker", .producers = 1u, .runtimes = 3u,
     .lane = "worker_aicpu", .lane_id = SL_LANE_WORKER_AICPU, .parents = NULL, .cname = NULL,
     .variant = SL_PHASE_VARIANT_TASK, .variant_name = "task", .aicore_variant = SL_PHASE_VARIANT_TASK, .render_as = NULL,
     .tasks_processed = "always 1: a real task retired inline after its dispatch predicate was false"},
    {.id = 13, .name = "graph_prepare", .display = "graph_prepare", .aicore_display = "graph_prepare",
     .role = SL_PHASE_ROLE_OUTER, .role_name = "outer", .producers = 1u, .runtimes = 3u,
     .lane = "sched", .lane_id = SL_LANE_SCHED, .parents = NULL, .cname = "rail_animation",
     .variant = SL_PHASE_VARIANT_TASK, .variant_name = "task", .aicore_variant = SL_PHASE_VARIANT_TASK, .render_as = NULL,
     .tasks_processed = "Graph Definition nodes expanded this pass (task_id = outer ring-0 graph task)"},
    {.id = 14, .name = "resolve_standalone", .display = "resolve", .aicore_display = "resolve",
     .role = SL_PHASE_ROLE_OUTER, .role_name = "outer", .producers = 1u, .runtimes = 2u,
     .lane = "hbg_p", .lane_id = SL_LANE_HBG_P, .parents = NULL, .cname = "vsync_highlight_color",
     .variant = SL_PHASE_VARIANT_NONE, .variant_name = NULL, .aicore_variant = SL_PHASE_VARIANT_NONE, .render_as = "resolve",
     .tasks_processed = "completed SPSC slots resolved on the HBG P thread"},
    {.id = 15, .name = "bootstrap", .display = "Bootstrap", .aicore_display = "Bootstrap",
     .role = SL_PHASE_ROLE_OUTER, .role_name = "outer", .producers = 2u, .runtimes = 2u,
     .lane = "aicore_sched", .lane_id = SL_LANE_AICORE_SCHED, .parents = NULL, .cname = "startup",
     .variant = SL_PHASE_VARIANT_NONE, .variant_name = NULL, .aicore_variant = SL_PHASE_VARIANT_NONE, .render_as = NULL,
     .tasks_processed = "initial executable tasks classified and published before normal scheduling"},
    {.id = 16, .name = "state_probe", .display = "StateProbe", .aicore_display = "StateProbe",
     .role = SL_PHASE_ROLE_OUTER, .role_name = "outer", .producers = 2u, .runtimes = 2u,
     .lane = "aicore_sched", .lane_id = SL_LANE_AICORE_SCHED, .parents = NULL, .cname = "rail_idle",
     .variant = SL_PHASE_VARIANT_TASK, .variant_name = "task", .aicore_variant = SL_PHASE_VARIANT_TASK, .render_as = NULL,
     .tasks_processed = "Cluster Slot / Ready state checked, a Ready task acquired, placement decided"},
    {.id = 17, .name = "worksteal", .display = "Worksteal", .aicore_display = "Worksteal",
     .role = SL_PHASE_ROLE_OUTER, .role_name = "outer", .producers = 2u, .runtimes = 2u,
     .lane = "aicore_sched", .lane_id = SL_LANE_AICORE_SCHED, .parents = NULL, .cname = "rail_load",
     .variant = SL_PHASE_VARIANT_TASK, .variant_name = "task", .aicore_variant = SL_PHASE_VARIANT_TASK, .render_as = NULL,
     .tasks_processed = "a task acquired from another non-empty Inbox is published"},
    {.id = 18, .name = "refill", .display = "Refill", .aicore_display = "Refill",
     .role = SL_PHASE_ROLE_OUTER, .role_name = "outer", .producers = 2u, .runtimes = 2u,
     .lane = "aicore_sched", .lane_id = SL_LANE_AICORE_SCHED, .parents = NULL, .cname = "rail_response",
     .variant = SL_PHASE_VARIANT_TASK, .variant_name = "task", .aicore_variant = SL_PHASE_VARIANT_TASK, .render_as = NULL,
     .tasks_processed = "completed Slot reused for one replacement task"},
};
const unsigned sl_phase_table_len = 18u;

static const char *const retired_names[] = {"direct_refill", "fanin", "idle", "poll", "ready_claim", "ready_steal", "scan"};
static const struct { const char *from, *to; } aliases[] = {
    {"fanout", "resolve"},
    {"prestage", "early_dispatch"},
};

const sl_orch_phase_info sl_orch_phase_table[] = {
    {.id = 0, .name = "orch_submit", .display = "submit", .lane = "orch", .cname = "rail_animation", .is_default = 1, .dispatch_flow = 0},
    {.id = 1, .name = "orch_sync", .display = "sync", .lane = "orch", .cname = "thread_state_iowait", .is_default = 0, .dispatch_flow = -1},
    {.id = 2, .name = "orch_alloc", .display = "alloc", .lane = "orch", .cname = "terrible", .is_default = 0, .dispatch_flow = -1},
    {.id = 3, .name = "orch_params", .display = "params", .lane = "orch", .cname = "good", .is_default = 0, .dispatch_flow = 2},
    {.id = 4, .name = "orch_lookup", .display = "lookup", .lane = "orch", .cname = "thread_state_running", .is_default = 0, .dispatch_flow = -1},
    {.id = 5, .name = "orch_insert", .display = "insert", .lane = "orch", .cname = "olive", .is_default = 0, .dispatch_flow = -1},
    {.id = 6, .name = "orch_fanin", .display = "fanin", .lane = "orch", .cname = "rail_animation", .is_default = 0, .dispatch_flow = 1},
};
const unsigned sl_orch_phase_table_len = 7u;

const sl_orch_phase_info *sl_orch_phase_by_id(uint32_t id) {
  for (unsigned i = 0; i < sl_orch_phase_table_len; i++)
    if (sl_orch_phase_table[i].id == id) return &sl_orch_phase_table[i];
  return NULL;
}

static const struct { const char *from, *to; } orch_aliases[] = {
    {NULL, NULL},
};
static const struct { int has_id; uint32_t id; const char *name; } orch_retired[] = {
    {0, 0u, NULL},
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

static const char *const host_phase_names[] = {"arena_h2d", "graph_upload", "tensor_h2d"};
static const char *const host_phase_cnames[] = {"thread_state_iowait", "thread_state_iowait", "thread_state_iowait"};
const char *sl_host_phase_name(int kind) {
  return kind >= 0 && kind < 3 ? host_phase_names[kind] : NULL;
}
const char *sl_host_phase_cname(int kind) {
  return kind >= 0 && kind < 3 ? host_phase_cnames[kind] : NULL;
}

const sl_phase_info *sl_phase_by_id(uint32_t id) {
  switch (id) {
  case 0: return &sl_phase_table[0];
  case 1: return &sl_phase_table[1];
  case 2: return &sl_phase_table[2];
  case 4: return &sl_phase_table[3];
  case 5: return &sl_phase_table[4];
  case 6: return &sl_phase_table[5];
  case 7: return &sl_phase_table[6];
  case 8: return &sl_phase_table[7];
  case 9: return &sl_phase_table[8];
  case 10: return &sl_phase_table[9];
  case 11: return &sl_phase_table[10];
  case 12: return &sl_phase_table[11];
  case 13: return &sl_phase_table[12];
  case 14: return &sl_phase_table[13];
  case 15: return &sl_phase_table[14];
  case 16: return &sl_phase_table[15];
  case 17: return &sl_phase_table[16];
  case 18: return &sl_phase_table[17];
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
  case 3u:
    return 1;
  default:
    return 0;
  }
}

enum sl_phase_variant sl_phase_variant_of(uint32_t kind) {
  const sl_phase_info *p = sl_phase_by_id(kind);
  return p ? p->variant : SL_PHASE_VARIANT_DISPATCH;
}

enum sl_phase_variant sl_phase_variant_for(uint32_t kind, unsigned producer) {
  const sl_phase_info *p = sl_phase_by_id(kind);
  if (!p) return SL_PHASE_VARIANT_DISPATCH;
  return producer == SL_PRODUCER_AICORE ? p->aicore_variant : p->variant;
}
