/*
** sink_json.c — Chrome Trace Event JSON backend of sl_trace_sink.
**
** Streams {"traceEvents": [...]} with the layout of Python's json.dump(indent=2):
** nothing is held in memory beyond the event being written, keys come in the
** reference's order, floats are Python reprs, ints exact, no trailing newline.
*/
#include <stdlib.h>
#include <string.h>

#include "sl_jsonfmt.h"
#include "sl_trace_sink.h"

#define JBUF_SIZE (1u << 20)

typedef struct json_sink {
  sl_trace_sink base;
  char *buf;         /* output buffer: stdio's per-call locking is the hot spot */
  size_t len;
  int any_event;     /* ",\n" needed before the next event                     */
  int key_count;     /* keys written in the current object                     */
  const char *meta;  /* owned copy of the top-level metadata object, or NULL   */
} json_sink;

static void jflush(json_sink *j) {
  if (j->len && fwrite(j->buf, 1, j->len, j->base.fp) != j->len) j->base.failed = 1;
  j->len = 0;
}

/* Room for n more bytes. */
static char *jroom(json_sink *j, size_t n) {
  if (j->len + n > JBUF_SIZE) jflush(j);
  if (n > JBUF_SIZE) return NULL;
  return j->buf + j->len;
}

static void jmem(json_sink *j, const char *s, size_t n) {
  char *o = jroom(j, n);
  if (!o) {
    jflush(j);
    if (fwrite(s, 1, n, j->base.fp) != n) j->base.failed = 1;
    return;
  }
  memcpy(o, s, n);
  j->len += n;
}

static void jstr(json_sink *j, const char *s) { jmem(j, s, strlen(s)); }
static void jch(json_sink *j, char c) { jmem(j, &c, 1); }

static void indent(json_sink *j, int n) {
  static const char sp[] = "                                ";
  jmem(j, sp, (size_t)n);
}

static void jquoted(json_sink *j, const char *s) {
  size_t n = strlen(s) * 6 + 3;
  char *o = jroom(j, n);
  if (o) {
    j->len += sl_json_escape(o, s);
  } else {
    char *tmp = malloc(n);
    if (!tmp) {
      j->base.failed = 1;
      return;
    }
    size_t l = sl_json_escape(tmp, s);
    jmem(j, tmp, l);
    free(tmp);
  }
}

static void begin_event(json_sink *j) {
  jstr(j, j->any_event ? ",\n    {" : "\n    {");
  j->any_event = 1;
  j->key_count = 0;
  j->base.nevents++;
}

static void end_event(json_sink *j) { jstr(j, "\n    }"); }

/* Start `"key": ` at the given indentation inside an object. */
static void key_at(json_sink *j, int *count, int ind, const char *key) {
  jstr(j, *count ? ",\n" : "\n");
  (*count)++;
  indent(j, ind);
  jquoted(j, key);
  jmem(j, ": ", 2);
}

static void key(json_sink *j, const char *k) { key_at(j, &j->key_count, 6, k); }

static void put_double(json_sink *j, double d) {
  char buf[40];
  jmem(j, buf, sl_fmt_pyfloat(buf, d));
}

