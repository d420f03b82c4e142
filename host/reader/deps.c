/*
** deps.c — dep_gen's deps.json, streamed with yajl, into the three maps the
** converter and the overhead analysis use (docs/reader.md): the edge
** map (deduplicated, first-appearance order), the kernel map and the block map,
** each "None" under the reference's rules.
**
** Memory: one hash map numbers every id once (d->nodes); each map is plain arrays the
** node names by index, so a 1M-task deps.json costs one map, not four.
** Order of work:
**   1. parsing: a task entry goes straight into the kernel and block arrays (first
**      appearance numbers it, a later duplicate overwrites its value); edges are
**      collected as (pred, succ) pairs;
**   2. edges: preds numbered by first appearance, succs grouped per pred in edge order
**      (counting sort), then repeated succs dropped inside each group keeping the first,
**      which is the whole list's first-kept (pred, succ) pair order;
**   3. the inverted map by walking the groups pred by pred.
** A parse error leaves every map None (arrays emptied), as the reference reads nothing.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yajl/yajl_parse.h>

#include "reader_util.h"
#include "sl_capture.h"
#include "sl_map.h"
#include "sl_mem.h"
#include "sl_vec.h"

enum { D_ROOT, D_TASKS, D_TASK, D_KIDS, D_EDGES, D_EDGE, D_SKIP };

typedef struct edge { uint64_t pred, succ; } edge;

typedef struct dparser {
  sl_deps *d;             /* tasks are stored into it as they close */
  size_t cap_nodes, cap_ktask, cap_kids, cap_btask, cap_bnum;
  int depth;
  uint8_t ctx[64];
  char key[32];
  size_t keylen;
  int deep;               /* nesting beyond the stack: treated as skipped */
  int saw_edges_array, saw_tasks_array;
  /* current edge */
  int e_has_pred, e_has_succ;
  uint64_t e_pred, e_succ;
  /* current task */
  int t_has_id, t_kids_ok, t_block_ok;
  size_t t_nkids;
  uint64_t t_id;
  int64_t t_kids[3], t_block;
  /* collected */
  edge *edges;
  size_t n_edges, cap_edges;
} dparser;

/* The node of an id, numbered on first sight. */
static sl_deps_node *node_of(dparser *p, uint64_t id) {
  sl_deps *d = p->d;
  int added;
  uint64_t *slot = sl_map_u64_ref(&d->node_index, id, &added);
  if (added) {
    if (d->n_nodes >= UINT32_MAX) sl_mem_fail(SIZE_MAX); /* 2^32 ids: no room to number them */
    *slot = d->n_nodes;
    *sl_array_push(d->nodes, d->n_nodes, p->cap_nodes) = (sl_deps_node){0, 0, 0, 0};
  }
  return &d->nodes[*slot];
}

static const sl_deps_node *node_find(const sl_deps *d, uint64_t id) {
  uint64_t k;
  return sl_map_u64_get(&d->node_index, id, &k) ? &d->nodes[k] : NULL;
}

/* A task entry with an id: its kernel_ids (when a list of three ints) and block_num. */
static void add_task(dparser *p) {
  sl_deps *d = p->d;
  sl_deps_node *nd = node_of(p, p->t_id);
  if (p->t_kids_ok && p->t_nkids == 3) {
    if (!nd->kernel) {
      *sl_array_push(d->kernel_task, d->n_kernel, p->cap_ktask) = p->t_id;
      d->kernel_ids = sl_array_grow(d->kernel_ids, &p->cap_kids, d->n_kernel, sizeof *d->kernel_ids);
      nd->kernel = (uint32_t)d->n_kernel;
    }
    memcpy(d->kernel_ids[nd->kernel - 1], p->t_kids, sizeof d->kernel_ids[0]);
  }
  if (!nd->block) {
    *sl_array_push(d->block_task, d->n_block, p->cap_btask) = p->t_id;
    d->block_num = sl_array_grow(d->block_num, &p->cap_bnum, d->n_block, sizeof *d->block_num);
    nd->block = (uint32_t)d->n_block;
  }
  d->block_num[nd->block - 1] = p->t_block < 1 ? 1 : p->t_block;
}

static int key_is(const dparser *p, const char *k) { return p->keylen == strlen(k) && memcmp(p->key, k, p->keylen) == 0; }

