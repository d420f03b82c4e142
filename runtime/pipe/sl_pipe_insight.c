/*
** sl_pipe_insight.c — write a timed pipe model as an Insight-style trace.json.
**
** Layout (what MindStudio Insight's simulator export looks like to a reader):
** one process per sub-core named "core0.<subcore>", one thread per pipe named
** by the pipe, instructions as X slices, SET_FLAG / WAIT_FLAG as B/E pairs
** sharing an id (a cross-core one names its peer sub-core in args.peer),
** thread_sort_index metadata giving the pipe order. Times are microseconds at
** the arch's AICore clock; the exact cycle counts ride along in args. No flow
** arrows: a flag lasts one cycle, under Perfetto's 1 ns resolution, so an arrow
** end would land on a slice edge and be dropped.
*/
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sl_pipe.h"

/* Lane order of the pipes inside a sub-core. */
static const sl_pipe lane_order[] = {SL_PIPE_MTE2,   SL_PIPE_MTE1,   SL_PIPE_CUBE, SL_PIPE_FIXP,
                                     SL_PIPE_SCALAR, SL_PIPE_VECTOR, SL_PIPE_MTE3};
#define N_LANES (sizeof lane_order / sizeof lane_order[0])

typedef struct writer {
  FILE *out;
  int first;
  const sl_pipe_model *m;
  int core; /* sub-core being written */
} writer;

static void put_str(FILE *out, const char *s) {
  fputc('"', out);
  for (; s && *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\') fprintf(out, "\\%c", ch);
    else if (ch < 0x20) fprintf(out, "\\u%04x", ch);
    else fputc(ch, out);
  }
  fputc('"', out);
}

static void begin_event(writer *w) {
  fputs(w->first ? "\n    {" : ",\n    {", w->out);
  w->first = 0;
}

static void put_us(writer *w, const char *key, uint64_t cycles) {
  /* cycles -> microseconds; 6 decimals keep picosecond resolution */
  double us = (double)cycles / (double)w->m->arch->core_mhz;
  fprintf(w->out, "\"%s\": %.6f", key, us);
}

static void put_meta(writer *w, const char *pid, const char *tid, const char *name, const char *key,
                     const char *sval, long ival) {
  begin_event(w);
  fputs("\"name\": ", w->out);
  put_str(w->out, name);
  fputs(", \"ph\": \"M\", \"pid\": ", w->out);
  put_str(w->out, pid);
  if (tid) {
    fputs(", \"tid\": ", w->out);
    put_str(w->out, tid);
  }
  fprintf(w->out, ", \"args\": {\"%s\": ", key);
  if (sval) put_str(w->out, sval);
  else fprintf(w->out, "%ld", ival);
  fputs("}}", w->out);
}

static void put_source(writer *w, const sl_pipe_rec *r, int debug_line) {
  if (!debug_line || !r->file) return;
  char buf[512];
  snprintf(buf, sizeof buf, "%s:%d", r->file, r->line);
  fputs(", \"source\": ", w->out);
  put_str(w->out, buf);
  if (!r->lib_file) return;
  snprintf(buf, sizeof buf, "%s:%d", r->lib_file, r->lib_line);
  fputs(", \"lib_source\": ", w->out);
  put_str(w->out, buf);
}

static void put_cycles(writer *w, const sl_pipe_rec *r) {
  fprintf(w->out, ", \"start_cycle\": %" PRIu64 ", \"end_cycle\": %" PRIu64 ", \"dispatch_cycle\": %" PRIu64,
          r->start, r->end, r->dispatch);
}

static void put_slice(writer *w, const char *pid, const sl_pipe_rec *r, int debug_line) {
  begin_event(w);
  fputs("\"name\": ", w->out);
  put_str(w->out, r->kind == SL_REC_BARRIER ? "PIPE_BARRIER" : r->mnemonic);
  fputs(", \"ph\": \"X\", \"pid\": ", w->out);
  put_str(w->out, pid);
  fputs(", \"tid\": ", w->out);
  put_str(w->out, sl_pipe_lane_name(r->kind == SL_REC_BARRIER ? SL_PIPE_SCALAR : r->pipe));
  fputs(", ", w->out);
  put_us(w, "ts", r->start);
  fputs(", ", w->out);
  put_us(w, "dur", r->end - r->start);
  fputs(", \"args\": {", w->out);
  if (r->kind == SL_REC_BARRIER) {
    fputs("\"pipe\": ", w->out);
    put_str(w->out, sl_pipe_lane_name(r->pipe));
  } else {
    fprintf(w->out, "\"work\": %" PRIu64, r->work);
  }
  put_cycles(w, r);
  put_source(w, r, debug_line);
  fputs("}}", w->out);
}

