/*
** sl_pipe_run.c — run a replay's sub-core kernels under the pipe tracer.
**
** Each participating sub-core gets a thread, but only the thread holding the
** turn runs: a kernel runs until it finishes or reaches a cross-core
** WAIT_FLAG whose SET_FLAG has not happened yet; then the turn passes to the
** next sub-core (cube, vec0, vec1 round robin) that can make progress. So the
** kernels see each other's memory exactly as the flags order it, never race,
** and every run takes the same path. Timing is computed afterwards from the
** recorded streams (sl_pipe_timeline), so the schedule does not affect it.
*/
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "sl_pipe.h"
#include "sl_rt_mem.h"

enum { ST_OFF = 0, ST_RUNNABLE, ST_BLOCKED, ST_DONE };

typedef struct flag_count {
  int core, set, src, dst, ev;
  uint64_t n;
} flag_count;

typedef struct run_state run_state;

typedef struct core_ctx {
  run_state *run;
  int core;
  pthread_t thread;
  sl_pipe_tracer tracer;
} core_ctx;

struct run_state {
  sl_pipe_model *m;
  sl_replay_fn entry;
  int64_t *args;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int state[SL_SUBCORE_COUNT];
  int turn;
  int deadlock;
  struct { int src, dst, ev; uint64_t ordinal; } want[SL_SUBCORE_COUNT];
  flag_count *counts;
  size_t ncounts, capcounts;
  core_ctx ctx[SL_SUBCORE_COUNT];
};

static _Thread_local int tl_subcore = -1;

int sl_pipe_current_subcore(void) { return tl_subcore; }

/* Counter of cross-core sets (set=1) or waits (set=0) per sub-core and key. */
static uint64_t *counter(run_state *r, int core, int set, int src, int dst, int ev) {
  for (size_t i = 0; i < r->ncounts; i++) {
    flag_count *f = &r->counts[i];
    if (f->core == core && f->set == set && f->src == src && f->dst == dst && f->ev == ev) return &f->n;
  }
  flag_count *f = SL_RT_PUSH(r->counts, r->ncounts, r->capcounts);
  *f = (flag_count){.core = core, .set = set, .src = src, .dst = dst, .ev = ev};
  return &f->n;
}

/* Has every producer of core c's wait #ordinal on (src, dst, ev) set it? */
static int satisfied(run_state *r, int c, int src, int dst, int ev, uint64_t ordinal) {
  int producers = 0;
  for (int q = 0; q < SL_SUBCORE_COUNT; q++) {
    if (q == c || r->state[q] == ST_OFF) continue;
    if (c != SL_SUBCORE_CUBE && q != SL_SUBCORE_CUBE) continue; /* vec lanes talk to the cube only */
    producers++;
    uint64_t *n = counter(r, q, 1, src, dst, ev);
    if (!n || *n <= ordinal) return 0;
  }
  return producers > 0;
}

/* Give the turn to the next sub-core after `from` that can run. Caller holds mu. */
static void pass_turn(run_state *r, int from) {
  int first_blocked = -1, alive = 0;
  for (int k = 1; k <= SL_SUBCORE_COUNT; k++) {
    int c = (from + k) % SL_SUBCORE_COUNT;
    if (r->state[c] == ST_RUNNABLE) {
      r->turn = c;
      goto wake;
    }
    if (r->state[c] == ST_BLOCKED) {
      alive = 1;
      if (first_blocked < 0) first_blocked = c;
      if (satisfied(r, c, r->want[c].src, r->want[c].dst, r->want[c].ev, r->want[c].ordinal)) {
        r->turn = c;
        goto wake;
      }
    }
  }
  if (alive) {
    /* nobody can run: a cross-core wait is never set. Let the blocked core
    ** go on unsatisfied so every thread ends; the timeline reports the wait. */
    r->deadlock = 1;
    r->turn = first_blocked;
  } else {
    r->turn = -1;
  }
wake:
  pthread_cond_broadcast(&r->cv);
}

static void wait_turn(run_state *r, int me) {
  while (r->turn != me) pthread_cond_wait(&r->cv, &r->mu);
}

