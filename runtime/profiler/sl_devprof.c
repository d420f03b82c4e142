/*
** sl_devprof.c — the device hooks: AICPU-task records committed on FIN,
** AICore buffer rotation under completion-before-dispatch, lazily rotated
** scheduler / orchestrator phase buffers, flush at thread exit, and the drop
** accounting of every pool. Records are filled by the generated writers.
**
** Accounting invariant kept per pool instance: every record attempt bumps
** head.total_record_count exactly once and ends up in exactly one of: a
** published buffer's `count`, head.dropped_record_count, or (only if a flush
** is missing) the active buffer — which the host reports as unflushed.
**
** AICore pools count in the AICPU-private, cache-line-padded core state
** (`dispatched`) and publish the total in batches: at every rotation, every
** counted drop and the flush. Bumping head.total_record_count per dispatch
** would dirty the line holding current_buf_seq, which the AICore reads on
** every task, so each task would pay a cross-core miss. Once the flush has
** run, the published total is exact again; the host reads it only then.
*/
#include "sl_devprof_region.h"
#include "sl_prof_gates.h"
#include "sl_writers.h"

#include <sched.h>

unsigned sl_devprof_level(const sl_devprof *dp) { return dp ? dp->g.level : 0; }

/* Slow paths (rotation, publication, drops) stay out of line, so the
** compiler keeps each hook's per-record path short and free of spills. */
#define SL_PROF_COLD __attribute__((cold, noinline))

static inline void *ptr_of(uint64_t v) { return (void *)(uintptr_t)v; }
static inline int core_ok(const sl_devprof *dp, int core) { return core >= 0 && core < dp->g.num_cores; }
static inline int thread_ok(const sl_devprof *dp, int t) { return t >= 0 && t < dp->g.num_threads; }

static void count_total(sl_buffer_pool *pool) { sl_add_rlx32(&pool->head.total_record_count, 1); }
static void count_dropped(sl_buffer_pool *pool, uint32_t n) {
  if (n) sl_add_rlx32(&pool->head.dropped_record_count, n);
}

/* ---- AICPU-task and phase pools: one active buffer, count inside it ----------- */

static void install(sl_devprof *dp, unsigned kind, sl_buffer_pool *pool, uint64_t buf) {
  *sl_devprof_buffer_count(dp, kind, ptr_of(buf)) = 0;
  sl_st_rel64(&pool->head.current_buf_ptr, buf);
}

static uint64_t current_or_pop(sl_devprof *dp, unsigned kind, sl_buffer_pool *pool) {
  uint64_t cur = sl_ld_rlx64(&pool->head.current_buf_ptr);
  if (cur) return cur;
  cur = sl_gate_pop_free(dp, pool);
  if (cur) install(dp, kind, pool, cur);
  return cur;
}

/* Publish the active buffer and take a replacement. On a failed publish the
** records are counted dropped and the same buffer is reused (overwrite mode).
** Returns the new active buffer (0 = none available). */
SL_PROF_COLD static uint64_t switch_buffer(sl_devprof *dp, unsigned kind, sl_buffer_pool *pool, int index, int q) {
  uint64_t cur = sl_ld_rlx64(&pool->head.current_buf_ptr);
  uint32_t seq = sl_ld_rlx32(&pool->head.current_buf_seq);
  uint32_t *count = sl_devprof_buffer_count(dp, kind, ptr_of(cur));
  if (sl_gate_push_ready(dp, q, kind, (uint32_t)index, cur, seq) != 0) {
    count_dropped(pool, *count);
    *count = 0;
    return cur;
  }
  sl_st_rel64(&pool->head.current_buf_ptr, 0);
  sl_st_rel32(&pool->head.current_buf_seq, seq + 1);
  return current_or_pop(dp, kind, pool);
}

/* Flush: publish a non-empty active buffer; it leaves the pool either way. */
SL_PROF_COLD static void flush_pool(sl_devprof *dp, unsigned kind, sl_buffer_pool *pool, int index, int q) {
  uint64_t cur = sl_ld_rlx64(&pool->head.current_buf_ptr);
  if (!cur) return;
  uint32_t *count = sl_devprof_buffer_count(dp, kind, ptr_of(cur));
  if (*count == 0) return; /* an empty active buffer may stay */
  uint32_t seq = sl_ld_rlx32(&pool->head.current_buf_seq);
  if (sl_gate_push_ready(dp, q, kind, (uint32_t)index, cur, seq) != 0) {
    count_dropped(pool, *count);
    *count = 0;
  }
  sl_st_rel64(&pool->head.current_buf_ptr, 0);
  sl_st_rel32(&pool->head.current_buf_seq, seq + 1);
}

