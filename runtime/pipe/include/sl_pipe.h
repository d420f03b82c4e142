/*
** sl_pipe.h — the pipe model: the simulator an L0 replay runs under.
**
** One cluster = one cube sub-core (AIC) and two vector sub-cores (AIV lanes).
** Each sub-core has the pipes of sl_kernel_api.h. Kernels run on their own
** threads with a pipe tracer installed; every intrinsic they call is recorded
** into that sub-core's stream. After the kernels return, sl_pipe_timeline
** times the recorded streams offline:
**
**   - the scalar front end dispatches instructions in program order, one per
**     `dispatch` cycles; SCALAR work and pipe barriers hold dispatch;
**   - each pipe issues in order, at most one instruction per `issue` cycles;
**     an instruction occupies its pipe for max(issue, ceil(work / per_cycle))
**     cycles (per_cycle = the path's bandwidth) and completes `latency`
**     cycles later, so successive instructions on one pipe overlap
**     (pipelining), but never more than `outstanding` at once: a new one
**     waits for the earliest in-flight one to complete;
**   - SET_FLAG fires on its source pipe once that pipe's earlier work has
**     completed; WAIT_FLAG blocks its pipe until the matching set has fired
**     (k-th wait matches the k-th set of the same src/dst/event);
**   - a flag whose peer pipe does not exist on the issuing sub-core crosses
**     the cluster (AIC <-> AIV): a cube set releases each vector lane, a cube
**     wait needs a set from every running vector lane.
**
** Timing depends only on the recorded streams, so the timeline is
** deterministic whatever the thread interleaving was.
*/
#ifndef SL_PIPE_H
#define SL_PIPE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sl_kernel_api.h"

/* ---- sub-cores of one 1C2V cluster ---------------------------------------------- */

typedef enum sl_subcore { SL_SUBCORE_CUBE = 0, SL_SUBCORE_VEC0, SL_SUBCORE_VEC1, SL_SUBCORE_COUNT } sl_subcore;

extern const char *const sl_subcore_names[SL_SUBCORE_COUNT]; /* "cubecore0", "veccore0", "veccore1" */

/* Does this sub-core have that pipe? (SL_PIPE_ALL: yes, it is a barrier target.) */
int sl_subcore_has_pipe(sl_subcore core, sl_pipe pipe);
/* "MTE2", "CUBE", ... (the trace's tid names). */
const char *sl_pipe_lane_name(sl_pipe p);

/* ---- per-arch cost tables ---------------------------------------------------------- */

typedef struct sl_pipe_cost {
  uint32_t issue;       /* fewest cycles between two issues on the pipe          */
  uint32_t latency;     /* cycles from the end of occupancy to completion        */
  uint32_t per_cycle;   /* bandwidth: bytes / elements / MACs the pipe takes a cycle */
  uint32_t outstanding; /* instructions in flight at once (1 = no overlap)       */
} sl_pipe_cost;

/* Largest `outstanding` any table may use (the model keeps that many slots). */
#define SL_PIPE_MAX_OUTSTANDING 64

typedef struct sl_pipe_arch {
  int arch;                 /* enum sl_arch (sl_arch_names: "a2a3" / "a5")    */
  uint32_t core_mhz;        /* AICore clock: cycles -> microseconds           */
  uint32_t dispatch;        /* cycles between two dispatched instructions     */
  uint32_t flag_cycles;     /* SET_FLAG / WAIT_FLAG release cost              */
  int export_idle_subcores; /* a2a3 exports all three sub-cores; a5 only busy */
  sl_pipe_cost pipe[SL_PIPE_COUNT];
} sl_pipe_arch;

