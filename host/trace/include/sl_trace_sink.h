/*
** sl_trace_sink.h — the event-level output interface of the converter.
**
** The conversion engine decides WHAT is drawn and emits it, event by event and in
** file order, through a sink. A sink decides HOW it is written. Two backends:
**
**   Chrome Trace Event JSON   sl_trace_sink_json_new   (host/trace/sink_json.c)
**   Perfetto protobuf         sl_trace_sink_proto_new  (host/trace/sink_proto.c)
**
** Conventions shared by every backend:
**   - Timestamps and durations are microseconds as double, exactly the values the
**     reference writes into its JSON ("ts": 1.4000000000000001). A protobuf backend
**     converts them to ns with llround(us * 1000.0), as Perfetto's JSON importer does.
**   - pid / tid are the Chrome-trace numbers (pid 1..6, tid 4000, 10000 + 10*core, ...).
**     A protobuf backend maps each (pid) to a process track and each (pid, tid) to a
**     thread track; metadata for a (pid, tid) may arrive after events on it.
**   - Strings are UTF-8, borrowed for the duration of the call only (copy to keep).
**   - Event ids and flow ids are uint64, exact.
**   - Events arrive in emission order; the sink must not reorder (the JSON file is
**     diffed against the reference's output). A protobuf backend may buffer per track
**     if it needs to sort, but the default expectation is streaming.
**   - Every emit function returns nothing; I/O errors are sticky and reported by
**     sl_trace_sink_finish().
*/
#ifndef SL_TRACE_SINK_H
#define SL_TRACE_SINK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- arguments (ordered key/value list) ------------------------------------------- */

typedef enum sl_arg_type {
  SL_ARG_INT,      /* int64                                   */
  SL_ARG_UINT,     /* uint64 (task ids)                       */
  SL_ARG_DOUBLE,   /* double, written shortest round-trip     */
  SL_ARG_STRING,   /* UTF-8 string                            */
  SL_ARG_BOOL,     /* true / false                            */
  SL_ARG_INTLIST,  /* list of int64, e.g. queue depths [1,2,0] */
  SL_ARG_NULL      /* JSON null (e.g. an unknown task_id)     */
} sl_arg_type;

typedef struct sl_arg {
  const char *key;
  sl_arg_type type;
  union {
    int64_t i;
    uint64_t u;
    double d;
    const char *s;
    int b;
    struct {
      const int64_t *v;
      size_t n;
    } list;
  } v;
} sl_arg;

/* Compound-literal helpers: sl_arg a[] = { SL_ARG_S("phase", "x"), SL_ARG_I("n", 3) }; */
#define SL_ARG_I(k, x) ((sl_arg){.key = (k), .type = SL_ARG_INT, .v.i = (int64_t)(x)})
#define SL_ARG_U(k, x) ((sl_arg){.key = (k), .type = SL_ARG_UINT, .v.u = (uint64_t)(x)})
#define SL_ARG_D(k, x) ((sl_arg){.key = (k), .type = SL_ARG_DOUBLE, .v.d = (double)(x)})
#define SL_ARG_S(k, x) ((sl_arg){.key = (k), .type = SL_ARG_STRING, .v.s = (x)})
#define SL_ARG_B(k, x) ((sl_arg){.key = (k), .type = SL_ARG_BOOL, .v.b = !!(x)})
#define SL_ARG_NIL(k) ((sl_arg){.key = (k), .type = SL_ARG_NULL})
#define SL_ARG_L(k, p, cnt) \
  ((sl_arg){.key = (k), .type = SL_ARG_INTLIST, .v.list = {.v = (p), .n = (cnt)}})

/* ---- events ----------------------------------------------------------------------- */

/* A complete slice ("ph":"X"). JSON key order: args, cat, cname, id, name, ph, pid,
** tid, ts, dur (absent optional keys are skipped). */
typedef struct sl_slice {
  int64_t pid, tid;
  double ts, dur;          /* µs; dur may be 0 or (rarely) negative: pass through   */
  const char *name;
  const char *cat;
  const char *cname;       /* colour name, NULL = none                              */
  int has_id;              /* the slice's own id, the target of flow bind_id        */
  uint64_t id;
  const sl_arg *args;      /* NULL/0 = no "args" key at all                          */
  size_t nargs;
} sl_slice;

/* A counter sample ("ph":"C"). Every numeric arg is one series of the counter
** "<name>" on process pid (tid kept for JSON fidelity; Perfetto JSON ignores it).
** JSON key order: args, cat, name, ph, pid, tid, ts. */
typedef struct sl_counter {
  int64_t pid, tid;
  double ts;
  const char *name;
  const char *cat;
  const sl_arg *args;      /* SL_ARG_INT / SL_ARG_UINT / SL_ARG_DOUBLE only          */
  size_t nargs;
} sl_counter;

