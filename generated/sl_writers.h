/*
** generated from schema/records.lua, schema/phases.lua, schema/levels.lua by codegen/main.lua; do not edit.
** Device-side record writers.
** Regenerate: cmake --build <build dir> --target regen
*/

#ifndef SL_WRITERS_H
#define SL_WRITERS_H

#include <stdint.h>
#include <string.h>

#include "sl_levels.h"
#include "sl_phases.h"
#include "sl_records.h"

/* AICPU per-dispatch timing, written on FIN (level >= 2) (sl_aicpu_task_record; level >= SL_MIN_LEVEL_AICPU_TASK). */
static inline int sl_write_aicpu_task(unsigned level, sl_aicpu_task_record *r,
                                      uint64_t dispatch_time, uint64_t finish_time,
                                      uint32_t reg_task_id, uint32_t member) {
  if (level < SL_MIN_LEVEL_AICPU_TASK) return 0;
  r->dispatch_time = dispatch_time;
  r->finish_time = finish_time;
  r->reg_task_id = reg_task_id;
  r->member = member;
  memset(r->_tail_pad, 0, sizeof r->_tail_pad);
  return 1;
}

/* AICore per-task timing (level >= 1) (sl_aicore_task_record; level >= SL_MIN_LEVEL_AICORE_TASK). */
static inline int sl_write_aicore_task(unsigned level, sl_aicore_task_record *r,
                                       uint64_t start_time, uint64_t end_time,
                                       uint64_t task_token_raw, uint32_t reg_task_id,
                                       uint32_t receive_to_start_cycles) {
  if (level < SL_MIN_LEVEL_AICORE_TASK) return 0;
  r->start_time = start_time;
  r->end_time = end_time;
  r->task_token_raw = task_token_raw;
  r->reg_task_id = reg_task_id;
  r->receive_to_start_cycles = receive_to_start_cycles;
  return 1;
}

/* Any phase kind (sl_sched_phase_record; level >= SL_MIN_LEVEL_SCHED_PHASE). The positional values fill the union view
** of the kind's variant, field by field (the default view for kinds without one);
** NULL arrays are recorded as zeros. */
static inline int sl_write_sched_phase(unsigned level, sl_sched_phase_record *r, uint32_t kind,
                                       uint64_t start_time, uint64_t end_time, uint32_t loop_iter,
                                       uint32_t tasks_processed, uint32_t a, uint32_t b,
                                       const int16_t shared_depth_at_start[3],
                                       const int16_t shared_depth_at_end[3]) {
  if (level < SL_MIN_LEVEL_SCHED_PHASE) return 0;
  r->start_time = start_time;
  r->end_time = end_time;
  r->loop_iter = loop_iter;
  r->kind = kind;
  r->tasks_processed = tasks_processed;
  memset(&r->phase_data, 0, sizeof r->phase_data);
  switch (kind) {
  case SL_PHASE_DUMMY_TASK: case SL_PHASE_PREDICATED_SKIP: case SL_PHASE_GRAPH_PREPARE:
  case SL_PHASE_STATE_PROBE: case SL_PHASE_WORKSTEAL: case SL_PHASE_REFILL:
    r->phase_data.task.local_id = (uint32_t)a;
    r->phase_data.task.ring_id = (uint32_t)b;
    break;
  default:
    r->phase_data.dispatch.pop_hit = a;
    r->phase_data.dispatch.pop_miss = b;
    break;
  }
  for (unsigned i = 0; i < 3; i++) r->shared_depth_at_start[i] = shared_depth_at_start ? shared_depth_at_start[i] : 0;
  for (unsigned i = 0; i < 3; i++) r->shared_depth_at_end[i] = shared_depth_at_end ? shared_depth_at_end[i] : 0;
  memset(r->_pad, 0, sizeof r->_pad);
  return 1;
}

