/*
** replay_json.c — Chrome-JSON trace -> sl_trace_sink calls (tests only; uses
** cJSON, so only for small files).
*/
#include "replay_json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include "sl_test_file.h"

static char *slurp(const char *path) { return sl_test_read_file(path, NULL); }

static int64_t geti(const cJSON *o, const char *k) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsNumber(v) ? (int64_t)v->valuedouble : 0;
}
static double getd(const cJSON *o, const char *k) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsNumber(v) ? v->valuedouble : 0;
}
static const char *gets_(const cJSON *o, const char *k) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* JSON args -> sl_arg array (ints when integral, else doubles). */
static size_t to_args(const cJSON *obj, sl_arg *out, size_t max) {
  size_t n = 0;
  const cJSON *it;
  cJSON_ArrayForEach(it, obj) {
    if (n == max) break;
    sl_arg *a = &out[n++];
    a->key = it->string;
    if (cJSON_IsString(it)) {
      a->type = SL_ARG_STRING;
      a->v.s = it->valuestring;
    } else if (cJSON_IsBool(it)) {
      a->type = SL_ARG_BOOL;
      a->v.b = cJSON_IsTrue(it);
    } else if (cJSON_IsNumber(it)) {
      double d = it->valuedouble;
      if (d == floor(d) && fabs(d) < 9e15) {
        a->type = SL_ARG_INT;
        a->v.i = (int64_t)d;
      } else {
        a->type = SL_ARG_DOUBLE;
        a->v.d = d;
      }
    } else {
      a->type = SL_ARG_NULL;
    }
  }
  return n;
}

int sl_test_replay_json(const char *path, sl_trace_sink *sink) {
  char *text = slurp(path);
  if (!text) {
    fprintf(stderr, "replay: cannot read %s\n", path);
    return -1;
  }
  cJSON *root = cJSON_Parse(text);
  free(text);
  const cJSON *events = root ? cJSON_GetObjectItemCaseSensitive(root, "traceEvents") : NULL;
  if (!cJSON_IsArray(events)) {
    fprintf(stderr, "replay: %s: no traceEvents\n", path);
    cJSON_Delete(root);
    return -1;
  }
  const cJSON *e;
  cJSON_ArrayForEach(e, events) {
    const char *ph = gets_(e, "ph");
    const char *name = gets_(e, "name");
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(e, "args");
    sl_arg a[32];
    size_t na = cJSON_IsObject(args) ? to_args(args, a, 32) : 0;
    if (!ph) continue;
    int64_t pid = geti(e, "pid"), tid = geti(e, "tid");
    if (*ph == 'M') {
      const char *s = gets_(args, "name");
      if (!strcmp(name, "process_name"))
        sl_sink_process_name(sink, pid, s);
      else if (!strcmp(name, "thread_name"))
        sl_sink_thread_name(sink, pid, tid, s);
      else if (!strcmp(name, "process_sort_index"))
        sl_sink_process_sort(sink, pid, geti(args, "sort_index"));
      else if (!strcmp(name, "thread_sort_index"))
        sl_sink_thread_sort(sink, pid, tid, geti(args, "sort_index"));
    } else if (*ph == 'X') {
      const cJSON *id = cJSON_GetObjectItemCaseSensitive(e, "id");
      sl_slice s = {.pid = pid,
                    .tid = tid,
                    .ts = getd(e, "ts"),
                    .dur = getd(e, "dur"),
                    .name = name,
                    .cat = gets_(e, "cat"),
                    .cname = gets_(e, "cname"),
                    .has_id = cJSON_IsNumber(id),
                    .id = (uint64_t)geti(e, "id"),
                    .args = cJSON_IsObject(args) ? a : NULL,
                    .nargs = na};
      sl_sink_slice(sink, &s);
    } else if (*ph == 'C') {
      sl_counter c = {.pid = pid,
                      .tid = tid,
                      .ts = getd(e, "ts"),
                      .name = name,
                      .cat = gets_(e, "cat"),
                      .args = a,
                      .nargs = na};
      sl_sink_counter(sink, &c);
    } else if (*ph == 's' || *ph == 'f') {
      const cJSON *bind = cJSON_GetObjectItemCaseSensitive(e, "bind_id");
      const char *bp = gets_(e, "bp");
      sl_flow f = {.phase = *ph,
                   .id = (uint64_t)geti(e, "id"),
                   .name = name,
                   .cat = gets_(e, "cat"),
                   .pid = pid,
                   .tid = tid,
                   .ts = getd(e, "ts"),
                   .bp_enclosing = bp && !strcmp(bp, "e"),
                   .has_bind_id = cJSON_IsNumber(bind),
                   .bind_id = (uint64_t)geti(e, "bind_id")};
      sl_sink_flow(sink, &f);
    }
  }
  cJSON_Delete(root);
  return 0;
}