/* int(value) in Python: integer numbers or integer strings. */
static int as_int(const char *s, size_t len, int64_t *out) {
  uint64_t u;
  if (sl_normalize_id(s, len, &u) != 0) return -1;
  *out = (int64_t)u;
  return 0;
}

static int top(const dparser *p) { return p->deep ? D_SKIP : p->ctx[p->depth]; }

static int on_value(dparser *p, int is_str, const char *s, size_t len, int is_null_or_bool) {
  switch (top(p)) {
  case D_EDGE:
    if (key_is(p, "pred") || key_is(p, "succ")) {
      uint64_t v = 0;
      int ok = !is_null_or_bool && sl_normalize_id(s, len, &v) == 0;
      if (key_is(p, "pred")) {
        p->e_has_pred = ok;
        p->e_pred = v;
      } else {
        p->e_has_succ = ok;
        p->e_succ = v;
      }
    }
    break;
  case D_TASK:
    if (key_is(p, "task_id")) {
      p->t_has_id = !is_null_or_bool && sl_normalize_id(s, len, &p->t_id) == 0;
    } else if (key_is(p, "block_num")) {
      int64_t b;
      p->t_block = (!is_null_or_bool && as_int(s, len, &b) == 0) ? b : 1;
      p->t_block_ok = 1;
    } else if (key_is(p, "kernel_ids")) {
      p->t_kids_ok = 0; /* not a list */
    }
    break;
  case D_KIDS: {
    int64_t k;
    if (p->t_nkids < 3 && !is_null_or_bool && as_int(s, len, &k) == 0)
      p->t_kids[p->t_nkids] = k;
    else
      p->t_kids_ok = 0;
    p->t_nkids++;
    break;
  }
  default:
    break;
  }
  (void)is_str;
  return 1;
}

static int cb_null(void *ctx) { return on_value(ctx, 0, "", 0, 1); }
static int cb_bool(void *ctx, int b) { (void)b; return on_value(ctx, 0, "", 0, 1); }
static int cb_number(void *ctx, const char *s, size_t len) { return on_value(ctx, 0, s, len, 0); }
static int cb_string(void *ctx, const unsigned char *s, size_t len) { return on_value(ctx, 1, (const char *)s, len, 0); }

static int cb_map_key(void *ctx, const unsigned char *k, size_t len) {
  dparser *p = ctx;
  size_t n = len < sizeof p->key ? len : sizeof p->key;
  memcpy(p->key, k, n);
  p->keylen = len < sizeof p->key ? len : sizeof p->key + 1;
  return 1;
}

static int open_container(dparser *p, int is_map) {
  int t = top(p), child = D_SKIP;
  if (p->depth == 0 && !p->deep && p->ctx[0] == D_SKIP && is_map) { /* the document */
    p->ctx[0] = D_ROOT;
    return 1;
  }
  if (t == D_ROOT && !is_map && key_is(p, "edges")) {
    child = D_EDGES;
    p->saw_edges_array = 1;
  } else if (t == D_ROOT && !is_map && key_is(p, "tasks")) {
    child = D_TASKS;
    p->saw_tasks_array = 1;
  } else if (t == D_EDGES && is_map) {
    child = D_EDGE;
    p->e_has_pred = p->e_has_succ = 0;
  } else if (t == D_TASKS && is_map) {
    child = D_TASK;
    p->t_has_id = p->t_kids_ok = p->t_block_ok = 0;
    p->t_nkids = 0;
    p->t_block = 1;
  } else if (t == D_TASK && key_is(p, "kernel_ids")) {
    if (!is_map) {
      child = D_KIDS;
      p->t_kids_ok = 1;
      p->t_nkids = 0;
    } else {
      p->t_kids_ok = 0;
    }
  } else if (t == D_TASK && key_is(p, "block_num")) {
    p->t_block = 1; /* int([..]) fails -> 1 */
    p->t_block_ok = 1;
  } else if (t == D_TASK && key_is(p, "task_id")) {
    p->t_has_id = 0;
  } else if (t == D_KIDS) {
    p->t_kids_ok = 0;
    p->t_nkids++;
  } else if (t == D_EDGE && (key_is(p, "pred") || key_is(p, "succ"))) {
    if (key_is(p, "pred")) p->e_has_pred = 0; else p->e_has_succ = 0;
  }
  if (p->deep || p->depth + 1 >= (int)sizeof p->ctx) {
    p->deep++;
    return 1;
  }
  p->ctx[++p->depth] = (uint8_t)child;
  return 1;
}

