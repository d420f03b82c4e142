/*
** reader_health.c — metadata.capture, the collector's loss accounting
** (truncated + pools{name: total, collected, dropped}), into capture->health, and
** metadata.task_timing_slots into capture->task_slots. The .pb reader fills them
** from Metadata; for JSON both sit near the start of the file (in the short
** metadata), so only the head is parsed.
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

void sl_health_add_pool(sl_capture *c, const char *name, uint64_t total, uint64_t collected, uint64_t dropped) {
  sl_capture_health *h = &c->health;
  if (h->n_pools == SL_HEALTH_MAX_POOLS) return; /* more pools than any writer has: ignored */
  sl_pool_health *p = &h->pools[h->n_pools];
  p->name = sl_intern_add(&c->strings, name ? name : "", name ? strlen(name) : 0);
  p->total = total;
  p->collected = collected;
  p->dropped = dropped;
  h->n_pools++;
}

static const char *find(const char *h, size_t n, const char *needle) {
  return memmem(h, n, needle, strlen(needle));
}

/* The metadata member `key` ("\"capture\"", with its quotes) of a JSON text's head,
** parsed when it is an object or an array; NULL when absent. */
static cJSON *head_member(const char *head, size_t n, const char *key) {
  const char *end = head + n;
  const char *meta = find(head, n, "\"metadata\"");
  const char *cap = meta ? find(meta, (size_t)(end - meta), key) : NULL;
  if (!cap) return NULL;
  const char *p = cap + strlen(key);
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == ':')) p++;
  /* the value alone: cJSON stops at its end (NULL when the head cuts it) */
  return p < end && (*p == '{' || *p == '[') ? cJSON_ParseWithLengthOpts(p, (size_t)(end - p), NULL, 0) : NULL;
}

void sl_capture_add_task_slot(sl_capture *c, uint32_t slot, uint64_t dispatch_cycles, uint64_t finish_cycles) {
  c->task_slots = sl_mem_array(c->task_slots, c->n_task_slots + 1, sizeof *c->task_slots);
  c->task_slots[c->n_task_slots++] = (sl_task_slot){slot, dispatch_cycles, finish_cycles, 0, 0};
}

/* metadata.task_timing_slots: entries that are not {slot, dispatch_cycles,
** finish_cycles} with finish >= dispatch are skipped (nothing to draw). */
static void slots_from_head(sl_capture *c, const char *head, size_t n) {
  cJSON *b = head_member(head, n, "\"task_timing_slots\"");
  const cJSON *s;
  if (cJSON_IsArray(b)) cJSON_ArrayForEach(s, b) {
      const cJSON *id = cJSON_GetObjectItemCaseSensitive(s, "slot");
      uint64_t d = num(s, "dispatch_cycles"), f = num(s, "finish_cycles");
      if (cJSON_IsNumber(id) && id->valuedouble >= 0 && id->valuedouble < 65536 && d && f >= d)
        sl_capture_add_task_slot(c, (uint32_t)id->valuedouble, d, f);
    }
  cJSON_Delete(b);
}

void sl_health_from_json_head(sl_capture *c, const char *head, size_t n) {
  if (n > HEAD_BYTES) n = HEAD_BYTES;
  cJSON *b = head_member(head, n, "\"capture\"");
  const cJSON *pools = b ? cJSON_GetObjectItemCaseSensitive(b, "pools") : NULL;
  if (cJSON_IsObject(pools)) {
    c->health.present = 1;
    c->health.truncated = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(b, "truncated"));
    const cJSON *pool;
    cJSON_ArrayForEach(pool, pools) {
      sl_health_add_pool(c, pool->string, num(pool, "total"), num(pool, "collected"), num(pool, "dropped"));
    }
  }
  cJSON_Delete(b);
  slots_from_head(c, head, n);
}

void sl_health_from_json_file(sl_capture *c, FILE *f) {
  char *head = sl_mem_alloc(HEAD_BYTES);
  rewind(f);
  size_t n = fread(head, 1, HEAD_BYTES, f);
  sl_health_from_json_head(c, head, n);
  sl_mem_free(head);
}

uint64_t sl_capture_dropped(const sl_capture *c) {
  uint64_t lost = 0;
  for (size_t i = 0; i < c->health.n_pools; i++) lost += c->health.pools[i].dropped;
  return lost;
}
