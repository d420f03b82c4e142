/*
** generated from schema/lanes.lua by codegen/main.lua; do not edit.
** Perfetto views and lanes.
** Regenerate: cmake --build <build dir> --target regen
*/

#ifndef SL_LANES_H
#define SL_LANES_H

/* Perfetto processes ("views"), one per pid. */
enum sl_view_id {
  SL_VIEW_ORCHESTRATOR = 0, /* pid 1 */
  SL_VIEW_SCHEDULER = 1, /* pid 2 */
  SL_VIEW_SCHEDULER_VIEW = 2, /* pid 3 */
  SL_VIEW_WORKER_VIEW = 3, /* pid 4 */
  SL_VIEW_GRAPH_EXECUTION = 4, /* pid 5 */
  SL_VIEW_AICPU_LIFECYCLE = 5, /* pid 6 */
  SL_VIEW_TASK_TIMING = 6, /* pid 7 */
  SL_VIEW_L3_DISPATCHER = 7, /* pid 10 */
  SL_VIEW_L3_RANK_HOST = 8, /* pid 40 */
  SL_VIEW_TABLE_LEN
};

/* Lanes (Perfetto threads) the converter routes records to. */
enum sl_lane_id {
  SL_LANE_ORCH = 0,
  SL_LANE_HOST_ORCH = 1,
  SL_LANE_HOST_H2D = 2,
  SL_LANE_SCHED = 3,
  SL_LANE_SCHED_SUB = 4,
  SL_LANE_HBG_P = 5,
  SL_LANE_AICORE_SCHED = 6,
  SL_LANE_SHARED_READY_QUEUE = 7,
  SL_LANE_OVERHEAD_COUNTERS = 8,
  SL_LANE_SCHED_VIEW_CORE = 9,
  SL_LANE_WORKER_CORE = 10,
  SL_LANE_WORKER_AICPU = 11,
  SL_LANE_GRAPH = 12,
  SL_LANE_LIFECYCLE = 13,
  SL_LANE_TASK_SLOT = 14,
  SL_LANE_CUSTOM = 15,
  SL_LANE_L3_NODE_RUN = 16,
  SL_LANE_L3_NODE_DISPATCH = 17,
  SL_LANE_L3_NODE_TASK = 18,
  SL_LANE_L3_CHIP_RUN = 19,
  SL_LANE_L3_CLK_DEV = 20,
  SL_LANE_L3_PLACEMENT = 21,
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
#define SL_L3_RANK_PID_STRIDE 100

/* Flow arrows the converter draws (lanes.lua flows): the event name by key; "{display}" in a
** name stands for the orchestrator kind's label. */
enum sl_flow_id {
  SL_FLOW_DEPENDENCY = 0,
  SL_FLOW_HB_VIOLATION = 1,
  SL_FLOW_COMPLETE = 2,
  SL_FLOW_COMPLETE_READY = 3,
  SL_FLOW_DISPATCH = 4,
  SL_FLOW_ORCH_DISPATCH = 5,
  SL_FLOW_TABLE_LEN
};
typedef struct sl_flow_info {
  const char *key;
  const char *name;
} sl_flow_info;
extern const sl_flow_info sl_flow_table[SL_FLOW_TABLE_LEN];

/* The pipes of one AICore sub-core (lanes.lua pipes, in id order): the kernel API's pipe ids. */
typedef enum sl_pipe {
  SL_PIPE_SCALAR = 0, /* scalar unit (control, address arithmetic) */
  SL_PIPE_MTE1 = 1, /* L1 -> L0A/L0B */
  SL_PIPE_MTE2 = 2, /* GM -> L1 / UB */
  SL_PIPE_MTE3 = 3, /* UB -> GM */
  SL_PIPE_CUBE = 4, /* matrix multiply */
  SL_PIPE_VECTOR = 5, /* vector unit */
  SL_PIPE_FIXP = 6, /* L0C -> GM write-back */
  SL_PIPE_ALL = 7, /* barriers across every pipe */
  SL_PIPE_COUNT
} sl_pipe;

/* The L0 core swimlane's pipe lanes (lanes.lua pipes), by pipe id (enum sl_pipe). */
#define SL_PIPE_LANE_COUNT 8
extern const char *const sl_pipe_lane_names[SL_PIPE_LANE_COUNT];

#endif /* SL_LANES_H */