static int close_container(dparser *p) {
  if (p->deep) {
    p->deep--;
    return 1;
  }
  int t = p->ctx[p->depth];
  if (t == D_EDGE && p->e_has_pred && p->e_has_succ) {
    edge *e = sl_array_push(p->edges, p->n_edges, p->cap_edges);
    e->pred = p->e_pred;
    e->succ = p->e_succ;
  } else if (t == D_TASK && p->t_has_id) {
    add_task(p);
  }
  if (p->depth > 0) p->depth--;
  return 1;
}

static int cb_start_map(void *ctx) { return open_container(ctx, 1); }
static int cb_start_array(void *ctx) { return open_container(ctx, 0); }
static int cb_end(void *ctx) { return close_container(ctx); }

static const yajl_callbacks callbacks = {
  cb_null, cb_bool, NULL, NULL, cb_number, cb_string,
  cb_start_map, cb_map_key, cb_end, cb_start_array, cb_end,
};

/* ---- building the edge maps ----------------------------------------------------------- */

/* off[0..nkeys] from per-key counts; returns a copy to fill from (sl_mem_free it). */
static size_t *offsets(size_t **off, const size_t *cnt, size_t nkeys) {
  *off = sl_mem_array(NULL, nkeys + 1, sizeof **off);
  (*off)[0] = 0;
  for (size_t i = 0; i < nkeys; i++) (*off)[i + 1] = (*off)[i] + cnt[i];
  size_t *fill = sl_mem_array(NULL, nkeys + 1, sizeof *fill);
  memcpy(fill, *off, (nkeys + 1) * sizeof *fill);
  return fill;
}

/* Number the preds by first appearance (an edge's pred becomes that number) and group the
** succs by pred in edge order into d->succ_off / d->succs; frees the edge list. */
static void group_edges(sl_deps *d, dparser *p) {
  size_t cap_preds = 0, cap_cnt = 0, *cnt = NULL;
  for (size_t i = 0; i < p->n_edges; i++) {
    sl_deps_node *nd = node_of(p, p->edges[i].pred);
    if (!nd->pred) {
      *sl_array_push(d->preds, d->n_preds, cap_preds) = p->edges[i].pred;
      cnt = sl_array_grow(cnt, &cap_cnt, d->n_preds, sizeof *cnt);
      cnt[d->n_preds - 1] = 0;
      nd->pred = (uint32_t)d->n_preds;
    }
    p->edges[i].pred = nd->pred - 1;
    cnt[nd->pred - 1]++;
  }
  size_t *fill = offsets(&d->succ_off, cnt, d->n_preds);
  d->succs = sl_mem_array(NULL, p->n_edges ? p->n_edges : 1, sizeof *d->succs);
  for (size_t i = 0; i < p->n_edges; i++) d->succs[fill[p->edges[i].pred]++] = p->edges[i].succ;
  sl_mem_free(cnt);
  sl_mem_free(fill);
  sl_mem_free(p->edges);
  p->edges = NULL;
}

/* Drop repeated succs inside each pred's group, keeping the first; sets d->n_edges. A group
** is searched linearly while short, through a set once long. */
static void dedup_groups(sl_deps *d) {
  size_t w = 0;
  sl_map seen;
  sl_map_init(&seen, SL_MAP_U64);
  for (size_t i = 0; i < d->n_preds; i++) {
    size_t lo = d->succ_off[i], hi = d->succ_off[i + 1], start = w;
    int big = hi - lo > 32;
    for (size_t j = lo; j < hi; j++) {
      uint64_t s = d->succs[j];
      int dup = 0;
      if (big) {
        sl_map_u64_ref(&seen, s, &dup);
        dup = !dup;
      } else {
        for (size_t k = start; k < w && !dup; k++) dup = d->succs[k] == s;
      }
      if (!dup) d->succs[w++] = s;
    }
    if (big) {
      sl_map_free(&seen);
      sl_map_init(&seen, SL_MAP_U64);
    }
    d->succ_off[i] = start;
  }
  d->succ_off[d->n_preds] = w;
  sl_map_free(&seen);
  d->n_edges = w;
  if (w) d->succs = sl_mem_array(d->succs, w, sizeof *d->succs);
}

