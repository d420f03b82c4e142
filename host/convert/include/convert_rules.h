/*
** convert_rules.h — the Lua conversion rules as the C engine sees them.
**
** The rules script (lua/convert/default.lua, or the user's --rules script)
** returns a table; every query below calls into it once per distinct key and
** caches the answer, so per-record loops never enter Lua.
*/
#ifndef SL_CONVERT_RULES_H
#define SL_CONVERT_RULES_H

#include <stdint.h>

typedef enum sl_route {
  SL_ROUTE_HIDE = 0,
  SL_ROUTE_SCHED,   /* the thread's main lane                   */
  SL_ROUTE_SUB,     /* the thread's resolve sub-lane (tid + 1)   */
  SL_ROUTE_MARKER,  /* Worker View AICPU_N marker                */
  SL_ROUTE_LANE,    /* a schema lane per thread, or a named lane of its own (pid 2) */
} sl_route;

typedef enum sl_label_mode {
  SL_LABEL_COUNT,   /* display(tasks_processed)  */
  SL_LABEL_TASK,    /* Display(t23)              */
  SL_LABEL_NAME,    /* Display                   */
} sl_label_mode;

typedef struct sl_phase_style {
  sl_route route;
  sl_label_mode label;
  const char *cname;     /* NULL = none */
  const char *display;   /* never NULL */
  const char *lane;      /* SL_ROUTE_LANE: the schema lane's key, or a lane name */
  int per_thread;        /* SL_ROUTE_LANE: `lane` is a schema lane (tid per thread) */
  int64_t tid_base;      /* SL_ROUTE_LANE: per thread: tid = tid_base + thread * tid_stride; */
  int64_t tid_stride;    /*   a named lane: tid_base + n-th named lane (schema lane "custom") */
} sl_phase_style;

typedef struct sl_view {
  int64_t pid;
  int64_t sort;
  const char *name;      /* process name (the orchestrator's comes from orchestrator_name) */
} sl_view;

enum sl_view_kind {
  SL_VIEW_ORCH, SL_VIEW_SCHED, SL_VIEW_SCHEDVIEW, SL_VIEW_WORKER, SL_VIEW_GRAPH,
  SL_VIEW_LIFECYCLE, SL_VIEW_TIMING, SL_VIEW_COUNT
};

typedef struct sl_rules sl_rules;

/* Load the rules: `path` = a user's script, or NULL for convert.default. On error
** prints "swimlane: <script>: <what>" and returns NULL. */
sl_rules *sl_rules_load(const char *path);
void sl_rules_free(sl_rules *r);
/* Non-zero once a rules call has failed (already reported); the engine aborts. */
int sl_rules_failed(const sl_rules *r);

const sl_view *sl_rules_view(sl_rules *r, enum sl_view_kind v);
/* Style of a scheduler phase for a stream (producer/runtime may be NULL). */
const sl_phase_style *sl_rules_phase(sl_rules *r, const char *phase, const char *producer,
                                     const char *runtime, const char *platform);
const char *sl_rules_orch_color(sl_rules *r, const char *phase);
/* R.orch_display[phase]: the label stem of an orchestrator record kind, or NULL. */
const char *sl_rules_orch_display(sl_rules *r, const char *phase);
/* R.hidden_args[key]: a record field (one the reader carries as an extra, shown in the args by
** default) the rules keep out of the trace args. Asked once per name. */
int sl_rules_arg_hidden(sl_rules *r, const char *key);
/* Base name of a task label; mapped = name-map entry or NULL. */
const char *sl_rules_func_name(sl_rules *r, int64_t func_id, const char *mapped);
/* Worker View lane name of a core; NULL = hidden. */
const char *sl_rules_worker_lane(sl_rules *r, int64_t core, const char *core_type);
/* Simple lane namers: fn = "sched_lane", "hbg_lane", "aicpu_lane", "lifecycle_lane". */
const char *sl_rules_lane(sl_rules *r, const char *fn, int64_t i);
const char *sl_rules_orch_lane(sl_rules *r, int64_t i, const char *source);
const char *sl_rules_orchestrator_name(sl_rules *r, const char *source, const char *name);
/* tid base/stride of a lane key of schema/lanes.lua (R.lanes); unchanged if absent. */
void sl_rules_lane_tid(sl_rules *r, const char *key, int64_t *base, int64_t *stride);
/* rules.lane_name(key, i): instance i of schema lane `key` named by its pattern. */
const char *sl_rules_lane_name(sl_rules *r, const char *key, int64_t i);
/* Lifecycle spans: count, and the i-th (label, start key, end key). */
int sl_rules_lifecycle_count(sl_rules *r);
int sl_rules_lifecycle_span(sl_rules *r, int i, const char **label, const char **start_key,
                            const char **end_key);

#endif