/* complete (id 0): outer on lane sched. tasks_processed: FIN'd subtasks + SPMD sub-block retires this iteration */
static inline int sl_write_phase_complete(unsigned level, sl_sched_phase_record *r,
                                          uint64_t start_time, uint64_t end_time,
                                          uint32_t loop_iter, uint32_t tasks_processed,
                                          const int16_t shared_depth_at_start[3],
                                          const int16_t shared_depth_at_end[3]) {
  return sl_write_sched_phase(level, r, SL_PHASE_COMPLETE, start_time, end_time, loop_iter,
                              tasks_processed, 0, 0, shared_depth_at_start, shared_depth_at_end);
}

/* dispatch (id 1): outer on lane sched. tasks_processed: subtasks published this iteration */
static inline int sl_write_phase_dispatch(unsigned level, sl_sched_phase_record *r,
                                          uint64_t start_time, uint64_t end_time,
                                          uint32_t loop_iter, uint32_t tasks_processed,
                                          uint32_t pop_hit, uint32_t pop_miss,
                                          const int16_t shared_depth_at_start[3],
                                          const int16_t shared_depth_at_end[3]) {
  return sl_write_sched_phase(level, r, SL_PHASE_DISPATCH, start_time, end_time, loop_iter,
                              tasks_processed, pop_hit, pop_miss, shared_depth_at_start,
                              shared_depth_at_end);
}

/* release (id 2): outer on lane sched. tasks_processed: deferred-release slots drained this iteration */
static inline int sl_write_phase_release(unsigned level, sl_sched_phase_record *r,
                                         uint64_t start_time, uint64_t end_time, uint32_t loop_iter,
                                         uint32_t tasks_processed,
                                         const int16_t shared_depth_at_start[3],
                                         const int16_t shared_depth_at_end[3]) {
  return sl_write_sched_phase(level, r, SL_PHASE_RELEASE, start_time, end_time, loop_iter,
                              tasks_processed, 0, 0, shared_depth_at_start, shared_depth_at_end);
}

/* dummy (id 4): outer on lane sched. tasks_processed: dummy_ready_queue entries handled (explicit dummies and false-predicate tasks) */
static inline int sl_write_phase_dummy(unsigned level, sl_sched_phase_record *r,
                                       uint64_t start_time, uint64_t end_time, uint32_t loop_iter,
                                       uint32_t tasks_processed,
                                       const int16_t shared_depth_at_start[3],
                                       const int16_t shared_depth_at_end[3]) {
  return sl_write_sched_phase(level, r, SL_PHASE_DUMMY, start_time, end_time, loop_iter,
                              tasks_processed, 0, 0, shared_depth_at_start, shared_depth_at_end);
}

/* early_dispatch (id 5): outer on lane sched. tasks_processed: blocks staged by speculative early dispatch this pass */
static inline int sl_write_phase_early_dispatch(unsigned level, sl_sched_phase_record *r,
                                                uint64_t start_time, uint64_t end_time,
                                                uint32_t loop_iter, uint32_t tasks_processed,
                                                const int16_t shared_depth_at_start[3],
                                                const int16_t shared_depth_at_end[3]) {
  return sl_write_sched_phase(level, r, SL_PHASE_EARLY_DISPATCH, start_time, end_time, loop_iter,
                              tasks_processed, 0, 0, shared_depth_at_start, shared_depth_at_end);
}

/* resolve (id 6): inner on lane sched_sub. tasks_processed: consumers visited after completion (walks under 1 us are not emitted) */
static inline int sl_write_phase_resolve(unsigned level, sl_sched_phase_record *r,
                                         uint64_t start_time, uint64_t end_time, uint32_t loop_iter,
                                         uint32_t tasks_processed,
                                         const int16_t shared_depth_at_start[3],
                                         const int16_t shared_depth_at_end[3]) {
  return sl_write_sched_phase(level, r, SL_PHASE_RESOLVE, start_time, end_time, loop_iter,
                              tasks_processed, 0, 0, shared_depth_at_start, shared_depth_at_end);
}

