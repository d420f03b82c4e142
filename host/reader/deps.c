/*
** deps.c — dep_gen's deps.json, streamed with yajl, into the three maps the
** converter and the overhead analysis use (docs/reader.md): the edge
** map (deduplicated, first-appearance order), the kernel map and the block map,
** each "None" under the reference's rules.
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

typedef struct kentry { uint64_t id; int64_t kids[3]; } kentry;
typedef struct bentry { uint64_t id; int64_t block; } bentry;

typedef struct dparser {
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
  kentry *kent;
  size_t n_kent, cap_kent;
  bentry *bent;
  size_t n_bent, cap_bent;
} dparser;

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
    if (p->t_kids_ok && p->t_nkids == 3) {
      kentry *k = sl_array_push(p->kent, p->n_kent, p->cap_kent);
      k->id = p->t_id;
      memcpy(k->kids, p->t_kids, sizeof k->kids);
    }
    bentry *b = sl_array_push(p->bent, p->n_bent, p->cap_bent);
    b->id = p->t_id;
    b->block = p->t_block < 1 ? 1 : p->t_block;
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

/* ---- building the maps ---------------------------------------------------------------- */

/* Number the pred ids by first appearance (d->preds, d->pred_index) and drop repeated
** (pred, succ) pairs in place, keeping the first. A pair is one uint64 key once both
** ids are dense numbers below 2^32: the pred's index and the succ's index in a
** temporary numbering. Returns the number of pairs kept. */
static size_t dedup_edges(sl_deps *d, dparser *p) {
  sl_map succ_num, pairs;
  sl_map_init(&succ_num, SL_MAP_U64);
  sl_map_init(&pairs, SL_MAP_U64);
  size_t cap_preds = 0, n = 0;
  for (size_t i = 0; i < p->n_edges; i++) {
    int added;
    uint64_t *slot = sl_map_u64_ref(&d->pred_index, p->edges[i].pred, &added);
    if (added) {
      *slot = d->n_preds;
      d->preds = sl_array_grow(d->preds, &cap_preds, d->n_preds + 1, sizeof *d->preds);
      d->preds[d->n_preds++] = p->edges[i].pred;
    }
    uint64_t k = *slot;
    slot = sl_map_u64_ref(&succ_num, p->edges[i].succ, &added);
    if (added) *slot = succ_num.n - 1;
    sl_map_u64_ref(&pairs, k << 32 | *slot, &added);
    if (added) p->edges[n++] = p->edges[i];
  }
  sl_map_free(&succ_num);
  sl_map_free(&pairs);
  return n;
}

/* The slot of key in index, numbering a new key n (and counting it in *n). */
static size_t index_of(sl_map *index, uint64_t key, size_t *n) {
  int added;
  uint64_t *slot = sl_map_u64_ref(index, key, &added);
  if (added) *slot = (*n)++;
  return (size_t)*slot;
}

static size_t lookup(const sl_map *index, uint64_t key) {
  uint64_t k = 0;
  sl_map_u64_get(index, key, &k);
  return (size_t)k;
}

/* off[0..nkeys] from per-key counts; returns a copy to fill from (sl_mem_free it). */
static size_t *offsets(size_t **off, const size_t *cnt, size_t nkeys) {
  *off = sl_mem_array(NULL, nkeys + 1, sizeof **off);
  (*off)[0] = 0;
  for (size_t i = 0; i < nkeys; i++) (*off)[i + 1] = (*off)[i] + cnt[i];
  size_t *fill = sl_mem_array(NULL, nkeys + 1, sizeof *fill);
  memcpy(fill, *off, (nkeys + 1) * sizeof *fill);
  return fill;
}

static void build_edges(sl_deps *d, dparser *p) {
  size_t n = d->n_edges = dedup_edges(d, p);
  /* succs grouped by pred, in edge order */
  size_t *cnt = sl_mem_calloc(d->n_preds + 1, sizeof *cnt);
  for (size_t i = 0; i < n; i++) cnt[lookup(&d->pred_index, p->edges[i].pred)]++;
  size_t *fill = offsets(&d->succ_off, cnt, d->n_preds);
  d->succs = sl_mem_array(NULL, n ? n : 1, sizeof *d->succs);
  for (size_t i = 0; i < n; i++) d->succs[fill[lookup(&d->pred_index, p->edges[i].pred)]++] = p->edges[i].succ;
  sl_mem_free(cnt);
  sl_mem_free(fill);
  /* inverted map, in the order of walking preds then their succs */
  size_t cap_keys = 0;
  cnt = sl_mem_calloc(n + 1, sizeof *cnt);
  for (size_t i = 0; i < n; i++) {
    size_t before = d->n_succ_keys, k = index_of(&d->succ_index, d->succs[i], &d->n_succ_keys);
    if (d->n_succ_keys != before) {
      d->succ_keys = sl_array_grow(d->succ_keys, &cap_keys, d->n_succ_keys, sizeof *d->succ_keys);
      d->succ_keys[k] = d->succs[i];
    }
    cnt[k]++;
  }
  fill = offsets(&d->pred_off, cnt, d->n_succ_keys);
  d->pred_list = sl_mem_array(NULL, n ? n : 1, sizeof *d->pred_list);
  for (size_t i = 0; i < d->n_preds; i++)
    for (size_t j = d->succ_off[i]; j < d->succ_off[i + 1]; j++)
      d->pred_list[fill[lookup(&d->succ_index, d->succs[j])]++] = d->preds[i];
  sl_mem_free(cnt);
  sl_mem_free(fill);
  d->has_edges = 1;
}

