/*
** reader_health.c — metadata.capture, the collector's loss accounting
** (truncated + pools{name: total, collected, dropped}), into capture->health.
** The .pb reader fills it from Metadata.capture; for JSON the block sits near the
** start of the file (after the short metadata), so only the head is parsed.
*/
#define _GNU_SOURCE /* memmem: the head is not NUL-terminated */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader_raw.h"
#include "reader_util.h"
#include "sl_base.h"
#include "sl_capture.h"

#define HEAD_BYTES (256 * 1024)

static uint64_t num(const cJSON *o, const char *k) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsNumber(v) && v->valuedouble > 0 && v->valuedouble < 1.8e19 ? (uint64_t)v->valuedouble : 0;
}

int sl_health_add_pool(sl_capture *c, const char *name, uint64_t total, uint64_t collected, uint64_t dropped) {
  sl_capture_health *h = &c->health;
  if (h->n_pools == SL_HEALTH_MAX_POOLS) return 0; /* more pools than any writer has: ignored */
  sl_pool_health *p = &h->pools[h->n_pools];
  p->name = sl_strtab_intern(&c->strings, name ? name : "", name ? strlen(name) : 0);
  if (p->name == SL_STR_NONE) return -1;
  p->total = total;
  p->collected = collected;
  p->dropped = dropped;
  h->n_pools++;
  return 0;
}

static const char *find(const char *h, size_t n, const char *needle) {
  return memmem(h, n, needle, strlen(needle));
}

/* The metadata.capture object of a JSON text's head, parsed; NULL when absent. */
static cJSON *capture_block(const char *head, size_t n) {
  const char *end = head + n;
  const char *meta = find(head, n, "\"metadata\"");
  const char *cap = meta ? find(meta, (size_t)(end - meta), "\"capture\"") : NULL;
  if (!cap) return NULL;
  const char *p = cap + 9;
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == ':')) p++;
  const char *e = p < end && *p == '{' ? sl_json_object_end(p, end) : NULL;
  return e ? cJSON_ParseWithLength(p, (size_t)(e - p)) : NULL;
}

int sl_health_from_json_head(sl_capture *c, const char *head, size_t n) {
  cJSON *b = capture_block(head, n < HEAD_BYTES ? n : HEAD_BYTES);
  const cJSON *pools = b ? cJSON_GetObjectItemCaseSensitive(b, "pools") : NULL;
  int rc = 0;
  if (cJSON_IsObject(pools)) {
    c->health.present = 1;
    c->health.truncated = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(b, "truncated"));
    const cJSON *pool;
    cJSON_ArrayForEach(pool, pools) {
      if (rc == 0)
        rc = sl_health_add_pool(c, pool->string, num(pool, "total"), num(pool, "collected"), num(pool, "dropped"));
    }
  }
  cJSON_Delete(b);
  return rc;
}

int sl_health_from_json_file(sl_capture *c, FILE *f) {
  char *head = malloc(HEAD_BYTES);
  if (!head) return -1;
  rewind(f);
  size_t n = fread(head, 1, HEAD_BYTES, f);
  int rc = sl_health_from_json_head(c, head, n);
  free(head);
  return rc;
}

uint64_t sl_capture_dropped(const sl_capture *c) {
  uint64_t lost = 0;
  for (size_t i = 0; i < c->health.n_pools; i++) lost += c->health.pools[i].dropped;
  return lost;
}
