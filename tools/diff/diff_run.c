/*
** diff_run.c — one side of a diff: the capture read by tools/reader, its sibling
** deps.json and name map, and the rows folded into logical tasks with a DAG depth.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "convert_labels.h"
#include "sl_base.h"
#include "sl_diff.h"
#include "sl_mem.h"

/* "<dir of path>/deps.json" */
static char *sibling_deps(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return sl_mem_strdup("deps.json");
  return sl_mem_printf("%.*s/deps.json", (int)(slash - path), path);
}

static int is_file(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

int sl_diff_run_load(sl_diff_run *r, const char *path) {
  memset(r, 0, sizeof *r);
  r->path = path;
  if (!is_file(path)) {
    sl_error(path, "capture not found");
    return -1;
  }
  sl_read_opts ro = {.quiet = 1};
  r->cap = sl_capture_read(path, &ro);
  if (!r->cap) return -1;
  if (r->cap->n_tasks == 0) {
    sl_error(path, "empty capture: no AICore task records to compare");
    return -1;
  }
  char *dp = sibling_deps(path);
  r->deps = sl_deps_load(dp);
  sl_mem_free(dp);
  if (r->deps->has_kernel_map) sl_capture_resolve_func_ids(r->cap, r->deps);
  char *np = NULL;
  sl_err many = SL_ERR_INIT;
  int found = sl_namemap_discover(path, &np, &many);
  sl_err_warn(&many);
  sl_err_clear(&many);
  if (found == 1) {
    r->names = sl_namemap_load(np);
    sl_mem_free(np);
    if (!r->names) return -1;
  }
  sl_diff_run_index(r);
  return 0;
}

void sl_diff_run_free(sl_diff_run *r) {
  sl_capture_free(r->cap);
  sl_deps_free(r->deps);
  sl_namemap_free(r->names);
  sl_mem_free(r->tasks);
  memset(r, 0, sizeof *r);
}

static int cmp_task(const void *a, const void *b) {
  const sl_diff_task *p = a, *q = b;
  if (p->func_id != q->func_id) return p->func_id < q->func_id ? -1 : 1;
  if (p->task_id != q->task_id) return p->task_id < q->task_id ? -1 : 1;
  return p->first_row < q->first_row ? -1 : p->first_row > q->first_row;
}

static int cmp_position(const void *a, const void *b) {
  const sl_diff_task *p = *(sl_diff_task *const *)a, *q = *(sl_diff_task *const *)b;
  if (p->func_id != q->func_id) return p->func_id < q->func_id ? -1 : 1;
  if (p->depth != q->depth) return p->depth < q->depth ? -1 : 1;
  return p->task_id < q->task_id ? -1 : p->task_id > q->task_id;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* depth(t) = 1 + max depth of its predecessors, visiting ids in ascending order:
** the runtime numbers tasks in submission order and a task only depends on earlier
** submissions, so every predecessor is done first (a later one counts as a root). */
static void compute_depths(sl_diff_run *r) {
  size_t n = r->n_tasks;
  sl_map idx = {0}; /* task id -> depth */
  uint64_t *ids = sl_mem_array(NULL, n ? n : 1, sizeof *ids);
  for (size_t i = 0; i < n; i++) ids[i] = r->tasks[i].task_id;
  qsort(ids, n, sizeof *ids, cmp_u64);
  for (size_t i = 0; i < n; i++) {
    if (i && ids[i] == ids[i - 1]) continue;
    size_t np;
    const uint64_t *p = sl_deps_preds(r->deps, ids[i], &np);
    uint64_t depth = 0, pd;
    for (size_t j = 0; j < np; j++)
      if (p[j] != ids[i] && sl_map_u64_get(&idx, p[j], &pd) && pd + 1 > depth) depth = pd + 1;
    sl_map_u64_put(&idx, ids[i], depth);
  }
  for (size_t i = 0; i < n; i++) {
    uint64_t depth = 0;
    sl_map_u64_get(&idx, r->tasks[i].task_id, &depth);
    r->tasks[i].depth = (uint32_t)depth;
  }
  sl_mem_free(ids);
  sl_map_free(&idx);
}

/* ordinal: rank within (func_id, depth) by task id */
static void compute_ordinals(sl_diff_run *r) {
  sl_diff_task **v = sl_mem_alloc((r->n_tasks ? r->n_tasks : 1) * sizeof *v);
  for (size_t i = 0; i < r->n_tasks; i++) v[i] = &r->tasks[i];
  qsort(v, r->n_tasks, sizeof *v, cmp_position);
  for (size_t i = 0; i < r->n_tasks; i++) {
    int same = i && v[i]->func_id == v[i - 1]->func_id && v[i]->depth == v[i - 1]->depth;
    v[i]->ordinal = same ? v[i - 1]->ordinal + 1 : 0;
  }
  sl_mem_free(v);
}

/* The run's extent: dispatch .. finish when every row has scheduler timing (the
** summary's "Total Test Time"), else the AICore span (receive .. end). */
static void run_bounds(sl_diff_run *r) {
  const sl_capture *c = r->cap;
  int timed = 1;
  for (size_t i = 0; i < c->n_tasks; i++) timed &= !!(c->tasks[i].flags & SL_TASK_HAS_SCHED);
  r->t0 = INFINITY;
  r->t1 = -INFINITY;
  for (size_t i = 0; i < c->n_tasks; i++) {
    const sl_task *t = &c->tasks[i];
    double a = timed ? t->dispatch_us : t->receive_us, b = timed ? t->finish_us : t->end_us;
    if (a < r->t0) r->t0 = a;
    if (b > r->t1) r->t1 = b;
  }
  r->makespan = r->t1 - r->t0;
}

void sl_diff_run_index(sl_diff_run *r) {
  const sl_capture *c = r->cap;
  sl_mem_free(r->tasks);
  r->n_tasks = 0;
  r->tasks = sl_mem_alloc((c->n_tasks ? c->n_tasks : 1) * sizeof *r->tasks);
  for (size_t i = 0; i < c->n_tasks; i++) {
    const sl_task *t = &c->tasks[i];
    r->tasks[i] = (sl_diff_task){.func_id = t->func_id, .task_id = t->task_id,
                                 .start = t->start_us, .end = t->end_us, .first_row = i};
  }
  qsort(r->tasks, c->n_tasks, sizeof *r->tasks, cmp_task);
  /* fold rows of one (func_id, task id) */
  size_t n = 0;
  for (size_t i = 0; i < c->n_tasks; i++) {
    sl_diff_task *t = &r->tasks[i], *last = n ? &r->tasks[n - 1] : NULL;
    if (last && last->func_id == t->func_id && last->task_id == t->task_id) {
      if (t->start < last->start) last->start = t->start;
      if (t->end > last->end) last->end = t->end;
      continue;
    }
    r->tasks[n++] = *t;
  }
  r->n_tasks = n;
  for (size_t i = 0; i < n; i++) r->tasks[i].exec = r->tasks[i].end - r->tasks[i].start;
  compute_depths(r);
  compute_ordinals(r);
  run_bounds(r);
}

const char *sl_diff_func_name(const sl_diff_run *r, int64_t func_id, char *buf) {
  const char *m = r->names && func_id >= 0 ? sl_namemap_lookup(r->names, func_id) : NULL;
  if (m) {
    snprintf(buf, 64, "%s", m);
    return buf;
  }
  char def[48];
  snprintf(buf, 64, "%s", sl_func_default_name(def, func_id));
  return buf;
}

static int str_differs(const sl_capture *a, sl_str x, const sl_capture *b, sl_str y) {
  const char *p = sl_str_get(a, x), *q = sl_str_get(b, y);
  return p && q && strcmp(p, q) != 0;
}

/* The workload: same orchestrator, and no function id named differently. */
static int same_workload(const sl_diff_run *b, const sl_diff_run *n) {
  if (!b->names || !n->names) return 1;
  const char *ob = b->names->orchestrator_name, *on = n->names->orchestrator_name;
  if (ob && on && strcmp(ob, on) != 0) {
    sl_error(n->path, "a different workload: orchestrator '%s', the base (%s) has '%s'", on,
             b->path, ob);
    return 0;
  }
  for (size_t i = 0; i < n->names->n; i++) {
    long long id = strtoll(n->names->keys[i], NULL, 10);
    const char *other = sl_namemap_lookup(b->names, id);
    if (other && strcmp(other, n->names->names[i]) != 0) {
      sl_error(n->path, "a different workload: func_id %lld is '%s', in the base (%s) '%s'", id,
               n->names->names[i], b->path, other);
      return 0;
    }
  }
  return 1;
}

int sl_diff_runs_comparable(const sl_diff_run *base, const sl_diff_run *cur) {
  const sl_capture *b = base->cap, *n = cur->cap;
  if (str_differs(b, b->schema_fingerprint, n, n->schema_fingerprint)) {
    sl_error(cur->path, "a different schema layout (fingerprint %s, the base %s has %s)",
             sl_str_get(n, n->schema_fingerprint), base->path, sl_str_get(b, b->schema_fingerprint));
    return -1;
  }
  if (str_differs(b, b->platform, n, n->platform)) {
    sl_error(cur->path, "captured on %s, the base %s on %s", sl_str_get(n, n->platform),
             base->path, sl_str_get(b, b->platform));
    return -1;
  }
  if (!same_workload(base, cur)) return -1;
  /* without name maps: at least one function in common */
  size_t i = 0, j = 0;
  while (i < base->n_tasks && j < cur->n_tasks) {
    int64_t x = base->tasks[i].func_id, y = cur->tasks[j].func_id;
    if (x == y) return 0;
    if (x < y) i++;
    else j++;
  }
  sl_error(cur->path, "a different workload: no function in common with the base %s", base->path);
  return -1;
}