/* The slow half of phase_slot: no active buffer yet, or a full one to rotate. */
SL_PROF_COLD static void *phase_slot_slow(sl_devprof *dp, unsigned kind, sl_buffer_pool *pool, int index, int q) {
  uint64_t buf = current_or_pop(dp, kind, pool);
  if (buf && *sl_devprof_buffer_count(dp, kind, ptr_of(buf)) >= dp->g.records[kind])
    buf = switch_buffer(dp, kind, pool, index, q);
  if (!buf) {
    count_dropped(pool, 1);
    return NULL;
  }
  uint32_t *count = sl_devprof_buffer_count(dp, kind, ptr_of(buf));
  return (char *)ptr_of(buf) + dp->record_size[kind] * (*count)++;
}

/* A slot for one phase record (lazy rotation: a full buffer is published when
** the next record arrives). NULL = dropped (already counted). */
static inline void *phase_slot(sl_devprof *dp, unsigned kind, sl_buffer_pool *pool, int index, int q) {
  count_total(pool);
  uint64_t buf = sl_ld_rlx64(&pool->head.current_buf_ptr);
  if (buf) {
    uint32_t *count = sl_devprof_buffer_count(dp, kind, ptr_of(buf));
    uint32_t n = *count;
    if (n < dp->g.records[kind]) {
      *count = n + 1;
      return (char *)ptr_of(buf) + dp->record_size[kind] * n;
    }
  }
  return phase_slot_slow(dp, kind, pool, index, q);
}

void sl_devprof_complete_task(sl_devprof *dp, int core, int thread, uint32_t reg_task_id,
                              uint64_t dispatch_cycles, uint64_t finish_cycles) {
  sl_devprof_complete_member(dp, core, thread, reg_task_id, 0, dispatch_cycles, finish_cycles);
}

void sl_devprof_complete_member(sl_devprof *dp, int core, int thread, uint32_t reg_task_id,
                                uint32_t member, uint64_t dispatch_cycles,
                                uint64_t finish_cycles) {
  if (!dp || dp->g.level < SL_MIN_LEVEL_AICPU_TASK || !core_ok(dp, core) || !thread_ok(dp, thread))
    return;
  sl_buffer_pool *pool = &dp->pools[SL_BUF_AICPU_TASK][core];
  count_total(pool);
  uint64_t buf = current_or_pop(dp, SL_BUF_AICPU_TASK, pool);
  uint32_t *count = buf ? sl_devprof_buffer_count(dp, SL_BUF_AICPU_TASK, ptr_of(buf)) : NULL;
  unsigned cap = dp->g.records[SL_BUF_AICPU_TASK];
  if (!buf || *count >= cap) {
    count_dropped(pool, 1);
    return;
  }
  sl_aicpu_task_record *rec = (sl_aicpu_task_record *)ptr_of(buf) + *count;
  sl_write_aicpu_task(dp->g.level, rec, dispatch_cycles, finish_cycles, reg_task_id, member);
  if (++*count == cap) switch_buffer(dp, SL_BUF_AICPU_TASK, pool, core, thread);
}

void sl_devprof_sched_phase(sl_devprof *dp, int thread, uint32_t kind, uint64_t start, uint64_t end,
                            uint32_t loop_iter, uint32_t tasks_processed, uint32_t a, uint32_t b,
                            const int16_t depth_start[3], const int16_t depth_end[3]) {
  if (!dp || dp->g.level < SL_MIN_LEVEL_SCHED_PHASE || !thread_ok(dp, thread) ||
      !sl_devprof_pool_live(dp, SL_BUF_SCHED_PHASE, thread))
    return;
  static const int16_t zeros[3] = {0, 0, 0};
  sl_buffer_pool *pool = &dp->pools[SL_BUF_SCHED_PHASE][thread];
  sl_sched_phase_record *rec = phase_slot(dp, SL_BUF_SCHED_PHASE, pool, thread, thread);
  if (rec)
    sl_write_sched_phase(dp->g.level, rec, kind, start, end, loop_iter, tasks_processed, a, b,
                         depth_start ? depth_start : zeros, depth_end ? depth_end : zeros);
}

