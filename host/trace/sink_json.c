/*
** sink_json.c — Chrome Trace Event JSON backend of sl_trace_sink.
**
** Streams {"traceEvents": [...]} with the layout of Python's json.dump(indent=2):
** nothing is held in memory beyond the event being written, keys come in the
** reference's order, floats are Python reprs, ints exact, no trailing newline.
*/
#define _GNU_SOURCE /* O_DIRECT */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sl_jsonfmt.h"
#include "sl_trace_sink.h"
#include "sl_mem.h"

#define JBUF_SIZE (1u << 20)
#define JALIGN 4096u /* O_DIRECT: buffer address, length and file offset */

/* Writing the output is a third of the run on big traces (the kernel copying it
** into the page cache): a writer thread takes each full buffer while the caller
** fills the other one, so on two cores the write overlaps the conversion. On a
** regular file the writer also skips the page cache (O_DIRECT: whole aligned
** blocks from aligned buffers; the unaligned tail is carried into the next buffer
** and written normally at the end), which takes the copy off the CPU altogether.
** Without the thread (pthread_create failed) buffers are fwritten in place. */
typedef struct json_writer {
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  char *pending;     /* buffer handed over, NULL when the writer is idle        */
  size_t pending_len;
  int quit;
  int failed;        /* a write failed; err is its errno                        */
  int err;
} json_writer;

typedef struct json_sink {
  sl_trace_sink base;
  char *buf;         /* output buffer: stdio's per-call locking is the hot spot */
  char *spare;       /* the other buffer, while the writer owns none of them    */
  size_t len;
  int any_event;     /* ",\n" needed before the next event                     */
  int key_count;     /* keys written in the current object                     */
  const char *meta;  /* owned copy of the top-level metadata object, or NULL   */
  int threaded;      /* w is running                                           */
  int direct;        /* fd is in O_DIRECT mode (only while threaded)           */
  int fd;
  json_writer w;
} json_sink;

/* Drop O_DIRECT from fd; 1 if it was set and is now off. */
static int drop_direct(int fd) {
  int fl = fcntl(fd, F_GETFL);
  return fl >= 0 && (fl & O_DIRECT) && fcntl(fd, F_SETFL, fl & ~O_DIRECT) == 0;
}

static int write_all(int fd, const char *b, size_t n) {
  while (n) {
    ssize_t w = write(fd, b, n);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && errno == EINVAL && drop_direct(fd)) continue; /* wants other alignment */
    if (w <= 0) {
      if (w == 0) errno = EIO;
      return -1;
    }
    b += w;
    n -= (size_t)w;
  }
  return 0;
}

static void *writer_main(void *arg) {
  json_sink *j = arg;
  json_writer *w = &j->w;
  pthread_mutex_lock(&w->mu);
  for (;;) {
    while (!w->pending && !w->quit) pthread_cond_wait(&w->cv, &w->mu);
    if (!w->pending) break; /* quit with nothing left */
    char *b = w->pending;
    size_t n = w->pending_len;
    pthread_mutex_unlock(&w->mu);
    int bad, e = 0;
    if (j->direct) {
      bad = write_all(j->fd, b, n) != 0;
    } else {
      bad = fwrite(b, 1, n, j->base.fp) != n;
    }
    if (bad) e = errno;
    pthread_mutex_lock(&w->mu);
    if (bad && !w->failed) {
      w->failed = 1;
      w->err = e;
    }
    w->pending = NULL;
    pthread_cond_broadcast(&w->cv);
  }
  pthread_mutex_unlock(&w->mu);
  return NULL;
}

/* Wait until the writer holds no buffer; returns the buffer it gave back. */
static char *writer_idle(json_sink *j) {
  json_writer *w = &j->w;
  pthread_mutex_lock(&w->mu);
  while (w->pending) pthread_cond_wait(&w->cv, &w->mu);
  if (w->failed) j->base.failed = 1;
  pthread_mutex_unlock(&w->mu);
  return j->spare;
}