static void build_edges(sl_deps *d, dparser *p) {
  group_edges(d, p);
  dedup_groups(d);
  size_t n = d->n_edges;
  /* inverted map, in the order of walking preds then their succs */
  size_t cap_keys = 0;
  size_t *cnt = sl_mem_calloc(n + 1, sizeof *cnt);
  for (size_t i = 0; i < n; i++) {
    sl_deps_node *nd = node_of(p, d->succs[i]);
    if (!nd->succ) {
      *sl_array_push(d->succ_keys, d->n_succ_keys, cap_keys) = d->succs[i];
      nd->succ = (uint32_t)d->n_succ_keys;
    }
    cnt[nd->succ - 1]++;
  }
  size_t *fill = offsets(&d->pred_off, cnt, d->n_succ_keys);
  d->pred_list = sl_mem_array(NULL, n ? n : 1, sizeof *d->pred_list);
  for (size_t i = 0; i < d->n_preds; i++)
    for (size_t j = d->succ_off[i]; j < d->succ_off[i + 1]; j++)
      d->pred_list[fill[node_find(d, d->succs[j])->succ - 1]++] = d->preds[i];
  sl_mem_free(cnt);
  sl_mem_free(fill);
  d->has_edges = 1;
}

/* Nothing read (a parse error): the task arrays filled while streaming are dropped. */
static void drop_tasks(sl_deps *d) {
  sl_mem_free(d->kernel_task);
  sl_mem_free(d->kernel_ids);
  sl_mem_free(d->block_task);
  sl_mem_free(d->block_num);
  d->kernel_task = NULL;
  d->kernel_ids = NULL;
  d->block_task = NULL;
  d->block_num = NULL;
  d->n_kernel = d->n_block = 0;
}

/* Feed the whole input to yajl (streamed from fp, or data[0..len)); "" or what is
** wrong with it in err. */
static void parse_json(dparser *p, FILE *fp, const void *data, size_t len, char *err, size_t errsz) {
  yajl_handle h = yajl_alloc(&callbacks, NULL, p);
  if (!h) sl_mem_fail(0);
  yajl_status st = yajl_status_ok;
  size_t total = 0, chunk = 1 << 18;
  unsigned char *buf = fp ? sl_mem_alloc(chunk) : NULL;
  const unsigned char *in = data;
  size_t n = len;
  while (st == yajl_status_ok && (!fp || (n = fread(buf, 1, chunk, fp)) > 0)) {
    if (fp) in = buf;
    total += n;
    if (n) st = yajl_parse(h, in, n);
    if (st == yajl_status_error) {
      unsigned char *m = yajl_get_error(h, 0, in, n);
      snprintf(err, errsz, "%s", m ? (char *)m : "parse error");
      if (m) yajl_free_error(h, m);
    }
    if (!fp) break;
  }
  if (fp && ferror(fp) && st == yajl_status_ok) {
    st = yajl_status_error;
    snprintf(err, errsz, "read error");
  }
  sl_mem_free(buf);
  if (st == yajl_status_ok) {
    st = yajl_complete_parse(h);
    if (st != yajl_status_ok) snprintf(err, errsz, "%s", total ? "truncated JSON (premature end of input)" : "empty file");
  }
  yajl_free(h);
  if (st == yajl_status_ok && p->ctx[0] != D_ROOT) snprintf(err, errsz, "the top level is not a JSON object");
  char *nl = strchr(err, '\n');
  if (nl) *nl = 0;
}

static sl_deps *deps_new(const char *name) {
  sl_deps *d = sl_mem_calloc(1, sizeof *d);
  d->path = sl_mem_strdup(name);
  sl_map_init(&d->node_index, SL_MAP_U64);
  return d;
}

/* Every map None (the reference reads nothing from an unreadable file); the warning
** says why. */
static void deps_invalid(sl_deps *d, const char *why) {
  d->status = SL_DEPS_INVALID;
  d->error = sl_mem_strdup(why);
  (void)sl_err_set(&d->warning, d->path, "failed to read deps.json: %s", why);
}

static sl_deps *deps_parse(const char *name, FILE *fp, const void *data, size_t len) {
  sl_deps *d = deps_new(name);
  dparser *p = sl_mem_calloc(1, sizeof *p);
  p->d = d;
  p->ctx[0] = D_SKIP;
  char err[256] = "";
  parse_json(p, fp, data, len, err, sizeof err);
  if (err[0]) {
    deps_invalid(d, err);
    drop_tasks(d);
  } else {
    if (!p->saw_edges_array) (void)sl_err_set(&d->warning, name, "has no 'edges' array");
    else build_edges(d, p);
    d->has_kernel_map = d->n_kernel > 0;
    d->has_block_map = d->n_block > 0;
  }
  sl_mem_free(p->edges);
  sl_mem_free(p);
  return d;
}

