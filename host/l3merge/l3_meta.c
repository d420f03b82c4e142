/*
** l3_meta.c — the two small JSON artifacts the merge needs before reading a whole
** capture: dispatch_identity.json, and the capture's metadata object (host clock
** domain, the device_wall.sched window in cycles, the clock anchors), cut out of the
** head of chip_swimlane_records.json, or the Metadata message at the head of
** chip_swimlane_records.pb (the same fields).
*/
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "l3.h"
#include "sl_base.h"
#include "sl_mem.h"
#include "swimlane_capture.pb-c.h"

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
  char *buf = sl_mem_alloc(max + 1);
  size_t n = fread(buf, 1, max, f);
  fclose(f);
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
  sl_mem_free(s);
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
  if (!bad && get_int(j, "endpoint_pid", &id->endpoint_pid)) id->endpoint_pid = 0; /* optional */
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

/* One clock anchor sample: i = 0 pre_host_orchestration, 1 post_device_execution.
** Of several samples per position (a runtime's own anchors take 3) the one with the
** shortest round trip is kept, the first on a tie, as the converter selects them. */
static void set_anchor(l3_rank *r, int i, int got, int64_t before, int64_t after, int64_t cycles) {
  if ((got & (1 << i)) && after - before >= r->anchor_rtt_ns[i]) return;
  r->anchor_rtt_ns[i] = after - before;
  r->anchor_host_ns[i] = before + (after - before) / 2;
  r->anchor_cycles[i] = (uint64_t)cycles;
  r->anchor_unc_ns[i] = (after - before + 1) / 2;
}

static void read_anchors(l3_rank *r, const cJSON *ca) {
  const cJSON *samples = cJSON_GetObjectItemCaseSensitive(ca, "samples"), *s;
  int got = 0;
  cJSON_ArrayForEach(s, samples) {
    const cJSON *pos = cJSON_GetObjectItemCaseSensitive(s, "position");
    int i = cJSON_IsString(pos) && !strcmp(pos->valuestring, "post_device_execution");
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(s, "error");
    int64_t b, a, c;
    if ((cJSON_IsString(err) && err->valuestring[0]) || get_int(s, "host_before_ns", &b) ||
        get_int(s, "host_after_ns", &a) || get_int(s, "device_cycles", &c))
      continue;
    set_anchor(r, i, got, b, a, c);
    got |= 1 << i;
  }
  r->has_anchors = got == 3;
}

/* The fields every rank needs, whichever file they came from. */
static int check_meta(const l3_rank *r) {
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

static int read_json_meta(l3_rank *r, const char *s) {
  size_t mlen = 0;
  const char *m = cut_metadata(s, &mlen);
  cJSON *j = m ? cJSON_ParseWithLength(m, mlen) : NULL;
  if (!j) {
    sl_error(r->records, "rank %d: no readable metadata object at the head of the capture "
                         "(truncated, or not a chip swimlane capture)", r->rank);
    return -1;
  }
  const cJSON *src = cJSON_GetObjectItemCaseSensitive(j, "orchestrator_source");
  r->host_mode = cJSON_IsString(src) && !strcmp(src->valuestring, "host");
  const cJSON *dom = cJSON_GetObjectItemCaseSensitive(j, "host_clock_domain_id");
  if (cJSON_IsString(dom)) snprintf(r->domain, sizeof r->domain, "%s", dom->valuestring);
  int64_t v;
  if (!get_int(j, "clock_freq_hz", &v) && v > 0) r->freq_hz = (uint64_t)v;
  const cJSON *dw = cJSON_GetObjectItemCaseSensitive(j, "device_wall");
  if (!get_int(dw, "sched_start_cycles", &v)) r->sched_start_cycles = (uint64_t)v, r->has_sched_window = 1;
  read_anchors(r, cJSON_GetObjectItemCaseSensitive(j, "clock_anchors"));
  cJSON_Delete(j);
  return 0;
}

/* A base-128 varint at *p (< end); 0 ok, -1 truncated. */
static int pb_varint(const uint8_t **p, const uint8_t *end, uint64_t *v) {
  *v = 0;
  for (int shift = 0; *p < end && shift < 64; shift += 7) {
    uint8_t b = *(*p)++;
    *v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) return 0;
  }
  return -1;
}

/* Capture.metadata (field 3) among the top-level fields at the head of a .pb
** capture: protobuf-c writes fields in number order, so it comes after two strings. */
static const uint8_t *pb_find_metadata(const uint8_t *p, const uint8_t *end, size_t *len) {
  uint64_t tag, v;
  while (p < end && !pb_varint(&p, end, &tag)) {
    unsigned wire = (unsigned)(tag & 7);
    if (wire == 0 && !pb_varint(&p, end, &v)) continue;
    if (wire == 1 || wire == 5) {
      p += wire == 1 ? 8 : 4;
      continue;
    }
    if (wire != 2 || pb_varint(&p, end, &v) || v > (uint64_t)(end - p)) return NULL;
    if (tag >> 3 == 3) return *len = (size_t)v, p;
    p += v;
  }
  return NULL;
}

static int read_pb_meta(l3_rank *r, const char *s, size_t n) {
  size_t mlen = 0;
  const uint8_t *m = pb_find_metadata((const uint8_t *)s, (const uint8_t *)s + n, &mlen);
  Swimlane__Metadata *md = m ? swimlane__metadata__unpack(NULL, mlen, m) : NULL;
  if (!md) {
    sl_error(r->records, "rank %d: no readable Metadata message at the head of the capture "
                         "(truncated, or not a chip swimlane .pb capture)", r->rank);
    return -1;
  }
  if (md->host_clock_domain_id) snprintf(r->domain, sizeof r->domain, "%s", md->host_clock_domain_id);
  r->freq_hz = md->clock_freq_hz;
  r->host_mode = md->orchestrator_source && !strcmp(md->orchestrator_source, "host");
  if (md->device_wall) r->sched_start_cycles = md->device_wall->sched_start_cycles, r->has_sched_window = 1;
  int got = 0;
  const Swimlane__ClockAnchors *ca = md->clock_anchors;
  for (size_t k = 0; ca && k < ca->n_samples; k++) {
    const Swimlane__ClockAnchorSample *a = ca->samples[k];
    int i = a->position && !strcmp(a->position, "post_device_execution");
    if (a->error && a->error[0]) continue;
    set_anchor(r, i, got, (int64_t)a->host_before_ns, (int64_t)a->host_after_ns, (int64_t)a->device_cycles);
    got |= 1 << i;
  }
  r->has_anchors = got == 3;
  swimlane__metadata__free_unpacked(md, NULL);
  return 0;
}

int l3_read_capture_meta(l3_rank *r) {
  size_t len = 0;
  char *s = read_head(r->records, L3_HEAD_BYTES, &len);
  if (!s) {
    sl_error(r->records, "rank %d: cannot read the capture: %s", r->rank, strerror(errno));
    return -1;
  }
  size_t n = strlen(r->records);
  int pb = n > 3 && !strcmp(r->records + n - 3, ".pb");
  int rc = pb ? read_pb_meta(r, s, len) : read_json_meta(r, s);
  sl_mem_free(s);
  return rc ? rc : check_meta(r);
}