void sl_devprof_sched_phase_put(sl_devprof *dp, int thread, const sl_sched_phase_record *rec) {
  if (!dp || !rec || dp->g.level < SL_MIN_LEVEL_SCHED_PHASE || !thread_ok(dp, thread) ||
      !sl_devprof_pool_live(dp, SL_BUF_SCHED_PHASE, thread))
    return;
  sl_buffer_pool *pool = &dp->pools[SL_BUF_SCHED_PHASE][thread];
  sl_sched_phase_record *slot = phase_slot(dp, SL_BUF_SCHED_PHASE, pool, thread, thread);
  if (slot) *slot = *rec;
}

void sl_devprof_set_core_thread(sl_devprof *dp, int core, int thread) {
  if (!dp || dp->g.level < SL_MIN_LEVEL_SCHED_PHASE || !core_ok(dp, core)) return;
  atomic_store_explicit((_Atomic int32_t *)(void *)&dp->core_to_thread[core], (int32_t)thread,
                        memory_order_relaxed);
}

void sl_devprof_set_sched_core(sl_devprof *dp, int thread, int core) {
  if (!dp || !thread_ok(dp, thread)) return;
  atomic_store_explicit((_Atomic int32_t *)(void *)&dp->sched_core[thread], (int32_t)core, memory_order_relaxed);
}

void sl_devprof_orch_submit(sl_devprof *dp, uint64_t start, uint64_t end, uint64_t task_id,
                            uint32_t submit_idx) {
  if (!dp || dp->g.level < SL_MIN_LEVEL_ORCH_PHASE) return;
  sl_buffer_pool *pool = &dp->pools[SL_BUF_ORCH_PHASE][0];
  sl_orch_phase_record *rec = phase_slot(dp, SL_BUF_ORCH_PHASE, pool, 0, dp->orch_thread);
  if (rec) sl_write_orch_submit(dp->g.level, rec, start, end, task_id, submit_idx);
}

void sl_devprof_flush_orch(sl_devprof *dp) {
  if (!dp || dp->g.level < SL_MIN_LEVEL_ORCH_PHASE) return;
  flush_pool(dp, SL_BUF_ORCH_PHASE, &dp->pools[SL_BUF_ORCH_PHASE][0], 0, dp->orch_thread);
}

void sl_devprof_lifecycle(sl_devprof *dp, int thread, const sl_aicpu_lifecycle_record *rec) {
  if (!dp || !rec || dp->g.level < SL_MIN_LEVEL_LIFECYCLE || !thread_ok(dp, thread)) return;
  dp->lifecycle[thread] = *rec;
  sl_st_rel32(&dp->lifecycle_set[thread], 1);
}

/* ---- AICore pool: the AICPU rotates, the AICore writes ------------------------- */

/* Publish an AICore pool's total (batched: see the file comment). */
static void aicore_publish_total(sl_devprof *dp, int core) {
  sl_st_rlx32(&dp->pools[SL_BUF_AICORE_TASK][core].head.total_record_count, (uint32_t)dp->cores[core].dispatched);
}

/* Start a new generation on `core` with `buf` (0 = a generation without a
** buffer: the AICore writes nothing and each dispatch counts one drop). The
** pointer is published before the seq so an AICore that sees the new seq
** also sees its buffer. */
static void aicore_install(sl_devprof *dp, int core, uint64_t buf) {
  sl_core_state *cs = &dp->cores[core];
  sl_buffer_pool *pool = &dp->pools[SL_BUF_AICORE_TASK][core];
  aicore_publish_total(dp, core);
  cs->gen_buf = buf;
  cs->gen_start = cs->dispatched;
  cs->gen_seq++;
  sl_st_rel64(&pool->head.current_buf_ptr, buf);
  sl_st_rel32(&pool->head.current_buf_seq, cs->gen_seq);
}

/* Wait (bounded) until the AICore has committed the record in `slot`. Its
** release store of reg_task_id is what makes the whole buffer visible. */
static void await_commit(sl_aicore_task_record *rec) {
  if (sl_ld_acq32(&rec->reg_task_id) != SL_AICORE_UNCOMMITTED) return;
  uint64_t deadline = sl_prof_now_ns() + 2000000000u;
  while (sl_ld_acq32(&rec->reg_task_id) == SL_AICORE_UNCOMMITTED && sl_prof_now_ns() < deadline)
    sched_yield();
}

/* Stamp and publish an AICore buffer holding `count` records. */
static int publish_aicore(sl_devprof *dp, int core, int q, uint64_t buf, uint32_t seq, uint32_t count) {
  sl_aicore_task_record *recs = ptr_of(buf);
  await_commit(&recs[count - 1]);
  *sl_devprof_buffer_count(dp, SL_BUF_AICORE_TASK, recs) = count;
  return sl_gate_push_ready(dp, q, SL_BUF_AICORE_TASK, (uint32_t)core, buf, seq);
}