/* A flag as a B/E pair: B when it reaches its pipe, E when it fires / releases. */
static void put_flag(writer *w, const char *pid, const sl_pipe_rec *r, long id, int debug_line) {
  for (int phase = 0; phase < 2; phase++) {
    begin_event(w);
    fputs("\"name\": ", w->out);
    put_str(w->out, r->mnemonic);
    fprintf(w->out, ", \"ph\": \"%s\", \"pid\": ", phase ? "E" : "B");
    put_str(w->out, pid);
    fputs(", \"tid\": ", w->out);
    put_str(w->out, sl_pipe_lane_name(r->pipe));
    fprintf(w->out, ", \"id\": %ld, ", id);
    put_us(w, "ts", phase ? r->end : r->start);
    fputs(", \"args\": {\"src\": ", w->out);
    int set = r->kind == SL_REC_SET;
    put_str(w->out, sl_pipe_lane_name(set ? r->pipe : r->peer));
    fputs(", \"dst\": ", w->out);
    put_str(w->out, sl_pipe_lane_name(set ? r->peer : r->pipe));
    fprintf(w->out, ", \"event_id\": %d, \"cross_core\": %s", r->event_id, r->cross ? "true" : "false");
    if (r->cross) /* the sub-core(s) on the other side of the cluster flag */
      fprintf(w->out, ", \"peer\": \"%s\"", w->core == SL_SUBCORE_CUBE ? "veccore0+veccore1" : "cubecore0");
    put_cycles(w, r);
    put_source(w, r, debug_line);
    fputs("}}", w->out);
  }
}

/* The cost table the timeline was computed with, so a reader (and the
** independent timeline check) knows each pipe's issue rate, latency,
** bandwidth and request limit without this code. */
static void put_costs(FILE *out, const sl_pipe_arch *a) {
  fprintf(out, "    \"dispatch_cycles\": %u, \"flag_cycles\": %u, \"pipe_costs\": {", a->dispatch, a->flag_cycles);
  for (size_t k = 0; k < N_LANES; k++) {
    const sl_pipe_cost *c = &a->pipe[lane_order[k]];
    fprintf(out, "%s\"%s\": {\"issue\": %u, \"latency\": %u, \"per_cycle\": %u, \"outstanding\": %u}",
            k ? ", " : "", sl_pipe_lane_name(lane_order[k]), c->issue, c->latency, c->per_cycle, c->outstanding);
  }
  fputs("}", out);
}

int sl_pipe_write_insight(const sl_pipe_model *m, FILE *out, int debug_line) {
  writer w = {.out = out, .first = 1, .m = m};
  char pids[SL_SUBCORE_COUNT][32];
  long id = 1;
  fputs("{\n  \"traceEvents\": [", out);
  for (int c = 0; c < SL_SUBCORE_COUNT; c++) {
    snprintf(pids[c], sizeof pids[c], "core0.%s", sl_subcore_names[c]);
    const sl_pipe_stream *s = &m->core[c];
    w.core = c;
    if (!s->ran && !m->arch->export_idle_subcores) continue;
    put_meta(&w, pids[c], NULL, "process_name", "name", pids[c], 0);
    put_meta(&w, pids[c], NULL, "process_sort_index", "sort_index", NULL, c);
    long sort = 0;
    for (size_t k = 0; k < N_LANES; k++) {
      sl_pipe p = lane_order[k];
      if (!sl_subcore_has_pipe((sl_subcore)c, p)) continue;
      put_meta(&w, pids[c], sl_pipe_lane_name(p), "thread_name", "name", sl_pipe_lane_name(p), 0);
      put_meta(&w, pids[c], sl_pipe_lane_name(p), "thread_sort_index", "sort_index", NULL, sort++);
    }
    for (size_t i = 0; i < s->n; i++) {
      const sl_pipe_rec *r = &s->recs[i];
      if (r->kind == SL_REC_SET || r->kind == SL_REC_WAIT) put_flag(&w, pids[c], r, id++, debug_line);
      else put_slice(&w, pids[c], r, debug_line);
    }
  }

  /* what the kernels issued, so a reader can tell a cut trace from a short run */
  uint64_t mmad = 0, fix = 0;
  for (int c = 0; c < SL_SUBCORE_COUNT; c++)
    for (size_t i = 0; i < m->core[c].n; i++) {
      const sl_pipe_rec *r = &m->core[c].recs[i];
      if (r->kind != SL_REC_OP) continue;
      mmad += !strcmp(r->mnemonic, "MMAD");
      fix += !strcmp(r->mnemonic, "FIX_L0C_TO_DST");
    }
  fprintf(out,
          "\n  ],\n  \"displayTimeUnit\": \"ns\",\n  \"otherData\": {\"arch\": \"%s\", \"core_mhz\": %u, "
          "\"makespan_cycles\": %" PRIu64 ", \"issued\": {\"MMAD\": %" PRIu64 ", \"FIX_L0C_TO_DST\": %" PRIu64 "},\n",
          sl_pipe_arch_name(m->arch), m->arch->core_mhz, sl_pipe_makespan(m), mmad, fix);
  put_costs(out, m->arch);
  fputs("}\n}\n", out);
  return ferror(out) ? -1 : 0;
}
