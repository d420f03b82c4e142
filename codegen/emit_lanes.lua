--[[
** emit_lanes.lua — generated/sl_lanes.h/.c: the Perfetto views (pids) and lanes
** (tid bases, strides, thread-name patterns) from schema/lanes.lua.
--]]
local util = require("util")

local HEADER = [[
${banner}
#ifndef SL_LANES_H
#define SL_LANES_H

/* Perfetto processes ("views"), one per pid. */
enum sl_view_id {
${view_enum}
  SL_VIEW_TABLE_LEN
};

/* Lanes (Perfetto threads) the converter routes records to. */
enum sl_lane_id {
${lane_enum}
  SL_LANE_TABLE_LEN
};

typedef struct sl_view_info {
  int pid;
  const char *key;
  const char *process_name;
  int sort_index;          /* process_sort_index, -1 = not emitted */
  const char *when;        /* when the converter emits this view   */
  int pid_stride;          /* pid step between instances, 0 = one  */
} sl_view_info;

typedef struct sl_lane_info {
  const char *key;
  enum sl_view_id view;
  int pid;
  int tid_base;            /* tid = tid_base + index * tid_stride                     */
  int tid_stride;
  const char *name;        /* pattern: {index} instance, {TYPE} core type upper-case */
  int sort_index;          /* thread_sort_index, -1 = not emitted                    */
  const char *indexed_by;
} sl_lane_info;

extern const sl_view_info sl_view_table[SL_VIEW_TABLE_LEN];
extern const sl_lane_info sl_lane_table[SL_LANE_TABLE_LEN];

const sl_view_info *sl_view_by_key(const char *key);
const sl_lane_info *sl_lane_by_key(const char *key);
static inline int sl_lane_tid(const sl_lane_info *lane, int index) {
  return lane->tid_base + index * lane->tid_stride;
}
/* The lane every phase of a scheduler stream from `producer` ("aicpu" | "aicore")
** goes to regardless of the phase's own lane, or NULL when the phase's lane applies. */
const sl_lane_info *sl_lane_for_producer(const char *producer);

/* L3 multi-rank traces: rank r's chip view pid p becomes (r + 1) * SL_L3_RANK_PID_STRIDE + p. */
#define SL_L3_RANK_PID_STRIDE ${rank_pid_stride}

/* Flow arrows the converter draws (lanes.lua flows): the event name by key; "{display}" in a
** name stands for the orchestrator kind's label. */
enum sl_flow_id {
${flow_enum}
  SL_FLOW_TABLE_LEN
};
typedef struct sl_flow_info {
  const char *key;
  const char *name;
} sl_flow_info;
extern const sl_flow_info sl_flow_table[SL_FLOW_TABLE_LEN];

/* The pipes of one AICore sub-core (lanes.lua pipes, in id order): the kernel API's pipe ids. */
typedef enum sl_pipe {
${pipe_enum}
  SL_PIPE_COUNT
} sl_pipe;

/* The L0 core swimlane's pipe lanes (lanes.lua pipes), by pipe id (enum sl_pipe). */
#define SL_PIPE_LANE_COUNT ${pipe_count}
extern const char *const sl_pipe_lane_names[SL_PIPE_LANE_COUNT];

#endif /* SL_LANES_H */
]]

local SOURCE = [[
${banner}
#include "sl_lanes.h"

#include <stddef.h>
#include <string.h>

const sl_view_info sl_view_table[SL_VIEW_TABLE_LEN] = {
${views}
};

const sl_lane_info sl_lane_table[SL_LANE_TABLE_LEN] = {
${lanes}
};

const sl_flow_info sl_flow_table[SL_FLOW_TABLE_LEN] = {
${flows}
};

const char *const sl_pipe_lane_names[SL_PIPE_LANE_COUNT] = {${pipes}};

const sl_view_info *sl_view_by_key(const char *key) {
  for (int i = 0; key && i < SL_VIEW_TABLE_LEN; i++)
    if (strcmp(sl_view_table[i].key, key) == 0) return &sl_view_table[i];
  return NULL;
}

const sl_lane_info *sl_lane_by_key(const char *key) {
  for (int i = 0; key && i < SL_LANE_TABLE_LEN; i++)
    if (strcmp(sl_lane_table[i].key, key) == 0) return &sl_lane_table[i];
  return NULL;
}

const sl_lane_info *sl_lane_for_producer(const char *producer) {
  if (!producer) return NULL;
${producer_lanes}
  return NULL;
}
]]

return function(model)
  local view_enum, views, view_index = {}, {}, {}
  for i, v in ipairs(model.views) do
    view_index[v.key] = i - 1
    view_enum[#view_enum + 1] = string.format("  SL_VIEW_%s = %d, /* pid %d */", util.upper(v.key), i - 1, v.pid)
    views[#views + 1] = string.format("    {%d, %s, %s, %d, %s, %d},", v.pid, util.cstr(v.key),
      util.cstr(v.process_name), v.sort_index or -1, util.cstr(v.when), v.pid_stride or 0)
  end
  local lane_enum, lanes = {}, {}
  for i, l in ipairs(model.lanes) do
    lane_enum[#lane_enum + 1] = string.format("  SL_LANE_%s = %d,", util.upper(l.key), i - 1)
    lanes[#lanes + 1] = string.format("    {%s, SL_VIEW_%s, %d, %d, %d, %s, %d, %s},", util.cstr(l.key),
      util.upper(l.view), l.pid, l.tid_base, l.tid_stride, util.cstr(l.name), l.sort_index or -1,
      util.cstr(l.indexed_by))
  end
  local pl = {}
  for _, p in ipairs(model.producer_lanes) do
    pl[#pl + 1] = string.format("  if (strcmp(producer, %s) == 0) return &sl_lane_table[SL_LANE_%s];",
      util.cstr(p.producer), util.upper(p.lane))
  end
  local flow_enum, flows, pipes = {}, {}, {}
  for i, f in ipairs(model.flows or {}) do
    flow_enum[#flow_enum + 1] = string.format("  SL_FLOW_%s = %d,", util.upper(f.key), i - 1)
    flows[#flows + 1] = string.format("    {%s, %s},", util.cstr(f.key), util.cstr(f.name))
  end
  local pipe_enum = {}
  for _, pp in ipairs(model.pipes or {}) do
    pipes[#pipes + 1] = util.cstr(pp.name)
    pipe_enum[#pipe_enum + 1] = string.format("  SL_PIPE_%s = %d,%s", util.upper(pp.name), pp.id,
      pp.doc and (" /* " .. pp.doc .. " */") or "")
  end
  if #flows == 0 then flows[1] = "    {NULL, NULL}," end
  local banner = util.banner("c", { "lanes.lua" }, "Perfetto views and lanes.")
  return {
    { path = "sl_lanes.h", text = util.fill(HEADER, { banner = banner, view_enum = table.concat(view_enum, "\n"),
                                                     lane_enum = table.concat(lane_enum, "\n"),
                                                     rank_pid_stride = model.rank_pid_stride,
                                                     flow_enum = table.concat(flow_enum, "\n"),
                                                     pipe_count = #pipes, pipe_enum = table.concat(pipe_enum, "\n") }) },
    { path = "sl_lanes.c", text = util.fill(SOURCE, { banner = banner, views = table.concat(views, "\n"),
                                                     lanes = table.concat(lanes, "\n"),
                                                     producer_lanes = table.concat(pl, "\n"),
                                                     flows = table.concat(flows, "\n"),
                                                     pipes = table.concat(pipes, ", ") }) },
  }
end
