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
#include "sl_base.h"
#include "sl_capture.h"

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
  int oom;
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
    edge *e = SL_PUSH(p->edges, p->n_edges, p->cap_edges);
    if (!e) return p->oom = 1, 0;
    e->pred = p->e_pred;
    e->succ = p->e_succ;
  } else if (t == D_TASK && p->t_has_id) {
    if (p->t_kids_ok && p->t_nkids == 3) {
      kentry *k = SL_PUSH(p->kent, p->n_kent, p->cap_kent);
      if (!k) return p->oom = 1, 0;
      k->id = p->t_id;
      memcpy(k->kids, p->t_kids, sizeof k->kids);
    }
    bentry *b = SL_PUSH(p->bent, p->n_bent, p->cap_bent);
    if (!b) return p->oom = 1, 0;
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

typedef struct pairset {
  edge *slot;
  uint8_t *used;
  size_t cap;
} pairset;

static size_t pair_hash(uint64_t a, uint64_t b, size_t cap) {
  uint64_t k = a * 0x9e3779b97f4a7c15ULL ^ (b + 0x7f4a7c159e3779b9ULL) * 0xff51afd7ed558ccdULL;
  k ^= k >> 29;
  return (size_t)k & (cap - 1);
}

/* 1 inserted, 0 already present */
static int pairset_add(pairset *s, uint64_t a, uint64_t b) {
  size_t j = pair_hash(a, b, s->cap);
  while (s->used[j]) {
    if (s->slot[j].pred == a && s->slot[j].succ == b) return 0;
    j = (j + 1) & (s->cap - 1);
  }
  s->used[j] = 1;
  s->slot[j].pred = a;
  s->slot[j].succ = b;
  return 1;
}

static int build_edges(sl_deps *d, dparser *p) {
  pairset s = {0};
  s.cap = 64;
  while (s.cap < p->n_edges * 2) s.cap *= 2;
  s.slot = malloc(s.cap * sizeof *s.slot);
  s.used = calloc(s.cap, 1);
  uint32_t *cnt = NULL;
  size_t *fill = NULL;
  if (!s.slot || !s.used) goto oom;
  /* dedup in place, keeping the first occurrence */
  size_t n = 0;
  for (size_t i = 0; i < p->n_edges; i++)
    if (pairset_add(&s, p->edges[i].pred, p->edges[i].succ)) p->edges[n++] = p->edges[i];
  free(s.slot);
  free(s.used);
  s.slot = NULL;
  s.used = NULL;
  d->n_edges = n;
  /* preds by first appearance */
  size_t cap_preds = 0;
  size_t cap_cnt = 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t k;
    if (!sl_u64map_get(&d->pred_index, p->edges[i].pred, &k)) {
      k = (uint32_t)d->n_preds;
      uint64_t *slot = SL_PUSH(d->preds, d->n_preds, cap_preds);
      if (!slot || sl_u64map_put(&d->pred_index, p->edges[i].pred, k) != 0) goto oom;
      *slot = p->edges[i].pred;
      if (sl_grow((void **)&cnt, &cap_cnt, d->n_preds, sizeof *cnt) != 0) goto oom;
      cnt[k] = 0;
    }
    cnt[k]++;
  }
  d->succ_off = malloc((d->n_preds + 1) * sizeof *d->succ_off);
  d->succs = malloc((n ? n : 1) * sizeof *d->succs);
  fill = malloc((d->n_preds + 1) * sizeof *fill);
  if (!d->succ_off || !d->succs || !fill) goto oom;
  d->succ_off[0] = 0;
  for (size_t i = 0; i < d->n_preds; i++) d->succ_off[i + 1] = d->succ_off[i] + cnt[i];
  memcpy(fill, d->succ_off, (d->n_preds + 1) * sizeof *fill);
  for (size_t i = 0; i < n; i++) {
    uint32_t k;
    sl_u64map_get(&d->pred_index, p->edges[i].pred, &k);
    d->succs[fill[k]++] = p->edges[i].succ;
  }
  /* inverted map, in the order of walking preds then their succs */
  free(cnt);
  cnt = NULL;
  cap_cnt = 0;
  size_t cap_keys = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t sc = d->succs[i];
    uint32_t k;
    if (!sl_u64map_get(&d->succ_index, sc, &k)) {
      k = (uint32_t)d->n_succ_keys;
      uint64_t *slot = SL_PUSH(d->succ_keys, d->n_succ_keys, cap_keys);
      if (!slot || sl_u64map_put(&d->succ_index, sc, k) != 0) goto oom;
      *slot = sc;
      if (sl_grow((void **)&cnt, &cap_cnt, d->n_succ_keys, sizeof *cnt) != 0) goto oom;
      cnt[k] = 0;
    }
    cnt[k]++;
  }
  d->pred_off = malloc((d->n_succ_keys + 1) * sizeof *d->pred_off);
  d->pred_list = malloc((n ? n : 1) * sizeof *d->pred_list);
  free(fill);
  fill = malloc((d->n_succ_keys + 1) * sizeof *fill);
  if (!d->pred_off || !d->pred_list || !fill) goto oom;
  d->pred_off[0] = 0;
  for (size_t i = 0; i < d->n_succ_keys; i++) d->pred_off[i + 1] = d->pred_off[i] + cnt[i];
  memcpy(fill, d->pred_off, (d->n_succ_keys + 1) * sizeof *fill);
  for (size_t i = 0; i < d->n_preds; i++)
    for (size_t j = d->succ_off[i]; j < d->succ_off[i + 1]; j++) {
      uint32_t k;
      sl_u64map_get(&d->succ_index, d->succs[j], &k);
      d->pred_list[fill[k]++] = d->preds[i];
    }
  free(cnt);
  free(fill);
  d->has_edges = 1;
  return 0;
