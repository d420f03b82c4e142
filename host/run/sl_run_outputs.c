/*
** sl_run_outputs.c — the run's side files: deps.json (the task graph, uint64 as
** strings), name_map_<case>.json, and args_dump/args_dump.json + args.bin in the
** reference's layout (docs/l0.md). Each file appears complete or not at all.
*/
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sl_base.h"
#include "sl_run_internal.h"
#include "sl_mem.h"

static const char *const dtype_names[] = {"FLOAT32", "FLOAT16",  "INT32",  "INT16",   "INT8",
                                          "UINT8",   "BFLOAT16", "INT64",  "UINT64",  "UINT16",
                                          "UINT32",  "BOOL",     "FP8E4M3FN", "FP8E8M0", "FP4E2M1"};
static const char *dtype_name(int d) {
  return d >= 0 && d < (int)(sizeof dtype_names / sizeof *dtype_names) ? dtype_names[d] : "UNKNOWN";
}

static cJSON *u64str(uint64_t v) {
  char b[24];
  snprintf(b, sizeof b, "%" PRIu64, v);
  return cJSON_CreateString(b);
}

static cJSON *int_array(const int64_t *v, int n) {
  cJSON *a = cJSON_CreateArray();
  for (int i = 0; i < n; i++) cJSON_AddItemToArray(a, cJSON_CreateNumber((double)v[i]));
  return a;
}

static int write_json(cJSON *root, const char *path) {
  char *text = cJSON_Print(root);
  if (!text) sl_mem_fail(0); /* cJSON allocates on its own: its failure ends the one way */
  sl_outfile of;
  int rc = -1;
  if (sl_outfile_open(&of, path) == 0) {
    if (fputs(text, of.fp) < 0 || fputc('\n', of.fp) < 0) sl_outfile_abort(&of);
    else rc = sl_outfile_commit(&of);
  }
  sl_mem_free(text);
  return rc;
}

static const char *dir_name(sl_arg_dir d) {
  return d == SL_ARG_IN ? "INPUT" : d == SL_ARG_OUT ? "OUTPUT" : "INOUT";
}

/* Tensor ids already listed in deps.json "tensors" (first-use order). */
typedef struct seen_ids {
  uint64_t *v;
  size_t n, cap;
} seen_ids;

/* One deps.json task entry (its args; new tensors go to `tensors`). */
static void write_task(cJSON *tasks, cJSON *tensors, seen_ids *seen, const sl_rt_task *t) {
  cJSON *jt = cJSON_CreateObject();
  cJSON_AddItemToObject(jt, "task_id", u64str(sl_rt_task_id(t)));
  cJSON_AddStringToObject(jt, "scope", "auto");
  int k[3];
  sl_rt_task_kernels(t, k);
  cJSON *ka = cJSON_AddArrayToObject(jt, "kernel_ids");
  for (int j = 0; j < 3; j++) cJSON_AddItemToArray(ka, cJSON_CreateNumber(k[j]));
  cJSON_AddNumberToObject(jt, "block_num", sl_rt_task_block_num(t));
  cJSON *args = cJSON_AddArrayToObject(jt, "args");
  for (int a = 0; a < sl_rt_task_ntensors(t); a++) {
    const sl_rt_tensor *tt = sl_rt_task_tensor(t, a);
    uint64_t tid = sl_rt_tensor_id(tt->buf);
    cJSON *ja = cJSON_CreateObject();
    cJSON_AddNumberToObject(ja, "idx", a);
    cJSON_AddStringToObject(ja, "type", dir_name(sl_rt_task_dir(t, a)));
    cJSON_AddItemToObject(ja, "tensor_id", u64str(tid));
    cJSON_AddStringToObject(ja, "dtype", dtype_name(tt->dtype));
    cJSON_AddItemToObject(ja, "shape", int_array(tt->shape, tt->ndims));
    cJSON_AddItemToObject(ja, "start_offset", u64str((uint64_t)tt->start_offset));
    cJSON_AddItemToObject(ja, "strides", int_array(tt->strides, tt->ndims));
    cJSON_AddItemToArray(args, ja);
    size_t s = 0;
    while (s < seen->n && seen->v[s] != tid) s++;
    if (s == seen->n && seen->v && seen->n < seen->cap) {
      seen->v[seen->n++] = tid;
      cJSON *jx = cJSON_CreateObject();
      cJSON_AddItemToObject(jx, "tensor_id", u64str(tid));
      cJSON_AddItemToObject(jx, "buffer_addr", u64str(tt->buf->vaddr ? tt->buf->vaddr : (uint64_t)(uintptr_t)tt->buf->data));
      cJSON_AddNumberToObject(jx, "version", tt->buf->version);
      cJSON_AddStringToObject(jx, "dtype", dtype_name(tt->dtype));
      size_t es = sl_dtype_size(tt->dtype);
      cJSON_AddItemToObject(jx, "buffer_numel", u64str(es ? tt->buf->bytes / es : 0));
      cJSON_AddItemToArray(tensors, jx);
    }
  }
  cJSON_AddItemToArray(tasks, jt);
}