static void writer_stop(json_sink *j) {
  if (!j->threaded) return;
  writer_idle(j);
  pthread_mutex_lock(&j->w.mu);
  j->w.quit = 1;
  pthread_cond_broadcast(&j->w.cv);
  pthread_mutex_unlock(&j->w.mu);
  pthread_join(j->w.thread, NULL);
  pthread_cond_destroy(&j->w.cv);
  pthread_mutex_destroy(&j->w.mu);
  j->threaded = 0;
  if (j->w.failed) {
    j->base.failed = 1;
    errno = j->w.err; /* the caller reports strerror(errno) */
  }
}

static void jflush(json_sink *j) {
  if (!j->len) return;
  if (!j->threaded) {
    if (fwrite(j->buf, 1, j->len, j->base.fp) != j->len) j->base.failed = 1;
    j->len = 0;
    return;
  }
  size_t n = j->len, keep = j->direct ? j->len % JALIGN : 0;
  n -= keep;
  if (!n) return; /* direct: less than a block so far, it stays */
  char *next = writer_idle(j); /* the buffer the writer finished last time */
  memcpy(next, j->buf + n, keep); /* direct: the partial block goes on in next */
  pthread_mutex_lock(&j->w.mu);
  j->w.pending = j->buf;
  j->w.pending_len = n;
  pthread_cond_broadcast(&j->w.cv);
  pthread_mutex_unlock(&j->w.mu);
  j->spare = j->buf;
  j->buf = next;
  j->len = keep;
}

/* Room for n more bytes. */
static char *jroom(json_sink *j, size_t n) {
  if (j->len + n > JBUF_SIZE) jflush(j);
  if (j->len + n > JBUF_SIZE) return NULL; /* after a flush len < JALIGN */
  return j->buf + j->len;
}

static void jmem_slow(json_sink *j, const char *s, size_t n) {
  while (n) { /* big pieces go through the buffer in halves */
    size_t piece = n < JBUF_SIZE / 2 ? n : JBUF_SIZE / 2;
    char *o = jroom(j, piece);
    if (!o) {
      j->base.failed = 1;
      return;
    }
    memcpy(o, s, piece);
    j->len += piece;
    s += piece;
    n -= piece;
  }
}

/* Every byte of the output passes through here: keep the common case inline. */
static inline void jmem(json_sink *j, const char *s, size_t n) {
  if (j->len + n <= JBUF_SIZE) {
    memcpy(j->buf + j->len, s, n);
    j->len += n;
    return;
  }
  jmem_slow(j, s, n);
}

static inline void jstr(json_sink *j, const char *s) { jmem(j, s, strlen(s)); }
static inline void jch(json_sink *j, char c) {
  if (j->len < JBUF_SIZE) {
    j->buf[j->len++] = c;
    return;
  }
  jmem_slow(j, &c, 1);
}

static void indent(json_sink *j, int n) {
  static const char sp[] = "                                ";
  jmem(j, sp, (size_t)n);
}

static void jquoted_slow(json_sink *j, const char *s) {
  size_t n = strlen(s) * 6 + 3;
  char *o = jroom(j, n);
  if (o) {
    j->len += sl_json_escape(o, s);
  } else {
    char *tmp = sl_mem_alloc(n);
    size_t l = sl_json_escape(tmp, s);
    jmem(j, tmp, l);
    sl_mem_free(tmp);
  }
}

