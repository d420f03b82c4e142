/*
** reader_capture.c — the reader's entry points: open a capture (JSON or
** protobuf, told apart by content), free it, find the newest capture under
** outputs/, count scheduler threads.
*/
#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "reader_raw.h"
#include "reader_util.h"
#include "sl_base.h"

static sl_capture *capture_new(const char *name) {
  sl_capture *c = sl_mem_calloc(1, sizeof *c);
  c->path = sl_mem_strdup(name);
  c->num_cores = -1;
  sl_intern_init(&c->strings);
  return c;
}

void sl_capture_free(sl_capture *c) {
  if (!c) return;
  sl_mem_free(c->path);
  sl_intern_free(&c->strings);
  sl_mem_free(c->core_types);
  sl_mem_free(c->core_to_thread);
  sl_mem_free(c->tasks);
  sl_mem_free(c->streams);
  sl_mem_free(c->phases);
  sl_mem_free(c->phase_wide);
  sl_mem_free(c->extras);
  sl_mem_free(c->orch_threads);
  sl_mem_free(c->orch);
  sl_mem_free(c->uploads);
  sl_mem_free(c->task_slots);
  sl_mem_free(c->lifecycle);
  sl_mem_free(c->unmatched);
  for (size_t i = 0; i < c->n_warnings; i++) sl_mem_free(c->warnings[i]);
  sl_mem_free(c->warnings);
  sl_mem_free(c);
}

/* JSON captures start (after blanks) with '{' (or '[' for a clear error); anything
** else is taken as protobuf. */
static int looks_like_json(const unsigned char *d, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r') continue;
    /* a capture is a JSON object; a protobuf Capture never starts with these bytes
    ** (0x7b / 0x5b would be wire types 3 and 3: groups, unused by the schema) */
    return d[i] == '{' || d[i] == '[';
  }
  return 1; /* empty / blank: let the JSON parser report it */
}

static sl_capture *finish(sl_raw *raw, sl_capture *c, int rc, const sl_read_opts *opts) {
  (void)opts;
  if (rc == 0) rc = sl_raw_finish(raw, c);
  sl_raw_free(raw);
  if (rc != 0) {
    sl_capture_free(c);
    return NULL;
  }
  return c;
}

sl_capture *sl_capture_load_mem(const char *name, const void *data, size_t len, const sl_read_opts *opts,
                                sl_err *err) {
  sl_capture *c = capture_new(name);
  sl_raw raw;
  memset(&raw, 0, sizeof raw);
  raw.name = c->path;
  raw.err = err;
  int rc;
  if (looks_like_json(data, len)) {
    rc = sl_parse_json(&raw, c, NULL, data, len);
    if (rc == 0) sl_health_from_json_head(c, data, len);
  } else {
    c->format = SL_FORMAT_PROTOBUF;
    rc = sl_parse_pb(&raw, c, data, len);
  }
  return finish(&raw, c, rc, opts);
}

sl_capture *sl_capture_load(const char *path, const sl_read_opts *opts, sl_err *err) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    (void)sl_err_set(err, path, "cannot open: %s", strerror(errno));
    return NULL;
  }
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    fclose(f);
    (void)sl_err_set(err, path, "is a directory, expected a chip_swimlane_records file");
    return NULL;
  }
  /* peek at the first bytes to tell JSON from protobuf */
  unsigned char head[64];
  size_t n = fread(head, 1, sizeof head, f);
  if (!looks_like_json(head, n)) {
    fclose(f);
    size_t len = 0;
    char *data;
    if (sl_file_read(path, &data, &len, err) != SL_OK) return NULL;
    sl_capture *c = sl_capture_load_mem(path, data, len, opts, err);
    sl_mem_free(data);
    return c;
  }
  rewind(f);
  sl_capture *c = capture_new(path);
  sl_raw raw;
  memset(&raw, 0, sizeof raw);
  raw.name = c->path;
  raw.err = err;
  int rc = sl_parse_json(&raw, c, f, NULL, 0);
  if (rc == 0) sl_health_from_json_file(c, f);
  fclose(f);
  return finish(&raw, c, rc, opts);
}

sl_capture *sl_capture_report(sl_capture *c, sl_err *err, const sl_read_opts *opts) {
  sl_err_print(err);
  sl_err_clear(err);
  if (c && !(opts && opts->quiet))
    for (size_t i = 0; i < c->n_warnings; i++) sl_warn(c->path, "%s", c->warnings[i]);
  return c;
}

sl_capture *sl_capture_read_mem(const char *name, const void *data, size_t len, const sl_read_opts *opts) {
  sl_err err = SL_ERR_INIT;
  return sl_capture_report(sl_capture_load_mem(name, data, len, opts, &err), &err, opts);
}

sl_capture *sl_capture_read(const char *path, const sl_read_opts *opts) {
  sl_err err = SL_ERR_INIT;
  return sl_capture_report(sl_capture_load(path, opts, &err), &err, opts);
}

char *sl_find_latest_records(const char *dir) {
  char *outputs = sl_path_join(dir ? dir : ".", "outputs");
  DIR *d = opendir(outputs);
  char *best = NULL;
  struct timespec best_t = {0, 0};
  if (d) {
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
      if (e->d_name[0] == '.') continue;
      char *sub = sl_path_join(outputs, e->d_name);
      char *cand = sl_path_join(sub, "chip_swimlane_records.json");
      sl_mem_free(sub);
      struct stat st;
      if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) &&
          (!best || st.st_mtim.tv_sec > best_t.tv_sec ||
           (st.st_mtim.tv_sec == best_t.tv_sec && st.st_mtim.tv_nsec > best_t.tv_nsec))) {
        sl_mem_free(best);
        best = cand;
        best_t = st.st_mtim;
      } else {
        sl_mem_free(cand);
      }
    }
    closedir(d);
  }
  sl_mem_free(outputs);
  return best;
}

size_t sl_capture_sched_thread_count(const sl_capture *c) {
  int64_t max = -1;
  for (size_t i = 0; i < c->n_core_to_thread; i++)
    if (c->core_to_thread[i] > max) max = c->core_to_thread[i];
  for (size_t i = 0; i < c->n_streams; i++)
    if (c->streams[i].count && (int64_t)i > max) max = (int64_t)i;
  return max >= 0 ? (size_t)(max + 1) : c->n_streams;
}
