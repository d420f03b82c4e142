/*
** reader_schema.c — is a capture's layout the one this build reads?
**
** Captures carry the writer's SL_SCHEMA_FINGERPRINT and SL_SCHEMA_LAYOUT (every capture
** field as "<message>.<path>=<type>@<pb>", and every phase id's name). On read:
**   same fingerprint                        silent
**   fields added / removed, phases renamed  read by field name (JSON) / number (.pb), one note
**   a field whose type or number changed    refused, naming the field (it would be misread)
**   no fingerprint (a reference capture)    silent; a fingerprint without a layout: one note
*/
#include <stdlib.h>
#include <string.h>

#include "reader_raw.h"
#include "sl_base.h"
#include "sl_generated_gate.h"
#include "sl_mem.h"

/* The value of `key=` in a ";"-separated layout, as pointer + length; NULL if absent. */
static const char *layout_value(const char *layout, const char *key, size_t klen, size_t *vlen) {
  for (const char *p = layout; p && *p;) {
    const char *end = strchr(p, ';');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    if (n > klen && p[klen] == '=' && memcmp(p, key, klen) == 0) {
      *vlen = n - klen - 1;
      return p + klen + 1;
    }
    p = end ? end + 1 : NULL;
  }
  return NULL;
}

size_t sl_layout_column_name(const char *layout, const char *proto, size_t col, char *out, size_t cap) {
  char key[96];
  int kn = snprintf(key, sizeof key, "columns.%s", proto);
  size_t vlen = 0;
  const char *v = kn > 0 && (size_t)kn < sizeof key ? layout_value(layout, key, (size_t)kn, &vlen) : NULL;
  for (size_t i = 0; v && vlen; i++) {
    const char *comma = memchr(v, ',', vlen);
    size_t n = comma ? (size_t)(comma - v) : vlen;
    if (i == col) {
      if (n == 0 || n >= cap) return 0;
      memcpy(out, v, n);
      out[n] = 0;
      return n;
    }
    if (!comma) break;
    vlen -= n + 1;
    v = comma + 1;
  }
  return 0;
}

/* "columns.<message>=a,b,c": a JSON row record's columns. Columns appended by either side
** read fine (the extra ones by the names the capture gives them, the missing ones as
** absent); any other difference moves a column and would misread it. */
static int columns_compatible(const char *a, size_t na, const char *b, size_t nb) {
  size_t n = na < nb ? na : nb;
  if (memcmp(a, b, n) != 0) return 0;
  return na == nb || (na > nb ? a[n] : b[n]) == ',';
}

/* The differences that read fine: how many, and the first (named in the note). */
typedef struct layout_diff {
  int n;
  const char *first;
  size_t first_len;
  const char *how; /* "only in the capture", "not in the capture", "changed" */
} layout_diff;

static void changed(layout_diff *d, const char *key, size_t klen, const char *how) {
  if (d->n++ == 0) {
    d->first = key;
    d->first_len = klen;
    d->how = how;
  }
}

/* Compares every entry of `theirs` with ours; counts differences that read fine and
** reports (once) the first that would be misread. Returns -1 when the capture is refused.
** The JSON row columns matter to JSON captures only (a .pb reads by field number). */
static int compare_layouts(const char *name, const char *theirs, int json, layout_diff *d, sl_err *err) {
  const char *ours = SL_SCHEMA_LAYOUT;
  for (const char *p = theirs; *p;) {
    const char *end = strchr(p, ';');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    const char *eq = memchr(p, '=', n);
    if (eq) {
      size_t klen = (size_t)(eq - p), vlen_t = n - klen - 1, vlen_o = 0;
      const char *vo = layout_value(ours, p, klen, &vlen_o);
      /* phase / orchestrator-kind ids name a kind: a rename is a change, not a misread */
      int is_phase = (klen > 6 && memcmp(p, "phase.", 6) == 0) || (klen > 5 && memcmp(p, "orch.", 5) == 0);
      int is_columns = klen > 8 && memcmp(p, "columns.", 8) == 0;
      if (is_columns && !json) {
        /* not what a .pb capture is read by */
      } else if (is_columns && vo && !columns_compatible(vo, vlen_o, eq + 1, vlen_t)) {
        (void)sl_err_set(err, name, "the JSON columns of %.*s were %.*s when captured, this build reads %.*s: "
                                    "refusing to misread them (convert its .pb capture, or with a swimlane "
                                    "built from the capture's schema)",
                         (int)(klen - 8), p + 8, (int)vlen_t, eq + 1, (int)vlen_o, vo);
        return -1;
      } else if (!vo) {
        changed(d, p, klen, "only in the capture"); /* a field this build lacks: an extra, or skipped */
      } else if (vlen_o != vlen_t || memcmp(vo, eq + 1, vlen_t) != 0) {
        if (is_phase || is_columns) { /* a kind renamed; columns appended (compatible, above) */
          changed(d, p, klen, "changed");
        } else {
          (void)sl_err_set(err, name, "field %.*s was %.*s when captured, this build reads %.*s: refusing to misread "
                         "it (convert with a swimlane built from the capture's schema, or give the "
                         "changed field a new name and pb number)",
                   (int)klen, p, (int)vlen_t, eq + 1, (int)vlen_o, vo);
          return -1;
        }
      }
    }
    if (!end) break;
    p = end + 1;
  }
  /* fields this build has and the capture lacks: read as absent */
  for (const char *p = ours; *p;) {
    const char *end = strchr(p, ';');
    size_t n = end ? (size_t)(end - p) : strlen(p), vlen = 0;
    const char *eq = memchr(p, '=', n);
    int is_columns = n > 8 && memcmp(p, "columns.", 8) == 0;
    if (eq && !(is_columns && !json) && !layout_value(theirs, p, (size_t)(eq - p), &vlen))
      changed(d, p, (size_t)(eq - p), "not in the capture");
    if (!end) break;
    p = end + 1;
  }
  return 0;
}

int sl_schema_check(const char *name, const char *fingerprint, const char *layout, int json, char **note,
                    sl_err *err) {
  *note = NULL;
  if (!fingerprint || !*fingerprint) return 0; /* the reference's captures carry none */
  if (!strcmp(fingerprint, SL_SCHEMA_FINGERPRINT)) return 0;
  if (!layout || !*layout) {
    *note = sl_mem_printf("captured under schema fingerprint %s, this build reads %s and the capture "
                          "carries no layout: reading it by field name",
                          fingerprint, SL_SCHEMA_FINGERPRINT);
    return 0;
  }
  layout_diff d = {0};
  if (compare_layouts(name, layout, json, &d, err) != 0) return -1;
  if (d.n == 0)
    *note = sl_mem_printf("schema fingerprint %s differs from this build's %s but the capture's layout is "
                          "the same; reading it", fingerprint, SL_SCHEMA_FINGERPRINT);
  else
    *note = sl_mem_printf("captured under another schema (fingerprint %s, this build %s): %d field(s) or "
                          "phase(s) differ (first %.*s, %s), none that would be misread; reading by field "
                          "name and number",
                          fingerprint, SL_SCHEMA_FINGERPRINT, d.n, (int)d.first_len, d.first, d.how);
  return 0;
}
