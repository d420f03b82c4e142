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

typedef struct json_sink {
  sl_trace_sink base;
  int any_event;     /* ",\n" needed before the next event                     */
  int key_count;     /* keys written in the current object                     */
  const char *meta;  /* owned copy of the top-level metadata object, or NULL   */
} json_sink;

static void indent(FILE *fp, int n) {
  for (int i = 0; i < n; i++) putc(' ', fp);
}

static void begin_event(json_sink *j) {
  FILE *fp = j->base.fp;
  fputs(j->any_event ? ",\n    {" : "\n    {", fp);
  j->any_event = 1;
  j->key_count = 0;
  j->base.nevents++;
}

static void end_event(json_sink *j) {
  fputs("\n    }", j->base.fp);
  if (ferror(j->base.fp)) j->base.failed = 1;
}

/* Start `"key": ` at the given indentation inside an object. */
static void key_at(FILE *fp, int *count, int ind, const char *key) {
  fputs(*count ? ",\n" : "\n", fp);
  (*count)++;
  indent(fp, ind);
  sl_fput_jsonstr(fp, key);
  fputs(": ", fp);
}

static void key(json_sink *j, const char *k) { key_at(j->base.fp, &j->key_count, 6, k); }

static void put_double(FILE *fp, double d) {
  char buf[40];
  fwrite(buf, 1, sl_fmt_pyfloat(buf, d), fp);
}

static void put_i64(FILE *fp, int64_t v) { fprintf(fp, "%lld", (long long)v); }

/* A value of an arg; `ind` is the indentation of the arg's key. */
static void put_arg_value(FILE *fp, const sl_arg *a, int ind) {
  switch (a->type) {
  case SL_ARG_INT: put_i64(fp, a->v.i); break;
  case SL_ARG_UINT: fprintf(fp, "%llu", (unsigned long long)a->v.u); break;
  case SL_ARG_DOUBLE: put_double(fp, a->v.d); break;
  case SL_ARG_STRING: sl_fput_jsonstr(fp, a->v.s ? a->v.s : ""); break;
  case SL_ARG_BOOL: fputs(a->v.b ? "true" : "false", fp); break;
  case SL_ARG_NULL: fputs("null", fp); break;
  case SL_ARG_INTLIST:
    if (a->v.list.n == 0) {
      fputs("[]", fp);
      break;
    }
    putc('[', fp);
    for (size_t i = 0; i < a->v.list.n; i++) {
      fputs(i ? ",\n" : "\n", fp);
      indent(fp, ind + 2);
      put_i64(fp, a->v.list.v[i]);
    }
    putc('\n', fp);
    indent(fp, ind);
    putc(']', fp);
    break;
  }
}

static void put_args(json_sink *j, const sl_arg *args, size_t n) {
  FILE *fp = j->base.fp;
  key(j, "args");
  if (n == 0) {
    fputs("{}", fp);
    return;
  }
  putc('{', fp);
  int count = 0;
  for (size_t i = 0; i < n; i++) {
    key_at(fp, &count, 8, args[i].key);
    put_arg_value(fp, &args[i], 8);
  }
  putc('\n', fp);
  indent(fp, 6);
  putc('}', fp);
}

static void put_str_key(json_sink *j, const char *k, const char *v) {
  key(j, k);
  sl_fput_jsonstr(j->base.fp, v);
}
static void put_int_key(json_sink *j, const char *k, int64_t v) {
  key(j, k);
  put_i64(j->base.fp, v);
}
static void put_u64_key(json_sink *j, const char *k, uint64_t v) {
  key(j, k);
  fprintf(j->base.fp, "%llu", (unsigned long long)v);
}
static void put_dbl_key(json_sink *j, const char *k, double v) {
  key(j, k);
  put_double(j->base.fp, v);
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
    put_arg_value(j->base.fp, &ev->extra[i], 6);
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
  fputs(j->any_event ? "\n  ]" : "]", fp);
  if (j->meta) {
    fputs(",\n  \"metadata\": ", fp);
    fputs(j->meta, fp);
  }
  fputs("\n}", fp);
  if (fflush(fp) != 0 || ferror(fp)) s->failed = 1;
  return s->failed ? -1 : 0;
}

static void j_destroy(sl_trace_sink *s) {
  json_sink *j = (json_sink *)s;
  free((void *)j->meta);
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
  j->base.ops = &json_ops;
  j->base.fp = fp;
  fputs("{\n  \"traceEvents\": [", fp);
  return &j->base;
}