/* One end of a flow arrow (v1 flow events). A flow is a start ('s') followed later
** in the stream by its finish ('f') with the same id/name/cat.
** JSON key order: cat, id, name, ph, pid, tid, ts, [bp], extra..., [bind_id].
**   - bind_id: the id of the slice this end attaches to (has_bind_id); otherwise the
**     end attaches to the slice enclosing ts on (pid, tid) — for 'f' with
**     bp_enclosing set ("bp":"e"), else to the next slice beginning there.
**   - extra: integer annotations written as top-level keys in JSON
**     (input_task_count, output_task_count); a proto backend may drop or keep them
**     as debug annotations on the bound slice. */
typedef struct sl_flow {
  char phase;              /* 's' start, 'f' finish                                 */
  uint64_t id;
  const char *name;
  const char *cat;
  int64_t pid, tid;
  double ts;
  int bp_enclosing;        /* 'f' only: "bp":"e"                                    */
  int has_bind_id;
  uint64_t bind_id;
  const sl_arg *extra;
  size_t nextra;
} sl_flow;

/* ---- the sink --------------------------------------------------------------------- */

typedef struct sl_trace_sink sl_trace_sink;

typedef struct sl_trace_sink_ops {
  /* "ph":"M" events. sort_index functions: process_sort_index / thread_sort_index. */
  void (*process_name)(sl_trace_sink *s, int64_t pid, const char *name);
  void (*process_sort)(sl_trace_sink *s, int64_t pid, int64_t sort_index);
  void (*thread_name)(sl_trace_sink *s, int64_t pid, int64_t tid, const char *name);
  void (*thread_sort)(sl_trace_sink *s, int64_t pid, int64_t tid, int64_t sort_index);
  void (*slice)(sl_trace_sink *s, const sl_slice *ev);
  void (*counter)(sl_trace_sink *s, const sl_counter *ev);
  void (*flow)(sl_trace_sink *s, const sl_flow *ev);
  /* Optional top-level "metadata" object (host-mode timeline metadata): a complete
  ** JSON object text. May be NULL in a backend that has nowhere to put it. Called at
  ** most once, after every event and before finish. */
  void (*metadata_json)(sl_trace_sink *s, const char *json_object);
  /* Flush and close the container (the JSON "]}" / last packet). 0 ok, -1 if any
  ** write failed. Does not close the FILE. */
  int (*finish)(sl_trace_sink *s);
  void (*destroy)(sl_trace_sink *s);
} sl_trace_sink_ops;

/* Every backend embeds this as its first member. */
struct sl_trace_sink {
  const sl_trace_sink_ops *ops;
  FILE *fp;        /* borrowed: the caller owns it (usually an sl_outfile's fp)   */
  int failed;      /* sticky I/O error                                            */
  uint64_t nevents;/* events written so far (the summary's "Total events")        */
  uint64_t dropped;/* events the format cannot hold, left out (Perfetto: a negative
                      timestamp); the command says so (sl_sink_warn_dropped)      */
};

/* The command's last step with a sink: finish it and, when it left events out, say so
** in one warning naming path. 0 ok, -1 if a write failed. */
int sl_sink_end(sl_trace_sink *s, const char *path);

/* Constructors: write to fp (not closed by the sink). Never NULL. */
sl_trace_sink *sl_trace_sink_json_new(FILE *fp);
/* Perfetto protobuf backend (sink_proto.c). */
sl_trace_sink *sl_trace_sink_proto_new(FILE *fp);

/* One more event written. The sink is the only writer; the store is atomic because the
** progress line's thread reads the count meanwhile (sl_progress_writing). */
static inline void sl_sink_count(sl_trace_sink *s) {
  __atomic_store_n(&s->nevents, s->nevents + 1, __ATOMIC_RELAXED);
}

/* Inline dispatch so callers write sl_sink_slice(s, &ev). */
static inline void sl_sink_process_name(sl_trace_sink *s, int64_t pid, const char *name) {
  s->ops->process_name(s, pid, name);
}
static inline void sl_sink_process_sort(sl_trace_sink *s, int64_t pid, int64_t idx) {
  s->ops->process_sort(s, pid, idx);
}
static inline void sl_sink_thread_name(sl_trace_sink *s, int64_t pid, int64_t tid,
                                       const char *name) {
  s->ops->thread_name(s, pid, tid, name);
}
static inline void sl_sink_thread_sort(sl_trace_sink *s, int64_t pid, int64_t tid,
                                       int64_t idx) {
  s->ops->thread_sort(s, pid, tid, idx);
}
static inline void sl_sink_slice(sl_trace_sink *s, const sl_slice *ev) { s->ops->slice(s, ev); }
static inline void sl_sink_counter(sl_trace_sink *s, const sl_counter *ev) {
  s->ops->counter(s, ev);
}
static inline void sl_sink_flow(sl_trace_sink *s, const sl_flow *ev) { s->ops->flow(s, ev); }
static inline void sl_sink_metadata_json(sl_trace_sink *s, const char *obj) {
  if (s->ops->metadata_json) s->ops->metadata_json(s, obj);
}
static inline int sl_sink_finish(sl_trace_sink *s) { return s->ops->finish(s); }
static inline void sl_sink_destroy(sl_trace_sink *s) {
  if (s) s->ops->destroy(s);
}

#endif /* SL_TRACE_SINK_H */