/* dummy_task (id 7): marker on lane worker_aicpu. tasks_processed: always 1: one dummy entering on_task_complete(); identity in task_id */
static inline int sl_write_phase_dummy_task(unsigned level, sl_sched_phase_record *r,
                                            uint64_t start_time, uint64_t end_time,
                                            uint32_t loop_iter, uint32_t tasks_processed,
                                            uint64_t task_id,
                                            const int16_t shared_depth_at_start[3],
                                            const int16_t shared_depth_at_end[3]) {
  return sl_write_sched_phase(level, r, SL_PHASE_DUMMY_TASK, start_time, end_time, loop_iter,
                              tasks_processed, (uint32_t)task_id, (uint32_t)(task_id >> 32),
                              shared_depth_at_start, shared_depth_at_end);
}

/* drain (id 8): outer on lane sched. tasks_processed: blocks staged by this thread's global sync-start drain pass */
static inline int sl_write_phase_drain(unsigned level, sl_sched_phase_record *r,
                                       uint64_t start_time, uint64_t end_time, uint32_t loop_iter,
                                       uint32_t tasks_processed,
                                       const int16_t shared_depth_at_start[3],
                                       const int16_t shared_depth_at_end[3]) {
  return sl_write_sched_phase(level, r, SL_PHASE_DRAIN, start_time, end_time, loop_iter,
                              tasks_processed, 0, 0, shared_depth_at_start, shared_depth_at_end);
}

/* drain_prepare (id 9): inner on lane sched. tasks_processed: subtasks prepared for global sync-start publication */
static inline int sl_write_phase_drain_prepare(unsigned level, sl_sched_phase_record *r,
                                               uint64_t start_time, uint64_t end_time,
                                               uint32_t loop_iter, uint32_t tasks_processed,
                                               const int16_t shared_depth_at_start[3],
                                               const int16_t shared_depth_at_end[3]) {
  return sl_write_sched_phase(level, r, SL_PHASE_DRAIN_PREPARE, start_time, end_time, loop_iter,
                              tasks_processed, 0, 0, shared_depth_at_start, shared_depth_at_end);
}

/* drain_publish (id 10): inner on lane sched. tasks_processed: subtasks published during global sync-start staging */
static inline int sl_write_phase_drain_publish(unsigned level, sl_sched_phase_record *r,
                                               uint64_t start_time, uint64_t end_time,
                                               uint32_t loop_iter, uint32_t tasks_processed,
                                               const int16_t shared_depth_at_start[3],
                                               const int16_t shared_depth_at_end[3]) {
  return sl_write_sched_phase(level, r, SL_PHASE_DRAIN_PUBLISH, start_time, end_time, loop_iter,
                              tasks_processed, 0, 0, shared_depth_at_start, shared_depth_at_end);
}

/* async_poll (id 11): outer on lane sched. tasks_processed: async-wait completions resolved; 0 = polling consumed CPU without completing work */
static inline int sl_write_phase_async_poll(unsigned level, sl_sched_phase_record *r,
                                            uint64_t start_time, uint64_t end_time,
                                            uint32_t loop_iter, uint32_t tasks_processed,
                                            const int16_t shared_depth_at_start[3],
                                            const int16_t shared_depth_at_end[3]) {
  return sl_write_sched_phase(level, r, SL_PHASE_ASYNC_POLL, start_time, end_time, loop_iter,
                              tasks_processed, 0, 0, shared_depth_at_start, shared_depth_at_end);
}

/* predicated_skip (id 12): marker on lane worker_aicpu. tasks_processed: always 1: a real task retired inline after its dispatch predicate was false */
static inline int sl_write_phase_predicated_skip(unsigned level, sl_sched_phase_record *r,
                                                 uint64_t start_time, uint64_t end_time,
                                                 uint32_t loop_iter, uint32_t tasks_processed,
                                                 uint64_t task_id,
                                                 const int16_t shared_depth_at_start[3],
                                                 const int16_t shared_depth_at_end[3]) {
  return sl_write_sched_phase(level, r, SL_PHASE_PREDICATED_SKIP, start_time, end_time, loop_iter,
                              tasks_processed, (uint32_t)task_id, (uint32_t)(task_id >> 32),
                              shared_depth_at_start, shared_depth_at_end);
}

