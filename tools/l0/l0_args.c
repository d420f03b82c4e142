/*
** l0_args.c — step 3: pick a task out of args_dump.json and rebuild its args[].
**
** The manifest is parsed with yajl's tree so every integer keeps its text:
** task ids, offsets and 64-bit scalars stay exact (never through a double).
** Selection is by func_id SET; the two dump stages are united per arg_index
** (before_dispatch wins, so an inout tensor shows its input state); scalars
** get their real slot bits per dtype — floats keep their bit pattern.
*/
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "l0_internal.h"
#include "sl_base.h"
#include "sl_mem.h"

/* ---- small yajl helpers ------------------------------------------------------------------ */

static yajl_val obj_get(yajl_val obj, const char *key) {
  if (!YAJL_IS_OBJECT(obj)) return NULL;
  for (size_t i = 0; i < obj->u.object.len; i++)
    if (!strcmp(obj->u.object.keys[i], key)) return obj->u.object.values[i];
  return NULL;
}

static const char *obj_str(yajl_val obj, const char *key) {
  yajl_val v = obj_get(obj, key);
  return YAJL_IS_STRING(v) ? v->u.string : NULL;
}

/* Exact signed integer of a JSON number; 0 ok, -1 when not an integer. */
static int num_i64(yajl_val v, int64_t *out) {
  if (!YAJL_IS_NUMBER(v)) return -1;
  const char *r = YAJL_GET_NUMBER(v);
  char *end;
  errno = 0;
  long long x = strtoll(r, &end, 10);
  if (errno || *end) return -1;
  *out = x;
  return 0;
}

/* Exact unsigned integer of a JSON number (negative values wrap, as a u64 slot). */
static int num_u64(yajl_val v, uint64_t *out) {
  if (!YAJL_IS_NUMBER(v)) return -1;
  const char *r = YAJL_GET_NUMBER(v);
  char *end;
  errno = 0;
  if (r[0] == '-') {
    long long x = strtoll(r, &end, 10);
    if (errno || *end) return -1;
    *out = (uint64_t)x;
    return 0;
  }
  unsigned long long x = strtoull(r, &end, 10);
  if (errno || *end) return -1;
  *out = x;
  return 0;
}

static int int_array(yajl_val v, int64_t *out, int max, int *n) {
  *n = 0;
  if (!v || YAJL_IS_NULL(v)) return 0;
  if (!YAJL_IS_ARRAY(v)) return -1;
  if ((int)v->u.array.len > max) return -2;
  for (size_t i = 0; i < v->u.array.len; i++)
    if (num_i64(v->u.array.values[i], &out[i]) != 0) return -1;
  *n = (int)v->u.array.len;
  return 0;
}

/* ---- dtypes: the generated table ------------------------------------------------------------ */

const sl_l0_dtype *sl_l0_dtype_find(const char *name) { return name ? sl_dtype_by_name(name) : NULL; }

/* ---- manifest ------------------------------------------------------------------------------- */

int sl_l0_manifest_load(const char *path, sl_l0_manifest *m) {
  memset(m, 0, sizeof *m);
  size_t len;
  char *text = sl_l0_read_file(path, &len);
  if (!text) return -1;
  char err[512];
  m->root = yajl_tree_parse(text, err, sizeof err);
  sl_mem_free(text);
  if (!m->root) {
    char *nl = strchr(err, '\n');
    if (nl) *nl = '\0';
    sl_error(path, "not valid JSON: %s", err);
    return -1;
  }
  if (!YAJL_IS_ARRAY(obj_get(m->root, "args"))) {
    sl_error(path, "no \"args\" array (is this an args_dump.json?)");
    yajl_tree_free(m->root);
    m->root = NULL;
    return -1;
  }
  m->path = sl_mem_strdup(path);
  const char *slash = strrchr(path, '/');
  m->dir = slash ? sl_mem_strndup(path, (size_t)(slash - path)) : sl_mem_strdup(".");
  return 0;
}

void sl_l0_manifest_free(sl_l0_manifest *m) {
  if (m->root) yajl_tree_free(m->root);
  sl_mem_free(m->path);
  sl_mem_free(m->dir);
  memset(m, 0, sizeof *m);
}

/* ---- selection ---------------------------------------------------------------------------- */

typedef struct fid_set {
  int ids[8];
  int n; /* distinct, sorted */
} fid_set;

