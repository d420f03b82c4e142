/*
** l3_ranks.c — read the ranks in parallel, draw them in rank order.
**
** Reading a capture (and its deps.json) is most of a conversion, so up to
** o.jobs ranks are read on their own threads while the merged trace is written;
** each rank is freed as soon as it has been drawn, which bounds memory to about
** o.jobs + 1 ranks whatever their number.
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "l3.h"
#include "sl_base.h"
#include "sl_mem.h"
#include "sl_convert.h"

typedef struct load_job {
  pthread_t thread;
  l3_rank *r;
  int started, rc;
} load_job;

/* An error or warning of a library onto the rank's notes (nothing when none is set). */
static void note_err(l3_rank *r, int warning, const sl_err *e) {
  if (sl_err_is_set(e)) sl_notes_add(&r->notes, warning, e->file, "%s", e->msg);
}

/* Reads rank r on its own thread; prints nothing: what it finds goes on r->notes. */
static void *load_main(void *arg) {
  load_job *j = arg;
  l3_rank *r = j->r;
  j->rc = -1;
  sl_err err = SL_ERR_INIT;
  r->cap = sl_capture_load(r->records, NULL, &err);
  if (!r->cap) { /* the reader's reason, then whose capture it was */
    note_err(r, 0, &err);
    sl_err_clear(&err);
    sl_notes_add(&r->notes, 0, r->records, "rank %d: its capture of dispatch d%d cannot be read (nothing is written)",
                 r->rank, r->dnum);
    return NULL;
  }
  for (size_t i = 0; i < r->cap->n_warnings; i++) sl_notes_add(&r->notes, 1, r->cap->path, "%s", r->cap->warnings[i]);
  char *deps_path = sl_path_join(r->dir, "deps.json");
  r->deps = sl_deps_load(deps_path);
  sl_mem_free(deps_path);
  note_err(r, 1, &r->deps->warning);
  if (r->deps->has_kernel_map) sl_capture_resolve_func_ids(r->cap, r->deps);
  char *names_path = NULL;
  sl_err many = SL_ERR_INIT;
  int found = sl_namemap_discover(r->records, &names_path, &many);
  note_err(r, 1, &many);
  sl_err_clear(&many);
  if (found == 1) {
    r->names = sl_namemap_load(names_path);
    sl_mem_free(names_path);
    if (!r->names) return NULL;
  }
  j->rc = 0;
  return NULL;
}

static void start(load_job *j, l3_rank *r) {
  j->r = r;
  j->started = pthread_create(&j->thread, NULL, load_main, j) == 0;
  if (!j->started) load_main(j); /* no thread: read it here */
}

static int finish(load_job *j) {
  if (j->started) pthread_join(j->thread, NULL);
  j->started = 0;
  return j->rc;
}

static void release(l3_rank *r) {
  sl_capture_free(r->cap);
  sl_deps_free(r->deps);
  sl_namemap_free(r->names);
  r->cap = NULL;
  r->deps = NULL;
  r->names = NULL;
}

/* Every note of `from` appended to `to`, in order; `from` is left empty. */
static void take_notes(sl_notes *to, sl_notes *from) {
  for (size_t i = 0; i < from->n; i++)
    sl_notes_add(to, from->v[i].warning, from->v[i].what.file, "%s", from->v[i].what.msg);
  sl_notes_free(from);
}

/* Draw one loaded rank through its namespacing sink. */
static int draw(l3_run *run, l3_rank *r, sl_trace_sink *sink) {
  if (l3_place_capture(run, r)) return -1;
  sl_rules *rules = sl_rules_load(run->o.rules);
  if (!rules) return -1;
  sl_trace_sink *ks = l3_sink_new(sink, r);
  int rc = -1;
  if (ks) {
    sl_convert_opts opts = {.verbose = 0, .overhead = 0, .out = stdout};
    sl_convert_result res;
    memset(&res, 0, sizeof res);
    rc = sl_convert_emit(r->cap, r->deps->has_edges ? r->deps : NULL, r->names, rules, ks, &opts, &res);
    take_notes(&run->notes, &res.warnings);
    if (rc && !sl_rules_failed(rules)) sl_notes_add(&run->notes, 0, r->records, "rank %d: conversion failed", r->rank);
    r->engine_meta = l3_sink_take_meta(ks);
    if (!run->o.quiet)
      printf("  rank%d/d%d: %zu tasks, slack %lld ns, join residual %s%lld ns, %llu events\n", r->rank, r->dnum,
             r->cap->n_tasks, (long long)r->slack_ns, r->has_residual ? "" : "(unknown) ",
             (long long)r->residual_ns, (unsigned long long)res.total_events);
    sl_sink_destroy(ks);
  }
  sl_rules_free(rules);
  return rc;
}

int l3_emit_ranks(l3_run *run, sl_trace_sink *sink) {
  size_t jobs = run->o.jobs > 0 ? (size_t)run->o.jobs : 2;
  load_job *lj = sl_mem_calloc(run->n, sizeof *lj);
  size_t next = 0;
  for (; next < run->n && next < jobs; next++) start(&lj[next], &run->ranks[next]);
  int rc = 0;
  for (size_t i = 0; i < run->n; i++) {
    int lrc = finish(&lj[i]);
    if (rc == 0) take_notes(&run->notes, &run->ranks[i].notes); /* after a failure: the first error only */
    if (rc == 0 && (lrc || draw(run, &run->ranks[i], sink))) rc = -1;
    release(&run->ranks[i]);
    if (rc == 0 && next < run->n) start(&lj[next], &run->ranks[next]), next++;
  }
  for (size_t i = 0; i < next; i++) finish(&lj[i]); /* after a failure: wait, then drop */
  for (size_t i = 0; i < next; i++) release(&run->ranks[i]);
  sl_mem_free(lj);
  return rc;
}
