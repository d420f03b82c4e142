/*
** diff_failif.c — CI bounds: `--fail-if makespan>5%`, `--fail-if MATMUL>10us`,
** `--fail-if 'MATMUL.latency>3%'`, `--fail-if '*.exec>20%'`. A bound is exceeded when
** the delta (new - base, in us or in % of the base) is above it.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sl_diff.h"

int sl_failif_parse(const char *text, sl_failif *f) {
  memset(f, 0, sizeof *f);
  f->text = text;
  f->metric = SL_FM_EXEC;
  const char *gt = strchr(text, '>');
  if (!gt || gt == text || (size_t)(gt - text) >= sizeof f->subject) return -1;
  memcpy(f->subject, text, (size_t)(gt - text));
  char *dot = strrchr(f->subject, '.');
  if (dot && strcmp(f->subject, "makespan") != 0) {
    int m = 0;
    while (m < SL_FM_COUNT && strcmp(dot + 1, sl_func_metric_names[m]) != 0) m++;
    if (m == SL_FM_COUNT) return -1;
    f->metric = m;
    *dot = '\0';
  }
  char *end;
  f->limit = strtod(gt + 1, &end);
  if (end == gt + 1 || !isfinite(f->limit)) return -1;
  if (!strcmp(end, "%")) f->percent = 1;
  else if (*end && strcmp(end, "us") != 0) return -1;
  return f->subject[0] ? 0 : -1;
}

static int exceeded(const sl_failif *f, const sl_delta *d) {
  double v = f->percent ? d->pct : d->delta;
  return !isnan(v) && v > f->limit;
}

static void offend(FILE *err, const sl_failif *f, const char *what, const sl_delta *d) {
  fprintf(err, "swimlane: --fail-if '%s': %s %+.2f us (%+.1f%%): base %.2f, new %.2f\n", f->text,
          what, d->delta, d->pct, d->base, d->cur);
}

static int subject_is(const sl_failif *f, const sl_diff_func_row *r) {
  if (!strcmp(f->subject, "*") || !strcmp(f->subject, r->name)) return 1;
  char *end;
  long long id = strtoll(f->subject, &end, 10);
  return !*end && id == r->func_id;
}

int sl_failif_check(const sl_failif *f, size_t n, const sl_diff_report *rep, FILE *err) {
  int hits = 0;
  for (size_t i = 0; i < n; i++) {
    if (!strcmp(f[i].subject, "makespan")) {
      if (exceeded(&f[i], &rep->makespan)) offend(err, &f[i], "makespan", &rep->makespan), hits++;
      continue;
    }
    int known = 0;
    for (size_t k = 0; k < rep->n_funcs; k++) {
      const sl_diff_func_row *r = &rep->funcs[k];
      if (!subject_is(&f[i], r)) continue;
      known = 1;
      if (!exceeded(&f[i], &r->m[f[i].metric])) continue;
      char what[96];
      snprintf(what, sizeof what, "%s %s", r->name, sl_func_metric_names[f[i].metric]);
      offend(err, &f[i], what, &r->m[f[i].metric]);
      hits++;
    }
    if (!known && strcmp(f[i].subject, "*") != 0) {
      fprintf(err, "swimlane: --fail-if '%s': no function '%s' in either capture\n", f[i].text,
              f[i].subject);
      return -1;
    }
  }
  return hits;
}