static int int_cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

static void set_from(const int *v, int n, fid_set *s) {
  int tmp[8];
  int k = 0;
  for (int i = 0; i < n && k < 8; i++) tmp[k++] = v[i];
  qsort(tmp, (size_t)k, sizeof tmp[0], int_cmp);
  s->n = 0;
  for (int i = 0; i < k; i++)
    if (s->n == 0 || s->ids[s->n - 1] != tmp[i]) s->ids[s->n++] = tmp[i];
}

static int set_eq(const fid_set *a, const fid_set *b) {
  if (a->n != b->n) return 0;
  for (int i = 0; i < a->n; i++)
    if (a->ids[i] != b->ids[i]) return 0;
  return 1;
}

/* The func_id array of an entry as stored (order and duplicates kept). */
static int entry_fids(yajl_val e, int *out, int *n) {
  yajl_val v = obj_get(e, "func_id");
  *n = 0;
  if (!YAJL_IS_ARRAY(v)) return 0;
  for (size_t i = 0; i < v->u.array.len && *n < 8; i++) {
    int64_t x;
    if (num_i64(v->u.array.values[i], &x) != 0) return -1;
    out[(*n)++] = (int)x;
  }
  return 0;
}

static int parse_task_id(const char *s, uint64_t *out) {
  if (!s) return -1;
  const char *p = s;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) p += 2;
  if (!*p) return -1;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(p, &end, 16);
  if (errno || *end) return -1;
  *out = v;
  return 0;
}

static void set_text(const fid_set *s, char *buf, size_t len) {
  size_t o = (size_t)snprintf(buf, len, "[");
  for (int i = 0; i < s->n && o < len; i++) o += (size_t)snprintf(buf + o, len - o, "%s%d", i ? ", " : "", s->ids[i]);
  if (o < len) snprintf(buf + o, len - o, "]");
}

/* ---- scalars -------------------------------------------------------------------------------- */

