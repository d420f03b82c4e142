/*
** convert_progress.c — the progress line of a long conversion, on a terminal
** only: after SWIMLANE_PROGRESS_AFTER_MS (default 2000 ms) a background thread
** redraws one stderr line twice a second — bytes of the input read so far (the
** reader's file offset, from /proc/self/fdinfo, so the reader needs no hooks),
** the ETA of the read, then the bytes of trace written. The line is erased when
** the conversion ends, so logs and pipes never see it.
*/
#include <dirent.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sl_convert.h"

struct sl_progress {
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int stop, drawn;
  char input[PATH_MAX];
  long long input_size;
  char output[PATH_MAX + 32]; /* the temporary being written; "" while reading */
  struct timespec t0;
};

static double since(const struct timespec *t0) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) * 1e-9;
}

/* The offset of this process's open descriptor on `path`, -1 if none is open. */
static long long read_offset(const char *path) {
  DIR *d = opendir("/proc/self/fd");
  if (!d) return -1;
  long long pos = -1;
  struct dirent *e;
  while (pos < 0 && (e = readdir(d)) != NULL) {
    char link[300], target[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%s", e->d_name);
    ssize_t n = readlink(link, target, sizeof target - 1);
    if (n <= 0) continue;
    target[n] = '\0';
    if (strcmp(target, path) != 0) continue;
    char info[300];
    snprintf(info, sizeof info, "/proc/self/fdinfo/%s", e->d_name);
    FILE *f = fopen(info, "r");
    if (f && fscanf(f, "pos: %lld", &pos) != 1) pos = -1;
    if (f) fclose(f);
  }
  closedir(d);
  return pos;
}

static void draw(sl_progress *p) {
  double t = since(&p->t0);
  char line[256];
  if (!p->output[0]) {
    long long pos = read_offset(p->input);
    if (pos < 0) return;
    double frac = p->input_size > 0 ? (double)pos / (double)p->input_size : 0;
    if (frac > 0.01 && frac < 1)
      snprintf(line, sizeof line, "reading %.1f / %.1f MB (%.0f%%), %.0f s, ETA %.0f s", pos / 1e6,
               p->input_size / 1e6, frac * 100, t, t / frac - t);
    else
      snprintf(line, sizeof line, "reading %.1f / %.1f MB, %.0f s", pos / 1e6, p->input_size / 1e6, t);
  } else {
    struct stat st;
    long long out = stat(p->output, &st) == 0 ? (long long)st.st_size : 0;
    snprintf(line, sizeof line, "writing the trace: %.1f MB written, %.0f s", out / 1e6, t);
  }
  fprintf(stderr, "\r\033[Kswimlane: convert: %s", line);
  fflush(stderr);
  p->drawn = 1;
}

static void *progress_main(void *arg) {
  sl_progress *p = arg;
  const char *env = getenv("SWIMLANE_PROGRESS_AFTER_MS");
  long after_ms = env && *env ? atol(env) : 2000;
  struct timespec wake = p->t0;
  wake.tv_sec += after_ms / 1000;
  wake.tv_nsec += (after_ms % 1000) * 1000000L;
  pthread_mutex_lock(&p->mu);
  while (!p->stop) {
    if (wake.tv_nsec >= 1000000000L) {
      wake.tv_sec++;
      wake.tv_nsec -= 1000000000L;
    }
    if (pthread_cond_timedwait(&p->cv, &p->mu, &wake) != 0 && !p->stop) draw(p);
    clock_gettime(CLOCK_MONOTONIC, &wake);
    wake.tv_nsec += 500000000L;
  }
  if (p->drawn) fputs("\r\033[K", stderr);
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

sl_progress *sl_progress_start(const char *input, int enabled) {
  if (!enabled || !isatty(STDERR_FILENO)) return NULL;
  sl_progress *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  struct stat st;
  if (!realpath(input, p->input) || stat(p->input, &st) != 0) {
    free(p);
    return NULL;
  }
  p->input_size = (long long)st.st_size;
  clock_gettime(CLOCK_MONOTONIC, &p->t0);
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&p->cv, &ca);
  pthread_condattr_destroy(&ca);
  pthread_mutex_init(&p->mu, NULL);
  if (pthread_create(&p->thread, NULL, progress_main, p) != 0) {
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p);
    return NULL;
  }
  return p;
}

void sl_progress_writing(sl_progress *p, const char *tmp_path) {
  if (!p || !tmp_path) return;
  pthread_mutex_lock(&p->mu);
  snprintf(p->output, sizeof p->output, "%s", tmp_path);
  pthread_mutex_unlock(&p->mu);
}

void sl_progress_clear(sl_progress *p) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  if (p->drawn) fputs("\r\033[K", stderr);
  p->drawn = 0;
  pthread_mutex_unlock(&p->mu);
}

void sl_progress_stop(sl_progress *p) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  p->stop = 1;
  pthread_cond_signal(&p->cv);
  pthread_mutex_unlock(&p->mu);
  pthread_join(p->thread, NULL);
  pthread_cond_destroy(&p->cv);
  pthread_mutex_destroy(&p->mu);
  free(p);
}
