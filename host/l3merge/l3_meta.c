/*
** l3_meta.c — the two small JSON artifacts the merge needs before reading a whole
** capture: dispatch_identity.json, and the capture's metadata object (host clock
** domain, the device_wall.sched window in cycles, the clock anchors), cut out of the
** head of chip_swimlane_records.json.
*/
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "l3.h"
#include "sl_base.h"

#define L3_HEAD_BYTES (1u << 20) /* metadata comes first and is small */

static int get_int(const cJSON *o, const char *k, int64_t *out) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  if (!cJSON_IsNumber(v)) return -1;
  *out = (int64_t)v->valuedouble;
  return 0;
}

static char *read_head(const char *path, size_t max, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = malloc(max + 1);
  size_t n = buf ? fread(buf, 1, max, f) : 0;
  fclose(f);
  if (!buf) return NULL;
  buf[n] = 0;
  *len = n;
  return buf;
}

int l3_read_identity(const char *path, l3_identity *id) {
  memset(id, 0, sizeof *id);
  size_t len;
  char *s = read_head(path, 1u << 16, &len);
  if (!s) return 0; /* optional: absent for old captures */
  cJSON *j = cJSON_ParseWithLength(s, len);
  free(s);
  int bad = !cJSON_IsObject(j);
  static const char *const keys[] = {"run_id", "task_slot", "group_index", "group_size", "chip_rank",
                                     "local_capture_index", "endpoint_dispatch_id"};
  int64_t *dst[] = {&id->run_id, &id->task_slot, &id->group_index, &id->group_size,
                    &id->chip_rank, &id->local_capture_index, &id->dispatch_id};
  for (int i = 0; i < 7 && !bad; i++)
    if (get_int(j, keys[i], dst[i])) {
      sl_error(path, "dispatch identity: '%s' missing or not a number", keys[i]);
      cJSON_Delete(j);
      return -1;
    }
  cJSON_Delete(j);
  if (bad) {
    sl_error(path, "dispatch identity: not a JSON object");
    return -1;
  }
  id->present = 1;
  return 0;
}

/* The text of the object after "metadata": in s, cut by brace matching. */
static const char *cut_metadata(const char *s, size_t *len) {
  const char *k = strstr(s, "\"metadata\"");
  const char *p = k ? strchr(k + 10, '{') : NULL;
  if (!p) return NULL;
  const char *e = sl_json_object_end(p, p + strlen(p));
  if (!e) return NULL;
  *len = (size_t)(e - p);
  return p;
}

static void read_anchors(l3_rank *r, const cJSON *ca) {
  const cJSON *samples = cJSON_GetObjectItemCaseSensitive(ca, "samples"), *s;
  int got = 0;
  cJSON_ArrayForEach(s, samples) {
    const cJSON *pos = cJSON_GetObjectItemCaseSensitive(s, "position");
    int i = cJSON_IsString(pos) && !strcmp(pos->valuestring, "post_device_execution");
    int64_t b, a, c;
    if (get_int(s, "host_before_ns", &b) || get_int(s, "host_after_ns", &a) || get_int(s, "device_cycles", &c))
      continue;
    r->anchor_host_ns[i] = b + (a - b) / 2;
    r->anchor_cycles[i] = (uint64_t)c;
    r->anchor_unc_ns[i] = (a - b + 1) / 2;
    got |= 1 << i;
  }
  r->has_anchors = got == 3;
}

int l3_read_capture_meta(l3_rank *r) {
  size_t len = 0, mlen = 0;
  char *s = read_head(r->records, L3_HEAD_BYTES, &len);
  if (!s) {
    sl_error(r->records, "rank %d: cannot read the capture: %s", r->rank, strerror(errno));
    return -1;
  }
  const char *m = cut_metadata(s, &mlen);
  cJSON *j = m ? cJSON_ParseWithLength(m, mlen) : NULL;
  free(s);
  if (!j) {
    sl_error(r->records, "rank %d: no readable metadata object at the head of the capture "
                         "(truncated, or not a chip swimlane capture)", r->rank);
    return -1;
  }
  const cJSON *dom = cJSON_GetObjectItemCaseSensitive(j, "host_clock_domain_id");
  if (cJSON_IsString(dom)) snprintf(r->domain, sizeof r->domain, "%s", dom->valuestring);
  int64_t v;
  if (!get_int(j, "clock_freq_hz", &v) && v > 0) r->freq_hz = (uint64_t)v;
  const cJSON *dw = cJSON_GetObjectItemCaseSensitive(j, "device_wall");
  if (!get_int(dw, "sched_start_cycles", &v)) r->sched_start_cycles = (uint64_t)v, r->has_sched_window = 1;
  read_anchors(r, cJSON_GetObjectItemCaseSensitive(j, "clock_anchors"));
  cJSON_Delete(j);
  if (!r->domain[0]) {
    sl_error(r->records, "rank %d: metadata.host_clock_domain_id is missing (not an L3 rank capture)", r->rank);
    return -1;
  }
  if (!r->freq_hz) {
    sl_error(r->records, "rank %d: metadata.clock_freq_hz is missing", r->rank);
    return -1;
  }
  return 0;
}