static uint32_t f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static float bits_f32(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* The raw slot bits of a dumped scalar value, per dtype (the args dump's value encoding, reversed). */
static int scalar_raw(const char *dtype, yajl_val v, uint64_t *raw, char *err, size_t errlen) {
  if (!strcasecmp(dtype, "FLOAT32")) {
    if (YAJL_IS_NULL(v)) {
      *raw = 0x7fc00000u; /* NaN */
      return 0;
    }
    if (YAJL_IS_STRING(v)) {
      if (!strcmp(v->u.string, "$Inf")) *raw = 0x7f800000u;
      else if (!strcmp(v->u.string, "-$Inf")) *raw = 0xff800000u;
      else goto bad;
      return 0;
    }
    if (!YAJL_IS_NUMBER(v)) goto bad;
    *raw = f32_bits(strtof(YAJL_GET_NUMBER(v), NULL));
    return 0;
  }
  if (!strcasecmp(dtype, "BOOL")) {
    if (YAJL_IS_TRUE(v)) *raw = 1;
    else if (YAJL_IS_FALSE(v)) *raw = 0;
    else if (num_u64(v, raw) == 0) *raw = *raw != 0;
    else goto bad;
    return 0;
  }
  if (!strcasecmp(dtype, "INT32") || !strcasecmp(dtype, "INT64")) {
    int64_t x;
    if (num_i64(v, &x) != 0) goto bad;
    if (!strcasecmp(dtype, "INT32") && (x < INT32_MIN || x > INT32_MAX)) goto bad;
    *raw = (uint64_t)x; /* sign-extended, as an int argument fills a 64-bit slot */
    return 0;
  }
  if (num_u64(v, raw) != 0) goto bad;
  if (!strcasecmp(dtype, "UINT32")) *raw &= 0xffffffffu;
  return 0;
bad:
  snprintf(err, errlen, "scalar value is not a valid %s", dtype);
  return -1;
}

void sl_l0_scalar_text(const sl_l0_arg *a, char *buf, size_t len) {
  const char *d = a->dtype;
  if (!strcasecmp(d, "FLOAT32")) snprintf(buf, len, "%.9g", (double)bits_f32((uint32_t)a->raw));
  else if (!strcasecmp(d, "INT32")) snprintf(buf, len, "%" PRId32, (int32_t)(uint32_t)a->raw);
  else if (!strcasecmp(d, "UINT32")) snprintf(buf, len, "%" PRIu32, (uint32_t)a->raw);
  else if (!strcasecmp(d, "BOOL")) snprintf(buf, len, "%s", a->raw ? "true" : "false");
  else if (!strcasecmp(d, "INT64")) snprintf(buf, len, "%" PRId64, (int64_t)a->raw);
  else snprintf(buf, len, "%" PRIu64, a->raw);
}

/* ---- reconstruction --------------------------------------------------------------------------- */

static int arg_cmp(const void *a, const void *b) {
  const sl_l0_arg *x = a, *y = b;
  if (x->is_tensor != y->is_tensor) return y->is_tensor - x->is_tensor; /* tensors first */
  return x->slot - y->slot;
}

static void copy_str(char *dst, size_t len, const char *src) { snprintf(dst, len, "%s", src ? src : ""); }

/* Fill a tensor arg from its entry; -1 with err. */
static int tensor_from(yajl_val e, sl_l0_arg *a, char *err, size_t errlen) {
  int n, ns;
  int rc = int_array(obj_get(e, "shape"), a->shape, L0_MAX_DIMS, &n);
  if (rc == -2) {
    snprintf(err, errlen, "tensor arg %d has more than %d dimensions", a->slot, L0_MAX_DIMS);
    return -1;
  }
  if (rc != 0 || n == 0) {
    snprintf(err, errlen, "tensor arg %d has empty shape", a->slot);
    return -1;
  }
  a->ndims = n;
  for (int i = 0; i < n; i++)
    if (a->shape[i] < 0) {
      snprintf(err, errlen, "tensor arg %d: negative tensor dimension %" PRId64, a->slot, a->shape[i]);
      return -1;
    }
  rc = int_array(obj_get(e, "strides"), a->strides, L0_MAX_DIMS, &ns);
  if (rc != 0 || (ns != 0 && ns != n)) {
    snprintf(err, errlen, "tensor arg %d: shape/strides rank mismatch", a->slot);
    return -1;
  }
  if (ns == 0) { /* row-major */
    int64_t s = 1;
    for (int i = n - 1; i >= 0; i--) {
      a->strides[i] = s;
      s *= a->shape[i] ? a->shape[i] : 1;
    }
  }
  for (int i = 0; i < n; i++)
    if (a->strides[i] <= 0) {
      snprintf(err, errlen, "tensor arg %d: stride %" PRId64 " is not positive", a->slot, a->strides[i]);
      return -1;
    }
  yajl_val so = obj_get(e, "start_offset");
  int64_t s0 = 0;
  if (so && num_i64(so, &s0) != 0) {
    snprintf(err, errlen, "tensor arg %d: start_offset is not an integer", a->slot);
    return -1;
  }
  if (s0 < 0) {
    snprintf(err, errlen, "tensor arg %d: negative start_offset is unsupported", a->slot);
    return -1;
  }
  a->start_offset = (uint64_t)s0;
  if (!a->dt || !a->dt->replayable) {
    snprintf(err, errlen, "tensor arg %d has unsupported dtype %s (the replay handles FLOAT32 .. UINT32)",
             a->slot, a->dtype);
    return -1;
  }
  copy_str(a->role, sizeof a->role, obj_str(e, "role"));
  copy_str(a->stage, sizeof a->stage, obj_str(e, "stage"));
  num_u64(obj_get(e, "bin_offset"), &a->bin_offset);
  num_u64(obj_get(e, "bin_size"), &a->bin_size);
  a->truncated = YAJL_IS_TRUE(obj_get(e, "truncated"));
  a->overwritten = YAJL_IS_TRUE(obj_get(e, "overwritten"));
  /* extent formula: views may reach past numel */
  uint64_t extent = 1;
  int contig = a->start_offset == 0;
  int64_t expect = 1;
  for (int i = n - 1; i >= 0; i--) {
    if (a->shape[i] > 0) extent += (uint64_t)(a->shape[i] - 1) * (uint64_t)a->strides[i];
    if (a->strides[i] != expect) contig = 0;
    expect *= a->shape[i];
  }
  a->alloc_bytes = (a->start_offset + extent) * (uint64_t)a->dt->size;
  a->contiguous = contig;
  return 0;
}

/* "--func-id X matches no task", listing the func_id shapes the dump has (sorted, so
** the message is stable). */
static void no_match_error(const sl_l0_manifest *m, const fid_set *wanted, fid_set *shapes, int nshapes) {
  char wbuf[128], list[2048];
  set_text(wanted, wbuf, sizeof wbuf);
  for (int a = 0; a < nshapes; a++)
    for (int b = a + 1; b < nshapes; b++) {
      int less = 0;
      for (int k = 0; k < shapes[a].n && k < shapes[b].n; k++)
        if (shapes[a].ids[k] != shapes[b].ids[k]) {
          less = shapes[b].ids[k] < shapes[a].ids[k];
          goto decided;
        }
      less = shapes[b].n < shapes[a].n;
    decided:
      if (less) {
        fid_set x = shapes[a];
        shapes[a] = shapes[b];
        shapes[b] = x;
      }
    }
  size_t o = (size_t)snprintf(list, sizeof list, "[");
  for (int k = 0; k < nshapes && o < sizeof list; k++) {
    char sb[128];
    set_text(&shapes[k], sb, sizeof sb);
    o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", k ? ", " : "", sb);
  }
  if (o < sizeof list) snprintf(list + o, sizeof list - o, "]");
  sl_error(m->path, "--func-id %s matches no task; dump has func_id shapes %s", wbuf, list);
}

/* The task to replay among those whose func_id set is `wanted`: the given task_id,
** else the lowest. 0 and *chosen set, -1 (reported) otherwise. */
static int choose_task(const sl_l0_manifest *m, yajl_val args, const fid_set *wanted, const char *task_id,
                       uint64_t *chosen) {
  fid_set shapes[64];
  int nshapes = 0;
  uint64_t want_id = 0;
  int have = 0, found_given = 0;
  if (task_id && parse_task_id(task_id, &want_id) != 0) {
    sl_error(m->path, "--task-id %s is not a hex task id", task_id);
    return -1;
  }
  for (size_t i = 0; i < args->u.array.len; i++) {
    yajl_val e = args->u.array.values[i];
    int f[8], nf;
    fid_set s;
    if (entry_fids(e, f, &nf) != 0) {
      sl_error(m->path, "args[%zu]: func_id is not an integer array", i);
      return -1;
    }
    set_from(f, nf, &s);
    if (!set_eq(&s, wanted)) {
      int k = 0;
      while (k < nshapes && !set_eq(&shapes[k], &s)) k++;
      if (k == nshapes && nshapes < 64) shapes[nshapes++] = s;
      continue;
    }
    uint64_t id;
    if (parse_task_id(obj_str(e, "task_id"), &id) != 0) {
      sl_error(m->path, "args[%zu]: task_id is not a \"0x...\" hex string", i);
      return -1;
    }
    if (task_id && id == want_id) found_given = 1;
    if (!have || id < *chosen) *chosen = id;
    have = 1;
  }
  if (!have) {
    no_match_error(m, wanted, shapes, nshapes);
    return -1;
  }
  if (task_id) {
    if (!found_given) {
      sl_error(m->path, "task_id %s is not among the tasks with func_id set {%d...} (default: lowest)", task_id,
               wanted->ids[0]);
      return -1;
    }
    *chosen = want_id;
  }
  return 0;
}

/* The chosen task's records by arg_index (stages united: before_dispatch wins, for
** inputs and inout state) and its MIX members. -1 (reported) on a bad dump. */
static int collect_slots(const sl_l0_manifest *m, yajl_val args, const fid_set *wanted, uint64_t chosen,
                         sl_l0_task *t, yajl_val *by_slot) {
  int first = 1;
  for (size_t i = 0; i < args->u.array.len; i++) {
    yajl_val e = args->u.array.values[i];
    uint64_t id;
    if (parse_task_id(obj_str(e, "task_id"), &id) != 0 || id != chosen) continue;
    int f[8], nf;
    fid_set s;
    entry_fids(e, f, &nf);
    set_from(f, nf, &s);
    if (!set_eq(&s, wanted)) continue;
    if (first) {
      for (int k = 0; k < nf && k < L0_MAX_MIX; k++) t->mix[t->nmix++] = f[k];
      if (nf > L0_MAX_MIX) {
        sl_error(m->path, "task %s has %d func_ids; a task has at most %d (AIC, AIV0, AIV1)", t->task_id, nf,
                 L0_MAX_MIX);
        return -1;
      }
      first = 0;
    }
    int64_t slot;
    if (num_i64(obj_get(e, "arg_index"), &slot) != 0 || slot < 0 || slot >= 48) {
      sl_error(m->path, "task %s: arg_index missing or outside 0..47", t->task_id);
      return -1;
    }
    const char *stage = obj_str(e, "stage");
    int before = stage && !strcmp(stage, "before_dispatch");
    yajl_val old = by_slot[slot];
    if (old) {
      const char *k0 = obj_str(old, "kind"), *k1 = obj_str(e, "kind");
      int s0 = k0 && !strcmp(k0, "scalar"), s1 = k1 && !strcmp(k1, "scalar");
      const char *st0 = obj_str(old, "stage");
      int before0 = st0 && !strcmp(st0, "before_dispatch");
      const char *what = s0 != s1 ? "scalar arg_index %" PRId64 " collides with a tensor slot"
                         : (before0 && before) || (!before0 && !before) ? "duplicate arg_index %" PRId64
                                                                        : NULL;
      if (what) {
        sl_error(m->path, what, slot);
        return -1;
      }
    }
    if (!old || before) by_slot[slot] = e;
  }
  return 0;
}

/* One argument from its record: a tensor's layout, or a scalar's raw bits. */
static int arg_from(yajl_val e, int s, sl_l0_arg *a, sl_l0_task *t, char *err, size_t errsz) {
  a->slot = s;
  const char *kind = obj_str(e, "kind");
  a->is_tensor = !(kind && !strcmp(kind, "scalar"));
  const char *dt = obj_str(e, "dtype");
  copy_str(a->dtype, sizeof a->dtype, dt ? dt : "UNKNOWN");
  for (char *c = a->dtype; *c; c++) *c = (char)toupper((unsigned char)*c);
  a->dt = sl_l0_dtype_find(a->dtype);
  int rc = 0;
  if (a->is_tensor) {
    rc = tensor_from(e, a, err, errsz);
    t->ntensors++;
  } else {
    yajl_val v = obj_get(e, "value");
    if (!v) {
      snprintf(err, errsz, "scalar arg %d has no value", s);
      rc = -1;
    } else {
      rc = scalar_raw(a->dtype, v, &a->raw, err, errsz);
      if (rc) {
        char tmp[600];
        snprintf(tmp, sizeof tmp, "scalar arg %d: %s", s, err);
        snprintf(err, errsz, "%.500s", tmp);
      }
    }
    t->nscalars++;
  }
  return rc;
}

int sl_l0_reconstruct(const sl_l0_manifest *m, const int *want, int nwant, const char *task_id, sl_l0_task *t) {
  memset(t, 0, sizeof *t);
  yajl_val args = obj_get(m->root, "args");
  fid_set wanted;
  set_from(want, nwant, &wanted);
  uint64_t chosen = 0;
  if (choose_task(m, args, &wanted, task_id, &chosen) != 0) return -1;
  snprintf(t->task_id, sizeof t->task_id, "0x%016" PRIx64, chosen);

  yajl_val *by_slot = sl_mem_calloc(L0_ARG_SLOTS, sizeof *by_slot);
  int rc = collect_slots(m, args, &wanted, chosen, t, by_slot);
  int n = 0;
  for (int s = 0; s < L0_ARG_SLOTS; s++) n += by_slot[s] != NULL;
  if (rc == 0) t->args = sl_mem_calloc((size_t)n, sizeof *t->args);
  char err[512];
  for (int s = 0; s < L0_ARG_SLOTS && rc == 0; s++) {
    if (!by_slot[s]) continue;
    if (arg_from(by_slot[s], s, &t->args[t->nargs++], t, err, sizeof err) != 0) {
      sl_error(m->path, "task %s: %s", t->task_id, err);
      rc = -1;
    }
  }
  sl_mem_free(by_slot);
  if (rc == 0) qsort(t->args, (size_t)t->nargs, sizeof *t->args, arg_cmp);
  return rc;
}

void sl_l0_task_free(sl_l0_task *t) {
  for (int i = 0; i < t->nargs; i++) sl_mem_free(t->args[i].payload);
  sl_mem_free(t->args);
  memset(t, 0, sizeof *t);
}

sl_l0_arg *sl_l0_task_arg(sl_l0_task *t, int slot) {
  for (int i = 0; i < t->nargs; i++)
    if (t->args[i].slot == slot) return &t->args[i];
  return NULL;
}

/* ---- --set-arg ------------------------------------------------------------------------------- */

static int parse_i64_text(const char *s, int64_t *out) {
  char *end;
  while (isspace((unsigned char)*s)) s++;
  if (!*s) return -1;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  while (isspace((unsigned char)*end)) end++;
  if (errno || *end) return -1;
  *out = v;
  return 0;
}

int sl_l0_parse_set_arg(const char *spec, int *slot, char *value, size_t vlen, char *err, size_t errlen) {
  const char *eq = strchr(spec, '=');
  if (!eq) {
    snprintf(err, errlen, "--set-arg must be SLOT=VALUE (got '%s')", spec);
    return -1;
  }
  char left[64];
  snprintf(left, sizeof left, "%.*s", (int)(eq - spec) < 63 ? (int)(eq - spec) : 63, spec);
  int64_t s;
  if (parse_i64_text(left, &s) != 0 || !eq[1]) {
    snprintf(err, errlen, "--set-arg SLOT and VALUE must be numbers (got '%s')", spec);
    return -1;
  }
  if (s < 0 || s >= 48) {
    snprintf(err, errlen, "--set-arg SLOT must be in [0, 47] (got '%s')", spec);
    return -1;
  }
  *slot = (int)s;
  snprintf(value, vlen, "%s", eq + 1);
  return 0;
}

int sl_l0_apply_set_arg(sl_l0_task *t, int slot, const char *value, const char *manifest_path) {
  sl_l0_arg *a = sl_l0_task_arg(t, slot);
  if (!a) {
    sl_error(manifest_path, "--set-arg slot %d is not an arg of task %s", slot, t->task_id);
    return -1;
  }
  if (!a->is_tensor) {
    char before[64], after[64];
    sl_l0_scalar_text(a, before, sizeof before);
    uint64_t raw;
    int larger;
    if (!strcasecmp(a->dtype, "FLOAT32")) {
      char *end;
      float f = strtof(value, &end);
      if (end == value || *end) {
        sl_error(manifest_path, "--set-arg %d=%s: slot %d is a FLOAT32 scalar; VALUE must be a number", slot,
                 value, slot);
        return -1;
      }
      larger = f > bits_f32((uint32_t)a->raw);
      raw = f32_bits(f);
    } else {
      int64_t v;
      if (parse_i64_text(value, &v) != 0) {
        sl_error(manifest_path, "--set-arg %d=%s: VALUE must be a base-10 integer", slot, value);
        return -1;
      }
      int is_signed = !strcasecmp(a->dtype, "INT32") || !strcasecmp(a->dtype, "INT64");
      larger = is_signed ? v > (int64_t)a->raw : (uint64_t)v > a->raw;
      raw = (uint64_t)v;
      if (!strcasecmp(a->dtype, "UINT32")) raw &= 0xffffffffu;
      if (!strcasecmp(a->dtype, "BOOL")) raw = v != 0;
    }
    a->raw = raw;
    a->set_by_user = 1;
    sl_l0_scalar_text(a, after, sizeof after);
    printf(L0_PREFIX "overriding scalar slot %d: %s -> %s\n", slot, before, after);
    if (larger) printf("  WARNING: larger than dump value -> buffers may be undersized\n");
    return 0;
  }
  if (!a->dt || !a->dt->is_integer) {
    sl_error(manifest_path,
             "--set-arg slot %d is a %s tensor; tensor fill is only supported for integer dtypes "
             "(loop-count / index control tensors like context_lens)",
             slot, a->dtype);
    return -1;
  }
  if (a->init == L0_INIT_RESTORE) {
    sl_error(manifest_path, "tensor slot %d cannot be both restored and uniformly filled", slot);
    return -1;
  }
  int64_t v;
  if (parse_i64_text(value, &v) != 0) {
    sl_error(manifest_path, "--set-arg %d=%s: VALUE must be a base-10 integer", slot, value);
    return -1;
  }
  a->init = L0_INIT_FILL;
  a->fill = v;
  printf(L0_PREFIX "filling tensor slot %d (%s [", slot, a->dtype);
  for (int i = 0; i < a->ndims; i++) printf("%s%" PRId64, i ? ", " : "", a->shape[i]);
  printf("]) with %" PRId64 " in every element\n", v);
  return 0;
}
