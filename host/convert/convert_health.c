/*
** convert_health.c — the one health line convert prints for every capture: was
** it complete, and what each pool lost (metadata.capture, written by swimlane
** run's collector: truncated + pools{name: total, collected, dropped}).
** The block sits near the start of the records, so only the head is read.
*/
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sl_base.h"
#include "sl_convert.h"

#define HEAD_BYTES (256 * 1024)

/* metadata.capture of a JSON capture, parsed; NULL when absent or not JSON. */
static cJSON *read_capture_block(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *head = malloc(HEAD_BYTES + 1);
  size_t n = head ? fread(head, 1, HEAD_BYTES, f) : 0;
  fclose(f);
  if (!head) return NULL;
  head[n] = '\0';
  cJSON *block = NULL;
  const char *meta = strstr(head, "\"metadata\"");
  const char *cap = meta ? strstr(meta, "\"capture\"") : NULL;
  if (cap) {
    const char *p = cap + 9;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == ':') p++;
    const char *e = *p == '{' ? sl_json_object_end(p, head + n) : NULL;
    if (e) block = cJSON_ParseWithLength(p, (size_t)(e - p));
  }
  free(head);
  return block;
}

static unsigned long long num(const cJSON *o, const char *k) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsNumber(v) && v->valuedouble > 0 ? (unsigned long long)v->valuedouble : 0;
}

void sl_convert_print_health(FILE *out, const char *input, int quiet) {
  cJSON *b = read_capture_block(input);
  const cJSON *pools = b ? cJSON_GetObjectItemCaseSensitive(b, "pools") : NULL;
  if (!cJSON_IsObject(pools)) {
    fprintf(out, "swimlane: %s: capture health unknown (no metadata.capture loss accounting: "
                 "not a JSON capture written by swimlane run)\n", input);
    cJSON_Delete(b);
    return;
  }
  int truncated = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(b, "truncated"));
  unsigned long long lost = 0;
  const cJSON *pool;
  cJSON_ArrayForEach(pool, pools) lost += num(pool, "dropped");
  if (quiet && !truncated && !lost) {
    cJSON_Delete(b);
    return;
  }
  fprintf(out, "swimlane: %s: capture %s:", input,
          truncated ? "TRUNCATED (interrupted)" : lost ? "complete with drops" : "complete");
  const char *sep = " ";
  cJSON_ArrayForEach(pool, pools) {
    unsigned long long total = num(pool, "total"), dropped = num(pool, "dropped");
    if (dropped) fprintf(out, "%s%s %llu dropped of %llu", sep, pool->string, dropped, total);
    else fprintf(out, "%s%s %llu of %llu", sep, pool->string, num(pool, "collected"), total);
    sep = ", ";
  }
  fputc('\n', out);
  cJSON_Delete(b);
}
