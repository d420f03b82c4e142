/*
** sl_ticker.c — the progress-line thread shared by convert and run (sl_ticker.h).
*/
#include "sl_ticker.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "sl_mem.h"

struct sl_ticker {
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int stop, drawn;
  sl_ticker_line line;
  void *arg;
  struct timespec t0;
};

static double elapsed(const sl_ticker *t) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - t->t0.tv_sec) + (double)(now.tv_nsec - t->t0.tv_nsec) * 1e-9;
}

static void draw(sl_ticker *t) {
  char text[256];
  if (!t->line(t->arg, elapsed(t), text, sizeof text)) return;
  fprintf(stderr, "\r\033[Kswimlane: %s", text);
  fflush(stderr);
  t->drawn = 1;
}

static void *ticker_main(void *arg) {
  sl_ticker *t = arg;
  const char *env = getenv("SWIMLANE_PROGRESS_AFTER_MS");
  long after_ms = env && *env ? atol(env) : 2000;
  struct timespec wake = t->t0;
  wake.tv_sec += after_ms / 1000;
  wake.tv_nsec += (after_ms % 1000) * 1000000L;
  pthread_mutex_lock(&t->mu);
  while (!t->stop) {
    if (wake.tv_nsec >= 1000000000L) {
      wake.tv_sec++;
      wake.tv_nsec -= 1000000000L;
    }
    if (pthread_cond_timedwait(&t->cv, &t->mu, &wake) != 0 && !t->stop) draw(t);
    clock_gettime(CLOCK_MONOTONIC, &wake);
    wake.tv_nsec += 500000000L;
  }
  if (t->drawn) fputs("\r\033[K", stderr);
  pthread_mutex_unlock(&t->mu);
  return NULL;
}

sl_ticker *sl_ticker_start(int enabled, sl_ticker_line line, void *arg) {
  if (!enabled || !isatty(STDERR_FILENO)) return NULL;
  sl_ticker *t = sl_mem_calloc(1, sizeof *t);
  t->line = line;
  t->arg = arg;
  clock_gettime(CLOCK_MONOTONIC, &t->t0);
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&t->cv, &ca);
  pthread_condattr_destroy(&ca);
  pthread_mutex_init(&t->mu, NULL);
  if (pthread_create(&t->thread, NULL, ticker_main, t) != 0) {
    pthread_cond_destroy(&t->cv);
    pthread_mutex_destroy(&t->mu);
    sl_mem_free(t);
    return NULL;
  }
  return t;
}

void sl_ticker_lock(sl_ticker *t) {
  if (t) pthread_mutex_lock(&t->mu);
}

void sl_ticker_unlock(sl_ticker *t) {
  if (t) pthread_mutex_unlock(&t->mu);
}

void sl_ticker_clear(sl_ticker *t) {
  if (!t) return;
  pthread_mutex_lock(&t->mu);
  if (t->drawn) fputs("\r\033[K", stderr);
  t->drawn = 0;
  pthread_mutex_unlock(&t->mu);
}

void sl_ticker_stop(sl_ticker *t) {
  if (!t) return;
  pthread_mutex_lock(&t->mu);
  t->stop = 1;
  pthread_cond_signal(&t->cv);
  pthread_mutex_unlock(&t->mu);
  pthread_join(t->thread, NULL);
  pthread_cond_destroy(&t->cv);
  pthread_mutex_destroy(&t->mu);
  sl_mem_free(t);
}