sl_deps *sl_deps_load_mem(const char *name, const void *data, size_t len) { return deps_parse(name, NULL, data, len); }

sl_deps *sl_deps_load(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) { /* missing: all maps None, silently */
    int e = errno;
    sl_deps *d = deps_new(path);
    d->status = SL_DEPS_MISSING;
    if (e != ENOENT) deps_invalid(d, strerror(e));
    return d;
  }
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    fclose(f);
    sl_deps *d = deps_new(path);
    deps_invalid(d, "is a directory");
    return d;
  }
  sl_deps *d = deps_parse(path, f, NULL, 0);
  fclose(f);
  return d;
}

void sl_deps_free(sl_deps *d) {
  if (!d) return;
  sl_mem_free(d->path);
  sl_mem_free(d->error);
  sl_err_clear(&d->warning);
  sl_map_free(&d->node_index);
  sl_mem_free(d->nodes);
  sl_mem_free(d->preds);
  sl_mem_free(d->succ_off);
  sl_mem_free(d->succs);
  sl_mem_free(d->succ_keys);
  sl_mem_free(d->pred_off);
  sl_mem_free(d->pred_list);
  sl_mem_free(d->kernel_task);
  sl_mem_free(d->kernel_ids);
  sl_mem_free(d->block_task);
  sl_mem_free(d->block_num);
  sl_mem_free(d);
}

const uint64_t *sl_deps_succs(const sl_deps *d, uint64_t pred, size_t *n) {
  *n = 0;
  const sl_deps_node *nd = d && d->has_edges ? node_find(d, pred) : NULL;
  if (!nd || !nd->pred) return NULL;
  size_t k = nd->pred - 1;
  *n = d->succ_off[k + 1] - d->succ_off[k];
  return d->succs + d->succ_off[k];
}

const uint64_t *sl_deps_preds(const sl_deps *d, uint64_t succ, size_t *n) {
  *n = 0;
  const sl_deps_node *nd = d && d->has_edges ? node_find(d, succ) : NULL;
  if (!nd || !nd->succ) return NULL;
  size_t k = nd->succ - 1;
  *n = d->pred_off[k + 1] - d->pred_off[k];
  return d->pred_list + d->pred_off[k];
}

const int64_t *sl_deps_kernel_ids(const sl_deps *d, uint64_t task_id) {
  const sl_deps_node *nd = d && d->has_kernel_map ? node_find(d, task_id) : NULL;
  return nd && nd->kernel ? d->kernel_ids[nd->kernel - 1] : NULL;
}

int64_t sl_deps_block_num(const sl_deps *d, uint64_t task_id) {
  const sl_deps_node *nd = d && d->has_block_map ? node_find(d, task_id) : NULL;
  return nd && nd->block ? d->block_num[nd->block - 1] : 0;
}

int64_t sl_deps_first_func_id(const sl_deps *d, uint64_t task_id) {
  const int64_t *k = sl_deps_kernel_ids(d, task_id);
  if (!k) return -1;
  for (int i = 0; i < 3; i++)
    if (k[i] >= 0) return k[i];
  return -1;
}

void sl_capture_resolve_func_ids(sl_capture *c, const sl_deps *d) {
  if (!d || !d->has_kernel_map) return;
  sl_str aic = sl_intern_find(&c->strings, "aic", 3);
  for (size_t i = 0; i < c->n_tasks; i++) {
    sl_task *t = &c->tasks[i];
    if (t->func_id >= 0) continue;
    const int64_t *k = sl_deps_kernel_ids(d, t->task_id);
    if (!k) continue;
    if (t->member && k[t->member - 1] >= 0) { /* the capture says which kernel ran here */
      t->func_id = k[t->member - 1];
    } else if (aic != SL_STR_NONE && t->core_type == aic) {
      if (k[0] >= 0) t->func_id = k[0];
    } else if (k[1] >= 0) {
      t->func_id = k[1];
    } else if (k[2] >= 0) {
      t->func_id = k[2];
    }
  }
}