/* Almost every string (keys, names, categories) is short printable ASCII: copy it
** in one pass, no strlen, no escaping; anything else (or a long string) goes the
** general way, which writes the same bytes. */
#define JQUICK_MAX 256
static inline void jquoted(json_sink *j, const char *str) {
  if (j->len + JQUICK_MAX + 2 > JBUF_SIZE) jflush(j);
  const unsigned char *s = (const unsigned char *)str;
  char *o = j->buf + j->len;
  o[0] = '"';
  for (size_t i = 0; i < JQUICK_MAX; i++) {
    unsigned c = s[i];
    if (c == 0) {
      o[i + 1] = '"';
      j->len += i + 2;
      return;
    }
    if (c < 0x20 || c >= 0x7F || c == '"' || c == '\\') break;
    o[i + 1] = (char)c;
  }
  jquoted_slow(j, str); /* overwrites the partial copy */
}

/* Where an event opens: the first one, then each after a comma. */
static const char event_open_first[] = "\n    {", event_open_next[] = ",\n    {";

static void begin_event(json_sink *j) {
  jstr(j, j->any_event ? event_open_next : event_open_first);
  j->any_event = 1;
  j->key_count = 0;
  sl_sink_count(&j->base);
}

static void end_event(json_sink *j) { jstr(j, "\n    }"); }

/* Start `"key": ` at the given indentation inside an object. */
static inline void key_at(json_sink *j, int *count, int ind, const char *key) {
  static const char lead[] = ",\n                                "; /* ",\n" + indent */
  if (*count)
    jmem(j, lead, (size_t)ind + 2);
  else
    jmem(j, lead + 1, (size_t)ind + 1);
  (*count)++;
  jquoted(j, key);
  jmem(j, ": ", 2);
}

static void key(json_sink *j, const char *k) { key_at(j, &j->key_count, 6, k); }

/* An event's own keys are literals: the separator, indentation and quoted key are one
** constant copied in one go (the first key of an object skips the leading comma). */
#define LIT_KEY(k) ",\n      \"" k "\": "
static inline void key_lit(json_sink *j, const char *lit, size_t n) {
  if (j->key_count++)
    jmem(j, lit, n);
  else
    jmem(j, lit + 1, n - 1);
}
#define KEY(j, k) key_lit(j, LIT_KEY(k), sizeof LIT_KEY(k) - 1)
#define PUT_STR(j, k, v) (KEY(j, k), jquoted(j, v))
#define PUT_INT(j, k, v) (KEY(j, k), put_i64(j, v))
#define PUT_U64(j, k, v) (KEY(j, k), put_u64(j, v))
#define PUT_DBL(j, k, v) (KEY(j, k), put_double(j, v))

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
  KEY(j, "args");
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


static void meta_event(json_sink *j, const char *what, int64_t pid, int has_tid, int64_t tid,
                       const sl_arg *arg) {
  begin_event(j);
  put_args(j, arg, 1);
  PUT_STR(j, "cat", "__metadata");
  PUT_STR(j, "name", what);
  PUT_STR(j, "ph", "M");
  PUT_INT(j, "pid", pid);
  if (has_tid) PUT_INT(j, "tid", tid);
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
  PUT_STR(j, "cat", ev->cat ? ev->cat : "");
  if (ev->cname) PUT_STR(j, "cname", ev->cname);
  if (ev->has_id) PUT_U64(j, "id", ev->id);
  PUT_STR(j, "name", ev->name ? ev->name : "");
  PUT_STR(j, "ph", "X");
  PUT_INT(j, "pid", ev->pid);
  PUT_INT(j, "tid", ev->tid);
  PUT_DBL(j, "ts", ev->ts);
  PUT_DBL(j, "dur", ev->dur);
  end_event(j);
}

static void j_counter(sl_trace_sink *s, const sl_counter *ev) {
  json_sink *j = (json_sink *)s;
  begin_event(j);
  put_args(j, ev->args, ev->nargs);
  PUT_STR(j, "cat", ev->cat ? ev->cat : "");
  PUT_STR(j, "name", ev->name);
  PUT_STR(j, "ph", "C");
  PUT_INT(j, "pid", ev->pid);
  PUT_INT(j, "tid", ev->tid);
  PUT_DBL(j, "ts", ev->ts);
  end_event(j);
}