static void build_tasks(sl_deps *d, dparser *p) {
  size_t cap = 0, capk = 0;
  for (size_t i = 0; i < p->n_kent; i++) { /* later duplicates overwrite the value */
    size_t before = d->n_kernel, k = index_of(&d->kernel_index, p->kent[i].id, &d->n_kernel);
    if (d->n_kernel != before) {
      d->kernel_task = sl_array_grow(d->kernel_task, &cap, d->n_kernel, sizeof *d->kernel_task);
      d->kernel_ids = sl_array_grow(d->kernel_ids, &capk, d->n_kernel, sizeof *d->kernel_ids);
      d->kernel_task[k] = p->kent[i].id;
    }
    memcpy(d->kernel_ids[k], p->kent[i].kids, sizeof d->kernel_ids[k]);
  }
  d->has_kernel_map = d->n_kernel > 0;
  size_t capt = 0, capb = 0;
  for (size_t i = 0; i < p->n_bent; i++) {
    size_t before = d->n_block, k = index_of(&d->block_index, p->bent[i].id, &d->n_block);
    if (d->n_block != before) {
      d->block_task = sl_array_grow(d->block_task, &capt, d->n_block, sizeof *d->block_task);
      d->block_num = sl_array_grow(d->block_num, &capb, d->n_block, sizeof *d->block_num);
      d->block_task[k] = p->bent[i].id;
    }
    d->block_num[k] = p->bent[i].block;
  }
  d->has_block_map = d->n_block > 0;
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
  sl_map_init(&d->pred_index, SL_MAP_U64);
  sl_map_init(&d->succ_index, SL_MAP_U64);
  sl_map_init(&d->kernel_index, SL_MAP_U64);
  sl_map_init(&d->block_index, SL_MAP_U64);
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
  p->ctx[0] = D_SKIP;
  char err[256] = "";
  parse_json(p, fp, data, len, err, sizeof err);
  if (err[0]) {
    deps_invalid(d, err);
  } else {
    if (!p->saw_edges_array) (void)sl_err_set(&d->warning, name, "has no 'edges' array");
    else build_edges(d, p);
    build_tasks(d, p);
  }
  sl_mem_free(p->edges);
  sl_mem_free(p->kent);
  sl_mem_free(p->bent);
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
  sl_mem_free(d->preds);
  sl_mem_free(d->succ_off);
  sl_mem_free(d->succs);
  sl_map_free(&d->pred_index);
  sl_mem_free(d->succ_keys);
  sl_mem_free(d->pred_off);
  sl_mem_free(d->pred_list);
  sl_map_free(&d->succ_index);
  sl_mem_free(d->kernel_task);
  sl_mem_free(d->kernel_ids);
  sl_map_free(&d->kernel_index);
  sl_mem_free(d->block_task);
  sl_mem_free(d->block_num);
  sl_map_free(&d->block_index);
  sl_mem_free(d);
}

const uint64_t *sl_deps_succs(const sl_deps *d, uint64_t pred, size_t *n) {
  uint64_t k;
  *n = 0;
  if (!d || !d->has_edges || !sl_map_u64_get(&d->pred_index, pred, &k)) return NULL;
  *n = d->succ_off[k + 1] - d->succ_off[k];
  return d->succs + d->succ_off[k];
}

const uint64_t *sl_deps_preds(const sl_deps *d, uint64_t succ, size_t *n) {
  uint64_t k;
  *n = 0;
  if (!d || !d->has_edges || !sl_map_u64_get(&d->succ_index, succ, &k)) return NULL;
  *n = d->pred_off[k + 1] - d->pred_off[k];
  return d->pred_list + d->pred_off[k];
}

const int64_t *sl_deps_kernel_ids(const sl_deps *d, uint64_t task_id) {
  uint64_t k;
  if (!d || !d->has_kernel_map || !sl_map_u64_get(&d->kernel_index, task_id, &k)) return NULL;
  return d->kernel_ids[k];
}

int64_t sl_deps_block_num(const sl_deps *d, uint64_t task_id) {
  uint64_t k;
  if (!d || !d->has_block_map || !sl_map_u64_get(&d->block_index, task_id, &k)) return 0;
  return d->block_num[k];
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