static void on_instr(void *vctx, const sl_instr *ins) {
  core_ctx *cc = vctx;
  run_state *r = cc->run;
  int me = cc->core;
  sl_pipe_record(r->m, (sl_subcore)me, ins);
  if (!sl_pipe_is_cross((sl_subcore)me, ins)) return;
  sl_rec_kind k = sl_pipe_classify(ins);
  int src = k == SL_REC_SET ? (int)ins->pipe : (int)ins->peer;
  int dst = k == SL_REC_SET ? (int)ins->peer : (int)ins->pipe;
  pthread_mutex_lock(&r->mu);
  uint64_t *n = counter(r, me, k == SL_REC_SET, src, dst, ins->event_id);
  if (k == SL_REC_SET) {
    (*n)++;
  } else {
    uint64_t ordinal = (*n)++;
    if (!satisfied(r, me, src, dst, ins->event_id, ordinal)) {
      r->state[me] = ST_BLOCKED;
      r->want[me].src = src;
      r->want[me].dst = dst;
      r->want[me].ev = ins->event_id;
      r->want[me].ordinal = ordinal;
      pass_turn(r, me);
      wait_turn(r, me);
      r->state[me] = ST_RUNNABLE;
    }
  }
  pthread_mutex_unlock(&r->mu);
}

static void *core_main(void *arg) {
  core_ctx *cc = arg;
  run_state *r = cc->run;
  pthread_mutex_lock(&r->mu);
  wait_turn(r, cc->core);
  pthread_mutex_unlock(&r->mu);

  tl_subcore = cc->core;
  sl_set_subblockid(cc->core == SL_SUBCORE_VEC1 ? 1 : 0);
  cc->tracer.on_instr = on_instr;
  cc->tracer.ctx = cc;
  sl_set_pipe_tracer(&cc->tracer);
  r->entry(r->args);
  sl_set_pipe_tracer(NULL);
  tl_subcore = -1;

  pthread_mutex_lock(&r->mu);
  r->state[cc->core] = ST_DONE;
  pass_turn(r, cc->core);
  pthread_mutex_unlock(&r->mu);
  return NULL;
}

int sl_pipe_run(sl_pipe_model *m, int run_cube, int run_vec, sl_replay_fn entry, int64_t *args) {
  run_state *r = sl_rt_calloc(1, sizeof *r);
  r->m = m;
  r->entry = entry;
  r->args = args;
  r->turn = -1;
  pthread_mutex_init(&r->mu, NULL);
  pthread_cond_init(&r->cv, NULL);
  for (int c = 0; c < SL_SUBCORE_COUNT; c++) {
    int on = c == SL_SUBCORE_CUBE ? run_cube : run_vec;
    r->state[c] = on ? ST_RUNNABLE : ST_OFF;
    m->core[c].ran = on;
    if (on && r->turn < 0) r->turn = c;
  }
  int started = 0, rc = 0;
  pthread_mutex_lock(&r->mu); /* threads wait for the turn, set before they start */
  for (int c = 0; c < SL_SUBCORE_COUNT; c++) {
    if (r->state[c] == ST_OFF) continue;
    r->ctx[c].run = r;
    r->ctx[c].core = c;
    if (pthread_create(&r->ctx[c].thread, NULL, core_main, &r->ctx[c]) != 0) {
      /* this core will never run: mark it done so the others can finish */
      snprintf(m->error, sizeof m->error, "cannot start the %s thread", sl_subcore_names[c]);
      r->state[c] = ST_DONE;
      if (r->turn == c) pass_turn(r, c);
      rc = -1;
      continue;
    }
    started |= 1 << c;
  }
  pthread_mutex_unlock(&r->mu);
  for (int c = 0; c < SL_SUBCORE_COUNT; c++)
    if (started & (1 << c)) pthread_join(r->ctx[c].thread, NULL);
  if (r->deadlock && rc == 0) {
    /* the timeline names the wait; keep a generic message in case it cannot */
    snprintf(m->error, sizeof m->error, "a cross-core WAIT_FLAG was never set (deadlock)");
    rc = -1;
  }
  pthread_mutex_destroy(&r->mu);
  pthread_cond_destroy(&r->cv);
  sl_rt_free(r->counts);
  sl_rt_free(r);
  return rc;
}