static void j_flow(sl_trace_sink *s, const sl_flow *ev) {
  json_sink *j = (json_sink *)s;
  char ph[2] = {ev->phase, 0};
  begin_event(j);
  PUT_STR(j, "cat", ev->cat ? ev->cat : "flow");
  PUT_U64(j, "id", ev->id);
  PUT_STR(j, "name", ev->name);
  PUT_STR(j, "ph", ph);
  PUT_INT(j, "pid", ev->pid);
  PUT_INT(j, "tid", ev->tid);
  PUT_DBL(j, "ts", ev->ts);
  if (ev->phase == 'f' && ev->bp_enclosing) PUT_STR(j, "bp", "e");
  for (size_t i = 0; i < ev->nextra; i++) {
    key(j, ev->extra[i].key);
    put_arg_value(j, &ev->extra[i], 6);
  }
  if (ev->has_bind_id) PUT_U64(j, "bind_id", ev->bind_id);
  end_event(j);
}

static void j_metadata_json(sl_trace_sink *s, const char *obj) {
  json_sink *j = (json_sink *)s;
  sl_mem_free((void *)j->meta);
  j->meta = obj ? sl_mem_strdup(obj) : NULL;
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
  int direct = j->direct;
  writer_stop(j);
  if (direct) { /* the last partial block, written the ordinary way */
    drop_direct(j->fd);
    if (write_all(j->fd, j->buf, j->len) != 0) s->failed = 1;
    j->len = 0;
  }
  if (fflush(fp) != 0 || ferror(fp)) s->failed = 1;
  return s->failed ? -1 : 0;
}

static void j_destroy(sl_trace_sink *s) {
  json_sink *j = (json_sink *)s;
  writer_stop(j); /* before the caller closes or removes the file */
  sl_mem_free((void *)j->meta);
  sl_mem_free(j->buf);
  sl_mem_free(j->spare);
  sl_mem_free(j);
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

/* O_DIRECT on a regular file we are at the start of, where the file system has
** it (not tmpfs, say); otherwise the page cache as usual. */
static void try_direct(json_sink *j) {
  struct stat st;
  int fd = fileno(j->base.fp);
  if (fd < 0 || fflush(j->base.fp) != 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return;
  if (lseek(fd, 0, SEEK_CUR) != 0) return;
  int fl = fcntl(fd, F_GETFL);
  if (fl < 0 || fcntl(fd, F_SETFL, fl | O_DIRECT) != 0) return;
  j->fd = fd;
  j->direct = 1;
}

sl_trace_sink *sl_trace_sink_json_new(FILE *fp) {
  json_sink *j = sl_mem_calloc(1, sizeof *j);
  void *mem = NULL;
  /* aligned for O_DIRECT, which sl_mem cannot give: its failure ends the run the same way */
  if (posix_memalign(&mem, JALIGN, JBUF_SIZE) != 0) sl_mem_fail(JBUF_SIZE);
  j->buf = memset(mem, 0, JBUF_SIZE); /* zeroed: keeps -O3 -Wmaybe-uninitialized quiet */
  j->base.ops = &json_ops;
  j->base.fp = fp;
  mem = NULL;
  if (posix_memalign(&mem, JALIGN, JBUF_SIZE) == 0) j->spare = mem;
  if (j->spare && pthread_mutex_init(&j->w.mu, NULL) == 0) {
    if (pthread_cond_init(&j->w.cv, NULL) != 0) {
      pthread_mutex_destroy(&j->w.mu);
    } else if (pthread_create(&j->w.thread, NULL, writer_main, j) != 0) {
      pthread_cond_destroy(&j->w.cv);
      pthread_mutex_destroy(&j->w.mu);
    } else {
      j->threaded = 1;
    }
  }
  if (j->threaded) try_direct(j);
  jstr(j, "{\n  \"traceEvents\": [");
  return &j->base;
}
