/*
** sl_vclock.h — the deterministic simulation clock (`swimlane run --clock virtual`).
**
** Every runtime thread (each AICore, each scheduler, the orchestrator) owns a slot
** with a virtual time. The threads run for real, but one at a time: a baton goes to
** the slot with the smallest (time, slot index), and a thread only gives it up when
** it advances its own time. So the order in which threads act, and every time they
** read, is a function of the modelled costs alone — not of the host's scheduling —
** and a thread that acts at time T is the earliest one: whatever it publishes is
** seen by others at T or later (dispatch <= receive <= start <= end <= finish hold).
*/
#ifndef SL_VCLOCK_H
#define SL_VCLOCK_H

#include <pthread.h>
#include <stdint.h>

/* Modelled latencies in device cycles (the platform's vclock_* constants). */
typedef struct sl_vclock_model {
  uint64_t poll;          /* an idle poll of a register, queue or ring slot   */
  uint64_t read;          /* a clock read between two steps of a phase        */
  uint64_t dispatch;      /* a scheduler's register write (publish a token)   */
  uint64_t receive;       /* an AICore noticing a new token                   */
  uint64_t fin;           /* an AICore's FIN write                            */
  uint64_t pop;           /* one ready-queue pop                              */
  uint64_t submit;        /* one orchestrator submit                          */
  uint64_t kernel_base;   /* a kernel's fixed cost                            */
  uint64_t kernel_instr;  /* per intrinsic issued                             */
  uint64_t work_per_cycle; /* bytes / elements / MACs an intrinsic does a cycle */
} sl_vclock_model;

typedef struct sl_vclock {
  pthread_mutex_t mu;
  pthread_cond_t *cv;     /* one per slot */
  uint64_t *vt;
  unsigned char *active;
  int n, turn;            /* the slot holding the baton, -1 none */
  sl_vclock_model m;
} sl_vclock;

/* n slots, all active at time 0. */
void sl_vclock_init(sl_vclock *vc, int n, const sl_vclock_model *m);
void sl_vclock_free(sl_vclock *vc);
/* The calling thread becomes slot `slot` and waits for its first turn. */
void sl_vclock_enter(sl_vclock *vc, int slot);
/* The calling thread's slot is done (or slot never started, from another thread). */
void sl_vclock_retire(sl_vclock *vc, int slot);
void sl_vclock_leave(sl_vclock *vc);
/* Advance the caller's time by d cycles, then wait until it is the earliest again. */
void sl_vclock_advance(sl_vclock *vc, uint64_t d);
/* Nothing to do: jump to just after the earliest other thread (poll cycles). */
void sl_vclock_idle(sl_vclock *vc);
/* The caller's time (advanced by one read); outside the runtime threads: the latest. */
uint64_t sl_vclock_now(sl_vclock *vc);
/* The calling thread's slot, -1 outside. */
int sl_vclock_slot(void);

/* Kernel cost: count the intrinsics the calling AICore thread issues. */
void sl_vclock_kernel_begin(void);
uint64_t sl_vclock_kernel_cycles(const sl_vclock_model *m); /* since begin */

#endif /* SL_VCLOCK_H */