oom:
  free(s.slot);
  free(s.used);
  free(cnt);
  free(fill);
  return -1;
}

static int build_tasks(sl_deps *d, dparser *p) {
  size_t cap = 0;
  for (size_t i = 0; i < p->n_kent; i++) {
    uint32_t k;
    if (sl_u64map_get(&d->kernel_index, p->kent[i].id, &k)) {
      memcpy(d->kernel_ids[k], p->kent[i].kids, sizeof d->kernel_ids[k]);
      continue;
    }
    size_t old_cap = cap;
    if (sl_grow((void **)&d->kernel_task, &cap, d->n_kernel + 1, sizeof *d->kernel_task) != 0) return -1;
    if (cap != old_cap) { /* kernel_ids grows in step with kernel_task */
      int64_t(*nk)[3] = realloc(d->kernel_ids, cap * sizeof *nk);
      if (!nk) return -1;
      d->kernel_ids = nk;
    }
    k = (uint32_t)d->n_kernel++;
    d->kernel_task[k] = p->kent[i].id;
    memcpy(d->kernel_ids[k], p->kent[i].kids, sizeof d->kernel_ids[k]);
    if (sl_u64map_put(&d->kernel_index, p->kent[i].id, k) != 0) return -1;
  }
  d->has_kernel_map = d->n_kernel > 0;
  cap = 0;
  size_t capb = 0;
  for (size_t i = 0; i < p->n_bent; i++) {
    uint32_t k;
    if (sl_u64map_get(&d->block_index, p->bent[i].id, &k)) {
      d->block_num[k] = p->bent[i].block;
      continue;
    }
    if (sl_grow((void **)&d->block_task, &cap, d->n_block + 1, sizeof *d->block_task) != 0) return -1;
    if (sl_grow((void **)&d->block_num, &capb, d->n_block + 1, sizeof *d->block_num) != 0) return -1;
    k = (uint32_t)d->n_block++;
    d->block_task[k] = p->bent[i].id;
    d->block_num[k] = p->bent[i].block;
    if (sl_u64map_put(&d->block_index, p->bent[i].id, k) != 0) return -1;
  }
  d->has_block_map = d->n_block > 0;
  return 0;
}

static sl_deps *deps_parse(const char *name, FILE *fp, const void *data, size_t len, int quiet) {
  sl_deps *d = calloc(1, sizeof *d);
  dparser *p = calloc(1, sizeof *p);
  if (!d || !p || !(d->path = strdup(name))) goto oom;
  p->ctx[0] = D_SKIP;
  yajl_handle h = yajl_alloc(&callbacks, NULL, p);
  if (!h) goto oom;
  yajl_status st = yajl_status_ok;
  size_t total = 0;
  char err[256] = "";
  if (fp) {
    unsigned char *buf = malloc(1 << 18);
    if (!buf) {
      yajl_free(h);
      goto oom;
    }
    size_t n;
    while (st == yajl_status_ok && (n = fread(buf, 1, 1 << 18, fp)) > 0) {
      total += n;
      st = yajl_parse(h, buf, n);
      if (st == yajl_status_error) {
        unsigned char *m = yajl_get_error(h, 0, buf, n);
        snprintf(err, sizeof err, "%s", m ? (char *)m : "parse error");
        if (m) yajl_free_error(h, m);
      }
    }
    if (ferror(fp) && st == yajl_status_ok) {
      st = yajl_status_error;
      snprintf(err, sizeof err, "read error");
    }
    free(buf);
  } else {
    total = len;
    if (len) st = yajl_parse(h, data, len);
    if (st == yajl_status_error) {
      unsigned char *m = yajl_get_error(h, 0, data, len);
      snprintf(err, sizeof err, "%s", m ? (char *)m : "parse error");
      if (m) yajl_free_error(h, m);
    }
  }
  if (st == yajl_status_ok) {
    st = yajl_complete_parse(h);
    if (st != yajl_status_ok) snprintf(err, sizeof err, "%s", total ? "truncated JSON (premature end of input)" : "empty file");
  }
  yajl_free(h);
  if (p->oom) goto oom;
  if (st != yajl_status_ok || p->ctx[0] != D_ROOT) {
    if (st == yajl_status_ok) snprintf(err, sizeof err, "the top level is not a JSON object");
    /* the reference reads nothing from an unreadable file */
    char *nl = strchr(err, '\n');
    if (nl) *nl = 0;
    d->status = SL_DEPS_INVALID;
    d->error = strdup(err);
    if (!quiet) sl_warn(name, "failed to read deps.json: %s", err);
  } else {
    if (!p->saw_edges_array) {
      if (!quiet) sl_warn(name, "has no 'edges' array");
    } else if (build_edges(d, p) != 0)
      goto oom;
    if (build_tasks(d, p) != 0) goto oom;
  }
  free(p->edges);
  free(p->kent);
  free(p->bent);
  free(p);
  return d;
oom:
  sl_error(name, "out of memory");
  if (p) {
    free(p->edges);
    free(p->kent);
    free(p->bent);
  }
  free(p);
  sl_deps_free(d);
  return NULL;
}

