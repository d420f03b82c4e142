/*
** namemap.c — name_map_<case>.json (func_id -> human name, orchestrator name)
** and its discovery next to a records file (docs/reader.md).
*/
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yajl/yajl_parse.h>

#include "reader_util.h"
#include "sl_base.h"
#include "sl_capture.h"

void sl_namemap_free(sl_namemap *m) {
  if (!m) return;
  for (size_t i = 0; i < m->n; i++) {
    sl_mem_free(m->keys[i]);
    sl_mem_free(m->names[i]);
  }
  sl_mem_free(m->keys);
  sl_mem_free(m->names);
  sl_map_free(&m->index);
  sl_mem_free(m->orchestrator_name);
  sl_mem_free(m->path);
  sl_mem_free(m);
}

sl_namemap *sl_namemap_open_mem(const char *name, const void *data, size_t len, sl_err *err) {
  cJSON *root = cJSON_ParseWithLength(data, len);
  if (!root) {
    /* let yajl tell a truncated file from a malformed one, with its message */
    yajl_handle h = yajl_alloc(NULL, NULL, NULL);
    if (!h) sl_mem_fail(0);
    if (len == 0) {
      (void)sl_err_set(err, name, "$: empty file");
    } else if (yajl_parse(h, data, len) == yajl_status_ok && yajl_complete_parse(h) != yajl_status_ok) {
      (void)sl_err_set(err, name, "$: truncated JSON");
    } else {
      unsigned char *m = yajl_get_error(h, 0, data, len);
      char *nl = m ? strchr((char *)m, '\n') : NULL;
      if (nl) *nl = 0;
      (void)sl_err_set(err, name, "$: invalid JSON: %s", m ? (char *)m : "parse error");
      if (m) yajl_free_error(h, m);
    }
    yajl_free(h);
    return NULL;
  }
  sl_namemap *m = sl_mem_calloc(1, sizeof *m);
  m->path = sl_mem_strdup(name);
  m->level = -1;
  sl_map_init(&m->index, SL_MAP_STR_BORROWED);
  if (!cJSON_IsObject(root)) {
    (void)sl_err_set(err, name, "$: expected a JSON object");
    goto fail;
  }
  const cJSON *lvl = cJSON_GetObjectItemCaseSensitive(root, "level");
  /* a level beyond int64 is no level (the cast would be undefined; found by fuzz_namemap) */
  if (cJSON_IsNumber(lvl) && fabs(lvl->valuedouble) < 9.2e18) m->level = (int64_t)lvl->valuedouble;
  const cJSON *orch = cJSON_GetObjectItemCaseSensitive(root, "orchestrator_name");
  if (orch && !cJSON_IsNull(orch)) {
    if (!cJSON_IsString(orch)) {
      (void)sl_err_set(err, name, "$.orchestrator_name: expected a string or null");
      goto fail;
    }
    m->orchestrator_name = sl_mem_strdup(orch->valuestring);
  }
  const cJSON *map = cJSON_GetObjectItemCaseSensitive(root, "callable_id_to_name");
  if (map && !cJSON_IsNull(map)) {
    if (!cJSON_IsObject(map)) {
      (void)sl_err_set(err, name, "$.callable_id_to_name: expected an object");
      goto fail;
    }
    size_t n = (size_t)cJSON_GetArraySize(map);
    m->keys = sl_mem_calloc(n ? n : 1, sizeof *m->keys);
    m->names = sl_mem_calloc(n ? n : 1, sizeof *m->names);
    const cJSON *e;
    cJSON_ArrayForEach(e, map) {
      if (!cJSON_IsString(e)) {
        (void)sl_err_set(err, name, "$.callable_id_to_name.%s: expected a string name", e->string);
        goto fail;
      }
      /* a repeated key keeps its first position and the last value, like a Python dict */
      size_t klen = strlen(e->string);
      uint64_t j;
      char *v = sl_mem_strdup(e->valuestring);
      if (sl_map_str_get(&m->index, e->string, klen, &j)) {
        sl_mem_free(m->names[j]);
        m->names[j] = v;
        continue;
      }
      m->keys[m->n] = sl_mem_strdup(e->string);
      sl_map_str_put(&m->index, m->keys[m->n], klen, m->n);
      m->names[m->n++] = v;
    }
  }
  cJSON_Delete(root);
  return m;
fail:
  cJSON_Delete(root);
  sl_namemap_free(m);
  return NULL;
}