/* graph_prepare (id 13): outer on lane sched. tasks_processed: Graph Definition nodes expanded this pass (task_id = outer ring-0 graph task) */
static inline int sl_write_phase_graph_prepare(unsigned level, sl_sched_phase_record *r,
                                               uint64_t start_time, uint64_t end_time,
                                               uint32_t loop_iter, uint32_t tasks_processed,
                                               uint64_t task_id,
                                               const int16_t shared_depth_at_start[3],
                                               const int16_t shared_depth_at_end[3]) {
  return sl_write_sched_phase(level, r, SL_PHASE_GRAPH_PREPARE, start_time, end_time, loop_iter,
                              tasks_processed, (uint32_t)task_id, (uint32_t)(task_id >> 32),
                              shared_depth_at_start, shared_depth_at_end);
}

/* resolve_standalone (id 14): outer on lane hbg_p. tasks_processed: completed SPSC slots resolved on the HBG P thread */
static inline int sl_write_phase_resolve_standalone(unsigned level, sl_sched_phase_record *r,
                                                    uint64_t start_time, uint64_t end_time,
                                                    uint32_t loop_iter, uint32_t tasks_processed,
                                                    const int16_t shared_depth_at_start[3],
                                                    const int16_t shared_depth_at_end[3]) {
  return sl_write_sched_phase(level, r, SL_PHASE_RESOLVE_STANDALONE, start_time, end_time,
                              loop_iter, tasks_processed, 0, 0, shared_depth_at_start,
                              shared_depth_at_end);
}

/* bootstrap (id 15): outer on lane aicore_sched. tasks_processed: initial executable tasks classified and published before normal scheduling */
static inline int sl_write_phase_bootstrap(unsigned level, sl_sched_phase_record *r,
                                           uint64_t start_time, uint64_t end_time,
                                           uint32_t loop_iter, uint32_t tasks_processed,
                                           const int16_t shared_depth_at_start[3],
                                           const int16_t shared_depth_at_end[3]) {
  return sl_write_sched_phase(level, r, SL_PHASE_BOOTSTRAP, start_time, end_time, loop_iter,
                              tasks_processed, 0, 0, shared_depth_at_start, shared_depth_at_end);
}

/* state_probe (id 16): outer on lane aicore_sched. tasks_processed: Cluster Slot / Ready state checked, a Ready task acquired, placement decided */
static inline int sl_write_phase_state_probe(unsigned level, sl_sched_phase_record *r,
                                             uint64_t start_time, uint64_t end_time,
                                             uint32_t loop_iter, uint32_t tasks_processed,
                                             uint64_t task_id,
                                             const int16_t shared_depth_at_start[3],
                                             const int16_t shared_depth_at_end[3]) {
  return sl_write_sched_phase(level, r, SL_PHASE_STATE_PROBE, start_time, end_time, loop_iter,
                              tasks_processed, (uint32_t)task_id, (uint32_t)(task_id >> 32),
                              shared_depth_at_start, shared_depth_at_end);
}

/* worksteal (id 17): outer on lane aicore_sched. tasks_processed: a task acquired from another non-empty Inbox is published */
static inline int sl_write_phase_worksteal(unsigned level, sl_sched_phase_record *r,
                                           uint64_t start_time, uint64_t end_time,
                                           uint32_t loop_iter, uint32_t tasks_processed,
                                           uint64_t task_id, const int16_t shared_depth_at_start[3],
                                           const int16_t shared_depth_at_end[3]) {
  return sl_write_sched_phase(level, r, SL_PHASE_WORKSTEAL, start_time, end_time, loop_iter,
                              tasks_processed, (uint32_t)task_id, (uint32_t)(task_id >> 32),
                              shared_depth_at_start, shared_depth_at_end);
}

