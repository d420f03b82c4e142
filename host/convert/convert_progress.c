/*
** convert_progress.c — the progress line of a long conversion (on a terminal only,
** host/base sl_ticker): bytes of the input read so far (the reader's file offset,
** from /proc/self/fdinfo, so the reader needs no hooks) and the ETA of the read,
** then the events and bytes of trace written. Erased when the conversion ends.
*/
#include <dirent.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sl_convert.h"
#include "sl_ticker.h"
#include "sl_mem.h"

struct sl_progress {
  sl_ticker *ticker;
  char input[PATH_MAX];
  long long input_size;
  char output[PATH_MAX + 32]; /* the temporary being written; "" while reading */
  const uint64_t *events;     /* the sink's event count (sl_sink_count); NULL while reading */
};

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

static int progress_line(void *arg, double t, char *line, size_t n) {
  sl_progress *p = arg;
  if (!p->output[0]) {
    long long pos = read_offset(p->input);
    if (pos < 0) return 0;
    double frac = p->input_size > 0 ? (double)pos / (double)p->input_size : 0;
    if (frac > 0.01 && frac < 1)
      snprintf(line, n, "convert: reading %.1f / %.1f MB (%.0f%%), %.0f s, ETA %.0f s", pos / 1e6,
               p->input_size / 1e6, frac * 100, t, t / frac - t);
    else
      snprintf(line, n, "convert: reading %.1f / %.1f MB, %.0f s", pos / 1e6, p->input_size / 1e6, t);
  } else {
    struct stat st;
    long long out = stat(p->output, &st) == 0 ? (long long)st.st_size : 0;
    unsigned long long ev = p->events ? __atomic_load_n(p->events, __ATOMIC_RELAXED) : 0;
    snprintf(line, n, "convert: writing the trace: %llu events, %.1f MB written, %.0f s", ev, out / 1e6, t);
  }
  return 1;
}

sl_progress *sl_progress_start(const char *input, int enabled) {
  if (!enabled || !isatty(STDERR_FILENO)) return NULL;
  sl_progress *p = sl_mem_calloc(1, sizeof *p);
  struct stat st;
  if (!realpath(input, p->input) || stat(p->input, &st) != 0) {
    sl_mem_free(p);
    return NULL;
  }
  p->input_size = (long long)st.st_size;
  p->ticker = sl_ticker_start(1, progress_line, p);
  if (!p->ticker) {
    sl_mem_free(p);
    return NULL;
  }
  return p;
}

void sl_progress_writing(sl_progress *p, const char *tmp_path, const uint64_t *events) {
  if (!p || !tmp_path) return;
  sl_ticker_lock(p->ticker);
  snprintf(p->output, sizeof p->output, "%s", tmp_path);
  p->events = events;
  sl_ticker_unlock(p->ticker);
}

void sl_progress_clear(sl_progress *p) {
  if (p) sl_ticker_clear(p->ticker);
}

void sl_progress_stop(sl_progress *p) {
  if (!p) return;
  sl_ticker_stop(p->ticker);
  sl_mem_free(p);
}