sl_namemap *sl_namemap_open(const char *path, sl_err *err) {
  struct stat st;
  if (stat(path, &st) != 0) {
    (void)sl_err_set(err, path, "Func names JSON not found");
    return NULL;
  }
  if (S_ISDIR(st.st_mode)) {
    (void)sl_err_set(err, path, "is a directory, expected a name map");
    return NULL;
  }
  size_t len;
  char *data;
  if (sl_file_read(path, &data, &len, err) != SL_OK) return NULL;
  sl_namemap *m = sl_namemap_open_mem(path, data, len, err);
  sl_mem_free(data);
  return m;
}

/* The commands' forms: the error printed. */
static sl_namemap *printed(sl_namemap *m, sl_err *err) {
  sl_err_print(err);
  sl_err_clear(err);
  return m;
}

sl_namemap *sl_namemap_load(const char *path) {
  sl_err err = SL_ERR_INIT;
  return printed(sl_namemap_open(path, &err), &err);
}

sl_namemap *sl_namemap_load_mem(const char *name, const void *data, size_t len) {
  sl_err err = SL_ERR_INIT;
  return printed(sl_namemap_open_mem(name, data, len, &err), &err);
}

const char *sl_namemap_lookup(const sl_namemap *m, int64_t func_id) {
  if (!m) return NULL;
  char key[32];
  int n = snprintf(key, sizeof key, "%lld", (long long)func_id);
  uint64_t i;
  return sl_map_str_get(&m->index, key, (size_t)n, &i) ? m->names[i] : NULL;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int sl_namemap_discover(const char *records_path, char **out, sl_err *warning) {
  *out = NULL;
  char *dir = sl_mem_strdup(records_path);
  char *slash = strrchr(dir, '/');
  if (slash)
    slash[slash == dir ? 1 : 0] = 0;
  else
    strcpy(dir, ".");
  DIR *d = opendir(dir);
  if (!d) {
    sl_mem_free(dir);
    return 0;
  }
  char **found = NULL;
  size_t n = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    size_t len = strlen(e->d_name);
    if (strncmp(e->d_name, "name_map", 8) != 0 || len < 13 || strcmp(e->d_name + len - 5, ".json") != 0) continue;
    char *full = strcmp(dir, ".") == 0 && !slash ? sl_mem_strdup(e->d_name) : sl_path_join(dir, e->d_name);
    struct stat st;
    if (stat(full, &st) == 0 && S_ISREG(st.st_mode))
      *sl_array_push(found, n, cap) = full;
    else
      sl_mem_free(full);
  }
  closedir(d);
  sl_mem_free(dir);
  if (n) qsort(found, n, sizeof *found, cmp_str);
  int rc = 0;
  if (n == 1) {
    *out = found[0];
    found[0] = NULL;
    rc = 1;
  } else if (n > 1) {
    char list[1024] = "";
    size_t l = 0;
    for (size_t i = 0; i < n && l < sizeof list; i++) {
      const char *b = strrchr(found[i], '/');
      l += (size_t)snprintf(list + l, sizeof list - l, "%s%s", i ? ", " : "", b ? b + 1 : found[i]);
    }
    (void)sl_err_set(warning, NULL, "multiple sibling name maps found next to %s: %s; pass --func-names explicitly.",
                     records_path, list);
  }
  for (size_t i = 0; i < n; i++) sl_mem_free(found[i]);
  sl_mem_free(found);
  return rc;
}