/* "a2a3", "a5" (a platform name such as "a2a3sim" also works). NULL if unknown. */
const sl_pipe_arch *sl_pipe_arch_find(const char *name);
/* The arch's schema name ("a2a3", "a5"). */
const char *sl_pipe_arch_name(const sl_pipe_arch *arch);
/* Throughput divisor of a slow vector op (VEXP, VDIV, ...); 1 for the rest. */
uint32_t sl_pipe_vector_slowdown(const sl_pipe_arch *arch, const char *mnemonic);
/* Occupancy and latency of one instruction on an arch (cycles). */
void sl_pipe_cost_of(const sl_pipe_arch *arch, sl_pipe pipe, const char *mnemonic, uint64_t work,
                     uint64_t *occupancy, uint64_t *latency);

/* ---- recorded streams --------------------------------------------------------------- */

typedef enum sl_rec_kind { SL_REC_OP = 0, SL_REC_SET, SL_REC_WAIT, SL_REC_BARRIER } sl_rec_kind;

typedef struct sl_pipe_rec {
  sl_rec_kind kind;
  sl_pipe pipe;          /* OP: its pipe; SET: source pipe; WAIT: waiting pipe; BARRIER: target */
  sl_pipe peer;          /* SET: destination pipe; WAIT: source pipe                            */
  int event_id;
  int cross;             /* flag crosses the cluster (AIC <-> AIV)                               */
  const char *mnemonic;  /* static strings from the intrinsics                                   */
  uint64_t work;
  const char *file;      /* the kernel's line (-g)                           */
  int line;
  const char *lib_file;  /* the library helper's line, when inside one       */
  int lib_line;
  /* filled by sl_pipe_timeline (cycles since launch) */
  uint64_t dispatch, start, end;
  int done;
} sl_pipe_rec;

typedef struct sl_pipe_stream {
  sl_pipe_rec *recs;
  size_t n, cap;
  int ran; /* a kernel ran on this sub-core */
} sl_pipe_stream;

typedef struct sl_pipe_model {
  const sl_pipe_arch *arch;
  sl_pipe_stream core[SL_SUBCORE_COUNT];
  char error[512]; /* set when a call returns -1 */
} sl_pipe_model;

void sl_pipe_model_init(sl_pipe_model *m, const sl_pipe_arch *arch);
void sl_pipe_model_free(sl_pipe_model *m);

/* Classify an intrinsic report and append it to a sub-core's stream. */
void sl_pipe_record(sl_pipe_model *m, sl_subcore core, const sl_instr *ins);
/* What kind of record an intrinsic report becomes, and whether a flag crosses. */
sl_rec_kind sl_pipe_classify(const sl_instr *ins);
int sl_pipe_is_cross(sl_subcore core, const sl_instr *ins);

/* Time every stream. 0 ok; -1 when a wait can never be satisfied (m->error). */
int sl_pipe_timeline(sl_pipe_model *m);

/* Total cycles from launch to the last completion. */
uint64_t sl_pipe_makespan(const sl_pipe_model *m);

/* ---- Insight-style trace ------------------------------------------------------------ */

/* Write the timed model as Chrome-trace JSON in the MindStudio Insight layout:
** pid "core0.<subcore>", tid = pipe name, X slices for instructions, B/E pairs
** for SET_FLAG / WAIT_FLAG (cross-core ones carry args.peer),
** thread_sort_index + process/thread names. `debug_line` adds source lines.
** Returns 0, or -1 on a write error. */
int sl_pipe_write_insight(const sl_pipe_model *m, FILE *out, int debug_line);

/* ---- running a replay ---------------------------------------------------------------- */

typedef void (*sl_replay_fn)(int64_t *args);

/* Run `entry` once per participating sub-core (cube if run_cube, both vector
** lanes if run_vec), each on its own thread with the tracer installed and
** sl_get_subblockid() = lane. Threads take turns (one runs at a time, switching
** only when a cross-core wait must block), so kernels never race on memory and
** the run is reproducible. 0 ok; -1 on a thread error or a cross-core deadlock. */
int sl_pipe_run(sl_pipe_model *m, int run_cube, int run_vec, sl_replay_fn entry, int64_t *args);

/* The sub-core the calling thread replays, or -1 outside sl_pipe_run. */
int sl_pipe_current_subcore(void);

#endif /* SL_PIPE_H */