/* refill (id 18): outer on lane aicore_sched. tasks_processed: completed Slot reused for one replacement task */
static inline int sl_write_phase_refill(unsigned level, sl_sched_phase_record *r,
                                        uint64_t start_time, uint64_t end_time, uint32_t loop_iter,
                                        uint32_t tasks_processed, uint64_t task_id,
                                        const int16_t shared_depth_at_start[3],
                                        const int16_t shared_depth_at_end[3]) {
  return sl_write_sched_phase(level, r, SL_PHASE_REFILL, start_time, end_time, loop_iter,
                              tasks_processed, (uint32_t)task_id, (uint32_t)(task_id >> 32),
                              shared_depth_at_start, shared_depth_at_end);
}

/* complete (id 0) from an AICore Scheduler: outer on lane sched. tasks_processed: FIN'd subtasks + SPMD sub-block retires this iteration */
static inline int sl_write_aicore_phase_complete(unsigned level, sl_sched_phase_record *r,
                                                 uint64_t start_time, uint64_t end_time,
                                                 uint32_t loop_iter, uint32_t tasks_processed,
                                                 uint64_t task_id,
                                                 const int16_t shared_depth_at_start[3],
                                                 const int16_t shared_depth_at_end[3]) {
  return sl_write_sched_phase(level, r, SL_PHASE_COMPLETE, start_time, end_time, loop_iter,
                              tasks_processed, (uint32_t)task_id, (uint32_t)(task_id >> 32),
                              shared_depth_at_start, shared_depth_at_end);
}

/* dispatch (id 1) from an AICore Scheduler: outer on lane sched. tasks_processed: subtasks published this iteration */
static inline int sl_write_aicore_phase_dispatch(unsigned level, sl_sched_phase_record *r,
                                                 uint64_t start_time, uint64_t end_time,
                                                 uint32_t loop_iter, uint32_t tasks_processed,
                                                 uint64_t task_id,
                                                 const int16_t shared_depth_at_start[3],
                                                 const int16_t shared_depth_at_end[3]) {
  return sl_write_sched_phase(level, r, SL_PHASE_DISPATCH, start_time, end_time, loop_iter,
                              tasks_processed, (uint32_t)task_id, (uint32_t)(task_id >> 32),
                              shared_depth_at_start, shared_depth_at_end);
}

/* resolve (id 6) from an AICore Scheduler: inner on lane sched_sub. tasks_processed: consumers visited after completion (walks under 1 us are not emitted) */
static inline int sl_write_aicore_phase_resolve(unsigned level, sl_sched_phase_record *r,
                                                uint64_t start_time, uint64_t end_time,
                                                uint32_t loop_iter, uint32_t tasks_processed,
                                                uint64_t task_id,
                                                const int16_t shared_depth_at_start[3],
                                                const int16_t shared_depth_at_end[3]) {
  return sl_write_sched_phase(level, r, SL_PHASE_RESOLVE, start_time, end_time, loop_iter,
                              tasks_processed, (uint32_t)task_id, (uint32_t)(task_id >> 32),
                              shared_depth_at_start, shared_depth_at_end);
}

/* bootstrap (id 15) from an AICore Scheduler: outer on lane aicore_sched. tasks_processed: initial executable tasks classified and published before normal scheduling */
static inline int sl_write_aicore_phase_bootstrap(unsigned level, sl_sched_phase_record *r,
                                                  uint64_t start_time, uint64_t end_time,
                                                  uint32_t loop_iter, uint32_t tasks_processed,
                                                  const int16_t shared_depth_at_start[3],
                                                  const int16_t shared_depth_at_end[3]) {
  return sl_write_sched_phase(level, r, SL_PHASE_BOOTSTRAP, start_time, end_time, loop_iter,
                              tasks_processed, 0, 0, shared_depth_at_start, shared_depth_at_end);
}

