/*
** diff_stats.c — the significance rule of `swimlane diff`: Welch's t-test on the
** per-capture (or, with one capture per side, per-task-row) samples. Why Welch:
** the slowed side usually has a different variance too, the samples are few, and the
** test still gives a usable answer with 2 + 2 samples (see docs/diff.md).
*/
#include <math.h>

#include "sl_diff.h"

double sl_diff_mean(const double *x, size_t n) {
  if (!n) return NAN;
  double s = 0;
  for (size_t i = 0; i < n; i++) s += x[i];
  return s / (double)n;
}

double sl_diff_sd(const double *x, size_t n) {
  if (n < 2) return NAN;
  double m = sl_diff_mean(x, n), s = 0;
  for (size_t i = 0; i < n; i++) s += (x[i] - m) * (x[i] - m);
  return sqrt(s / (double)(n - 1));
}

/* Continued fraction of the incomplete beta (modified Lentz). */
static double beta_cf(double x, double a, double b) {
  const double tiny = 1e-300;
  double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
  if (fabs(d) < tiny) d = tiny;
  d = 1.0 / d;
  double h = d;
  for (int m = 1; m <= 300; m++) {
    double m2 = 2.0 * m;
    double num = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
    for (int half = 0; half < 2; half++) {
      d = 1.0 + num * d;
      if (fabs(d) < tiny) d = tiny;
      c = 1.0 + num / c;
      if (fabs(c) < tiny) c = tiny;
      d = 1.0 / d;
      h *= d * c;
      num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
    }
    if (fabs(d * c - 1.0) < 1e-14) break;
  }
  return h;
}

double sl_diff_ibeta(double x, double a, double b) {
  if (x <= 0.0) return 0.0;
  if (x >= 1.0) return 1.0;
  double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
  /* the fraction converges fast on this side of the mean; use symmetry otherwise */
  if (x < (a + 1.0) / (a + b + 2.0)) return exp(lbt) * beta_cf(x, a, b) / a;
  return 1.0 - exp(lbt) * beta_cf(1.0 - x, b, a) / b;
}

double sl_diff_welch_p(double m1, double s1, size_t n1, double m2, double s2, size_t n2) {
  if (n1 < 2 || n2 < 2 || isnan(s1) || isnan(s2)) return NAN;
  double v1 = s1 * s1 / (double)n1, v2 = s2 * s2 / (double)n2, se2 = v1 + v2;
  if (se2 <= 0.0) return m1 == m2 ? 1.0 : 0.0; /* no noise at all: any change is real */
  double t = (m2 - m1) / sqrt(se2);
  double df = se2 * se2 / (v1 * v1 / (double)(n1 - 1) + v2 * v2 / (double)(n2 - 1));
  return sl_diff_ibeta(df / (df + t * t), df / 2.0, 0.5);
}

sl_delta sl_diff_delta(const double *base, size_t nb, const double *cur, size_t nn) {
  sl_delta d = {.nb = nb, .nn = nn};
  d.base = sl_diff_mean(base, nb);
  d.cur = sl_diff_mean(cur, nn);
  if (!nb) d.base = 0.0;
  if (!nn) d.cur = 0.0;
  d.delta = d.cur - d.base;
  d.pct = d.base != 0.0 ? 100.0 * d.delta / fabs(d.base) : NAN;
  double sb = sl_diff_sd(base, nb), sn = sl_diff_sd(cur, nn);
  d.spread = nb >= 2 && nn >= 2 ? sqrt(sb * sb / (double)nb + sn * sn / (double)nn) : NAN;
  d.p = sl_diff_welch_p(d.base, sb, nb, d.cur, sn, nn);
  d.significant = isnan(d.p) ? -1 : d.p < SL_DIFF_ALPHA;
  return d;
}