SL_PROF_COLD static int publish_stash(sl_devprof *dp, int core, int q) {
  sl_core_state *cs = &dp->cores[core];
  if (publish_aicore(dp, core, q, cs->stash.buf, cs->stash.seq, cs->stash.count) != 0) return -1;
  cs->stash.buf = 0;
  return 0;
}

/* A stash that cannot be published any more: its records are lost, counted. */
SL_PROF_COLD static void retire_stash(sl_devprof *dp, int core, int q) {
  sl_core_state *cs = &dp->cores[core];
  if (!cs->stash.buf || publish_stash(dp, core, q) == 0) return;
  count_dropped(&dp->pools[SL_BUF_AICORE_TASK][core], cs->stash.count);
  cs->stash.buf = 0;
}

/* Has the AICore committed the last record of the stash? Its release store
** of reg_task_id makes every record of the buffer visible. */
static int stash_committed(sl_devprof *dp, int core) {
  const sl_core_state *cs = &dp->cores[core];
  const sl_aicore_task_record *recs = ptr_of(cs->stash.buf);
  return sl_ld_acq32(&recs[cs->stash.count - 1].reg_task_id) != SL_AICORE_UNCOMMITTED;
}

/* Publish every stash of `thread`'s cores whose records are all committed.
** Called while a rotation waits for a buffer: a stash held back only for its
** ACK would otherwise keep buffers out of circulation while this thread —
** the one that would observe the ACK — is blocked. */
static void publish_committed_stashes(sl_devprof *dp, int thread) {
  for (int c = 0; c < dp->g.num_cores; c++) {
    sl_core_state *cs = &dp->cores[c];
    if (atomic_load_explicit(&cs->owner, memory_order_relaxed) == thread && cs->stash.buf &&
        stash_committed(dp, c))
      publish_stash(dp, c, thread);
  }
}

/* An empty AICore buffer for a rotation on `thread`. */
SL_PROF_COLD static uint64_t aicore_pop(sl_devprof *dp, int core, int thread) {
  sl_buffer_pool *pool = &dp->pools[SL_BUF_AICORE_TASK][core];
  uint64_t buf = sl_fq_pop(&pool->free_queue, dp->g.slot_count);
  if (buf || !dp->g.backpressure) return buf;
  uint64_t deadline = sl_prof_now_ns() + dp->g.backpressure_timeout_ns;
  for (;;) {
    publish_committed_stashes(dp, thread);
    if (!sl_ld_acq32(&dp->bp->fq_contended)) { /* first ask, or the host took the last one */
      sl_st_rel32(&dp->bp->fq_contended, 1);
      sl_bell_ring(&dp->host_bell);
    }
    sched_yield();
    buf = sl_fq_pop(&pool->free_queue, dp->g.slot_count);
    if (buf || sl_prof_now_ns() > deadline) return buf;
  }
}

/* Rotation at a generation boundary. The full buffer is published at once if
** the AICore already committed its last record; otherwise (the core signals
** FIN before it writes the record) it is stashed until the core acknowledges
** the boundary dispatch, or a waiting rotation finds it committed. */
SL_PROF_COLD static void aicore_rotate(sl_devprof *dp, int core, int thread, uint32_t reg_task_id) {
  sl_core_state *cs = &dp->cores[core];
  retire_stash(dp, core, thread);
  cs->stash.buf = cs->gen_buf;
  cs->stash.seq = cs->gen_seq;
  cs->stash.count = (uint32_t)(cs->dispatched - cs->gen_start);
  cs->stash.gate = reg_task_id;
  cs->stash.last_token = cs->last_token;
  cs->stash.gate_passed = 0;
  if (stash_committed(dp, core)) publish_stash(dp, core, thread); /* failure: stays stashed */
  aicore_install(dp, core, aicore_pop(dp, core, thread));
}

void sl_devprof_on_dispatch(sl_devprof *dp, int core, int thread, uint32_t reg_task_id) {
  if (!dp || !core_ok(dp, core) || !thread_ok(dp, thread)) return;
  sl_core_state *cs = &dp->cores[core];
  sl_buffer_pool *pool = &dp->pools[SL_BUF_AICORE_TASK][core];
  if (atomic_load_explicit(&cs->owner, memory_order_relaxed) != thread)
    atomic_store_explicit(&cs->owner, thread, memory_order_relaxed);
  if (cs->gen_buf) {
    if (cs->dispatched - cs->gen_start >= dp->g.records[SL_BUF_AICORE_TASK])
      aicore_rotate(dp, core, thread, reg_task_id);
  } else {
    uint64_t buf = aicore_pop(dp, core, thread); /* recover from a buffer-less generation */
    if (buf) aicore_install(dp, core, buf);
  }
  cs->dispatched++;
  cs->last_token = reg_task_id;
  if (!cs->gen_buf) { /* a drop: rare, so the pair is published at once */
    count_dropped(pool, 1);
    aicore_publish_total(dp, core);
  }
}