sl_deps *sl_deps_load_mem(const char *name, const void *data, size_t len) { return deps_parse(name, NULL, data, len, 0); }

static sl_deps *deps_unread(const char *path, int status, const char *why, int quiet) {
  sl_deps *d = calloc(1, sizeof *d);
  if (d) d->path = strdup(path);
  if (d && why) d->error = strdup(why);
  if (!d || !d->path || (why && !d->error)) {
    sl_deps_free(d);
    sl_error(path, "out of memory");
    return NULL;
  }
  d->status = status;
  if (why && !quiet) sl_warn(path, "failed to read deps.json: %s", why);
  return d;
}

static sl_deps *deps_load(const char *path, int quiet) {
  FILE *f = fopen(path, "rb");
  if (!f) /* missing: all maps None, silently */
    return deps_unread(path, errno == ENOENT ? SL_DEPS_MISSING : SL_DEPS_INVALID,
                       errno == ENOENT ? NULL : strerror(errno), quiet);
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    fclose(f);
    return deps_unread(path, SL_DEPS_INVALID, "is a directory", quiet);
  }
  sl_deps *d = deps_parse(path, f, NULL, 0, quiet);
  fclose(f);
  return d;
}

sl_deps *sl_deps_load(const char *path) { return deps_load(path, 0); }
sl_deps *sl_deps_load_quiet(const char *path) { return deps_load(path, 1); }

void sl_deps_free(sl_deps *d) {
  if (!d) return;
  free(d->path);
  free(d->error);
  free(d->preds);
  free(d->succ_off);
  free(d->succs);
  sl_u64map_free(&d->pred_index);
  free(d->succ_keys);
  free(d->pred_off);
  free(d->pred_list);
  sl_u64map_free(&d->succ_index);
  free(d->kernel_task);
  free(d->kernel_ids);
  sl_u64map_free(&d->kernel_index);
  free(d->block_task);
  free(d->block_num);
  sl_u64map_free(&d->block_index);
  free(d);
}

const uint64_t *sl_deps_succs(const sl_deps *d, uint64_t pred, size_t *n) {
  uint32_t k;
  *n = 0;
  if (!d || !d->has_edges || !sl_u64map_get(&d->pred_index, pred, &k)) return NULL;
  *n = d->succ_off[k + 1] - d->succ_off[k];
  return d->succs + d->succ_off[k];
}

const uint64_t *sl_deps_preds(const sl_deps *d, uint64_t succ, size_t *n) {
  uint32_t k;
  *n = 0;
  if (!d || !d->has_edges || !sl_u64map_get(&d->succ_index, succ, &k)) return NULL;
  *n = d->pred_off[k + 1] - d->pred_off[k];
  return d->pred_list + d->pred_off[k];
}

const int64_t *sl_deps_kernel_ids(const sl_deps *d, uint64_t task_id) {
  uint32_t k;
  if (!d || !d->has_kernel_map || !sl_u64map_get(&d->kernel_index, task_id, &k)) return NULL;
  return d->kernel_ids[k];
}

int64_t sl_deps_block_num(const sl_deps *d, uint64_t task_id) {
  uint32_t k;
  if (!d || !d->has_block_map || !sl_u64map_get(&d->block_index, task_id, &k)) return 0;
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
  sl_str aic = SL_STR_NONE;
  for (uint32_t i = 1; i < c->strings.n; i++)
    if (strcmp(c->strings.strs[i], "aic") == 0) aic = i;
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