/* state_probe (id 16) from an AICore Scheduler: outer on lane aicore_sched. tasks_processed: Cluster Slot / Ready state checked, a Ready task acquired, placement decided */
static inline int sl_write_aicore_phase_state_probe(unsigned level, sl_sched_phase_record *r,
                                                    uint64_t start_time, uint64_t end_time,
                                                    uint32_t loop_iter, uint32_t tasks_processed,
                                                    uint64_t task_id,
                                                    const int16_t shared_depth_at_start[3],
                                                    const int16_t shared_depth_at_end[3]) {
  return sl_write_sched_phase(level, r, SL_PHASE_STATE_PROBE, start_time, end_time, loop_iter,
                              tasks_processed, (uint32_t)task_id, (uint32_t)(task_id >> 32),
                              shared_depth_at_start, shared_depth_at_end);
}

/* worksteal (id 17) from an AICore Scheduler: outer on lane aicore_sched. tasks_processed: a task acquired from another non-empty Inbox is published */
static inline int sl_write_aicore_phase_worksteal(unsigned level, sl_sched_phase_record *r,
                                                  uint64_t start_time, uint64_t end_time,
                                                  uint32_t loop_iter, uint32_t tasks_processed,
                                                  uint64_t task_id,
                                                  const int16_t shared_depth_at_start[3],
                                                  const int16_t shared_depth_at_end[3]) {
  return sl_write_sched_phase(level, r, SL_PHASE_WORKSTEAL, start_time, end_time, loop_iter,
                              tasks_processed, (uint32_t)task_id, (uint32_t)(task_id >> 32),
                              shared_depth_at_start, shared_depth_at_end);
}

/* refill (id 18) from an AICore Scheduler: outer on lane aicore_sched. tasks_processed: completed Slot reused for one replacement task */
static inline int sl_write_aicore_phase_refill(unsigned level, sl_sched_phase_record *r,
                                               uint64_t start_time, uint64_t end_time,
                                               uint32_t loop_iter, uint32_t tasks_processed,
                                               uint64_t task_id,
                                               const int16_t shared_depth_at_start[3],
                                               const int16_t shared_depth_at_end[3]) {
  return sl_write_sched_phase(level, r, SL_PHASE_REFILL, start_time, end_time, loop_iter,
                              tasks_processed, (uint32_t)task_id, (uint32_t)(task_id >> 32),
                              shared_depth_at_start, shared_depth_at_end);
}

/* one orchestrator submit_task() / alloc_tensors() envelope (level 4) (sl_orch_phase_record; level >= SL_MIN_LEVEL_ORCH_PHASE). */
static inline int sl_write_orch_phase(unsigned level, sl_orch_phase_record *r, uint64_t start_time,
                                      uint64_t end_time, uint64_t task_id, uint32_t submit_idx,
                                      uint32_t kind) {
  if (level < SL_MIN_LEVEL_ORCH_PHASE) return 0;
  r->start_time = start_time;
  r->end_time = end_time;
  r->task_id = task_id;
  r->submit_idx = submit_idx;
  r->kind = kind;
  return 1;
}

/* orch_submit (orchestrator kind 0): drawn submit(...) on lane orch. */
static inline int sl_write_orch_submit(unsigned level, sl_orch_phase_record *r, uint64_t start_time,
                                       uint64_t end_time, uint64_t task_id, uint32_t submit_idx) {
  return sl_write_orch_phase(level, r, start_time, end_time, task_id, submit_idx,
                             SL_ORCH_PHASE_SUBMIT);
}

/* orch_sync (orchestrator kind 1): drawn sync(...) on lane orch. */
static inline int sl_write_orch_sync(unsigned level, sl_orch_phase_record *r, uint64_t start_time,
                                     uint64_t end_time, uint64_t task_id, uint32_t submit_idx) {
  return sl_write_orch_phase(level, r, start_time, end_time, task_id, submit_idx,
                             SL_ORCH_PHASE_SYNC);
}

/* orch_alloc (orchestrator kind 2): drawn alloc(...) on lane orch. */
static inline int sl_write_orch_alloc(unsigned level, sl_orch_phase_record *r, uint64_t start_time,
                                      uint64_t end_time, uint64_t task_id, uint32_t submit_idx) {
  return sl_write_orch_phase(level, r, start_time, end_time, task_id, submit_idx,
                             SL_ORCH_PHASE_ALLOC);
}