/* A graph instance is listed as its nodes (the kernels that ran), with the node
** edges of the definition (source "graph"); the instance id stays the endpoint of
** the tensormap edges between instances, like an alloc_tensors task. */
static void write_graph_nodes(cJSON *tasks, cJSON *tensors, cJSON *edges, seen_ids *seen, const sl_rt_task *t) {
  for (int n = 0; n < sl_rt_task_nnodes(t); n++) {
    const sl_rt_task *node = sl_rt_task_node(t, n);
    write_task(tasks, tensors, seen, node);
    const int *deps;
    int nd = sl_rt_task_node_deps(t, n, &deps);
    for (int d = 0; d < nd; d++) {
      cJSON *je = cJSON_CreateObject();
      cJSON_AddItemToObject(je, "pred", u64str(sl_rt_task_id(sl_rt_task_node(t, deps[d]))));
      cJSON_AddItemToObject(je, "succ", u64str(sl_rt_task_id(node)));
      cJSON_AddNumberToObject(je, "arg", -1);
      cJSON_AddStringToObject(je, "source", "graph");
      cJSON_AddStringToObject(je, "kind", "graph");
      cJSON *flags = cJSON_AddArrayToObject(je, "flags");
      cJSON_AddItemToArray(flags, cJSON_CreateString("wait"));
      cJSON_AddItemToArray(edges, je);
    }
  }
}

int sl_write_deps_json(const sl_rt *rt, const char *path) {
  cJSON *root = cJSON_CreateObject(), *tasks = cJSON_AddArrayToObject(root, "tasks"),
        *tensors = cJSON_AddArrayToObject(root, "tensors"), *edges = cJSON_AddArrayToObject(root, "edges");
  size_t nt = sl_rt_task_count(rt);
  seen_ids seen = {sl_mem_calloc(nt * 4 + 16, sizeof(uint64_t)), 0, nt * 4 + 16};
  for (size_t i = 0; i < nt; i++) {
    const sl_rt_task *t = sl_rt_task_at(rt, i);
    if (sl_rt_task_is_alloc(t)) continue;
    if (sl_rt_task_nnodes(t)) write_graph_nodes(tasks, tensors, edges, &seen, t);
    else write_task(tasks, tensors, &seen, t);
  }
  sl_mem_free(seen.v);
  static const char *const sources[] = {"explicit", "creator", "tensormap"}; /* ORDER sl_rt_edge.source */
  for (size_t i = 0; i < sl_rt_edge_count(rt); i++) {
    const sl_rt_edge *e = sl_rt_edge_at(rt, i);
    cJSON *je = cJSON_CreateObject();
    cJSON_AddItemToObject(je, "pred", u64str(e->pred));
    cJSON_AddItemToObject(je, "succ", u64str(e->succ));
    cJSON_AddNumberToObject(je, "arg", e->arg);
    cJSON_AddStringToObject(je, "source", sources[e->source]);
    /* the hazard the edge orders: raw / war / waw (tensormap), else its source */
    static const char *const hazards[] = {"raw", "war", "waw"}; /* ORDER sl_tm_hazard */
    cJSON_AddStringToObject(je, "kind", e->hazard >= 0 && e->hazard <= 2 ? hazards[e->hazard] : sources[e->source]);
    cJSON *flags = cJSON_AddArrayToObject(je, "flags");
    cJSON_AddItemToArray(flags, cJSON_CreateString("wait"));
    if (e->source != SL_RT_EDGE_TENSORMAP) cJSON_AddItemToArray(flags, cJSON_CreateString("retain"));
    if (e->source == SL_RT_EDGE_TENSORMAP) cJSON_AddStringToObject(je, "overlap", e->covered ? "covered" : "other");
    if (e->source != 0) {
      const sl_rt_task *succ = sl_rt_task_by_id(rt, e->succ);
      const sl_rt_tensor *ct = succ && e->arg >= 0 ? sl_rt_task_tensor(succ, e->arg) : NULL;
      cJSON_AddItemToObject(je, "tensor_id", u64str(e->tensor_id));
      if (ct) {
        cJSON_AddStringToObject(je, "consumer_dtype", dtype_name(ct->dtype));
        cJSON_AddItemToObject(je, "consumer_shape", int_array(ct->shape, ct->ndims));
        cJSON_AddItemToObject(je, "consumer_start_offset", u64str((uint64_t)ct->start_offset));
        cJSON_AddItemToObject(je, "consumer_strides", int_array(ct->strides, ct->ndims));
      }
      const sl_rt_task *pred = sl_rt_task_by_id(rt, e->pred);
      if (e->source == 2 && pred && e->prod_arg >= 0) {
        const sl_rt_tensor *pt = sl_rt_task_tensor(pred, e->prod_arg);
        cJSON_AddItemToObject(je, "producer_shape", int_array(pt->shape, pt->ndims));
        cJSON_AddItemToObject(je, "producer_start_offset", u64str((uint64_t)pt->start_offset));
        cJSON_AddItemToObject(je, "producer_strides", int_array(pt->strides, pt->ndims));
      }
    }
    cJSON_AddItemToArray(edges, je);
  }
  int rc = write_json(root, path);
  cJSON_Delete(root);
  return rc;
}