void sl_devprof_on_ack(sl_devprof *dp, int core, int thread, uint32_t reg_task_id) {
  if (!dp || !core_ok(dp, core) || !thread_ok(dp, thread)) return;
  sl_core_state *cs = &dp->cores[core];
  if (!cs->stash.buf) return;
  /* Any event for a token after the stashed generation's last one proves the
  ** core finished that record (it commits before taking the next token). */
  if (reg_task_id != cs->stash.last_token) cs->stash.gate_passed = 1;
  if (cs->stash.gate_passed) publish_stash(dp, core, thread); /* failure: retried next event */
}

void sl_devprof_flush_scheduler(sl_devprof *dp, int thread, const int *cores, int ncores) {
  if (!dp || !thread_ok(dp, thread)) return;
  for (int i = 0; i < ncores && cores; i++) {
    int core = cores[i];
    if (!core_ok(dp, core)) continue;
    if (dp->g.level >= SL_MIN_LEVEL_AICPU_TASK)
      flush_pool(dp, SL_BUF_AICPU_TASK, &dp->pools[SL_BUF_AICPU_TASK][core], core, thread);
    sl_core_state *cs = &dp->cores[core];
    retire_stash(dp, core, thread); /* first, so buffer seqs arrive in order */
    if (cs->gen_buf && cs->dispatched > cs->gen_start) {
      uint32_t live = (uint32_t)(cs->dispatched - cs->gen_start);
      if (publish_aicore(dp, core, thread, cs->gen_buf, cs->gen_seq, live) != 0)
        count_dropped(&dp->pools[SL_BUF_AICORE_TASK][core], live);
      aicore_install(dp, core, 0); /* a later dispatch pops a fresh buffer */
    }
    aicore_publish_total(dp, core);
  }
  if (dp->g.level >= SL_MIN_LEVEL_SCHED_PHASE && sl_devprof_pool_live(dp, SL_BUF_SCHED_PHASE, thread))
    flush_pool(dp, SL_BUF_SCHED_PHASE, &dp->pools[SL_BUF_SCHED_PHASE][thread], thread, thread);
}

/* ---- AICore side --------------------------------------------------------------- */

void sl_aicore_cursor_init(sl_aicore_cursor *cur) {
  cur->buf = NULL;
  cur->seq = UINT32_MAX;
  cur->slot = 0;
}

sl_aicore_task_record *sl_devprof_aicore_reserve(sl_devprof *dp, int core, sl_aicore_cursor *cur) {
  if (!dp || !cur || !core_ok(dp, core)) return NULL;
  const sl_active_head *head = &dp->pools[SL_BUF_AICORE_TASK][core].head;
  uint32_t seq = sl_ld_acq32(&head->current_buf_seq);
  if (seq != cur->seq) { /* the AICPU rotated: follow it, from slot 0 */
    cur->seq = seq;
    cur->buf = ptr_of(sl_ld_acq64(&head->current_buf_ptr));
    cur->slot = 0;
  }
  if (!cur->buf || cur->slot >= dp->g.records[SL_BUF_AICORE_TASK]) return NULL;
  return (sl_aicore_task_record *)cur->buf + cur->slot++;
}

void sl_devprof_aicore_commit(sl_aicore_task_record *rec, uint64_t start, uint64_t end,
                              uint64_t task_token_raw, uint32_t reg_task_id, uint32_t receive_to_start) {
  if (!rec) return;
  /* Fill an image with the generated writer, then store it so that
  ** reg_task_id lands last, with release: it is the commit mark the AICPU
  ** waits on before publishing the buffer. */
  sl_aicore_task_record img;
  if (!sl_write_aicore_task(SL_MIN_LEVEL_AICORE_TASK, &img, start, end, task_token_raw, reg_task_id,
                            receive_to_start))
    return;
  rec->start_time = img.start_time;
  rec->end_time = img.end_time;
  rec->task_token_raw = img.task_token_raw;
  rec->receive_to_start_cycles = img.receive_to_start_cycles;
  sl_st_rel32(&rec->reg_task_id, img.reg_task_id);
}