/* orch_params (orchestrator kind 3): drawn params(...) on lane orch. */
static inline int sl_write_orch_params(unsigned level, sl_orch_phase_record *r, uint64_t start_time,
                                       uint64_t end_time, uint64_t task_id, uint32_t submit_idx) {
  return sl_write_orch_phase(level, r, start_time, end_time, task_id, submit_idx,
                             SL_ORCH_PHASE_PARAMS);
}

/* orch_lookup (orchestrator kind 4): drawn lookup(...) on lane orch. */
static inline int sl_write_orch_lookup(unsigned level, sl_orch_phase_record *r, uint64_t start_time,
                                       uint64_t end_time, uint64_t task_id, uint32_t submit_idx) {
  return sl_write_orch_phase(level, r, start_time, end_time, task_id, submit_idx,
                             SL_ORCH_PHASE_LOOKUP);
}

/* orch_insert (orchestrator kind 5): drawn insert(...) on lane orch. */
static inline int sl_write_orch_insert(unsigned level, sl_orch_phase_record *r, uint64_t start_time,
                                       uint64_t end_time, uint64_t task_id, uint32_t submit_idx) {
  return sl_write_orch_phase(level, r, start_time, end_time, task_id, submit_idx,
                             SL_ORCH_PHASE_INSERT);
}

/* orch_fanin (orchestrator kind 6): drawn fanin(...) on lane orch. */
static inline int sl_write_orch_fanin(unsigned level, sl_orch_phase_record *r, uint64_t start_time,
                                      uint64_t end_time, uint64_t task_id, uint32_t submit_idx) {
  return sl_write_orch_phase(level, r, start_time, end_time, task_id, submit_idx,
                             SL_ORCH_PHASE_FANIN);
}

/* A5 HBG AICPU control-plane spans of one AICPU thread (level >= 2) (sl_aicpu_lifecycle_record; level >= SL_MIN_LEVEL_LIFECYCLE). */
static inline int sl_write_lifecycle(unsigned level, sl_aicpu_lifecycle_record *r,
                                     uint32_t aicpu_thread_id, uint64_t handshake_start_cycles,
                                     uint64_t handshake_complete_cycles,
                                     uint64_t config_start_cycles,
                                     uint64_t topology_complete_cycles,
                                     uint64_t context_publish_start_cycles,
                                     uint64_t context_publish_complete_cycles,
                                     uint64_t bootstrap_wait_start_cycles,
                                     uint64_t bootstrap_complete_cycles,
                                     uint64_t register_release_start_cycles,
                                     uint64_t register_release_end_cycles,
                                     uint64_t exit_signal_start_cycles,
                                     uint64_t exit_signal_end_cycles,
                                     uint64_t exit_wait_start_cycles,
                                     uint64_t exit_wait_end_cycles) {
  if (level < SL_MIN_LEVEL_LIFECYCLE) return 0;
  r->aicpu_thread_id = aicpu_thread_id;
  memset(&r->_reserved, 0, sizeof r->_reserved);
  r->handshake_start_cycles = handshake_start_cycles;
  r->handshake_complete_cycles = handshake_complete_cycles;
  r->config_start_cycles = config_start_cycles;
  r->topology_complete_cycles = topology_complete_cycles;
  r->context_publish_start_cycles = context_publish_start_cycles;
  r->context_publish_complete_cycles = context_publish_complete_cycles;
  r->bootstrap_wait_start_cycles = bootstrap_wait_start_cycles;
  r->bootstrap_complete_cycles = bootstrap_complete_cycles;
  r->register_release_start_cycles = register_release_start_cycles;
  r->register_release_end_cycles = register_release_end_cycles;
  r->exit_signal_start_cycles = exit_signal_start_cycles;
  r->exit_signal_end_cycles = exit_signal_end_cycles;
  r->exit_wait_start_cycles = exit_wait_start_cycles;
  r->exit_wait_end_cycles = exit_wait_end_cycles;
  memset(r->_tail_pad, 0, sizeof r->_tail_pad);
  return 1;
}

#endif /* SL_WRITERS_H */