int sl_write_name_map(const sl_workload *wl, const char *path) {
  cJSON *root = cJSON_CreateObject();
  cJSON_AddNumberToObject(root, "level", 2);
  if (wl->has_orch_name) cJSON_AddStringToObject(root, "orchestrator_name", wl->orch_name);
  else cJSON_AddNullToObject(root, "orchestrator_name");
  cJSON *m = cJSON_AddObjectToObject(root, "callable_id_to_name");
  for (int i = 0; i < wl->nincores; i++) {
    char key[16];
    snprintf(key, sizeof key, "%d", wl->incores[i].func_id);
    cJSON_AddStringToObject(m, key, wl->incores[i].name);
  }
  int rc = write_json(root, path);
  cJSON_Delete(root);
  return rc;
}

/* ---- args dump ------------------------------------------------------------------------- */

static int cmp_entry(const void *pa, const void *pb) {
  const sl_rt_dump_entry *a = *(const sl_rt_dump_entry *const *)pa, *b = *(const sl_rt_dump_entry *const *)pb;
  if (a->task_id != b->task_id) return a->task_id < b->task_id ? -1 : 1;
  if (a->stage != b->stage) return a->stage - b->stage;
  if (a->arg_index != b->arg_index) return a->arg_index - b->arg_index;
  return a->role - b->role;
}

static void print_ints(FILE *f, const int64_t *v, int n) {
  fputc('[', f);
  for (int i = 0; i < n; i++) fprintf(f, "%s%" PRId64, i ? ", " : "", v[i]);
  fputc(']', f);
}

/* Scalar value by dtype: the slot's bits read as that type. */
static void print_value(FILE *f, int dtype, uint64_t raw) {
  switch (dtype) {
    case 0: { /* FLOAT32: 6 significant digits, ".0" when integral-looking */
      uint32_t bits = (uint32_t)raw;
      float x;
      memcpy(&x, &bits, 4);
      if (isnan(x)) {
        fputs("null", f);
      } else if (isinf(x)) {
        fputs(x > 0 ? "\"$Inf\"" : "\"-$Inf\"", f);
      } else {
        char b[64];
        snprintf(b, sizeof b, "%g", (double)x);
        fputs(b, f);
        if (!strpbrk(b, ".e")) fputs(".0", f);
      }
      break;
    }
    case 2: fprintf(f, "%" PRId32, (int32_t)(uint32_t)raw); break;
    case 10: fprintf(f, "%" PRIu32, (uint32_t)raw); break;
    case 11: fputs(raw ? "true" : "false", f); break;
    case 7: fprintf(f, "%" PRId64, (int64_t)raw); break;
    default: fprintf(f, "%" PRIu64, raw); break;
  }
}