static void put_u64(json_sink *j, uint64_t v) {
  char tmp[24];
  size_t n = 0;
  do {
    tmp[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  char *o = jroom(j, n);
  for (size_t i = 0; i < n; i++) o[i] = tmp[n - 1 - i];
  j->len += n;
}

static void put_i64(json_sink *j, int64_t v) {
  if (v < 0) {
    jch(j, '-');
    put_u64(j, (uint64_t)0 - (uint64_t)v);
  } else {
    put_u64(j, (uint64_t)v);
  }
}

/* A value of an arg; `ind` is the indentation of the arg's key. */
static void put_arg_value(json_sink *j, const sl_arg *a, int ind) {
  switch (a->type) {
  case SL_ARG_INT: put_i64(j, a->v.i); break;
  case SL_ARG_UINT: put_u64(j, a->v.u); break;
  case SL_ARG_DOUBLE: put_double(j, a->v.d); break;
  case SL_ARG_STRING: jquoted(j, a->v.s ? a->v.s : ""); break;
  case SL_ARG_BOOL: jstr(j, a->v.b ? "true" : "false"); break;
  case SL_ARG_NULL: jstr(j, "null"); break;
  case SL_ARG_INTLIST:
    if (a->v.list.n == 0) {
      jstr(j, "[]");
      break;
    }
    jch(j, '[');
    for (size_t i = 0; i < a->v.list.n; i++) {
      jstr(j, i ? ",\n" : "\n");
      indent(j, ind + 2);
      put_i64(j, a->v.list.v[i]);
    }
    jch(j, '\n');
    indent(j, ind);
    jch(j, ']');
    break;
  }
}

static void put_args(json_sink *j, const sl_arg *args, size_t n) {
  key(j, "args");
  if (n == 0) {
    jstr(j, "{}");
    return;
  }
  jch(j, '{');
  int count = 0;
  for (size_t i = 0; i < n; i++) {
    key_at(j, &count, 8, args[i].key);
    put_arg_value(j, &args[i], 8);
  }
  jch(j, '\n');
  indent(j, 6);
  jch(j, '}');
}

static void put_str_key(json_sink *j, const char *k, const char *v) {
  key(j, k);
  jquoted(j, v);
}
static void put_int_key(json_sink *j, const char *k, int64_t v) {
  key(j, k);
  put_i64(j, v);
}
static void put_u64_key(json_sink *j, const char *k, uint64_t v) {
  key(j, k);
  put_u64(j, v);
}
static void put_dbl_key(json_sink *j, const char *k, double v) {
  key(j, k);
  put_double(j, v);
}

static void meta_event(json_sink *j, const char *what, int64_t pid, int has_tid, int64_t tid,
                       const sl_arg *arg) {
  begin_event(j);
  put_args(j, arg, 1);
  put_str_key(j, "cat", "__metadata");
  put_str_key(j, "name", what);
  put_str_key(j, "ph", "M");
  put_int_key(j, "pid", pid);
  if (has_tid) put_int_key(j, "tid", tid);
  end_event(j);
}

static void j_process_name(sl_trace_sink *s, int64_t pid, const char *name) {
  sl_arg a = SL_ARG_S("name", name);
  meta_event((json_sink *)s, "process_name", pid, 0, 0, &a);
}
static void j_process_sort(sl_trace_sink *s, int64_t pid, int64_t idx) {
  sl_arg a = SL_ARG_I("sort_index", idx);
  meta_event((json_sink *)s, "process_sort_index", pid, 0, 0, &a);
}
static void j_thread_name(sl_trace_sink *s, int64_t pid, int64_t tid, const char *name) {
  sl_arg a = SL_ARG_S("name", name);
  meta_event((json_sink *)s, "thread_name", pid, 1, tid, &a);
}
static void j_thread_sort(sl_trace_sink *s, int64_t pid, int64_t tid, int64_t idx) {
  sl_arg a = SL_ARG_I("sort_index", idx);
  meta_event((json_sink *)s, "thread_sort_index", pid, 1, tid, &a);
}

static void j_slice(sl_trace_sink *s, const sl_slice *ev) {
  json_sink *j = (json_sink *)s;
  begin_event(j);
  if (ev->args) put_args(j, ev->args, ev->nargs);
  put_str_key(j, "cat", ev->cat ? ev->cat : "");
  if (ev->cname) put_str_key(j, "cname", ev->cname);
  if (ev->has_id) put_u64_key(j, "id", ev->id);
  put_str_key(j, "name", ev->name ? ev->name : "");
  put_str_key(j, "ph", "X");
  put_int_key(j, "pid", ev->pid);
  put_int_key(j, "tid", ev->tid);
  put_dbl_key(j, "ts", ev->ts);
  put_dbl_key(j, "dur", ev->dur);
  end_event(j);
}

static void j_counter(sl_trace_sink *s, const sl_counter *ev) {
  json_sink *j = (json_sink *)s;
  begin_event(j);
  put_args(j, ev->args, ev->nargs);
  put_str_key(j, "cat", ev->cat ? ev->cat : "");
  put_str_key(j, "name", ev->name);
  put_str_key(j, "ph", "C");
  put_int_key(j, "pid", ev->pid);
  put_int_key(j, "tid", ev->tid);
  put_dbl_key(j, "ts", ev->ts);
  end_event(j);
}

static void j_flow(sl_trace_sink *s, const sl_flow *ev) {
  json_sink *j = (json_sink *)s;
  char ph[2] = {ev->phase, 0};
  begin_event(j);
  put_str_key(j, "cat", ev->cat ? ev->cat : "flow");
  put_u64_key(j, "id", ev->id);
  put_str_key(j, "name", ev->name);
  put_str_key(j, "ph", ph);
  put_int_key(j, "pid", ev->pid);
  put_int_key(j, "tid", ev->tid);
  put_dbl_key(j, "ts", ev->ts);
  if (ev->phase == 'f' && ev->bp_enclosing) put_str_key(j, "bp", "e");
  for (size_t i = 0; i < ev->nextra; i++) {
    key(j, ev->extra[i].key);
    put_arg_value(j, &ev->extra[i], 6);
  }
  if (ev->has_bind_id) put_u64_key(j, "bind_id", ev->bind_id);
  end_event(j);
}

static void j_metadata_json(sl_trace_sink *s, const char *obj) {
  json_sink *j = (json_sink *)s;
  free((void *)j->meta);
  j->meta = obj ? strdup(obj) : NULL;
}

static int j_finish(sl_trace_sink *s) {
  json_sink *j = (json_sink *)s;
  FILE *fp = s->fp;
  jstr(j, j->any_event ? "\n  ]" : "]");
  if (j->meta) {
    jstr(j, ",\n  \"metadata\": ");
    jstr(j, j->meta);
  }
  jstr(j, "\n}");
  jflush(j);
  if (fflush(fp) != 0 || ferror(fp)) s->failed = 1;
  return s->failed ? -1 : 0;
}

static void j_destroy(sl_trace_sink *s) {
  json_sink *j = (json_sink *)s;
  free((void *)j->meta);
  free(j->buf);
  free(j);
}

static const sl_trace_sink_ops json_ops = {
    .process_name = j_process_name,
    .process_sort = j_process_sort,
    .thread_name = j_thread_name,
    .thread_sort = j_thread_sort,
    .slice = j_slice,
    .counter = j_counter,
    .flow = j_flow,
    .metadata_json = j_metadata_json,
    .finish = j_finish,
    .destroy = j_destroy,
};

sl_trace_sink *sl_trace_sink_json_new(FILE *fp) {
  json_sink *j = calloc(1, sizeof *j);
  if (!j) return NULL;
  j->buf = calloc(1, JBUF_SIZE); /* zeroed: keeps -O3 -Wmaybe-uninitialized quiet */
  if (!j->buf) {
    free(j);
    return NULL;
  }
  j->base.ops = &json_ops;
  j->base.fp = fp;
  jstr(j, "{\n  \"traceEvents\": [");
  return &j->base;
}