int sl_write_args_dump(const sl_rt *rt, int level, const char *dir) {
  size_t n = sl_rt_dump_count(rt);
  if (n == 0) {
    fprintf(stderr, "swimlane: no args dump data to export\n");
    return 0;
  }
  if (sl_mkdirs(dir)) return -1;
  const sl_rt_dump_entry **v = sl_mem_array(NULL, n, sizeof *v);
  for (size_t i = 0; i < n; i++) v[i] = sl_rt_dump_at(rt, i);
  qsort(v, n, sizeof *v, cmp_entry);
  size_t before = 0, in = 0, out = 0, inout = 0;
  uint64_t payload = 0;
  for (size_t i = 0; i < n; i++) {
    before += v[i]->stage == 0;
    in += v[i]->role == 0;
    out += v[i]->role == 1;
    inout += v[i]->role == 2;
    payload += v[i]->payload ? v[i]->payload_bytes : 0;
  }
  char *jpath = sl_path_join(dir, "args_dump.json"), *bpath = sl_path_join(dir, "args.bin");
  int has_bin = !(level == 3 && payload == 0);
  sl_outfile jf, bf;
  int rc = -1;
  if (!jpath || !bpath || sl_outfile_open(&jf, jpath)) goto out;
  if (has_bin && sl_outfile_open(&bf, bpath)) {
    sl_outfile_abort(&jf);
    goto out;
  }
  FILE *f = jf.fp;
  fprintf(f, "{\n  \"run_dir\": \"args_dump\",\n");
  fprintf(f, "  \"bin_format\": {\"type\": \"logical_contiguous\", \"byte_order\": \"little_endian\"},\n");
  fprintf(f, "  \"dump_args_level\": %d,\n  \"total_args\": %zu,\n", level, n);
  fprintf(f, "  \"before_dispatch\": %zu,\n  \"after_completion\": %zu,\n", before, n - before);
  fprintf(f, "  \"input_args\": %zu,\n  \"output_args\": %zu,\n  \"inout_args\": %zu,\n", in, out, inout);
  fprintf(f, "  \"truncated_args\": 0,\n  \"dropped_records\": 0,\n  \"dropped_overwrite\": 0,\n");
  fprintf(f, "  \"bin_file\": %s,\n  \"args\": [\n", has_bin ? "\"args.bin\"" : "null");
  uint64_t off = 0;
  static const char *const roles[] = {"input", "output", "inout"}; /* ORDER sl_rt_dump_entry.role */
  for (size_t i = 0; i < n; i++) {
    const sl_rt_dump_entry *e = v[i];
    uint64_t numel = 1;
    for (int d = 0; d < e->ndims; d++) numel *= (uint64_t)e->shape[d];
    fprintf(f, "    {\"task_id\": \"0x%016" PRIx64 "\", \"func_id\": [", e->task_id);
    for (int k = 0; k < e->nfunc; k++) fprintf(f, "%s%d", k ? ", " : "", e->func_ids[k]);
    fprintf(f, "], \"arg_index\": %d, \"role\": \"%s\", \"stage\": \"%s\", \"kind\": \"%s\", \"dtype\": \"%s\"",
            e->arg_index, roles[e->role], e->stage ? "after_completion" : "before_dispatch",
            e->is_scalar ? "scalar" : "tensor", dtype_name(e->dtype));
    if (e->is_scalar) {
      fputs(", \"value\": ", f);
      print_value(f, e->dtype, e->value);
    }
    fprintf(f, ", \"is_contiguous\": %s, \"shape\": ", e->is_scalar || sl_rt_view_contiguous(e->ndims, e->shape, e->strides) ? "true" : "false");
    print_ints(f, e->shape, e->ndims);
    fputs(", \"strides\": ", f);
    print_ints(f, e->strides, e->ndims);
    uint64_t size = e->payload ? e->payload_bytes : 0;
    fprintf(f, ", \"start_offset\": %" PRId64 ", \"numel\": %" PRIu64 ", \"bin_offset\": %" PRIu64
               ", \"bin_size\": %" PRIu64 ", \"truncated\": false, \"overwritten\": false}%s\n",
            e->start_offset, numel, size ? off : 0, size, i + 1 < n ? "," : "");
    if (size) {
      if (fwrite(e->payload, 1, (size_t)size, bf.fp) != size) {
        sl_error(bpath, "write failed");
        sl_outfile_abort(&jf);
        sl_outfile_abort(&bf);
        goto out;
      }
      off += size;
    }
  }
  fputs("  ]\n}\n", f);
  rc = sl_outfile_commit(&jf);
  if (has_bin) {
    if (rc == 0) rc = sl_outfile_commit(&bf);
    else sl_outfile_abort(&bf);
  }
out:
  sl_mem_free(jpath);
  sl_mem_free(bpath);
  sl_mem_free(v);
  return rc;
}
